package cyphergen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/cypherval"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

func TestShowValue(t *testing.T) {
	node := cypherval.Val{Kind: cypherval.Node, Labels: []string{"L2", "L0"}, M: map[string]cypherval.Val{
		"id": cypherval.IntVal(104), "k0": cypherval.StringVal("x, k1: y"), "k1": cypherval.BoolVal(true),
		"k2": cypherval.FloatVal(2), "k3": cypherval.NullVal}}
	rel := cypherval.Val{Kind: cypherval.Rel, Labels: []string{"T2"}, M: map[string]cypherval.Val{"id": cypherval.IntVal(163)}}
	bare := cypherval.Val{Kind: cypherval.Node, M: map[string]cypherval.Val{}}
	labelled := cypherval.Val{Kind: cypherval.Node, Labels: []string{"A"}, M: map[string]cypherval.Val{}}
	tests := []struct {
		in   string
		want string
	}{
		{"NULL", "null"},
		{"i:-8", "-8"},
		{"r:1", "1.0"},
		{"r:0.3", "0.3"},
		{"r:NaN", "NaN"},
		{"r:+Inf", "Infinity"},
		{"r:-Inf", "-Infinity"},
		{"B:false", "false"},
		{"t:it's", `'it\'s'`},
		{"t:", "''"},
		{cypherval.ListVal(cypherval.IntVal(1), cypherval.StringVal("a, b"), cypherval.NullVal).Canon(), "[1, 'a, b', null]"},
		{cypherval.ListVal().Canon(), "[]"},
		{cypherval.ListVal(cypherval.Val{Kind: cypherval.Map, M: map[string]cypherval.Val{}}).Canon(), "[{}]"},
		{cypherval.Val{Kind: cypherval.Map, M: map[string]cypherval.Val{"b": cypherval.StringVal("}"), "a": cypherval.IntVal(1)}}.Canon(),
			"{a: 1, b: '}'}"},
		{node.Canon(), "(:L0:L2 {id: 104, k0: 'x, k1: y', k1: true, k2: 2.0})"},
		{rel.Canon(), "[:T2 {id: 163}]"},
		{bare.Canon(), "()"},
		{labelled.Canon(), "(:A)"},
		{cypherval.Val{Kind: cypherval.Path, L: []cypherval.Val{labelled, rel, bare}}.Canon(), "(:A)-[:T2 {id: 163}]-()"},
		{"n:(:L0 {id: i:1", "n:(:L0 {id: i:1"}, // not canonical text: kept
		{"sat", "sat"},
	}
	for _, tc := range tests {
		if got := ShowValue(tc.in); got != tc.want {
			t.Errorf("ShowValue(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// loadCase reads a recorded graph finding's reduced case.
func loadCase(t *testing.T, name string) *fuzz.Case {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "graph-findings", name, "reduced.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := &fuzz.Case{}
	if err := json.Unmarshal(b, c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRepro runs reproducers on polyfuzz's reference evaluator, which is right by definition: a
// partition case whose partition queries were altered to lose rows reproduces (exit 0), the
// recorded FalkorDB partition case does not on the reference (exit 1), and what cannot be judged
// exits 2. The recorded engine findings run too when their servers' URLs are set.
func TestRepro(t *testing.T) {
	pf := testenv.PolyfuzzBinary(t)
	partition := loadCase(t, "falkordb-partition-optional")
	lossy := partition.Clone()
	for i, q := range lossy.Queries {
		if q.Role == "tlp.null" {
			lossy.Queries[i].Text = strings.Replace(q.Text, "IS NULL)", "IS NULL) AND false", 1)
		}
	}
	tlp := fuzz.ReproInfo{Oracle: "tlp-where", Kind: fuzz.KindWrongResult, Roles: []string{"tlp.orig", "tlp.p", "tlp.notp", "tlp.null"},
		Blamed: []string{"ref"}}
	tests := []struct {
		name    string
		c       *fuzz.Case
		engines []string
		in      fuzz.ReproInfo
		env     []string
		status  int
		output  string
	}{
		{"partitions keep the rows", partition, []string{"ref"}, tlp, nil, 1, "the partitions give the original rows"},
		{"partitions lose rows", lossy, []string{"ref"}, tlp, nil, 0, "the bug reproduces on ref"},
		{"a planted fault", partition, []string{"ref"}, fuzz.ReproInfo{Oracle: "tlp-where", Kind: fuzz.KindWrongResult,
			Fault: "drop-row:MATCH", Targets: []fuzz.ReproTarget{{Name: "ref"}}}, nil, 2, "planted in ref"},
		{"no polyfuzz", partition, []string{"ref"}, tlp, []string{"POLYFUZZ=/nonexistent/polyfuzz"}, 2, "/nonexistent/polyfuzz not found"},
		{"no URL", partition, []string{"falkordb", "ref"}, fuzz.ReproInfo{Oracle: "diff", Kind: fuzz.KindWrongResult,
			Roles: []string{"tlp.orig"}}, []string{"POLYFUZZ_FALKORDB_URL="}, 2, "set POLYFUZZ_FALKORDB_URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Header = "title\nreplay: polyfuzz replay DIR"
			f := Format{Engines: tc.engines, Env: map[string]string{"falkordb": "POLYFUZZ_FALKORDB_URL", "neo4j": "POLYFUZZ_NEO4J_URL"}}
			status, out := testenv.RunRepro(t, f.Repro(tc.c, tc.in), append([]string{"POLYFUZZ=" + pf}, tc.env...)...)
			if status != tc.status || !strings.Contains(out, tc.output) {
				t.Errorf("exit status %d, want %d, and output lacking %q?\n%s", status, tc.status, tc.output, out)
			}
		})
	}
}

// TestReproRecordedFindings runs the reproducers of the engine bugs in testdata/graph-findings on
// the engine they blame and the reference evaluator, when the engine's server URL is set: each
// must reproduce.
func TestReproRecordedFindings(t *testing.T) {
	pf := testenv.PolyfuzzBinary(t)
	env := map[string]string{"falkordb": "POLYFUZZ_FALKORDB_URL", "neo4j": "POLYFUZZ_NEO4J_URL"}
	tests := []struct {
		dir, engine, oracle string
		roles               []string
	}{
		{"falkordb-optional-missing-label", "falkordb", "diff", []string{"graph.q"}},
		{"falkordb-partition-optional", "falkordb", "tlp-where", []string{"tlp.orig", "tlp.p", "tlp.notp", "tlp.null"}},
		{"falkordb-tointeger-floor", "falkordb", "diff", []string{"tlp.orig"}},
		{"neo4j-range-step", "neo4j", "diff", []string{"tlp.orig"}},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			testenv.NeedDSN(t, env[tc.engine])
			engines := []string{tc.engine}
			if tc.oracle == "diff" {
				engines = append(engines, "ref")
			}
			in := fuzz.ReproInfo{Header: tc.dir, Oracle: tc.oracle, Kind: fuzz.KindWrongResult, Roles: tc.roles, Blamed: []string{tc.engine}}
			status, out := testenv.RunRepro(t, Format{Engines: engines, Env: env}.Repro(loadCase(t, tc.dir), in), "POLYFUZZ="+pf)
			if status != 0 {
				t.Errorf("exit status %d, want 0\n%s", status, out)
			}
		})
	}
}
