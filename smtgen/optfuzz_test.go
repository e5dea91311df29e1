package smtgen

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestOptionFuzzer generates option-fuzzing cases: each instance starts with 1 to Settings
// options of the model at values other than their defaults, the default query restores every
// option after a reset and then solves the same instance, RebuildOptionCase rebuilds that query and
// the options from the instance alone, generation is deterministic and options unknown to the solver are left out.
func TestOptionFuzzer(t *testing.T) {
	seeds := loadTestSeeds(t)
	defaults := map[string]string{}
	for _, o := range OptionModels["z3"][1:] { // the solver "does not know" the first option
		defaults[o.Name] = o.Values[0]
	}
	first := OptionModels["z3"][0].Name
	g, err := NewOptionFuzzer(OptionOptions{Solver: "z3", Settings: 4, Storm: Options{Mutants: 10, MaxAsserts: 8}}, seeds, nil, defaults)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]int{}
	for i := range 200 {
		s := fuzz.CaseSeed(3, uint64(i), g.CasesPerSetup())
		c, err := g.Generate(s)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(c.Params[ParamOptions], "\n")
		counts[len(lines)]++
		for _, l := range lines {
			f := strings.Fields(strings.Trim(l, "()"))
			if len(f) != 3 || f[0] != "set-option" || defaults[f[1][1:]] == "" || defaults[f[1][1:]] == f[2] {
				t.Fatalf("seed %d: option line %q: want a known option at a value other than its default", s, l)
			}
		}
		if strings.Contains(c.Queries[0].Text, first) {
			t.Fatalf("seed %d: sets %s, which the solver does not know", s, first)
		}
		inst, _ := c.Query(RoleInstance)
		def, ok := c.Query(RoleDefault)
		if !ok || !strings.HasPrefix(def, "(reset)\n"+c.Params[ParamOptionDefaults]+"\n") ||
			!strings.HasSuffix(def, strings.TrimPrefix(inst, c.Params[ParamOptions]+"\n")) {
			t.Fatalf("seed %d: default query\n%s\ndoes not restore the options and solve\n%s", s, def, inst)
		}
		d := c.Clone()
		d.Queries = d.Queries[:len(d.Queries)-1]
		d.Params[ParamOptions] += "\n(set-option :smt.not_in_the_instance 1)"
		RebuildOptionCase(d)
		if q, _ := d.Query(RoleDefault); q != def || len(d.Queries) != len(c.Queries) || d.Params[ParamOptions] != c.Params[ParamOptions] {
			t.Fatalf("seed %d: RebuildOptionCase gives %v, options %q; want the default query and options %q", s, d.Queries, d.Params[ParamOptions], c.Params[ParamOptions])
		}
		if _, err := readCase(c); err != nil {
			t.Fatalf("seed %d: %v", s, err)
		}
		if d, _ := g.Generate(s); d.Queries[0].Text != c.Queries[0].Text {
			t.Fatalf("seed %d: not deterministic", s)
		}
		if o, err := ParseOptionOptions(c.Gen); err != nil || o.String() != c.Gen {
			t.Fatalf("seed %d: Gen %q does not read back: %v", s, c.Gen, err)
		}
	}
	for k := 1; k <= 4; k++ {
		if counts[k] == 0 {
			t.Errorf("no instance sets %d options: %v", k, counts)
		}
	}
	if _, err := NewOptionFuzzer(OptionOptions{Solver: "cvc5"}, seeds, nil, map[string]string{}); err == nil {
		t.Error("an option fuzzer over a solver that knows none of its options")
	}
	if _, err := ParseOptionOptions("options{solver=yices}"); err == nil || !strings.Contains(err.Error(), "bitwuzla, cvc5, z3") {
		t.Errorf("solver without option model: %v", err)
	}
}

// TestOptionsOracle feeds the options oracle known answers: sat against unsat is a finding in
// either direction, unknown and equal answers are not, a rejected option is a skipped check.
func TestOptionsOracle(t *testing.T) {
	c := &fuzz.Case{Domain: "smt", Queries: []fuzz.Query{{Role: RoleInstance, Text: "(set-option :smt.relevancy 0)\n(check-sat)"},
		{Role: RoleModel, Text: "(get-value (x))"}, {Role: RoleDefault, Text: "(reset)\n(check-sat)"}},
		Params: map[string]string{ParamLogic: "QF_LIA", ParamOptions: "(set-option :smt.relevancy 0)"}}
	ans := func(a ...string) *fuzz.Result {
		r := &fuzz.Result{Status: fuzz.StatusOK}
		for _, x := range a {
			r.Rows = append(r.Rows, []string{x})
		}
		return r
	}
	failed := &fuzz.Result{Status: fuzz.StatusEngineError, Err: "unknown parameter"}
	for _, tc := range []struct {
		name        string
		inst, def   *fuzz.Result
		title, skip string
		storm       bool
	}{
		{"same answers", ans("sat"), ans("sat"), "", "", false},
		{"unsat with options", ans("sat", "unsat"), ans("sat", "sat"), "options: z3: unsat with options, sat with defaults on a qf_lia instance", "", false},
		{"sat with options", ans("sat"), ans("unsat"), "options: z3: sat with options, unsat with defaults on a qf_lia instance", "", false},
		{"unknown", ans("unknown"), ans("unsat"), "", "", false},
		{"option rejected", failed, ans("sat"), "", "option-rejected", false},
		{"no default query", ans("sat"), nil, "", "no-default-query", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cc := c
			results := []*fuzz.Result{tc.inst, ans(), tc.def}
			if tc.storm {
				cc = c.Clone()
				cc.Queries = cc.Queries[:2]
				results = results[:2]
			}
			v := OptionsOracle{}.Check(cc, []fuzz.Run{{Target: "z3", Results: results}})
			if v.Skip != tc.skip {
				t.Fatalf("skip %q, want %q", v.Skip, tc.skip)
			}
			got := ""
			if v.Finding != nil {
				got = v.Finding.Title
				if v.Finding.Kind != fuzz.KindWrongResult || !strings.Contains(v.Finding.Actual, "smt.relevancy 0") {
					t.Errorf("finding %+v", v.Finding)
				}
			}
			if got != tc.title {
				t.Fatalf("finding %q, want %q", got, tc.title)
			}
		})
	}
}
