package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/cyphergen"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/bolt"
	"github.com/polyfuzz/polyfuzz/targets/falkordb"
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

// TestWriteSemanticsAgree runs write queries whose meaning the reference models (per-row MERGE,
// SET to null, undirected MERGE, writes seen by later clauses, DETACH DELETE) on Neo4j, FalkorDB
// and the reference over one small graph, each isolated, and checks that every engine returns
// the reference's rows for the write and for the graph read back after it.
func TestWriteSemanticsAgree(t *testing.T) {
	setup := []string{
		"CREATE (:A {id: 0, v: 1}), (:A:B {id: 1, v: 2}), (:B {id: 2}), ({id: 3})",
		"MATCH (a {id: 0}), (b {id: 1}) CREATE (a)-[:T {id: 4}]->(b)",
		"MATCH (a {id: 1}), (b {id: 2}) CREATE (a)-[:T {id: 5}]->(b)",
		"MATCH (a {id: 2}), (b {id: 0}) CREATE (a)-[:U {id: 6}]->(b)",
		"MATCH (a {id: 3}) CREATE (a)-[:U {id: 7}]->(a)",
	}
	writes := []string{
		"MATCH (n:A) MERGE (m:C {id: 30}) RETURN n.id, m.id",
		"MATCH (n:A) MERGE (m:C {id: n.v}) RETURN m.id",
		"MATCH (a {id: 1}), (b {id: 0}) MERGE (a)-[r:T]-(b) RETURN r.id",
		"MATCH (a {id: 1}), (b {id: 0}) MERGE (a)-[r:V]->(b) RETURN count(*) AS c",
		"MATCH (n {id: 0}) SET n.v = null, n += {w: 'x', v2: null} RETURN n",
		"MATCH (n {id: 2}) SET n:A WITH n MATCH (m:A) RETURN count(m) AS c",
		"MATCH (n:A), (m:B) SET n.v = 9 RETURN count(*) AS c",
		"MATCH (n {id: 1}) REMOVE n.v, n:A RETURN n",
		"MATCH (a {id: 0}) CREATE (a)<-[:V {id: 8}]-(b:C {id: 12}) RETURN b.id",
		"MATCH (n {id: 0}) DETACH DELETE n RETURN count(*) AS c",
		"MATCH ()-[r:U]->() DELETE r RETURN count(*) AS c",
	}
	nodes, rels := cyphergen.StateQueries()
	want := map[string][][]string{} // write → the reference's rows of the write and read-backs
	ref := cyphergen.NewReference()
	ctx := t.Context()
	if _, err := fuzz.ExecAll(ctx, ref, setup); err != nil {
		t.Fatal(err)
	}
	for _, w := range writes {
		rs, _ := ref.ExecIsolated(ctx, []string{w, nodes, rels})
		for _, r := range rs {
			if r.Failed() {
				t.Fatalf("reference: %s: %s", w, r.Err)
			}
			want[w] = append(want[w], sortedRows(r.Rows))
		}
	}
	for _, engine := range []string{"neo4j", "falkordb"} {
		t.Run(engine, func(t *testing.T) {
			url := strings.SplitN(graphEngineArg(t, engine), "=", 2)[1]
			var tg fuzz.Target
			var err error
			if engine == "neo4j" {
				tg, err = bolt.Open(ctx, bolt.Options{URL: url, Timeout: 10 * time.Second})
			} else {
				tg, err = falkordb.Open(ctx, falkordb.Options{URL: url, Timeout: 10 * time.Second})
			}
			if err != nil {
				t.Fatal(err)
			}
			defer tg.Close()
			for _, w := range writes {
				tg.Reset(ctx)
				if _, err := fuzz.ExecAll(ctx, tg, setup); err != nil {
					t.Fatal(err)
				}
				rs, err := fuzz.ExecAll(ctx, tg, []string{w, nodes, rels})
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range rs {
					if got := sortedRows(r.Rows); r.Failed() || !slices.Equal(got, want[w][i]) {
						t.Errorf("%s (query %d): %s %s\n got %q\nwant %q (the reference)", w, i, r.Status, r.Err, got, want[w][i])
					}
				}
			}
		})
	}
}

// sortedRows joins each row's values and sorts the rows.
func sortedRows(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, " | ")
	}
	slices.Sort(out)
	return out
}
