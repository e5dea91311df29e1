package main

import (
	"context"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/bench"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
)

// TestBenchBugs checks every entry of the benchmark: its recorded case gives its finding on the
// buggy engine (a planted bug's canary reached and triggered), and not on the fixed engine.
func TestBenchBugs(t *testing.T) {
	bugs, err := bench.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bugs {
		t.Run(b.Domain+"/"+b.ID, func(t *testing.T) {
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
