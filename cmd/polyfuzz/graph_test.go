package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/cyphergen"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/domain/graphdom"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/graphtest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// smallGraph is the --gen of the graph tests that reduce findings on real engines: GDsmith's
// generator with 24 nodes, so that each reduction step sets up a small graph.
const smallGraph = "gdsmith{nodes=24 queries=20}"

// graphEngineArg returns the --engine value for a graph engine, skipping t (failing it in CI)
// when its server is not running.
func graphEngineArg(t *testing.T, name string) string {
	t.Helper()
	switch name {
	case "neo4j":
		return name + "=" + graphtest.NeedNeo4j(t)
	case "falkordb":
		return name + "=" + graphtest.NeedFalkorDB(t)
	}
	return name
}

// TestGraphOraclesFire plants faults in the real engines' drivers and checks that the
// differential and the partition oracle each report a wrong result, and the error oracle an
// unexpected error, reduced to a small graph and query that still fail when replayed.
func TestGraphOraclesFire(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	tests := []struct {
		name, engine, fault, oracle, prefix string
		extra                               []string
		kind                                string // "" for wrong-result
	}{
		// The title says which way the rows differ, and the reduction keeps it: a dropped row
		// stays a missing one.
		{"diff drops a row", "neo4j", "drop-row:.", "diff", "diff: neo4j: misses rows of ref", nil, ""},
		{"diff changes a value", "neo4j", "change-value:.", "diff", "diff: neo4j: ", nil, ""},
		{"partition drops a row", "falkordb", "drop-row:.", "partition", "tlp-where: falkordb: ", []string{"--ref=false"}, ""},
		{"partition changes a value", "neo4j", "change-value:.", "partition", "tlp-where: neo4j: ", []string{"--ref=false"}, ""},
		{"error on a valid query", "falkordb", "error:.", "partition", "error: falkordb: fault ", []string{"--ref=false"},
			"unexpected-error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"graph", "--engine", graphEngineArg(t, tc.engine), "--oracle", tc.oracle, "--seed", seed,
				"--gen", smallGraph, "--quiet", "--out", out, "--fault", tc.fault, "--max-findings", "1", "--reduce-time", "2m",
				"--tests", "40"}, tc.extra...)
			rec := firedFinding(t, out, tc.prefix, args...)
			kind := tc.kind
			if kind == "" {
				kind = "wrong-result"
			}
			orig, red := checkReplayed(t, out, rec, kind) // --max-findings 1 may stop at the first hit
			t.Logf("%s: reduced from %d setup statements and %d query bytes to %d and %d", rec.Title,
				len(orig.Setup), queryBytes(orig.Texts()), len(red.Setup), queryBytes(red.Texts()))
			if len(red.Setup) > len(orig.Setup)/2 || queryBytes(red.Texts()) > queryBytes(orig.Texts()) {
				t.Errorf("%s: the reduced case is not smaller: %d setup statements, queries:\n%s", rec.Title,
					len(red.Setup), strings.Join(red.Texts(), "\n"))
			}
			repro, err := os.ReadFile(filepath.Join(out, "findings", rec.Hash, "repro.sh"))
			// A planted fault lives in polyfuzz's wrapper: repro.sh says so and exits 2.
			if err != nil || !strings.Contains(string(repro), "the fault polyfuzz planted in "+tc.engine) {
				t.Errorf("repro.sh: %v\n%s", err, repro)
			}
		})
	}
}

func queryBytes(texts []string) int {
	n := 0
	for _, s := range texts {
		n += len(s)
	}
	return n
}

// TestGraphNeo4jAgrees runs generated queries on Neo4j and the reference evaluator without a
// fault: no finding, and most queries return rows.
func TestGraphNeo4jAgrees(t *testing.T) {
	out := t.TempDir()
	stdout := runCampaign(t, 100, "graph", "--engine", graphEngineArg(t, "neo4j"), "--seed", fmt.Sprint(testenv.Seed(t)),
		"--quiet", "--out", out)
	if recs := records(t, out); len(recs) != 0 {
		for title := range recs {
			t.Errorf("finding: %s", title)
		}
		t.Fatalf("Neo4j and the reference disagree:\n%s", stdout)
	}
	if !strings.Contains(stdout, "[guidance: non-empty]") {
		t.Errorf("the summary does not report the share of non-empty queries:\n%s", stdout)
	}
	t.Logf("%s", stdout)
}

// TestGraphNeo4jVersionsAgree runs generated queries on each Neo4j release beside the default
// one (4.4 and the newest) and the reference, naming the version: the campaign opens a server of
// that version, and the versioned catalogue (Neo4j 4.4's simple CASE) leaves no finding.
func TestGraphNeo4jVersionsAgree(t *testing.T) {
	for _, s := range graphtest.Neo4jServers()[1:] {
		t.Run(s.Name(), func(t *testing.T) {
			out := t.TempDir()
			stdout := runCampaign(t, 10, "graph", "--engine", "neo4j@"+s.Version+"="+s.Need(t), "--seed",
				fmt.Sprint(testenv.Seed(t)), "--out", out)
			if !strings.Contains(stdout, "targets: neo4j "+s.Version+" ref") {
				t.Errorf("the campaign does not name neo4j %s:\n%s", s.Version, stdout)
			}
			for title := range records(t, out) {
				t.Errorf("finding: %s", title)
			}
		})
	}
}

// TestGraphRefOnly runs a campaign with no engine installed: the reference evaluator alone,
// checked by the partition oracle, with guidance measured.
func TestGraphRefOnly(t *testing.T) {
	out := t.TempDir()
	stdout := runCampaign(t, 300, "graph", "--engine", "ref", "--oracle", "partition", "--seed", fmt.Sprint(testenv.Seed(t)),
		"--quiet", "--out", out)
	if recs := records(t, out); len(recs) != 0 {
		t.Fatalf("the reference evaluator breaks a partition:\n%s", stdout)
	}
	if !strings.Contains(stdout, "[guidance: non-empty]") {
		t.Errorf("the summary does not report guidance:\n%s", stdout)
	}
}

// TestGraphBadInput checks the one-line messages for unreachable engines, wrong credentials,
// URLs of the wrong scheme or of the other engine, and bad flags.
func TestGraphBadInput(t *testing.T) {
	neo4j, falkor := graphtest.NeedNeo4j(t), graphtest.NeedFalkorDB(t)
	hostOf := func(url string) string { _, h, _ := strings.Cut(url, "://"); return h }
	dir := t.TempDir()
	tests := []badInput{
		{"unreachable neo4j", []string{"graph", "--engine", "neo4j=bolt://127.0.0.1:1", "--out", dir}, 1,
			"cannot reach neo4j at 127.0.0.1:1: connection refused; is the server running?"},
		{"unreachable falkordb", []string{"graph", "--engine", "falkordb=redis://127.0.0.1:1", "--out", dir}, 1,
			"cannot reach falkordb at 127.0.0.1:1: connection refused"},
		{"wrong credentials", []string{"graph", "--engine", "falkordb=redis://bob:s3cret@" + hostOf(falkor), "--out", dir}, 1,
			`refused user "bob": wrong password or no such user`},
		{"unknown scheme", []string{"graph", "--engine", "neo4j=http://" + hostOf(neo4j), "--out", dir}, 1,
			"neo4j wants a bolt:// or neo4j:// URL"},
		{"falkordb given a bolt URL", []string{"graph", "--engine", "falkordb=bolt://" + hostOf(neo4j), "--out", dir}, 1,
			"falkordb wants a redis:// URL"},
		{"bolt on a Redis port", []string{"graph", "--engine", "neo4j=bolt://" + hostOf(falkor), "--out", dir}, 1,
			"speaks Redis's protocol (RESP), not Bolt"},
		{"redis on a Bolt port", []string{"graph", "--engine", "falkordb=redis://" + hostOf(neo4j), "--out", dir}, 1,
			"speaks Bolt (Neo4j or Memgraph), not Redis's protocol"},
		{"unknown engine", []string{"graph", "--engine", "tigergraph=http://x"}, 2, `unknown engine "tigergraph"`},
		{"two workers on neo4j", []string{"graph", "--engine", "neo4j=" + neo4j, "-j", "2"}, 2,
			"neo4j offers one graph per server, so a campaign on it runs one worker"},
		{"unknown oracle", []string{"graph", "--oracle", "pqs"}, 2, `unknown --oracle "pqs"`},
		{"bad gen options", []string{"graph", "--gen", "gdsmith{nodes=x}"}, 2, "--gen:"},
		{"no logic oracle", []string{"graph", "--ref=false", "--engine", "neo4j=" + neo4j, "--oracle", "diff"}, 2,
			"no logic oracle to run"},
		{"run without a file", []string{"graph", "run"}, 2, "want one argument"},
	}
	checkBadInputs(t, tests)
	for _, tc := range tests {
		if _, _, stderr := polyfuzz(t, tc.args...); strings.Contains(stderr, "s3cret") {
			t.Errorf("%s: the message shows the password:\n%s", tc.name, stderr)
		}
	}
}

// TestGraphRun runs a case script on the reference evaluator.
func TestGraphRun(t *testing.T) {
	script := filepath.Join(t.TempDir(), "case.cypher")
	c := cyphergen.Format{}.CaseText(&fuzz.Case{
		Setup:   []string{"CREATE (:L0 {id: 1, k: 'a'})", "CREATE ({id: 2})"},
		Queries: []fuzz.Query{{Role: "graph.q", Text: "MATCH (n) RETURN n.id AS c0, n.k AS c1 ORDER BY c0"}},
	}, nil)
	if err := os.WriteFile(script, c, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := polyfuzz(t, "graph", "run", "--engine", "ref", script)
	want := "== graph.q\nc0 | c1\ni:1 | t:a\ni:2 | NULL\n(2 rows)\n"
	if code != 0 || stdout != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", code, stdout, want, stderr)
	}
}

// needVersions skips t (fails it in CI) when the finding in dir was recorded on an engine
// release (NAME@VERSION) whose server's URL variable is not set.
func needVersions(t *testing.T, dir string) {
	t.Helper()
	rec, _, _, err := campaign.LoadFinding(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := graphdom.Domain.Decode(rec.Options, rec.Gen)
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range s.Engines {
		if e, ok := graphdom.Domain.Engine(sp.Engine); ok && sp.Version != "" && e.Env != "" {
			if env := domain.VersionEnv(e.Env, sp.Version); os.Getenv(env) == "" {
				testenv.Missing(t, env+" is not set: scripts/test.sh starts "+sp.Engine+" "+sp.Version)
			}
		}
	}
}

// TestRecordedGraphFindings replays the engine bugs kept in testdata/graph-findings (docs/graph.md).
func TestRecordedGraphFindings(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "graph-findings", "*"))
	if len(dirs) == 0 {
		t.Fatal("no recorded findings in testdata/graph-findings")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			needVersions(t, dir)
			replayRecorded(t, dir, func(engines []string) {
				for _, name := range engines {
					graphEngineArg(t, name)
				}
			})
		})
	}
}
