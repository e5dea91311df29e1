package smtgen

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestUnsatByConstruction generates STORM cases with Unsat on: the unsat ones carry expect=unsat
// and a certificate that holds, only plain pools make them, and the sat cases of the same seeds
// are the cases a generator without Unsat makes.
func TestUnsatByConstruction(t *testing.T) {
	seeds := loadTestSeeds(t)
	g, err := New(Options{Mutants: 10, Unsat: 50}, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := New(Options{Mutants: 10}, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	unsat := 0
	for i := range 300 {
		s := fuzz.CaseSeed(9, uint64(i), g.CasesPerSetup())
		c, err := g.Generate(s)
		if err != nil {
			t.Fatal(err)
		}
		if c.Params[ParamExpect] != ExpectUnsat {
			d, _ := plain.Generate(s)
			if d.Queries[0].Text != c.Queries[0].Text {
				t.Fatalf("seed %d: the sat case differs from the one without unsat instances", s)
			}
			continue
		}
		unsat++
		if c.Params[ParamMode] != "plain" {
			t.Fatalf("seed %d: unsat instance in mode %s", s, c.Params[ParamMode])
		}
		if _, err := certifyUnsat(c.Clone(), 0); err != nil {
			t.Fatalf("seed %d: %v\n%s\n%s", s, err, c.Queries[0].Text, c.Params[ParamModel])
		}
	}
	// Half the pools are plain and half of their cases are drawn unsat; seeds with quantifiers,
	// arrays or uninterpreted sorts refuse the construction.
	if unsat < 20 {
		t.Errorf("%d unsat instances of 300, want at least 20", unsat)
	}
	if got := (Options{}).String(); strings.Contains(got, "unsat") {
		t.Errorf("default options %s print unsat: stored options would change", got)
	}
	if o, err := ParseOptions(Options{Unsat: 20}.String()); err != nil || o.Unsat != 20 {
		t.Errorf("unsat=20 reads back as %+v, %v", o, err)
	}
}

// TestUnsatOracle feeds the sat oracle answers on a hand-written instance unsatisfiable by
// construction: sat is a finding, unsat is right, and an instance whose certificate fails (a pin
// dropped, or a pin that its model contradicts) is skipped.
func TestUnsatOracle(t *testing.T) {
	head := "(set-logic QF_UFLIA)\n(declare-fun x () Int)\n(declare-fun f (Int) Int)\n"
	full := "(assert (> (f x) 7))\n(assert (= x 1))\n(assert (= (f x) 5))\n(check-sat)"
	model := "(define-fun x () Int 1)\n(define-fun f ((x!0 Int)) Int 5)\n"
	mk := func(body, model string) *fuzz.Case {
		return &fuzz.Case{Domain: "smt", Seed: 1, Queries: []fuzz.Query{{Role: RoleInstance, Text: head + body}},
			Params: map[string]string{ParamModel: model, ParamLogic: "QF_UFLIA", ParamMode: "plain", ParamExpect: ExpectUnsat}}
	}
	run := func(answer string) []fuzz.Run {
		return []fuzz.Run{{Target: "z3", Results: []*fuzz.Result{{Status: fuzz.StatusOK, Rows: [][]string{{answer}}}}}}
	}
	for _, tc := range []struct {
		name, answer, body, model, title, skip string
	}{
		{"sat on a certified unsat instance", "sat", full, model, "sat: z3: sat on an unsatisfiable qf_uflia instance", ""},
		{"unsat is right", "unsat", full, model, "", ""},
		{"application not pinned", "sat", strings.Replace(full, "(assert (= (f x) 5))\n", "", 1), model, "", "uncertified"},
		{"constant not pinned", "sat", strings.Replace(full, "(assert (= x 1))\n", "", 1), model, "", "uncertified"},
		{"no assertion false", "sat", full, strings.Replace(model, "Int 5", "Int 9", 1), "", "uncertified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := SatOracle{}.Check(mk(tc.body, tc.model), run(tc.answer))
			if v.Skip != tc.skip {
				t.Fatalf("skip %q, want %q", v.Skip, tc.skip)
			}
			switch {
			case tc.title == "" && v.Finding != nil:
				t.Fatalf("unexpected finding %s", v.Finding.Title)
			case tc.title != "" && (v.Finding == nil || v.Finding.Title != tc.title):
				t.Fatalf("verdict %+v, want %q", v, tc.title)
			}
		})
	}
}
