package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/cyphergen"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// forgetSet is a planted fault that forgets a SET of a property to a literal: the engine sees
// `SET x.k = x.k` instead, which leaves the property as it was.
const forgetSet = `[{"id": "forget-set", "kind": "rewrite", "match": "SET ", ` +
	`"find": "SET ([a-z0-9]+)\\.([a-z0-9]+) = ('[^']*'|-?[0-9]+|true|false)", "with": "SET $1.$2 = $1.$2"}]`

// TestGraphStateFires plants a driver fault that forgets a SET in Neo4j's and in FalkorDB's
// driver and checks that the state oracle reports it, reduced to a small graph and write query
// that still fail when replayed.
func TestGraphStateFires(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	for _, engine := range []string{"neo4j", "falkordb"} {
		t.Run(engine, func(t *testing.T) {
			out := t.TempDir()
			rec := firedFinding(t, out, "state: "+engine+": ", "graph", "--engine", graphEngineArg(t, engine),
				"--oracle", "state", "--seed", seed, "--gen", smallGraph, "--quiet", "--out", out, "--fault", forgetSet,
				"--max-findings", "1", "--reduce-time", "2m", "--tests", "40")
			orig, red := checkReplayed(t, out, rec, "wrong-result")
			write, _ := red.Query(cyphergen.GraphState.Role("write"))
			t.Logf("%s: reduced from %d setup statements and %d query bytes to %d and %q", rec.Title,
				len(orig.Setup), queryBytes(orig.Texts()), len(red.Setup), write)
			if !red.Writes || !strings.Contains(write, "SET ") {
				t.Errorf("the reduced case does not write with SET any more: %q", write)
			}
			if len(red.Setup) > len(orig.Setup)/2 || !slices.Contains(red.Texts(), write) {
				t.Errorf("%s: the reduced case is not smaller: %d setup statements", rec.Title, len(red.Setup))
			}
		})
	}
}
