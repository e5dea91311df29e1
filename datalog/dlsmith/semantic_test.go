package dlsmith

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// TestSemantic rolls back, on the reference engine alone, sequences whose output strictly changes
// while the test pretends they promised to keep it (a transformation that broke its promise): the
// rollback's steps, removed, restore the promised relation, and the localization's steps alone
// reproduce the change.
func TestSemantic(t *testing.T) {
	gen, err := NewGenerator(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	found, breaks, rolled := 0, 0, 0
	for seed := uint64(1); found < 10 && seed < 2000; seed++ {
		orig, steps, err := gen.Sequence(seed)
		if err != nil {
			t.Fatal(err)
		}
		c := &Culprits{Orig: orig, Steps: steps}
		trans, promised, _ := Replay(orig, steps, c.all())
		if promised == datalog.Equal || len(steps) < 3 {
			continue
		}
		o0, o1 := answer(t, orig), answer(t, trans)
		if datalog.Equal.Holds(o0, o1) {
			continue // the steps kept the answer: nothing to blame
		}
		// Claim equality: the tuples the steps added or lost are the faults.
		s, err := c.Semantic(datalog.Equal)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		found++
		if len(s.Rollback) == 0 || len(s.Localization) == 0 || !s.Verified {
			t.Fatalf("seed %d: %s", seed, s)
		}
		if s.LocalizationBreaks {
			breaks++
		}
		if s.StepsVerified {
			rolled++
		}
		t.Logf("seed %d, %d steps, promised %s: %s; ILP %d variables", seed, len(steps), promised, s, s.RolledBack.Stats.ILPVars)
	}
	if found < 10 {
		t.Fatalf("only %d sequences changed their answer", found)
	}
	t.Logf("of %d sequences, the localization's steps alone break the relation in %d, the sequence without the rollback's steps keeps it in %d",
		found, breaks, rolled)
	if breaks < found/2 {
		t.Errorf("the localization's steps reproduce in only %d of %d sequences", breaks, found)
	}
}

// answer returns the reference's answer to g's program.
func answer(t *testing.T, g *Graph) [][]string {
	t.Helper()
	p, err := g.Program()
	if err != nil {
		t.Fatal(err)
	}
	m, err := datalog.Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	return m.Output()
}
