package bolt

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/graphtest"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		url    string
		worker int
		want   boltURL
		driver string
	}{
		{"bolt://127.0.0.1:7687", 0, boltURL{scheme: "bolt", host: "127.0.0.1", port: "7687"}, "bolt://127.0.0.1:7687"},
		{"neo4j://u:p%40ss@db.example:9999?database=g", 0,
			boltURL{scheme: "neo4j", user: "u", password: "p@ss", host: "db.example", port: "9999", database: "g"}, "neo4j://db.example:9999"},
		{"bolt://h", 0, boltURL{scheme: "bolt", host: "h", port: "7687"}, "bolt://h:7687"},
		{"BOLT+S://h:1?database=fuzz{worker}", 3, boltURL{scheme: "bolt+s", host: "h", port: "1", database: "fuzz3"}, "bolt+s://h:1"},
	}
	for _, tc := range tests {
		u, err := parseURL("neo4j", tc.url, tc.worker)
		if err != nil {
			t.Errorf("parseURL(%q): %v", tc.url, err)
			continue
		}
		if *u != tc.want || u.driverURL() != tc.driver {
			t.Errorf("parseURL(%q) = %+v (driver %s), want %+v (driver %s)", tc.url, *u, u.driverURL(), tc.want, tc.driver)
		}
	}
}

func TestRedact(t *testing.T) {
	if got := Redact("bolt://neo4j:s3cret@h:7687?database=x"); got != "bolt://neo4j:***@h:7687?database=x" {
		t.Errorf("Redact = %q", got)
	}
}

// open opens a target on the test server (or opts.URL) and closes it when t ends.
func open(t testing.TB, opts Options) *Target {
	t.Helper()
	if opts.URL == "" {
		opts.URL = graphtest.NeedNeo4j(t)
	}
	return sqltest.Open(t, func(ctx context.Context) (*Target, error) { return Open(ctx, opts) })
}

// eachServer runs f in a subtest on each test server: the default one (5.26) and each release of
// graphtest.Neo4jVersions (4.4, the newest), with its URL and the version it should report.
func eachServer(t *testing.T, f func(t *testing.T, url, version string)) {
	for _, s := range graphtest.Neo4jServers() {
		t.Run(s.Name(), func(t *testing.T) {
			version := s.Version
			if version == "" {
				version = "5."
			}
			f(t, s.Need(t), version)
		})
	}
}

// driver connects to the test server beside the target, as the test's own client.
func driver(t testing.TB) neo4j.DriverWithContext {
	t.Helper()
	return driverAt(t, graphtest.NeedNeo4j(t))
}

// driverAt connects to the server at url as the test's own client.
func driverAt(t testing.TB, url string) neo4j.DriverWithContext {
	t.Helper()
	d, err := neo4j.NewDriverWithContext(url, neo4j.NoAuth())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close(context.Background()) })
	return d
}

// run runs q on d and returns the first column of its rows.
func run(t testing.TB, d neo4j.DriverWithContext, q string) []any {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, q, nil, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []any
	for _, r := range res.Records {
		out = append(out, r.Values[0])
	}
	return out
}

func TestValues(t *testing.T) { eachServer(t, testValues) }

func testValues(t *testing.T, url, version string) {
	tg := open(t, Options{URL: url})
	if v := tg.Version(); !strings.HasPrefix(v, version) || tg.Name() != "neo4j" {
		t.Errorf("Name, Version = %q, %q, want neo4j %s", tg.Name(), v, version)
	}
	graphtest.CheckValues(t, tg)
	// Values only Neo4j produces this way.
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{
		{"path made by CREATE", "CREATE p = (:X {id: 9})-[:U]->(:Y) RETURN p",
			sqltest.OK([]string{"p"}, []string{"p:<n:(:X {id: i:9}), e:[:U {}], n:(:Y {})>"})},
		{"path through a self-loop and back", "CREATE p = (a:X {id: 1})-[:U]->(a)<-[:V]-(b:Y)-[:W]->(a) RETURN p",
			sqltest.OK([]string{"p"}, []string{"p:<n:(:X {id: i:1}), e:[:U {}], n:(:X {id: i:1}), e:[:V {}], n:(:Y {}), e:[:W {}], n:(:X {id: i:1})>"})},
		{"write without rows", "CREATE (:Z)", &fuzz.Result{Status: fuzz.StatusOK, Columns: []string{}, Rows: [][]string{}}},
		{"special floats", "RETURN 1e308 * 10 AS a, -0.0 AS b", sqltest.OK([]string{"a", "b"}, []string{"r:+Inf", "r:-0"})},
		{"date as text", "RETURN date('2024-01-02') AS d", sqltest.OK([]string{"d"}, []string{"t:2024-01-02"})},
	})
}

func TestErrors(t *testing.T) { eachServer(t, testErrors) }

func testErrors(t *testing.T, url, _ string) {
	tg := open(t, Options{URL: url})
	tests := []struct{ name, stmt, code, msg string }{
		{"syntax", "RETURN 1 +", "Neo.ClientError.Statement.SyntaxError", "Invalid input"},
		{"division by zero", "RETURN 1 / 0", "Neo.ClientError.Statement.ArithmeticError", "/ by zero"},
		{"type", "UNWIND [1, 'a'] AS x RETURN x - 1", "Neo.ClientError.Statement.TypeError", "Cannot subtract"},
		{"unknown function", "RETURN nosuch(1)", "Neo.ClientError.Statement.SyntaxError", "Unknown function"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tg.Exec(context.Background(), tc.stmt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != fuzz.StatusEngineError || r.Code != tc.code || !strings.Contains(r.Err, tc.msg) {
				t.Fatalf("%s: %+v, want engine error %s %q", tc.stmt, r, tc.code, tc.msg)
			}
			sqltest.MustExec(t, tg, "RETURN 1")
		})
	}
}

func TestTimeout(t *testing.T) { eachServer(t, testTimeout) }

func testTimeout(t *testing.T, url, version string) {
	// Neo4j checks transaction timeouts every 2 s; 4.4 does not stop a read that touches no
	// store, so the client's backstop ends it (timeout + 5 s).
	read := 4 * time.Second
	if strings.HasPrefix(version, "4.") {
		read = 6 * time.Second
	}
	sqltest.CheckTimeouts(t, open(t, Options{URL: url, Timeout: 200 * time.Millisecond}), "RETURN 1", []sqltest.TimeoutCase{
		{"long read", "", "UNWIND range(1, 1000000000) AS x RETURN count(*)", read},
		// The write overwrites one property, so that it runs long without filling Neo4j's
		// transaction memory (which a CREATE per row reaches in about 2 s on a fast machine).
		{"long write", "", "MERGE (n:N {k: 0}) WITH n UNWIND range(1, 1000000000) AS x SET n.v = x", 4 * time.Second},
	})
}

func TestReset(t *testing.T) { eachServer(t, testReset) }

func testReset(t *testing.T, url, version string) {
	// The default server's test makes more nodes than three batches of the batched delete
	// (10,000 rows each); the others, one batch (a 4.4 server takes a minute for 12,000).
	n := 3000
	if version == "5." {
		n = 25000
	}
	d := driverAt(t, url)
	run(t, d, "CREATE INDEX polyfuzz_test_kept IF NOT EXISTS FOR (n:Kept) ON (n.k)")
	t.Cleanup(func() {
		run(t, d, "DROP INDEX polyfuzz_test_kept IF EXISTS")
		run(t, d, "DROP CONSTRAINT polyfuzz_test_unique IF EXISTS")
		run(t, d, "DROP INDEX polyfuzz_test_made IF EXISTS")
	})
	tg := open(t, Options{URL: url})
	sqltest.MustExec(t, tg, fmt.Sprintf("UNWIND range(1, %d) AS i CREATE (:A {id: i})-[:T]->(:B)", n),
		"CREATE INDEX polyfuzz_test_made FOR (n:A) ON (n.id)",
		"CREATE CONSTRAINT polyfuzz_test_unique FOR (n:U) REQUIRE n.u IS UNIQUE")
	if err := tg.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := run(t, d, "MATCH (n) RETURN count(n)"); n[0] != int64(0) {
		t.Errorf("%v nodes after Reset, want 0", n[0])
	}
	names := run(t, d, "SHOW INDEXES YIELD name WHERE name STARTS WITH 'polyfuzz_test' RETURN name")
	if !reflect.DeepEqual(names, []any{"polyfuzz_test_kept"}) {
		t.Errorf("indexes after Reset: %v, want only polyfuzz_test_kept", names)
	}
	if c := run(t, d, "SHOW CONSTRAINTS YIELD name"); len(c) != 0 {
		t.Errorf("constraints after Reset: %v", c)
	}
	// Close empties the database too.
	sqltest.MustExec(t, tg, "CREATE (:Left)")
	tg.Close()
	if n := run(t, d, "MATCH (n) RETURN count(n)"); n[0] != int64(0) {
		t.Errorf("%v nodes after Close, want 0", n[0])
	}
}

func TestNonEmpty(t *testing.T) {
	d := driver(t)
	open(t, Options{}).Close() // empties the database
	run(t, d, "CREATE (:Foreign {id: 1})")
	t.Cleanup(func() { run(t, d, "MATCH (n) DETACH DELETE n") })
	_, err := Open(context.Background(), Options{URL: graphtest.NeedNeo4j(t)})
	if err == nil || !strings.Contains(err.Error(), "is not empty") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("Open on a non-empty database: %v", err)
	}
	tg := open(t, Options{Force: true})
	r, err := tg.Exec(context.Background(), "MATCH (n) RETURN count(n)")
	if err != nil || !reflect.DeepEqual(r.Rows, [][]string{{"i:0"}}) {
		t.Fatalf("after Open with Force: %v %+v, want an empty database", err, r)
	}
}

// replaceHost returns u with the host and port of other.
func replaceHost(t *testing.T, u, other string) string {
	t.Helper()
	o, err := url.Parse(other)
	if err != nil {
		t.Fatal(err)
	}
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	p.Host = o.Host
	return p.String()
}

func TestOpenErrors(t *testing.T) {
	base := graphtest.NeedNeo4j(t)
	tests := []struct {
		name, url string
		worker    int
		want      string
	}{
		{"unreachable", "bolt://127.0.0.1:1", 0, "cannot reach neo4j at 127.0.0.1:1: connection refused; is the server running?"},
		{"wrong scheme", "redis://u:s3cret@127.0.0.1:6379", 0, `neo4j wants a bolt:// or neo4j:// URL, got "redis://u:***@127.0.0.1:6379"`},
		{"no such database", base + "?database=nosuch", 0, `has no database "nosuch"`},
		{"worker without a database", base, 1, "worker 1 cannot share the default database with worker 0"},
		{"worker database", base + "?database=nosuch{worker}", 2, `has no database "nosuch2"`},
	}
	if f := os.Getenv(graphtest.FalkorDBEnv); f != "" {
		tests = append(tests, struct {
			name, url string
			worker    int
			want      string
		}{
			"redis on the port", replaceHost(t, base, f), 0, "the server speaks Redis's protocol (RESP), not Bolt"})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tg, err := Open(context.Background(), Options{URL: tc.url, Worker: tc.worker})
			if err == nil {
				tg.Close()
				t.Fatalf("Open(%s) succeeded", tc.url)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "s3cret") || strings.Contains(msg, "\n") {
				t.Fatalf("Open(%s): %q, want it to contain %q", tc.url, msg, tc.want)
			}
		})
	}
}

func TestClosed(t *testing.T) {
	tg := open(t, Options{})
	tg.Close()
	if _, err := tg.Exec(context.Background(), "RETURN 1"); err != errClosed {
		t.Fatalf("Exec after Close: %v", err)
	}
	if err := tg.Reset(context.Background()); err != errClosed {
		t.Fatalf("Reset after Close: %v", err)
	}
}

// BenchmarkExec measures the round trip of a trivial query and of a three-clause MATCH over a
// 128-node graph.
func BenchmarkExec(b *testing.B) {
	tg := open(b, Options{})
	sqltest.MustExec(b, tg, "UNWIND range(0, 127) AS i CREATE (:L {id: i, k: i % 7})",
		"MATCH (a:L), (b:L) WHERE b.id = (a.id * 5 + 1) % 128 CREATE (a)-[:T {w: a.id}]->(b)")
	for _, q := range []struct{ name, stmt string }{
		{"return1", "RETURN 1"},
		{"match3", "MATCH (a:L)-[r:T]->(b:L) WHERE a.k = 3 WITH a, b, r WHERE b.id > 10 RETURN a.id, b.id, r.w ORDER BY a.id"},
	} {
		b.Run(q.name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				if r, err := tg.Exec(ctx, q.stmt); err != nil || r.Status != fuzz.StatusOK {
					b.Fatal(err, r)
				}
			}
		})
	}
}
