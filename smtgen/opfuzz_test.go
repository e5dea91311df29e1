package smtgen

import (
	"strings"
	"sync"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestMutantsReadBack generates opfuzz and typefuzz mutants of every project seed: each reads back
// and sort-checks, differs from its seed, asserts as many formulas as the seed, and generation is
// deterministic. Opfuzz must use operators outside the seed's, typefuzz new applications.
func TestMutantsReadBack(t *testing.T) {
	seeds := loadTestSeeds(t)
	for _, style := range []string{StyleOpFuzz, StyleTypeFuzz} {
		t.Run(style, func(t *testing.T) {
			g, err := NewMutator(MutationOptions{Style: style, Mutants: 10}, seeds)
			if err != nil {
				t.Fatal(err)
			}
			bySeed := map[string]bool{}
			changed := 0
			for i := range 400 {
				s := fuzz.CaseSeed(11, uint64(i), g.CasesPerSetup())
				c, err := g.Generate(s)
				if err != nil {
					t.Fatalf("seed %d: %v", s, err)
				}
				p, err := readCase(c)
				if err != nil {
					t.Fatalf("seed %d: mutant does not read back: %v\n%s", s, err, c.Queries[0].Text)
				}
				if m := c.Memo.(*memo); len(m.p.checks[0]) != len(p.checks[0]) || len(m.p.values) != len(p.values) {
					t.Fatalf("seed %d: the generator's parsed form does not match the text", s)
				}
				d, err := g.Generate(s)
				if err != nil || d.Queries[0].Text != c.Queries[0].Text {
					t.Fatalf("seed %d: not deterministic", s)
				}
				if c.Params[ParamModel] != "" || !strings.HasPrefix(c.Params[ParamMode], style+", ") {
					t.Fatalf("seed %d: params %v", s, c.Params)
				}
				name, _, _ := strings.Cut(c.Params[ParamSeed], " ")
				for _, sd := range seeds {
					if sd.Name == name && !strings.Contains(c.Queries[0].Text, seedAsserts(sd)) {
						changed++
					}
				}
				bySeed[name] = true
			}
			if changed < 390 {
				t.Errorf("only %d of 400 mutants differ from their seed", changed)
			}
			if len(bySeed) < len(seeds)/2 {
				t.Errorf("mutants of %d seeds of %d", len(bySeed), len(seeds))
			}
		})
	}
}

// seedAsserts prints a seed's assertions as an instance does.
func seedAsserts(s *Seed) string {
	var b strings.Builder
	for i, a := range s.Asserts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("(assert " + a.String() + ")")
	}
	return b.String()
}

// TestMutationOptionsRoundTrip checks the text form of the mutation options and its errors.
func TestMutationOptionsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		style, text, want, err string
	}{
		{StyleOpFuzz, "opfuzz{}", "opfuzz{mutations=3 mutants=300}", ""},
		{StyleTypeFuzz, "typefuzz{mutations=5}", "typefuzz{mutations=5 mutants=300}", ""},
		{StyleOpFuzz, "opfuzz{mutations=0}", "", "mutations"},
		{StyleOpFuzz, "typefuzz{}", "", "want opfuzz{"},
	} {
		o, err := ParseMutationOptions(tc.style, tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one naming %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || o.String() != tc.want {
			t.Errorf("%s: %v, %v; want %s", tc.text, o, err, tc.want)
		}
	}
}

// TestOraclesOnMutants checks the oracles on a case without a construction model, as mutants
// are: the sat oracle skips it, the model oracle validates the solver's model all the same.
func TestOraclesOnMutants(t *testing.T) {
	c := &fuzz.Case{Domain: "smt", Queries: []fuzz.Query{
		{Role: RoleInstance, Text: "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> (mod x 3) 1))\n(check-sat)"},
		{Role: RoleModel, Text: "(get-value (x))"}}, Params: map[string]string{ParamLogic: "QF_LIA", ParamMode: "opfuzz, 1 mutations"}}
	run := func(answer, x string) []fuzz.Run {
		return []fuzz.Run{{Target: "z3", Results: []*fuzz.Result{{Status: fuzz.StatusOK, Rows: [][]string{{answer}}},
			{Status: fuzz.StatusOK, Rows: [][]string{{"x", x}}}}}}
	}
	if v := (SatOracle{}).Check(c, run("unsat", "0")); v.Skip != "no-construction-model" || v.Finding != nil {
		t.Errorf("sat oracle on a mutant: %+v", v)
	}
	if v := (ModelOracle{}).Check(c, run("sat", "5")); !v.Checked || v.Finding != nil {
		t.Errorf("model oracle, right model: %+v", v)
	}
	v := (ModelOracle{}).Check(c, run("sat", "4"))
	if v.Finding == nil || v.Finding.Title != "model: z3: invalid model of a qf_lia instance (opfuzz, n mutations)" {
		t.Errorf("model oracle, wrong model: %+v", v.Finding)
	}
}

// TestMutantsConcurrent generates mutants from several goroutines at once, as workers do (run
// with -race): each equals the one generated alone.
func TestMutantsConcurrent(t *testing.T) {
	seeds := loadTestSeeds(t)
	for _, style := range []string{StyleOpFuzz, StyleTypeFuzz} {
		g, err := NewMutator(MutationOptions{Style: style, Mutants: 5}, seeds)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]string, 120)
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < len(want); i += 4 {
					c, err := g.Generate(fuzz.CaseSeed(5, uint64(i), g.CasesPerSetup()))
					if err != nil {
						t.Error(err)
						return
					}
					want[i] = c.Queries[0].Text
				}
			}()
		}
		wg.Wait()
		h, _ := NewMutator(MutationOptions{Style: style, Mutants: 5}, seeds)
		for i := range want {
			if c, err := h.Generate(fuzz.CaseSeed(5, uint64(i), h.CasesPerSetup())); err != nil || c.Queries[0].Text != want[i] {
				t.Fatalf("%s: case %d differs when generated alone (%v)", style, i, err)
			}
		}
	}
}

// TestMutantLogic checks the logic a mutant is sent with: widened where a mutation needs a theory
// or nonlinear arithmetic the seed's logic lacks, kept otherwise.
func TestMutantLogic(t *testing.T) {
	for _, tc := range []struct{ logic, decls, assert, want string }{
		{"QF_LIA", "(declare-const x Int)", "(> (+ x 1) 0)", "QF_LIA"},
		{"QF_LIA", "(declare-const x Int)", "(> (* x x) 0)", "QF_NIA"},
		{"QF_IDL", "(declare-const x Int)", "(> (- x 1) 0)", "QF_LIA"},
		{"QF_SLIA", "(declare-const x Int)", "(> (* x x) 0)", "ALL"},
		{"QF_FP", "(declare-const r RoundingMode)", "(fp.isZero (fp (bvadd #b0 #b1) #x00 #b00000000000000000000000))", "ALL"},
		{"QF_FP", "(declare-const r RoundingMode)", "(fp.isZero (fp #b0 #x00 #b00000000000000000000000))", "QF_FP"},
		{"QF_BV", "(declare-const v (_ BitVec 4))", "(= (bv2nat v) 3)", "ALL"},
		{"QF_BV", "(declare-const v (_ BitVec 4))", "(bvuaddo v v)", "QF_BV"},
		{"QF_ABV", "(declare-const a (Array (_ BitVec 4) (_ BitVec 4)))", "(= (select a #x0) #x1)", "QF_ABV"},
		{"QF_UFBV", "(declare-const a (Array (_ BitVec 4) (_ BitVec 4)))", "(= (select a #x0) #x1)", "ALL"},
		{"QF_S", "(declare-const s String)", "(> (str.len s) 2)", "QF_S"},
		{"QF_LRA", "(declare-const y Real)", "(> (+ y 0.5) 0.0)", "QF_LRA"},
		{"QF_LRA", "(declare-const y Real)", "(> (to_int y) 0)", "ALL"},
		{"ALL", "(declare-const y Real)", "(> (to_int y) 0)", "ALL"},
	} {
		sc, err := ParseScript("(set-logic ALL)" + tc.decls + "(assert " + tc.assert + ")")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Check(sc); err != nil {
			t.Fatalf("%s: %v", tc.assert, err)
		}
		a := sc.Commands[len(sc.Commands)-1].Terms[0]
		if got := mutantLogic(tc.logic, []*Term{a}); got != tc.want {
			t.Errorf("%s %s: logic %s, want %s", tc.logic, tc.assert, got, tc.want)
		}
	}
}

// TestWidenLogic checks the logic of seeds whose declarations fall outside it.
func TestWidenLogic(t *testing.T) {
	for _, tc := range []struct{ logic, decls, want string }{
		{"QF_FP", "(declare-const v (_ BitVec 5))", "ALL"}, // cvc5's regression files; Bitwuzla rejects it
		{"QF_BVFP", "(declare-const v (_ BitVec 5))", "QF_BVFP"},
		{"QF_BV", "(declare-const x Int)", "ALL"},
		{"QF_LIA", "(declare-const x Int)", "QF_LIA"},
		{"QF_ALIA", "(declare-const a (Array Int Int))", "QF_ALIA"},
		{"QF_LIA", "(declare-const a (Array Int Int))", "ALL"},
	} {
		if got := widenLogic(tc.logic, mustEnv(t, "(set-logic ALL)"+tc.decls)); got != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.logic, tc.decls, got, tc.want)
		}
	}
}

// mustEnv checks script and returns its declarations.
func mustEnv(t *testing.T, script string) *Env {
	t.Helper()
	sc, err := ParseScript(script)
	if err != nil {
		t.Fatal(err)
	}
	env, err := Check(sc)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// TestMutantsOfBinderOnlySeed mutates a seed whose every subterm is under a quantifier: typefuzz
// has no ground term to build from, opfuzz still mutates the quantifier.
func TestMutantsOfBinderOnlySeed(t *testing.T) {
	seeds, skips := NewSeeds("forall.smt2", "(set-logic UFLIA)(declare-fun f (Int) Int)(assert (forall ((x Int)) (> (f x) x)))(check-sat)")
	if len(skips) > 0 || len(seeds) != 1 {
		t.Fatalf("seed: %v", skips)
	}
	for _, style := range []string{StyleOpFuzz, StyleTypeFuzz} {
		g, err := NewMutator(MutationOptions{Style: style, Mutants: 5}, seeds)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 10 {
			if _, err := g.Generate(fuzz.CaseSeed(3, uint64(i), g.CasesPerSetup())); err != nil && style == StyleOpFuzz {
				t.Errorf("%s: %v", style, err)
			}
		}
	}
}
