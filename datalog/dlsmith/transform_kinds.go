package dlsmith

import (
	"slices"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// The ancestries some preconditions admit.
var (
	onlyNone     = []Ancestry{None}
	onlyPositive = []Ancestry{Positive}
	onlyNegative = []Ancestry{Negative}
)

// kinds are the transformations, in a fixed order: the thesis's that found bugs (§4.4), those
// of its Table 4.1, and queryFuzz's micro-transformations as graph rewrites in any stratum.
var kinds = []*kind{
	// EQU-AddRelNode: a new isolated node, without a path to the output.
	{name: "EQU-AddRelNode", base: datalog.Equal, noNode: true,
		plan: func(c *planner, _ *Node) (Step, bool) {
			types := c.o.Types
			if len(types) == 0 {
				types = []datalog.Type{datalog.Number}
			}
			attrs := make([]datalog.Attr, c.o.Arity.Min+c.r.IntN(c.o.Arity.Max-c.o.Arity.Min+1))
			for i := range attrs {
				attrs[i] = datalog.Attr{Name: datalog.AttrName(i), Type: pick(c.r, types)}
			}
			return Step{Node: freshName(c.g, "node"), Attrs: attrs}, true
		},
		apply: func(g *Graph, s *Step) bool {
			if g.Node(s.Node) != nil || len(s.Attrs) == 0 {
				return false
			}
			g.AddRelNode(&Node{Name: s.Node, Attrs: slices.Clone(s.Attrs)})
			return true
		}},

	// EQU-AddRelEdges: a new rule v(head) :- u(args), !u(args), which derives nothing; u is
	// not a descendant of v, so the negated edge makes no cycle.
	{name: "EQU-AddRelEdges", base: datalog.Equal, eligible: generated,
		plan: func(c *planner, v *Node) (Step, bool) {
			desc := c.g.Descendants(v.Name)
			var us []*Node
			for _, u := range c.g.Nodes {
				if u != v && !desc[u.Name] && supplies(u, v) {
					us = append(us, u)
				}
			}
			if len(us) == 0 {
				return Step{}, false
			}
			u := pick(c.r, us)
			k := newRuleNumber(c.g, v.Name)
			args := vars(c.r, u.Types(), map[string]datalog.Type{}, new([]string), datalog.FreshVars(datalog.Rule{}))
			head, ok := headOver(c.r, v, u, args)
			if !ok {
				return Step{}, false
			}
			return Step{Node: v.Name, Rule: k, Head: head, Add: []Edge{
				{From: u.Name, To: v.Name, Rule: k, Args: args},
				{From: u.Name, To: v.Name, Rule: k, Negated: true, Args: slices.Clone(args)},
			}}, true
		},
		apply: func(g *Graph, s *Step) bool {
			if len(s.Add) != 2 || s.Add[0].From == s.Node || g.Descendants(s.Node)[s.Add[0].From] {
				return false
			}
			return addRule(g, s)
		}},

	// EQU-AddSelfEdge: a new rule v(args) :- v(args), which derives nothing new.
	{name: "EQU-AddSelfEdge", base: datalog.Equal, eligible: generated,
		plan: func(c *planner, v *Node) (Step, bool) {
			k := newRuleNumber(c.g, v.Name)
			args := vars(c.r, v.Types(), map[string]datalog.Type{}, new([]string), datalog.FreshVars(datalog.Rule{}))
			return Step{Node: v.Name, Rule: k, Head: slices.Clone(args),
				Add: []Edge{{From: v.Name, To: v.Name, Rule: k, Args: args}}}, true
		},
		apply: func(g *Graph, s *Step) bool {
			if len(s.Add) != 1 || s.Add[0].From != s.Node || !termsEqual(s.Add[0].Args, s.Head) {
				return false
			}
			return addRule(g, s)
		}},

	// EQU-FactInline: every rule of a generated node replaced by the facts they compute on the
	// reference engine. Never the output node: its answer would be a list of facts, and the
	// transformed program would test nothing but reading them.
	{name: "EQU-FactInline", base: datalog.Equal,
		eligible: func(g *Graph, v *Node) bool { return hasRules(g, v) && v.Name != g.Output },
		plan: func(_ *planner, v *Node) (Step, bool) {
			return Step{Node: v.Name}, true
		},
		apply: inline},

	// CON-AddRelEdge: a positive atom u(args) added to an existing rule of a node of positive
	// ancestry: one more conjunct.
	{name: "CON-AddRelEdge", base: datalog.Superset, anc: onlyPositive, eligible: hasRules,
		plan: func(c *planner, v *Node) (Step, bool) {
			k := pick(c.r, c.g.Rules(v.Name))
			u, ok := feeder(c, v, false)
			if !ok {
				return Step{}, false
			}
			types, order := ruleVarTypes(c.g, v.Name, k)
			args := vars(c.r, u.Types(), types, &order, datalog.FreshVars(ruleOf(c.g, v.Name, k)))
			return Step{Node: v.Name, Rule: k, Add: []Edge{{From: u.Name, To: v.Name, Rule: k, Args: args}}}, true
		},
		apply: addConjunct},

	// EXP-AddRelEdge: a new rule v(head) :- u(args) of a node of positive ancestry: one more
	// disjunct.
	{name: "EXP-AddRelEdge", base: datalog.Subset, anc: onlyPositive, eligible: generated,
		plan: func(c *planner, v *Node) (Step, bool) {
			u, ok := feeder(c, v, true)
			if !ok {
				return Step{}, false
			}
			k := newRuleNumber(c.g, v.Name)
			args := vars(c.r, u.Types(), map[string]datalog.Type{}, new([]string), datalog.FreshVars(datalog.Rule{}))
			head, ok := headOver(c.r, v, u, args)
			if !ok {
				return Step{}, false
			}
			return Step{Node: v.Name, Rule: k, Head: head, Add: []Edge{{From: u.Name, To: v.Name, Rule: k, Args: args}}}, true
		},
		apply: func(g *Graph, s *Step) bool {
			if len(s.Add) != 1 {
				return false
			}
			v, u := g.Node(s.Node), g.Node(s.Add[0].From)
			if v == nil || u == nil || !canFeed(g, g.Descendants(s.Node), u, v) {
				return false
			}
			return addRule(g, s)
		}},

	// Table 4.1: facts added to and deleted from nodes by their ancestry.
	addFactKind("EQU-AddFact", onlyNone),
	delFactKind("EQU-DelFact", onlyNone),
	addFactKind("CON-AddFact", onlyNegative),
	delFactKind("CON-DelFact", onlyPositive),
	addFactKind("EXP-AddFact", onlyPositive),
	delFactKind("EXP-DelFact", onlyNegative),

	// EQU-DelRelNode: a generated node without a path to the output deleted, with the atoms
	// that use it; a rule that would be left unsafe or empty goes with it. Every node that used
	// it has no path to the output either.
	{name: "EQU-DelRelNode", base: datalog.Equal, anc: onlyNone,
		eligible: func(g *Graph, v *Node) bool { return !v.Seed && v.Name != g.Output },
		plan: func(_ *planner, v *Node) (Step, bool) {
			return Step{Node: v.Name}, true
		},
		apply: delNode},

	// EQU-DelRelEdge: an edge into a node without a path to the output deleted; the rule must
	// stay safe, or go when it was its last edge.
	{name: "EQU-DelRelEdge", base: datalog.Subset, anc: onlyNone, eligible: hasRules,
		plan: delOneEdge(true),
		apply: func(g *Graph, s *Step) bool {
			if len(s.Del) != 1 || s.Del[0].To != s.Node {
				return false
			}
			return delEdges(g, s)
		}},

	// CON-DelRelEdges: every edge of one rule of a node of positive ancestry deleted: the rule,
	// a disjunct, goes.
	{name: "CON-DelRelEdges", base: datalog.Superset, anc: onlyPositive, eligible: hasRules,
		plan: func(c *planner, v *Node) (Step, bool) {
			k := pick(c.r, c.g.Rules(v.Name))
			var del []Edge
			for _, i := range c.g.RuleEdges(v.Name, k) {
				e := c.g.Edges[i]
				e.Args = slices.Clone(e.Args)
				del = append(del, e)
			}
			return Step{Node: v.Name, Rule: k, Del: del}, true
		},
		apply: func(g *Graph, s *Step) bool {
			if len(s.Del) == 0 || len(g.RuleEdges(s.Node, s.Rule)) != len(s.Del) {
				return false
			}
			for _, e := range s.Del {
				if e.To != s.Node || e.Rule != s.Rule {
					return false
				}
			}
			return delEdges(g, s)
		}},

	// EXP-DelRelEdge: one edge of a rule of a node of positive ancestry deleted, when the rule
	// keeps a positive atom and stays safe: one conjunct fewer.
	{name: "EXP-DelRelEdge", base: datalog.Subset, anc: onlyPositive, eligible: hasRules,
		plan: delOneEdge(false),
		apply: func(g *Graph, s *Step) bool {
			if len(s.Del) != 1 || s.Del[0].To != s.Node || g.Node(s.Node) == nil {
				return false
			}
			i := findEdge(g, s.Del[0])
			if i < 0 || !safeWithout(g, s.Node, s.Del[0].Rule, i) {
				return false
			}
			g.DelRelEdge(i)
			return true
		}},

	// queryFuzz's micro-transformations of one rule, in any stratum: the rule is emitted, the
	// micro-transformation of package datalog rewrites it, and the result is written back as
	// the rule's edges. The relation is the rule-level one carried by the node's ancestry.
	micro("QF-ADD_EQU", datalog.Equal, datalog.AddEqu),
	micro("QF-ADD_CON", datalog.Superset, datalog.AddCon),
	micro("QF-MOD_EQU", datalog.Equal, datalog.ModEqu),
	micro("QF-MOD_EXP", datalog.Subset, datalog.ModExp),
	micro("QF-MOD_CON", datalog.Superset, datalog.ModCon),
	micro("QF-REM_EQU", datalog.Equal, datalog.RemEqu),
	micro("QF-REM_EXP", datalog.Subset, datalog.RemExp),

	// QF-NEG: a new node neg defined by the rule's body with a positive atom g negated, and g
	// replaced in the rule by !neg(vars of g) (datalog.Neg).
	{name: "QF-NEG", base: datalog.Equal, eligible: hasRules,
		plan: func(c *planner, v *Node) (Step, bool) {
			k := pick(c.r, c.g.Rules(v.Name))
			r := ruleOf(c.g, v.Name, k)
			p := relations(c.g)
			p.Rules = []datalog.Rule{r}
			name := freshName(c.g, "neg")
			q, ok := datalog.Neg(p, 0, c.r, name)
			if !ok {
				return Step{}, false
			}
			def, use := q.Rules[0], q.Rules[1]
			return Step{Node: v.Name, Rule: k, Created: name, Attrs: q.Relations[len(q.Relations)-1].Attrs,
				OldHead: r.Head.Args, Head: use.Head.Args, Del: edgesOf(r, k),
				Add: append(edgesOf(use, k), edgesOf(def, 1)...)}, true
		},
		apply: rewrite},
}

// addFactKind is a transformation that adds a fact to a generated node of the given ancestries.
func addFactKind(name string, anc []Ancestry) *kind {
	return &kind{name: name, base: datalog.Subset, anc: anc, eligible: generated,
		plan: func(c *planner, v *Node) (Step, bool) {
			for range 4 {
				f := make([]datalog.Term, len(v.Attrs))
				for i, a := range v.Attrs {
					f[i] = c.constant(a.Type)
				}
				if !v.hasFact(f) {
					return Step{Node: v.Name, Facts: [][]datalog.Term{f}}, true
				}
			}
			return Step{}, false
		},
		apply: func(g *Graph, s *Step) bool {
			v := g.Node(s.Node)
			if v == nil || v.Seed || len(s.Facts) != 1 || len(s.Facts[0]) != len(v.Attrs) || v.hasFact(s.Facts[0]) {
				return false
			}
			g.AddFact(s.Node, s.Facts[0])
			return true
		}}
}

// delFactKind is a transformation that deletes a fact of a generated node of the given
// ancestries.
func delFactKind(name string, anc []Ancestry) *kind {
	return &kind{name: name, base: datalog.Superset, anc: anc, eligible: hasFacts,
		plan: func(c *planner, v *Node) (Step, bool) {
			return Step{Node: v.Name, Facts: [][]datalog.Term{slices.Clone(pick(c.r, v.Facts))}}, true
		},
		apply: func(g *Graph, s *Step) bool {
			v := g.Node(s.Node)
			if v == nil || v.Seed || len(s.Facts) != 1 || !v.hasFact(s.Facts[0]) {
				return false
			}
			g.DelFact(s.Node, s.Facts[0])
			return true
		}}
}

// micro is a queryFuzz micro-transformation of one rule of a generated node as a graph rewrite;
// base is its rule-level relation.
func micro(name string, base datalog.Expect, fn datalog.Micro) *kind {
	return &kind{name: name, base: base, eligible: hasRules,
		plan: func(c *planner, v *Node) (Step, bool) {
			k := pick(c.r, c.g.Rules(v.Name))
			r := ruleOf(c.g, v.Name, k)
			q, ok := fn(relations(c.g), r, c.r, datalog.FreshVars(r))
			if !ok {
				return Step{}, false
			}
			return Step{Node: v.Name, Rule: k, OldHead: r.Head.Args, Head: q.Head.Args, Del: edgesOf(r, k), Add: edgesOf(q, k)}, true
		},
		apply: rewrite}
}

// rewrite replaces rule s.Rule of s.Node, which must be as the step found it (head s.OldHead,
// body s.Del), by head s.Head and body s.Add's edges into it; the other edges of s.Add are the
// rule of the node s.Created adds (QF-NEG), whose head is the arguments of its negated atom.
func rewrite(g *Graph, s *Step) bool {
	v := g.Node(s.Node)
	if v == nil || v.Seed || v.Heads[s.Rule] == nil || !termsEqual(v.Heads[s.Rule], s.OldHead) {
		return false
	}
	cur := g.RuleEdges(s.Node, s.Rule)
	if len(cur) != len(s.Del) {
		return false
	}
	for j, i := range cur {
		if !edgeEqual(g.Edges[i], s.Del[j]) {
			return false
		}
	}
	if s.Created != "" {
		if g.Node(s.Created) != nil {
			return false
		}
		i := slices.IndexFunc(s.Add, func(e Edge) bool { return e.From == s.Created && e.Negated && e.To == s.Node })
		if i < 0 {
			return false
		}
		g.AddRelNode(&Node{Name: s.Created, Attrs: slices.Clone(s.Attrs)})
		g.Node(s.Created).Heads[1] = slices.Clone(s.Add[i].Args)
	}
	for _, e := range s.Add {
		if g.Node(e.From) == nil || !(e.To == s.Node && e.Rule == s.Rule || e.To == s.Created && s.Created != "" && e.Rule == 1) {
			return false
		}
	}
	g.Edges = slices.DeleteFunc(g.Edges, func(e Edge) bool { return e.To == s.Node && e.Rule == s.Rule })
	v.Heads[s.Rule] = slices.Clone(s.Head)
	for _, e := range s.Add {
		g.AddRelEdge(e)
	}
	return true
}

// addConjunct appends the edge s.Add[0] to the existing rule s.Rule of s.Node (CON-AddRelEdge),
// when its source cannot make a cycle through a negated edge.
func addConjunct(g *Graph, s *Step) bool {
	if len(s.Add) != 1 {
		return false
	}
	e := s.Add[0]
	v, u := g.Node(s.Node), g.Node(e.From)
	if v == nil || u == nil || v.Seed || v.Heads[s.Rule] == nil || e.To != s.Node || e.Rule != s.Rule || e.Negated ||
		!canFeed(g, g.Descendants(s.Node), u, v) {
		return false
	}
	g.AddRelEdge(e)
	return true
}

// feeder draws a node u for an edge u -> v that cannot make a cycle through a negated edge; with
// cover, one that has a column of every type of v's columns.
func feeder(c *planner, v *Node, cover bool) (*Node, bool) {
	desc := c.g.Descendants(v.Name)
	var us []*Node
	for _, u := range c.g.Nodes {
		if canFeed(c.g, desc, u, v) && (!cover || supplies(u, v)) {
			us = append(us, u)
		}
	}
	if len(us) == 0 {
		return nil, false
	}
	return pick(c.r, us), true
}

// delNode deletes s.Node with its facts, rules and the atoms of other rules that use it; such a
// rule that would be left empty or unsafe is dropped whole. The deleted edges of other nodes'
// rules go in s.Del.
func delNode(g *Graph, s *Step) bool {
	v := g.Node(s.Node)
	if v == nil || v.Seed || s.Node == g.Output {
		return false
	}
	s.Del = nil
	type rule struct {
		to string
		k  int
	}
	var users []rule
	for _, e := range g.Edges {
		if e.From == s.Node && e.To != s.Node && !slices.Contains(users, rule{e.To, e.Rule}) {
			users = append(users, rule{e.To, e.Rule})
		}
	}
	for _, u := range users {
		keep := datalog.Rule{Head: datalog.Atom{Rel: u.to, Args: g.Node(u.to).Heads[u.k]}}
		pos := 0
		for _, i := range g.RuleEdges(u.to, u.k) {
			if e := g.Edges[i]; e.From != s.Node {
				keep.Body = append(keep.Body, e.Atom())
				if !e.Negated {
					pos++
				}
			}
		}
		whole := pos == 0 || !datalog.RuleSafe(keep)
		g.Edges = slices.DeleteFunc(g.Edges, func(e Edge) bool {
			if e.To != u.to || e.Rule != u.k || !whole && e.From != s.Node {
				return false
			}
			s.Del = append(s.Del, e)
			return true
		})
		if whole {
			delete(g.Node(u.to).Heads, u.k)
		}
	}
	g.DelRelNode(s.Node)
	return true
}

// delOneEdge plans the deletion of one incoming edge of v whose rule stays safe without it or,
// with wholeRule, that is its rule's only edge (the rule goes).
func delOneEdge(wholeRule bool) func(c *planner, v *Node) (Step, bool) {
	return func(c *planner, v *Node) (Step, bool) {
		var es []int
		for _, i := range c.g.Incoming(v.Name) {
			k := c.g.Edges[i].Rule
			if wholeRule && len(c.g.RuleEdges(v.Name, k)) == 1 || safeWithout(c.g, v.Name, k, i) {
				es = append(es, i)
			}
		}
		if len(es) == 0 {
			return Step{}, false
		}
		e := c.g.Edges[pick(c.r, es)]
		e.Args = slices.Clone(e.Args)
		return Step{Node: v.Name, Rule: e.Rule, Del: []Edge{e}}, true
	}
}
