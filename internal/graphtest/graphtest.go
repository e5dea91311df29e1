// Package graphtest holds what the graph targets' tests share: finding the test servers
// (NeedNeo4j, NeedFalkorDB, which skip locally and fail in CI when scripts/test.sh did not start
// them), the graph and the queries whose canonical rows every engine must give alike (Values),
// and a check that runs them (CheckValues). It imports only fuzz and the standard library.
package graphtest

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// The environment variables scripts/neo4j.sh and scripts/falkordb.sh export.
const (
	Neo4jEnv    = "POLYFUZZ_NEO4J_URL"
	FalkorDBEnv = "POLYFUZZ_FALKORDB_URL"
	// RedisServerEnv names the redis-server binary that carries FalkorDB (scripts/falkordb.sh
	// exports it), for tests that start a server of their own with other settings.
	RedisServerEnv = "POLYFUZZ_REDIS_SERVER"
)

// NeedNeo4j returns the test Neo4j server's URL; it skips t when it is not set, or fails t in CI.
func NeedNeo4j(t testing.TB) string { return need(t, Neo4jEnv, "scripts/neo4j.sh", "neo4j_start") }

// Neo4jVersions are the Neo4j releases scripts/test.sh starts beside the default one (5.26): the
// oldest line polyfuzz supports (4.4) and the newest release on Maven Central when it was last
// looked up (scripts/neo4j.sh says how). Each server's URL is in POLYFUZZ_NEO4J_URL_<VERSION>.
var Neo4jVersions = []string{"4.4.48", "2026.08.1"}

// Neo4jServer is one test Neo4j server: Version is "" for the default server (POLYFUZZ_NEO4J_URL).
type Neo4jServer struct{ Version, Env string }

// Neo4jServers returns the default test server and one per release of [Neo4jVersions], for tests
// that run on each; Need returns a server's URL.
func Neo4jServers() []Neo4jServer {
	out := []Neo4jServer{{Env: Neo4jEnv}}
	for _, v := range Neo4jVersions {
		out = append(out, Neo4jServer{Version: v, Env: Neo4jEnv + "_" + strings.NewReplacer(".", "_", "-", "_").Replace(v)})
	}
	return out
}

// Name names the server in subtests: its version, or "default".
func (s Neo4jServer) Name() string {
	if s.Version == "" {
		return "default"
	}
	return s.Version
}

// Need returns the server's URL; it skips t when it is not set, or fails t in CI.
func (s Neo4jServer) Need(t testing.TB) string {
	t.Helper()
	if s.Version == "" {
		return NeedNeo4j(t)
	}
	return need(t, s.Env, "scripts/neo4j.sh", "neo4j_start_version "+s.Version+" PORT")
}

// NeedFalkorDB returns the test FalkorDB server's URL; it skips t when it is not set, or fails t
// in CI.
func NeedFalkorDB(t testing.TB) string {
	return need(t, FalkorDBEnv, "scripts/falkordb.sh", "falkordb_start")
}

// NeedRedisServer returns the path of the redis-server binary that carries FalkorDB; it skips t
// when it is not known, or fails t in CI.
func NeedRedisServer(t testing.TB) string {
	return need(t, RedisServerEnv, "scripts/falkordb.sh", "falkordb_start")
}

func need(t testing.TB, env, script, start string) string {
	t.Helper()
	u := os.Getenv(env)
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set in CI: the test script (scripts/test.sh) should have started the server and set it", env)
		}
		t.Skipf("%s is not set; run scripts/test.sh, or source %s and run %s", env, script, start)
	}
	return u
}

// Setup builds the graph the Values queries read: (:A {id: 1, name: 'a'})-[:T {w: 2.5}]->(:B:C {id: 2}).
var Setup = []string{
	"CREATE (:A {id: 1, name: 'a'})",
	"CREATE (:B:C {id: 2})",
	"MATCH (a {id: 1}), (b {id: 2}) CREATE (a)-[:T {w: 2.5}]->(b)",
}

// Value is a query and the canonical rows every engine must answer it with.
type Value struct {
	Name  string
	Query string
	Rows  [][]string
}

// Values are queries over Setup's graph with the same answer on every engine, one kind of value
// or more each.
var Values = []Value{
	{"scalars", "RETURN 1 AS a, 1.5 AS b, 'x' AS c, true AS d, null AS e, -7 AS f",
		[][]string{{"i:1", "r:1.5", "t:x", "B:true", "NULL", "i:-7"}}},
	{"list and map", "RETURN [1, 'a', null] AS l, {a: 1, b: [2.5]} AS m",
		[][]string{{"l:[i:1, t:a, NULL]", "m:{a: i:1, b: l:[r:2.5]}"}}},
	{"nested", "RETURN [[1], [], {k: false}] AS x", [][]string{{"l:[l:[i:1], l:[], m:{k: B:false}]"}}},
	{"floats", "RETURN 0.1 + 0.2 AS a, 1.0 AS b, -2.5e20 AS c, 1.0 / 3 AS d",
		[][]string{{"r:0.3", "r:1", "r:-2.5e+20", "r:0.333333333333333"}}},
	{"node", "MATCH (n:A) RETURN n", [][]string{{"n:(:A {id: i:1, name: t:a})"}}},
	{"two labels", "MATCH (n:C) RETURN n", [][]string{{"n:(:B:C {id: i:2})"}}},
	{"relationship", "MATCH ()-[r]->() RETURN r, type(r) AS t", [][]string{{"e:[:T {w: r:2.5}]", "t:T"}}},
	{"path", "MATCH p = (:A)-[:T]->() RETURN p",
		[][]string{{"p:<n:(:A {id: i:1, name: t:a}), e:[:T {w: r:2.5}], n:(:B:C {id: i:2})>"}}},
	{"reverse path", "MATCH p = (:B)<-[:T]-() RETURN p",
		[][]string{{"p:<n:(:B:C {id: i:2}), e:[:T {w: r:2.5}], n:(:A {id: i:1, name: t:a})>"}}},
	{"properties", "MATCH (n) RETURN n.id AS id, n.name AS name ORDER BY id",
		[][]string{{"i:1", "t:a"}, {"i:2", "NULL"}}},
	{"aggregates", "MATCH (n) RETURN count(n) AS c, max(n.id) AS s, collect(n.name) AS l",
		[][]string{{"i:2", "i:2", "l:[t:a]"}}},
	{"ordered rows", "UNWIND [3, 1, 2] AS x RETURN x ORDER BY x", [][]string{{"i:1"}, {"i:2"}, {"i:3"}}},
	{"no rows", "MATCH (n:Missing) RETURN n", [][]string{}},
	{"node in a list", "MATCH (n:A) RETURN [n, 1] AS l", [][]string{{"l:[n:(:A {id: i:1, name: t:a}), i:1]"}}},
	{"node in a map", "MATCH (n:A) RETURN {n: n} AS m", [][]string{{"m:{n: n:(:A {id: i:1, name: t:a})}"}}},
}

// CheckValues runs Setup on tg (reset first) and checks that each Values query answers OK with its
// rows, in a subtest named after it; it returns the results.
func CheckValues(t *testing.T, tg fuzz.Target) []*fuzz.Result {
	t.Helper()
	ctx := context.Background()
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for _, s := range Setup {
		if r, err := tg.Exec(ctx, s); err != nil || r.Status != fuzz.StatusOK {
			t.Fatalf("%s: %v %+v", s, err, r)
		}
	}
	out := make([]*fuzz.Result, len(Values))
	for i, v := range Values {
		t.Run(v.Name, func(t *testing.T) {
			r, err := tg.Exec(ctx, v.Query)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = r
			if r.Status != fuzz.StatusOK || len(v.Rows) > 0 && len(r.Columns) != len(v.Rows[0]) {
				t.Fatalf("%s: %+v", v.Query, r)
			}
			rows := r.Rows
			if rows == nil {
				rows = [][]string{}
			}
			if !reflect.DeepEqual(rows, v.Rows) {
				t.Errorf("%s\n got %q\nwant %q", v.Query, rows, v.Rows)
			}
		})
	}
	return out
}
