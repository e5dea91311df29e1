package dlsmith

import (
	"fmt"
	"maps"
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
	if err := check(cur); err != nil {
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
		if !k.noNode {
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
		}
		next, s, ok := k.step(c, at, o.MaxBody)
		if !ok {
			continue
		}
		cur = next
		expect, _ = Compose(expect, s.Expect)
		steps = append(steps, s)
	}
	if err := check(cur); err != nil {
		return nil, 0, nil, fmt.Errorf("dlsmith: sequence: the transformed program is invalid, a defect of the transformations: %w", err)
	}
	return cur.Clone(), expect, steps, nil
}

// step draws a step of k on node v of c.g (nil when k adds a node) and applies it to a copy of
// c.g, which it returns (see try); false when the precondition fails on v or on the step.
func (k *kind) step(c *planner, v *Node, maxBody int) (*Graph, Step, bool) {
	a := None
	if !k.noNode {
		if v == nil || !k.eligible(c.g, v) {
			return nil, Step{}, false
		}
		a = v.Ancestry
	}
	e, ok := k.admits(a)
	if !ok {
		return nil, Step{}, false
	}
	s, ok := k.plan(c, v)
	if !ok {
		return nil, Step{}, false
	}
	s.Name, s.Expect = k.name, e
	next, ok := try(c.g, k, &s, maxBody)
	return next, s, ok
}

// try applies step s of transformation k to a copy of g and returns the copy, annotated, when the
// step's precondition held, its rule has at most maxBody atoms or no more than before (maxBody 0:
// no bound) and the program is valid and stratified. Only the rules of the nodes the step
// touched are checked again, stratification only when it adds a dependency, and the annotation
// is inferred again only when the dependencies changed.
func try(g *Graph, k *kind, s *Step, maxBody int) (*Graph, bool) {
	before := len(g.RuleEdges(s.Node, s.Rule))
	h := g.fork()
	if !k.apply(h, s) {
		return nil, false
	}
	if maxBody > 0 && s.Rule > 0 {
		if after := len(h.RuleEdges(s.Node, s.Rule)); after > max(maxBody, before) {
			return nil, false
		}
	}
	touched := map[string]bool{s.Node: true}
	if s.Created != "" {
		touched[s.Created] = true
	}
	for _, e := range s.Del {
		touched[e.To] = true
	}
	for _, e := range s.Add {
		touched[e.To] = true
	}
	if !valid(h, touched, false) {
		return nil, false
	}
	if len(h.Nodes) != len(g.Nodes) || !sameDeps(s.Del, s.Add) {
		f := h.dependencies()
		if len(s.Add) > 0 && !f.stratified() {
			return nil, false
		}
		h.annotate(f)
	}
	return h, true
}

// check returns nil when g's program is valid, else the first problem [Graph.Program] names:
// valid is the fast test, and Program, which prints and parses the program, has the last word.
func check(g *Graph) error {
	if valid(g, nil, true) {
		return nil
	}
	_, err := g.Program()
	return err
}

// sameDeps reports whether two lists of edges make the same dependencies: the same sources,
// targets and signs, counted.
func sameDeps(a, b []Edge) bool {
	if len(a) != len(b) {
		return false
	}
	type dep struct {
		from, to string
		neg      bool
	}
	count := map[dep]int{}
	for _, e := range a {
		count[dep{e.From, e.To, e.Negated}]++
	}
	for _, e := range b {
		d := dep{e.From, e.To, e.Negated}
		if count[d] == 0 {
			return false
		}
		count[d]--
	}
	return true
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
	return cur.Clone(), expect, applied
}

// fork returns a copy of g for one step: its nodes, fact lists, head maps and edge list are its
// own, while the argument lists, fact values and columns are shared with g. Steps never change
// those in place (they replace them), so g stays as it is; Sequence and Replay return a deep
// copy of the last fork.
func (g *Graph) fork() *Graph {
	h := &Graph{Output: g.Output, Seed: g.Seed, Nodes: make([]*Node, len(g.Nodes)), Edges: slices.Clone(g.Edges)}
	nodes := make([]Node, len(g.Nodes))
	for i, n := range g.Nodes {
		nodes[i] = *n
		nodes[i].Facts = slices.Clone(n.Facts)
		nodes[i].Heads = maps.Clone(n.Heads)
		if nodes[i].Heads == nil {
			nodes[i].Heads = map[int][]datalog.Term{}
		}
		h.Nodes[i] = &nodes[i]
	}
	return h
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

// valid reports whether g's program passes the checks of [Graph.Program] (declarations, arities,
// types, safety, stratification) without printing and parsing it, for the facts and rules of
// the nodes in touched (every node when nil): the output node and the source and target of every
// edge exist, every edge belongs to a rule with a head, facts are constants of their columns'
// types, every rule uses its relations with their arities and each variable with one type, and
// binds the variables of its head and negated atoms by positive atoms; with strata, no cycle of
// dataflow goes through a negated atom. Seed rules are valid and, seed nodes having no incoming
// edges, on no cycle with a generated node.
func valid(g *Graph, touched map[string]bool, strata bool) bool {
	byName := make(map[string]*Node, len(g.Nodes))
	for _, n := range g.Nodes {
		byName[n.Name] = n
	}
	if g.Output != "" && byName[g.Output] == nil {
		return false
	}
	typeOf := func(t datalog.Term) datalog.Type {
		if t.Kind == datalog.Num {
			return datalog.Number
		}
		return datalog.Symbol
	}
	for _, n := range g.Nodes {
		if touched != nil && !touched[n.Name] {
			continue
		}
		for _, f := range n.Facts {
			if len(f) != len(n.Attrs) {
				return false
			}
			for i, t := range f {
				if !t.IsConst() || typeOf(t) != n.Attrs[i].Type {
					return false
				}
			}
		}
	}
	type ruleKey struct {
		to string
		k  int
	}
	rules := map[ruleKey][]int{}
	var order []ruleKey
	for i, e := range g.Edges {
		if touched != nil && !touched[e.To] {
			continue
		}
		if byName[e.From] == nil || byName[e.To] == nil || byName[e.To].Heads[e.Rule] == nil {
			return false
		}
		key := ruleKey{e.To, e.Rule}
		if _, ok := rules[key]; !ok {
			order = append(order, key)
		}
		rules[key] = append(rules[key], i)
	}
	types := map[string]datalog.Type{}
	bound := map[string]bool{}
	for _, key := range order {
		clear(types)
		clear(bound)
		ok := true
		atom := func(n *Node, args []datalog.Term) {
			if len(args) != len(n.Attrs) {
				ok = false
				return
			}
			for i, t := range args {
				switch t.Kind {
				case datalog.Num, datalog.Sym:
					ok = ok && typeOf(t) == n.Attrs[i].Type
				case datalog.Var:
					if prev, seen := types[t.Name]; seen && prev != n.Attrs[i].Type {
						ok = false
					}
					types[t.Name] = n.Attrs[i].Type
				}
			}
		}
		head := byName[key.to].Heads[key.k]
		atom(byName[key.to], head)
		for _, i := range rules[key] {
			e := g.Edges[i]
			atom(byName[e.From], e.Args)
			if !e.Negated {
				for _, t := range e.Args {
					if t.Kind == datalog.Var {
						bound[t.Name] = true
					}
				}
			}
		}
		if !ok {
			return false
		}
		for _, t := range head {
			if t.Kind == datalog.Anon || t.Kind == datalog.Var && !bound[t.Name] {
				return false
			}
		}
		for _, i := range rules[key] {
			if e := g.Edges[i]; e.Negated {
				for _, t := range e.Args {
					if t.Kind == datalog.Var && !bound[t.Name] {
						return false
					}
				}
			}
		}
	}
	return !strata || stratifiedGraph(g)
}

// stratifiedGraph reports whether no cycle of g's dataflow, seed rules included, goes through a
// negated atom.
func stratifiedGraph(g *Graph) bool { return g.dependencies().stratified() }
