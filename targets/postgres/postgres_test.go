package postgres

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver/sqlservertest"
)

const dsnEnv = "POLYFUZZ_POSTGRES_DSN"

func TestCanonical(t *testing.T) {
	sqltest.CheckCanonical(t, Canonical, []sqltest.CanonicalCase[uint32, []byte]{
		{23, []byte("-5"), "i:-5"},
		{20, []byte("9223372036854775807"), "i:9223372036854775807"},
		{1700, []byte("1.500"), "d:1.5"},
		{1700, []byte("2.000"), "d:2"},
		{1700, []byte("NaN"), "d:NaN"},
		{1700, []byte("-Infinity"), "d:-Inf"},
		{700, []byte("0.1"), "r:0.1"},
		{700, []byte("3.4028235e+38"), "r:3.4028235e+38"},
		{701, []byte("0.1"), "r:0.1"},
		{701, []byte("-0"), "r:-0"},
		{701, []byte("Infinity"), "r:+Inf"},
		{701, []byte("NaN"), "r:NaN"},
		{16, []byte("t"), "B:true"},
		{16, []byte("f"), "B:false"},
		{17, []byte(`\x00FF`), "b:00ff"},
		{17, []byte(`a\\b\000`), "b:615c6200"},
		{25, []byte("héllo"), "t:héllo"},
		{1082, []byte("2024-01-02"), "t:2024-01-02"},
		{25, nil, "NULL"},
	})
}

// open opens a target on the test database (or opts.DSN) and closes it when t ends.
func open(t testing.TB, opts Options) *Target {
	t.Helper()
	if opts.DSN == "" {
		opts.DSN = testenv.NeedDSN(t, dsnEnv)
	}
	return sqltest.Open(t, func(ctx context.Context) (*Target, error) { return Open(ctx, opts) })
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

func TestExec(t *testing.T) {
	tg := open(t, Options{Worker: 100})
	if v := tg.Version(); !regexp.MustCompile(`^\d+\.\d+`).MatchString(v) {
		t.Errorf("Version() = %q", v)
	}
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT PRIMARY KEY, c1 TEXT)", "INSERT INTO t0 VALUES (1, 'a'), (2, NULL)")
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{
		{"literals", `SELECT 1 AS a, 1.50::numeric AS b, 0.1::float8 AS c, 0.1::float4 AS d, 'a' AS e, true AS f,
			NULL AS g, '\x00ff'::bytea AS h, 2.000 AS i, 'NaN'::numeric AS j, '-Infinity'::float8 AS k,
			-0.0::float8 AS l, 9223372036854775807 AS m, DATE '2024-01-02' AS n, ARRAY[1,2] AS o, 1::int2 AS p`,
			sqltest.OK([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"},
				[]string{"i:1", "d:1.5", "r:0.1", "r:0.1", "t:a", "B:true", "NULL", "b:00ff", "d:2", "d:NaN",
					"r:-Inf", "r:-0", "i:9223372036854775807", "t:2024-01-02", "t:{1,2}", "i:1"})},
		{"rows", "SELECT * FROM t0 ORDER BY c0", sqltest.OK([]string{"c0", "c1"}, []string{"i:1", "t:a"}, []string{"i:2", "NULL"})},
		{"no rows", "SELECT c0 FROM t0 WHERE false", sqltest.OK([]string{"c0"})},
		{"ddl", "CREATE TABLE t1(c0 INT)", sqltest.OK(nil)},
		{"division by zero", "SELECT 1/0", sqltest.EngineErr("22012", "division by zero")},
		{"unique", "INSERT INTO t0 VALUES (1, 'b')", sqltest.EngineErr("23505", `duplicate key value violates unique constraint "t0_pkey"`)},
		{"syntax", "SELEC 1", sqltest.EngineErr("42601", `syntax error at or near "SELEC"`)},
		{"after error", "SELECT count(*) FROM t0", sqltest.OK([]string{"count"}, []string{"i:2"})},
		{"aborted transaction", "BEGIN; SELECT 1/0", sqltest.EngineErr("22012", "division by zero")},
		{"rolled back", "SELECT 2 AS x", sqltest.OK([]string{"x"}, []string{"i:2"})},
	})
}

func TestTimeout(t *testing.T) {
	sqltest.CheckTimeouts(t, open(t, Options{Worker: 101, Timeout: 200 * time.Millisecond}), "SELECT 1", []sqltest.TimeoutCase{
		{"sleep", "", "SELECT pg_sleep(5)", time.Second},
		{"endless", "", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c", time.Second},
		// The statement turned the server's timeout off: the client's backstop cancels it.
		{"backstop", "SET statement_timeout = 0", "SELECT pg_sleep(10)", 200*time.Millisecond + sqlserver.Backstop + time.Second},
	})
}

func TestLostConnection(t *testing.T) {
	sqlservertest.CheckLostSession(t, open(t, Options{Worker: 110}), "SELECT pg_terminate_backend(pg_backend_pid())", "57P01")
}

// schemas lists the schemas whose names match the regular expression re.
func schemas(t testing.TB, c *pgx.Conn, re string) []string {
	t.Helper()
	return column(t, c, "SELECT nspname::text FROM pg_namespace WHERE nspname ~ $1 ORDER BY 1", re)
}

// column runs the query q and returns its first column, of type text.
func column(t testing.TB, c *pgx.Conn, q string, args ...any) []string {
	t.Helper()
	rows, err := c.Query(context.Background(), q, args...)
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
	c := admin(t, testenv.NeedDSN(t, dsnEnv))
	a, b := open(t, Options{Worker: 102}), open(t, Options{Worker: 103})
	if a.Schema() != "polyfuzz_w102" || b.Schema() != "polyfuzz_w103" {
		t.Fatalf("schemas %q and %q, want polyfuzz_w102 and polyfuzz_w103", a.Schema(), b.Schema())
	}
	sqlservertest.CheckNamespaces(t, sqlservertest.Namespaces{
		A: a, B: b,
		Names:  []string{"polyfuzz_w102", "polyfuzz_w103"},
		List:   func() []string { return schemas(t, c, "^polyfuzz_w10[23]$") },
		SetupA: []string{"CREATE TEMP TABLE tmp(c0 INT)"},
		Before: []sqltest.ExecCase{
			{"only its schema on the path", "SHOW search_path", sqltest.OK([]string{"search_path"}, []string{"t:polyfuzz_w102"})},
		},
		Dirty: []string{"SET statement_timeout = 1", "SET enable_seqscan = off", "SET jit = on"},
		After: []sqltest.ExecCase{
			{"t0 is gone", "SELECT * FROM t0", sqltest.EngineErr("42P01", `relation "t0" does not exist`)},
			{"tmp is gone", "SELECT * FROM tmp", sqltest.EngineErr("42P01", `relation "tmp" does not exist`)},
			{"enable_seqscan", "SHOW enable_seqscan", sqltest.OK([]string{"enable_seqscan"}, []string{"t:on"})},
			{"statement_timeout", "SHOW statement_timeout", sqltest.OK([]string{"statement_timeout"}, []string{"t:0"})},
			{"jit is polyfuzz's", "SHOW jit", sqltest.OK([]string{"jit"}, []string{"t:off"})},
			{"search_path", "SHOW search_path", sqltest.OK([]string{"search_path"}, []string{"t:polyfuzz_w102"})},
		},
	})
}

func TestSharedWorker(t *testing.T) {
	dsn := testenv.NeedDSN(t, dsnEnv)
	c := admin(t, dsn)
	ctx := context.Background()
	const base = "polyfuzz_w300"
	sqlservertest.CheckSharedWorker(t, sqlservertest.SharedWorker{
		Open: func(ctx context.Context) (fuzz.Target, error) { return Open(ctx, Options{DSN: dsn, Worker: 300}) },
		Name: func(tg fuzz.Target) string { return tg.(*Target).Schema() },
		Base: base,
		Kill: "SELECT pg_terminate_backend(pg_backend_pid())",
		List: func() []string { return schemas(t, c, "^"+base+"(_[0-9]+)?$") },
		Tables: func(name string) []string {
			return column(t, c, "SELECT tablename::text FROM pg_tables WHERE schemaname = $1 ORDER BY 1", name)
		},
		Hold: func(name string) func() {
			h := admin(t, dsn)
			if _, err := h.Exec(ctx, "SELECT pg_advisory_lock(hashtext('polyfuzz'), hashtext($1))", name); err != nil {
				t.Fatal(err)
			}
			return func() { h.Close(ctx) }
		},
		Leftover: func(name string) {
			q := "DROP SCHEMA IF EXISTS " + name + " CASCADE; CREATE SCHEMA " + name + "; COMMENT ON SCHEMA " + name +
				" IS '" + sqlserver.OwnerComment + "'; CREATE TABLE " + name + ".left0(c0 INT)"
			if _, err := c.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		},
	})
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

	sqlservertest.CheckForce(t, func(ctx context.Context, force bool) (fuzz.Target, error) {
		return Open(ctx, Options{DSN: dsn, Worker: 104, Force: force})
	}, `holds objects polyfuzz did not create (table public.accounts, view public.rich)`,
		"CREATE TABLE accounts(c0 INT)", "INSERT INTO accounts VALUES (7)")
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
	tg, err := Open(ctx, Options{DSN: dsn, Worker: 105, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tg.Schema(), "polyfuzz_w105_") {
		t.Fatalf("forced target works in %q", tg.Schema())
	}
	sqltest.MustExec(t, tg, "RESET search_path", "CREATE TABLE t0(c0 INT)")
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
	sqlservertest.CheckConnectErrors(t, "postgres", testenv.NeedDSN(t, dsnEnv), func(ctx context.Context, dsn string) (io.Closer, error) {
		return Open(ctx, Options{DSN: dsn, Worker: 106})
	}, func(d sqlserver.DSN) []sqlservertest.BadDSN {
		d.Database = "polyfuzz_no_such_db"
		return []sqlservertest.BadDSN{
			{"no database", d.URL(), `^postgres at .* has no database "polyfuzz_no_such_db"; create it .* or fix --dbms postgres=DSN$`, ""},
			{"not a url", "host=127.0.0.1 password=hunter2",
				`^--dbms postgres got a DSN that is not a URL \(host=127\.0\.0\.1 password=\*\*\*\); give postgres://`, "hunter2"},
		}
	})
}

func TestClosed(t *testing.T) {
	sqltest.CheckClosed(t, open(t, Options{Worker: 107}), errClosed)
}

func BenchmarkExec(b *testing.B) {
	sqltest.BenchExec(b, open(b, Options{Worker: 108, Timeout: 5 * time.Second}),
		"CREATE TABLE t0(c0 INT, c1 TEXT)", "INSERT INTO t0 SELECT g, 'v' || g FROM generate_series(1, 10) g")
}

func BenchmarkReset(b *testing.B) {
	sqltest.BenchReset(b, open(b, Options{Worker: 109}), "CREATE TABLE t0(c0 INT)", "CREATE TABLE t1(c0 INT)")
}

// TestOptionsString checks that %v of the options never shows the DSN's password.
func TestOptionsString(t *testing.T) {
	o := Options{DSN: "postgres://polyfuzz:s3cr%40t-pw@127.0.0.1:5432/db?password=s3cr%40t-pw", Worker: 2}
	for _, format := range []string{"%v", "%+v", "%s"} {
		if got := fmt.Sprintf(format, o); strings.Contains(got, "s3cr") || !strings.Contains(got, "polyfuzz:***@127.0.0.1") {
			t.Errorf("%s of the options: %s", format, got)
		}
	}
}
