package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/cyphergen"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestGraphRewritesFire plants in each engine a fault that drops a row only of queries whose
// first pattern starts at a node other than n0: the generator starts every query with MATCH (n0,
// and a rewrite that reverses or re-covers the first pattern starts elsewhere. The rewriting
// oracles must report the rewrite missing rows, reduced, and reproduced by replay.
func TestGraphRewritesFire(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	tests := []struct {
		name, engine, oracle string
	}{
		{"genie on neo4j", "neo4j", "genie"},
		{"grev on neo4j", "neo4j", "grev"},
		{"grev on falkordb", "falkordb", "grev"},
		{"genie on falkordb", "falkordb", "genie"},
		{"grev on the reference", "ref", "grev"},
		{"genie on the reference", "ref", "genie"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			prefix := tc.oracle + ": " + tc.engine + ": the "
			rec := firedFinding(t, out, prefix, "graph", "--engine", graphEngineArg(t, tc.engine), "--oracle", tc.oracle,
				"--seed", seed, "--gen", smallGraph, "--quiet", "--out", out, "--fault", `drop-row:^MATCH \((m|n[1-9])`,
				"--max-findings", "1", "--reduce-time", "1m", "--tests", "200")
			if !strings.Contains(rec.Title, "misses rows of the original") {
				t.Errorf("title %q: the rewrite should miss rows", rec.Title)
			}
			orig, red := checkReplayed(t, out, rec, "wrong-result")
			t.Logf("%s: reduced from %d setup statements and %d query bytes to %d and %d:\n%s", rec.Title,
				len(orig.Setup), queryBytes(orig.Texts()), len(red.Setup), queryBytes(red.Texts()), strings.Join(red.Texts(), "\n"))
			if len(red.Setup) >= len(orig.Setup) || queryBytes(red.Texts()) > queryBytes(orig.Texts()) {
				t.Errorf("%s: the reduced case is not smaller", rec.Title)
			}
			if len(red.Queries) != 2 || red.Queries[0].Role != cyphergen.RoleQuery || !strings.HasPrefix(red.Queries[1].Role, tc.oracle+".") {
				t.Errorf("reduced case's queries: %+v", red.Queries)
			}
		})
	}
}
