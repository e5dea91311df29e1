package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestCODDFires plants a fault in each engine CODDTest supports that drops a row from the folded
// query's answer only (its WHERE starts with the result map, which no generated predicate does):
// codd reports a wrong result, hit several times, reduced to a handful of statements and the four
// queries of its layout, that replays on the real engine.
func TestCODDFires(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	for _, tc := range []struct {
		name  string
		tests int
	}{{"sqlite", 300}, {"duckdb", 200}, {"postgres", 300}, {"mariadb", 300}, {"mysql", 300}, {"turso", 300}} {
		t.Run(tc.name, func(t *testing.T) {
			arg := engineArg(t, tc.name)
			out := t.TempDir()
			stdout := runCampaign(t, tc.tests, "sql", "--dbms", arg, "--seed", seed, "-j", "1", "--quiet",
				"--oracle", "codd", "--out", out, "--fault", `drop-row: WHERE (NOT )?CASE WHEN `, "--reduce-time", "40s")
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
