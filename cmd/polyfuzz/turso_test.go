package main

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
	"github.com/polyfuzz/polyfuzz/targets/turso"
)

// needTurso skips t, or fails it in CI, when the project's Python lacks the turso module.
func needTurso(t *testing.T) {
	t.Helper()
	py := rowserver.Python("")
	if err := exec.Command(py, "-c", "import turso").Run(); err != nil {
		testenv.Missing(t, "the Python module turso (pyturso) is missing for "+py+": "+turso.Fix)
	}
}

// TestTursoDiffFires runs the differential over Turso and SQLite, the cases in the dialect both
// read, with a fault in Turso: the diff finding is a wrong result, reduced and replayed.
func TestTursoDiffFires(t *testing.T) {
	needTurso(t)
	out := t.TempDir()
	stdout := runCampaign(t, 400, "sql", "--dbms", "turso", "--dbms", "sqlite", "--oracle", "norec",
		"--seed", fmt.Sprint(testenv.Seed(t)), "-j", "2", "--quiet", "--out", out,
		"--fault", `drop-row:^SELECT \* FROM .* WHERE `, "--reduce-time", "1m")
	var rec *campaign.Record
	for title, r := range records(t, out) {
		if strings.HasPrefix(title, "diff: ") && (rec == nil || r.Hits > rec.Hits) {
			rec = r
		}
	}
	if rec == nil {
		t.Fatalf("no diff finding:\n%s", stdout)
	}
	if !strings.Contains(rec.Title, "sqlite vs turso") {
		t.Errorf("diff finding %q; want one between sqlite and turso", rec.Title)
	}
	_, red := checkFired(t, out, rec, "wrong-result")
	if len(red.Setup) > 6 || len(red.Queries) > 2 {
		t.Errorf("%s: reduced case has %d setup statements and %d queries, want a handful",
			rec.Title, len(red.Setup), len(red.Queries))
	}
	if !strings.Contains(red.Gen, "dialect=turso") {
		t.Errorf("case options %q; want the turso dialect, which SQLite reads too", red.Gen)
	}
}
