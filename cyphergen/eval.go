package cyphergen

import (
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// row binds variables to values.
type row = map[string]cypherval.Val

// NodeVal returns node id of g as a Cypher value: its labels, its properties, ID = id.
func (g *Graph) NodeVal(id int) cypherval.Val {
	n := &g.Nodes[id]
	return cypherval.Val{Kind: cypherval.Node, Labels: slices.Clone(n.Labels), M: propMap(n.Props), ID: int64(id)}
}

// RelVal returns relationship g.Rels[i] as a Cypher value: its type in Labels[0], its
// properties, ID = i (the index, unique even in hand-built graphs), From and To its node IDs.
func (g *Graph) RelVal(i int) cypherval.Val {
	r := &g.Rels[i]
	return cypherval.Val{Kind: cypherval.Rel, Labels: []string{r.Type}, M: propMap(r.Props),
		ID: int64(i), From: int64(r.From), To: int64(r.To)}
}

func propMap(ps Props) map[string]cypherval.Val {
	m := make(map[string]cypherval.Val, len(ps))
	for _, p := range ps {
		m[p.Key] = p.Val.Val()
	}
	return m
}

// Run evaluates q on g as Neo4j 5 does and returns the column names and the rows, in the order
// of the final ORDER BY when there is one (otherwise in an unspecified order). Errors are
// [EvalError]s. A runtime error in a query with a LIMIT is "unsupported", since an engine may
// stop before it reaches the row that fails.
func (g *Graph) Run(q *Query) (cols []string, rows [][]cypherval.Val, err error) {
	return g.RunSemantics(q, Semantics{})
}

// Semantics selects departures from Neo4j's semantics, to model another engine's documented
// behaviour; the zero value is Neo4j's.
type Semantics struct {
	// RepeatableRels lets one relationship bind to several relationship patterns of a MATCH
	// (no relationship uniqueness).
	RepeatableRels bool
	// SimpleCaseNullMatches makes a simple CASE match a null test to a null WHEN value, as
	// Neo4j 4.4 does (Neo4j 5 compares with =, so null matches nothing).
	SimpleCaseNullMatches bool
}

// RunSemantics is Run under the given semantics.
func (g *Graph) RunSemantics(q *Query, sem Semantics) (cols []string, rows [][]cypherval.Val, err error) {
	st := &runState{g: g, sem: sem}
	if err := st.writable(q); err != nil {
		return nil, nil, err
	}
	q = modelQuery(q, sem)
	cols, rows, err = st.run(q)
	st.undoOnError(err)
	var ee *EvalError
	if err != nil && errors.As(err, &ee) && hasLimit(q) {
		switch ee.Code {
		case CodeType, CodeOverflow, CodeDivByZero, CodeArgument:
			err = unsupported("runtime error in a query with LIMIT: " + ee.Msg)
		}
	}
	return cols, rows, err
}

func hasLimit(q *Query) bool {
	for _, p := range q.Parts {
		for _, c := range p.Clauses {
			switch c := c.(type) {
			case *With:
				if c.Limit != nil {
					return true
				}
			case *Return:
				if c.Limit != nil {
					return true
				}
			}
		}
	}
	return false
}

// runState holds one Run's lazily built indexes.
type runState struct {
	g   *Graph
	sem Semantics
	w   *writeState // the writing clauses' state (eval_write.go), nil before the first
	*graphIndex
}

// graphIndex holds a graph's elements as values, by label and by endpoint.
type graphIndex struct {
	nodes, rels int // the graph's sizes when it was built
	nodeVals    []cypherval.Val
	relVals     []cypherval.Val
	byLabel     map[string][]int
	out, in     [][]int // relationship indexes by source and by target node
}

// index makes st's index current: the graph's, built when the graph has none or has grown.
func (st *runState) index() {
	g := st.g
	if g.idx == nil || g.idx.nodes != len(g.Nodes) || g.idx.rels != len(g.Rels) {
		x := &graphIndex{nodes: len(g.Nodes), rels: len(g.Rels)}
		x.nodeVals = make([]cypherval.Val, len(g.Nodes))
		x.byLabel = map[string][]int{}
		for i, n := range g.Nodes {
			x.nodeVals[i] = g.NodeVal(i)
			for _, l := range n.Labels {
				x.byLabel[l] = append(x.byLabel[l], i)
			}
		}
		x.relVals = make([]cypherval.Val, len(g.Rels))
		x.out = make([][]int, len(g.Nodes))
		x.in = make([][]int, len(g.Nodes))
		for i, r := range g.Rels {
			x.relVals[i] = g.RelVal(i)
			x.out[r.From] = append(x.out[r.From], i)
			x.in[r.To] = append(x.in[r.To], i)
		}
		g.idx = x
	}
	st.graphIndex = g.idx
}

func (st *runState) run(q *Query) ([]string, [][]cypherval.Val, error) {
	if len(q.Parts) == 0 || len(q.All) != len(q.Parts)-1 {
		return nil, nil, semantic("malformed query")
	}
	for _, a := range q.All {
		if a != q.All[0] {
			return nil, nil, semantic("UNION and UNION ALL mixed")
		}
	}
	var cols []string
	var rows [][]cypherval.Val
	for i, p := range q.Parts {
		c, r, err := st.single(p)
		if err != nil {
			return nil, nil, err
		}
		if i > 0 && !slices.Equal(c, cols) {
			a, b := slices.Clone(c), slices.Clone(cols)
			slices.Sort(a)
			slices.Sort(b)
			if slices.Equal(a, b) {
				return nil, nil, unsupported("UNION parts with columns in different orders")
			}
			return nil, nil, semantic("UNION parts with different columns")
		}
		cols = c
		rows = append(rows, r...)
	}
	if len(q.Parts) > 1 && !q.All[0] {
		var err error
		if rows, err = distinctRows(rows, func(r []cypherval.Val) []cypherval.Val { return r }); err != nil {
			return nil, nil, err
		}
	}
	return cols, rows, nil
}

// distinctRows keeps the first row of each equivalence class of vals(row). A class holding
// rows that print differently (1 and 1.0) is "unsupported": which one an engine keeps is
// unspecified.
func distinctRows[R any](rows []R, vals func(R) []cypherval.Val) ([]R, error) {
	seen := map[string]string{}
	var out []R
	for _, r := range rows {
		vs := vals(r)
		k, exact := rowKey(vs, false), rowKey(vs, true)
		if e, ok := seen[k]; !ok {
			seen[k] = exact
			out = append(out, r)
		} else if e != exact {
			return nil, errMixedClass
		}
	}
	return out, nil
}

var errMixedClass = &EvalError{Code: CodeUnsupported, Msg: "equivalent integer and float values in one DISTINCT or grouping class"}

func (st *runState) single(sq *SingleQuery) ([]string, [][]cypherval.Val, error) {
	return st.singleFrom([]row{{}}, sq)
}

// singleFrom evaluates a single query on the given input rows.
func (st *runState) singleFrom(rows []row, sq *SingleQuery) ([]string, [][]cypherval.Val, error) {
	var err error
	for i, c := range sq.Clauses {
		if err := st.beforeClause(c); err != nil {
			return nil, nil, err
		}
		switch c := c.(type) {
		case *Match:
			rows, err = st.match(rows, c)
		case *Unwind:
			if rows, err = st.subqueries(rows, c.List); err == nil {
				rows, err = unwind(rows, c)
			}
		case *With:
			if rows, err = st.subqueries(rows, projExprs(&c.Projection)...); err != nil {
				break
			}
			if _, rows, err = project(rows, &c.Projection); err == nil && c.Where != nil {
				if rows, err = st.subqueries(rows, c.Where); err == nil {
					rows, err = filter(rows, c.Where)
				}
			}
		case *Return:
			if i != len(sq.Clauses)-1 {
				return nil, nil, semantic("RETURN before the end of the query")
			}
			rows, err := st.subqueries(rows, projExprs(&c.Projection)...)
			if err != nil {
				return nil, nil, err
			}
			cols, out, err := project(rows, &c.Projection)
			if err != nil {
				return nil, nil, err
			}
			res := make([][]cypherval.Val, len(out))
			for j, r := range out {
				res[j] = make([]cypherval.Val, len(cols))
				for k, c := range cols {
					res[j][k] = r[c]
				}
			}
			return cols, res, nil
		case *CallSub:
			rows, err = st.callSub(rows, c)
		default:
			if !IsWrite(c) {
				return nil, nil, unsupported("clause")
			}
			if rows, err = st.write(rows, c); err == nil && i == len(sq.Clauses)-1 {
				return nil, nil, nil // a query that ends with a write returns no rows
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return nil, nil, semantic("query does not end with RETURN")
}

func filter(rows []row, cond Expr) ([]row, error) {
	var out []row
	for _, r := range rows {
		t, err := Truth(cond, r)
		if err != nil {
			return nil, err
		}
		if t == True {
			out = append(out, r)
		}
	}
	return out, nil
}

func cloneRow(r row) row {
	n := make(row, len(r)+1)
	for k, x := range r {
		n[k] = x
	}
	return n
}

func extend(r row, name string, v cypherval.Val) row {
	n := cloneRow(r)
	n[name] = v
	return n
}

func unwind(rows []row, u *Unwind) ([]row, error) {
	var out []row
	for _, r := range rows {
		if _, ok := r[u.Var]; ok {
			return nil, semantic("variable `" + u.Var + "` already declared")
		}
		v, err := EvalExpr(u.List, r)
		if err != nil {
			return nil, err
		}
		switch v.Kind {
		case cypherval.Null:
		case cypherval.List:
			for _, x := range v.L {
				out = append(out, extend(r, u.Var, x))
			}
		default:
			out = append(out, extend(r, u.Var, v))
		}
	}
	return out, nil
}

// project evaluates a WITH or RETURN projection: items, aggregation, DISTINCT, ORDER BY, SKIP,
// LIMIT. The output rows bind exactly the item names.
func project(rows []row, p *Projection) ([]string, []row, error) {
	names := make([]string, len(p.Items))
	for i, it := range p.Items {
		names[i] = it.Name()
		if slices.Contains(names[:i], names[i]) {
			return nil, nil, semantic("column `" + names[i] + "` projected twice")
		}
		if err := checkAggregates(it.Expr, false); err != nil {
			return nil, nil, err
		}
	}
	aggregating := slices.ContainsFunc(p.Items, func(it Item) bool { return hasAggregate(it.Expr) })
	var out []row
	var err error
	if aggregating {
		out, err = aggregateRows(rows, p.Items, names)
	} else {
		out, err = projectRows(rows, p.Items, names)
	}
	if err != nil {
		return nil, nil, err
	}
	// Pre-projection variables stay visible to ORDER BY only when the projection keeps the rows.
	keepScope := !aggregating && !p.Distinct
	if p.Distinct {
		if out, err = distinctRows(out, func(r row) []cypherval.Val { return rowVals(r, names) }); err != nil {
			return nil, nil, err
		}
	}
	if len(p.Order) > 0 {
		var pre []row
		if keepScope {
			pre = rows
		}
		if out, err = sortRows(out, pre, p, names); err != nil {
			return nil, nil, err
		}
	}
	out, err = skipLimit(out, p)
	return names, out, err
}

func rowVals(r row, names []string) []cypherval.Val {
	vs := make([]cypherval.Val, len(names))
	for i, n := range names {
		vs[i] = r[n]
	}
	return vs
}

func projectRows(rows []row, items []Item, names []string) ([]row, error) {
	out := make([]row, len(rows))
	for i, r := range rows {
		o := make(row, len(items))
		for j, it := range items {
			v, err := EvalExpr(it.Expr, r)
			if err != nil {
				return nil, err
			}
			o[names[j]] = v
		}
		out[i] = o
	}
	return out, nil
}

func skipLimit(rows []row, p *Projection) ([]row, error) {
	if p.Skip != nil {
		if *p.Skip < 0 {
			return nil, semantic("negative SKIP")
		}
		rows = rows[min(int64(len(rows)), *p.Skip):]
	}
	if p.Limit != nil {
		if *p.Limit < 0 {
			return nil, semantic("negative LIMIT")
		}
		rows = rows[:min(int64(len(rows)), *p.Limit)]
	}
	return rows, nil
}

// sortRows orders rows by p.Order. Sort keys see the projected names, with subexpressions that
// are projected items replaced by the items' names; pre, when not nil, holds the rows before the
// projection (same indexes), whose variables are visible too unless shadowed.
func sortRows(rows, pre []row, p *Projection, names []string) ([]row, error) {
	subst := map[string]Expr{}
	shadows := map[string]bool{} // names bound to something other than the same variable
	for i, it := range p.Items {
		subst[Print(it.Expr)] = &Var{Name: names[i]}
		if v, ok := it.Expr.(*Var); !ok || v.Name != names[i] {
			shadows[names[i]] = true
		}
	}
	exprs := make([]Expr, len(p.Order))
	for i, s := range p.Order {
		exprs[i] = rewrite(s.Expr, func(e Expr) Expr {
			if slices.ContainsFunc(freeVars(e), func(v string) bool { return shadows[v] }) {
				return nil
			}
			return subst[Print(e)]
		})
	}
	type keyed struct {
		r    row
		keys []cypherval.Val
	}
	ks := make([]keyed, len(rows))
	for i, r := range rows {
		env := r
		if pre != nil {
			env = make(row, len(pre[i])+len(r))
			for k, v := range pre[i] {
				env[k] = v
			}
			for k, v := range r {
				env[k] = v
			}
		}
		ks[i] = keyed{r: r, keys: make([]cypherval.Val, len(exprs))}
		for j, e := range exprs {
			v, err := EvalExpr(e, env)
			if err != nil {
				return nil, err
			}
			ks[i].keys[j] = v
		}
	}
	var cmpErr error
	sort.SliceStable(ks, func(a, b int) bool {
		for j, s := range p.Order {
			c, err := orderCompare(ks[a].keys[j], ks[b].keys[j])
			if err != nil && cmpErr == nil {
				cmpErr = err
			}
			if c != 0 {
				return (c < 0) != s.Desc
			}
		}
		return false
	})
	if cmpErr != nil {
		return nil, cmpErr
	}
	out := make([]row, len(ks))
	for i, k := range ks {
		out[i] = k.r
	}
	return out, nil
}

// orderRank is the rank of a kind in Cypher's global order (ORDER BY, min, max).
var orderRank = map[cypherval.Kind]int{
	cypherval.Map: 0, cypherval.Node: 1, cypherval.Rel: 2, cypherval.List: 3, cypherval.Path: 4,
	cypherval.String: 5, cypherval.Bool: 6, cypherval.Int: 7, cypherval.Float: 7, cypherval.Null: 8,
}

// orderCompare compares values in Cypher's global order: maps, nodes, relationships, lists,
// paths, strings, booleans, numbers (NaN last among them), null. Maps, elements and paths
// compared with their own kind are "unsupported".
func orderCompare(a, b cypherval.Val) (int, error) {
	ra, rb := orderRank[a.Kind], orderRank[b.Kind]
	if ra != rb {
		return cmp3(int64(ra), int64(rb)), nil
	}
	switch a.Kind {
	case cypherval.Null:
		return 0, nil
	case cypherval.Int, cypherval.Float:
		if c, ok := cmpNumbers(a, b); ok {
			return c, nil
		}
		na, nb := a.Kind == cypherval.Float && math.IsNaN(a.F), b.Kind == cypherval.Float && math.IsNaN(b.F)
		return cmpBools(na, nb), nil
	case cypherval.String:
		return cmpStrings(a.S, b.S), nil
	case cypherval.Bool:
		return cmpBools(a.B, b.B), nil
	case cypherval.List:
		for i := 0; i < len(a.L) && i < len(b.L); i++ {
			if c, err := orderCompare(a.L[i], b.L[i]); c != 0 || err != nil {
				return c, err
			}
		}
		return cmp3(int64(len(a.L)), int64(len(b.L))), nil
	}
	return 0, unsupported("ordering of " + a.Kind.String() + " values")
}

// rowKey returns a text equal for equivalent rows (DISTINCT, grouping, UNION); with exact,
// integers and floats are told apart.
func rowKey(vs []cypherval.Val, exact bool) string {
	var b strings.Builder
	for _, v := range vs {
		valKey(&b, v, exact)
		b.WriteByte(';')
	}
	return b.String()
}

// valKey writes a text equal for equivalent values: null equals null, numbers equal when
// numerically equal (1 and 1.0, unless exact), lists and maps element-wise, elements by
// identity.
func valKey(b *strings.Builder, v cypherval.Val, exact bool) {
	switch v.Kind {
	case cypherval.Null:
		b.WriteString("N")
	case cypherval.Bool:
		b.WriteString("B" + strconv.FormatBool(v.B))
	case cypherval.Int:
		b.WriteString("i" + formatInt(v.I))
	case cypherval.Float:
		if f := v.F; !exact && f == math.Trunc(f) && f >= -0x1p63 && f < 0x1p63 {
			b.WriteString("i" + formatInt(int64(f)))
		} else {
			b.WriteString("f" + strconv.FormatFloat(f, 'g', -1, 64))
		}
	case cypherval.String:
		b.WriteString("s" + strconv.Quote(v.S))
	case cypherval.List, cypherval.Path:
		b.WriteString(v.Kind.String() + "[")
		for _, x := range v.L {
			valKey(b, x, exact)
			b.WriteByte(',')
		}
		b.WriteString("]")
	case cypherval.Map:
		keys := make([]string, 0, len(v.M))
		for k := range v.M {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("{")
		for _, k := range keys {
			b.WriteString(strconv.Quote(k) + ":")
			valKey(b, v.M[k], exact)
			b.WriteByte(',')
		}
		b.WriteString("}")
	default:
		b.WriteString(v.Kind.String() + formatInt(v.ID))
	}
}

// rewrite returns e with every subexpression for which f returns non-nil replaced by that
// result (outermost first); e itself is not modified.
func rewrite(e Expr, f func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	if r := f(e); r != nil {
		return r
	}
	rw := func(x Expr) Expr { return rewrite(x, f) }
	switch e := e.(type) {
	case *Property:
		return &Property{X: rw(e.X), Key: e.Key}
	case *Unary:
		return &Unary{Op: e.Op, X: rw(e.X)}
	case *IsNull:
		return &IsNull{X: rw(e.X), Not: e.Not}
	case *Binary:
		return &Binary{Op: e.Op, L: rw(e.L), R: rw(e.R)}
	case *Call:
		c := *e
		c.Args = make([]Expr, len(e.Args))
		for i, a := range e.Args {
			c.Args[i] = rw(a)
		}
		return &c
	case *Case:
		c := &Case{Test: rw(e.Test), Else: rw(e.Else), Whens: make([]When, len(e.Whens))}
		for i, w := range e.Whens {
			c.Whens[i] = When{Cond: rw(w.Cond), Then: rw(w.Then)}
		}
		return c
	case *ListExpr:
		l := &ListExpr{Elems: make([]Expr, len(e.Elems))}
		for i, x := range e.Elems {
			l.Elems[i] = rw(x)
		}
		return l
	case *Index:
		return &Index{X: rw(e.X), I: rw(e.I)}
	case *HasLabels:
		return &HasLabels{X: rw(e.X), Labels: e.Labels}
	}
	if r := rewriteRead(e, rw); r != nil {
		return r
	}
	return e
}

// walk calls f on e and its subexpressions until f returns false.
func walk(e Expr, f func(Expr) bool) {
	rewrite(e, func(x Expr) Expr {
		if !f(x) {
			return x
		}
		return nil
	})
}

// freeVars returns the variables e mentions.
func freeVars(e Expr) []string {
	var vs []string
	walk(e, func(x Expr) bool {
		if v, ok := x.(*Var); ok {
			vs = append(vs, v.Name)
		}
		return true
	})
	return vs
}

func isAggregate(e Expr) bool {
	c, ok := e.(*Call)
	return ok && Aggregates[strings.ToLower(c.Name)]
}

func hasAggregate(e Expr) bool {
	found := false
	walk(e, func(x Expr) bool {
		found = found || isAggregate(x)
		return !found
	})
	return found
}

// checkAggregates rejects an aggregate inside another one.
func checkAggregates(e Expr, inside bool) error {
	var err error
	walk(e, func(x Expr) bool {
		if err != nil {
			return false
		}
		if isAggregate(x) {
			if inside {
				err = semantic(errAggregateNested)
				return false
			}
			for _, a := range x.(*Call).Args {
				if hasAggregate(a) {
					err = semantic(errAggregateNested)
				}
			}
			return false
		}
		return true
	})
	return err
}

// Internal variable names of grouping keys and aggregate results; they cannot clash with
// Cypher names.
func groupVar(i int) string { return "\x00g" + strconv.Itoa(i) }
func aggVar(i int) string   { return "\x00a" + strconv.Itoa(i) }

// aggregateRows evaluates an aggregating projection: the items without aggregates are the
// grouping keys; the others are evaluated per group with their aggregate calls and grouping-key
// subexpressions replaced by the group's values.
func aggregateRows(rows []row, items []Item, names []string) ([]row, error) {
	keyExpr := map[string]Expr{}
	var keys []int
	for i, it := range items {
		if !hasAggregate(it.Expr) {
			keyExpr[Print(it.Expr)] = &Var{Name: groupVar(len(keys))}
			keys = append(keys, i)
		}
	}
	var calls []*Call
	rewritten := make([]Expr, len(items))
	for i, it := range items {
		if !hasAggregate(it.Expr) {
			continue
		}
		rewritten[i] = rewrite(it.Expr, func(e Expr) Expr {
			if isAggregate(e) {
				calls = append(calls, e.(*Call))
				return &Var{Name: aggVar(len(calls) - 1)}
			}
			return keyExpr[Print(e)]
		})
		var free error
		walk(rewritten[i], func(x Expr) bool {
			if v, ok := x.(*Var); ok && !strings.HasPrefix(v.Name, "\x00") {
				free = unsupported("variable `" + v.Name + "` outside aggregates and grouping keys")
			}
			return free == nil
		})
		if free != nil {
			return nil, free
		}
	}
	type group struct {
		keys  []cypherval.Val
		exact string
		rows  []row
	}
	var groups []*group
	index := map[string]*group{}
	for _, r := range rows {
		kv := make([]cypherval.Val, len(keys))
		for j, i := range keys {
			v, err := EvalExpr(items[i].Expr, r)
			if err != nil {
				return nil, err
			}
			kv[j] = v
		}
		k := rowKey(kv, false)
		g := index[k]
		if g == nil {
			g = &group{keys: kv, exact: rowKey(kv, true)}
			index[k] = g
			groups = append(groups, g)
		} else if g.exact != rowKey(kv, true) {
			return nil, errMixedClass
		}
		g.rows = append(g.rows, r)
	}
	if len(keys) == 0 && len(groups) == 0 {
		groups = []*group{{}}
	}
	out := make([]row, len(groups))
	for gi, g := range groups {
		env := row{}
		for j, v := range g.keys {
			env[groupVar(j)] = v
		}
		for j, c := range calls {
			v, err := aggregate(c, g.rows)
			if err != nil {
				return nil, err
			}
			env[aggVar(j)] = v
		}
		o := make(row, len(items))
		for i, it := range items {
			e := rewritten[i]
			if e == nil {
				e = keyExpr[Print(it.Expr)]
			}
			v, err := EvalExpr(e, env)
			if err != nil {
				return nil, err
			}
			o[names[i]] = v
		}
		out[gi] = o
	}
	return out, nil
}

// aggregate computes an aggregate call over a group's rows.
func aggregate(c *Call, rows []row) (cypherval.Val, error) {
	name := strings.ToLower(c.Name)
	if c.Star {
		if name != "count" || len(c.Args) != 0 {
			return cypherval.NullVal, semantic(c.Name + "(*)")
		}
		return cypherval.IntVal(int64(len(rows))), nil
	}
	if len(c.Args) != 1 {
		return cypherval.NullVal, semantic("wrong number of arguments to " + c.Name)
	}
	var vals []cypherval.Val
	for _, r := range rows {
		v, err := EvalExpr(c.Args[0], r)
		if err != nil {
			return v, err
		}
		if !v.IsNull() {
			vals = append(vals, v)
		}
	}
	if c.Distinct {
		var err error
		if vals, err = distinctRows(vals, func(v cypherval.Val) []cypherval.Val { return []cypherval.Val{v} }); err != nil {
			return cypherval.NullVal, err
		}
	}
	switch name {
	case "count":
		return cypherval.IntVal(int64(len(vals))), nil
	case "collect":
		return cypherval.ListVal(vals...), nil
	case "sum":
		return sum(vals)
	case "avg":
		if len(vals) == 0 {
			return cypherval.NullVal, nil
		}
		s, err := sum(vals)
		if err != nil {
			if ee := (*EvalError)(nil); errors.As(err, &ee) && ee.Code == CodeOverflow {
				return s, unsupported("avg of integers whose sum overflows")
			}
			return s, err
		}
		return cypherval.FloatVal(toF(s) / float64(len(vals))), nil
	case "min", "max":
		return extreme(vals, name == "max")
	}
	return cypherval.NullVal, unsupported("aggregate " + c.Name)
}

// sum adds numbers in order: integers exactly (overflow is an error), floats once one appears.
func sum(vals []cypherval.Val) (cypherval.Val, error) {
	s := cypherval.IntVal(0)
	for _, v := range vals {
		if !isNumber(v) {
			return cypherval.NullVal, typeErr("sum of " + v.Kind.String())
		}
		var err error
		if s, err = arith("+", s, v); err != nil {
			return s, err
		}
	}
	return s, nil
}

// extreme returns the least or greatest value in the global order; null for none. An integer
// and a float that tie are "unsupported", since which one an engine keeps is unspecified.
func extreme(vals []cypherval.Val, greatest bool) (cypherval.Val, error) {
	if len(vals) == 0 {
		return cypherval.NullVal, nil
	}
	best := vals[0]
	for _, v := range vals[1:] {
		c, err := orderCompare(v, best)
		if err != nil {
			return best, err
		}
		if c == 0 && v.Kind != best.Kind {
			return best, unsupported("min/max tie between an integer and a float")
		}
		if (c > 0) == greatest && c != 0 {
			best = v
		}
	}
	return best, nil
}
