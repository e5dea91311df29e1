package cyphergen

import (
	"github.com/polyfuzz/polyfuzz/cypherval"
)

// The generator's read constructs: variable-length relationships and named paths in MATCH
// patterns, and map, list comprehension, path function and subquery expressions. Each is
// behind its feature ([Features]), so that an engine's profile can rule it out.

// varLength sometimes turns the relationship pattern of witness relationship i into a
// variable-length one whose range holds the witness's single hop (*1..k, sometimes *0..k), and
// reports whether it did. Its property map is dropped; its variable, when kept, is a fresh v
// name bound to a list that no expression reads, and the relationship's variable is forgotten
// so that later clauses name it anew.
func (qg *QueryGen) varLength(rp *RelPat, i int) bool {
	if !qg.ok("var-length") || !qg.pct(12) {
		return false
	}
	h := &Hops{Min: 1, Max: 1 + qg.r.IntN(3)}
	if qg.pct(15) {
		h.Min = 0
	}
	rp.Hops, rp.Props, rp.Var = h, nil, ""
	delete(qg.names, gelem{true, i})
	if qg.ok("var-length-var") && qg.pct(30) {
		rp.Var = qg.fresh("v")
	}
	return true
}

// namePath sometimes names pattern p (cut from the witness's nodes and rels): it returns the
// path's binding and its witness value, or nil.
func (qg *QueryGen) namePath(p *Pattern, nodes, rels []int, optional bool) (*gbind, cypherval.Val) {
	if !qg.ok("named-path") || !qg.pct(10) || optional && qg.allBound(p) {
		return nil, cypherval.NullVal
	}
	p.Var = qg.fresh("p")
	g := qg.gi.g
	v := cypherval.Val{Kind: cypherval.Path, L: []cypherval.Val{g.NodeVal(nodes[0])}}
	for k, ri := range rels {
		v.L = append(v.L, g.RelVal(ri), g.NodeVal(nodes[k+1]))
	}
	return &gbind{name: p.Var, t: gPath, elem: -1, bound: float64(3 * len(rels))}, v
}

// allBound reports whether every element of p is a variable bound by an earlier clause (the
// reference answers "unsupported" for such a named path in an OPTIONAL MATCH without a match).
func (qg *QueryGen) allBound(p *Pattern) bool {
	for _, n := range p.Nodes {
		if n.Var == "" || qg.lookup(n.Var) == nil {
			return false
		}
	}
	for _, r := range p.Rels {
		if r.Var == "" || qg.lookup(r.Var) == nil {
			return false
		}
	}
	return true
}

// readMakers are the compound expressions of type t built from the read constructs.
func (qg *QueryGen) readMakers(t gtype, d int) []maker {
	var ms []maker
	switch t {
	case gInt:
		ms = append(ms, maker{"count-subquery", func() (gexpr, bool) { return qg.subquery(true) }})
		if len(qg.visible(gPath)) > 0 {
			ms = append(ms, maker{"fn:length", qg.pathLength}, maker{"fn:length", qg.pathLength})
		}
	case gBool:
		ms = append(ms, maker{"exists-subquery", func() (gexpr, bool) { return qg.subquery(false) }},
			maker{"map-projection", func() (gexpr, bool) { return qg.mapProjNull() }})
	case gListInt, gListStr:
		ms = append(ms, maker{"list-comprehension", func() (gexpr, bool) { return qg.listComp(t, d) }})
	}
	if t != gListInt && t != gListStr {
		ms = append(ms, maker{"map-literal", func() (gexpr, bool) { return qg.mapLitAccess(t, d) }},
			maker{"map-projection", func() (gexpr, bool) { return qg.mapProjAccess(t) }})
	}
	return ms
}

// pathLength is length(p), or size(nodes(p)) or size(relationships(p)), of a path in scope.
func (qg *QueryGen) pathLength() (gexpr, bool) {
	bs := qg.visible(gPath)
	if len(bs) == 0 {
		return gexpr{}, false
	}
	b := bs[qg.r.IntN(len(bs))]
	x := varItem(b, "").x
	var e Expr = &Call{Name: "length", Args: []Expr{x.e}}
	switch qg.r.IntN(3) {
	case 1:
		if qg.ok("fn:nodes") && qg.ok("fn:size") {
			e = &Call{Name: "size", Args: []Expr{&Call{Name: "nodes", Args: []Expr{x.e}}}}
		}
	case 2:
		if qg.ok("fn:relationships") && qg.ok("fn:size") {
			e = &Call{Name: "size", Args: []Expr{&Call{Name: "relationships", Args: []Expr{x.e}}}}
		}
	}
	return gexpr{e: e, t: gInt, null: b.null, bound: 64, opaque: x.opaque}, true
}

// mapLitAccess is {k0: e0, k1: e1}.kI: a map literal of one or two entries and a key, with the
// type of that entry.
func (qg *QueryGen) mapLitAccess(t gtype, d int) (gexpr, bool) {
	m := &MapLit{}
	var want gexpr
	n := 1 + qg.r.IntN(2)
	pick := qg.r.IntN(n)
	for k := range n {
		x := qg.gen(t, d)
		if k != pick {
			x = qg.gen(qg.anyType(), d)
		} else {
			want = x
		}
		m.Entries = append(m.Entries, PropEq{Key: "k" + string(rune('a'+k)), Val: x.e})
		want.opaque = want.opaque || x.opaque
	}
	want.e = &Property{X: m, Key: m.Entries[pick].Key}
	return want, true
}

// mapProjAccess is n{.k1, .k2}.k1 for a node or relationship in scope and a key of type t.
func (qg *QueryGen) mapProjAccess(t gtype) (gexpr, bool) {
	x, ok := qg.prop(t)
	if !ok {
		return x, false
	}
	p := x.e.(*Property)
	mp := &MapProj{X: p.X, Items: []MapItem{{Key: p.Key}}}
	vt, _ := propTypeOf(t)
	keys := qg.gi.nodeKeys[vt]
	if qg.coin() && len(keys) > 0 {
		mp.Items = append(mp.Items, MapItem{Key: keys[qg.r.IntN(len(keys))]})
		qg.r.Shuffle(len(mp.Items), func(a, b int) { mp.Items[a], mp.Items[b] = mp.Items[b], mp.Items[a] })
	}
	if qg.ok("map-projection-all") && qg.pct(20) {
		mp.Items = []MapItem{{All: true}}
	}
	x.e = &Property{X: mp, Key: p.Key}
	return x, true
}

// mapProjNull is n{.k} IS [NOT] NULL for a node or relationship in scope: a projection of null
// is null, of an element a map.
func (qg *QueryGen) mapProjNull() (gexpr, bool) {
	if !qg.ok("is-null") || !qg.ok("map-projection-null-test") {
		return gexpr{}, false
	}
	x, ok := qg.prop(qg.anyType())
	if !ok {
		return x, false
	}
	p := x.e.(*Property)
	return gexpr{e: &IsNull{X: &MapProj{X: p.X, Items: []MapItem{{Key: p.Key}}}, Not: qg.coin()}, t: gBool,
		opaque: x.opaque}, true
}

// listComp is [x IN list WHERE p | e] of type t, over a list of integers or strings.
func (qg *QueryGen) listComp(t gtype, d int) (gexpr, bool) {
	src := t
	mapped := qg.pct(60)
	if mapped && qg.coin() {
		src = gListInt + gListStr - t
	}
	if !mapped {
		src = t
	}
	l := qg.gen(src, d)
	name := qg.fresh("x")
	b := &gbind{name: name, t: elemTypeOf(src), elem: -1, null: true, bound: l.bound}
	qg.scope = append(qg.scope, b)
	defer func() { qg.scope = qg.scope[:len(qg.scope)-1] }()
	c := &ListComp{Var: name, List: l.e}
	x := gexpr{e: c, t: t, bound: l.bound, opaque: l.opaque}
	if !mapped || qg.pct(70) {
		// The reference evaluates subqueries only outside comprehensions.
		if w := qg.gen(gBool, d); !hasSubquery(w.e) {
			c.Where, x.opaque = w.e, x.opaque || w.opaque
		}
	}
	if mapped {
		m := qg.gen(elemTypeOf(t), d)
		if hasSubquery(m.e) {
			return gexpr{}, false
		}
		c.Map, x.bound, x.opaque = m.e, m.bound, x.opaque || m.opaque
	}
	return x, true
}

// hasSubquery reports whether e holds an EXISTS or COUNT subquery.
func hasSubquery(e Expr) bool {
	found := false
	walk(e, func(x Expr) bool {
		_, ok := x.(*Subquery)
		found = found || ok
		return !found
	})
	return found
}

// subquery is EXISTS { MATCH ... } or COUNT { MATCH ... } from a node in scope: a path cut from
// the graph at the node's witness when it is known (so that it usually matches), otherwise a
// random one. Its value on the witness row is computed by the reference and kept in the row.
func (qg *QueryGen) subquery(count bool) (gexpr, bool) {
	bs := qg.visible(gNode)
	if len(bs) == 0 {
		return gexpr{}, false
	}
	b := bs[qg.r.IntN(len(bs))]
	var p Pattern
	if b.known && b.elem >= 0 && !qg.lost {
		nodes, rels := qg.path(qg.region(b.elem), b.elem, 1+qg.r.IntN(2), map[int]bool{})
		if len(rels) == 0 {
			return gexpr{}, false
		}
		p.Nodes = []NodePat{{Var: b.name}}
		for k, ri := range rels {
			rp := qg.hopPat(nodes[k], ri)
			if qg.ok("var-length") && qg.pct(15) {
				rp.Hops = &Hops{Min: 1, Max: 1 + qg.r.IntN(2)}
			}
			p.Rels, p.Nodes = append(p.Rels, rp), append(p.Nodes, qg.hopNode(nodes[k+1]))
		}
	} else {
		p.Nodes = []NodePat{{Var: b.name}}
		ts := qg.gi.g.Schema.RelTypes
		rp := RelPat{Dir: Dir(qg.r.IntN(2))}
		if len(ts) > 0 && qg.pct(70) {
			rp.Types = []string{ts[qg.r.IntN(len(ts))].Name}
		}
		p.Rels, p.Nodes = []RelPat{rp}, append(p.Nodes, NodePat{})
	}
	s := &Subquery{Count: count, Match: &Match{Patterns: []Pattern{p}}}
	x := gexpr{e: s, t: gBool, opaque: !b.known || qg.lost, null: false}
	if count {
		x.t, x.bound = gInt, 1<<32
	}
	if !x.opaque {
		st := &runState{g: qg.gi.g}
		st.index()
		found, err := st.match([]row{qg.row}, s.Match)
		if err != nil {
			return gexpr{}, false
		}
		if count {
			qg.row[subqueryKey(s)] = cypherval.IntVal(int64(len(found)))
		} else {
			qg.row[subqueryKey(s)] = cypherval.BoolVal(len(found) > 0)
		}
	}
	return x, true
}

// callSub returns CALL { WITH n MATCH <path from n> RETURN count(*) AS a } or
// CALL { ... RETURN m AS n }, with a path cut from the graph at the witness of a node in scope,
// and binds what it returns with its witness value; nil when no node in scope has a witness.
func (qg *QueryGen) callSub() Clause {
	var bs []*gbind
	for _, b := range qg.scope {
		if b.t == gNode && b.known && b.elem >= 0 && !qg.lost {
			bs = append(bs, b)
		}
	}
	if len(bs) == 0 {
		return nil
	}
	b := bs[qg.r.IntN(len(bs))]
	nodes, rels := qg.path(qg.region(b.elem), b.elem, 1+qg.r.IntN(2), map[int]bool{})
	if len(rels) == 0 {
		return nil
	}
	p := Pattern{Nodes: []NodePat{{Var: b.name}}}
	end := qg.fresh("n")
	for k, ri := range rels {
		rp := qg.hopPat(nodes[k], ri)
		np := qg.hopNode(nodes[k+1])
		if k == len(rels)-1 {
			np.Var = end
		}
		p.Rels, p.Nodes = append(p.Rels, rp), append(p.Nodes, np)
	}
	name := qg.fresh("a")
	ret := &Return{}
	bind := &gbind{name: name, t: gNode, elem: nodes[len(nodes)-1], known: true}
	if qg.ok("aggregate") && qg.ok("agg:count") && qg.coin() {
		ret.Items = []Item{{Expr: &Call{Name: "count", Star: true}, Alias: name}}
		bind = &gbind{name: name, t: gInt, elem: -1, known: true, bound: 1 << 32}
	} else {
		ret.Items = []Item{{Expr: &Var{end}, Alias: name}}
	}
	c := &CallSub{Body: &SingleQuery{Clauses: []Clause{
		&With{Projection: Projection{Items: []Item{{Expr: &Var{b.name}}}}},
		&Match{Patterns: []Pattern{p}},
		ret,
	}}}
	st := &runState{g: qg.gi.g}
	st.index()
	rows, err := st.callRows(qg.row, c)
	if err != nil || len(rows) == 0 {
		return nil
	}
	v := rows[0][0]
	if bind.t == gNode {
		v = qg.gi.g.NodeVal(bind.elem)
	}
	qg.bind(bind, v)
	return c
}

// hopPat is the relationship pattern of a subquery's hop over relationship ri from node from:
// its direction (sometimes undirected) and sometimes its type.
func (qg *QueryGen) hopPat(from, ri int) RelPat {
	r := qg.gi.g.Rels[ri]
	rp := RelPat{Dir: Out}
	if r.From != from {
		rp.Dir = In
	}
	if qg.ok("undirected") && qg.pct(15) {
		rp.Dir = Both
	}
	if qg.pct(60) {
		rp.Types = []string{r.Type}
	}
	return rp
}

// hopNode is the anonymous node pattern of a subquery's hop to node id, with some of its labels.
func (qg *QueryGen) hopNode(id int) NodePat {
	np := NodePat{}
	for _, l := range qg.gi.g.Nodes[id].Labels {
		if qg.pct(40) {
			np.Labels = append(np.Labels, l)
		}
	}
	return np
}
