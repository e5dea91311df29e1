package cyphergen

import (
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// Query is a Cypher query: one or more single queries joined by UNION or UNION ALL.
type Query struct {
	Parts []*SingleQuery
	// All[i] says that Parts[i] and Parts[i+1] are joined by UNION ALL rather than UNION.
	All []bool
}

// SingleQuery is a sequence of clauses that ends with a *Return.
type SingleQuery struct {
	Clauses []Clause
}

// Clause is one of *Match, *Unwind, *With, *Return, *CallSub.
type Clause interface{ isClause() }

// Match is MATCH or OPTIONAL MATCH of comma-separated patterns, with an optional WHERE.
type Match struct {
	Optional bool
	Patterns []Pattern
	Where    Expr // nil for none
}

// Unwind is UNWIND List AS Var.
type Unwind struct {
	List Expr
	Var  string
}

// With is WITH projection [WHERE cond].
type With struct {
	Projection
	Where Expr // nil for none
}

// Return is RETURN projection; it ends a single query.
type Return struct {
	Projection
}

func (*Match) isClause()  {}
func (*Unwind) isClause() {}
func (*With) isClause()   {}
func (*Return) isClause() {}

// Projection is the body of WITH and RETURN: [DISTINCT] items [ORDER BY ...] [SKIP n] [LIMIT n].
type Projection struct {
	Distinct bool
	Items    []Item
	Order    []SortItem
	Skip     *int64 // nil for none
	Limit    *int64 // nil for none
}

// Item is one projected expression. An empty Alias, or a bare variable aliased to its own name,
// prints as the expression alone.
type Item struct {
	Expr  Expr
	Alias string
}

// Name returns the column or variable name the item binds: its alias, or the variable's name.
func (it Item) Name() string {
	if it.Alias != "" {
		return it.Alias
	}
	if v, ok := it.Expr.(*Var); ok {
		return v.Name
	}
	return Print(it.Expr)
}

// SortItem is one ORDER BY key.
type SortItem struct {
	Expr Expr
	Desc bool
}

// Pattern is a linear path pattern (n0)-[r0]->(n1)<-[r1]-(n2)...; len(Rels) == len(Nodes)-1.
type Pattern struct {
	Var   string // the path variable of p = (...)...; "" for none
	Nodes []NodePat
	Rels  []RelPat
}

// NodePat is (var :L1:L2 {k: v}).
type NodePat struct {
	Var    string // "" for an anonymous node
	Labels []string
	Props  []PropEq
}

// Dir is the direction of a relationship pattern, read from its left node to its right node.
type Dir uint8

// Directions.
const (
	Out  Dir = iota // (a)-[r]->(b)
	In              // (a)<-[r]-(b)
	Both            // (a)-[r]-(b)
)

// RelPat is -[var :T1|T2 {k: v}]-> (or <-...-, -...-).
type RelPat struct {
	Var   string   // "" for an anonymous relationship
	Types []string // alternatives; empty for any type
	Dir   Dir
	Props []PropEq
	Hops  *Hops // a variable-length relationship's range; nil for a single relationship
}

// PropEq is one `key: value` of a pattern's property map.
type PropEq struct {
	Key string
	Val Expr
}

// Expr is one of *Lit, *Var, *Property, *Unary, *IsNull, *Binary, *Call, *Case, *ListExpr, *Index,
// *HasLabels.
type Expr interface{ isExpr() }

// Lit is a literal: null, a boolean, an integer, a float or a string.
type Lit struct{ Val cypherval.Val }

// Var is a variable.
type Var struct{ Name string }

// Property is X.Key.
type Property struct {
	X   Expr
	Key string
}

// Unary is NOT X or -X.
type Unary struct {
	Op string // "NOT" or "-"
	X  Expr
}

// IsNull is X IS NULL, or X IS NOT NULL when Not.
type IsNull struct {
	X   Expr
	Not bool
}

// Binary is L Op R. Ops: AND OR XOR = <> < <= > >= + - * / % IN, and "STARTS WITH",
// "ENDS WITH", "CONTAINS".
type Binary struct {
	Op   string
	L, R Expr
}

// Call is a function or aggregate call Name([DISTINCT] args), or count(*) when Star.
type Call struct {
	Name     string
	Args     []Expr
	Distinct bool
	Star     bool
}

// Case is CASE [Test] WHEN ... THEN ... [ELSE ...] END; Test is nil for the generic form.
type Case struct {
	Test  Expr
	Whens []When
	Else  Expr // nil for none
}

// When is one WHEN Cond THEN Then of a Case.
type When struct {
	Cond, Then Expr
}

// ListExpr is a list [e1, e2, ...].
type ListExpr struct{ Elems []Expr }

// Index is X[I].
type Index struct{ X, I Expr }

// HasLabels is X:L1:L2, true when node X has every label.
type HasLabels struct {
	X      Expr
	Labels []string
}

func (*Lit) isExpr()       {}
func (*Var) isExpr()       {}
func (*Property) isExpr()  {}
func (*Unary) isExpr()     {}
func (*IsNull) isExpr()    {}
func (*Binary) isExpr()    {}
func (*Call) isExpr()      {}
func (*Case) isExpr()      {}
func (*ListExpr) isExpr()  {}
func (*Index) isExpr()     {}
func (*HasLabels) isExpr() {}

// Aggregates lists the aggregate functions, by lowercase name.
var Aggregates = map[string]bool{
	"count": true, "sum": true, "avg": true, "min": true, "max": true, "collect": true,
	"stdev": true, "stdevp": true, "percentiledisc": true, "percentilecont": true,
}

// String prints q as Cypher text ([Print] for expressions).
func (q *Query) String() string {
	var b strings.Builder
	for i, p := range q.Parts {
		if i > 0 {
			if q.All[i-1] {
				b.WriteString(" UNION ALL ")
			} else {
				b.WriteString(" UNION ")
			}
		}
		p.print(&b)
	}
	return b.String()
}

// String prints the single query as Cypher text.
func (s *SingleQuery) String() string {
	var b strings.Builder
	s.print(&b)
	return b.String()
}

func (s *SingleQuery) print(b *strings.Builder) {
	for i, c := range s.Clauses {
		if i > 0 {
			b.WriteByte(' ')
		}
		printClause(b, c)
	}
}

func printClause(b *strings.Builder, c Clause) {
	switch c := c.(type) {
	case *Match:
		if c.Optional {
			b.WriteString("OPTIONAL ")
		}
		b.WriteString("MATCH ")
		for i, p := range c.Patterns {
			if i > 0 {
				b.WriteString(", ")
			}
			p.print(b)
		}
		printWhere(b, c.Where)
	case *Unwind:
		b.WriteString("UNWIND ")
		printExpr(b, c.List)
		b.WriteString(" AS " + Ident(c.Var))
	case *With:
		b.WriteString("WITH ")
		c.Projection.print(b)
		printWhere(b, c.Where)
	case *Return:
		b.WriteString("RETURN ")
		c.Projection.print(b)
	default:
		if !printWriteClause(b, c) {
			printReadClause(b, c)
		}
	}
}

func printWhere(b *strings.Builder, e Expr) {
	if e != nil {
		b.WriteString(" WHERE ")
		printExpr(b, e)
	}
}

func (p *Projection) print(b *strings.Builder) {
	if p.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, it := range p.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		printExpr(b, it.Expr)
		if v, ok := it.Expr.(*Var); it.Alias != "" && !(ok && v.Name == it.Alias) {
			b.WriteString(" AS " + Ident(it.Alias))
		}
	}
	if len(p.Order) > 0 {
		b.WriteString(" ORDER BY ")
		for i, s := range p.Order {
			if i > 0 {
				b.WriteString(", ")
			}
			printExpr(b, s.Expr)
			if s.Desc {
				b.WriteString(" DESC")
			}
		}
	}
	if p.Skip != nil {
		b.WriteString(" SKIP " + strconv.FormatInt(*p.Skip, 10))
	}
	if p.Limit != nil {
		b.WriteString(" LIMIT " + strconv.FormatInt(*p.Limit, 10))
	}
}

// String prints the pattern as Cypher text.
func (p Pattern) String() string {
	var b strings.Builder
	p.print(&b)
	return b.String()
}

func (p Pattern) print(b *strings.Builder) {
	if p.Var != "" {
		b.WriteString(Ident(p.Var) + " = ")
	}
	for i, n := range p.Nodes {
		if i > 0 {
			r := p.Rels[i-1]
			if r.Dir == In {
				b.WriteString("<-[")
			} else {
				b.WriteString("-[")
			}
			printVar(b, r.Var)
			for j, t := range r.Types {
				if j == 0 {
					b.WriteString(":")
				} else {
					b.WriteString("|")
				}
				b.WriteString(Ident(t))
			}
			if r.Hops != nil {
				b.WriteString(r.Hops.String())
			}
			printPropMap(b, r.Props)
			if r.Dir == Out {
				b.WriteString("]->")
			} else {
				b.WriteString("]-")
			}
		}
		b.WriteString("(")
		printVar(b, n.Var)
		for _, l := range n.Labels {
			b.WriteString(":" + Ident(l))
		}
		printPropMap(b, n.Props)
		b.WriteString(")")
	}
}

// printVar prints a pattern element's variable; an anonymous element has none.
func printVar(b *strings.Builder, name string) {
	if name != "" {
		b.WriteString(Ident(name))
	}
}

func printPropMap(b *strings.Builder, ps []PropEq) {
	if len(ps) == 0 {
		return
	}
	b.WriteString(" {")
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Ident(p.Key) + ": ")
		printExpr(b, p.Val)
	}
	b.WriteString("}")
}

// Print prints an expression as Cypher text. Every operator application is parenthesised, so the
// text never depends on an engine's precedence rules.
func Print(e Expr) string {
	var b strings.Builder
	printExpr(&b, e)
	return b.String()
}

func printExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Lit:
		b.WriteString(LiteralVal(e.Val))
	case *Var:
		b.WriteString(Ident(e.Name))
	case *Property:
		printExpr(b, e.X)
		b.WriteString("." + Ident(e.Key))
	case *Unary:
		b.WriteString("(")
		if e.Op == "NOT" {
			b.WriteString("NOT ")
		} else {
			b.WriteString(e.Op)
		}
		printExpr(b, e.X)
		b.WriteString(")")
	case *IsNull:
		b.WriteString("(")
		printExpr(b, e.X)
		if e.Not {
			b.WriteString(" IS NOT NULL)")
		} else {
			b.WriteString(" IS NULL)")
		}
	case *Binary:
		b.WriteString("(")
		printExpr(b, e.L)
		b.WriteString(" " + e.Op + " ")
		printExpr(b, e.R)
		b.WriteString(")")
	case *Call:
		b.WriteString(e.Name + "(")
		if e.Star {
			b.WriteString("*")
		}
		if e.Distinct {
			b.WriteString("DISTINCT ")
		}
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			printExpr(b, a)
		}
		b.WriteString(")")
	case *Case:
		b.WriteString("CASE")
		if e.Test != nil {
			b.WriteString(" ")
			printExpr(b, e.Test)
		}
		for _, w := range e.Whens {
			b.WriteString(" WHEN ")
			printExpr(b, w.Cond)
			b.WriteString(" THEN ")
			printExpr(b, w.Then)
		}
		if e.Else != nil {
			b.WriteString(" ELSE ")
			printExpr(b, e.Else)
		}
		b.WriteString(" END")
	case *ListExpr:
		b.WriteString("[")
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			printExpr(b, x)
		}
		b.WriteString("]")
	case *Index:
		printExpr(b, e.X)
		b.WriteString("[")
		printExpr(b, e.I)
		b.WriteString("]")
	case *HasLabels:
		b.WriteString("(")
		printExpr(b, e.X)
		for _, l := range e.Labels {
			b.WriteString(":" + Ident(l))
		}
		b.WriteString(")")
	default:
		if !printReadExpr(b, e) {
			b.WriteString("<?>")
		}
	}
}

// LiteralVal prints a null, boolean, integer, float or string value, or a list of them, as a
// Cypher literal ([Literal] gives the forms).
func LiteralVal(v cypherval.Val) string {
	switch v.Kind {
	case cypherval.Bool:
		return Literal(BoolValue(v.B))
	case cypherval.Int:
		return Literal(IntValue(v.I))
	case cypherval.Float:
		return Literal(FloatValue(v.F))
	case cypherval.String:
		return Literal(StringValue(v.S))
	case cypherval.List:
		parts := make([]string, len(v.L))
		for i, x := range v.L {
			parts[i] = LiteralVal(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return "null"
}

// Val returns the property value as a Cypher value.
func (v Value) Val() cypherval.Val {
	switch v.Type {
	case Integer:
		return cypherval.IntVal(v.Int)
	case Float:
		return cypherval.FloatVal(v.Float)
	case String:
		return cypherval.StringVal(v.Str)
	case Boolean:
		return cypherval.BoolVal(v.Bool)
	}
	return cypherval.NullVal
}
