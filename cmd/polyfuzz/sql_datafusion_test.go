package main

import (
	"fmt"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

// needDataFusion skips t (fails it in CI) unless the project's Python has the datafusion module.
func needDataFusion(t *testing.T) {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "datafusion")
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
