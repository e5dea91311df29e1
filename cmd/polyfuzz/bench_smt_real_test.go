package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/bench"
	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain/smtdom"
)

// TestBenchSMTReal checks the real z3 bugs of bench/bugs/smt-real.json: each entry names the
// wheels its two releases need, its recorded finding was found on the buggy release by the
// entry's oracle, the case gives that finding on the buggy release and no finding at all (not
// even another one, such as an error) on the first release without the bug.
func TestBenchSMTReal(t *testing.T) {
	bugs, err := bench.Select("smt", bench.Real)
	if err != nil {
		t.Fatal(err)
	}
	if len(bugs) == 0 {
		t.Fatal("bench/bugs/smt-real.json has no entry")
	}
	for _, b := range bugs {
		t.Run(b.ID, func(t *testing.T) {
			for _, c := range []struct{ spec, version string }{{b.Buggy, b.Version}, {b.FixedSpec, b.Fixed}} {
				if c.spec != "z3@"+c.version {
					t.Errorf("engine spec %q: want z3@%s, the entry's version", c.spec, c.version)
				}
				if in := "pypi:" + smtdom.Z3Package + "==" + smtdom.Z3Wheel(c.version); !slices.Contains(b.Install, in) {
					t.Errorf("install %q lacks %s, the wheel of z3@%s", b.Install, in, c.version)
				}
			}
			rec, _, _, err := campaign.LoadFinding(filepath.Join("../..", filepath.FromSlash(b.Case)))
			if err != nil {
				t.Fatal(err)
			}
			if rec.Oracle != b.Oracle || len(rec.Targets) != 1 || rec.Targets[0].Version != b.Version {
				t.Errorf("the recorded finding is from oracle %s on %v: want oracle %s on z3 %s", rec.Oracle, rec.Targets, b.Oracle, b.Version)
			}
			needBugEngines(t, &b)
			r, err := replayBug(context.Background(), "../..", &b)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Buggy {
				t.Errorf("on %s the case gives %q, want %q", b.Buggy, r.BuggyTitle, r.Want)
			}
			if r.FixedTitle != "" {
				t.Errorf("on %s the case still gives a finding: %q", b.FixedSpec, r.FixedTitle)
			}
			if !strings.HasPrefix(r.Want, b.Oracle+":") {
				t.Errorf("the recorded title %q is not from oracle %s", r.Want, b.Oracle)
			}
		})
	}
}
