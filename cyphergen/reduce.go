package cyphergen

import (
	"context"
	"strconv"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/reduce"
)

// Reducer shrinks a graph case while the finding persists: first the queries (UNION parts,
// clauses, patterns and their labels, types and property maps, projections, expressions), then
// the graph (relationships, nodes, then labels and properties), then the queries again.
//
// The queries of a case are edited in parallel: an edit is tried only when the part it changes
// prints the same in every query, and then in all of them, so that the relation between the
// variants of a case (the TLP partitions, which differ only in one WHERE) holds in every
// candidate and a candidate cannot fail for a reason the original did not have.
type Reducer struct {
	// Runs counts the candidates tried (each one a run of the case on the engines).
	Runs int
}

// NewReducer returns a reducer.
func NewReducer() *Reducer { return &Reducer{} }

// Reduce shrinks c while keep holds.
func (r *Reducer) Reduce(ctx context.Context, c *fuzz.Case, keep func(context.Context, *fuzz.Case) bool) (*fuzz.Case, error) {
	cur := c.Clone()
	try := func(cand *fuzz.Case) bool {
		if ctx.Err() != nil {
			return false
		}
		r.Runs++
		if keep(ctx, cand) {
			cur = cand
			return true
		}
		return false
	}
	reduceQueries(ctx, &cur, try)
	reduceGraph(ctx, &cur, try)
	reduceQueries(ctx, &cur, try)
	return cur, nil
}

// reduceQueries applies query edits common to every query of *cur until none is kept.
func reduceQueries(ctx context.Context, cur **fuzz.Case, try func(*fuzz.Case) bool) {
	failed := map[string]bool{}
	for ctx.Err() == nil {
		c := *cur
		var perQuery []map[string]string
		var order []string
		for i, q := range c.Queries {
			es, err := queryEdits(q.Text)
			if err != nil {
				return
			}
			m := make(map[string]string, len(es))
			for _, e := range es {
				m[e.key] = e.text
				if i == 0 {
					order = append(order, e.key)
				}
			}
			perQuery = append(perQuery, m)
		}
		progress := false
		for _, key := range order {
			if failed[key] {
				continue
			}
			cand := c.Clone()
			common := true
			for i := range cand.Queries {
				text, ok := perQuery[i][key]
				if !ok {
					common = false
					break
				}
				cand.Queries[i].Text = text
			}
			if !common {
				continue
			}
			if try(cand) {
				progress = true
				break
			}
			failed[key] = true
		}
		if !progress {
			return
		}
	}
}

// reduceGraph shrinks the setup graph: relationships, then nodes (with their relationships), then
// labels and properties other than id.
func reduceGraph(ctx context.Context, cur **fuzz.Case, try func(*fuzz.Case) bool) {
	g := &Graph{}
	for _, s := range (*cur).Setup {
		if err := g.Apply(s); err != nil {
			return // not a graph this reducer can rebuild; leave the setup alone
		}
	}
	build := func(nodes []Node, rels []Rel) *fuzz.Case {
		c := (*cur).Clone()
		c.Setup = (&Graph{Nodes: nodes, Rels: rels}).Statements()
		return c
	}
	nodes, rels := g.Nodes, g.Rels
	rels = reduce.DDMin(ctx, rels, func(rs []Rel) bool { return try(build(nodes, rs)) })
	nodes = reduce.DDMin(ctx, nodes, func(ns []Node) bool { return try(build(ns, relsAmong(ns, rels))) })
	rels = relsAmong(nodes, rels)

	// An attribute is a label or a property (other than id) of a node or relationship.
	type attr struct {
		rel   bool
		i     int
		label string // "" for a property
		key   string
	}
	var attrs []attr
	for i, n := range nodes {
		for _, l := range n.Labels {
			attrs = append(attrs, attr{i: i, label: l})
		}
		for _, p := range n.Props {
			if p.Key != "id" {
				attrs = append(attrs, attr{i: i, key: p.Key})
			}
		}
	}
	for i, rl := range rels {
		for _, p := range rl.Props {
			if p.Key != "id" {
				attrs = append(attrs, attr{rel: true, i: i, key: p.Key})
			}
		}
	}
	with := func(as []attr) ([]Node, []Rel) {
		keep := map[attr]bool{}
		for _, a := range as {
			keep[a] = true
		}
		keepProps := func(rel bool, i int, ps Props) Props {
			var out Props
			for _, p := range ps {
				if p.Key == "id" || keep[attr{rel: rel, i: i, key: p.Key}] {
					out = append(out, p)
				}
			}
			return out
		}
		ns := make([]Node, len(nodes))
		for i, n := range nodes {
			ns[i] = Node{ID: n.ID, Props: keepProps(false, i, n.Props)}
			for _, l := range n.Labels {
				if keep[attr{i: i, label: l}] {
					ns[i].Labels = append(ns[i].Labels, l)
				}
			}
		}
		rs := make([]Rel, len(rels))
		for i, rl := range rels {
			rs[i] = rl
			rs[i].Props = keepProps(true, i, rl.Props)
		}
		return ns, rs
	}
	reduce.DDMin(ctx, attrs, func(as []attr) bool { return try(build(with(as))) })
}

// relsAmong returns the relationships of rels whose endpoints are both in nodes.
func relsAmong(nodes []Node, rels []Rel) []Rel {
	in := make(map[int]bool, len(nodes))
	for _, n := range nodes {
		in[n.ID] = true
	}
	var out []Rel
	for _, r := range rels {
		if in[r.From] && in[r.To] {
			out = append(out, r)
		}
	}
	return out
}

// queryEdit is one simplification of a query: its key names the place and what it does to it
// (with the text of the part it changes), text is the query after it.
type queryEdit struct{ key, text string }

// queryEdits returns the simplifications of the query text, larger ones first.
func queryEdits(text string) ([]queryEdit, error) {
	q, err := ParseQuery(text)
	if err != nil {
		return nil, err
	}
	var out []queryEdit
	seen := map[string]int{}
	try := func(key string, apply func(), undo func()) {
		// The same part may occur more than once (a subexpression repeated); number the
		// occurrences so that parallel queries edit the same one.
		seen[key]++
		key += " #" + strconv.Itoa(seen[key])
		apply()
		out = append(out, queryEdit{key, q.String()})
		undo()
	}
	if len(q.Parts) > 1 {
		for i := range q.Parts {
			parts, all := q.Parts, q.All
			try("part "+strconv.Itoa(i)+" drop: "+parts[i].String(), func() {
				q.Parts = without(parts, i)
				j := min(i, len(all)-1)
				q.All = without(all, j)
			}, func() { q.Parts, q.All = parts, all })
		}
	}
	for pi, p := range q.Parts {
		pp := "part " + strconv.Itoa(pi) + " "
		for ci := 0; ci < len(p.Clauses)-1; ci++ {
			cs := p.Clauses
			if lastWrite(p, ci) {
				continue // a query that writes keeps writing (reduce_write.go)
			}
			try(pp+"clause "+strconv.Itoa(ci)+" drop: "+clauseText(cs[ci]), func() {
				p.Clauses = without(cs, ci)
			}, func() { p.Clauses = cs })
		}
		for ci, c := range p.Clauses {
			at := pp + "clause " + strconv.Itoa(ci) + " " + clauseKey(c) + " "
			clauseEdits(at, c, try)
		}
		for ci, c := range p.Clauses {
			at := pp + "clause " + strconv.Itoa(ci) + " "
			for _, slot := range clauseExprs(c) {
				exprEdits(at, slot, try)
			}
		}
	}
	varEdits(q, try)
	return out, nil
}

// clauseText prints one clause.
func clauseText(c Clause) string {
	s := &SingleQuery{Clauses: []Clause{c}}
	return s.String()
}

// clauseKey prints a clause without its WHERE, so that the variants of a partitioned query,
// which differ only there, share the edits of the rest of the clause.
func clauseKey(c Clause) string {
	switch c := c.(type) {
	case *Match:
		w := c.Where
		c.Where = nil
		defer func() { c.Where = w }()
	case *With:
		w := c.Where
		c.Where = nil
		defer func() { c.Where = w }()
	}
	return clauseText(c)
}

// editFunc records one edit: apply changes the query, undo restores it.
type editFunc func(key string, apply func(), undo func())

// clauseEdits proposes the simplifications of one clause that are not inside expressions.
func clauseEdits(at string, c Clause, try editFunc) {
	dropWhere := func(w *Expr) {
		if *w != nil {
			old := *w
			try(at+"drop where "+Print(old), func() { *w = nil }, func() { *w = old })
		}
	}
	switch c := c.(type) {
	case *Match:
		dropWhere(&c.Where)
		if c.Optional {
			try(at+"not optional", func() { c.Optional = false }, func() { c.Optional = true })
		}
		ps := c.Patterns
		if len(ps) > 1 {
			for i := range ps {
				try(at+"drop pattern "+strconv.Itoa(i), func() {
					c.Patterns = without(ps, i)
				}, func() { c.Patterns = ps })
			}
		}
		for i := range ps {
			patternEdits(at+"pattern "+strconv.Itoa(i)+" ", &c.Patterns[i], try)
		}
	case *With:
		dropWhere(&c.Where)
		projectionEdits(at, &c.Projection, try)
	case *Return:
		projectionEdits(at, &c.Projection, try)
	case *CallSub:
		callSubEdits(at, c, try)
	default:
		writeEdits(at, c, try)
	}
}

// patternEdits proposes shorter patterns and fewer labels, types and property maps.
func patternEdits(at string, p *Pattern, try editFunc) {
	nodes, rels := p.Nodes, p.Rels
	if len(nodes) > 1 {
		try(at+"drop first hop", func() { p.Nodes, p.Rels = nodes[1:], rels[1:] },
			func() { p.Nodes, p.Rels = nodes, rels })
		try(at+"drop last hop", func() { p.Nodes, p.Rels = nodes[:len(nodes)-1], rels[:len(rels)-1] },
			func() { p.Nodes, p.Rels = nodes, rels })
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		ls, ps := n.Labels, n.Props
		if len(ls) > 0 {
			try(at+"node "+strconv.Itoa(i)+" drop labels", func() { n.Labels = nil }, func() { n.Labels = ls })
		}
		if len(ps) > 0 {
			try(at+"node "+strconv.Itoa(i)+" drop properties", func() { n.Props = nil }, func() { n.Props = ps })
		}
	}
	for i := range p.Rels {
		r := &p.Rels[i]
		ts, ps := r.Types, r.Props
		if len(ts) > 0 {
			try(at+"rel "+strconv.Itoa(i)+" drop types", func() { r.Types = nil }, func() { r.Types = ts })
		}
		if len(ps) > 0 {
			try(at+"rel "+strconv.Itoa(i)+" drop properties", func() { r.Props = nil }, func() { r.Props = ps })
		}
	}
	readPatternEdits(at, p, try)
}

// projectionEdits proposes dropping DISTINCT, ORDER BY, SKIP, LIMIT and single items. ORDER BY
// stays while a SKIP or LIMIT follows it: without it the rows they keep depend on each engine's
// order, and any difference would do to keep a title.
func projectionEdits(at string, p *Projection, try editFunc) {
	if p.Distinct {
		try(at+"drop distinct", func() { p.Distinct = false }, func() { p.Distinct = true })
	}
	if o := p.Order; len(o) > 0 && p.Skip == nil && p.Limit == nil {
		try(at+"drop order by", func() { p.Order = nil }, func() { p.Order = o })
	}
	if s := p.Skip; s != nil {
		try(at+"drop skip", func() { p.Skip = nil }, func() { p.Skip = s })
	}
	if l := p.Limit; l != nil {
		try(at+"drop limit", func() { p.Limit = nil }, func() { p.Limit = l })
	}
	if items := p.Items; len(items) > 1 {
		for i := range items {
			try(at+"drop item "+strconv.Itoa(i)+": "+Print(items[i].Expr), func() {
				p.Items = without(items, i)
			}, func() { p.Items = items })
		}
	}
}

// clauseExprs returns the expression slots of a clause.
func clauseExprs(c Clause) []*Expr {
	var out []*Expr
	proj := func(p *Projection) {
		for i := range p.Items {
			out = append(out, &p.Items[i].Expr)
		}
		for i := range p.Order {
			out = append(out, &p.Order[i].Expr)
		}
	}
	switch c := c.(type) {
	case *Match:
		if c.Where != nil {
			out = append(out, &c.Where)
		}
		for pi := range c.Patterns {
			p := &c.Patterns[pi]
			for i := range p.Nodes {
				for j := range p.Nodes[i].Props {
					out = append(out, &p.Nodes[i].Props[j].Val)
				}
			}
			for i := range p.Rels {
				for j := range p.Rels[i].Props {
					out = append(out, &p.Rels[i].Props[j].Val)
				}
			}
		}
	case *Unwind:
		out = append(out, &c.List)
	case *With:
		proj(&c.Projection)
		if c.Where != nil {
			out = append(out, &c.Where)
		}
	case *Return:
		proj(&c.Projection)
	default:
		out = append(out, writeExprs(c)...)
	}
	return out
}

// exprChildren returns the slots of e's direct subexpressions.
func exprChildren(e Expr) []*Expr {
	switch e := e.(type) {
	case *Property:
		return []*Expr{&e.X}
	case *Unary:
		return []*Expr{&e.X}
	case *IsNull:
		return []*Expr{&e.X}
	case *Binary:
		return []*Expr{&e.L, &e.R}
	case *Call:
		out := make([]*Expr, len(e.Args))
		for i := range e.Args {
			out[i] = &e.Args[i]
		}
		return out
	case *Case:
		var out []*Expr
		if e.Test != nil {
			out = append(out, &e.Test)
		}
		for i := range e.Whens {
			out = append(out, &e.Whens[i].Cond, &e.Whens[i].Then)
		}
		if e.Else != nil {
			out = append(out, &e.Else)
		}
		return out
	case *ListExpr:
		out := make([]*Expr, len(e.Elems))
		for i := range e.Elems {
			out[i] = &e.Elems[i]
		}
		return out
	case *Index:
		return []*Expr{&e.X, &e.I}
	case *HasLabels:
		return []*Expr{&e.X}
	}
	return readChildren(e)
}

// exprEdits proposes replacing the expression in slot by one of its subexpressions, dropping a
// list element, a CASE branch or its ELSE, then recurses into the subexpressions.
func exprEdits(at string, slot *Expr, try editFunc) {
	old := *slot
	text := Print(old)
	for i, ch := range exprChildren(old) {
		sub := *ch
		try(at+"expr "+text+" to child "+strconv.Itoa(i), func() { *slot = sub }, func() { *slot = old })
	}
	switch e := old.(type) {
	case *ListExpr:
		elems := e.Elems
		for i := range elems {
			try(at+"expr "+text+" drop element "+strconv.Itoa(i), func() {
				e.Elems = without(elems, i)
			}, func() { e.Elems = elems })
		}
	case *Case:
		whens, els := e.Whens, e.Else
		if len(whens) > 1 {
			for i := range whens {
				try(at+"expr "+text+" drop when "+strconv.Itoa(i), func() {
					e.Whens = without(whens, i)
				}, func() { e.Whens = whens })
			}
		}
		if els != nil {
			try(at+"expr "+text+" drop else", func() { e.Else = nil }, func() { e.Else = els })
		}
	}
	readExprEdits(at, text, old, try)
	for _, ch := range exprChildren(old) {
		exprEdits(at, ch, try)
	}
}

// without returns a copy of xs without its element i.
func without[T any](xs []T, i int) []T {
	return append(append([]T(nil), xs[:i]...), xs[i+1:]...)
}
