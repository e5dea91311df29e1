package cyphergen

import (
	"slices"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// match evaluates MATCH or OPTIONAL MATCH with its WHERE on every input row.
func (st *runState) match(rows []row, m *Match) ([]row, error) {
	vars, err := patternVars(m.Patterns)
	if err != nil {
		return nil, err
	}
	st.index()
	var out []row
	for _, r := range rows {
		if err := checkPropRefs(m.Patterns, vars, r); err != nil {
			return nil, err
		}
		mt := &matcher{st: st, pats: m.Patterns, b: cloneRow(r),
			used: make([]bool, len(st.g.Rels)), props: map[Expr]cypherval.Val{}, input: r,
			at: make([][]int, len(m.Patterns))}
		for i, p := range m.Patterns {
			mt.at[i] = make([]int, len(p.Nodes))
		}
		if err := mt.pattern(0); err != nil {
			return nil, err
		}
		found := mt.out
		if m.Where != nil {
			if found, err = st.subqueries(found, m.Where); err != nil {
				return nil, err
			}
			if found, err = filter(found, m.Where); err != nil {
				return nil, err
			}
		}
		if len(found) == 0 && m.Optional {
			if err := boundPaths(m.Patterns, r); err != nil {
				return nil, err
			}
			o := cloneRow(r)
			for v := range vars {
				if _, ok := r[v]; !ok {
					o[v] = cypherval.NullVal
				}
			}
			found = []row{o}
		}
		out = append(out, found...)
	}
	return out, nil
}

// patternVars returns the variables of the patterns, true for relationships. A variable used
// for both a node and a relationship is "semantic"; a relationship variable used twice is
// "unsupported".
func patternVars(pats []Pattern) (map[string]bool, error) {
	vars := map[string]bool{}
	for _, p := range pats {
		if len(p.Rels) != len(p.Nodes)-1 {
			return nil, semantic("malformed pattern")
		}
		if p.Var != "" {
			if _, ok := vars[p.Var]; ok {
				return nil, semantic("path variable `" + p.Var + "` named twice")
			}
			vars[p.Var] = false
		}
		for _, n := range p.Nodes {
			if n.Var == "" {
				continue
			}
			if vars[n.Var] {
				return nil, semantic("`" + n.Var + "` is both a node and a relationship")
			}
			vars[n.Var] = false
		}
		for _, r := range p.Rels {
			if r.Var == "" {
				continue
			}
			if isRel, ok := vars[r.Var]; ok {
				if isRel {
					return nil, unsupported("relationship variable `" + r.Var + "` repeated in one MATCH")
				}
				return nil, semantic("`" + r.Var + "` is both a node and a relationship")
			}
			vars[r.Var] = true
		}
	}
	return vars, nil
}

// checkPropRefs rejects property maps that mention a variable the same MATCH binds (engines
// differ on whether that is allowed).
func checkPropRefs(pats []Pattern, vars map[string]bool, r row) error {
	check := func(ps []PropEq) error {
		for _, p := range ps {
			for _, v := range freeVars(p.Val) {
				if _, bound := r[v]; !bound {
					if _, own := vars[v]; own {
						return unsupported("property map mentions `" + v + "` of its own MATCH")
					}
				}
			}
		}
		return nil
	}
	for _, p := range pats {
		for _, n := range p.Nodes {
			if err := check(n.Props); err != nil {
				return err
			}
		}
		for _, rp := range p.Rels {
			if err := check(rp.Props); err != nil {
				return err
			}
		}
	}
	return nil
}

// matcher enumerates the matches of a MATCH's patterns for one input row by backtracking.
type matcher struct {
	st    *runState
	pats  []Pattern
	b     row    // the bindings so far
	used  []bool // relationships bound in this MATCH
	props map[Expr]cypherval.Val
	input row
	at    [][]int   // at[pi][i]: the node bound to pattern pi's node i
	hops  [][][]int // hops[pi][i]: the relationships rel pattern i matched, for path variables
	out   []row
}

// pattern matches patterns pi.. and records each complete match.
func (mt *matcher) pattern(pi int) error {
	if pi == len(mt.pats) {
		r := cloneRow(mt.b)
		mt.bindPaths(r)
		mt.out = append(mt.out, r)
		return nil
	}
	p := &mt.pats[pi]
	s := mt.start(p)
	return mt.node(pi, s, nil, func() error { return mt.right(pi, p, s, s) })
}

// right extends from node i towards the end of p, then continues left of s.
func (mt *matcher) right(pi int, p *Pattern, s, i int) error {
	if i == len(p.Rels) {
		return mt.left(pi, p, s)
	}
	return mt.rel(pi, i, false, func() error { return mt.right(pi, p, s, i+1) })
}

// left extends from node i towards the start of p, then matches the next pattern.
func (mt *matcher) left(pi int, p *Pattern, i int) error {
	if i == 0 {
		return mt.pattern(pi + 1)
	}
	return mt.rel(pi, i-1, true, func() error { return mt.left(pi, p, i-1) })
}

// start picks the node of p to begin with: a bound one, else the one with the fewest
// candidates by label.
func (mt *matcher) start(p *Pattern) int {
	best, bestN := 0, len(mt.st.g.Nodes)+1
	for i, n := range p.Nodes {
		c := len(mt.st.g.Nodes)
		if _, ok := mt.b[n.Var]; ok && n.Var != "" {
			c = 0
		}
		for _, l := range n.Labels {
			c = min(c, len(mt.st.byLabel[l]))
		}
		if c < bestN {
			best, bestN = i, c
		}
	}
	return best
}

// node binds node pattern p.Nodes[i] to each candidate (only id when id is not nil) and calls
// next for each.
func (mt *matcher) node(pi, i int, id *int, next func() error) error {
	np := &mt.pats[pi].Nodes[i]
	if v, ok := mt.b[np.Var]; ok && np.Var != "" {
		switch v.Kind {
		case cypherval.Null:
			return nil
		case cypherval.Node:
		default:
			return semantic("`" + np.Var + "` is a " + v.Kind.String() + ", not a node")
		}
		if (id != nil && int64(*id) != v.ID) || v.ID < 0 || v.ID >= int64(len(mt.st.nodeVals)) {
			return nil
		}
		if ok, err := mt.nodeFits(np, int(v.ID)); !ok || err != nil {
			return err
		}
		mt.at[pi][i] = int(v.ID)
		return next()
	}
	try := func(n int) error {
		if ok, err := mt.nodeFits(np, n); !ok || err != nil {
			return err
		}
		mt.at[pi][i] = n
		if np.Var == "" {
			return next()
		}
		mt.b[np.Var] = mt.st.nodeVals[n]
		err := next()
		delete(mt.b, np.Var)
		return err
	}
	if id != nil {
		return try(*id)
	}
	cands := []int(nil)
	if len(np.Labels) > 0 {
		cands = mt.st.byLabel[np.Labels[0]]
		for _, l := range np.Labels[1:] {
			if len(mt.st.byLabel[l]) < len(cands) {
				cands = mt.st.byLabel[l]
			}
		}
	} else {
		cands = make([]int, len(mt.st.nodeVals))
		for n := range cands {
			cands[n] = n
		}
	}
	for _, n := range cands {
		if err := try(n); err != nil {
			return err
		}
	}
	return nil
}

func (mt *matcher) nodeFits(np *NodePat, n int) (bool, error) {
	v := &mt.st.nodeVals[n]
	for _, l := range np.Labels {
		if !hasString(v.Labels, l) {
			return false, nil
		}
	}
	return mt.propsFit(np.Props, v)
}

// propsFit reports whether element v has every property of the pattern map, compared with =.
func (mt *matcher) propsFit(ps []PropEq, v *cypherval.Val) (bool, error) {
	for _, p := range ps {
		want, ok := mt.props[p.Val]
		if !ok {
			var err error
			if want, err = EvalExpr(p.Val, mt.input); err != nil {
				return false, err
			}
			mt.props[p.Val] = want
		}
		if t, err := equal(v.M[p.Key], want); t != True || err != nil {
			return false, err
		}
	}
	return true, nil
}

// rel matches relationship pattern p.Rels[i] from its left node (or its right one when back),
// then the node at its other end, and calls next for each.
func (mt *matcher) rel(pi, i int, back bool, next func() error) error {
	rp := &mt.pats[pi].Rels[i]
	if rp.Hops != nil {
		return mt.varRel(pi, i, back, next)
	}
	from, to := i, i+1
	if back {
		from, to = i+1, i
	}
	a := mt.at[pi][from]
	var bound *cypherval.Val
	if rp.Var != "" {
		if v, ok := mt.b[rp.Var]; ok {
			switch v.Kind {
			case cypherval.Null:
				return nil
			case cypherval.Rel:
				bound = &v
			default:
				return semantic("`" + rp.Var + "` is a " + v.Kind.String() + ", not a relationship")
			}
		}
	}
	// out: the relationship leaves the bound node a; dir is read from a to the other node.
	dir := rp.Dir
	if back && dir != Both {
		dir = Out + In - dir
	}
	try := func(ri int, out bool) error {
		if (mt.used[ri] && !mt.st.sem.RepeatableRels) || (bound != nil && bound.ID != int64(ri)) {
			return nil
		}
		r := &mt.st.g.Rels[ri]
		if len(rp.Types) > 0 && !slices.Contains(rp.Types, r.Type) {
			return nil
		}
		rv := &mt.st.relVals[ri]
		if ok, err := mt.propsFit(rp.Props, rv); !ok || err != nil {
			return err
		}
		other := r.To
		if !out {
			other = r.From
		}
		was := mt.used[ri]
		mt.used[ri] = true
		if mt.pats[pi].Var != "" {
			mt.setHops(pi, i, []int{ri})
		}
		if rp.Var != "" && bound == nil {
			mt.b[rp.Var] = *rv
		}
		err := mt.node(pi, to, &other, next)
		if rp.Var != "" && bound == nil {
			delete(mt.b, rp.Var)
		}
		mt.used[ri] = was
		return err
	}
	return mt.eachRel(a, dir, try)
}

// eachRel calls f for each relationship at node a in direction dir, with out telling whether a
// is its start; an undirected pattern meets a self-loop once, as outgoing.
func (mt *matcher) eachRel(a int, dir Dir, f func(ri int, out bool) error) error {
	if dir != In {
		for _, ri := range mt.st.out[a] {
			if err := f(ri, true); err != nil {
				return err
			}
		}
	}
	if dir != Out {
		for _, ri := range mt.st.in[a] {
			if dir == Both && mt.st.g.Rels[ri].From == a {
				continue // a self-loop, already matched as outgoing
			}
			if err := f(ri, false); err != nil {
				return err
			}
		}
	}
	return nil
}
