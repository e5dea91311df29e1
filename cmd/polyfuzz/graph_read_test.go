package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestGraphReadConstructsFire plants faults that touch only queries with one of the read
// constructs (a variable-length relationship, a subquery, a map projection) and checks that
// the differential oracle reports them, reduced to a query that still holds the construct, and
// that the finding replays.
func TestGraphReadConstructsFire(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	tests := []struct {
		name, engine, fault string
		keep                *regexp.Regexp // what the reduced query must still hold
	}{
		{"variable-length", "neo4j", `drop-row:\*[0-9]`, regexp.MustCompile(`\*[0-9]`)},
		{"subquery", "neo4j", `drop-row:(EXISTS|COUNT|CALL) \{`, regexp.MustCompile(`(EXISTS|COUNT|CALL) \{`)},
		{"map projection", "falkordb", `change-value:[a-z0-9]\{\.`, regexp.MustCompile(`[a-z0-9]\{\.`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			rec := firedFinding(t, out, "diff: "+tc.engine+": ", "graph", "--engine", graphEngineArg(t, tc.engine),
				"--seed", seed, "--gen", smallGraph, "--quiet", "--out", out, "--fault", tc.fault,
				"--max-findings", "1", "--reduce-time", "2m", "--tests", "200")
			_, red := checkReplayed(t, out, rec, "wrong-result")
			texts := strings.Join(red.Texts(), "\n")
			if !tc.keep.MatchString(texts) {
				t.Errorf("%s: the reduced query lost the construct:\n%s", rec.Title, texts)
			}
			t.Logf("%s: reduced to %d setup statements and\n%s", rec.Title, len(red.Setup), texts)
		})
	}
}
