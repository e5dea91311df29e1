package smtgen

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// fusionCases generates n fusion cases over the project's seeds with random models.
func fusionCases(t *testing.T, o FusionOptions, n int) []*fuzz.Case {
	t.Helper()
	g, err := NewFusion(o, loadTestSeeds(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []*fuzz.Case
	for i := range n {
		c, err := g.Generate(fuzz.CaseSeed(3, uint64(i), g.CasesPerSetup()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// TestFusionCertified checks every fusion case: it reads back, a SAT fusion is true under its
// stored model and an UNSAT fusion's certificate holds; generation is deterministic; and both
// modes and several fusion functions occur.
func TestFusionCertified(t *testing.T) {
	o := FusionOptions{Mutants: 10}
	cases := fusionCases(t, o, 120)
	again := fusionCases(t, o, 120)
	modes := map[string]int{}
	funcs := map[string]int{}
	for i, c := range cases {
		a, _ := json.Marshal(c)
		b, _ := json.Marshal(again[i])
		if string(a) != string(b) {
			t.Fatalf("case %d is not deterministic", i)
		}
		if c.Gen != o.String() {
			t.Fatalf("case %d: gen %q, want %q", i, c.Gen, o.String())
		}
		mode, _, _ := strings.Cut(c.Params[ParamFusion], ":")
		modes[mode]++
		for _, f := range []string{"(+ ", "(* ", "(bvxor ", "(bvadd ", "(bvsub ", "(str.++ "} {
			if strings.Contains(c.Params[ParamFusion], "="+f) {
				funcs[f]++
			}
		}
		cl := c.Clone() // read from the text, not the generator's memo
		p, err := readCase(cl)
		if err != nil {
			t.Fatalf("case %d does not read back: %v\n%s", i, err, c.Queries[0].Text)
		}
		m, err := ParseModelText(c.Params[ParamModel], p.env)
		if err != nil {
			t.Fatalf("case %d: model: %v", i, err)
		}
		if c.Params[ParamExpect] == ExpectUnsat {
			if _, err := certifyUnsat(cl, 0); err != nil {
				t.Fatalf("case %d: unsat certificate: %v\n%s", i, err, c.Queries[0].Text)
			}
		} else if _, err := p.certify(m, 0); err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, c.Queries[0].Text)
		}
	}
	t.Logf("modes %v, fusion functions %v", modes, funcs)
	if modes["SAT fusion"] == 0 || modes["UNSAT fusion"] == 0 || len(funcs) < 3 {
		t.Errorf("modes %v, fusion functions %v: want both modes and at least 3 functions", modes, funcs)
	}
}

// TestFusionOptions checks that options print and parse back, and that bad ones are refused
// naming the key.
func TestFusionOptions(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"fusion{}", DefaultFusionOptions().String(), ""},
		{"fusion{pairs=3 funcs=xor,mul unsat=0}", "fusion{pairs=3 unsat=0 funcs=xor,mul asserts=16 mutants=100 models=both}", ""},
		{"fusion{funcs=pow}", "", "fusion function"},
		{"fusion{pairs=0}", "", "pairs"},
		{"storm{}", "", "want fusion{"},
	} {
		o, err := ParseFusionOptions(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one naming %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || o.String() != tc.want):
			t.Errorf("%s: %v, %v; want %s", tc.in, o, err, tc.want)
		}
	}
}

// TestFusionSolved runs z3 on fusion cases and on STORM's unsat-by-construction instances: a
// sat instance must not be unsat and an unsat one must not be sat (z3 4.8.12 has no known bug on
// these instances).
func TestFusionSolved(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	ask := execAsk(solverCommands["z3"])
	g, err := New(Options{Mutants: 4, Unsat: 60, Incremental: -1}, loadTestSeeds(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := fusionCases(t, FusionOptions{Mutants: 3}, 40)
	for i := range 40 {
		c, err := g.Generate(fuzz.CaseSeed(5, uint64(i), g.CasesPerSetup()))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	got := map[string]int{}
	for i, c := range cases {
		out, err := ask(context.Background(), c.Queries[0].Text)
		if err != nil {
			t.Fatal(err)
		}
		ans, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
		want := "sat"
		if c.Params[ParamExpect] == ExpectUnsat {
			want = "unsat"
		}
		style, _, _ := strings.Cut(c.Gen, "{")
		if ans == "sat" || ans == "unsat" {
			got[style+" "+want+"->"+ans]++
			if ans != want {
				t.Errorf("case %d (%s %s): z3 says %s, want %s\n%s", i, style, c.Params[ParamFusion], ans, want, c.Queries[0].Text)
			}
		}
	}
	t.Logf("answers %v", got)
	for _, k := range []string{"fusion sat->sat", "fusion unsat->unsat", "storm unsat->unsat", "storm sat->sat"} {
		if got[k] == 0 {
			t.Errorf("answers %v: none %s", got, k)
		}
	}
}
