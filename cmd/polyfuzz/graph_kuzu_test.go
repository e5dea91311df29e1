package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestKuzuDiffFires plants a fault in the kuzu target that drops a row: the differential
// against the reference reports it, reduced to a smaller graph and query that still fail when
// replayed, with a repro.sh that names the planted fault.
func TestKuzuDiffFires(t *testing.T) {
	out := t.TempDir()
	// A graph without relationships keeps Kùzu's walk semantics (kuzu-walk) out of the way, so the
	// one finding is the planted one, and its direction is kept by the reduction.
	rec := firedFinding(t, out, "diff: kuzu: misses rows of ref", "graph", "--engine", graphEngineArg(t, "kuzu"), "--oracle", "diff",
		"--seed", fmt.Sprint(testenv.Seed(t)), "--gen", "gdsmith{nodes=24 rels=0..0 queries=20}", "--quiet", "--out", out,
		"--fault", "drop-row:.", "--max-findings", "1", "--reduce-time", "1m", "--tests", "40")
	orig, red := checkReplayed(t, out, rec, "wrong-result")
	t.Logf("%s: reduced from %d setup statements and %d query bytes to %d and %d", rec.Title,
		len(orig.Setup), queryBytes(orig.Texts()), len(red.Setup), queryBytes(red.Texts()))
	if len(red.Setup) > len(orig.Setup)/2 || queryBytes(red.Texts()) > queryBytes(orig.Texts()) {
		t.Errorf("the reduced case is not smaller: %d setup statements, queries:\n%s", len(red.Setup),
			strings.Join(red.Texts(), "\n"))
	}
	repro, err := os.ReadFile(filepath.Join(out, "findings", rec.Hash, "repro.sh"))
	if err != nil || !strings.Contains(string(repro), "the fault polyfuzz planted in kuzu") {
		t.Errorf("repro.sh: %v\n%s", err, repro)
	}
}
