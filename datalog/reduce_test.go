package datalog

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// chainProg derives path(1, 9) along a chain of edges, among unrelated edges and rules.
const chainProg = `.decl edge(x: number, y: number)
.decl path(x: number, y: number)
.decl other(x: number)
.output path
edge(1, 2).
edge(2, 3).
edge(3, 9).
edge(5, 6).
edge(6, 7).
edge(7, 8).
edge(8, 5).
edge(4, 4).
other(3).
other(7).
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z).
path(x, x) :- other(x).
`

// missingEngine is a faulty engine: the reference's answer without path(1, 9). keep reports a
// finding while the reference derives path(1, 9) (which the engine misses).
func missingEngine(t *testing.T, text string) [][]string {
	t.Helper()
	p, err := Parse("p.dl", text)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(m.Output(), func(r []string) bool { return slices.Equal(r, []string{"path", "i:1", "i:9"}) })
}

func TestReducerFindsTheProof(t *testing.T) {
	c := &fuzz.Case{Domain: "datalog", Queries: []fuzz.Query{{Role: RoleOrig, Text: chainProg}}}
	keep := func(_ context.Context, c *fuzz.Case) bool {
		p, err := Parse("p.dl", c.Queries[0].Text)
		if err != nil {
			t.Fatalf("candidate does not parse: %v", err)
		}
		m, err := Eval(p)
		return err == nil && m.Contains(Tuple{Rel: "path", Args: []Term{N(1), N(9)}})
	}
	evidence := &fuzz.Finding{Case: c, Runs: []fuzz.Run{
		{Target: "faulty", Results: []*fuzz.Result{{Status: fuzz.StatusOK, Rows: missingEngine(t, chainProg)}}}}}
	want := []string{"edge(1, 2).", "edge(2, 3).", "edge(3, 9).", "path(x, y) :- edge(x, y).", "path(x, z) :- path(x, y), edge(y, z)."}
	var guided, plain ReduceStats
	for _, tc := range []struct {
		name string
		r    *Reducer
		st   *ReduceStats
	}{{"guided", &Reducer{Stats: &guided}, &guided}, {"plain", &Reducer{Plain: true, Stats: &plain}, &plain}} {
		t.Run(tc.name, func(t *testing.T) {
			red, err := tc.r.ReduceGuided(context.Background(), c.Clone(), evidence, keep)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Parse("reduced.dl", red.Queries[0].Text)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range p.Rules {
				got = append(got, r.String())
			}
			if !slices.Equal(got, want) {
				t.Errorf("reduced to\n%s\nwant the proof's clauses\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if p.Relation("other") != nil {
				t.Errorf("unused relation other kept")
			}
			if tc.st.Before != 13 || tc.st.After != 5 {
				t.Errorf("stats %+v", *tc.st)
			}
			t.Logf("%s: %d engine runs", tc.name, tc.st.EngineRuns)
		})
	}
	if !guided.Guided || guided.Focus != "path(1, 9)" || guided.EngineRuns >= plain.EngineRuns {
		t.Errorf("guided %+v should focus on path(1, 9) and need fewer engine runs than plain %+v", guided, plain)
	}
}

// TestReducerKeepsThePair reduces a transformation pair: the shared clauses go from both programs,
// the transformed rule stays, and a candidate whose reference answers break the expected relation
// is never run on the engine.
func TestReducerKeepsThePair(t *testing.T) {
	orig := "// original\n" + chainProg
	trans := "// transformed\n" + strings.Replace(chainProg, "path(x, z) :- path(x, y), edge(y, z).",
		"path(x, z) :- path(x, y), edge(y, z), edge(w, z).", 1)
	c := &fuzz.Case{Domain: "datalog", Queries: []fuzz.Query{{Role: RoleOrig, Text: orig}, {Role: RoleTrans, Text: trans}},
		Params: map[string]string{ParamExpect: "equal"}}
	var runs int
	keep := func(_ context.Context, c *fuzz.Case) bool {
		runs++
		if !strings.HasPrefix(c.Queries[1].Text, "// transformed\n") {
			t.Fatalf("the header comment is lost:\n%s", c.Queries[1].Text)
		}
		// The faulty engine answers the transformed program without its first tuple.
		return len(missingEngine(t, c.Queries[1].Text)) > 0
	}
	var st ReduceStats
	red, err := (&Reducer{Stats: &st}).Reduce(context.Background(), c, keep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(red.Queries[1].Text, "edge(w, z)") || strings.Contains(red.Queries[0].Text, "edge(w, z)") {
		t.Errorf("the transformation is lost:\n%s\n%s", red.Queries[0].Text, red.Queries[1].Text)
	}
	if runs != st.EngineRuns || st.RefRuns < st.EngineRuns {
		t.Errorf("keep ran %d times, stats %+v", runs, st)
	}
	rules := strings.Count(red.Queries[0].Text, ".\n") - 3 // minus .decl/.output lines without a dot
	if st.After > 6 {
		t.Errorf("reduced pair keeps %d clauses (%d in the original):\n%s\n%s", st.After, rules, red.Queries[0].Text, red.Queries[1].Text)
	}
}

// TestReducerDropsLiterals shrinks the body of a kept rule to the literals the finding needs.
func TestReducerDropsLiterals(t *testing.T) {
	src := `.decl e(x: number, y: number)
.decl f(x: number)
.decl out(x: number)
.output out
e(1, 1).
e(1, 2).
f(3).
out(x) :- e(x, y), e(y, y), x != 7, !f(x), e(x, _).
`
	c := &fuzz.Case{Domain: "datalog", Queries: []fuzz.Query{{Role: RoleOrig, Text: src}}}
	keep := func(_ context.Context, c *fuzz.Case) bool {
		p, err := Parse("p.dl", c.Queries[0].Text)
		if err != nil {
			t.Fatalf("candidate does not parse: %v", err)
		}
		m, err := Eval(p)
		return err == nil && m.Contains(Tuple{Rel: "out", Args: []Term{N(1)}})
	}
	var st ReduceStats
	red, err := (&Reducer{Stats: &st}).Reduce(context.Background(), c, keep)
	if err != nil {
		t.Fatal(err)
	}
	want := ".decl e(x: number, y: number)\n.decl out(x: number)\n.output out\ne(1, 1).\nout(x) :- e(x, _).\n"
	if red.Queries[0].Text != want {
		t.Errorf("reduced to\n%s\nwant\n%s", red.Queries[0].Text, want)
	}
	if st.Literals != 1 {
		t.Errorf("stats %+v, want 1 literal left", st)
	}
}
