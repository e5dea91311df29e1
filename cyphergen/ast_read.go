package cyphergen

import (
	"strconv"
	"strings"
)

// Hops is the length range of a variable-length relationship pattern: -[*Min..Max]->. Max < 0
// means no upper bound.
type Hops struct{ Min, Max int }

// String prints the range as Cypher: *2 for a fixed length, *1..3, *2.. or *.
func (h Hops) String() string {
	switch {
	case h.Max < 0 && h.Min == 1:
		return "*"
	case h.Max < 0:
		return "*" + strconv.Itoa(h.Min) + ".."
	case h.Min == h.Max:
		return "*" + strconv.Itoa(h.Min)
	}
	return "*" + strconv.Itoa(h.Min) + ".." + strconv.Itoa(h.Max)
}

// MapLit is a map literal {k1: e1, k2: e2}.
type MapLit struct{ Entries []PropEq }

// MapProj is a map projection X{.k1, k: e, .*} of a node, a relationship or a map.
type MapProj struct {
	X     Expr
	Items []MapItem
}

// MapItem is one entry of a map projection: .Key (Val nil), Key: Val, or .* (All).
type MapItem struct {
	Key string
	Val Expr
	All bool
}

// ListComp is the list comprehension [Var IN List WHERE Where | Map]; Where and Map may be nil.
type ListComp struct {
	Var        string
	List       Expr
	Where, Map Expr
}

// Subquery is EXISTS { MATCH ... [WHERE ...] } (a boolean) or COUNT { ... } (the number of
// matches), with the patterns and WHERE of Match (never Optional). Short forms print as the
// full form.
type Subquery struct {
	Count bool
	Match *Match
}

func (*MapLit) isExpr()   {}
func (*MapProj) isExpr()  {}
func (*ListComp) isExpr() {}
func (*Subquery) isExpr() {}

// printReadExpr prints the expressions of this file; false for any other.
func printReadExpr(b *strings.Builder, e Expr) bool {
	switch e := e.(type) {
	case *MapLit:
		b.WriteString("{")
		for i, p := range e.Entries {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Ident(p.Key) + ": ")
			printExpr(b, p.Val)
		}
		b.WriteString("}")
	case *MapProj:
		printExpr(b, e.X)
		b.WriteString("{")
		for i, it := range e.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			switch {
			case it.All:
				b.WriteString(".*")
			case it.Val == nil:
				b.WriteString("." + Ident(it.Key))
			default:
				b.WriteString(Ident(it.Key) + ": ")
				printExpr(b, it.Val)
			}
		}
		b.WriteString("}")
	case *ListComp:
		b.WriteString("[" + Ident(e.Var) + " IN ")
		printExpr(b, e.List)
		if e.Where != nil {
			b.WriteString(" WHERE ")
			printExpr(b, e.Where)
		}
		if e.Map != nil {
			b.WriteString(" | ")
			printExpr(b, e.Map)
		}
		b.WriteString("]")
	case *Subquery:
		if e.Count {
			b.WriteString("COUNT { ")
		} else {
			b.WriteString("EXISTS { ")
		}
		printClause(b, e.Match)
		b.WriteString(" }")
	default:
		return false
	}
	return true
}

// rewriteRead is rewrite's case for the expressions of this file: e with its subexpressions
// rewritten by rw (subquery patterns are left alone), or nil for any other expression.
func rewriteRead(e Expr, rw func(Expr) Expr) Expr {
	switch e := e.(type) {
	case *MapLit:
		m := &MapLit{Entries: make([]PropEq, len(e.Entries))}
		for i, p := range e.Entries {
			m.Entries[i] = PropEq{Key: p.Key, Val: rw(p.Val)}
		}
		return m
	case *MapProj:
		m := &MapProj{X: rw(e.X), Items: make([]MapItem, len(e.Items))}
		for i, it := range e.Items {
			m.Items[i] = MapItem{Key: it.Key, Val: rw(it.Val), All: it.All}
		}
		return m
	case *ListComp:
		return &ListComp{Var: e.Var, List: rw(e.List), Where: rw(e.Where), Map: rw(e.Map)}
	case *Subquery:
		m := *e.Match
		m.Where = rw(m.Where)
		return &Subquery{Count: e.Count, Match: &m}
	}
	return nil
}

// readChildren is exprChildren's case for the expressions of this file.
func readChildren(e Expr) []*Expr {
	var out []*Expr
	switch e := e.(type) {
	case *MapLit:
		for i := range e.Entries {
			out = append(out, &e.Entries[i].Val)
		}
	case *MapProj:
		out = append(out, &e.X)
		for i := range e.Items {
			if e.Items[i].Val != nil {
				out = append(out, &e.Items[i].Val)
			}
		}
	case *ListComp:
		out = append(out, &e.List)
		if e.Where != nil {
			out = append(out, &e.Where)
		}
		if e.Map != nil {
			out = append(out, &e.Map)
		}
	case *Subquery:
		if e.Match.Where != nil {
			out = append(out, &e.Match.Where)
		}
	}
	return out
}

// readFeature is exprFeature's case for the expressions of this file.
func readFeature(e Expr) string {
	switch e := e.(type) {
	case *MapLit:
		return "map-literal"
	case *MapProj:
		return "map-projection"
	case *ListComp:
		return "list-comprehension"
	case *Subquery:
		if e.Count {
			return "count-subquery"
		}
		return "exists-subquery"
	}
	return ""
}

// readExprFeatures adds the features inside the expressions of this file.
func readExprFeatures(e Expr, set map[string]bool) {
	switch e := e.(type) {
	case *MapProj:
		for _, it := range e.Items {
			if it.All {
				set["map-projection-all"] = true
			}
		}
	case *Subquery:
		for _, p := range e.Match.Patterns {
			patternFeatures(p, set)
		}
	}
	for _, c := range readChildren(e) {
		exprFeatures(*c, set)
	}
}

// pathFeatures adds a pattern's path variable and variable-length relationships.
func pathFeatures(p Pattern, set map[string]bool) {
	if p.Var != "" {
		set["named-path"] = true
	}
	for _, r := range p.Rels {
		if r.Hops != nil {
			set["var-length"] = true
			if r.Var != "" {
				set["var-length-var"] = true
			}
		}
	}
}

// CallSub is the subquery clause CALL { Body }: Body runs once per input row, seeing only the
// variables its first clause, a WITH of plain variables, imports; the columns of its RETURN
// join the row.
type CallSub struct{ Body *SingleQuery }

func (*CallSub) isClause() {}

// Columns returns the names the subquery's RETURN binds.
func (c *CallSub) Columns() []string {
	var out []string
	if n := len(c.Body.Clauses); n > 0 {
		if r, ok := c.Body.Clauses[n-1].(*Return); ok {
			for _, it := range r.Items {
				out = append(out, it.Name())
			}
		}
	}
	return out
}

// printReadClause prints the clauses of this file.
func printReadClause(b *strings.Builder, c Clause) {
	if c, ok := c.(*CallSub); ok {
		b.WriteString("CALL { ")
		c.Body.print(b)
		b.WriteString(" }")
	}
}
