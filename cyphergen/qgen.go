package cyphergen

import (
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// QueryGen generates Cypher queries over one graph as GDsmith's compared3 algorithm does:
// patterns are cut from regions of the graph, so that a witness assignment of graph elements to
// the pattern variables matches them, and WHERE conditions are generated top-down so that they
// are true on the witness row (with guided=0, GDsmith's compared2 baseline, conditions are
// random). Along the query the generator keeps the witness row: the values every variable takes
// in one row that reaches RETURN, unless a SKIP or LIMIT drops it.
//
// Generated queries avoid what would make engines disagree without a bug: expressions are
// typed (comparisons between values of one type, string + string only, no toString of
// floats), every integer expression has a bound on its magnitude below 2^62, / and % divide
// by nonzero literals, ORDER BY with SKIP/LIMIT appears only when the sort keys order every
// projected value, collect appears only inside size(), MATCH never directly follows
// OPTIONAL MATCH (a WITH comes between), and within one MATCH no two relationship patterns
// map to the same relationship in the witness.
//
// A QueryGen is not safe for concurrent use.
type QueryGen struct {
	o     Options
	gi    *graphInfo
	avoid map[string]bool
	r     *rand.Rand

	// The state of the single query being generated.
	scope    []*gbind
	row      map[string]cypherval.Val // the witness row: values of the known bindings
	names    map[gelem]string         // graph element → its variable in this single query
	next     int                      // variable counter
	lost     bool                     // a SKIP/LIMIT may have dropped the witness row
	afterOpt bool                     // an OPTIONAL MATCH came since the last WITH
	noGroup  bool                     // no aggregation, DISTINCT, SKIP or LIMIT (partitioning)
	known    bool                     // generate from known bindings only (guided operands)
	nextID   int                      // the next fresh id of an element a write creates
}

// gelem is a graph element: a node ID or a relationship index.
type gelem struct {
	rel bool
	i   int
}

// gtype is the static type of a generated expression.
type gtype uint8

const (
	gInt gtype = iota
	gFloat
	gStr
	gBool
	gListInt
	gListStr
	gNode
	gRel
	gPath
)

// gexpr is a generated expression with what is known of it statically.
type gexpr struct {
	e      Expr
	t      gtype
	null   bool    // it may be null on some row
	bound  float64 // a bound on the magnitude of a number, or of a list's numbers
	opaque bool    // it reads a binding whose witness value is unknown
}

// gbind is a variable in scope.
type gbind struct {
	name  string
	t     gtype
	elem  int  // the witness's node ID or relationship index for gNode and gRel; -1 for none
	known bool // the witness row holds its value
	null  bool // it may be null on some row
	bound float64
}

// maxBound bounds the magnitude of every generated integer: engines disagree past 2^63 (Neo4j
// raises an error, FalkorDB wraps).
const maxBound = 1 << 62

// graphInfo is what the generator precomputes for a graph.
type graphInfo struct {
	g        *Graph
	adj      [][]int // node ID → indexes of the relationships at it
	keyType  map[string]Type
	nodeKeys map[Type][]string // property keys of labels, by type ("id" among the integers)
	relKeys  map[Type][]string
	pool     map[Type][]Value // property values present in the graph, by type
	intBound float64
}

func newGraphInfo(g *Graph) *graphInfo {
	gi := &graphInfo{g: g, adj: make([][]int, len(g.Nodes)), keyType: map[string]Type{"id": Integer},
		nodeKeys: map[Type][]string{Integer: {"id"}}, relKeys: map[Type][]string{Integer: {"id"}},
		pool: map[Type][]Value{}, intBound: float64(len(g.Nodes) + len(g.Rels))}
	for i, r := range g.Rels {
		gi.adj[r.From] = append(gi.adj[r.From], i)
		if r.To != r.From {
			gi.adj[r.To] = append(gi.adj[r.To], i)
		}
	}
	for _, l := range g.Schema.Labels {
		for _, k := range l.Keys {
			gi.keyType[k.Name] = k.Type
			gi.nodeKeys[k.Type] = append(gi.nodeKeys[k.Type], k.Name)
		}
	}
	for _, t := range g.Schema.RelTypes {
		for _, k := range t.Keys {
			gi.keyType[k.Name] = k.Type
			gi.relKeys[k.Type] = append(gi.relKeys[k.Type], k.Name)
		}
	}
	seen := map[Value]bool{}
	add := func(ps Props) {
		for _, p := range ps[1:] { // ps[0] is the id
			if !seen[p.Val] {
				seen[p.Val] = true
				gi.pool[p.Val.Type] = append(gi.pool[p.Val.Type], p.Val)
			}
			if p.Val.Type == Integer {
				gi.intBound = max(gi.intBound, absF(float64(p.Val.Int)))
			}
			if p.Val.Type == Float {
				gi.intBound = max(gi.intBound, absF(p.Val.Float))
			}
		}
	}
	for _, n := range g.Nodes {
		add(n.Props)
	}
	for _, r := range g.Rels {
		add(r.Props)
	}
	return gi
}

func absF(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// NewQueryGen returns a generator of queries over g that never uses a feature in avoid
// ([Features] names them), drawing from r.
func NewQueryGen(o Options, g *Graph, avoid map[string]bool, r *rand.Rand) *QueryGen {
	return newQueryGen(o, newGraphInfo(g), avoid, r)
}

func newQueryGen(o Options, gi *graphInfo, avoid map[string]bool, r *rand.Rand) *QueryGen {
	return &QueryGen{o: o, gi: gi, avoid: avoid, r: r}
}

// ok reports whether the feature may be generated.
func (qg *QueryGen) ok(feature string) bool { return !qg.avoid[feature] }

// pct is true with probability p percent.
func (qg *QueryGen) pct(p int) bool { return qg.r.IntN(100) < p }

func (qg *QueryGen) coin() bool { return qg.r.IntN(2) == 0 }

// fresh returns a new variable name with the given prefix.
func (qg *QueryGen) fresh(prefix string) string {
	qg.next++
	return prefix + strconv.Itoa(qg.next-1)
}

func (qg *QueryGen) reset() {
	qg.scope, qg.row, qg.names = nil, map[string]cypherval.Val{}, map[gelem]string{}
	qg.next, qg.lost, qg.afterOpt, qg.known = 0, false, false, false
}

// Query returns one query. Its witness row reaches RETURN unless a SKIP or LIMIT drops it, so
// that, with guidance on, most queries return rows.
func (qg *QueryGen) Query() *Query {
	qg.noGroup = false
	union := qg.pct(qg.o.Union) && (qg.ok("union") || qg.ok("union-all"))
	first, _ := qg.single(-1, union, false)
	q := &Query{Parts: []*SingleQuery{first}}
	if union {
		ret := first.Clauses[len(first.Clauses)-1].(*Return)
		second, _ := qg.single(len(ret.Items), true, false)
		all := !qg.ok("union") || qg.ok("union-all") && qg.coin()
		q.Parts, q.All = append(q.Parts, second), []bool{all}
	}
	return q
}

// Partition returns a query orig whose first MATCH has no WHERE, and its three partitions by a
// predicate φ: the same query with WHERE φ, WHERE NOT φ and WHERE φ IS NULL on that MATCH.
// The clauses after it work row by row (no aggregation, DISTINCT, SKIP or LIMIT, no UNION), so
// the rows of orig are the multiset union of the partitions' rows.
func (qg *QueryGen) Partition() (orig, p, notp, null *Query) {
	qg.noGroup = true
	defer func() { qg.noGroup = false }()
	sq, pred := qg.single(-1, true, true)
	mk := func(w Expr) *Query {
		cl := slices.Clone(sq.Clauses)
		m := *cl[0].(*Match)
		m.Where = w
		cl[0] = &m
		return &Query{Parts: []*SingleQuery{{Clauses: cl}}}
	}
	return mk(nil), mk(pred), mk(&Unary{Op: "NOT", X: pred}), mk(&IsNull{X: pred})
}

// single generates a single query whose RETURN has n items (any number for n < 0). inUnion
// rules out ORDER BY, SKIP and LIMIT; with partition the first MATCH gets no WHERE and the
// partitioning predicate is returned.
func (qg *QueryGen) single(n int, inUnion, partition bool) (*SingleQuery, Expr) {
	qg.reset()
	first := qg.match(false)
	var pred Expr
	if partition {
		first.Where = nil
		pred = qg.partitionPredicate()
	}
	sq := &SingleQuery{Clauses: []Clause{first}}
	for range between(qg.r, qg.o.Clauses) {
		if c := qg.clause(); c != nil {
			sq.Clauses = append(sq.Clauses, c)
		}
	}
	sq.Clauses = append(sq.Clauses, qg.ret(n, !inUnion))
	return sq, pred
}

// partitionPredicate returns the predicate that partitions the first MATCH: guided (true or
// false on the witness) or random.
func (qg *QueryGen) partitionPredicate() Expr {
	if qg.o.Guided == 1 && qg.coin() {
		return qg.cond(qg.coin(), qg.o.Depth)
	}
	return qg.gen(gBool, qg.o.Depth).e
}

// clause returns one clause after the first MATCH, or nil when the avoid set leaves none.
func (qg *QueryGen) clause() Clause {
	type kind struct {
		w int
		f func() Clause
	}
	var kinds []kind
	optional := qg.ok("optional-match")
	if !qg.afterOpt || optional {
		kinds = append(kinds, kind{40, func() Clause {
			opt := optional && (qg.afterOpt || qg.pct(qg.o.Optional))
			if m := qg.match(opt); m != nil {
				return m
			}
			return nil // only patterns the avoid set forbids
		}})
	}
	if qg.ok("with") {
		kinds = append(kinds, kind{35, func() Clause { return qg.with() }})
	}
	if qg.ok("unwind") && (qg.ok("list") || qg.ok("fn:range")) {
		kinds = append(kinds, kind{25, func() Clause { return qg.unwind() }})
	}
	if qg.ok("call-subquery") && qg.ok("with") {
		kinds = append(kinds, kind{8, func() Clause { return qg.callSub() }})
	}
	total := 0
	for _, k := range kinds {
		total += k.w
	}
	if total == 0 {
		return nil
	}
	x := qg.r.IntN(total)
	for _, k := range kinds {
		if x < k.w {
			return k.f()
		}
		x -= k.w
	}
	return nil
}

// bind adds a variable to the scope, with its witness value when known.
func (qg *QueryGen) bind(b *gbind, v cypherval.Val) {
	qg.scope = append(qg.scope, b)
	if b.known {
		qg.row[b.name] = v
	}
}

func (qg *QueryGen) lookup(name string) *gbind {
	for _, b := range qg.scope {
		if b.name == name {
			return b
		}
	}
	return nil
}

// loseWitness records that the witness row may no longer reach the next clause.
func (qg *QueryGen) loseWitness() {
	qg.lost = true
	for _, b := range qg.scope {
		b.known = false
	}
	qg.row = map[string]cypherval.Val{}
}

// where returns a WHERE condition: true on the witness row when guided.
func (qg *QueryGen) where() Expr {
	if qg.o.Guided == 1 && !qg.lost {
		return qg.cond(true, qg.o.Depth)
	}
	return qg.gen(gBool, qg.o.Depth).e
}

// ---- MATCH

// match returns a MATCH (or OPTIONAL MATCH) clause and binds its variables.
func (qg *QueryGen) match(optional bool) *Match {
	m := &Match{Optional: optional}
	if optional {
		qg.afterOpt = true
		if qg.pct(30) {
			// A pattern drawn at random, which may match nothing: its variables are null in
			// some rows, and their witness values are unknown.
			m.Patterns = []Pattern{qg.randomPattern()}
			if qg.pct(qg.o.Where/2) && qg.ok("match-where") {
				m.Where = qg.gen(gBool, qg.o.Depth).e
			}
			return m
		}
	}
	start := qg.startNode()
	region := qg.region(start)
	used := map[int]bool{}
	var pending []*gbind
	var seen []int
	var paths []*gbind // named paths, with their witness values
	var pathVals []cypherval.Val
	for i := range between(qg.r, qg.o.Patterns) {
		// Later patterns start at a node of an earlier one, so that they join rather than
		// multiply.
		s := start
		if i > 0 && len(seen) > 0 {
			s = seen[qg.r.IntN(len(seen))]
		}
		nodes, rels := qg.path(region, s, between(qg.r, qg.o.PathLen), used)
		if i > 0 && len(rels) == 0 {
			continue // a lone node already in the clause adds nothing
		}
		if len(rels) == 0 && !qg.ok("rematch-bound") {
			if name, ok := qg.names[gelem{false, nodes[0]}]; ok && qg.lookup(name) != nil {
				continue // a lone node bound by an earlier clause, matched again
			}
		}
		p := qg.pattern(nodes, rels, &pending)
		if pb, pv := qg.namePath(&p, nodes, rels, optional); pb != nil {
			paths, pathVals = append(paths, pb), append(pathVals, pv)
		}
		for j, n := range p.Nodes {
			if n.Var != "" {
				seen = append(seen, nodes[j])
			}
		}
		m.Patterns = append(m.Patterns, p)
	}
	if len(m.Patterns) == 0 {
		return nil
	}
	for _, b := range pending {
		b.known, b.null = !qg.lost, optional
		if b.t == gNode {
			qg.bind(b, qg.gi.g.NodeVal(b.elem))
		} else {
			qg.bind(b, qg.gi.g.RelVal(b.elem))
		}
	}
	for k, b := range paths {
		b.known, b.null = !qg.lost, optional
		qg.bind(b, pathVals[k])
	}
	if qg.pct(qg.o.Where) && qg.ok("match-where") {
		m.Where = qg.where()
	}
	return m
}

// startNode picks where a pattern starts: often at a node already bound, so that clauses join.
func (qg *QueryGen) startNode() int {
	var bound []int
	for _, b := range qg.scope {
		if b.t == gNode && b.elem >= 0 && b.known {
			bound = append(bound, b.elem)
		}
	}
	if len(bound) > 0 && qg.pct(95) {
		return bound[qg.r.IntN(len(bound))]
	}
	return qg.r.IntN(len(qg.gi.g.Nodes))
}

// region grows a connected set of 3 to 6 relationships around start (GDsmith's randomCluster);
// it is empty for a node without relationships.
func (qg *QueryGen) region(start int) []int {
	want := 3 + qg.r.IntN(4)
	in := map[int]bool{}
	var rels []int
	frontier := []int{start}
	seen := map[int]bool{start: true}
	for len(frontier) > 0 && len(rels) < want {
		i := qg.r.IntN(len(frontier))
		n := frontier[i]
		var cand []int
		for _, e := range qg.gi.adj[n] {
			if !in[e] {
				cand = append(cand, e)
			}
		}
		if len(cand) == 0 {
			frontier = slices.Delete(frontier, i, i+1)
			continue
		}
		e := cand[qg.r.IntN(len(cand))]
		in[e] = true
		rels = append(rels, e)
		for _, m := range []int{qg.gi.g.Rels[e].From, qg.gi.g.Rels[e].To} {
			if !seen[m] {
				seen[m] = true
				frontier = append(frontier, m)
			}
		}
	}
	return rels
}

// path cuts a linear path of up to n relationships from the region, starting at start and
// using no relationship in used (which it extends): the path's nodes and relationships.
func (qg *QueryGen) path(region []int, start, n int, used map[int]bool) ([]int, []int) {
	nodes, rels := []int{start}, []int(nil)
	cur := start
	for range n {
		var cand []int
		for _, e := range region {
			r := qg.gi.g.Rels[e]
			if !used[e] && (r.From == cur || r.To == cur) {
				cand = append(cand, e)
			}
		}
		if len(cand) == 0 {
			break
		}
		e := cand[qg.r.IntN(len(cand))]
		used[e] = true
		r := qg.gi.g.Rels[e]
		if r.From == cur {
			cur = r.To
		} else {
			cur = r.From
		}
		nodes, rels = append(nodes, cur), append(rels, e)
	}
	return nodes, rels
}

// pattern maps a path to a pattern: the same element gets the same variable; new variables
// are added to pending.
func (qg *QueryGen) pattern(nodes, rels []int, pending *[]*gbind) Pattern {
	var p Pattern
	for i, id := range nodes {
		if i > 0 {
			p.Rels = append(p.Rels, qg.relPat(rels[i-1], nodes[i-1], pending))
		}
		p.Nodes = append(p.Nodes, qg.nodePat(id, i > 0 && i == len(nodes)-1, pending))
	}
	return p
}

// elemVar returns the element's variable, whether it is bound already (in scope or earlier in
// this clause), and whether the pattern may leave it anonymous.
func (qg *QueryGen) elemVar(el gelem, pending []*gbind) (string, bool) {
	name, has := qg.names[el]
	if has {
		if qg.lookup(name) != nil || slices.ContainsFunc(pending, func(b *gbind) bool { return b.name == name }) {
			return name, true
		}
		return name, false
	}
	prefix := "n"
	if el.rel {
		prefix = "r"
	}
	name = qg.fresh(prefix)
	qg.names[el] = name
	return name, false
}

// nodePat maps a node to a node pattern; when anon, it may leave it without a variable.
func (qg *QueryGen) nodePat(id int, anon bool, pending *[]*gbind) NodePat {
	name, bound := qg.elemVar(gelem{false, id}, *pending)
	if bound {
		return NodePat{Var: name}
	}
	n := qg.gi.g.Nodes[id]
	np := NodePat{Var: name, Props: qg.propMap(n.Props)}
	for _, l := range n.Labels {
		if qg.pct(40) {
			np.Labels = append(np.Labels, l)
		}
	}
	if anon && qg.pct(15) {
		np.Var = ""
		return np
	}
	*pending = append(*pending, &gbind{name: name, t: gNode, elem: id})
	return np
}

func (qg *QueryGen) relPat(i, from int, pending *[]*gbind) RelPat {
	r := qg.gi.g.Rels[i]
	dir := Out
	if r.From != from {
		dir = In
	}
	if qg.ok("undirected") && qg.pct(15) {
		dir = Both
	}
	name, bound := qg.elemVar(gelem{true, i}, *pending)
	if bound && !qg.ok("rel-rebound") {
		return RelPat{Dir: dir, Types: []string{r.Type}} // the bound relationship still fits
	}
	if bound {
		return RelPat{Var: name, Dir: dir}
	}
	rp := RelPat{Var: name, Dir: dir, Props: qg.propMap(r.Props)}
	if qg.pct(60) {
		rp.Types = []string{r.Type}
		if ts := qg.gi.g.Schema.RelTypes; qg.ok("multi-type") && qg.pct(20) && len(ts) > 1 {
			other := ts[qg.r.IntN(len(ts))].Name
			if other != r.Type {
				rp.Types = append(rp.Types, other)
				qg.r.Shuffle(2, func(a, b int) { rp.Types[a], rp.Types[b] = rp.Types[b], rp.Types[a] })
			}
		}
	}
	if qg.varLength(&rp, i) {
		return rp
	}
	if qg.pct(25) {
		rp.Var = ""
		return rp
	}
	*pending = append(*pending, &gbind{name: name, t: gRel, elem: i})
	return rp
}

// propMap returns, sometimes, an inline property map of one of the element's properties.
func (qg *QueryGen) propMap(ps Props) []PropEq {
	if !qg.ok("prop-map") || !qg.pct(12) {
		return nil
	}
	p := ps[qg.r.IntN(len(ps))]
	return []PropEq{{Key: p.Key, Val: &Lit{p.Val.Val()}}}
}

// randomPattern returns a pattern drawn without the graph's guidance, from a bound node when
// there is one; its new variables have unknown witness values and may be null.
func (qg *QueryGen) randomPattern() Pattern {
	var p Pattern
	var nodes []*gbind
	for _, b := range qg.scope {
		if b.t == gNode {
			nodes = append(nodes, b)
		}
	}
	var fresh []*gbind
	newNode := func() NodePat {
		np := NodePat{Var: qg.fresh("n")}
		if ls := qg.gi.g.Schema.Labels; qg.pct(60) {
			np.Labels = []string{ls[qg.r.IntN(len(ls))].Name}
		}
		fresh = append(fresh, &gbind{name: np.Var, t: gNode, elem: -1, null: true})
		return np
	}
	if len(nodes) > 0 {
		p.Nodes = append(p.Nodes, NodePat{Var: nodes[qg.r.IntN(len(nodes))].name})
	} else {
		p.Nodes = append(p.Nodes, newNode())
	}
	for range 1 + qg.r.IntN(2) {
		rp := RelPat{Dir: Dir(qg.r.IntN(2))}
		if qg.ok("undirected") && qg.pct(15) {
			rp.Dir = Both
		}
		if ts := qg.gi.g.Schema.RelTypes; qg.pct(70) {
			rp.Types = []string{ts[qg.r.IntN(len(ts))].Name}
		}
		if qg.pct(60) {
			rp.Var = qg.fresh("r")
			fresh = append(fresh, &gbind{name: rp.Var, t: gRel, elem: -1, null: true})
		}
		p.Rels = append(p.Rels, rp)
		p.Nodes = append(p.Nodes, newNode())
	}
	for _, b := range fresh {
		qg.bind(b, cypherval.NullVal)
	}
	return p
}

// ---- WITH, UNWIND, RETURN

// projItem is a projected projItem with the facts of its expression.
type projItem struct {
	Item
	x gexpr
}

// varItem projects a binding under its own name (or alias, when not empty).
func varItem(b *gbind, alias string) projItem {
	if alias == "" {
		alias = b.name
	}
	return projItem{Item{&Var{b.name}, alias}, gexpr{e: &Var{b.name}, t: b.t, null: b.null, bound: b.bound, opaque: !b.known}}
}

// projection draws n items (1 to 3 when n < 0) named by name(i): bindings, expressions and,
// with aggregate, at least one aggregate.
func (qg *QueryGen) projection(n int, name func(i int, b *gbind) string, aggregate bool) []projItem {
	if n < 0 {
		n = 1 + qg.r.IntN(3)
	}
	var items []projItem
	hasAgg := false
	perm := qg.r.Perm(len(qg.scope))
	// Nodes first: a WITH that keeps a node lets later patterns join instead of multiplying.
	slices.SortStableFunc(perm, func(a, b int) int {
		return btoi(qg.scope[b].t == gNode) - btoi(qg.scope[a].t == gNode)
	})
	for i := range n {
		switch {
		case aggregate && (i == n-1 && !hasAgg || qg.pct(40)):
			hasAgg = true
			items = append(items, projItem{x: qg.aggregate()})
		case len(perm) > 0 && (qg.pct(55) || i == 0 && !aggregate && qg.pct(90)):
			b := qg.scope[perm[0]]
			perm = perm[1:]
			items = append(items, varItem(b, name(i, b)))
			continue
		default:
			items = append(items, projItem{x: qg.safe(qg.anyType(), qg.o.Depth)})
		}
		items[i].Item = Item{items[i].x.e, name(i, nil)}
	}
	return items
}

// project installs the scope after WITH: the items as bindings, with their witness values.
func (qg *QueryGen) project(items []projItem) {
	old, row := qg.row, map[string]cypherval.Val{}
	var scope []*gbind
	for _, it := range items {
		b := &gbind{name: it.Alias, t: it.x.t, elem: -1, null: it.x.null, bound: it.x.bound}
		if v, ok := it.Expr.(*Var); ok {
			if prev := qg.lookup(v.Name); prev != nil {
				b.elem = prev.elem
			}
		}
		if !it.x.opaque && !qg.lost {
			if v, err := EvalExpr(it.Expr, old); err == nil {
				b.known, row[b.name] = true, v
			}
		}
		scope = append(scope, b)
	}
	qg.scope, qg.row = scope, row
}

// with returns a WITH clause and installs its scope.
func (qg *QueryGen) with() *With {
	w := &With{}
	agg := !qg.noGroup && qg.ok("aggregate") && qg.pct(20)
	n := 1 + qg.r.IntN(3)
	if !agg && len(qg.scope) > 0 {
		n = max(1, min(len(qg.scope), 1+qg.r.IntN(len(qg.scope)))) + qg.r.IntN(2)
	}
	items := qg.projection(n, func(_ int, b *gbind) string {
		if b != nil {
			return b.name
		}
		return qg.fresh("a")
	}, agg)
	for _, it := range items {
		w.Items = append(w.Items, it.Item)
	}
	w.Distinct = !qg.noGroup && qg.ok("with-distinct") && qg.pct(15)
	qg.project(items)
	if !qg.noGroup && qg.pct(5) && qg.orderBy(&w.Projection, items) {
		qg.loseWitness()
	}
	qg.afterOpt = false
	if qg.ok("with-where") && qg.pct(qg.o.Where/2) {
		w.Where = qg.where()
	}
	return w
}

// ret returns the RETURN clause with n items (any number when n < 0) named c0, c1, ...; with
// order it may sort and cut the rows.
func (qg *QueryGen) ret(n int, order bool) *Return {
	ret := &Return{}
	agg := !qg.noGroup && qg.ok("aggregate") && qg.pct(20)
	items := qg.projection(n, func(i int, _ *gbind) string { return "c" + strconv.Itoa(i) }, agg)
	for _, it := range items {
		ret.Items = append(ret.Items, it.Item)
	}
	ret.Distinct = !qg.noGroup && qg.ok("return-distinct") && qg.pct(15)
	if order && !qg.noGroup && qg.pct(qg.o.Order) {
		qg.orderBy(&ret.Projection, items)
	}
	return ret
}

// orderBy adds ORDER BY keys that order every projected projItem totally, and SKIP and/or LIMIT;
// it does nothing and returns false when an projItem has no total order across engines (floats,
// lists) or the avoid set forbids it. Nodes and relationships sort by their id property; an
// projItem that may be null sorts first by IS NULL, so that engines' placement of nulls does not
// matter.
func (qg *QueryGen) orderBy(p *Projection, items []projItem) bool {
	if !qg.ok("order-by") || !qg.ok("skip") && !qg.ok("limit") {
		return false
	}
	var keys []SortItem
	for _, it := range items {
		var key Expr = &Var{it.Alias}
		switch it.x.t {
		case gFloat, gListInt, gListStr, gPath:
			return false
		case gNode, gRel:
			key = &Property{key, "id"}
		}
		if it.x.null {
			if !qg.ok("is-null") {
				return false
			}
			keys = append(keys, SortItem{&IsNull{X: &Var{it.Alias}}, qg.coin()})
		}
		keys = append(keys, SortItem{key, qg.coin()})
	}
	p.Order = keys
	skip, limit := qg.ok("skip") && qg.pct(40), qg.ok("limit")
	if !skip && !limit {
		skip = true
	}
	if skip {
		s := int64(1 + qg.r.IntN(2))
		p.Skip = &s
	}
	if limit {
		l := int64(1 + qg.r.IntN(5))
		p.Limit = &l
	}
	return true
}

// unwind returns an UNWIND clause and binds its variable. The list is never empty on the
// witness row.
func (qg *QueryGen) unwind() *Unwind {
	name := qg.fresh("u")
	elem := gInt
	if qg.coin() {
		elem = gStr
	}
	var list gexpr
	switch {
	case qg.ok("list") && qg.pct(40):
		list = qg.gen(listTypeOf(elem), qg.o.Depth)
		if list.opaque || qg.lost {
			break
		}
		if v, err := EvalExpr(list.e, qg.row); err == nil && v.Kind == cypherval.List && len(v.L) > 0 {
			qg.bind(&gbind{name: name, t: elem, elem: -1, known: true, null: true, bound: list.bound},
				v.L[qg.r.IntN(len(v.L))])
			return &Unwind{List: list.e, Var: name}
		}
	case elem == gInt && qg.ok("fn:range"):
		lo := int64(qg.r.IntN(9) - 3)
		hi := lo + int64(qg.r.IntN(5))
		step := int64(1 + qg.r.IntN(2))
		if qg.coin() {
			lo, hi, step = hi, lo, -step
		}
		l := &Call{Name: "range", Args: []Expr{qlit(cypherval.IntVal(lo)), qlit(cypherval.IntVal(hi)), qlit(cypherval.IntVal(step))}}
		qg.bind(&gbind{name: name, t: gInt, elem: -1, known: !qg.lost, bound: 8}, cypherval.IntVal(lo))
		return &Unwind{List: l, Var: name}
	}
	// A list literal of literals, or, when lists are avoided, a range of one or two elements.
	if !qg.ok("list") {
		qg.bind(&gbind{name: name, t: gInt, elem: -1, known: !qg.lost, bound: 2}, cypherval.IntVal(1))
		return &Unwind{List: &Call{Name: "range", Args: []Expr{qlit(cypherval.IntVal(1)), qlit(cypherval.IntVal(int64(1 + qg.r.IntN(2))))}}, Var: name}
	}
	l := &ListExpr{}
	var first cypherval.Val
	bound := 0.0
	for i := range 1 + qg.r.IntN(3) {
		x := qg.lit(elem)
		l.Elems = append(l.Elems, x.e)
		bound = max(bound, x.bound)
		if i == 0 {
			first = x.e.(*Lit).Val
		}
	}
	qg.bind(&gbind{name: name, t: elem, elem: -1, known: !qg.lost, bound: bound}, first)
	return &Unwind{List: l, Var: name}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func qlit(v cypherval.Val) *Lit { return &Lit{v} }

// aggregate returns an aggregate expression: count(*), count, sum, avg, min, max, or
// size(collect(...)), sometimes of DISTINCT values.
func (qg *QueryGen) aggregate() gexpr {
	type agg struct {
		name string
		arg  []gtype
	}
	aggs := []agg{{"count", nil}, {"count", []gtype{gInt, gStr, gBool, gNode}}, {"sum", []gtype{gInt}},
		{"avg", []gtype{gInt}}, {"min", []gtype{gInt, gStr}}, {"max", []gtype{gInt, gStr}},
		{"collect", []gtype{gInt, gStr, gNode}}}
	aggs = slices.DeleteFunc(aggs, func(a agg) bool {
		return !qg.ok("agg:"+a.name) || a.name == "collect" && !qg.ok("fn:size")
	})
	if len(aggs) == 0 {
		return qg.lit(gInt)
	}
	a := aggs[qg.r.IntN(len(aggs))]
	if a.arg == nil {
		return gexpr{e: &Call{Name: "count", Star: true}, t: gInt, bound: 1 << 40, opaque: true}
	}
	t := a.arg[qg.r.IntN(len(a.arg))]
	var x gexpr
	if t == gNode {
		var nodes []*gbind
		for _, b := range qg.scope {
			if b.t == gNode {
				nodes = append(nodes, b)
			}
		}
		if len(nodes) == 0 {
			t = gInt
		} else {
			x = varItem(nodes[qg.r.IntN(len(nodes))], "").x
		}
	}
	if t != gNode {
		sums := a.name == "sum" || a.name == "avg" // their sum must not overflow
		x = qg.gen(t, qg.o.Depth-1)
		for range 4 {
			if !sums || x.bound <= 1<<36 {
				break
			}
			x = qg.gen(t, qg.o.Depth-1)
		}
		if sums && x.bound > 1<<36 {
			x = qg.lit(gInt)
		}
	}
	c := &Call{Name: a.name, Args: []Expr{x.e}, Distinct: qg.ok("agg-distinct") && qg.pct(20)}
	out := gexpr{e: c, t: x.t, opaque: true, bound: x.bound, null: true}
	switch a.name {
	case "count":
		out.t, out.bound, out.null = gInt, 1<<40, false
	case "sum":
		out.bound, out.null = x.bound*(1<<24), false
	case "avg":
		out.t = gFloat
	case "collect":
		out = gexpr{e: &Call{Name: "size", Args: []Expr{c}}, t: gInt, bound: 1 << 40, opaque: true}
	}
	return out
}

// anyType draws the type of a projected expression.
func (qg *QueryGen) anyType() gtype {
	ts := []gtype{gInt, gInt, gStr, gStr, gBool, gFloat}
	if qg.ok("list") {
		ts = append(ts, gListInt, gListStr)
	}
	return ts[qg.r.IntN(len(ts))]
}

// safe generates an expression of type t that does not fail on the witness row (when it can be
// evaluated there).
func (qg *QueryGen) safe(t gtype, depth int) gexpr {
	for range 8 {
		x := qg.gen(t, depth)
		if x.opaque || qg.lost {
			return x
		}
		if _, err := EvalExpr(x.e, qg.row); err == nil {
			return x
		}
	}
	return qg.lit(t)
}

// isElemType reports whether t is a graph element type.
func isElemType(t gtype) bool { return t == gNode || t == gRel }

func listTypeOf(t gtype) gtype {
	if t == gStr {
		return gListStr
	}
	return gListInt
}

func elemTypeOf(t gtype) gtype {
	if t == gListStr {
		return gStr
	}
	return gInt
}

// propTypeOf is the generator type of a property value type.
func propTypeOf(t gtype) (Type, bool) {
	switch t {
	case gInt:
		return Integer, true
	case gFloat:
		return Float, true
	case gStr:
		return String, true
	case gBool:
		return Boolean, true
	}
	return 0, false
}
