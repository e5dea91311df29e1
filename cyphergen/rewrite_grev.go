package cyphergen

import "slices"

// GRev's path-cover rewrite. The patterns of a MATCH are an abstract syntax graph: a vertex per
// node variable (per occurrence for an anonymous node), an edge per relationship pattern. Any set
// of paths that covers every edge exactly once, with the vertices' labels and property maps kept,
// names the same constraints, so the MATCH written from it has the same rows (relationship
// uniqueness spans all patterns of a MATCH, however they are cut). Random walks from random
// vertices, each stopping at a dead end or at random, draw the cover; each path is written in
// either direction and the paths in any order. A vertex that the cover visits twice but that
// was anonymous gets a fresh name, so that it stays one node; a lone-node pattern stays one.

// asgVertex is a vertex of the abstract syntax graph.
type asgVertex struct {
	name   string
	labels []string
	props  []PropEq
	edges  []int // indexes of incident edges
}

// asgEdge is a relationship pattern between vertices from (its left node) and to (its right).
type asgEdge struct {
	from, to int
	rel      RelPat
}

// grev returns the path-cover rewrite of text: every MATCH covered anew; ok is false when no
// cover differs from the query.
func (rw *rewriter) grev(text string) (string, bool) {
	for attempt := 0; attempt < 6; attempt++ {
		q := rw.parse(text)
		if q == nil || !rw.rewritable(q) {
			return "", false
		}
		for _, sq := range q.Parts {
			for _, c := range sq.Clauses {
				if m, ok := c.(*Match); ok && (!m.Optional || !rw.avoid[avoidRewriteOptional]) {
					rw.cover(m)
				}
			}
		}
		if s := q.String(); s != text && rw.allowed(q) {
			return s, true
		}
	}
	return "", false
}

// cover rewrites the patterns of m as a random path cover of their abstract syntax graph.
func (rw *rewriter) cover(m *Match) {
	var vs []*asgVertex
	var es []asgEdge
	byName := map[string]int{}
	vertex := func(n NodePat) int {
		i, ok := byName[n.Var]
		if !ok || n.Var == "" {
			i = len(vs)
			vs = append(vs, &asgVertex{name: n.Var})
			if n.Var != "" {
				byName[n.Var] = i
			}
		}
		v := vs[i]
		for _, l := range n.Labels {
			if !slices.Contains(v.labels, l) {
				v.labels = append(v.labels, l)
			}
		}
		v.props = append(v.props, n.Props...)
		return i
	}
	for _, p := range m.Patterns {
		prev := vertex(p.Nodes[0])
		for i, r := range p.Rels {
			next := vertex(p.Nodes[i+1])
			vs[prev].edges = append(vs[prev].edges, len(es))
			if next != prev {
				vs[next].edges = append(vs[next].edges, len(es))
			}
			es = append(es, asgEdge{prev, next, r})
			prev = next
		}
	}

	// Random walks until every edge is used once.
	used := make([]bool, len(es))
	left := len(es)
	type step struct {
		v   int
		rel RelPat // the relationship into v; unused for a path's first vertex
	}
	var paths [][]step
	for left > 0 {
		var starts []int
		for i, v := range vs {
			if slices.ContainsFunc(v.edges, func(e int) bool { return !used[e] }) {
				starts = append(starts, i)
			}
		}
		cur := starts[rw.r.IntN(len(starts))]
		path := []step{{v: cur}}
		for {
			var open []int
			for _, e := range vs[cur].edges {
				if !used[e] {
					open = append(open, e)
				}
			}
			if len(open) == 0 {
				break
			}
			e := open[rw.r.IntN(len(open))]
			used[e], left = true, left-1
			r, next := es[e].rel, es[e].to
			if es[e].from != cur || (es[e].to == cur && rw.r.IntN(2) == 0) {
				r.Dir, next = flip(r.Dir), es[e].from
			}
			path = append(path, step{next, r})
			cur = next
			if rw.r.IntN(4) == 0 {
				break
			}
		}
		paths = append(paths, path)
	}
	for i, v := range vs { // vertices without edges: lone-node patterns
		if len(v.edges) == 0 {
			paths = append(paths, []step{{v: i}})
		}
	}
	rw.r.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })

	// Name the anonymous vertices the cover visits more than once, and those whose property
	// maps repeat a key (the repeats go to WHERE).
	visits := make([]int, len(vs))
	for _, p := range paths {
		for _, s := range p {
			visits[s.v]++
		}
	}
	var conds []Expr
	for i, v := range vs {
		var props []PropEq
		var extra []PropEq
		for _, p := range v.props {
			j := slices.IndexFunc(props, func(q PropEq) bool { return q.Key == p.Key })
			switch {
			case j < 0:
				props = append(props, p)
			case Print(props[j].Val) != Print(p.Val):
				extra = append(extra, p)
			}
		}
		v.props = props
		if v.name == "" && (visits[i] > 1 || len(extra) > 0) {
			v.name = rw.fresh()
		}
		for _, p := range extra {
			conds = append(conds, &Binary{Op: "=", L: &Property{X: &Var{Name: v.name}, Key: p.Key}, R: p.Val})
		}
	}

	// Write the paths; a vertex's labels and properties go to its first occurrence.
	written := make([]bool, len(vs))
	m.Patterns = m.Patterns[:0:0]
	for _, path := range paths {
		var p Pattern
		for k, s := range path {
			v := vs[s.v]
			n := NodePat{Var: v.name}
			if !written[s.v] {
				n.Labels, n.Props, written[s.v] = v.labels, v.props, true
			}
			p.Nodes = append(p.Nodes, n)
			if k > 0 {
				p.Rels = append(p.Rels, s.rel)
			}
		}
		if rw.r.IntN(2) == 0 {
			p = reversed(p)
		}
		m.Patterns = append(m.Patterns, p)
	}
	m.Where = and(append([]Expr{m.Where}, conds...)...)
}
