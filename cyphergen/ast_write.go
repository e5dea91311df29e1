package cyphergen

import "strings"

// Create is CREATE of comma-separated patterns: every node pattern whose variable is not bound
// makes a node, every relationship pattern a relationship (one type, a direction).
type Create struct {
	Patterns []Pattern
}

// Merge is MERGE of one pattern: the rows where the whole pattern matches, or else the whole
// pattern created (its bound nodes reused).
type Merge struct {
	Pattern Pattern
}

// SetClause is SET of comma-separated items.
type SetClause struct {
	Items []SetItem
}

// SetItem is one item of SET: `Var.Key = Val` when Key is set, `Var += {Map}` when Merge, else
// `Var:Labels...`.
type SetItem struct {
	Var    string
	Key    string
	Val    Expr
	Merge  bool
	Map    []PropEq
	Labels []string
}

// Remove is REMOVE of comma-separated items.
type Remove struct {
	Items []RemoveItem
}

// RemoveItem is `Var.Key` when Key is set, else `Var:Labels...`.
type RemoveItem struct {
	Var    string
	Key    string
	Labels []string
}

// Delete is DELETE or DETACH DELETE of comma-separated expressions (nodes, relationships, null).
type Delete struct {
	Detach bool
	Exprs  []Expr
}

func (*Create) isClause()    {}
func (*Merge) isClause()     {}
func (*SetClause) isClause() {}
func (*Remove) isClause()    {}
func (*Delete) isClause()    {}

// IsWrite reports whether c is a writing clause: CREATE, MERGE, SET, REMOVE or DELETE.
func IsWrite(c Clause) bool {
	switch c.(type) {
	case *Create, *Merge, *SetClause, *Remove, *Delete:
		return true
	}
	return false
}

// Writes reports whether q has a writing clause.
func (q *Query) Writes() bool {
	for _, p := range q.Parts {
		for _, c := range p.Clauses {
			if IsWrite(c) {
				return true
			}
		}
	}
	return false
}

// printWriteClause prints a writing clause; it reports false for any other clause.
func printWriteClause(b *strings.Builder, c Clause) bool {
	switch c := c.(type) {
	case *Create:
		b.WriteString("CREATE ")
		for i, p := range c.Patterns {
			if i > 0 {
				b.WriteString(", ")
			}
			p.print(b)
		}
	case *Merge:
		b.WriteString("MERGE ")
		c.Pattern.print(b)
	case *SetClause:
		b.WriteString("SET ")
		for i, it := range c.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Ident(it.Var))
			switch {
			case it.Key != "":
				b.WriteString("." + Ident(it.Key) + " = ")
				printExpr(b, it.Val)
			case it.Merge:
				b.WriteString(" +=")
				if len(it.Map) == 0 {
					b.WriteString(" {}")
				}
				printPropMap(b, it.Map)
			default:
				printLabels(b, it.Labels)
			}
		}
	case *Remove:
		b.WriteString("REMOVE ")
		for i, it := range c.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Ident(it.Var))
			if it.Key != "" {
				b.WriteString("." + Ident(it.Key))
			} else {
				printLabels(b, it.Labels)
			}
		}
	case *Delete:
		if c.Detach {
			b.WriteString("DETACH ")
		}
		b.WriteString("DELETE ")
		for i, e := range c.Exprs {
			if i > 0 {
				b.WriteString(", ")
			}
			printExpr(b, e)
		}
	default:
		return false
	}
	return true
}

func printLabels(b *strings.Builder, ls []string) {
	for _, l := range ls {
		b.WriteString(":" + Ident(l))
	}
}

// writeFeatures adds the features of a writing clause ([Features]).
func writeFeatures(c Clause, set map[string]bool) {
	switch c := c.(type) {
	case *Create:
		set["create"] = true
		for _, p := range c.Patterns {
			patternFeatures(p, set)
		}
	case *Merge:
		set["merge"] = true
		patternFeatures(c.Pattern, set)
	case *SetClause:
		for _, it := range c.Items {
			switch {
			case it.Key != "":
				set["set"] = true
				exprFeatures(it.Val, set)
			case it.Merge:
				set["set-map"] = true
				for _, p := range it.Map {
					exprFeatures(p.Val, set)
				}
			default:
				set["set-label"] = true
			}
		}
	case *Remove:
		for _, it := range c.Items {
			if it.Key != "" {
				set["remove"] = true
			} else {
				set["remove-label"] = true
			}
		}
	case *Delete:
		if c.Detach {
			set["detach-delete"] = true
		} else {
			set["delete"] = true
		}
		for _, e := range c.Exprs {
			exprFeatures(e, set)
		}
	}
}
