package dlsmith

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// Streams of the PCG generators, so that a case's graph, its transformation sequence and its
// non-empty guidance draw from unrelated sequences of the same seed.
const (
	genGraphStream    = 0x646c736d69746867 // "dlsmithg"
	genSequenceStream = 0x646c736d69746873 // "dlsmiths"
	genNonEmptyStream = 0x646c736d6974686e // "dlsmithn"
)

// Shares of the generator that Options does not name (polyfuzz's choices; DLSmith's generator
// does the same without a fixed share).
const (
	// genConstPercent is the percentage of body argument spots that hold a constant of the pool
	// instead of a join variable.
	genConstPercent = 10
	// genRuleFactsPercent is the percentage of nodes with rules that also get fact nodes, so that
	// some relations have both facts and rules.
	genRuleFactsPercent = 20
	// genSameRulePercent is the percentage of extra edges that join an extra rule the node already
	// has instead of making a new one.
	genSameRulePercent = 40
)

// Generate returns DLSmith's layered random graph for seed, annotated, with its output node
// set: with probability o.Seeded percent it starts from one of [Seeds] whose column types are
// all in o.Types (one seed node per relation, rules and facts kept verbatim), else from an
// empty seed. Generated nodes sit in o.Layers layers of o.Nodes nodes; each gets o.OutEdges
// edges to nodes of deeper layers and every seed node one edge to a generated node, all in the
// target's rule 1, so the generated part is acyclic; then up to o.ExtraEdges "higher level"
// edges from a seed node or a shallower node make or extend further rules (numbers up to
// o.MaxRule), a new rule only from a node that has every column type of its target. A node's
// columns take the types flowing in from its parents (o.Types without parents); nodes without
// rules, and some others, get o.Facts fact nodes over a pool of o.Constants numbers (1 and up)
// and as many symbols of two or more letters. Each rule joins its atoms with variables made per
// type, as queryFuzz's validate_rule does for three spots or more (2 to spots-1 variables; a
// deviation, 1 or 2 for two spots, where validate_rule always joins); some spots hold
// constants, and head arguments are drawn among the rule's variables. Then up to o.Negations
// edges turn negative, each when another positive atom of its rule binds every variable of
// it. The output node is a node of the last layer. The same options and seed give the same
// graph.
func Generate(o Options, seed uint64) (*Graph, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if len(o.Types) == 0 {
		return nil, fmt.Errorf("dlsmith: options: types is empty; name at least one of number, symbol")
	}
	b := &graphGen{o: o, r: rand.New(rand.NewPCG(seed, genGraphStream)), layer: map[string]int{}}
	b.start()
	b.nodes()
	b.ruleEdges()
	b.types()
	b.extraEdges()
	b.facts()
	b.args()
	b.negations()
	last := b.layers[len(b.layers)-1]
	b.g.Output = last[b.r.IntN(len(last))].Name
	b.g.Annotate()
	return b.g, nil
}

// graphGen is the state of one graph's generation.
type graphGen struct {
	o      Options
	r      *rand.Rand
	g      *Graph
	layers [][]*Node
	// layer is a node's layer, -1 for a seed node.
	layer map[string]int
	// rules lists each generated node's rule numbers in the order they were made.
	rules map[string][]int
}

func (b *graphGen) between(r Range) int { return r.Min + b.r.IntN(r.Max-r.Min+1) }

// start makes the seed's graph: one of the seed programs whose types are all in o.Types, with
// probability o.Seeded percent, else the empty graph.
func (b *graphGen) start() {
	b.g = &Graph{}
	b.rules = map[string][]int{}
	if b.r.IntN(100) >= b.o.Seeded {
		return
	}
	var fit []*datalog.Program
	for _, p := range parsedSeeds() {
		if b.typesFit(p) {
			fit = append(fit, p)
		}
	}
	if len(fit) == 0 {
		return
	}
	b.g = FromSeed(fit[b.r.IntN(len(fit))])
	for _, n := range b.g.Nodes {
		b.layer[n.Name] = -1
	}
}

// typesFit reports whether every column of p has a type of o.Types.
func (b *graphGen) typesFit(p *datalog.Program) bool {
	for _, r := range p.Relations {
		for _, a := range r.Attrs {
			if !slices.Contains(b.o.Types, a.Type) {
				return false
			}
		}
	}
	return true
}

// nodes makes the layers of generated nodes, named g0, g1, ... (skipping a seed's names).
func (b *graphGen) nodes() {
	next := 0
	for i := range b.between(b.o.Layers) {
		var layer []*Node
		for range b.between(b.o.Nodes) {
			name := "g" + strconv.Itoa(next)
			for next++; b.g.Node(name) != nil; next++ {
				name = "g" + strconv.Itoa(next)
			}
			n := &Node{Name: name}
			b.g.AddRelNode(n)
			b.layer[name] = i
			layer = append(layer, n)
		}
		b.layers = append(b.layers, layer)
	}
}

// generated returns the generated nodes of layers from and deeper.
func (b *graphGen) generated(from int) []*Node {
	var out []*Node
	for _, l := range b.layers[min(from, len(b.layers)):] {
		out = append(out, l...)
	}
	return out
}

// edge adds the edge from -> to in rule k of to, its arguments still unset.
func (b *graphGen) edge(from, to string, k int) {
	if !slices.Contains(b.rules[to], k) {
		b.rules[to] = append(b.rules[to], k)
	}
	b.g.AddRelEdge(Edge{From: from, To: to, Rule: k})
}

// ruleEdges adds every seed node's edge to a random generated node and every generated node's
// edges to random nodes of deeper layers, all in rule 1 of their target.
func (b *graphGen) ruleEdges() {
	all := b.generated(0)
	for _, n := range b.g.Nodes {
		if n.Seed {
			b.edge(n.Name, all[b.r.IntN(len(all))].Name, 1)
		}
	}
	for i, layer := range b.layers {
		deeper := b.generated(i + 1)
		for _, n := range layer {
			if len(deeper) == 0 {
				break
			}
			for range b.between(b.o.OutEdges) {
				b.edge(n.Name, deeper[b.r.IntN(len(deeper))].Name, 1)
			}
		}
	}
}

// types gives every generated node, layer by layer, o.Arity columns whose types are drawn from
// those of its parents' columns, or from o.Types when it has no parent.
func (b *graphGen) types() {
	for _, n := range b.generated(0) {
		var flowing []datalog.Type
		for _, i := range b.g.Incoming(n.Name) {
			for _, t := range b.g.Node(b.g.Edges[i].From).Types() {
				if !slices.Contains(flowing, t) {
					flowing = append(flowing, t)
				}
			}
		}
		if len(flowing) == 0 {
			flowing = b.o.Types
		}
		slices.Sort(flowing)
		n.Attrs = make([]datalog.Attr, b.between(b.o.Arity))
		for i := range n.Attrs {
			n.Attrs[i] = datalog.Attr{Name: datalog.AttrName(i), Type: flowing[b.r.IntN(len(flowing))]}
		}
	}
}

// extraEdges adds up to o.ExtraEdges edges from a seed node or a node of a shallower layer to
// a generated node, each in an extra rule of the target it already has or in a new one (rule
// number at most o.MaxRule); a new rule needs a source that has every column type of the
// target, so that its head is safe.
func (b *graphGen) extraEdges() {
	all := b.generated(0)
	for range b.o.ExtraEdges {
		v := all[b.r.IntN(len(all))]
		var from []*Node
		for _, n := range b.g.Nodes {
			if b.layer[n.Name] < b.layer[v.Name] {
				from = append(from, n)
			}
		}
		if len(from) == 0 {
			continue
		}
		u := from[b.r.IntN(len(from))]
		var extra []int
		for _, k := range b.rules[v.Name] {
			if k > 1 {
				extra = append(extra, k)
			}
		}
		if len(extra) > 0 && b.r.IntN(100) < genSameRulePercent {
			b.edge(u.Name, v.Name, extra[b.r.IntN(len(extra))])
			continue
		}
		k := slices.Max(append([]int{0}, b.rules[v.Name]...)) + 1
		if k <= b.o.MaxRule && genCovers(u.Types(), v.Types()) {
			b.edge(u.Name, v.Name, k)
		}
	}
}

// genCovers reports whether have holds every type of need.
func genCovers(have, need []datalog.Type) bool {
	for _, t := range need {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}

// constant returns a random constant of type t from the pool: a number in 1..o.Constants or
// one of as many symbols.
func (b *graphGen) constant(t datalog.Type) datalog.Term {
	i := b.r.IntN(b.o.Constants)
	if t == datalog.Symbol {
		return datalog.S(genPoolSymbol(i))
	}
	return datalog.N(int64(i + 1))
}

// genPoolSymbol returns the i-th symbol of the constant pool: "aa", "ab", ..., "zz", then "aaa"
// and so on (two letters at least).
func genPoolSymbol(i int) string {
	n := 2
	for span := 26 * 26; i >= span; span *= 26 {
		i -= span
		n++
	}
	s := make([]byte, n)
	for j := n - 1; j >= 0; j-- {
		s[j] = byte('a' + i%26)
		i /= 26
	}
	return string(s)
}

// facts gives o.Facts fact nodes to every generated node without rules and to
// genRuleFactsPercent percent of the others.
func (b *graphGen) facts() {
	for _, n := range b.generated(0) {
		if len(b.rules[n.Name]) > 0 && b.r.IntN(100) >= genRuleFactsPercent {
			continue
		}
		for range b.between(b.o.Facts) {
			vals := make([]datalog.Term, len(n.Attrs))
			for i, a := range n.Attrs {
				vals[i] = b.constant(a.Type)
			}
			b.g.AddFact(n.Name, vals)
		}
	}
}

// args fills, rule by rule, the arguments of the edges and the head: for each type with s
// argument spots in the rule's atoms, n variables (1 to s when s < 3, else 2 to s-1) fill the
// spots at random, genConstPercent percent of the spots take a constant instead, and each head
// argument is a random variable of its type (a constant when the atoms have none).
func (b *graphGen) args() {
	for _, n := range b.generated(0) {
		ks := slices.Clone(b.rules[n.Name])
		slices.Sort(ks)
		for _, k := range ks {
			b.rule(n, k)
		}
	}
}

// rule fills the arguments of rule k of n.
func (b *graphGen) rule(n *Node, k int) {
	edges := b.g.RuleEdges(n.Name, k)
	type spot struct{ edge, arg int }
	spots := map[datalog.Type][]spot{}
	for _, i := range edges {
		e := &b.g.Edges[i]
		types := b.g.Node(e.From).Types()
		e.Args = make([]datalog.Term, len(types))
		for j, t := range types {
			spots[t] = append(spots[t], spot{i, j})
		}
	}
	vars := map[datalog.Type][]datalog.Term{}
	next := 0
	for _, t := range []datalog.Type{datalog.Number, datalog.Symbol} {
		s := len(spots[t])
		if s == 0 {
			continue
		}
		cnt := 1 + b.r.IntN(s)
		if s >= 3 {
			cnt = 2 + b.r.IntN(s-2)
		}
		for _, sp := range spots[t] {
			arg := &b.g.Edges[sp.edge].Args[sp.arg]
			if b.r.IntN(100) < genConstPercent {
				*arg = b.constant(t)
				continue
			}
			*arg = datalog.V(genVarName(next + b.r.IntN(cnt)))
			if !slices.Contains(vars[t], *arg) {
				vars[t] = append(vars[t], *arg)
			}
		}
		next += cnt
	}
	head := make([]datalog.Term, len(n.Attrs))
	for i, a := range n.Attrs {
		if of := vars[a.Type]; len(of) > 0 {
			head[i] = of[b.r.IntN(len(of))]
		} else {
			head[i] = b.constant(a.Type)
		}
	}
	n.Heads[k] = head
}

// genVarName returns the i-th variable name of a rule: a to z, then a1 to z1 and so on.
func genVarName(i int) string {
	s := string(rune('a' + i%26))
	if i >= 26 {
		s += strconv.Itoa(i / 26)
	}
	return s
}

// negations turns up to o.Negations random edges negative, each only when another atom of its
// rule stays positive and binds every variable of the edge, so the rule stays safe. The
// generated part is acyclic, so the program stays stratified.
func (b *graphGen) negations() {
	if len(b.g.Edges) == 0 {
		return
	}
	for range b.o.Negations {
		i := b.r.IntN(len(b.g.Edges))
		if e := b.g.Edges[i]; !e.Negated && b.boundElsewhere(i) {
			b.g.ModRelEdge(i, e.Rule, true, e.Args)
		}
	}
}

// boundElsewhere reports whether the other positive atoms of edge i's rule bind every variable
// of edge i, and there is at least one.
func (b *graphGen) boundElsewhere(i int) bool {
	e := b.g.Edges[i]
	bound := map[string]bool{}
	others := 0
	for _, j := range b.g.RuleEdges(e.To, e.Rule) {
		if f := b.g.Edges[j]; j != i && !f.Negated {
			others++
			for _, t := range f.Args {
				if t.Kind == datalog.Var {
					bound[t.Name] = true
				}
			}
		}
	}
	if others == 0 {
		return false
	}
	for _, t := range e.Args {
		if t.Kind == datalog.Var && !bound[t.Name] {
			return false
		}
	}
	return true
}
