package dlsmith

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// mini returns a small graph with a node of every ancestry and a seed node:
//
//	S(1). S(3).                                  seed node (never gets edges or facts)
//	A(1,2). A(2,1). A(2,3). A(3,3). A(3,4).      +  facts only
//	N(2). N(5).                                  -  facts only, negated in B
//	C(3). C(6).                                  ?
//	M(x) :- C(x).                                -  negated in B
//	Q(1).  Q(x) :- C(x).                         ?  negated in B, positive in O
//	B(x,y) :- A(x,y), !N(x), !M(y).              +
//	B(x,z) :- A(x,y), A(y,z), !Q(z).
//	B(x,x) :- A(y,x), A(x,x).
//	O(x,z) :- B(x,y), B(y,z).                    +  output
//	O(x,x) :- Q(x).
//	I(7).  I(x) :- A(x,x), S(x).                 none
func mini(t testing.TB) *Graph {
	t.Helper()
	seed, err := datalog.Parse("seed.dl", ".decl S(a: number)\nS(1). S(3).\n")
	if err != nil {
		t.Fatal(err)
	}
	g := FromSeed(seed)
	n := datalog.N
	one := num[:1]
	for _, node := range []*Node{
		{Name: "A", Attrs: num, Facts: [][]datalog.Term{{n(1), n(2)}, {n(2), n(1)}, {n(2), n(3)}, {n(3), n(3)}, {n(3), n(4)}}},
		{Name: "N", Attrs: one, Facts: [][]datalog.Term{{n(2)}, {n(5)}}},
		{Name: "C", Attrs: one, Facts: [][]datalog.Term{{n(3)}, {n(6)}}},
		{Name: "M", Attrs: one},
		{Name: "Q", Attrs: one, Facts: [][]datalog.Term{{n(1)}}},
		{Name: "B", Attrs: num},
		{Name: "O", Attrs: num},
		{Name: "I", Attrs: one, Facts: [][]datalog.Term{{n(7)}}},
	} {
		g.AddRelNode(node)
	}
	rule := func(to string, k int, head []datalog.Term, body ...Edge) {
		g.Node(to).Heads[k] = head
		for _, e := range body {
			e.To, e.Rule = to, k
			g.AddRelEdge(e)
		}
	}
	ts := func(ts ...datalog.Term) []datalog.Term { return ts }
	rule("M", 1, ts(x), Edge{From: "C", Args: ts(x)})
	rule("Q", 1, ts(x), Edge{From: "C", Args: ts(x)})
	rule("B", 1, ts(x, y), Edge{From: "A", Args: ts(x, y)}, Edge{From: "N", Negated: true, Args: ts(x)},
		Edge{From: "M", Negated: true, Args: ts(y)})
	rule("B", 2, ts(x, z), Edge{From: "A", Args: ts(x, y)}, Edge{From: "A", Args: ts(y, z)},
		Edge{From: "Q", Negated: true, Args: ts(z)})
	rule("B", 3, ts(x, x), Edge{From: "A", Args: ts(y, x)}, Edge{From: "A", Args: ts(x, x)})
	rule("O", 1, ts(x, z), Edge{From: "B", Args: ts(x, y)}, Edge{From: "B", Args: ts(y, z)})
	rule("O", 2, ts(x, x), Edge{From: "Q", Args: ts(x)})
	rule("I", 1, ts(x), Edge{From: "A", Args: ts(x, x)}, Edge{From: "S", Args: ts(x)})
	g.Output = "O"
	g.Annotate()
	return g
}

// attempts is how many random attribute draws a test makes per node.
const attempts = 64

// TestMini checks the ancestries the transformation tests rely on.
func TestMini(t *testing.T) {
	g := mini(t)
	for name, want := range map[string]Ancestry{"S": None, "A": Positive, "N": Negative, "C": Mixed, "M": Negative, "Q": Mixed,
		"B": Positive, "O": Positive, "I": None} {
		if got := g.Node(name).Ancestry; got != want {
			t.Errorf("ancestry of %s = %s, want %s", name, got, want)
		}
	}
	_, _, oa, _, err := outputs(t, g, g)
	if err != nil || len(oa) == 0 {
		t.Fatalf("mini's output: %v, %v; want a non-empty answer", oa, err)
	}
}

// TestTransformations checks every transformation on mini: on each node of holds the
// precondition holds for some attributes, and every step applied keeps its relation on the
// reference engine; on each node of fails it never holds; and where strict is set, some step
// changes the output, so that a wrong relation would be seen.
func TestTransformations(t *testing.T) {
	for _, c := range []struct {
		name   string
		holds  []string
		fails  []string
		strict bool
	}{
		{"EQU-AddRelNode", []string{""}, nil, false},
		{"EQU-AddRelEdges", []string{"O", "B", "M", "I"}, []string{"S"}, false},
		{"EQU-AddSelfEdge", []string{"B", "A", "Q"}, []string{"S"}, false},
		{"EQU-FactInline", []string{"B", "M", "Q", "I"}, []string{"O", "A", "S"}, false},
		{"CON-AddRelEdge", []string{"B", "O"}, []string{"M", "Q", "A", "I", "S"}, true},
		{"EXP-AddRelEdge", []string{"B", "O", "A"}, []string{"M", "N", "Q", "I", "S"}, true},
		{"EQU-AddFact", []string{"I"}, []string{"A", "N", "Q", "S"}, false},
		{"EQU-DelFact", []string{"I"}, []string{"A", "N", "S"}, false},
		{"CON-AddFact", []string{"N", "M"}, []string{"A", "I", "Q", "S"}, true},
		{"CON-DelFact", []string{"A"}, []string{"N", "I", "Q", "B"}, true},
		{"EXP-AddFact", []string{"A", "B"}, []string{"N", "M", "I", "Q"}, true},
		{"EXP-DelFact", []string{"N"}, []string{"A", "I", "Q", "M"}, true},
		{"EQU-DelRelNode", []string{"I"}, []string{"A", "B", "O", "N", "Q", "S"}, false},
		{"EQU-DelRelEdge", []string{"I"}, []string{"B", "M", "Q", "A"}, false},
		{"CON-DelRelEdges", []string{"B", "O"}, []string{"M", "Q", "I", "A"}, true},
		{"EXP-DelRelEdge", []string{"B"}, []string{"O", "M", "Q", "I", "A"}, true},
		{"QF-ADD_EQU", []string{"B", "M", "Q", "O", "I"}, []string{"A", "N", "S"}, false},
		{"QF-ADD_CON", []string{"B", "M", "O", "I"}, []string{"Q", "A", "S"}, true},
		{"QF-MOD_EQU", []string{"B", "M", "Q", "O"}, []string{"A", "S"}, false},
		{"QF-MOD_EXP", []string{"B", "O", "I"}, []string{"Q", "A"}, true},
		{"QF-MOD_CON", []string{"B", "O"}, []string{"Q", "A"}, true},
		{"QF-REM_EQU", []string{"B"}, []string{"M", "A", "S"}, false},
		{"QF-REM_EXP", []string{"B"}, []string{"Q", "M", "A"}, true},
		{"QF-NEG", []string{"B", "I"}, []string{"A", "M", "S"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := kindByName(c.name)
			if k == nil {
				t.Fatalf("no transformation %s", c.name)
			}
			g := mini(t)
			strict := false
			for _, node := range c.holds {
				applied := 0
				for i := range attempts {
					h, s, ok := attempt(g, k, node, uint64(i))
					if !ok {
						continue
					}
					applied++
					if want := nameRelation(s.Name); want != 0 && s.Expect != want {
						t.Errorf("%s promises %s, its name %s", s, s.Expect, want)
					}
					_, pb, oa, ob, err := outputs(t, g, h)
					if err != nil {
						t.Fatalf("%s: %v", s, err)
					}
					if !s.Expect.Holds(oa, ob) {
						t.Fatalf("%s: %s does not hold: %v then %v\n%s", s, s.Expect, oa, ob, pb)
					}
					if !datalog.Equal.Holds(oa, ob) {
						strict = true
					}
				}
				if applied == 0 {
					t.Errorf("on %s: the precondition never held in %d draws", node, attempts)
				}
			}
			for _, node := range c.fails {
				for i := range attempts {
					if _, s, ok := attempt(g, k, node, uint64(i)); ok {
						t.Fatalf("on %s: the precondition held: %s", node, s)
					}
				}
			}
			if c.strict && !strict {
				t.Errorf("no step changed the output: the relation is not tested")
			}
		})
	}
}

// attempt draws and applies a step of k on node (ignored when k adds a node) of g with the
// random source of seed.
func attempt(g *Graph, k *kind, node string, seed uint64) (*Graph, Step, bool) {
	c := &planner{g: g, o: DefaultOptions(), r: rand.New(rand.NewPCG(seed, 1))}
	return k.step(c, g.Node(node), c.o.MaxBody)
}

// nameRelation returns the relation a thesis transformation's name promises (EQU-, EXP-, CON-),
// 0 for queryFuzz's.
func nameRelation(name string) datalog.Expect {
	switch {
	case strings.HasPrefix(name, "EQU-"):
		return datalog.Equal
	case strings.HasPrefix(name, "EXP-"):
		return datalog.Subset
	case strings.HasPrefix(name, "CON-"):
		return datalog.Superset
	}
	return 0
}

// TestQueryFuzzDirection checks that a queryFuzz step's relation is its rule-level relation
// carried by the ancestry of its node: kept on B (+), reversed on M (-), equal on I (none).
func TestQueryFuzzDirection(t *testing.T) {
	g := mini(t)
	for _, c := range []struct {
		name, node string
		want       datalog.Expect
	}{
		{"QF-ADD_CON", "B", datalog.Superset},
		{"QF-ADD_CON", "M", datalog.Subset},
		{"QF-ADD_CON", "I", datalog.Equal},
		{"QF-MOD_EXP", "B", datalog.Subset},
		{"QF-MOD_CON", "O", datalog.Superset},
		{"QF-REM_EXP", "B", datalog.Subset},
		{"QF-NEG", "B", datalog.Equal},
	} {
		found := false
		for i := range attempts {
			if _, s, ok := attempt(g, kindByName(c.name), c.node, uint64(i)); ok {
				found = true
				if s.Expect != c.want {
					t.Errorf("%s on %s promises %s, want %s", c.name, c.node, s.Expect, c.want)
				}
				break
			}
		}
		if !found {
			t.Errorf("%s never applied on %s", c.name, c.node)
		}
	}
}

// TestStepShapes checks the rewrites of the transformations that found bugs: the rules they add
// and what they remove.
func TestStepShapes(t *testing.T) {
	g := mini(t)
	for i := range attempts {
		if h, s, ok := attempt(g, kindByName("EQU-AddRelEdges"), "B", uint64(i)); ok {
			if len(s.Add) != 2 || s.Add[0].From != s.Add[1].From || s.Add[0].Negated || !s.Add[1].Negated ||
				!termsEqual(s.Add[0].Args, s.Add[1].Args) || s.Rule != 4 {
				t.Errorf("EQU-AddRelEdges on B: %s, want a rule 4 u(args), !u(args)", s)
			}
			if g.Descendants("B")[s.Add[0].From] {
				t.Errorf("EQU-AddRelEdges on B: %s uses a descendant of B", s)
			}
			if len(h.RuleEdges("B", 4)) != 2 {
				t.Errorf("EQU-AddRelEdges on B: rule 4 has %d edges", len(h.RuleEdges("B", 4)))
			}
		}
		if h, s, ok := attempt(g, kindByName("EQU-AddSelfEdge"), "B", uint64(i)); ok {
			r := ruleOf(h, "B", s.Rule)
			if len(r.Body) != 1 || r.Body[0].Rel != "B" || !termsEqual(r.Body[0].Args, r.Head.Args) {
				t.Errorf("EQU-AddSelfEdge on B: rule %s, want B(args) :- B(args)", r)
			}
		}
	}
	h, s, ok := attempt(g, kindByName("EQU-FactInline"), "B", 0)
	if !ok {
		t.Fatal("EQU-FactInline on B failed")
	}
	m, err := datalog.Eval(mustProgram(t, g))
	if err != nil {
		t.Fatal(err)
	}
	if n := h.Node("B"); len(n.Heads) != 0 || len(h.Incoming("B")) != 0 || len(n.Facts) != len(m.Tuples("B")) || len(s.Facts) != len(n.Facts) {
		t.Errorf("EQU-FactInline on B: %d rules, %d edges, %d facts; want none, none and B's %d tuples",
			len(n.Heads), len(h.Incoming("B")), len(n.Facts), len(m.Tuples("B")))
	}
	h, _, ok = attempt(g, kindByName("EQU-DelRelNode"), "I", 0)
	if !ok || h.Node("I") != nil || slices.ContainsFunc(h.Edges, func(e Edge) bool { return e.From == "I" || e.To == "I" }) {
		t.Errorf("EQU-DelRelNode on I left the node or its edges")
	}
	h, s, ok = attempt(g, kindByName("CON-DelRelEdges"), "B", 0)
	if !ok || len(h.RuleEdges("B", s.Rule)) != 0 || h.Node("B").Heads[s.Rule] != nil {
		t.Errorf("CON-DelRelEdges on B: %s left rule %d", s, s.Rule)
	}
}

// TestDelRelNodeDropsUnsafeRules checks that deleting a node drops the rules of other nodes that
// it would leave unsafe and keeps the others without its atoms.
func TestDelRelNodeDropsUnsafeRules(t *testing.T) {
	g := mini(t)
	g.AddRelNode(&Node{Name: "J", Attrs: num[:1]})
	g.AddRelNode(&Node{Name: "K", Attrs: num[:1]})
	g.Node("J").Heads[1] = []datalog.Term{x}
	g.AddRelEdge(Edge{From: "I", To: "J", Rule: 1, Args: []datalog.Term{x}}) // unsafe without I: dropped
	g.Node("K").Heads[1] = []datalog.Term{x}
	g.AddRelEdge(Edge{From: "A", To: "K", Rule: 1, Args: []datalog.Term{x, y}})
	g.AddRelEdge(Edge{From: "I", To: "K", Rule: 1, Args: []datalog.Term{y}}) // kept without I
	g.Annotate()
	h, s, ok := attempt(g, kindByName("EQU-DelRelNode"), "I", 0)
	if !ok {
		t.Fatal("EQU-DelRelNode on I failed")
	}
	if len(h.Node("J").Heads) != 0 || len(h.RuleEdges("K", 1)) != 1 || len(s.Del) != 2 {
		t.Errorf("after %s: J has %d rules, K's rule %d edges; want 0 and 1", s, len(h.Node("J").Heads), len(h.RuleEdges("K", 1)))
	}
}

// TestReplayPrecondition checks that a replayed step whose node a dropped step made is skipped,
// and that a step replayed on a graph where its node's ancestry changed is skipped when the
// precondition no longer admits it.
func TestReplayPrecondition(t *testing.T) {
	g := mini(t)
	h, add, ok := attempt(g, kindByName("EQU-AddRelNode"), "", 0)
	if !ok {
		t.Fatal("EQU-AddRelNode failed")
	}
	_, fact, ok := attempt(h, kindByName("EQU-AddFact"), add.Node, 0)
	if !ok {
		t.Fatal("EQU-AddFact on the new node failed")
	}
	steps := []Step{add, fact}
	if _, _, applied := Replay(g, steps, []int{1}); len(applied) != 0 {
		t.Errorf("replay of the fact without its node applied %v", applied)
	}
	if _, e, applied := Replay(g, steps, []int{0, 1}); !slices.Equal(applied, []int{0, 1}) || e != datalog.Equal {
		t.Errorf("replay of both applied %v with %s", applied, e)
	}
	// A step on B, then the same step on a graph where B no longer reaches the output.
	_, con, ok := attempt(g, kindByName("CON-DelFact"), "A", 0)
	if !ok {
		t.Fatal("CON-DelFact on A failed")
	}
	cut := g.Clone()
	cut.Edges = slices.DeleteFunc(cut.Edges, func(e Edge) bool { return e.To == "O" || e.To == "B" || e.To == "I" || e.To == "M" || e.To == "Q" })
	clear(cut.Node("O").Heads)
	clear(cut.Node("B").Heads)
	clear(cut.Node("I").Heads)
	clear(cut.Node("M").Heads)
	clear(cut.Node("Q").Heads)
	if _, _, applied := Replay(cut, []Step{con}, []int{0}); len(applied) != 0 {
		t.Errorf("CON-DelFact replayed on a node of ancestry none")
	}
	// Subset then superset: the second does not compose and is skipped.
	_, exp, ok := attempt(g, kindByName("EXP-AddFact"), "A", 0)
	if !ok {
		t.Fatal("EXP-AddFact on A failed")
	}
	if _, e, applied := Replay(g, []Step{exp, con}, []int{0, 1}); !slices.Equal(applied, []int{0}) || e != datalog.Subset {
		t.Errorf("replay of EXP then CON applied %v with %s, want [0] with subset", applied, e)
	}
}

func TestStepString(t *testing.T) {
	g := mini(t)
	_, s, ok := attempt(g, kindByName("EQU-AddSelfEdge"), "B", 0)
	if !ok {
		t.Fatal("EQU-AddSelfEdge on B failed")
	}
	if got := s.String(); !strings.HasPrefix(got, "EQU-AddSelfEdge equal B#4 head B(") || !strings.Contains(got, " +B(") || strings.Contains(got, "\n") {
		t.Errorf("String() = %q", got)
	}
}

// mustProgram returns g's program.
func mustProgram(t testing.TB, g *Graph) *datalog.Program {
	t.Helper()
	p, err := g.Program()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
