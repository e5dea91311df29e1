package dlsmith

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
)

var (
	x, y, z = datalog.V("x"), datalog.V("y"), datalog.V("z")
	num     = []datalog.Attr{{Name: "a", Type: datalog.Number}, {Name: "b", Type: datalog.Number}}
)

// toy returns the graph of the thesis's Fig. 4.3 as a program:
//
//	A(1,2). A(2,3). A(3,4).
//	C(x,y,z) :- A(x,y), A(y,z).
//	B(x,y) :- A(x,y), B(x,y).
//	B(x,y) :- A(x,y), !C(x,y,y).
func toy() *Graph {
	g := &Graph{Output: "B"}
	g.AddRelNode(&Node{Name: "A", Attrs: num, Facts: [][]datalog.Term{
		{datalog.N(1), datalog.N(2)}, {datalog.N(2), datalog.N(3)}, {datalog.N(3), datalog.N(4)}}})
	g.AddRelNode(&Node{Name: "B", Attrs: num})
	g.AddRelNode(&Node{Name: "C", Attrs: append(num, datalog.Attr{Name: "c", Type: datalog.Number})})
	g.Node("C").Heads[1] = []datalog.Term{x, y, z}
	g.Node("B").Heads[1] = []datalog.Term{x, y}
	g.Node("B").Heads[2] = []datalog.Term{x, y}
	g.AddRelEdge(Edge{From: "A", To: "C", Rule: 1, Args: []datalog.Term{x, y}})
	g.AddRelEdge(Edge{From: "A", To: "C", Rule: 1, Args: []datalog.Term{y, z}})
	g.AddRelEdge(Edge{From: "A", To: "B", Rule: 1, Args: []datalog.Term{x, y}})
	g.AddRelEdge(Edge{From: "B", To: "B", Rule: 1, Args: []datalog.Term{x, y}})
	g.AddRelEdge(Edge{From: "A", To: "B", Rule: 2, Args: []datalog.Term{x, y}})
	g.AddRelEdge(Edge{From: "C", To: "B", Rule: 2, Negated: true, Args: []datalog.Term{x, y, y}})
	return g
}

func TestAnnotate(t *testing.T) {
	g := toy()
	g.AddRelNode(&Node{Name: "D", Attrs: num[:1]})
	g.Annotate()
	for _, c := range []struct {
		node     string
		stratum  int
		ancestry Ancestry
	}{
		{"A", 1, Mixed},
		{"B", 0, Positive},
		{"C", 1, Negative},
		{"D", 0, None},
	} {
		n := g.Node(c.node)
		if n.Stratum != c.stratum || n.Ancestry != c.ancestry {
			t.Errorf("%s: stratum %d ancestry %s, want %d %s", c.node, n.Stratum, n.Ancestry, c.stratum, c.ancestry)
		}
	}
	if a := g.Ancestors("B"); !a["A"] || !a["C"] || !a["B"] || a["D"] {
		t.Errorf("ancestors of B = %v", a)
	}
	if d := g.Descendants("C"); !d["B"] || d["A"] || d["C"] {
		t.Errorf("descendants of C = %v", d)
	}
}

func TestProgram(t *testing.T) {
	g := toy()
	p, err := g.Program()
	if err != nil {
		t.Fatal(err)
	}
	want := `.decl A(a: number, b: number)
.decl B(a: number, b: number)
.decl C(a: number, b: number, c: number)
.output B
A(1, 2).
A(2, 3).
A(3, 4).
B(x, y) :- A(x, y), B(x, y).
B(x, y) :- A(x, y), !C(x, y, y).
C(x, y, z) :- A(x, y), A(y, z).
`
	if got := p.String(); got != want {
		t.Errorf("program:\n%s\nwant:\n%s", got, want)
	}
	m, err := datalog.Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(m.Output()); got != 3 {
		t.Errorf("output has %d tuples, want 3 (the facts of A, none with x = y)", got)
	}

	bad := []struct {
		name string
		edit func(*Graph)
		want string
	}{
		{"negative cycle", func(g *Graph) {
			g.Node("C").Heads[2] = []datalog.Term{x, y, y}
			g.AddRelEdge(Edge{From: "A", To: "C", Rule: 2, Args: []datalog.Term{x, y}})
			g.AddRelEdge(Edge{From: "B", To: "C", Rule: 2, Args: []datalog.Term{x, y}})
		}, "negat"},
		{"edge without head", func(g *Graph) {
			g.AddRelEdge(Edge{From: "A", To: "C", Rule: 7, Args: []datalog.Term{x, y}})
		}, "no head"},
		{"unsafe head", func(g *Graph) {
			g.Node("B").Heads[1] = []datalog.Term{x, z}
		}, "not bound"},
	}
	for _, c := range bad {
		h := toy()
		c.edit(h)
		if _, err := h.Program(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestSeedPassesThrough(t *testing.T) {
	seed, err := datalog.Parse("seed.dl", `.decl e(a: number, b: number)
.decl tc(a: number, b: number)
.input e
.output tc
e(1, 2). e(2, 3).
tc(x, y) :- e(x, y).
tc(x, z) :- tc(x, y), e(y, z), x != z.
`)
	if err != nil {
		t.Fatal(err)
	}
	g := FromSeed(seed)
	g.AddRelNode(&Node{Name: "out", Attrs: num[:1]})
	g.Node("out").Heads[1] = []datalog.Term{x}
	g.AddRelEdge(Edge{From: "tc", To: "out", Rule: 1, Args: []datalog.Term{x, x}})
	g.Output = "out"
	p, err := g.Program()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{".input e", "tc(x, z) :- tc(x, y), e(y, z), x != z.", "out(x) :- tc(x, x)."} {
		if !strings.Contains(p.String(), line) {
			t.Errorf("program lacks %q:\n%s", line, p)
		}
	}
	if strings.Contains(p.String(), ".output tc") {
		t.Errorf("a seed relation stayed an output:\n%s", p)
	}
}
