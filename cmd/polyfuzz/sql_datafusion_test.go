package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

// needDataFusion skips t (fails it in CI) unless the project's Python has the datafusion module.
func needDataFusion(t *testing.T) {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "datafusion")
}

// TestDataFusionOraclesFire plants a fault in DataFusion, dropping the first row of every query
// with a WHERE or HAVING clause: NoREC and every TLP oracle report it as a wrong result, hit
// several times, reduced to a handful of statements, and replayed on the real engine.
func TestDataFusionOraclesFire(t *testing.T) {
	needDataFusion(t)
	out := t.TempDir()
	stdout := runCampaign(t, 150, "sql", "--dbms", "datafusion", "--seed", fmt.Sprint(testenv.Seed(t)), "-j", "2",
		"--quiet", "--out", out, "--fault", `drop-row:^SELECT .* (WHERE|HAVING) `, "--reduce-time", "1m")
	recs := records(t, out)
	for _, o := range logicOracles {
		var rec *campaign.Record // the oracle's finding with the most hits
		for title, r := range recs {
			if strings.HasPrefix(title, o+": datafusion: ") && (rec == nil || r.Hits > rec.Hits) {
				rec = r
			}
		}
		if rec == nil {
			t.Errorf("oracle %s did not fire on datafusion:\n%s", o, stdout)
			continue
		}
		_, red := checkFired(t, out, rec, "wrong-result")
		if len(red.Setup) > 6 || len(red.Queries) > 4 {
			t.Errorf("%s: reduced case has %d setup statements and %d queries, want a handful",
				rec.Title, len(red.Setup), len(red.Queries))
		}
	}
}

// TestDataFusionDiffFires runs the cross-engine differential over DataFusion, DuckDB and SQLite
// in the common dialect, with a fault in DataFusion: the finding names DataFusion as the odd one
// out, is reduced, and replays.
func TestDataFusionDiffFires(t *testing.T) {
	needDataFusion(t)
	out := t.TempDir()
	stdout := runCampaign(t, 100, "sql", "--dbms", "datafusion", "--dbms", "duckdb", "--dbms", "sqlite",
		"--seed", fmt.Sprint(testenv.Seed(t)), "-j", "2", "--quiet", "--oracle", "norec", "--out", out,
		"--fault", `drop-row:^SELECT \* FROM .* WHERE `, "--reduce-time", "1m")
	title := "diff: datafusion: returns different rows than duckdb,sqlite"
	rec := records(t, out)[title]
	if rec == nil {
		t.Fatalf("no finding %q:\n%s", title, stdout)
	}
	checkFired(t, out, rec, "wrong-result")
}
