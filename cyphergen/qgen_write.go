package cyphergen

import (
	"maps"
	"slices"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// WriteQuery returns a query that writes: a MATCH cut from a region of the graph as [Query]'s
// are (so that its witness row reaches the writes, which then touch elements), sometimes a
// second one, then one or two writing clauses (CREATE, MERGE, SET, REMOVE, DELETE, DETACH
// DELETE) and a RETURN: of count(*) after a DELETE, else of bound values. New elements get
// fresh ids above every id of the graph, properties new values of their keys' types, mostly
// literals (so that rows binding one element agree on what they write).
func (qg *QueryGen) WriteQuery() *Query {
	qg.noGroup = false
	qg.reset()
	// One relationship per MATCH and every element named: how many rows reach the writes then
	// depends neither on relationship uniqueness nor on FalkorDB's merging of matches that
	// differ only in unnamed elements (docs/graph.md), since each row writes.
	// No path variable either: the reference does not model a path's elements after a write.
	saved, savedAvoid := qg.o, qg.avoid
	qg.o.Patterns, qg.o.PathLen = Range{Min: 1, Max: 1}, Range{Min: 0, Max: 1}
	qg.avoid = maps.Clone(qg.avoid)
	if qg.avoid == nil {
		qg.avoid = map[string]bool{}
	}
	qg.avoid["named-path"] = true
	sq := &SingleQuery{Clauses: []Clause{qg.match(false)}}
	if qg.pct(25) {
		if m := qg.match(false); m != nil {
			sq.Clauses = append(sq.Clauses, m)
		}
	}
	qg.o, qg.avoid = saved, savedAvoid
	for _, c := range sq.Clauses {
		qg.nameAll(c.(*Match))
	}
	qg.nextID = len(qg.gi.g.Nodes) + len(qg.gi.g.Rels)
	deleted := false
	for i := range 1 + qg.r.IntN(2) {
		cs := qg.writeClause(i == 0)
		sq.Clauses = append(sq.Clauses, cs...)
		if len(cs) > 0 {
			if _, ok := cs[len(cs)-1].(*Delete); ok {
				deleted = true
				break
			}
		}
	}
	if deleted || len(qg.scope) == 0 {
		sq.Clauses = append(sq.Clauses, &Return{Projection{Items: []Item{{&Call{Name: "count", Star: true}, "c0"}}}})
	} else {
		qg.loseWitness() // the witness holds the values before the writes
		sq.Clauses = append(sq.Clauses, qg.ret(-1, false))
	}
	return &Query{Parts: []*SingleQuery{sq}}
}

// writeClause returns a writing clause (and, when first, perhaps a MATCH before a DELETE of a
// node without relationships: Neo4j wants a WITH between a write and a MATCH), nil when the
// avoid set leaves none.
func (qg *QueryGen) writeClause(first bool) []Clause {
	type kind struct {
		feature string
		w       int
		f       func() []Clause
	}
	one := func(c Clause) []Clause {
		if c == nil {
			return nil
		}
		return []Clause{c}
	}
	kinds := []kind{
		{"set", 25, func() []Clause { return one(qg.setProp()) }},
		{"set-map", 10, func() []Clause { return one(qg.setMap()) }},
		{"set-label", 8, func() []Clause { return one(qg.setLabel()) }},
		{"remove", 10, func() []Clause { return one(qg.remove()) }},
		{"create", 15, func() []Clause { return one(qg.create()) }},
		{"merge", 12, func() []Clause { return one(qg.merge()) }},
		{"delete", 12, func() []Clause { return qg.delete(first) }},
		{"detach-delete", 8, func() []Clause { return one(qg.detachDelete()) }},
	}
	kinds = slices.DeleteFunc(kinds, func(k kind) bool { return !qg.ok(k.feature) })
	total := 0
	for _, k := range kinds {
		total += k.w
	}
	for range 4 {
		if total == 0 {
			return nil
		}
		x := qg.r.IntN(total)
		for _, k := range kinds {
			if x < k.w {
				if cs := k.f(); len(cs) > 0 {
					return cs
				}
				break
			}
			x -= k.w
		}
	}
	return nil
}

// elems returns the bindings in scope of type t (gNode or gRel).
func (qg *QueryGen) elems(t gtype) []*gbind {
	var out []*gbind
	for _, b := range qg.scope {
		if b.t == t {
			out = append(out, b)
		}
	}
	return out
}

// pickElem returns a bound node or relationship (nodes when nodesOnly), nil when none is bound.
func (qg *QueryGen) pickElem(nodesOnly bool) *gbind {
	bs := qg.elems(gNode)
	if !nodesOnly && qg.pct(35) {
		if rs := qg.elems(gRel); len(rs) > 0 {
			bs = rs
		}
	}
	if len(bs) == 0 {
		return nil
	}
	return bs[qg.r.IntN(len(bs))]
}

// writeKey picks a property key other than id for a node or relationship, with its type.
func (qg *QueryGen) writeKey(rel bool) (string, Type, bool) {
	keys := qg.gi.nodeKeys
	if rel {
		keys = qg.gi.relKeys
	}
	var all []string
	for _, t := range []Type{Integer, Float, String, Boolean} {
		for _, k := range keys[t] {
			if k != "id" {
				all = append(all, k)
			}
		}
	}
	if len(all) == 0 {
		return "", 0, false
	}
	k := all[qg.r.IntN(len(all))]
	return k, qg.gi.keyType[k], true
}

// writeValue returns a value for a property of type t: mostly a literal from the graph's
// values, sometimes an expression over the bindings, rarely null (which removes it).
func (qg *QueryGen) writeValue(t Type) Expr {
	switch {
	case qg.pct(5):
		return &Lit{cypherval.NullVal}
	case qg.pct(25):
		gt := map[Type]gtype{Integer: gInt, Float: gFloat, String: gStr, Boolean: gBool}[t]
		return qg.safe(gt, 2).e
	}
	if pool := qg.gi.pool[t]; len(pool) > 0 {
		return &Lit{pool[qg.r.IntN(len(pool))].Val()}
	}
	gt := map[Type]gtype{Integer: gInt, Float: gFloat, String: gStr, Boolean: gBool}[t]
	return qg.lit(gt).e
}

// newProps returns properties for a new element: a fresh id and a few keys of the label's or
// type's schema with literal values.
func (qg *QueryGen) newProps(rel bool) []PropEq {
	ps := []PropEq{{Key: "id", Val: &Lit{cypherval.IntVal(int64(qg.nextID))}}}
	qg.nextID++
	for range qg.r.IntN(3) {
		k, t, ok := qg.writeKey(rel)
		if !ok || slices.ContainsFunc(ps, func(p PropEq) bool { return p.Key == k }) {
			continue
		}
		if pool := qg.gi.pool[t]; len(pool) > 0 {
			ps = append(ps, PropEq{Key: k, Val: &Lit{pool[qg.r.IntN(len(pool))].Val()}})
		}
	}
	return ps
}

// label picks a label of the schema.
func (qg *QueryGen) label() string {
	ls := qg.gi.g.Schema.Labels
	return ls[qg.r.IntN(len(ls))].Name
}

// relType picks a relationship type of the schema.
func (qg *QueryGen) relType() string {
	ts := qg.gi.g.Schema.RelTypes
	return ts[qg.r.IntN(len(ts))].Name
}

func (qg *QueryGen) setProp() Clause {
	b := qg.pickElem(false)
	if b == nil {
		return nil
	}
	s := &SetClause{}
	for range 1 + qg.r.IntN(2) {
		k, t, ok := qg.writeKey(b.t == gRel)
		if !ok {
			return nil
		}
		s.Items = append(s.Items, SetItem{Var: b.name, Key: k, Val: qg.writeValue(t)})
		if next := qg.pickElem(false); next != nil && qg.coin() {
			b = next
		}
	}
	return s
}

func (qg *QueryGen) setMap() Clause {
	b := qg.pickElem(false)
	if b == nil {
		return nil
	}
	it := SetItem{Var: b.name, Merge: true}
	for range 1 + qg.r.IntN(2) {
		k, t, ok := qg.writeKey(b.t == gRel)
		if !ok || slices.ContainsFunc(it.Map, func(p PropEq) bool { return p.Key == k }) {
			continue
		}
		it.Map = append(it.Map, PropEq{Key: k, Val: qg.writeValue(t)})
	}
	if len(it.Map) == 0 {
		return nil
	}
	return &SetClause{Items: []SetItem{it}}
}

func (qg *QueryGen) setLabel() Clause {
	b := qg.pickElem(true)
	if b == nil {
		return nil
	}
	return &SetClause{Items: []SetItem{{Var: b.name, Labels: []string{qg.label()}}}}
}

func (qg *QueryGen) remove() Clause {
	b := qg.pickElem(false)
	if b == nil {
		return nil
	}
	if b.t == gNode && qg.ok("remove-label") && qg.pct(30) {
		ls := []string{qg.label()}
		if b.elem >= 0 && len(qg.gi.g.Nodes[b.elem].Labels) > 0 && qg.pct(70) {
			nl := qg.gi.g.Nodes[b.elem].Labels
			ls = []string{nl[qg.r.IntN(len(nl))]}
		}
		return &Remove{Items: []RemoveItem{{Var: b.name, Labels: ls}}}
	}
	k, _, ok := qg.writeKey(b.t == gRel)
	if !ok {
		return nil
	}
	return &Remove{Items: []RemoveItem{{Var: b.name, Key: k}}}
}

// create makes a node (sometimes two, joined) or a relationship between bound nodes.
func (qg *QueryGen) create() Clause {
	nodes := qg.elems(gNode)
	newNode := func() NodePat {
		np := NodePat{Var: qg.fresh("n"), Props: qg.newProps(false)}
		for range qg.r.IntN(3) {
			if l := qg.label(); !slices.Contains(np.Labels, l) {
				np.Labels = append(np.Labels, l)
			}
		}
		return np
	}
	rel := func() RelPat {
		return RelPat{Var: qg.fresh("r"), Types: []string{qg.relType()}, Dir: Dir(qg.r.IntN(2)), Props: qg.newProps(true)}
	}
	var p Pattern
	switch {
	case len(nodes) > 0 && qg.pct(60):
		a, b := nodes[qg.r.IntN(len(nodes))], nodes[qg.r.IntN(len(nodes))]
		p = Pattern{Nodes: []NodePat{{Var: a.name}}, Rels: []RelPat{rel()}}
		if qg.pct(25) {
			p.Nodes = append(p.Nodes, newNode())
		} else {
			p.Nodes = append(p.Nodes, NodePat{Var: b.name})
		}
	case qg.pct(30):
		p = Pattern{Nodes: []NodePat{newNode()}, Rels: []RelPat{rel()}}
		p.Nodes = append(p.Nodes, newNode())
	default:
		p = Pattern{Nodes: []NodePat{newNode()}}
	}
	qg.bindNew(p)
	return &Create{Patterns: []Pattern{p}}
}

// bindNew adds the new variables of a CREATE or MERGE pattern to the scope, without witness
// values.
func (qg *QueryGen) bindNew(p Pattern) {
	for _, n := range p.Nodes {
		if n.Var != "" && qg.lookup(n.Var) == nil {
			qg.bind(&gbind{name: n.Var, t: gNode, elem: -1}, cypherval.NullVal)
		}
	}
	for _, r := range p.Rels {
		if r.Var != "" {
			qg.bind(&gbind{name: r.Var, t: gRel, elem: -1}, cypherval.NullVal)
		}
	}
}

// merge makes a MERGE of a node like one of the graph's (which then matches) or a new one, or
// of a relationship between bound nodes, of the type of one between them when there is one.
func (qg *QueryGen) merge() Clause {
	var known []*gbind
	for _, b := range qg.elems(gNode) {
		if b.elem >= 0 {
			known = append(known, b)
		}
	}
	var p Pattern
	switch {
	case len(known) > 0 && qg.pct(50):
		a, b := known[qg.r.IntN(len(known))], known[qg.r.IntN(len(known))]
		rp := RelPat{Var: qg.fresh("r"), Types: []string{qg.relType()}, Dir: Dir(qg.r.IntN(2))}
		for _, ri := range qg.gi.adj[a.elem] {
			r := qg.gi.g.Rels[ri]
			if (r.From == b.elem || r.To == b.elem) && qg.pct(70) {
				rp.Types = []string{r.Type}
				rp.Dir = Out
				if r.From != a.elem {
					rp.Dir = In
				}
				break
			}
		}
		if qg.pct(30) {
			rp.Props = qg.newProps(true)
		}
		p = Pattern{Nodes: []NodePat{{Var: a.name}, {Var: b.name}}, Rels: []RelPat{rp}}
	default:
		np := NodePat{Var: qg.fresh("n")}
		if qg.coin() {
			// like a node of the graph: one of its labels and one of its properties
			n := qg.gi.g.Nodes[qg.r.IntN(len(qg.gi.g.Nodes))]
			if len(n.Labels) > 0 {
				np.Labels = []string{n.Labels[qg.r.IntN(len(n.Labels))]}
			}
			if len(n.Props) > 1 {
				pr := n.Props[1+qg.r.IntN(len(n.Props)-1)]
				np.Props = []PropEq{{Key: pr.Key, Val: &Lit{pr.Val.Val()}}}
			}
		} else {
			np.Labels = []string{qg.label()}
			np.Props = qg.newProps(false)
		}
		p = Pattern{Nodes: []NodePat{np}}
	}
	qg.bindNew(p)
	return &Merge{Pattern: p}
}

// delete deletes bound relationships, or a node without relationships, matched by its id.
func (qg *QueryGen) delete(first bool) []Clause {
	if rs := qg.elems(gRel); len(rs) > 0 && (qg.pct(80) || !first) {
		d := &Delete{Exprs: []Expr{&Var{rs[qg.r.IntN(len(rs))].name}}}
		return []Clause{d}
	}
	var lone []int
	for i := range qg.gi.g.Nodes {
		if len(qg.gi.adj[i]) == 0 {
			lone = append(lone, i)
		}
	}
	if len(lone) == 0 || !first {
		return nil
	}
	id := lone[qg.r.IntN(len(lone))]
	name := qg.fresh("n")
	idv, _ := qg.gi.g.Nodes[id].Props.Get("id")
	m := &Match{Patterns: []Pattern{{Nodes: []NodePat{{Var: name, Props: []PropEq{{Key: "id", Val: &Lit{idv.Val()}}}}}}}}
	return []Clause{m, &Delete{Exprs: []Expr{&Var{name}}}}
}

func (qg *QueryGen) detachDelete() Clause {
	ns := qg.elems(gNode)
	if len(ns) == 0 {
		return nil
	}
	return &Delete{Detach: true, Exprs: []Expr{&Var{ns[qg.r.IntN(len(ns))].name}}}
}

// stateQueries are the queries that read a graph back whole, in canonical values: its nodes
// (labels and properties), and its relationships with the ids of their endpoints.
var stateQueries = [2]string{
	"MATCH (n) RETURN n",
	"MATCH (a)-[r]->(b) RETURN a.id AS a, r, b.id AS b",
}

// StateQueries returns the queries that read a graph back whole: nodes, and relationships with
// the ids of their endpoints.
func StateQueries() (nodes, rels string) { return stateQueries[0], stateQueries[1] }

// nameAll gives the anonymous elements of m's patterns variables of their own.
func (qg *QueryGen) nameAll(m *Match) {
	for i := range m.Patterns {
		p := &m.Patterns[i]
		for j := range p.Nodes {
			if p.Nodes[j].Var == "" {
				p.Nodes[j].Var = qg.fresh("n")
			}
		}
		for j := range p.Rels {
			if p.Rels[j].Var == "" {
				p.Rels[j].Var = qg.fresh("r")
			}
		}
	}
}
