package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

// TestClickHouseOraclesFire plants a fault in ClickHouse (chDB), dropping the first row of every
// query with a WHERE or HAVING clause, and checks that NoREC and every TLP oracle report it: the
// finding is a wrong result, hit several times, reduced to a handful of statements, and its
// replay on the real engine regenerates the case and reproduces. Small databases keep the
// campaign and the reductions short.
func TestClickHouseOraclesFire(t *testing.T) {
	testenv.NeedPythonModule(t, rowserver.Python(""), "chdb")
	out := t.TempDir()
	stdout := runCampaign(t, 30, "sql", "--dbms", "clickhouse", "--seed", fmt.Sprint(testenv.Seed(t)), "-j", "2", "--quiet",
		"--queries-per-db", "15", "--max-tables", "2", "--max-inserts", "4", "--timeout", "20s",
		"--out", out, "--fault", `drop-row:^SELECT .* (WHERE|HAVING) `, "--reduce-time", "1m")
	recs := records(t, out)
	for _, o := range logicOracles {
		var rec *campaign.Record // the oracle's finding with the most hits
		for title, r := range recs {
			if strings.HasPrefix(title, o+": clickhouse: ") && (rec == nil || r.Hits > rec.Hits) {
				rec = r
			}
		}
		if rec == nil {
			t.Errorf("oracle %s did not fire on clickhouse:\n%s", o, stdout)
			continue
		}
		_, red := checkFired(t, out, rec, "wrong-result")
		if len(red.Setup) > 6 || len(red.Queries) > 4 {
			t.Errorf("%s: reduced case has %d setup statements and %d queries, want a handful",
				rec.Title, len(red.Setup), len(red.Queries))
		}
	}
}
