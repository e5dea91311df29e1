package kuzu

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
	"github.com/polyfuzz/polyfuzz/targets/rowserver/rowservertest"
)

// open opens a target, skipping t (failing it in CI) when the kuzu module is missing.
func open(t testing.TB, timeout time.Duration) *Target {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "kuzu")
	tg, err := Open(Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	if err := tg.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	return tg
}

func exec(t testing.TB, tg *Target, stmt string) *fuzz.Result {
	t.Helper()
	res, err := tg.Exec(context.Background(), stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return res
}

func rows(rs ...string) [][]string {
	out := make([][]string, len(rs))
	for i, r := range rs {
		out[i] = strings.Split(r, " | ")
	}
	return out
}

// TestValues checks the canonical form of Kùzu's values.
func TestValues(t *testing.T) {
	tg := open(t, 10*time.Second)
	if tg.Version() != "0.11.3" {
		t.Errorf("Version = %q; want 0.11.3 (scripts/requirements.txt)", tg.Version())
	}
	for _, tc := range []struct{ expr, want string }{
		{"null", "NULL"}, {"true", "B:true"}, {"1", "i:1"}, {"-9223372036854775807", "i:-9223372036854775807"},
		{"1.5", "r:1.5"}, {"0.1 + 0.2", "r:0.3"}, {"'it\\'s'", "t:it's"}, {"'é'", "t:é"}, {"''", "t:"},
		{"[1, null, 3]", "l:[i:1, NULL, i:3]"}, {"[]", "l:[]"}, {"{b: 1, a: 'x'}", "m:{a: t:x, b: i:1}"},
		{"CAST(12 AS INT128)", "i:12"}, {"CAST(7 AS INT8)", "i:7"}, {"CAST(2.5 AS FLOAT)", "r:2.5"},
		{"date('2020-01-31')", "t:2020-01-31"},
	} {
		res := exec(t, tg, "RETURN "+tc.expr+" AS c0")
		if want := rows(tc.want); res.Status != fuzz.StatusOK || !reflect.DeepEqual(res.Rows, want) {
			t.Errorf("RETURN %s: got %+v, want %v", tc.expr, res, want)
		}
	}
}

// slow runs for minutes.
const slow = "UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b RETURN sum(a * b % 7)"

// setup is a generated graph's setup in cyphergen's forms: three nodes of two labels, a
// relationship between labels, a self-loop, and one whose endpoint does not exist.
var setup = []string{
	"CREATE (:L0 {id: 0, k1: 'x', k2: true})",
	"CREATE (:L1 {id: 1, k3: -5})",
	"CREATE (:L0 {id: 2, k1: 'it\\'s'})",
	"MATCH (a {id: 0}), (b {id: 1}) CREATE (a)-[:T0 {id: 3, k9: 1.5}]->(b)",
	"MATCH (a {id: 1}) CREATE (a)-[:T0 {id: 4}]->(a)",
	"MATCH (a {id: 2}), (b {id: 0}) CREATE (a)<-[:T1 {id: 5}]-(b)",
	"MATCH (a {id: 2}), (b {id: 99}) CREATE (a)-[:T1 {id: 6}]->(b)",
}

// TestSetup loads a graph from cyphergen's setup statements and reads it back.
func TestSetup(t *testing.T) {
	tg := open(t, 10*time.Second)
	for _, s := range setup {
		if res := exec(t, tg, s); res.Status != fuzz.StatusOK || len(res.Rows) != 0 {
			t.Fatalf("%s: %+v", s, res)
		}
	}
	for _, tc := range []struct {
		q    string
		want [][]string
	}{
		{"MATCH (n) RETURN n ORDER BY n.id", rows("n:(:L0 {id: i:0, k1: t:x, k2: B:true})", "n:(:L1 {id: i:1, k3: i:-5})",
			"n:(:L0 {id: i:2, k1: t:it's})")},
		{"MATCH (a)-[r]->(b) RETURN a.id, r, b.id ORDER BY r.id", rows("i:0 | e:[:T0 {id: i:3, k9: r:1.5}] | i:1",
			"i:1 | e:[:T0 {id: i:4}] | i:1", "i:0 | e:[:T1 {id: i:5}] | i:2")},
		// A key of another label reads as null, as in Neo4j.
		{"MATCH (n:L1) RETURN n.k1, n.k9", rows("NULL | NULL")},
		{"MATCH p = (a:L0)-[:T0]->(b) RETURN p", rows("p:<n:(:L0 {id: i:0, k1: t:x, k2: B:true}), e:[:T0 {id: i:3, k9: r:1.5}], n:(:L1 {id: i:1, k3: i:-5})>")},
		{"MATCH (n) RETURN count(*), sum(n.id)", rows("i:3 | i:3")},
	} {
		res := exec(t, tg, tc.q)
		if res.Status != fuzz.StatusOK || !reflect.DeepEqual(res.Rows, tc.want) {
			t.Errorf("%s: got %+v, want %v", tc.q, res, tc.want)
		}
	}
	// A setup statement after the load extends the graph.
	if res := exec(t, tg, "CREATE (:L1 {id: 7})"); res.Status != fuzz.StatusOK {
		t.Fatalf("a node after the load: %+v", res)
	}
	if res := exec(t, tg, "MATCH (n:L1) RETURN count(*)"); !reflect.DeepEqual(res.Rows, rows("i:2")) {
		t.Errorf("after the load's extension: %+v", res)
	}
	// Reset empties the database in the same process.
	starts := tg.Starts()
	if err := tg.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	if res := exec(t, tg, "MATCH (n) RETURN count(*)"); res.Status != fuzz.StatusOK || !reflect.DeepEqual(res.Rows, rows("i:0")) {
		t.Errorf("after Reset: %+v", res)
	}
	if tg.Starts() != starts {
		t.Errorf("Reset started a process")
	}
}

// TestErrors checks engine errors and the setups Kùzu cannot hold.
func TestErrors(t *testing.T) {
	tg := open(t, 10*time.Second)
	for _, tc := range []struct{ stmt, code, err string }{
		{"CREATE (:L0:L1 {id: 0})", CodeSchema, "exactly one label"},
		{"reset", "", ""},
		{"CREATE ({id: 0})", CodeSchema, "exactly one label"},
		{"reset", "", ""},
		{"CREATE (:L0 {k: 1})", CodeSchema, "id property"},
		{"reset", "", ""},
		{"CREATE (:L0 {id: 1, k: 1})", "", ""},
		{"CREATE (:L0 {id: 2, k: 'x'})", CodeSchema, "one type"},
		{"RETURN 1", CodeSetup, "cannot hold"},
		{"reset", "", ""},
		{"RETURN 1/0", "runtime", "Divide by zero"},
		{"RETURN toInteger(1.5)", "catalog", "TOINTEGER"},
		{"MATCH (n:L9) RETURN n", "binder", "L9 does not exist"},
		{"RETUR 1", "parser", ""},
		{"RETURN 9223372036854775807 + 1", "overflow", ""},
	} {
		if tc.stmt == "reset" {
			if err := tg.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		res := exec(t, tg, tc.stmt)
		if tc.code == "" {
			if res.Status != fuzz.StatusOK {
				t.Errorf("%s: %+v", tc.stmt, res)
			}
			continue
		}
		if res.Status != fuzz.StatusEngineError || res.Code != tc.code || !strings.Contains(res.Err, tc.err) {
			t.Errorf("%s: got %+v; want a %s error with %q", tc.stmt, res, tc.code, tc.err)
		}
	}
}

// TestTimeout runs a statement past the timeout: Kùzu interrupts it, and the process goes on.
func TestTimeout(t *testing.T) {
	tg := open(t, 300*time.Millisecond)
	start := time.Now()
	res := exec(t, tg, slow)
	if res.Status != fuzz.StatusTimeout || time.Since(start) > 5*time.Second {
		t.Fatalf("a long statement answered %+v after %s; want a timeout", res, time.Since(start))
	}
	if res := exec(t, tg, "RETURN 42"); res.Status != fuzz.StatusOK || res.Rows[0][0] != "i:42" {
		t.Errorf("after the timeout: %+v", res)
	}
	if tg.Starts() != 1 {
		t.Errorf("Starts = %d; the timeout should interrupt, not kill", tg.Starts())
	}
}

// TestCrashIsAResult kills the Python process in the middle of a statement, as a segmentation
// fault in Kùzu would: the statement is a crash, later statements say the graph is lost, and
// after Reset the target loads the graph again in a new process.
func TestCrashIsAResult(t *testing.T) {
	tg := open(t, 20*time.Second)
	for _, s := range setup {
		exec(t, tg, s)
	}
	pid := rowservertest.ServerPID(t, "kuzu")
	go func() {
		time.Sleep(300 * time.Millisecond)
		syscall.Kill(pid, syscall.SIGSEGV)
	}()
	res := exec(t, tg, slow)
	if res.Status != fuzz.StatusCrash || !strings.Contains(res.Err, "kuzu") {
		t.Fatalf("a killed server answered %+v; want a crash that names kuzu", res)
	}
	if res := exec(t, tg, "MATCH (n) RETURN count(*)"); res.Status != fuzz.StatusEngineError || res.Code != CodeSetup {
		t.Errorf("after the crash: %+v; want a setup error (the graph is lost)", res)
	}
	if err := tg.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, s := range setup {
		exec(t, tg, s)
	}
	if res := exec(t, tg, "MATCH (n) RETURN count(*)"); res.Status != fuzz.StatusOK || !reflect.DeepEqual(res.Rows, rows("i:3")) {
		t.Errorf("after the crash and Reset: %+v", res)
	}
	if tg.Starts() != 2 {
		t.Errorf("Starts = %d after the crash; want 2", tg.Starts())
	}
}

// TestMissingModule opens the target on an interpreter without the kuzu module: the error
// names the fix.
func TestMissingModule(t *testing.T) {
	rowservertest.CheckMissingModule(t, func(python string) error {
		tg, err := Open(Options{Python: python})
		if err == nil {
			tg.Close()
		}
		return err
	}, "kuzu", Fix)
}

// TestSetupForms checks which statements the target takes as setup, and the script it loads.
func TestSetupForms(t *testing.T) {
	g := newGraph()
	for _, s := range setup {
		if err := g.add(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"MATCH (n) RETURN n", "CREATE (a:L0 {id: 9})", "MATCH (a {id: 0}) CREATE (a)-[:T0]-(a)",
		"MATCH (a {id: 0}) WHERE a.k = 1 CREATE (a)-[:T0]->(a)", "CREATE (:L0 {id: 1 + 2})"} {
		if err := g.add(s); err != errNotSetup {
			t.Errorf("%s: %v; want errNotSetup", s, err)
		}
	}
	want := []string{
		"CREATE NODE TABLE L0(id INT64, k1 STRING, k2 BOOLEAN, k3 INT64, k9 DOUBLE, PRIMARY KEY(id))",
		"CREATE NODE TABLE L1(id INT64, k1 STRING, k2 BOOLEAN, k3 INT64, k9 DOUBLE, PRIMARY KEY(id))",
		"CREATE REL TABLE T0(FROM L0 TO L1, FROM L1 TO L1, id INT64, k1 STRING, k2 BOOLEAN, k3 INT64, k9 DOUBLE)",
		"CREATE REL TABLE T1(FROM L0 TO L0, id INT64, k1 STRING, k2 BOOLEAN, k3 INT64, k9 DOUBLE)",
		"CREATE (:L0 {id: 0, k1: 'x', k2: true})",
		"CREATE (:L1 {id: 1, k3: -5})",
		"CREATE (:L0 {id: 2, k1: 'it\\'s'})",
		"MATCH (a:L0 {id: 0}), (b:L1 {id: 1}) CREATE (a)-[:T0 {id: 3, k9: 1.5}]->(b)",
		"MATCH (a:L1 {id: 1}), (b:L1 {id: 1}) CREATE (a)-[:T0 {id: 4}]->(b)",
		"MATCH (a:L0 {id: 0}), (b:L0 {id: 2}) CREATE (a)-[:T1 {id: 5}]->(b)",
	}
	if got := g.script(); !reflect.DeepEqual(got, want) {
		t.Errorf("script:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// BenchmarkExec measures a statement's round trip: a trivial one and a 3-clause MATCH over a
// graph of 128 nodes and 128 relationships, loaded from setup statements in cyphergen's forms.
func BenchmarkExec(b *testing.B) {
	tg := open(b, 10*time.Second)
	ctx := context.Background()
	for i := range 128 {
		if _, err := tg.Exec(ctx, fmt.Sprintf("CREATE (:L {id: %d, k: %d})", i, i%7)); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 128 {
		stmt := fmt.Sprintf("MATCH (a {id: %d}), (b {id: %d}) CREATE (a)-[:T {id: %d, w: %d}]->(b)", i, (i*5+1)%128, 128+i, i)
		if _, err := tg.Exec(ctx, stmt); err != nil {
			b.Fatal(err)
		}
	}
	if r, err := tg.Exec(ctx, "MATCH (n) RETURN count(*)"); err != nil || r.Status != fuzz.StatusOK || r.Rows[0][0] != "i:128" {
		b.Fatal(err, r) // loads the graph
	}
	for _, q := range []struct{ name, stmt string }{
		{"return1", "RETURN 1"},
		{"match3", "MATCH (a:L)-[r:T]->(b:L) WHERE a.k = 3 WITH a, b, r WHERE b.id > 10 RETURN a.id, b.id, r.w ORDER BY a.id"},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if r, err := tg.Exec(ctx, q.stmt); err != nil || r.Status != fuzz.StatusOK {
					b.Fatal(err, r)
				}
			}
		})
	}
}
