package dlsmith

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// Sequence is DLSmith's graph transformer: it draws the oracle (EQU, EXP or CON, uniformly), then
// a sequence of o.Steps transformations among those whose steps compose into it (EQU steps
// always, EXP steps only in an EXP sequence, CON steps only in a CON sequence), each on a node
// drawn among those where its precondition holds on the current annotated graph, which is
// annotated again after every step. A step whose precondition fails, whose result is not a valid
// stratified program, or that would make a rule longer than o.MaxBody atoms, is skipped. It
// returns the transformed graph, the composed relation of the steps applied (Equal when none)
// and the steps; g is not changed.
func Sequence(g *Graph, o Options, r *rand.Rand) (trans *Graph, expect datalog.Expect, steps []Step, err error) {
	if err := o.Validate(); err != nil {
		return nil, 0, nil, err
	}
	cur := g.Clone()
	cur.Annotate()
	if _, err := cur.Program(); err != nil {
		return nil, 0, nil, fmt.Errorf("dlsmith: sequence of an invalid graph: %w", err)
	}
	oracle := datalog.Expect(1 + r.IntN(3))
	ks := stepsFor(oracle)
	expect = datalog.Equal
	n := o.Steps.Min + r.IntN(o.Steps.Max-o.Steps.Min+1)
	c := &planner{o: o, r: r}
	var nodes []*Node
	for range n {
		k := pick(r, ks)
		c.g = cur
		var at *Node
		var e datalog.Expect
		if k.noNode {
			e, _ = k.admits(None)
		} else {
			nodes = nodes[:0]
			for _, v := range cur.Nodes {
				if e, ok := k.admits(v.Ancestry); ok && (e == datalog.Equal || e == oracle) && k.eligible(cur, v) {
					nodes = append(nodes, v)
				}
			}
			if len(nodes) == 0 {
				continue
			}
			at = pick(r, nodes)
			e, _ = k.admits(at.Ancestry)
		}
		s, ok := k.plan(c, at)
		if !ok {
			continue
		}
		s.Name, s.Expect = k.name, e
		next, ok := try(cur, k, &s, o.MaxBody)
		if !ok {
			continue
		}
		cur = next
		expect, _ = Compose(expect, e)
		steps = append(steps, s)
	}
	return cur, expect, steps, nil
}

// try applies step s of transformation k to a copy of g and returns the copy, annotated, when the
// step's precondition held, its rule has at most maxBody atoms or no more than before (maxBody 0:
// no bound) and the program is valid and stratified.
func try(g *Graph, k *kind, s *Step, maxBody int) (*Graph, bool) {
	before := len(g.RuleEdges(s.Node, s.Rule))
	h := g.Clone()
	if !k.apply(h, s) {
		return nil, false
	}
	if maxBody > 0 && s.Rule > 0 {
		if after := len(h.RuleEdges(s.Node, s.Rule)); after > max(maxBody, before) {
			return nil, false
		}
	}
	if _, err := h.Program(); err != nil {
		return nil, false
	}
	h.Annotate()
	return h, true
}

// Replay applies again the steps whose indexes are in keep, in increasing order, to a copy of g:
// each only when its precondition still holds on the current annotated graph (a step that refers
// to a node or rule that a dropped step made is skipped) and its relation, which the ancestry of
// its node on the current graph decides, composes with those of the steps applied before. It
// returns the graph, the composed relation of the steps applied and their indexes. g and steps
// are not changed; the same arguments give the same result.
func Replay(g *Graph, steps []Step, keep []int) (trans *Graph, expect datalog.Expect, applied []int) {
	cur := g.Clone()
	cur.Annotate()
	expect = datalog.Equal
	idx := slices.Clone(keep)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	for _, i := range idx {
		if i < 0 || i >= len(steps) {
			continue
		}
		k := kindByName(steps[i].Name)
		if k == nil {
			continue
		}
		a := None
		if !k.noNode {
			v := cur.Node(steps[i].Node)
			if v == nil || !k.eligible(cur, v) {
				continue
			}
			a = v.Ancestry
		}
		e, ok := k.admits(a)
		if !ok {
			continue
		}
		c, ok := Compose(expect, e)
		if !ok {
			continue
		}
		s := steps[i].clone()
		next, ok := try(cur, k, &s, 0)
		if !ok {
			continue
		}
		cur, expect = next, c
		applied = append(applied, i)
	}
	return cur, expect, applied
}

// clone returns a deep copy of s, so that applying it changes nothing of the original.
func (s Step) clone() Step {
	t := s
	t.Attrs = slices.Clone(s.Attrs)
	t.OldHead = slices.Clone(s.OldHead)
	t.Head = slices.Clone(s.Head)
	cloneEdges := func(es []Edge) []Edge {
		out := slices.Clone(es)
		for i := range out {
			out[i].Args = slices.Clone(out[i].Args)
		}
		return out
	}
	t.Del, t.Add = cloneEdges(s.Del), cloneEdges(s.Add)
	t.Facts = make([][]datalog.Term, len(s.Facts))
	for i, f := range s.Facts {
		t.Facts[i] = slices.Clone(f)
	}
	if s.Facts == nil {
		t.Facts = nil
	}
	return t
}
