package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/bench"
	"github.com/polyfuzz/polyfuzz/campaign"
)

// TestBenchDatalogReal checks every real Datalog bug of the benchmark (bench/bugs/datalog-real.json):
// its recorded case is a finding of its oracle recorded on the buggy version, gives that finding
// again on the buggy engine, and does not on the fixed one.
func TestBenchDatalogReal(t *testing.T) {
	bugs, err := bench.Select("datalog", bench.Real)
	if err != nil {
		t.Fatal(err)
	}
	if len(bugs) == 0 {
		t.Fatal("bench/bugs/datalog-real.json lists no bug")
	}
	for _, b := range bugs {
		t.Run(b.ID, func(t *testing.T) {
			rec, _, _, err := campaign.LoadFinding("../../" + b.Case)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Oracle != b.Oracle {
				t.Errorf("the recorded case is a finding of %s, the entry says %s", rec.Oracle, b.Oracle)
			}
			recorded := slices.ContainsFunc(rec.Targets, func(tv campaign.TargetInfo) bool {
				return tv.Name == b.Engine && strings.TrimPrefix(tv.Version, "v") == b.Version
			})
			if !recorded {
				t.Errorf("the recorded case was not found on %s %s (its engines: %v)", b.Engine, b.Version, rec.Targets)
			}
			needBugEngines(t, &b)
			r, err := replayBug(context.Background(), "../..", &b)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Buggy {
				t.Errorf("on %s the recorded case gives %q, want %q", b.Buggy, r.BuggyTitle, r.Want)
			}
			if r.HasFixed && r.Fixed {
				t.Errorf("on the fixed engine %s the recorded case still gives %q", b.FixedSpec, r.FixedTitle)
			}
		})
	}
}
