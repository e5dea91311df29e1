package campaign

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestSetupExtension checks that a case whose setup extends the one the targets hold (query plan
// guidance appends statements) runs only the new statements, with its setup results aligned to its
// setup, and that any other setup starts from a reset.
func TestSetupExtension(t *testing.T) {
	var log []string
	e := &executor{targets: []fuzz.Target{&fakeTarget{mu: &sync.Mutex{}, log: &log}}}
	ctx := context.Background()
	steps := []struct {
		setup []string
		ran   []string // statements (and resets) the targets saw for the case
		nils  int      // setup results left nil: statements that ran before
	}{
		{[]string{"a", "b"}, []string{"reset", "a", "b", "q"}, 0},
		{[]string{"a", "b"}, []string{"q"}, 0},
		{[]string{"a", "b", "c"}, []string{"c", "q"}, 2},
		{[]string{"a", "b", "c"}, []string{"q"}, 0}, // the extended setup is held
		{[]string{"a", "c"}, []string{"reset", "a", "c", "q"}, 0},
	}
	for i, st := range steps {
		for _, many := range []bool{false, true} {
			if many && i != 2 {
				continue
			}
			log = nil
			c := &fuzz.Case{Setup: st.setup, Queries: []fuzz.Query{{Role: "r", Text: "q"}}}
			var runs []fuzz.Run
			if many {
				e.lastSetup = steps[1].setup
				rs, ok, err := e.runMany(ctx, []*fuzz.Case{c})
				if err != nil || !ok {
					t.Fatal(err)
				}
				runs = rs[0]
			} else {
				var err error
				if runs, err = e.run(ctx, c); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(log, st.ran) {
				t.Errorf("step %d (runMany %v): targets saw %q, want %q", i, many, log, st.ran)
			}
			if st.nils > 0 && (len(runs[0].Setup) != len(st.setup) || runs[0].Setup[st.nils-1] != nil || runs[0].Setup[st.nils] == nil) {
				t.Errorf("step %d: setup results %v, want %d nil then the rest", i, runs[0].Setup, st.nils)
			}
		}
	}
}

// TestDerivedCrashResets checks that a derived statement that crashes the target leaves it
// needing a reset: the next case with the same setup starts from one.
func TestDerivedCrashResets(t *testing.T) {
	for _, many := range []bool{false, true} {
		var log []string
		crash := func(stmt string) bool { return strings.HasPrefix(stmt, "derived") }
		e := &executor{deriver: deriveGen{}, targets: []fuzz.Target{&fakeTarget{mu: &sync.Mutex{}, log: &log, panics: crash}}}
		for i := range 2 {
			log = nil
			c := &fuzz.Case{Setup: []string{"a"}, Queries: []fuzz.Query{{Role: "r", Text: "q"}}}
			var err error
			if many {
				_, _, err = e.runMany(context.Background(), []*fuzz.Case{c})
			} else {
				_, err = e.run(context.Background(), c)
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Derived != 1 {
				t.Fatalf("runMany %v: case %d has %d derived queries, want 1", many, i, c.Derived)
			}
			if i == 1 && (len(log) == 0 || log[0] != "reset") {
				t.Errorf("runMany %v: after a derived statement crashed, the next case ran %q; want a reset first", many, log)
			}
		}
	}
}
