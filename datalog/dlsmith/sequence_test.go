package dlsmith

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// randomGraph returns the generator's graph for a seed drawn from r.
func randomGraph(t testing.TB, r *rand.Rand) *Graph {
	t.Helper()
	g, err := Generate(DefaultOptions(), r.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// outputs evaluates the programs of two graphs on the reference engine.
func outputs(t testing.TB, a, b *Graph) (pa, pb *datalog.Program, oa, ob [][]string, err error) {
	t.Helper()
	var ma, mb *datalog.Model
	if pa, err = a.Program(); err != nil {
		return
	}
	if pb, err = b.Program(); err != nil {
		return
	}
	if ma, err = datalog.EvalContext(context.Background(), pa, 200000); err != nil {
		return
	}
	if mb, err = datalog.EvalContext(context.Background(), pb, 200000); err != nil {
		return
	}
	return pa, pb, ma.Output(), mb.Output(), nil
}

// sequencesEnv names the environment variable that sets the number of random sequences of
// TestSequenceRelationHolds.
const sequencesEnv = "DLSMITH_SEQUENCES"

// TestSequenceRelationHolds is the acceptance test of the transformations: random sequences of
// 1..100 steps on random graphs never break their composed relation on the reference engine, and
// every emitted program passes Program's checks (declarations, types, safety, stratification).
// It runs 1,000 sequences (about 4 s), or as many as DLSMITH_SEQUENCES says: 10,000, the
// acceptance figure, take 33 to 58 s on two loaded cores, too long for every run. It logs how
// often each transformation was applied and fails when one never was, or when too few outputs
// are non-empty or changed for the relations to be tested.
func TestSequenceRelationHolds(t *testing.T) {
	n := 1000
	if s := os.Getenv(sequencesEnv); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("%s=%q is not a positive number; set it to the number of sequences, e.g. 10000", sequencesEnv, s)
		}
		n = v
	}
	seed := testenv.Seed(t)
	o := DefaultOptions()
	applied := map[string]int{}
	var exp [4]int
	var limited, steps, nonEmpty, strict int
	var evalTime time.Duration
	start := time.Now()
	for i := range n {
		r := rand.New(rand.NewPCG(seed, uint64(i)))
		g := randomGraph(t, r)
		trans, expect, ss, err := Sequence(g, o, r)
		if err != nil {
			t.Fatalf("sequence %d: %v", i, err)
		}
		exp[expect]++
		steps += len(ss)
		for _, s := range ss {
			applied[s.Name]++
		}
		t0 := time.Now()
		pa, pb, oa, ob, err := outputs(t, g, trans)
		evalTime += time.Since(t0)
		if errors.Is(err, datalog.ErrTupleLimit) {
			limited++
			continue
		}
		if err != nil {
			t.Fatalf("sequence %d: %v", i, err)
		}
		if len(oa) > 0 {
			nonEmpty++
		}
		if !datalog.Equal.Holds(oa, ob) {
			strict++
		}
		if !expect.Holds(oa, ob) {
			var lines []string
			for _, s := range ss {
				lines = append(lines, s.String())
			}
			blame := "no semantic rollback"
			if sem, err := (&Culprits{Orig: g, Steps: ss}).Semantic(expect); err == nil {
				blame = sem.String()
			}
			t.Fatalf("sequence %d (seed %d): %s does not hold\noriginal:\n%s\ntransformed:\n%s\nsteps:\n%s\noutputs %v / %v\n%s",
				i, seed, expect, pa, pb, strings.Join(lines, "\n"), oa, ob, blame)
		}
	}
	t.Logf("%d sequences in %v (%v evaluating), %d steps applied, %d over the tuple limit; equal %d, subset %d, superset %d; "+
		"%d original outputs not empty, %d transformed outputs differ",
		n, time.Since(start).Round(time.Millisecond), evalTime.Round(time.Millisecond), steps, limited,
		exp[datalog.Equal], exp[datalog.Subset], exp[datalog.Superset], nonEmpty, strict)
	if nonEmpty < n/3 || strict < n/10 {
		t.Errorf("only %d of %d original outputs are not empty and %d transformed outputs differ: the relations are hardly tested", nonEmpty, n, strict)
	}
	for _, name := range Transformations() {
		t.Logf("%-16s %d", name, applied[name])
		if applied[name] == 0 && n >= 1000 {
			t.Errorf("%s was never applied in %d sequences", name, n)
		}
	}
	if limited > n/100 {
		t.Errorf("%d of %d sequences went over the tuple limit", limited, n)
	}
}

// TestReplay checks that replaying every step gives Sequence's program and relation, and that
// replaying a subset is deterministic and keeps its composed relation on the reference engine.
func TestReplay(t *testing.T) {
	seed := testenv.Seed(t)
	o := DefaultOptions()
	subsets := 0
	for i := range 200 {
		r := rand.New(rand.NewPCG(seed, uint64(i)))
		g := randomGraph(t, r)
		trans, expect, steps, err := Sequence(g, o, r)
		if err != nil {
			t.Fatal(err)
		}
		all := make([]int, len(steps))
		for j := range all {
			all[j] = j
		}
		again, e, applied := Replay(g, steps, all)
		if !slices.Equal(applied, all) || e != expect {
			t.Fatalf("sequence %d: replay applied %v of %d steps with %s, want all with %s", i, applied, len(steps), e, expect)
		}
		pa, _ := trans.Program()
		pb, _ := again.Program()
		if pa.String() != pb.String() {
			t.Fatalf("sequence %d: replay gives\n%s\nwant\n%s", i, pb, pa)
		}
		var keep []int
		for j := range steps {
			if r.IntN(2) == 0 {
				keep = append(keep, j)
			}
		}
		h1, e1, a1 := Replay(g, steps, keep)
		h2, e2, a2 := Replay(g, steps, keep)
		p1, _ := h1.Program()
		p2, _ := h2.Program()
		if e1 != e2 || !slices.Equal(a1, a2) || p1.String() != p2.String() {
			t.Fatalf("sequence %d: two replays of %v differ", i, keep)
		}
		if len(a1) < len(keep) {
			subsets++
		}
		for _, j := range a1 {
			if !slices.Contains(keep, j) {
				t.Fatalf("sequence %d: replay applied step %d, not in %v", i, j, keep)
			}
		}
		_, _, oa, ob, err := outputs(t, g, h1)
		if errors.Is(err, datalog.ErrTupleLimit) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !e1.Holds(oa, ob) {
			t.Fatalf("sequence %d: replay of %v: %s does not hold: %v / %v", i, a1, e1, oa, ob)
		}
	}
	t.Logf("%d of 200 subset replays skipped a step", subsets)
}

// TestSequenceDeterministic checks that the same graph, options and seed give the same steps and
// program, and that Sequence leaves its graph alone.
func TestSequenceDeterministic(t *testing.T) {
	for i := range 20 {
		g := randomGraph(t, rand.New(rand.NewPCG(7, uint64(i))))
		before, _ := g.Program()
		var got []string
		for range 2 {
			trans, e, steps, err := Sequence(g, DefaultOptions(), rand.New(rand.NewPCG(1, uint64(i))))
			if err != nil {
				t.Fatal(err)
			}
			p, _ := trans.Program()
			var b strings.Builder
			b.WriteString(e.String() + "\n" + p.String())
			for _, s := range steps {
				b.WriteString(s.String() + "\n")
			}
			got = append(got, b.String())
		}
		if got[0] != got[1] {
			t.Fatalf("graph %d: two sequences with the same seed differ:\n%s\n---\n%s", i, got[0], got[1])
		}
		if after, _ := g.Program(); after.String() != before.String() {
			t.Fatalf("graph %d: Sequence changed its graph", i)
		}
	}
}

func TestCompose(t *testing.T) {
	eq, sub, sup := datalog.Equal, datalog.Subset, datalog.Superset
	for _, c := range []struct {
		a, b datalog.Expect
		want datalog.Expect
		ok   bool
	}{
		{eq, eq, eq, true}, {eq, sub, sub, true}, {sub, eq, sub, true}, {eq, sup, sup, true},
		{sup, eq, sup, true}, {sub, sub, sub, true}, {sup, sup, sup, true},
		{sub, sup, 0, false}, {sup, sub, 0, false}, {0, eq, 0, false}, {eq, 0, 0, false},
	} {
		if got, ok := Compose(c.a, c.b); got != c.want || ok != c.ok {
			t.Errorf("Compose(%s, %s) = %s, %v; want %s, %v", c.a, c.b, got, ok, c.want, c.ok)
		}
	}
}

func TestSequenceBadOptions(t *testing.T) {
	o := DefaultOptions()
	o.Steps = Range{Min: 0, Max: 3}
	if _, _, _, err := Sequence(toy(), o, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "steps") {
		t.Errorf("steps=0..3: error %v, want one naming steps", err)
	}
	g := toy()
	g.Output = "missing"
	if _, _, _, err := Sequence(g, DefaultOptions(), rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing output: error %v, want one naming the node", err)
	}
}

// BenchmarkSequence measures Sequence on the generator's graphs: with sequences of 1..100 steps
// (DLSmith's), the time per transformed graph and per step applied; with one step, the time per
// step including the copy and checks of the graph.
func BenchmarkSequence(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	graphs := make([]*Graph, 64)
	for i := range graphs {
		graphs[i] = randomGraph(b, r)
	}
	for _, steps := range []Range{{Min: 1, Max: 100}, {Min: 1, Max: 1}} {
		o := DefaultOptions()
		o.Steps = steps
		b.Run("steps="+steps.String(), func(b *testing.B) {
			applied, i := 0, 0
			for b.Loop() {
				_, _, ss, err := Sequence(graphs[i%len(graphs)], o, rand.New(rand.NewPCG(3, uint64(i))))
				if err != nil {
					b.Fatal(err)
				}
				applied += len(ss)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "graphs/s")
			b.ReportMetric(float64(applied)/float64(b.N), "steps/graph")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(max(applied, 1)), "ns/step")
		})
	}
}

// TestValidAgreesWithProgram checks the fast validity test of the steps against Program's checks
// on valid and broken graphs.
func TestValidAgreesWithProgram(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Graph)
	}{
		{"valid", func(*Graph) {}},
		{"negative cycle", func(g *Graph) {
			g.Node("C").Heads[2] = []datalog.Term{x, y, y}
			g.AddRelEdge(Edge{From: "A", To: "C", Rule: 2, Args: []datalog.Term{x, y}})
			g.AddRelEdge(Edge{From: "B", To: "C", Rule: 2, Args: []datalog.Term{x, y}})
		}},
		{"edge without head", func(g *Graph) {
			g.AddRelEdge(Edge{From: "A", To: "C", Rule: 7, Args: []datalog.Term{x, y}})
		}},
		{"unsafe head", func(g *Graph) { g.Node("B").Heads[1] = []datalog.Term{x, z} }},
		{"unsafe negation", func(g *Graph) {
			g.AddRelEdge(Edge{From: "C", To: "B", Rule: 1, Negated: true, Args: []datalog.Term{x, y, z}})
		}},
		{"arity", func(g *Graph) { g.Edges[0].Args = []datalog.Term{x} }},
		{"variable of two types", func(g *Graph) {
			g.AddRelNode(&Node{Name: "T", Attrs: []datalog.Attr{{Name: "a", Type: datalog.Symbol}}, Facts: [][]datalog.Term{{datalog.S("s")}}})
			g.AddRelEdge(Edge{From: "T", To: "B", Rule: 1, Args: []datalog.Term{x}})
		}},
		{"fact of the wrong type", func(g *Graph) { g.Node("A").Facts[0][0] = datalog.S("s") }},
		{"missing output", func(g *Graph) { g.Output = "Z" }},
		{"edge from a missing node", func(g *Graph) { g.AddRelEdge(Edge{From: "Z", To: "B", Rule: 1, Args: []datalog.Term{x}}) }},
	} {
		g := toy()
		c.edit(g)
		_, err := g.Program()
		if got := valid(g, nil, true); got != (err == nil) {
			t.Errorf("%s: valid = %v, Program's error %v", c.name, got, err)
		}
	}
}
