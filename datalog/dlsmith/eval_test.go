package dlsmith

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// TestEvalFor checks that evalFor answers for a relation as the evaluation of the whole program
// does (tuples, output rows of the output, errors), on generated and transformed graphs, with
// limits that the bound proves out of reach and limits that some programs reach.
func TestEvalFor(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	o := DefaultOptions()
	o.Steps = Range{Min: 1, Max: 30}
	cut, errs := 0, 0
	for seed := uint64(1); seed <= 150; seed++ {
		g, err := Generate(o, seed)
		if err != nil {
			t.Fatal(err)
		}
		trans, _, _, err := Sequence(g, o, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []*Graph{g, trans} {
			p, err := h.Program()
			if err != nil {
				t.Fatal(err)
			}
			for _, limit := range []int{100000, 50, 5} {
				whole, werr := datalog.EvalContext(context.Background(), p, limit)
				for _, n := range h.Nodes {
					m, err := evalFor(h, p, n.Name, limit)
					if (err == nil) != (werr == nil) {
						t.Fatalf("seed %d, %s, limit %d: error %v, whole program %v", seed, n.Name, limit, err, werr)
					}
					if err != nil {
						errs++
						continue
					}
					if !reflect.DeepEqual(m.Tuples(n.Name), whole.Tuples(n.Name)) {
						t.Fatalf("seed %d, limit %d: tuples of %s differ from the whole program's\n%s", seed, limit, n.Name, p)
					}
					if n.Name == h.Output && !reflect.DeepEqual(m.Output(), whole.Output()) {
						t.Fatalf("seed %d, limit %d: output differs from the whole program's\n%s", seed, limit, p)
					}
					if m.Size() < whole.Size() {
						cut++
					}
				}
			}
		}
	}
	if cut == 0 || errs == 0 {
		t.Errorf("evaluations cut short %d, errors %d: want both", cut, errs)
	}
}

// TestWithinLimit checks the bound on the tuples of a program: facts for a relation without
// rules, the product of its columns' constants for one with rules.
func TestWithinLimit(t *testing.T) {
	const facts = ".decl a(x: number)\n.decl s(x: symbol)\na(1).\na(2).\na(3).\ns(\"p\").\n"
	for _, c := range []struct {
		name, src string
		limit     int
		want      bool
	}{
		{"facts at the limit", facts, 4, true},
		{"facts beyond the limit", facts, 3, false},
		// b holds at most 3 numbers x 1 symbol, c at most 3 x 3: 4 + 3 + 9 tuples.
		{"rules at the limit", facts + ".decl b(x: number, y: symbol)\n.decl c(x: number, y: number)\n" +
			"b(x, y) :- a(x), s(y).\nc(x, y) :- a(x), a(y).\n", 16, true},
		{"rules beyond the limit", facts + ".decl b(x: number, y: symbol)\n.decl c(x: number, y: number)\n" +
			"b(x, y) :- a(x), s(y).\nc(x, y) :- a(x), a(y).\n", 15, false},
		// A constant of a rule counts: c can hold 4 x 4.
		{"rule constants", facts + ".decl c(x: number, y: number)\nc(x, 7) :- a(x).\n", 20, true},
		{"rule constants beyond", facts + ".decl c(x: number, y: number)\nc(x, 7) :- a(x).\n", 19, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := datalog.Parse("t.dl", c.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := withinLimit(p, c.limit); got != c.want {
				t.Errorf("withinLimit(%d) = %v, want %v", c.limit, got, c.want)
			}
		})
	}
}
