package postgres

import (
	"context"
	"errors"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

const dsnEnv = "POLYFUZZ_POSTGRES_DSN"

func TestCanonical(t *testing.T) {
	tests := []struct {
		oid  uint32
		in   string
		null bool
		want string
	}{
		{23, "-5", false, "i:-5"},
		{20, "9223372036854775807", false, "i:9223372036854775807"},
		{1700, "1.500", false, "d:1.5"},
		{1700, "2.000", false, "d:2"},
		{1700, "NaN", false, "d:NaN"},
		{1700, "-Infinity", false, "d:-Inf"},
		{700, "0.1", false, "r:0.1"},
		{700, "3.4028235e+38", false, "r:3.4028235e+38"},
		{701, "0.1", false, "r:0.1"},
		{701, "-0", false, "r:-0"},
		{701, "Infinity", false, "r:+Inf"},
		{701, "NaN", false, "r:NaN"},
		{16, "t", false, "B:true"},
		{16, "f", false, "B:false"},
		{17, `\x00FF`, false, "b:00ff"},
		{17, `a\\b\000`, false, "b:615c6200"},
		{25, "héllo", false, "t:héllo"},
		{1082, "2024-01-02", false, "t:2024-01-02"},
		{25, "", true, "NULL"},
	}
	for _, tc := range tests {
		var v []byte
		if !tc.null {
			v = []byte(tc.in)
		}
		if got := Canonical(tc.oid, v); got != tc.want {
			t.Errorf("Canonical(%d, %q) = %q, want %q", tc.oid, tc.in, got, tc.want)
		}
	}
}

func open(t testing.TB, opts Options) *Target {
	t.Helper()
	if opts.DSN == "" {
		opts.DSN = testenv.NeedDSN(t, dsnEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tg, err := Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

func mustExec(t testing.TB, tg *Target, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		r, err := tg.Exec(context.Background(), s)
		if err != nil || r.Status != fuzz.StatusOK {
			t.Fatalf("%s: %v %+v", s, err, r)
		}
	}
}

// admin connects to the DSN's database beside the target, as the test's own session.
func admin(t testing.TB, dsn string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func ok(cols []string, rows ...[]string) *fuzz.Result {
	return &fuzz.Result{Status: fuzz.StatusOK, Columns: cols, Rows: rows}
}

func TestExec(t *testing.T) {
	tg := open(t, Options{Worker: 100})
	if v := tg.Version(); !regexp.MustCompile(`^\d+\.\d+`).MatchString(v) {
		t.Errorf("Version() = %q", v)
	}
	mustExec(t, tg, "CREATE TABLE t0(c0 INT PRIMARY KEY, c1 TEXT)", "INSERT INTO t0 VALUES (1, 'a'), (2, NULL)")
	tests := []struct {
		name string
		stmt string
		want *fuzz.Result
	}{
		{"literals", `SELECT 1 AS a, 1.50::numeric AS b, 0.1::float8 AS c, 0.1::float4 AS d, 'a' AS e, true AS f,
			NULL AS g, '\x00ff'::bytea AS h, 2.000 AS i, 'NaN'::numeric AS j, '-Infinity'::float8 AS k,
			-0.0::float8 AS l, 9223372036854775807 AS m, DATE '2024-01-02' AS n, ARRAY[1,2] AS o, 1::int2 AS p`,
			ok([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"},
				[]string{"i:1", "d:1.5", "r:0.1", "r:0.1", "t:a", "B:true", "NULL", "b:00ff", "d:2", "d:NaN",
					"r:-Inf", "r:-0", "i:9223372036854775807", "t:2024-01-02", "t:{1,2}", "i:1"})},
		{"rows", "SELECT * FROM t0 ORDER BY c0", ok([]string{"c0", "c1"}, []string{"i:1", "t:a"}, []string{"i:2", "NULL"})},
		{"no rows", "SELECT c0 FROM t0 WHERE false", ok([]string{"c0"})},
		{"ddl", "CREATE TABLE t1(c0 INT)", ok(nil)},
		{"division by zero", "SELECT 1/0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "22012", Err: "division by zero"}},
		{"unique", "INSERT INTO t0 VALUES (1, 'b')", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "23505",
			Err: `duplicate key value violates unique constraint "t0_pkey"`}},
		{"syntax", "SELEC 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "42601", Err: `syntax error at or near "SELEC"`}},
		{"after error", "SELECT count(*) FROM t0", ok([]string{"count"}, []string{"i:2"})},
		{"aborted transaction", "BEGIN; SELECT 1/0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "22012", Err: "division by zero"}},
		{"rolled back", "SELECT 2 AS x", ok([]string{"x"}, []string{"i:2"})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tg.Exec(context.Background(), tc.stmt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Exec(%q)\n got %+v\nwant %+v", tc.stmt, got, tc.want)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	tests := []struct {
		name  string
		setup string
		stmt  string
		max   time.Duration
	}{
		{"sleep", "", "SELECT pg_sleep(5)", time.Second},
		{"endless", "", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c", time.Second},
		// The statement turned the server's timeout off: the client's backstop cancels it.
		{"backstop", "SET statement_timeout = 0", "SELECT pg_sleep(10)", 200*time.Millisecond + Backstop + time.Second},
	}
	tg := open(t, Options{Worker: 101, Timeout: 200 * time.Millisecond})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != "" {
				mustExec(t, tg, tc.setup)
			}
			start := time.Now()
			r, err := tg.Exec(context.Background(), tc.stmt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != fuzz.StatusTimeout || time.Since(start) > tc.max {
				t.Fatalf("%s gave %+v after %s, want a timeout within %s", tc.stmt, r, time.Since(start), tc.max)
			}
			t.Log(r.Err)
			mustExec(t, tg, "SELECT 1")
		})
	}
}

func TestLostConnection(t *testing.T) {
	tg := open(t, Options{Worker: 110})
	ctx := context.Background()
	mustExec(t, tg, "CREATE TABLE t0(c0 INT)")
	r, err := tg.Exec(ctx, "SELECT pg_terminate_backend(pg_backend_pid())")
	if err != nil || r.Status != fuzz.StatusCrash || r.Code != "57P01" {
		t.Fatalf("terminated session gave %+v %v, want a crash with SQLSTATE 57P01", r, err)
	}
	if r2, err := tg.Exec(ctx, "SELECT 1"); err != nil || r2.Status != fuzz.StatusCrash {
		t.Fatalf("Exec after a crash gave %+v %v, want the crash again until Reset", r2, err)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	mustExec(t, tg, "CREATE TABLE t0(c0 INT)", "SELECT * FROM t0")
}

// schemas lists the schemas whose names match the regular expression re.
func schemas(t testing.TB, c *pgx.Conn, re string) []string {
	t.Helper()
	rows, err := c.Query(context.Background(), "SELECT nspname FROM pg_namespace WHERE nspname ~ $1 ORDER BY 1", re)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestNamespace(t *testing.T) {
	dsn := testenv.NeedDSN(t, dsnEnv)
	ctx := context.Background()
	a, b := open(t, Options{Worker: 102}), open(t, Options{Worker: 103})
	if a.Schema() != "polyfuzz_w102" || b.Schema() != "polyfuzz_w103" {
		t.Fatalf("schemas %q and %q, want polyfuzz_w102 and polyfuzz_w103", a.Schema(), b.Schema())
	}
	mustExec(t, a, "CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (1)", "CREATE TEMP TABLE tmp(c0 INT)")
	mustExec(t, b, "CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (2)")
	steps := []struct {
		name string
		tg   *Target
		stmt string
		want *fuzz.Result
	}{
		{"a sees its own t0", a, "SELECT c0 FROM t0", ok([]string{"c0"}, []string{"i:1"})},
		{"b sees its own t0", b, "SELECT c0 FROM t0", ok([]string{"c0"}, []string{"i:2"})},
		{"only its schema on the path", a, "SHOW search_path", ok([]string{"search_path"}, []string{"t:polyfuzz_w102"})},
	}
	for _, s := range steps {
		if got, err := s.tg.Exec(ctx, s.stmt); err != nil || !reflect.DeepEqual(got, s.want) {
			t.Errorf("%s: %+v %v, want %+v", s.name, got, err, s.want)
		}
	}
	mustExec(t, a, "SET statement_timeout = 1", "SET enable_seqscan = off")
	if err := a.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	after := []struct {
		stmt string
		want *fuzz.Result
	}{
		{"SELECT * FROM t0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "42P01", Err: `relation "t0" does not exist`}},
		{"SELECT * FROM tmp", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "42P01", Err: `relation "tmp" does not exist`}},
		{"SHOW enable_seqscan", ok([]string{"enable_seqscan"}, []string{"t:on"})},
		{"SHOW statement_timeout", ok([]string{"statement_timeout"}, []string{"t:0"})},
		{"SHOW search_path", ok([]string{"search_path"}, []string{"t:polyfuzz_w102"})},
	}
	for _, s := range after {
		if got, err := a.Exec(ctx, s.stmt); err != nil || !reflect.DeepEqual(got, s.want) {
			t.Errorf("after Reset, %s: %+v %v, want %+v", s.stmt, got, err, s.want)
		}
	}
	mustExec(t, b, "SELECT c0 FROM t0")
	c := admin(t, dsn)
	if got := schemas(t, c, "^polyfuzz_w10[23]$"); !reflect.DeepEqual(got, []string{"polyfuzz_w102", "polyfuzz_w103"}) {
		t.Fatalf("schemas before Close: %v", got)
	}
	a.Close()
	b.Close()
	if got := schemas(t, c, "^polyfuzz_w10[23]$"); len(got) != 0 {
		t.Fatalf("Close left schemas %v", got)
	}
}

// foreignDB creates a database of the test's own for the foreign objects, when the role may, so
// that other packages' tests using the shared database are not refused meanwhile. It returns the
// DSN to use and a cleanup.
func foreignDB(t *testing.T, dsn string) string {
	t.Helper()
	c := admin(t, dsn)
	ctx := context.Background()
	const name = "polyfuzz_safety_test"
	c.Exec(ctx, "DROP DATABASE IF EXISTS "+name)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Logf("cannot create a database of the test's own (%v); using the shared one", err)
		return dsn
	}
	t.Cleanup(func() { c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func TestForeignObjects(t *testing.T) {
	dsn := foreignDB(t, testenv.NeedDSN(t, dsnEnv))
	ctx := context.Background()
	c := admin(t, dsn)
	setup := []string{
		"CREATE TABLE public.accounts(id INT PRIMARY KEY, owner TEXT)",
		"INSERT INTO public.accounts VALUES (1, 'alice'), (2, 'bob')",
		"CREATE VIEW public.rich AS SELECT * FROM public.accounts",
	}
	for _, s := range setup {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		c.Exec(context.Background(), "DROP VIEW IF EXISTS public.rich; DROP TABLE IF EXISTS public.accounts")
	})

	_, err := Open(ctx, Options{DSN: dsn, Worker: 104})
	if err == nil {
		t.Fatal("Open accepted a database holding foreign tables")
	}
	t.Log(err)
	for _, want := range []string{`holds objects polyfuzz did not create (table public.accounts, view public.rich)`, "--force"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open's error %q lacks %q", err, want)
		}
	}

	tg, err := Open(ctx, Options{DSN: dsn, Worker: 104, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	mustExec(t, tg, "CREATE TABLE t0(c0 INT)", "CREATE TABLE accounts(c0 INT)", "INSERT INTO accounts VALUES (7)")
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tg.Close(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM public.rich WHERE owner IN ('alice', 'bob')").Scan(&n); err != nil || n != 2 {
		t.Fatalf("foreign table after a forced session: %d rows, %v", n, err)
	}
	if got := schemas(t, c, "^polyfuzz_w104"); len(got) != 0 {
		t.Fatalf("forced session left schemas %v", got)
	}

	// A schema with polyfuzz's name that polyfuzz did not create: refused, and with Force
	// replaced by a schema of polyfuzz's own.
	if _, err := c.Exec(ctx, "DROP VIEW public.rich; DROP TABLE public.accounts; CREATE SCHEMA polyfuzz_w105"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Exec(context.Background(), "DROP SCHEMA IF EXISTS polyfuzz_w105") })
	if _, err := Open(ctx, Options{DSN: dsn, Worker: 105}); err == nil || !strings.Contains(err.Error(), "schema polyfuzz_w105 that polyfuzz did not create") {
		t.Fatalf("Open over a foreign polyfuzz_w105: %v", err)
	}
	tg, err = Open(ctx, Options{DSN: dsn, Worker: 105, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tg.Schema(), "polyfuzz_w105_") {
		t.Fatalf("forced target works in %q", tg.Schema())
	}
	mustExec(t, tg, "RESET search_path", "CREATE TABLE t0(c0 INT)")
	if got := schemas(t, c, "^polyfuzz_w105$"); len(got) != 1 {
		t.Fatal("the foreign schema is gone")
	}
	if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'polyfuzz_w105'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("a table went into the foreign schema after RESET search_path: %d, %v", n, err)
	}
	tg.Close()
	if got := schemas(t, c, "^polyfuzz_w105"); !reflect.DeepEqual(got, []string{"polyfuzz_w105"}) {
		t.Fatalf("schemas after the forced session: %v, want only the foreign polyfuzz_w105", got)
	}
}

func TestConnectErrors(t *testing.T) {
	dsn := testenv.NeedDSN(t, dsnEnv)
	d, err := sqlserver.ParseDSN("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	withAddr := func(host string, port int) string {
		e := *d
		e.Host, e.Port = host, port
		return e.URL()
	}
	wrong := *d
	wrong.Password = "not-the-secret-42"
	noDB := *d
	noDB.Database = "polyfuzz_no_such_db"
	tests := []struct {
		name string
		dsn  string
		want string // a regular expression for the whole message
	}{
		{"unreachable", withAddr("127.0.0.1", 1),
			`^cannot reach postgres at 127\.0\.0\.1:1: connection refused; is the server running\? start it or fix --dbms postgres=DSN$`},
		{"wrong password", wrong.URL(), `^postgres at ` + regexp.QuoteMeta(d.Addr()) + ` refused user "` + d.User + `": wrong password or no such user$`},
		{"no database", noDB.URL(), `^postgres at .* has no database "polyfuzz_no_such_db"; create it .* or fix --dbms postgres=DSN$`},
		{"mysql scheme", "mysql://u:p@127.0.0.1:3306/db", `^--dbms postgres got a mysql:// DSN; give postgres://USER:PASS@HOST:PORT/DB$`},
		{"not a url", "host=127.0.0.1 password=hunter2", `^--dbms postgres got a DSN that is not a URL \(host=127\.0\.0\.1 password=\*\*\*\); give postgres://`},
	}
	if mdsn := testenvDSN("POLYFUZZ_MARIADB_DSN"); mdsn != "" {
		m, err := sqlserver.ParseDSN("mariadb", mdsn)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, struct{ name, dsn, want string }{"mariadb server", withAddr(m.Host, m.Port),
			`^` + regexp.QuoteMeta(m.Addr()) + ` does not speak the postgres protocol \(is it a MySQL/MariaDB server\?\)$`})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			tg, err := Open(ctx, Options{DSN: tc.dsn, Worker: 106})
			if err == nil {
				tg.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			t.Log(msg)
			if !regexp.MustCompile(tc.want).MatchString(msg) {
				t.Errorf("error %q does not match %q", msg, tc.want)
			}
			for _, secret := range []string{d.Password, wrong.Password, "hunter2"} {
				if strings.Contains(msg, secret) {
					t.Errorf("error %q shows a password", msg)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line", msg)
			}
		})
	}
}

func testenvDSN(env string) string {
	if s, ok := lookupEnv(env); ok {
		return s
	}
	return ""
}

func TestClosed(t *testing.T) {
	tg := open(t, Options{Worker: 107})
	tg.Close()
	if _, err := tg.Exec(context.Background(), "SELECT 1"); !errors.Is(err, errClosed) {
		t.Fatalf("Exec after Close: %v", err)
	}
}

func BenchmarkExec(b *testing.B) {
	tg := open(b, Options{Worker: 108, Timeout: 5 * time.Second})
	mustExec(b, tg, "CREATE TABLE t0(c0 INT, c1 TEXT)", "INSERT INTO t0 SELECT g, 'v' || g FROM generate_series(1, 10) g")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := tg.Exec(ctx, "SELECT c0, c1 FROM t0 WHERE c0 > 5")
		if err != nil || len(r.Rows) != 5 {
			b.Fatal(err, r)
		}
	}
}

func BenchmarkReset(b *testing.B) {
	tg := open(b, Options{Worker: 109})
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		mustExec(b, tg, "CREATE TABLE t0(c0 INT)", "CREATE TABLE t1(c0 INT)")
		if err := tg.Reset(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

var lookupEnv = os.LookupEnv
