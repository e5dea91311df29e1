package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/bench"
	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
)

// TestBenchBugs checks every entry of the benchmark: a real bug names its releases as engine
// specs (NAME@VERSION, or NAME for the default build), its recorded case is a finding of its oracle
// and domain, the case gives that finding on the buggy engine (a planted bug: with its plant, its
// canary reached and triggered) and not on the fixed engine (without the plant). Crash entries
// run last, since they leave a buggy server dead.
func TestBenchBugs(t *testing.T) {
	bugs, err := bench.All()
	if err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(bugs, func(a, b bench.Bug) int {
		switch ac, bc := a.Class == "crash", b.Class == "crash"; {
		case ac == bc:
			return 0
		case ac:
			return 1
		}
		return -1
	})
	for _, b := range bugs {
		t.Run(b.Domain+"/"+b.ID, func(t *testing.T) {
			if b.Origin == bench.Real {
				if b.Buggy != b.Engine+"@"+b.Version && b.Buggy != b.Engine {
					t.Errorf("buggy is %q; want %s@%s (or %s, the default build, when that is the release)", b.Buggy, b.Engine, b.Version, b.Engine)
				}
				if b.Fixed != "" && b.FixedSpec != b.Engine+"@"+b.Fixed {
					t.Errorf("fixed_spec is %q; want %s@%s", b.FixedSpec, b.Engine, b.Fixed)
				}
			}
			rec, _, _, err := campaign.LoadFinding(filepath.Join("../..", filepath.FromSlash(b.Case)))
			if err != nil {
				t.Fatal(err)
			}
			if rec.Oracle != b.Oracle || rec.Domain != b.Domain {
				t.Errorf("the recorded case is a %s finding of %s; the entry says %s of %s", rec.Oracle, rec.Domain, b.Oracle, b.Domain)
			}
			needBugEngines(t, &b)
			r, err := replayBug(context.Background(), "../..", &b)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Buggy {
				t.Errorf("the recorded case %s does not give its finding on %s: got %q, want %q", b.Case, b.Buggy, r.BuggyTitle, r.Want)
			}
			if r.HasFixed && r.Fixed {
				t.Errorf("the recorded case %s still gives its finding on the fixed engine %s", b.Case, b.FixedSpec)
			}
			if b.Origin == bench.Planted && (!r.Reached || !r.Triggered) {
				t.Errorf("the canary of %s did not fire on its recorded case: reached %v, triggered %v", b.ID, r.Reached, r.Triggered)
			}
		})
	}
}

// needBugEngines skips t (fails it in CI) when an engine bug b needs is not installed or its
// server is not running.
func needBugEngines(t *testing.T, b *bench.Bug) {
	t.Helper()
	for _, in := range b.Install {
		req, ok := strings.CutPrefix(in, "pypi:")
		if !ok {
			continue
		}
		pkg, version, err := pypi.ParseRequirement(req)
		if err != nil {
			t.Fatalf("bug %s: %v", b.ID, err)
		}
		if !pypi.Installed(pkg, version) {
			testenv.Missing(t, "bug "+b.ID+" needs "+req+": run polyfuzz bench install --bugs "+b.ID+" (scripts/test.sh does)")
		}
	}
	d, err := findDomain(b.Domain)
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{b.Buggy, b.FixedSpec} {
		if spec == "" {
			continue
		}
		if _, err := d.EngineArgs([]string{spec}, domain.Spec{}); err != nil {
			testenv.Missing(t, "bug "+b.ID+": "+err.Error())
		}
	}
}
