package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestCODDFires plants a fault in each engine CODDTest supports that drops a row from the folded
// query's answer only (its WHERE starts with the result map, which no generated predicate does,
// or ends in the folded subquery: TRUE, FALSE or a list of literals):
// codd reports a wrong result, hit several times, reduced to a handful of statements and the four
// queries of its layout, that replays on the real engine.
func TestCODDFires(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	const (
		both = `drop-row: WHERE ((NOT )?(CASE WHEN |TRUE$|FALSE$)|\S+ (NOT )?IN \([^S][^()]*\)$)`
		sub  = `drop-row: WHERE ((NOT )?(TRUE|FALSE)|\S+ (NOT )?IN \([^S][^()]*\))$` // subquery folding only
	)
	for _, tc := range []struct {
		name, fault string
		tests       int
		args        []string // more flags
	}{{"sqlite", both, 300, nil}, {"sqlite", sub, 300, nil}, {"duckdb", both, 200, nil}, {"postgres", both, 300, nil},
		{"postgres", sub, 300, nil}, {"mariadb", both, 300, nil}, {"mysql", both, 300, nil}, {"turso", both, 300, nil},
		{"datafusion", both, 100, nil},
		// Small databases keep chDB's campaign and reductions short.
		{"clickhouse", both, 40, []string{"--queries-per-db", "15", "--max-tables", "2", "--max-inserts", "4", "--timeout", "20s"}}} {
		t.Run(tc.name, func(t *testing.T) {
			arg := engineArg(t, tc.name)
			out := t.TempDir()
			stdout := runCampaign(t, tc.tests, append([]string{"sql", "--dbms", arg, "--seed", seed, "-j", "1", "--quiet",
				"--oracle", "codd", "--out", out, "--fault", tc.fault, "--reduce-time", "40s"}, tc.args...)...)
			var rec *campaign.Record
			for title, r := range records(t, out) {
				if strings.HasPrefix(title, "codd: ") && title != "codd: "+tc.name+": folded query returns other rows" {
					t.Errorf("finding %q", title)
				} else if strings.HasPrefix(title, "codd: ") {
					rec = r
				}
			}
			if rec == nil {
				t.Fatalf("codd did not fire on %s:\n%s", tc.name, stdout)
			}
			_, red := checkFired(t, out, rec, "wrong-result")
			if len(red.Setup) > 6 || len(red.Queries) != 4 {
				t.Errorf("reduced case has %d setup statements and %d queries, want a handful and the four of codd",
					len(red.Setup), len(red.Queries))
			}
		})
	}
}
