package smtgen

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func loadTestSeeds(t *testing.T) []*Seed {
	t.Helper()
	seeds, skips, err := LoadSeeds(os.DirFS("../testdata/smt"), ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range skips {
		t.Errorf("project seed skipped: %v", s)
	}
	return seeds
}

// TestGeneratedInstancesAreCertified generates cases from every project seed with random models
// and checks that each instance reads back, that every assertion in scope at every check-sat is
// true under the stored model, and that generation is deterministic.
func TestGeneratedInstancesAreCertified(t *testing.T) {
	seeds := loadTestSeeds(t)
	g, err := New(Options{Mutants: 20, Incremental: 30, Tactics: 20}, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 1000
	if testing.Short() {
		n = 300
	}
	modes := map[string]int{}
	for i := range n {
		s := fuzz.CaseSeed(7, uint64(i), g.CasesPerSetup())
		c, err := g.Generate(s)
		if err != nil {
			t.Fatalf("seed %d: %v", s, err)
		}
		p, err := readCase(c)
		if err != nil {
			t.Fatalf("seed %d: case does not read back: %v\n%s", s, err, c.Queries[0].Text)
		}
		if m, _ := c.Memo.(*memo); m == nil || len(m.p.checks) != len(p.checks) || len(m.p.values) != len(p.values) {
			t.Fatalf("seed %d: the generator's parsed form does not match the text", s)
		}
		if c.Clone().Memo != nil {
			t.Fatalf("seed %d: a copy of the case keeps the generator's parsed form", s)
		}
		m, err := ParseModelText(c.Params[ParamModel], p.env)
		if err != nil {
			t.Fatalf("seed %d: model does not read back: %v", s, err)
		}
		for at := range p.checks {
			if _, err := p.certify(m, at); err != nil {
				t.Fatalf("seed %d: check-sat %d: %v\n%s\n%s", s, at+1, err, c.Queries[0].Text, c.Params[ParamModel])
			}
		}
		modes[strings.Fields(c.Params[ParamMode])[0]]++
		if i%100 == 0 {
			d, _ := g.Generate(s)
			a, _ := json.Marshal(c)
			b, _ := json.Marshal(d)
			if string(a) != string(b) {
				t.Fatalf("seed %d: two generations differ", s)
			}
		}
	}
	t.Logf("modes: %v", modes)
	if modes["incremental"] == 0 || modes["check-sat-using"] == 0 || modes["plain"] == 0 {
		t.Errorf("modes not all used: %v", modes)
	}
}

// TestCertifyAndModelText checks that a reference model that falsifies a seed assertion is
// refused, that a right one is accepted, and that ModelText reads back to the same values.
func TestCertifyAndModelText(t *testing.T) {
	s, err := NewSeed("t.smt2", "(set-logic QF_UFLIA)(declare-fun x () Int)(declare-fun f (Int) Int)"+
		"(assert (> (f x) x))(assert (= (div x 0) 4))(check-sat)")
	if err != nil {
		t.Fatal(err)
	}
	script, terms := s.ModelQuery(false)
	if !strings.Contains(script, "(get-value (x (div x 0) (f x)))") && !strings.Contains(script, "(get-value (x (f x) (div x 0)))") {
		t.Fatalf("model query asks for the wrong terms:\n%s", script)
	}
	rows := func(x, fx, div string) [][]string {
		out := make([][]string, len(terms))
		for i, term := range terms {
			switch term.String() {
			case "x":
				out[i] = []string{"x", x}
			case "(f x)":
				out[i] = []string{"(f x)", fx}
			default:
				out[i] = []string{term.String(), div}
			}
		}
		return out
	}
	tests := []struct {
		name        string
		x, fx, div  string
		certifiable bool
	}{
		{"right model", "3", "7", "4", true},
		{"uninterpreted function wrong", "3", "2", "4", false},
		{"division by zero wrong", "(- 3)", "7", "5", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ModelFromValues(s.Env, terms, rows(tc.x, tc.fx, tc.div))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Certify(m, false); (err == nil) != tc.certifiable {
				t.Fatalf("Certify: %v, want certifiable %v", err, tc.certifiable)
			}
			back, err := ParseModelText(ModelText(m, s.Env), s.Env)
			if err != nil {
				t.Fatalf("%v\n%s", err, ModelText(m, s.Env))
			}
			for _, a := range s.Asserts {
				v1, ok1 := m.Truth(a)
				v2, ok2 := back.Truth(a)
				if v1 != v2 || ok1 != ok2 {
					t.Errorf("%s: %v/%v before printing, %v/%v after\n%s", a, v1, ok1, v2, ok2, ModelText(m, s.Env))
				}
			}
		})
	}
}
