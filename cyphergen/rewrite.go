package cyphergen

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"

	"github.com/polyfuzz/polyfuzz/cypherval"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Genie is the layout of GraphGenie's graph query transformations (Jiang et al., ICSE 2024): a
// rewrite of a case's query (role [RoleQuery]) whose rows equal the original's ("genie.eq"),
// contain them ("genie.super": the rewrite relaxed a pattern) or are contained in them
// ("genie.sub": the rewrite restricted one).
var Genie = fuzz.NewLayout("genie", "eq", "super", "sub")

// GRev is the layout of GRev's path-cover rewrite (Li et al., ISSTA 2024): the case's query with
// the patterns of each MATCH written as another set of paths covering the same relationship
// patterns ("grev.eq"); its rows equal the original's.
var GRev = fuzz.NewLayout("grev", "eq")

// Streams of the rewrites' random numbers, apart from the query's so that enabling a rewrite
// does not change the query.
const (
	genieStream = 0x6379702d67656e69 // "cyp-geni"
	grevStream  = 0x6379702d67726576 // "cyp-grev"
)

// relation is how a rewrite's rows relate to the original's, as multisets.
type relation uint8

const (
	relEqual relation = iota // the same rows
	relSuper                 // the rewrite's rows contain the original's
	relSub                   // the rewrite's rows are contained in the original's
)

// part returns the relation's part of the [Genie] layout.
func (r relation) part() string { return [...]string{"eq", "super", "sub"}[r] }

// rewriter rewrites one query. Its mutations work on a parsed copy, in place.
type rewriter struct {
	r      *rand.Rand
	avoid  map[string]bool
	labels []string // the graph's labels and relationship types, for restricting rewrites
	types  []string
	used   map[string]bool // every identifier of the query, so that new variables are fresh
	next   int
}

// identRE finds the identifiers of a query's text (keywords and names of labels among them,
// which new variables need not avoid but may).
var identRE = regexp.MustCompile("[A-Za-z_][A-Za-z0-9_]*")

func newRewriter(r *rand.Rand, avoid map[string]bool, s Schema) *rewriter {
	rw := &rewriter{r: r, avoid: avoid}
	for _, l := range s.Labels {
		rw.labels = append(rw.labels, l.Name)
	}
	for _, t := range s.RelTypes {
		rw.types = append(rw.types, t.Name)
	}
	return rw
}

// parse returns a fresh copy of the query of text and records its identifiers.
func (rw *rewriter) parse(text string) *Query {
	q, err := ParseQuery(text)
	if err != nil {
		return nil
	}
	rw.used, rw.next = map[string]bool{}, 0
	for _, id := range identRE.FindAllString(text, -1) {
		rw.used[id] = true
	}
	return q
}

// fresh returns a variable name the query does not use.
func (rw *rewriter) fresh() string {
	for {
		name := "m" + strconv.Itoa(rw.next)
		rw.next++
		if !rw.used[name] {
			rw.used[name] = true
			return name
		}
	}
}

// Rewrite features: steered catalogue entries name them to keep the rewriters away from what
// an engine writes differently in forms they take as equivalent. [Features] never reports them.
const (
	avoidRewriteOptional = "rewrite:optional" // rewrite no OPTIONAL MATCH
	avoidRewriteCounting = "rewrite:counting" // rewrite no query with an aggregate, SKIP or LIMIT
)

// rewritable reports whether the rewriter may rewrite q at all: not a query with a path
// variable or a variable-length relationship's variable, whose values follow the direction in
// which a pattern is written.
func (rw *rewriter) rewritable(q *Query) bool {
	if slices.ContainsFunc(Features(q), func(f string) bool { return f == "named-path" || f == "var-length-var" }) {
		return false
	}
	return !rw.avoid[avoidRewriteCounting] || rowwise(&SingleQuery{Clauses: allClauses(q)})
}

// allClauses returns the clauses of every single query of q.
func allClauses(q *Query) []Clause {
	var out []Clause
	for _, sq := range q.Parts {
		out = append(out, sq.Clauses...)
	}
	return out
}

// allowed reports whether q uses no feature the rewriter must avoid.
func (rw *rewriter) allowed(q *Query) bool {
	return !slices.ContainsFunc(Features(q), func(f string) bool { return rw.avoid[f] })
}

// mutation is one GraphGenie transformation: apply changes q in place and reports whether it
// applied, rel is the relation of the result to the query before it.
type mutation struct {
	name  string
	rel   relation
	apply func(rw *rewriter, q *Query) bool
}

// Why each mutation stands in its relation, under Neo4j's semantics (a MATCH's rows are the
// assignments of its pattern variables to nodes and relationships, no relationship twice, that
// satisfy every pattern and the WHERE; OPTIONAL MATCH keeps a row of nulls when there is none):
//
//   - reverse: (a)-[r]->(b)<-[s]-(c) and (c)-[s]->(b)<-[r]-(a) name the same constraints.
//   - split-path: a path and the two paths cut at a node (named, so that it stays shared)
//     constrain the same assignments; relationship uniqueness holds across a MATCH's patterns.
//   - reorder: the patterns of a MATCH are a conjunction.
//   - to-where: a label, a property map or relationship types in a pattern filter exactly as the
//     same tests in the MATCH's WHERE, which for OPTIONAL MATCH is part of the optional match.
//
// The relaxing and restricting ones change one non-optional MATCH of a single query whose
// clauses map each input row to output rows independently (no aggregate, no SKIP or LIMIT):
// more (fewer) matches there can only give more (fewer) rows at its RETURN, also through
// DISTINCT and UNION. A relaxed OPTIONAL MATCH could replace a row of nulls by matches, so
// neither kind touches one.
//
//   - drop-label, drop-types, drop-prop, undirect, drop-where: a weaker constraint.
//   - split-match: MATCH p1, p2 as MATCH p1 MATCH p2 loses relationship uniqueness between them.
//   - add-label, add-type, drop-type, direct, add-condition: a stronger constraint.
var mutations = []mutation{
	{"reverse", relEqual, (*rewriter).reverse},
	{"split-path", relEqual, (*rewriter).splitPath},
	{"reorder", relEqual, (*rewriter).reorder},
	{"to-where", relEqual, (*rewriter).toWhere},
	{"drop-label", relSuper, (*rewriter).dropLabel},
	{"drop-types", relSuper, (*rewriter).dropTypes},
	{"drop-prop", relSuper, (*rewriter).dropProp},
	{"undirect", relSuper, (*rewriter).undirect},
	{"split-match", relSuper, (*rewriter).splitMatch},
	{"drop-where", relSuper, (*rewriter).dropWhere},
	{"add-label", relSub, (*rewriter).addLabel},
	{"add-type", relSub, (*rewriter).addType},
	{"direct", relSub, (*rewriter).direct},
	{"add-condition", relSub, (*rewriter).addCondition},
}

// genie returns a GraphGenie rewrite of text and its relation: one to three mutations, all
// equivalent or all but equivalent ones of the relation drawn; ok is false when none applied.
func (rw *rewriter) genie(text string) (out string, rel relation, ok bool) {
	want := relEqual
	switch x := rw.r.IntN(10); {
	case x >= 7:
		want = relSub
	case x >= 4:
		want = relSuper
	}
	for attempt := 0; attempt < 8; attempt++ {
		q := rw.parse(text)
		if q == nil || !rw.rewritable(q) {
			return "", 0, false
		}
		var eqs, rels []mutation
		for _, m := range mutations {
			switch m.rel {
			case relEqual:
				eqs = append(eqs, m)
			case want:
				rels = append(rels, m)
			}
		}
		all := append(slices.Clone(eqs), rels...)
		n, got, applied := 1+rw.r.IntN(3), relEqual, 0
		for i := 0; i < 4*n && applied < n; i++ {
			pool := all
			if applied == n-1 && got == relEqual && len(rels) > 0 {
				pool = rels // the last mutation is of the relation wanted
			}
			if m := pool[rw.r.IntN(len(pool))]; m.apply(rw, q) {
				applied++
				if m.rel != relEqual {
					got = m.rel
				}
			}
		}
		if applied == 0 || !rw.allowed(q) {
			continue
		}
		if s := q.String(); s != text {
			return s, got, true
		}
	}
	return "", 0, false
}

// pickMatch returns a random MATCH clause of q (a non-optional one of a single query that maps
// rows independently when strict), with its single query and index, or nil.
func (rw *rewriter) pickMatch(q *Query, strict bool) (*SingleQuery, int, *Match) {
	type at struct {
		sq *SingleQuery
		i  int
	}
	var all []at
	for _, sq := range q.Parts {
		if strict && !rowwise(sq) {
			continue
		}
		for i, c := range sq.Clauses {
			if m, ok := c.(*Match); ok && (!strict && !rw.avoid[avoidRewriteOptional] || !m.Optional) {
				all = append(all, at{sq, i})
			}
		}
	}
	if len(all) == 0 {
		return nil, 0, nil
	}
	a := all[rw.r.IntN(len(all))]
	return a.sq, a.i, a.sq.Clauses[a.i].(*Match)
}

// rowwise reports whether a single query's clauses map input rows to output rows one by one:
// no aggregate, SKIP or LIMIT.
func rowwise(sq *SingleQuery) bool {
	fs := Features(&Query{Parts: []*SingleQuery{sq}})
	return !slices.Contains(fs, "aggregate") && !slices.Contains(fs, "skip") && !slices.Contains(fs, "limit")
}

// element is a node or relationship pattern of a MATCH.
type element struct {
	node *NodePat
	rel  *RelPat
}

// elements returns the pattern elements of m that keep satisfies.
func elements(m *Match, keep func(element) bool) []element {
	var out []element
	for pi := range m.Patterns {
		p := &m.Patterns[pi]
		for i := range p.Nodes {
			if e := (element{node: &p.Nodes[i]}); keep(e) {
				out = append(out, e)
			}
		}
		for i := range p.Rels {
			if p.Rels[i].Hops != nil {
				continue // a variable-length relationship is left as it is
			}
			if e := (element{rel: &p.Rels[i]}); keep(e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// pick returns a random element of es, or a zero element.
func (rw *rewriter) pick(es []element) (element, bool) {
	if len(es) == 0 {
		return element{}, false
	}
	return es[rw.r.IntN(len(es))], true
}

// flip reverses a direction.
func flip(d Dir) Dir {
	switch d {
	case Out:
		return In
	case In:
		return Out
	}
	return d
}

// reversed returns p written from its last node to its first.
func reversed(p Pattern) Pattern {
	n, k := len(p.Nodes), len(p.Rels)
	out := Pattern{Nodes: make([]NodePat, n), Rels: make([]RelPat, k)}
	for i := range p.Nodes {
		out.Nodes[i] = p.Nodes[n-1-i]
	}
	for i := range p.Rels {
		out.Rels[i] = p.Rels[k-1-i]
		out.Rels[i].Dir = flip(out.Rels[i].Dir)
	}
	return out
}

// and conjoins conditions; nil ones are left out.
func and(es ...Expr) Expr {
	var out Expr
	for _, e := range es {
		switch {
		case e == nil:
		case out == nil:
			out = e
		default:
			out = &Binary{Op: "AND", L: out, R: e}
		}
	}
	return out
}

// ---- equivalent mutations

func (rw *rewriter) reverse(q *Query) bool {
	_, _, m := rw.pickMatch(q, false)
	if m == nil {
		return false
	}
	var withRels []int
	for i, p := range m.Patterns {
		if len(p.Rels) > 0 {
			withRels = append(withRels, i)
		}
	}
	if len(withRels) == 0 {
		return false
	}
	i := withRels[rw.r.IntN(len(withRels))]
	m.Patterns[i] = reversed(m.Patterns[i])
	return true
}

func (rw *rewriter) splitPath(q *Query) bool {
	_, _, m := rw.pickMatch(q, false)
	if m == nil {
		return false
	}
	var long []int
	for i, p := range m.Patterns {
		if len(p.Rels) >= 2 {
			long = append(long, i)
		}
	}
	if len(long) == 0 {
		return false
	}
	pi := long[rw.r.IntN(len(long))]
	p := m.Patterns[pi]
	at := 1 + rw.r.IntN(len(p.Nodes)-2)
	if p.Nodes[at].Var == "" {
		p.Nodes[at].Var = rw.fresh()
	}
	a := Pattern{Nodes: slices.Clone(p.Nodes[:at+1]), Rels: slices.Clone(p.Rels[:at])}
	b := Pattern{Nodes: slices.Clone(p.Nodes[at:]), Rels: slices.Clone(p.Rels[at:])}
	b.Nodes[0] = NodePat{Var: p.Nodes[at].Var} // the shared node's constraints stay in a
	m.Patterns = slices.Insert(slices.Delete(m.Patterns, pi, pi+1), pi, a, b)
	return true
}

func (rw *rewriter) reorder(q *Query) bool {
	_, _, m := rw.pickMatch(q, false)
	if m == nil || len(m.Patterns) < 2 {
		return false
	}
	i := rw.r.IntN(len(m.Patterns))
	j := (i + 1 + rw.r.IntN(len(m.Patterns)-1)) % len(m.Patterns)
	m.Patterns[i], m.Patterns[j] = m.Patterns[j], m.Patterns[i]
	return true
}

func (rw *rewriter) toWhere(q *Query) bool {
	_, _, m := rw.pickMatch(q, false)
	if m == nil {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool {
		if e.node != nil {
			return len(e.node.Labels) > 0 || len(e.node.Props) > 0
		}
		return len(e.rel.Types) > 0 || len(e.rel.Props) > 0
	}))
	if !ok {
		return false
	}
	var conds []Expr
	var name *string
	var props *[]PropEq
	if e.node != nil {
		name, props = &e.node.Var, &e.node.Props
	} else {
		name, props = &e.rel.Var, &e.rel.Props
	}
	if *name == "" {
		*name = rw.fresh()
	}
	v := &Var{Name: *name}
	switch {
	case e.node != nil && len(e.node.Labels) > 0 && (len(*props) == 0 || rw.r.IntN(2) == 0):
		conds = append(conds, &HasLabels{X: v, Labels: e.node.Labels})
		e.node.Labels = nil
	case e.rel != nil && len(e.rel.Types) > 0 && (len(*props) == 0 || rw.r.IntN(2) == 0):
		ts := make([]Expr, len(e.rel.Types))
		for i, t := range e.rel.Types {
			ts[i] = &Lit{Val: cypherval.StringVal(t)}
		}
		conds = append(conds, &Binary{Op: "IN", L: &Call{Name: "type", Args: []Expr{v}}, R: &ListExpr{Elems: ts}})
		e.rel.Types = nil
	default:
		for _, p := range *props {
			conds = append(conds, &Binary{Op: "=", L: &Property{X: v, Key: p.Key}, R: p.Val})
		}
		*props = nil
	}
	m.Where = and(append([]Expr{m.Where}, conds...)...)
	return true
}

// ---- relaxing mutations

func (rw *rewriter) dropLabel(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool { return e.node != nil && len(e.node.Labels) > 0 }))
	if !ok {
		return false
	}
	i := rw.r.IntN(len(e.node.Labels))
	e.node.Labels = slices.Delete(slices.Clone(e.node.Labels), i, i+1)
	return true
}

func (rw *rewriter) dropTypes(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool { return e.rel != nil && len(e.rel.Types) > 0 }))
	if !ok {
		return false
	}
	if len(rw.types) > 0 && rw.r.IntN(2) == 0 { // or allow one more type
		t := rw.types[rw.r.IntN(len(rw.types))]
		if !slices.Contains(e.rel.Types, t) {
			e.rel.Types = append(slices.Clone(e.rel.Types), t)
			return true
		}
	}
	e.rel.Types = nil
	return true
}

func (rw *rewriter) dropProp(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool {
		return e.node != nil && len(e.node.Props) > 0 || e.rel != nil && len(e.rel.Props) > 0
	}))
	if !ok {
		return false
	}
	var props *[]PropEq
	if e.node != nil {
		props = &e.node.Props
	} else {
		props = &e.rel.Props
	}
	i := rw.r.IntN(len(*props))
	*props = slices.Delete(slices.Clone(*props), i, i+1)
	return true
}

func (rw *rewriter) undirect(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool { return e.rel != nil && e.rel.Dir != Both }))
	if !ok {
		return false
	}
	e.rel.Dir = Both
	return true
}

func (rw *rewriter) splitMatch(q *Query) bool {
	sq, i, m := rw.pickMatch(q, true)
	if m == nil || len(m.Patterns) < 2 {
		return false
	}
	k := 1 + rw.r.IntN(len(m.Patterns)-1)
	first := &Match{Patterns: slices.Clone(m.Patterns[:k])}
	second := &Match{Patterns: slices.Clone(m.Patterns[k:]), Where: m.Where}
	sq.Clauses = slices.Insert(slices.Delete(sq.Clauses, i, i+1), i, Clause(first), Clause(second))
	return true
}

func (rw *rewriter) dropWhere(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil || m.Where == nil {
		return false
	}
	m.Where = nil
	return true
}

// ---- restricting mutations

func (rw *rewriter) addLabel(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil || len(rw.labels) == 0 {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool { return e.node != nil }))
	l := rw.labels[rw.r.IntN(len(rw.labels))]
	if !ok || slices.Contains(e.node.Labels, l) {
		return false
	}
	e.node.Labels = append(slices.Clone(e.node.Labels), l)
	return true
}

func (rw *rewriter) addType(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil || len(rw.types) == 0 {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool { return e.rel != nil && len(e.rel.Types) != 1 }))
	if !ok {
		return false
	}
	if len(e.rel.Types) > 1 { // one alternative fewer
		i := rw.r.IntN(len(e.rel.Types))
		e.rel.Types = slices.Delete(slices.Clone(e.rel.Types), i, i+1)
		return true
	}
	e.rel.Types = []string{rw.types[rw.r.IntN(len(rw.types))]}
	return true
}

func (rw *rewriter) direct(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool { return e.rel != nil && e.rel.Dir == Both }))
	if !ok {
		return false
	}
	e.rel.Dir = Out + Dir(rw.r.IntN(2))
	return true
}

// comparisons are the operators of add-condition.
var comparisons = []string{"<", "<=", ">", ">=", "<>"}

func (rw *rewriter) addCondition(q *Query) bool {
	_, _, m := rw.pickMatch(q, true)
	if m == nil {
		return false
	}
	e, ok := rw.pick(elements(m, func(e element) bool { return e.node != nil && e.node.Var != "" || e.rel != nil && e.rel.Var != "" }))
	if !ok {
		return false
	}
	var name string
	if e.node != nil {
		name = e.node.Var
	} else {
		name = e.rel.Var
	}
	v := &Var{Name: name}
	var c Expr
	if e.node != nil && len(rw.labels) > 0 && rw.r.IntN(3) == 0 {
		c = &HasLabels{X: v, Labels: []string{rw.labels[rw.r.IntN(len(rw.labels))]}}
	} else {
		c = &Binary{Op: comparisons[rw.r.IntN(len(comparisons))], L: &Property{X: v, Key: "id"},
			R: &Lit{Val: cypherval.IntVal(int64(rw.r.IntN(256)))}}
	}
	m.Where = and(m.Where, c)
	return true
}

// WithRewrites makes the generator add to each case's query (role [RoleQuery], written also
// without diff) a GraphGenie rewrite (layout [Genie]) when genie and a GRev path cover (layout
// [GRev]) when grev, and returns g.
func (g *Generator) WithRewrites(genie, grev bool) *Generator {
	g.genie, g.grev = genie, grev
	return g
}

// rewrites returns the rewrites of the query q that the generator makes, drawn from seed.
func (g *Generator) rewrites(q string, s Schema, seed uint64) []fuzz.Query {
	var out []fuzz.Query
	if g.genie {
		rw := newRewriter(rand.New(rand.NewPCG(seed, genieStream)), g.avoid, s)
		if text, rel, ok := rw.genie(q); ok {
			out = append(out, fuzz.Query{Role: Genie.Role(rel.part()), Text: text})
		}
	}
	if g.grev {
		rw := newRewriter(rand.New(rand.NewPCG(seed, grevStream)), g.avoid, s)
		if text, ok := rw.grev(q); ok {
			out = append(out, fuzz.Query{Role: GRev.Role("eq"), Text: text})
		}
	}
	return out
}
