// Package dlsmith is DLSmith's dependency-aware metamorphic testing of Datalog engines (Mansur's
// thesis, ch. 4): a program is an annotated precedence graph (relational nodes, fact nodes, and
// edges that carry a rule number, a sign and the atom's arguments; each node's stratum and
// ancestry inferred), transformations are graph rewrites whose effect on the output (equal,
// subset, superset) follows from the ancestry of the nodes they touch, in any stratum, and the
// programs are emitted from the graph in polyfuzz's canonical syntax, which every dialect
// translates. Seed relations never get incoming edges or facts, so seed programs pass through
// unchanged.
package dlsmith

import (
	"fmt"
	"slices"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// Ancestry tells how data flows from a node to the output node: along positive paths only (an
// even number of negated edges), negative paths only, both, or not at all.
type Ancestry int

// The ancestries of a node.
const (
	None     Ancestry = iota // no path to the output: the node does not affect it
	Positive                 // every path is positive: more tuples in the node, more in the output
	Negative                 // every path is negative: more tuples in the node, fewer in the output
	Mixed                    // positive and negative paths ("?")
)

// String returns "none", "+", "-" or "?".
func (a Ancestry) String() string {
	switch a {
	case Positive:
		return "+"
	case Negative:
		return "-"
	case Mixed:
		return "?"
	}
	return "none"
}

// Node is a relational node: one relation of the program. A seed node holds a relation of the
// seed program, whose rules and facts the graph keeps verbatim; it never gets incoming edges or
// facts. A generated node's rules are its incoming edges, grouped by rule number, with the
// head arguments of each rule in Heads; its facts are its fact nodes.
type Node struct {
	Name  string
	Attrs []datalog.Attr
	Seed  bool
	// Input keeps the seed relation's .input mark.
	Input bool
	// Facts are the fact nodes with an edge to this node, each the constant arguments of one
	// fact.
	Facts [][]datalog.Term
	// Heads maps a rule number to the head arguments of that rule of the node.
	Heads map[int][]datalog.Term
	// Stratum and Ancestry are inferred by Graph.Annotate: the largest number of negated edges on
	// a path from the node to the output node (0 without a path), and the signs of those paths.
	Stratum  int
	Ancestry Ancestry
}

// Types returns the node's column types.
func (n *Node) Types() []datalog.Type {
	out := make([]datalog.Type, len(n.Attrs))
	for i, a := range n.Attrs {
		out[i] = a.Type
	}
	return out
}

// Edge is a relational edge From -> To: the atom From(Args), negated if Negated, in the body of
// rule number Rule of To.
type Edge struct {
	From, To string
	Rule     int
	Negated  bool
	Args     []datalog.Term
}

// Atom returns the body atom the edge stands for.
func (e Edge) Atom() datalog.Atom {
	return datalog.Atom{Rel: e.From, Args: slices.Clone(e.Args), Negated: e.Negated}
}

// Graph is an annotated precedence graph. Edges are kept in order: the body of a rule lists its
// edges in the order of Edges.
type Graph struct {
	Nodes []*Node
	Edges []Edge
	// Output names the output node.
	Output string
	// Seed holds the seed program's rules and facts, emitted unchanged.
	Seed []datalog.Rule
}

// FromSeed returns the graph of a seed program: one seed node per relation, the program's rules
// and facts kept verbatim, no output node yet. p is not changed.
func FromSeed(p *datalog.Program) *Graph {
	g := &Graph{}
	q := p.Clone()
	for _, r := range q.Relations {
		g.Nodes = append(g.Nodes, &Node{Name: r.Name, Attrs: r.Attrs, Seed: true, Input: r.Input})
	}
	g.Seed = q.Rules
	return g
}

// Clone returns a deep copy of g.
func (g *Graph) Clone() *Graph {
	h := &Graph{Output: g.Output, Seed: g.Seed, Edges: make([]Edge, len(g.Edges))}
	for _, n := range g.Nodes {
		m := *n
		m.Attrs = slices.Clone(n.Attrs)
		m.Facts = make([][]datalog.Term, len(n.Facts))
		for i, f := range n.Facts {
			m.Facts[i] = slices.Clone(f)
		}
		m.Heads = make(map[int][]datalog.Term, len(n.Heads))
		for k, h := range n.Heads {
			m.Heads[k] = slices.Clone(h)
		}
		h.Nodes = append(h.Nodes, &m)
	}
	for i, e := range g.Edges {
		e.Args = slices.Clone(e.Args)
		h.Edges[i] = e
	}
	return h
}

// Node returns the node named name, or nil.
func (g *Graph) Node(name string) *Node {
	for _, n := range g.Nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// Incoming returns the indexes in Edges of the edges into v, in order.
func (g *Graph) Incoming(v string) []int {
	var out []int
	for i, e := range g.Edges {
		if e.To == v {
			out = append(out, i)
		}
	}
	return out
}

// RuleEdges returns the indexes in Edges of the edges of rule k of v, in body order.
func (g *Graph) RuleEdges(v string, k int) []int {
	var out []int
	for i, e := range g.Edges {
		if e.To == v && e.Rule == k {
			out = append(out, i)
		}
	}
	return out
}

// Rules returns the rule numbers of v that have a head, in increasing order.
func (g *Graph) Rules(v string) []int {
	n := g.Node(v)
	if n == nil {
		return nil
	}
	var out []int
	for k := range n.Heads {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// MaxRule returns the largest rule number of v, 0 when v has no rule.
func (g *Graph) MaxRule(v string) int {
	m := 0
	for _, k := range g.Rules(v) {
		m = max(m, k)
	}
	return m
}

// AddRelNode adds the relational node n (rewrite primitive AddRelNode).
func (g *Graph) AddRelNode(n *Node) {
	if n.Heads == nil {
		n.Heads = map[int][]datalog.Term{}
	}
	g.Nodes = append(g.Nodes, n)
}

// DelRelNode removes node v with its facts and all its incoming and outgoing edges (rewrite
// primitive DelRelNode).
func (g *Graph) DelRelNode(v string) {
	g.Nodes = slices.DeleteFunc(g.Nodes, func(n *Node) bool { return n.Name == v })
	g.Edges = slices.DeleteFunc(g.Edges, func(e Edge) bool { return e.From == v || e.To == v })
}

// ModRelNode overwrites the inferred properties of v (rewrite primitive ModRelNode). Annotate
// recomputes them from the edges.
func (g *Graph) ModRelNode(v string, stratum int, a Ancestry) {
	if n := g.Node(v); n != nil {
		n.Stratum, n.Ancestry = stratum, a
	}
}

// AddFact adds a fact node with the given values and its edge to v (rewrite primitive AddFact).
// A fact v already has is not added twice.
func (g *Graph) AddFact(v string, vals []datalog.Term) {
	n := g.Node(v)
	if n == nil || n.hasFact(vals) {
		return
	}
	n.Facts = append(n.Facts, slices.Clone(vals))
}

// DelFact removes the fact node with the given values from v (rewrite primitive DelFact).
func (g *Graph) DelFact(v string, vals []datalog.Term) {
	if n := g.Node(v); n != nil {
		n.Facts = slices.DeleteFunc(n.Facts, func(f []datalog.Term) bool { return termsEqual(f, vals) })
	}
}

// hasFact reports whether n has a fact with the given values.
func (n *Node) hasFact(vals []datalog.Term) bool {
	return slices.ContainsFunc(n.Facts, func(f []datalog.Term) bool { return termsEqual(f, vals) })
}

// AddRelEdge appends the edge e (rewrite primitive AddRelEdge). A rule number new to e.To needs
// its head arguments in Heads before the graph is emitted.
func (g *Graph) AddRelEdge(e Edge) {
	e.Args = slices.Clone(e.Args)
	g.Edges = append(g.Edges, e)
}

// DelRelEdge removes the edge at index i (rewrite primitive DelRelEdge). A rule left without
// edges disappears from the emitted program, its head with it.
func (g *Graph) DelRelEdge(i int) {
	e := g.Edges[i]
	g.Edges = slices.Delete(g.Edges, i, i+1)
	if len(g.RuleEdges(e.To, e.Rule)) == 0 {
		if n := g.Node(e.To); n != nil {
			delete(n.Heads, e.Rule)
		}
	}
}

// ModRelEdge replaces the properties of the edge at index i: its rule number, sign and
// arguments (rewrite primitive ModRelEdge).
func (g *Graph) ModRelEdge(i int, rule int, negated bool, args []datalog.Term) {
	e := &g.Edges[i]
	e.Rule, e.Negated, e.Args = rule, negated, slices.Clone(args)
}

// flow is g's dataflow over indexes: relation i is names[i] (g's nodes first, in order, then any
// other relation a seed rule or an edge names), succ[i] the relations it feeds and pred[i] those
// that feed it, an entry for every body atom of every rule, seed rules included, with weight 1
// when the atom is negated.
type flow struct {
	names      []string
	index      map[string]int
	succ, pred [][]dep
}

// dep is a dataflow edge to (or, in pred, from) relation i, with weight 1 when it is negated.
type dep struct {
	i   int
	neg int
}

// dependencies returns g's dataflow.
func (g *Graph) dependencies() *flow {
	f := &flow{index: make(map[string]int, len(g.Nodes))}
	for _, n := range g.Nodes {
		f.id(n.Name)
	}
	type arc struct{ from, to, neg int }
	arcs := make([]arc, 0, len(g.Edges))
	add := func(from, to string, neg bool) {
		w := 0
		if neg {
			w = 1
		}
		arcs = append(arcs, arc{f.id(from), f.id(to), w})
	}
	for _, r := range g.Seed {
		for _, a := range r.Body {
			add(a.Rel, r.Head.Rel, a.Negated)
		}
	}
	for _, e := range g.Edges {
		add(e.From, e.To, e.Negated)
	}
	// Both adjacency lists cut from one array each, in the order of arcs.
	outs, ins := make([]int, len(f.names)), make([]int, len(f.names))
	for _, a := range arcs {
		outs[a.from]++
		ins[a.to]++
	}
	succ, pred := make([]dep, 0, len(arcs)), make([]dep, 0, len(arcs))
	f.succ, f.pred = make([][]dep, len(f.names)), make([][]dep, len(f.names))
	for i := range f.names {
		f.succ[i], succ = succ[:0:outs[i]], succ[outs[i]:outs[i]]
		f.pred[i], pred = pred[:0:ins[i]], pred[ins[i]:ins[i]]
	}
	for _, a := range arcs {
		f.succ[a.from] = append(f.succ[a.from], dep{a.to, a.neg})
		f.pred[a.to] = append(f.pred[a.to], dep{a.from, a.neg})
	}
	return f
}

// id returns the index of relation name, adding it when it is new.
func (f *flow) id(name string) int {
	if i, ok := f.index[name]; ok {
		return i
	}
	f.index[name] = len(f.names)
	f.names = append(f.names, name)
	return len(f.names) - 1
}

// Annotate infers every node's stratum and ancestry from the edges and the seed rules: the
// stratum is the largest number of negated edges on a path from the node to the output node, the
// ancestry the parities of those paths. It assumes the graph is stratified (no cycle through a
// negated edge); Program checks that.
func (g *Graph) Annotate() { g.annotate(g.dependencies()) }

// annotate is Annotate with g's dataflow f.
func (g *Graph) annotate(f *flow) {
	// Parities reachable backwards from the output: seen[i][0] for a positive path from
	// relation i, seen[i][1] for a negative one.
	seen := make([][2]bool, len(f.names))
	out, hasOut := f.index[g.Output]
	hasOut = hasOut && g.Output != ""
	if hasOut {
		type state struct{ i, par int }
		queue := []state{{out, 0}}
		seen[out][0] = true
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			for _, p := range f.pred[s.i] {
				t := state{p.i, s.par ^ p.neg}
				if !seen[t.i][t.par] {
					seen[t.i][t.par] = true
					queue = append(queue, t)
				}
			}
		}
	}
	// Longest path in negated edges (-1: no path yet): relax until no change; stratified graphs
	// have only zero-weight cycles, so |nodes|+1 rounds suffice.
	stratum := make([]int, len(f.names))
	for i := range stratum {
		stratum[i] = -1
	}
	if hasOut {
		stratum[out] = 0
	}
	for range len(g.Nodes) + 1 {
		changed := false
		for from, ds := range f.succ {
			for _, d := range ds {
				if s := stratum[d.i]; s >= 0 && s+d.neg > stratum[from] {
					stratum[from] = s + d.neg
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	for _, n := range g.Nodes {
		i := f.index[n.Name]
		pos, neg := seen[i][0], seen[i][1]
		switch {
		case pos && neg:
			n.Ancestry = Mixed
		case pos:
			n.Ancestry = Positive
		case neg:
			n.Ancestry = Negative
		default:
			n.Ancestry = None
		}
		n.Stratum = max(stratum[i], 0)
	}
}

// Descendants returns the nodes reachable from v along dataflow edges (v excluded unless it is
// on a cycle).
func (g *Graph) Descendants(v string) map[string]bool {
	f := g.dependencies()
	return f.reach(f.succ, v)
}

// Ancestors returns the nodes from which v is reachable along dataflow edges (v excluded unless
// it is on a cycle).
func (g *Graph) Ancestors(v string) map[string]bool {
	f := g.dependencies()
	return f.reach(f.pred, v)
}

// reach returns the relations reachable from v in one or more steps along adj (f.succ or
// f.pred).
func (f *flow) reach(adj [][]dep, v string) map[string]bool {
	out := map[string]bool{}
	start, ok := f.index[v]
	if !ok {
		return out
	}
	seen := make([]bool, len(f.names))
	stack := []int{start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range adj[n] {
			if !seen[d.i] {
				seen[d.i] = true
				out[f.names[d.i]] = true
				stack = append(stack, d.i)
			}
		}
	}
	return out
}

// stratified reports whether no cycle of the dataflow goes through a negated atom: no negated
// dependency joins two relations of one strongly connected component (Tarjan's algorithm).
func (f *flow) stratified() bool {
	n := len(f.names)
	index, low, comp := make([]int, n), make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	counter, comps := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		for _, d := range f.succ[v] {
			if index[d.i] < 0 {
				visit(d.i)
				low[v] = min(low[v], low[d.i])
			} else if onStack[d.i] {
				low[v] = min(low[v], index[d.i])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = comps
				if w == v {
					break
				}
			}
			comps++
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	for from, ds := range f.succ {
		for _, d := range ds {
			if d.neg == 1 && comp[from] == comp[d.i] {
				return false
			}
		}
	}
	return true
}

// Program emits the program of g: the seed's relations, facts and rules unchanged (no seed
// relation is an output), then one relation per generated node with its facts and one rule per
// rule number, the body in edge order; the output node is the only output relation. It checks
// the program (declarations, types, safety, stratification) and names the first problem. The
// program shares nothing with g.
func (g *Graph) Program() (*datalog.Program, error) {
	byName := g.byName()
	p := &datalog.Program{File: "program.dl"}
	for _, n := range g.Nodes {
		p.Relations = append(p.Relations, datalog.Relation{
			Name: n.Name, Attrs: slices.Clone(n.Attrs), Input: n.Seed && n.Input, Output: n.Name == g.Output,
		})
	}
	if g.Output != "" && byName[g.Output] == nil {
		return nil, fmt.Errorf("dlsmith: the output node %s is not in the graph", g.Output)
	}
	p.Rules = (&datalog.Program{Rules: g.Seed}).Clone().Rules
	for _, n := range g.Nodes {
		for _, f := range n.Facts {
			p.Rules = append(p.Rules, datalog.Rule{Head: datalog.Atom{Rel: n.Name, Args: slices.Clone(f)}})
		}
	}
	type ruleKey struct {
		to string
		k  int
	}
	bodies := map[ruleKey][]datalog.Atom{}
	for _, e := range g.Edges {
		key := ruleKey{e.To, e.Rule}
		bodies[key] = append(bodies[key], e.Atom())
	}
	for _, n := range g.Nodes {
		first := byName[n.Name]
		ks := make([]int, 0, len(first.Heads))
		for k := range first.Heads {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			if body := bodies[ruleKey{n.Name, k}]; len(body) > 0 {
				p.Rules = append(p.Rules, datalog.Rule{Head: datalog.Atom{Rel: n.Name, Args: slices.Clone(n.Heads[k])}, Body: body})
			}
		}
	}
	for _, e := range g.Edges {
		if to := byName[e.To]; to == nil || byName[e.From] == nil {
			return nil, fmt.Errorf("dlsmith: edge %s -> %s joins a node that is not in the graph", e.From, e.To)
		} else if to.Heads[e.Rule] == nil {
			return nil, fmt.Errorf("dlsmith: edge %s -> %s belongs to rule %d, which has no head", e.From, e.To, e.Rule)
		}
	}
	// Valid decides as Check without printing and parsing; Check names the problem.
	if !p.Valid() {
		if err := p.Check(); err != nil {
			return nil, fmt.Errorf("dlsmith: emitted program: %w", err)
		}
	}
	return p, nil
}

// byName returns g's nodes by name, the first of each name.
func (g *Graph) byName() map[string]*Node {
	m := make(map[string]*Node, len(g.Nodes))
	for _, n := range g.Nodes {
		if m[n.Name] == nil {
			m[n.Name] = n
		}
	}
	return m
}

// termsEqual reports whether two argument lists are equal, ignoring positions.
func termsEqual(a, b []datalog.Term) bool {
	return slices.EqualFunc(a, b, func(x, y datalog.Term) bool {
		x.Pos, y.Pos = datalog.Pos{}, datalog.Pos{}
		return x == y
	})
}
