package main

import (
	"fmt"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestPQSFires plants a fault in each engine PQS has an evaluator for, dropping the pivot row
// from the containment query's answer: PQS reports it as a wrong result, reduced, that replays on
// the real engine.
func TestPQSFires(t *testing.T) {
	for _, tc := range []struct {
		engine string
		tests  int
	}{
		{"sqlite", 300}, {"postgres", 300}, {"duckdb", 300},
	} {
		t.Run(tc.engine, func(t *testing.T) {
			out := t.TempDir()
			stdout := runCampaign(t, tc.tests, "sql", "--dbms", engineArg(t, tc.engine), "--oracle", "pqs",
				"--seed", fmt.Sprint(testenv.Seed(t)), "-j", "2", "--quiet", "--out", out,
				"--fault", `drop-row:INTERSECT SELECT \* FROM \(`, "--reduce-time", "1m")
			rec := records(t, out)["pqs: "+tc.engine+": pivot row missing"]
			if rec == nil {
				t.Fatalf("pqs did not fire:\n%s", stdout)
			}
			_, red := checkFired(t, out, rec, "wrong-result")
			if len(red.Setup) > 6 || len(red.Queries) != 3 {
				t.Errorf("reduced case has %d setup statements and %d queries, want a handful and the three of PQS",
					len(red.Setup), len(red.Queries))
			}
		})
	}
}
