package dlsmith

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// Step is one transformation applied to a graph: its name, the relation it promises between the
// output before and after it, and the concrete rewrite it made, enough to apply it again to
// another graph ([Replay]).
type Step struct {
	// Name is the transformation: the thesis's ("EQU-AddRelEdges", "CON-AddRelEdge",
	// "EXP-DelFact", ...) or one of queryFuzz's in any stratum ("QF-ADD_EQU", ..., "QF-NEG").
	Name string
	// Expect is the relation the step promises: the direction of the change for Node, as the
	// node's ancestry carries it to the output.
	Expect datalog.Expect
	// Node is the node the step rewrites, deletes or adds.
	Node string
	// Rule is the rule number of Node that the step adds, rewrites or drops; 0 when none.
	Rule int
	// Created names the node QF-NEG adds, with Attrs its columns; its one rule is number 1.
	Created string
	// Attrs are the columns of the node the step adds (Node for EQU-AddRelNode, Created for
	// QF-NEG).
	Attrs []datalog.Attr
	// OldHead is the head of the rule a queryFuzz step rewrites, before the step.
	OldHead []datalog.Term
	// Head is the head of the rule the step adds or rewrites.
	Head []datalog.Term
	// Del are the edges the step deletes; Add the edges it adds, in body order.
	Del, Add []Edge
	// Facts are the facts the step adds or deletes; for EQU-FactInline the facts that replace
	// the node's rules.
	Facts [][]datalog.Term
}

// String returns the step on one line: its name, relation, node and rule, then the edges it
// deletes (-) and adds (+) and the facts it adds or deletes.
func (s Step) String() string {
	var b strings.Builder
	b.WriteString(s.Name)
	b.WriteByte(' ')
	b.WriteString(s.Expect.String())
	b.WriteByte(' ')
	b.WriteString(s.Node)
	if s.Rule > 0 {
		b.WriteString("#" + strconv.Itoa(s.Rule))
	}
	if s.Attrs != nil {
		name := s.Node
		if s.Created != "" {
			name = s.Created
		}
		b.WriteString(" new " + name + "(")
		for i, a := range s.Attrs {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.Name + ": " + a.Type.String())
		}
		b.WriteByte(')')
	}
	if s.Head != nil {
		b.WriteString(" head " + datalog.Atom{Rel: s.Node, Args: s.Head}.String())
	}
	edges := func(sign string, es []Edge) {
		for _, e := range es {
			b.WriteString(" " + sign + e.Atom().String())
			if e.To != s.Node || e.Rule != s.Rule {
				b.WriteString("@" + e.To + "#" + strconv.Itoa(e.Rule))
			}
		}
	}
	edges("-", s.Del)
	edges("+", s.Add)
	for _, f := range s.Facts {
		b.WriteString(" fact " + datalog.Atom{Rel: s.Node, Args: f}.String())
	}
	return b.String()
}

// Compose returns the relation of two steps applied one after the other: Equal is neutral, a
// relation composed with itself is itself, and Subset with Superset is undecided (false).
func Compose(a, b datalog.Expect) (datalog.Expect, bool) {
	valid := func(e datalog.Expect) bool {
		return e == datalog.Equal || e == datalog.Subset || e == datalog.Superset
	}
	switch {
	case !valid(a) || !valid(b):
		return 0, false
	case a == datalog.Equal:
		return b, true
	case b == datalog.Equal || a == b:
		return a, true
	}
	return 0, false
}

// reverse returns the relation with its sides swapped.
func reverse(e datalog.Expect) datalog.Expect {
	switch e {
	case datalog.Subset:
		return datalog.Superset
	case datalog.Superset:
		return datalog.Subset
	}
	return e
}

// carry returns the relation between the outputs when a node of ancestry a changes in direction
// base (Subset: the node can only grow; Superset: it can only shrink): positive ancestry keeps
// it, negative reverses it, none makes it Equal, and mixed admits only Equal changes.
func carry(base datalog.Expect, a Ancestry) (datalog.Expect, bool) {
	switch {
	case base == datalog.Equal || a == None:
		return datalog.Equal, true
	case a == Positive:
		return base, true
	case a == Negative:
		return reverse(base), true
	}
	return 0, false
}

// kind is a transformation: a precondition on a node of the annotated graph (its ancestry in
// anc, and eligible), an attribute generation (plan) and a rewrite (apply), which checks the
// step's own precondition again on the graph it rewrites, so that Replay can use it on another.
type kind struct {
	name string
	// base is the direction of the change for the node touched.
	base datalog.Expect
	// anc are the ancestries the precondition admits; nil admits any for which carry is
	// defined.
	anc []Ancestry
	// noNode marks a transformation that adds a node rather than touching one.
	noNode bool
	// eligible reports whether the structural precondition holds for v.
	eligible func(g *Graph, v *Node) bool
	// plan draws the attributes of a step on v (nil when noNode); false when none fit.
	plan func(c *planner, v *Node) (Step, bool)
	// apply checks the step's precondition on g and rewrites g; false when it fails.
	apply func(g *Graph, s *Step) bool
}

// admits reports the relation the transformation promises when it touches a node of ancestry a,
// and whether its precondition admits that ancestry.
func (k *kind) admits(a Ancestry) (datalog.Expect, bool) {
	if k.anc != nil && !slices.Contains(k.anc, a) {
		return 0, false
	}
	return carry(k.base, a)
}

// usable reports whether some node could give a step of k whose relation composes into oracle.
func (k *kind) usable(oracle datalog.Expect) bool {
	for _, a := range []Ancestry{None, Positive, Negative, Mixed} {
		if e, ok := k.admits(a); ok && (e == datalog.Equal || e == oracle) {
			return true
		}
	}
	return false
}

// planner holds what attribute generation draws from.
type planner struct {
	g *Graph
	o Options
	r *rand.Rand
}

// pick returns a random element of xs.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// generated reports whether v is a generated node: only those get edges and facts.
func generated(_ *Graph, v *Node) bool { return !v.Seed }

// hasRules reports whether v is a generated node with a rule.
func hasRules(g *Graph, v *Node) bool { return !v.Seed && len(v.Heads) > 0 }

// hasFacts reports whether v is a generated node with a fact.
func hasFacts(_ *Graph, v *Node) bool { return !v.Seed && len(v.Facts) > 0 }

// ruleOf returns rule k of node v as a datalog rule.
func ruleOf(g *Graph, v string, k int) datalog.Rule {
	r := datalog.Rule{Head: datalog.Atom{Rel: v, Args: slices.Clone(g.Node(v).Heads[k])}}
	for _, i := range g.RuleEdges(v, k) {
		r.Body = append(r.Body, g.Edges[i].Atom())
	}
	return r
}

// edgesOf returns the body of r as edges of rule k of r's head.
func edgesOf(r datalog.Rule, k int) []Edge {
	out := make([]Edge, len(r.Body))
	for i, a := range r.Body {
		out[i] = Edge{From: a.Rel, To: r.Head.Rel, Rule: k, Negated: a.Negated, Args: slices.Clone(a.Args)}
	}
	return out
}

// relations returns a program that declares the graph's relations and has no rules: what the
// queryFuzz micro-transformations read types from.
func relations(g *Graph) *datalog.Program {
	p := &datalog.Program{Relations: make([]datalog.Relation, len(g.Nodes))}
	for i, n := range g.Nodes {
		p.Relations[i] = datalog.Relation{Name: n.Name, Attrs: n.Attrs}
	}
	return p
}

// edgeEqual reports whether two edges are the same atom in the same rule.
func edgeEqual(a, b Edge) bool {
	return a.From == b.From && a.To == b.To && a.Rule == b.Rule && a.Negated == b.Negated && termsEqual(a.Args, b.Args)
}

// findEdge returns the index of the edge equal to e, or -1.
func findEdge(g *Graph, e Edge) int {
	return slices.IndexFunc(g.Edges, func(f Edge) bool { return edgeEqual(e, f) })
}

// freshName returns prefix followed by the smallest number that names no node of g.
func freshName(g *Graph, prefix string) string {
	for i := 0; ; i++ {
		if n := prefix + strconv.Itoa(i); g.Node(n) == nil {
			return n
		}
	}
}

// vars draws the arguments of an atom over columns of the given types (generate_vars): each a
// variable of the column's type from pool (variables with their types, which it extends) with
// probability 1/2, else a fresh one from fresh.
func vars(r *rand.Rand, types []datalog.Type, pool map[string]datalog.Type, order *[]string, fresh func() string) []datalog.Term {
	args := make([]datalog.Term, len(types))
	for i, t := range types {
		var of []string
		for _, v := range *order {
			if pool[v] == t {
				of = append(of, v)
			}
		}
		name := ""
		if len(of) > 0 && r.IntN(2) == 0 {
			name = pick(r, of)
		} else {
			name = fresh()
			pool[name] = t
			*order = append(*order, name)
		}
		args[i] = datalog.V(name)
	}
	return args
}

// ruleVarTypes returns the variables of rule k of v in order of first appearance, with their
// types by the columns they fill.
func ruleVarTypes(g *Graph, v string, k int) (map[string]datalog.Type, []string) {
	types := map[string]datalog.Type{}
	var order []string
	add := func(rel string, args []datalog.Term) {
		n := g.Node(rel)
		for i, t := range args {
			if t.Kind == datalog.Var && n != nil && i < len(n.Attrs) {
				if _, ok := types[t.Name]; !ok {
					types[t.Name] = n.Attrs[i].Type
					order = append(order, t.Name)
				}
			}
		}
	}
	add(v, g.Node(v).Heads[k])
	for _, i := range g.RuleEdges(v, k) {
		add(g.Edges[i].From, g.Edges[i].Args)
	}
	return types, order
}

// headOver returns head arguments for v's columns, each a variable of the column's type drawn
// from args; false when args have no variable of some column's type.
func headOver(r *rand.Rand, v *Node, u *Node, args []datalog.Term) ([]datalog.Term, bool) {
	head := make([]datalog.Term, len(v.Attrs))
	for i, a := range v.Attrs {
		var of []datalog.Term
		for j, t := range args {
			if t.Kind == datalog.Var && u.Attrs[j].Type == a.Type {
				of = append(of, t)
			}
		}
		if len(of) == 0 {
			return nil, false
		}
		head[i] = pick(r, of)
	}
	return head, true
}

// supplies reports whether u has a column of every type of v's columns.
func supplies(u, v *Node) bool {
	for _, a := range v.Attrs {
		if !slices.ContainsFunc(u.Attrs, func(b datalog.Attr) bool { return b.Type == a.Type }) {
			return false
		}
	}
	return true
}

// canFeed reports whether an edge u -> v cannot make a cycle through a negated edge by the
// annotation: v does not reach u, or they are in the same stratum (the emitted program is
// checked anyway).
func canFeed(g *Graph, desc map[string]bool, u, v *Node) bool {
	return !desc[u.Name] || u.Stratum == v.Stratum
}

// constant draws a constant of type t: one of the graph's facts' constants of that type with
// probability 1/2, else one of the constant pool (numbers 1..o.Constants, two-letter symbols).
func (c *planner) constant(t datalog.Type) datalog.Term {
	if c.r.IntN(2) == 0 {
		var seen []datalog.Term
		for _, n := range c.g.Nodes {
			for _, f := range n.Facts {
				for i, x := range f {
					if i < len(n.Attrs) && n.Attrs[i].Type == t {
						seen = append(seen, x)
					}
				}
			}
		}
		if len(seen) > 0 {
			return pick(c.r, seen)
		}
	}
	i := c.r.IntN(max(c.o.Constants, 1))
	if t == datalog.Symbol {
		return datalog.S(string([]byte{byte('a' + i/26%26), byte('a' + i%26)}))
	}
	return datalog.N(int64(1 + i))
}

// newRuleNumber returns the number of a new rule of v: one more than its largest.
func newRuleNumber(g *Graph, v string) int { return g.MaxRule(v) + 1 }

// addRule adds the rule s.Rule of s.Node with head s.Head and body s.Add: the node must be a
// generated node without that rule and every edge must come from a node of g into it.
func addRule(g *Graph, s *Step) bool {
	v := g.Node(s.Node)
	if v == nil || v.Seed || v.Heads[s.Rule] != nil || len(s.Head) != len(v.Attrs) {
		return false
	}
	for _, e := range s.Add {
		if g.Node(e.From) == nil || e.To != s.Node || e.Rule != s.Rule {
			return false
		}
	}
	v.Heads[s.Rule] = slices.Clone(s.Head)
	for _, e := range s.Add {
		g.AddRelEdge(e)
	}
	return true
}

// delEdges deletes the edges s.Del, each of which must be in g.
func delEdges(g *Graph, s *Step) bool {
	for _, e := range s.Del {
		i := findEdge(g, e)
		if i < 0 {
			return false
		}
		g.DelRelEdge(i)
	}
	return true
}

// safeWithout reports whether rule k of v keeps a positive atom and stays safe without the edge
// at index skip.
func safeWithout(g *Graph, v string, k int, skip int) bool {
	r := datalog.Rule{Head: datalog.Atom{Rel: v, Args: g.Node(v).Heads[k]}}
	pos := 0
	for _, i := range g.RuleEdges(v, k) {
		if i != skip {
			r.Body = append(r.Body, g.Edges[i].Atom())
			if !g.Edges[i].Negated {
				pos++
			}
		}
	}
	return pos > 0 && datalog.RuleSafe(r)
}

// stepsFor returns the transformations whose steps can compose into oracle.
func stepsFor(oracle datalog.Expect) []*kind {
	var out []*kind
	for _, k := range kinds {
		if k.usable(oracle) {
			out = append(out, k)
		}
	}
	return out
}

// kindByName returns the transformation named name, or nil.
func kindByName(name string) *kind {
	for _, k := range kinds {
		if k.name == name {
			return k
		}
	}
	return nil
}

// Transformations returns the names of every transformation, in a fixed order.
func Transformations() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.name
	}
	return out
}

// evalLimit bounds the tuples the reference engine derives for EQU-FactInline.
const evalLimit = 100000

// maxInline bounds the facts EQU-FactInline puts in place of a node's rules.
const maxInline = 100

// inline is EQU-FactInline's rewrite: it evaluates g's program on the reference engine (as far
// as s.Node needs, see evalFor) and replaces every rule of s.Node by the node's tuples,
// recording the edges deleted and the facts in s.
func inline(g *Graph, s *Step) bool {
	v := g.Node(s.Node)
	if v == nil || v.Seed || len(v.Heads) == 0 || s.Node == g.Output {
		return false
	}
	p, err := g.Program()
	if err != nil {
		return false
	}
	m, err := evalFor(g, p, s.Node, evalLimit)
	if err != nil {
		return false
	}
	tuples := m.Tuples(s.Node)
	if len(tuples) > maxInline {
		return false
	}
	s.Del, s.Facts = nil, nil
	for _, i := range g.Incoming(s.Node) {
		e := g.Edges[i]
		e.Args = slices.Clone(e.Args)
		s.Del = append(s.Del, e)
	}
	g.Edges = slices.DeleteFunc(g.Edges, func(e Edge) bool { return e.To == s.Node })
	clear(v.Heads)
	for _, t := range tuples {
		s.Facts = append(s.Facts, t.Args)
		g.AddFact(s.Node, t.Args)
	}
	return true
}
