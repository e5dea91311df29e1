package falkordb

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/graphtest"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/targets/childproc"
)

func TestParseDouble(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1.5", "r:1.5"}, {"1", "r:1"}, {"1e+20", "r:1e+20"}, {"-0", "r:-0"}, {"inf", "r:+Inf"},
		{"-inf", "r:-Inf"}, {"-nan", "r:NaN"}, {"nan", "r:NaN"}, {"0.333333333333333", "r:0.333333333333333"},
	}
	for _, tc := range tests {
		v, err := (&Target{}).value(typeDouble, tc.in)
		if err != nil || v.Canon() != tc.want {
			t.Errorf("double %q = %s, %v; want %s", tc.in, v.Canon(), err, tc.want)
		}
	}
}

func TestErrorCode(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"errMsg: Invalid input at end of input: expected NOT", "syntax"},
		{"Division by zero", "division-by-zero"},
		{"Type mismatch: expected Integer but was String", "type"},
		{"Unknown function 'foo'", "unknown-function"},
		{"'x' not defined", "undefined"},
		{"Received 2 arguments to function 'tointeger', expected at most 1", "argument"},
		{"something new", "error"},
	}
	for _, tc := range tests {
		if got := errorCode(tc.msg); got != tc.want {
			t.Errorf("errorCode(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}

// open opens a target on the test server (or opts.URL) and closes it when t ends.
func open(t testing.TB, opts Options) *Target {
	t.Helper()
	if opts.URL == "" {
		opts.URL = graphtest.NeedFalkorDB(t)
	}
	return sqltest.Open(t, func(ctx context.Context) (*Target, error) { return Open(ctx, opts) })
}

// client connects to the test server beside the target, as the test's own client.
func client(t testing.TB) *redis.Client {
	t.Helper()
	o, err := redis.ParseURL(graphtest.NeedFalkorDB(t))
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(o)
	t.Cleanup(func() { c.Close() })
	return c
}

func TestValues(t *testing.T) {
	tg := open(t, Options{Worker: 100})
	if v := tg.Version(); !strings.HasPrefix(v, "4.") || tg.Name() != "falkordb" {
		t.Errorf("Name, Version = %q, %q", tg.Name(), v)
	}
	graphtest.CheckValues(t, tg)
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{
		{"write without rows", "CREATE (:Z)", &fuzz.Result{Status: fuzz.StatusOK}},
		{"special floats", "RETURN 1e308 * 10 AS a, -0.0 AS b", sqltest.OK([]string{"a", "b"}, []string{"r:+Inf", "r:-0"})},
		{"point", "RETURN point({latitude: 1.5, longitude: 2}) AS p",
			sqltest.OK([]string{"p"}, []string{"t:point({latitude: 1.5, longitude: 2})"})},
		// Ids added by the statement itself are read again.
		{"new names", "CREATE (n:New {newkey: 1})-[r:NEWTYPE]->(:New2) RETURN n, r",
			sqltest.OK([]string{"n", "r"}, []string{"n:(:New {newkey: i:1})", "e:[:NEWTYPE {}]"})},
	})
	// After Reset the ids start again; the names read before must not be used.
	if err := tg.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{
		{"ids after reset", "CREATE (n:Other {otherkey: 2})-[r:OTHERTYPE]->(:X) RETURN n, r",
			sqltest.OK([]string{"n", "r"}, []string{"n:(:Other {otherkey: i:2})", "e:[:OTHERTYPE {}]"})},
	})
}

func TestErrors(t *testing.T) {
	sqltest.CheckExec(t, open(t, Options{Worker: 101}), []sqltest.ExecCase{
		{"division by zero", "RETURN 1 / 0", sqltest.EngineErr("division-by-zero", "Division by zero")},
		{"unknown function", "RETURN nosuch(1)", sqltest.EngineErr("unknown-function", "Unknown function 'nosuch'")},
		{"type", "RETURN [1][0.5]", sqltest.EngineErr("type", "Type mismatch: expected String, Integer, or Null but was Float")},
		{"after errors", "RETURN 2 AS x", sqltest.OK([]string{"x"}, []string{"i:2"})},
	})
	r, err := open(t, Options{Worker: 102}).Exec(context.Background(), "RETURN 1 +")
	if err != nil || r.Status != fuzz.StatusEngineError || r.Code != "syntax" || !strings.Contains(r.Err, "Invalid input") {
		t.Fatalf("syntax error: %v %+v", err, r)
	}
}

func TestTimeout(t *testing.T) {
	sqltest.CheckTimeouts(t, open(t, Options{Worker: 103, Timeout: 200 * time.Millisecond}), "RETURN 1", []sqltest.TimeoutCase{
		// FalkorDB stops a read between rows; one slow built-in call overruns until the backstop.
		{"many rows", "", "UNWIND range(1, 10000000) AS x WITH x WHERE x % 2 = 0 RETURN x", 3 * time.Second},
		{"one slow call", "", "UNWIND range(1, 100000000) AS x RETURN count(*)", 3 * time.Second},
	})
}

func TestReset(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	c.Set(ctx, "polyfuzz_test_other_key", "v", 0)
	c.Do(ctx, "GRAPH.QUERY", "polyfuzz_test_other_graph", "CREATE (:Keep)")
	t.Cleanup(func() {
		c.Del(ctx, "polyfuzz_test_other_key")
		c.Do(ctx, "GRAPH.DELETE", "polyfuzz_test_other_graph")
	})
	tg := open(t, Options{Worker: 104})
	sqltest.MustExec(t, tg, "UNWIND range(1, 1000) AS i CREATE (:A {id: i})-[:T]->(:B)")
	if n, _ := c.Exists(ctx, "polyfuzz_w104").Result(); n != 1 {
		t.Fatalf("no graph polyfuzz_w104 after a CREATE")
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tg.Reset(ctx); err != nil { // a missing graph is fine
		t.Fatal(err)
	}
	if n, _ := c.Exists(ctx, "polyfuzz_w104").Result(); n != 0 {
		t.Errorf("graph polyfuzz_w104 still exists after Reset")
	}
	if n, _ := c.Exists(ctx, "polyfuzz_test_other_key", "polyfuzz_test_other_graph").Result(); n != 2 {
		t.Errorf("Reset deleted keys that are not polyfuzz's")
	}
	sqltest.MustExec(t, tg, "CREATE (:Left)")
	tg.Close()
	if n, _ := c.Exists(ctx, "polyfuzz_w104").Result(); n != 0 {
		t.Errorf("graph polyfuzz_w104 still exists after Close")
	}
}

func TestKeyClaims(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	u := graphtest.NeedFalkorDB(t)
	// A leftover graph of the worker's name is polyfuzz's: Open deletes it.
	c.Do(ctx, "GRAPH.QUERY", "polyfuzz_w105", "CREATE (:Leftover)")
	tg := open(t, Options{Worker: 105})
	r, err := tg.Exec(ctx, "MATCH (n) RETURN count(n) AS c")
	if err != nil || !reflect.DeepEqual(r.Rows, [][]string{{"i:0"}}) {
		t.Fatalf("after Open over a leftover graph: %v %+v", err, r)
	}
	// A live connection on the same key: refused without Force.
	if _, err := Open(ctx, Options{URL: u, Worker: 105}); err == nil || !strings.Contains(err.Error(), "in use by another polyfuzz connection") {
		t.Errorf("second Open of worker 105: %v", err)
	}
	open(t, Options{URL: u, Worker: 105, Force: true})
	// A key of the worker's name that is not a graph: refused without Force, deleted with it.
	c.Set(ctx, "polyfuzz_w106", "not a graph", 0)
	t.Cleanup(func() { c.Del(ctx, "polyfuzz_w106") })
	if _, err := Open(ctx, Options{URL: u, Worker: 106}); err == nil || !strings.Contains(err.Error(), "key polyfuzz_w106 holds a string, not a graph") {
		t.Errorf("Open over a string key: %v", err)
	}
	if v, _ := c.Get(ctx, "polyfuzz_w106").Result(); v != "not a graph" {
		t.Errorf("Open without Force changed the key: %q", v)
	}
	open(t, Options{URL: u, Worker: 106, Force: true})
	if typ, _ := c.Type(ctx, "polyfuzz_w106").Result(); typ == "string" {
		t.Errorf("Open with Force kept the string key")
	}
}

func TestLostConnection(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	tg := open(t, Options{Worker: 107})
	go func() {
		// Kill the target's connection while it waits for a long query.
		time.Sleep(300 * time.Millisecond)
		c.Do(ctx, "CLIENT", "KILL", "USER", "default", "SKIPME", "yes")
	}()
	for i := 0; i < 2; i++ { // the second answers crash without asking the server
		r, err := tg.Exec(ctx, "UNWIND range(1, 20000000) AS x RETURN count(*)")
		if err != nil || r.Status != fuzz.StatusCrash || !strings.Contains(r.Err, "lost connection to falkordb") {
			t.Fatalf("Exec %d after the kill: %v %+v, want a crash", i, err, r)
		}
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	sqltest.MustExec(t, tg, "RETURN 1")
}

func TestClosed(t *testing.T) {
	tg := open(t, Options{Worker: 108})
	tg.Close()
	if _, err := tg.Exec(context.Background(), "RETURN 1"); err != errClosed {
		t.Fatalf("Exec after Close: %v", err)
	}
}

// freePort returns a TCP port that is free on 127.0.0.1 now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startRedis starts the redis-server that carries FalkorDB with extra arguments on a free port
// and returns its URL without credentials; it skips t when the binary is not known.
func startRedis(t *testing.T, args ...string) string {
	t.Helper()
	bin := graphtest.NeedRedisServer(t)
	port := freePort(t)
	cmd := exec.Command(bin, append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", t.TempDir()}, args...)...)
	p, err := childproc.Start(cmd) // so that the server dies with the test binary
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "redis://" + addr
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("redis-server did not listen on %s", addr)
	return ""
}

// openTest is a URL Open must refuse with a message that contains want.
type openTest struct{ name, url, want string }

func TestOpenErrors(t *testing.T) {
	tests := []openTest{
		{"unreachable", "redis://127.0.0.1:1", "cannot reach falkordb at 127.0.0.1:1: connection refused; is the server running?"},
		{"wrong scheme", "bolt://u:s3cret@127.0.0.1:7687", `falkordb wants a redis:// URL, got "bolt://u:***@127.0.0.1:7687"`},
	}
	if u := os.Getenv(graphtest.Neo4jEnv); u != "" {
		tests = append(tests, openTest{"bolt on the port", "redis://" + strings.TrimPrefix(u, "bolt://"),
			"the server speaks Bolt (Neo4j or Memgraph), not Redis's protocol"})
	}
	checkOpenErrors(t, tests)
}

// TestOpenServerErrors starts servers of its own: one without the FalkorDB module, one with a
// password.
func TestOpenServerErrors(t *testing.T) {
	plain := startRedis(t)
	auth := startRedis(t, "--requirepass", "s3cret-pass", "--loadmodule",
		strings.TrimSuffix(os.Getenv(graphtest.RedisServerEnv), "redis-server")+"falkordb.so")
	t.Run("right password", func(t *testing.T) {
		tg := open(t, Options{URL: strings.Replace(auth, "//", "//:s3cret-pass@", 1)})
		sqltest.MustExec(t, tg, "RETURN 1")
	})
	checkOpenErrors(t, []openTest{
		{"no module", plain, "no GRAPH.QUERY command: is the FalkorDB module loaded?"},
		{"no password", auth, `refused user "default": wrong password or no such user`},
		{"wrong password", strings.Replace(auth, "//", "//:s3cret-wrong@", 1), `refused user "default": wrong password or no such user`},
		{"no such user", strings.Replace(auth, "//", "//bob:s3cret-pass@", 1), `refused user "bob": wrong password or no such user`},
	})
}

// checkOpenErrors checks that Open fails on each URL with one line that contains want and no
// password.
func checkOpenErrors(t *testing.T, tests []openTest) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tg, err := Open(context.Background(), Options{URL: tc.url})
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

// BenchmarkExec measures the round trip of a trivial query and of a three-clause MATCH over a
// 128-node graph.
func BenchmarkExec(b *testing.B) {
	tg := open(b, Options{Worker: 109})
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
