package mysql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

const dsnEnv = "POLYFUZZ_MARIADB_DSN"

func TestCanonical(t *testing.T) {
	tests := []struct {
		typ  string
		in   any
		want string
	}{
		{"INT", int64(-5), "i:-5"},
		{"UNSIGNED BIGINT", uint64(18446744073709551615), "i:18446744073709551615"},
		{"DECIMAL", []byte("1.500"), "d:1.5"},
		{"DECIMAL", []byte("-0.000"), "d:0"},
		{"DOUBLE", 0.1, "r:0.1"},
		{"FLOAT", float32(0.1), "r:0.1"},
		{"VARCHAR", []byte("héllo"), "t:héllo"},
		{"TEXT", []byte(""), "t:"},
		{"VARBINARY", []byte{0, 255}, "b:00ff"},
		{"BLOB", []byte("a"), "b:61"},
		{"BIT", []byte{5}, "b:05"},
		{"DATE", []byte("2024-01-02"), "t:2024-01-02"},
		{"INT", nil, "NULL"},
	}
	for _, tc := range tests {
		if got := Canonical(tc.typ, tc.in); got != tc.want {
			t.Errorf("Canonical(%s, %v) = %q, want %q", tc.typ, tc.in, got, tc.want)
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

// admin connects to the server beside the target, as the test's own session.
func admin(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	d, err := sqlserver.ParseDSN("mariadb", dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = d.User, d.Password, "tcp", d.Addr()
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	return db
}

func ok(cols []string, rows ...[]string) *fuzz.Result {
	return &fuzz.Result{Status: fuzz.StatusOK, Columns: cols, Rows: rows}
}

func engineErr(code, msg string) *fuzz.Result {
	return &fuzz.Result{Status: fuzz.StatusEngineError, Code: code, Err: msg}
}

func TestExec(t *testing.T) {
	tg := open(t, Options{Worker: 200})
	if v := tg.Version(); !regexp.MustCompile(`^\d+\.\d+\.\d+(-MariaDB)?$`).MatchString(v) || tg.Name() != "mariadb" {
		t.Errorf("Name() = %q, Version() = %q", tg.Name(), v)
	}
	mustExec(t, tg, "CREATE TABLE t0(c0 INT PRIMARY KEY, c1 VARCHAR(10), c2 DOUBLE, c3 BLOB, c4 DECIMAL(10,3), c5 FLOAT)",
		"INSERT INTO t0 VALUES (1, 'a', 1.5, x'00ff', 1.500, 0.1), (2, NULL, -2.5e0, NULL, NULL, NULL)")
	tests := []struct {
		name string
		stmt string
		want *fuzz.Result
	}{
		{"literals", `SELECT 1 AS a, 1.50 AS b, 0.1e0 AS c, 'a' AS d, true AS e, NULL AS f, x'00ff' AS g, 2.000 AS h,
			18446744073709551615 AS i, CAST(0.1 AS FLOAT) AS j, DATE '2024-01-02' AS k, b'101' AS l, -9223372036854775808 AS m`,
			ok([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"},
				[]string{"i:1", "d:1.5", "r:0.1", "t:a", "i:1", "NULL", "b:00ff", "d:2", "i:18446744073709551615", "r:0.1",
					"t:2024-01-02", "b:05", "i:-9223372036854775808"})},
		{"rows", "SELECT * FROM t0 ORDER BY c0", ok([]string{"c0", "c1", "c2", "c3", "c4", "c5"},
			[]string{"i:1", "t:a", "r:1.5", "b:00ff", "d:1.5", "r:0.1"}, []string{"i:2", "NULL", "r:-2.5", "NULL", "NULL", "NULL"})},
		{"no rows", "SELECT c0 FROM t0 WHERE false", ok([]string{"c0"})},
		{"ddl", "CREATE TABLE t1(c0 INT)", ok(nil)},
		{"bytes compare by bytes", "SELECT 'a' = 'A', 'a' < 'B'", ok([]string{"'a' = 'A'", "'a' < 'B'"}, []string{"i:0", "i:0"})},
		{"division by zero is NULL", "SELECT 1/0 AS x", ok([]string{"x"}, []string{"NULL"})},
		{"strict", "INSERT INTO t0(c0) VALUES ('abc')", engineErr("1366", "Incorrect integer value: 'abc' for column `polyfuzz_w200`.`t0`.`c0` at row 1")},
		{"unique", "INSERT INTO t0(c0) VALUES (1)", engineErr("1062", "Duplicate entry '1' for key 'PRIMARY'")},
		{"no table", "SELECT * FROM nope", engineErr("1146", "Table 'polyfuzz_w200.nope' doesn't exist")},
		{"after error", "SELECT COUNT(*) AS n FROM t0", ok([]string{"n"}, []string{"i:2"})},
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

func TestMySQLFlavor(t *testing.T) {
	tg := open(t, Options{DSN: testenv.NeedDSN(t, "POLYFUZZ_MYSQL_DSN"), Worker: 201})
	if tg.Name() != "mysql" {
		t.Errorf("Name() = %q, want mysql", tg.Name())
	}
	got, err := tg.Exec(context.Background(), "SELECT 1.50 AS x")
	if want := ok([]string{"x"}, []string{"d:1.5"}); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v %v, want %+v", got, err, want)
	}
}

func TestTimeout(t *testing.T) {
	tests := []struct {
		name  string
		setup string
		stmt  string
		max   time.Duration
	}{
		{"sleep", "", "SELECT SLEEP(5)", time.Second},
		{"busy", "", "SELECT BENCHMARK(10000000000, MD5('a'))", time.Second},
		{"endless", "SET SESSION max_recursive_iterations = 4294967295",
			"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT COUNT(*) FROM c", time.Second},
		// The statement turned the server's timeout off: the client's backstop drops the session.
		{"backstop", "SET SESSION max_statement_time = 0", "SELECT SLEEP(10)", 200*time.Millisecond + Backstop + time.Second},
	}
	tg := open(t, Options{Worker: 202, Timeout: 200 * time.Millisecond})
	mustExec(t, tg, "CREATE TABLE kept(c0 INT)")
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
			mustExec(t, tg, "SELECT * FROM kept")
		})
	}
}

func TestLostConnection(t *testing.T) {
	tg := open(t, Options{Worker: 203})
	ctx := context.Background()
	mustExec(t, tg, "CREATE TABLE t0(c0 INT)")
	r, err := tg.Exec(ctx, "KILL CONNECTION_ID()")
	if err != nil || r.Status != fuzz.StatusCrash {
		t.Fatalf("killed session gave %+v %v, want a crash", r, err)
	}
	if r2, err := tg.Exec(ctx, "SELECT 1"); err != nil || r2.Status != fuzz.StatusCrash {
		t.Fatalf("Exec after a crash gave %+v %v, want the crash again until Reset", r2, err)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	mustExec(t, tg, "CREATE TABLE t0(c0 INT)", "SELECT * FROM t0")
}

func TestRetryable(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
	tests := []struct {
		name    string
		err     error
		elapsed time.Duration
		want    bool
	}{
		{"refused while restarting", refused, time.Second, true},
		{"refused past the wait", refused, recoveryWait, false},
		{"shutting down", &mysql.MySQLError{Number: 1053, Message: "Server shutdown in progress"}, 0, true},
		{"lost during the handshake", &mysql.MySQLError{Number: 2013, Message: "Lost connection"}, 0, true},
		{"bad connection", driver.ErrBadConn, 0, true},
		{"invalid connection", mysql.ErrInvalidConn, 0, true},
		{"closed at once", io.EOF, 0, true},
		{"no greeting", (&sqlserver.DSN{Engine: "mariadb", Host: "h", Port: 1}).Unreachable("no greeting"), 0, true},
		{"wrong password", &mysql.MySQLError{Number: 1045, Message: "Access denied"}, 0, false},
		{"other engine error", &mysql.MySQLError{Number: 1146, Message: "no table"}, 0, false},
		{"no such host", &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Name: "nohost", Err: "no such host"}}, 0, false},
		{"other engine", (&sqlserver.DSN{Engine: "mariadb", Host: "h", Port: 1}).WrongProtocol(sqlserver.ProtocolPostgres), 0, false},
		{"anything else", errors.New("something else"), 0, false},
	}
	for _, tc := range tests {
		if got := retryable(tc.err, tc.elapsed, recoveryWait); got != tc.want {
			t.Errorf("%s: retryable(%v, %s) = %v, want %v", tc.name, tc.err, tc.elapsed, got, tc.want)
		}
	}
}

// TestReconnectGivesUp reconnects to a server that never comes back: the wait ends with the usual
// one-line "cannot reach" error.
func TestReconnectGivesUp(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	tests := []struct {
		wait time.Duration
		want string // a regular expression for the whole message
	}{
		{0, fmt.Sprintf(`^cannot reach mariadb at 127\.0\.0\.1:%d: connection refused; is the server running\? start it or fix --dbms mariadb=DSN$`, port)},
		{1500 * time.Millisecond, fmt.Sprintf(`^cannot reach mariadb at 127\.0\.0\.1:%d: connection refused \(retried for [0-9]+s\); is the server running\? `+
			`start it or fix --dbms mariadb=DSN$`, port)},
	}
	for _, tc := range tests {
		t.Run(tc.wait.String(), func(t *testing.T) {
			tg, err := newTarget(Options{DSN: fmt.Sprintf("mariadb://u:secret-pw@127.0.0.1:%d/polyfuzz", port)})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err = tg.connect(context.Background(), tc.wait)
			took := time.Since(start)
			if err == nil {
				t.Fatal("connect succeeded")
			}
			if !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("error %q does not match %q", err, tc.want)
			}
			if took < tc.wait || took > tc.wait+2*time.Second {
				t.Errorf("connect gave up after %s, want about %s", took, tc.wait)
			}
		})
	}
}

func databases(t testing.TB, db *sql.DB, re string) []string {
	t.Helper()
	rows, err := db.Query("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME REGEXP ? ORDER BY 1", re)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

func TestNamespace(t *testing.T) {
	dsn := testenv.NeedDSN(t, dsnEnv)
	ctx := context.Background()
	a, b := open(t, Options{Worker: 204}), open(t, Options{Worker: 205})
	if a.Database() != "polyfuzz_w204" || b.Database() != "polyfuzz_w205" {
		t.Fatalf("databases %q and %q", a.Database(), b.Database())
	}
	mustExec(t, a, "CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (1)", "CREATE VIEW v0 AS SELECT * FROM t0",
		"SET SESSION sql_mode = ''")
	mustExec(t, b, "CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (2)")
	steps := []struct {
		name string
		tg   *Target
		stmt string
		want *fuzz.Result
	}{
		{"a sees its own t0", a, "SELECT c0 FROM t0", ok([]string{"c0"}, []string{"i:1"})},
		{"b sees its own t0", b, "SELECT c0 FROM t0", ok([]string{"c0"}, []string{"i:2"})},
	}
	for _, s := range steps {
		if got, err := s.tg.Exec(ctx, s.stmt); err != nil || !reflect.DeepEqual(got, s.want) {
			t.Errorf("%s: %+v %v, want %+v", s.name, got, err, s.want)
		}
	}
	if err := a.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	after := []struct {
		stmt string
		want *fuzz.Result
	}{
		{"SELECT * FROM t0", engineErr("1146", "Table 'polyfuzz_w204.t0' doesn't exist")},
		{"SELECT * FROM v0", engineErr("1146", "Table 'polyfuzz_w204.v0' doesn't exist")},
		{"SELECT @@SESSION.sql_mode AS m, DATABASE() AS d", ok([]string{"m", "d"}, []string{"t:" + SQLMode, "t:polyfuzz_w204"})},
	}
	for _, s := range after {
		if got, err := a.Exec(ctx, s.stmt); err != nil || !reflect.DeepEqual(got, s.want) {
			t.Errorf("after Reset, %s: %+v %v, want %+v", s.stmt, got, err, s.want)
		}
	}
	mustExec(t, b, "SELECT c0 FROM t0")
	db := admin(t, dsn)
	if got := databases(t, db, "^polyfuzz_w20[45]$"); !reflect.DeepEqual(got, []string{"polyfuzz_w204", "polyfuzz_w205"}) {
		t.Fatalf("databases before Close: %v", got)
	}
	a.Close()
	b.Close()
	if got := databases(t, db, "^polyfuzz_w20[45]$"); len(got) != 0 {
		t.Fatalf("Close left databases %v", got)
	}
}

func TestForeignTables(t *testing.T) {
	dsn := testenv.NeedDSN(t, dsnEnv)
	ctx := context.Background()
	db := admin(t, dsn)
	setup := []string{
		"DROP DATABASE IF EXISTS polyfuzz_w206",
		"CREATE DATABASE polyfuzz_w206",
		"CREATE TABLE polyfuzz_w206.accounts(id INT PRIMARY KEY, owner TEXT)",
		"INSERT INTO polyfuzz_w206.accounts VALUES (1, 'alice'), (2, 'bob')",
	}
	for _, s := range setup {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { db.Exec("DROP DATABASE IF EXISTS polyfuzz_w206") })

	_, err := Open(ctx, Options{DSN: dsn, Worker: 206})
	if err == nil {
		t.Fatal("Open accepted a database holding foreign tables")
	}
	t.Log(err)
	for _, want := range []string{`mariadb database "polyfuzz_w206" already holds tables polyfuzz did not create (accounts)`, "--force"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open's error %q lacks %q", err, want)
		}
	}

	tg, err := Open(ctx, Options{DSN: dsn, Worker: 206, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	mustExec(t, tg, "CREATE TABLE t0(c0 INT)", "CREATE VIEW v0 AS SELECT * FROM t0", "CREATE SEQUENCE s0")
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if r, _ := tg.Exec(ctx, "SELECT * FROM t0"); r.Status != fuzz.StatusEngineError {
		t.Fatalf("t0 survived Reset: %+v", r)
	}
	mustExec(t, tg, "CREATE TABLE t0(c0 INT)")
	if err := tg.Close(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM polyfuzz_w206.accounts WHERE owner IN ('alice', 'bob')").Scan(&n); err != nil || n != 2 {
		t.Fatalf("foreign table after a forced session: %d rows, %v", n, err)
	}
	var tables string
	if err := db.QueryRow("SELECT GROUP_CONCAT(TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'polyfuzz_w206'").Scan(&tables); err != nil || tables != "accounts" {
		t.Fatalf("tables after a forced session: %q %v, want only accounts", tables, err)
	}
}

func TestConnectErrors(t *testing.T) {
	dsn := testenv.NeedDSN(t, dsnEnv)
	d, err := sqlserver.ParseDSN("mariadb", dsn)
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
	tests := []struct {
		name string
		dsn  string
		want string // a regular expression for the whole message
	}{
		{"unreachable", withAddr("127.0.0.1", 1),
			`^cannot reach mariadb at 127\.0\.0\.1:1: connection refused; is the server running\? start it or fix --dbms mariadb=DSN$`},
		{"wrong password", wrong.URL(), `^mariadb at ` + regexp.QuoteMeta(d.Addr()) + ` refused user "` + d.User + `": wrong password or no such user$`},
		{"postgres scheme", "postgres://u:p@127.0.0.1:5432/db", `^--dbms mariadb got a postgres:// DSN; give mariadb://USER:PASS@HOST:PORT/DB$`},
		{"bad database name", withAddr(d.Host, d.Port)[:len(withAddr(d.Host, d.Port))-len(d.Database)] + "my-db",
			`^mariadb database name "my-db_w207" is not a plain identifier`},
	}
	if pdsn := os.Getenv("POLYFUZZ_POSTGRES_DSN"); pdsn != "" {
		p, err := sqlserver.ParseDSN("postgres", pdsn)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, struct{ name, dsn, want string }{"postgres server", withAddr(p.Host, p.Port),
			`^` + regexp.QuoteMeta(p.Addr()) + ` does not speak the mariadb protocol \(is it a PostgreSQL server\?\)$`})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			tg, err := Open(ctx, Options{DSN: tc.dsn, Flavor: "mariadb", Worker: 207})
			if err == nil {
				tg.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			t.Log(msg)
			if !regexp.MustCompile(tc.want).MatchString(msg) {
				t.Errorf("error %q does not match %q", msg, tc.want)
			}
			for _, secret := range []string{d.Password, wrong.Password} {
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

func TestClosed(t *testing.T) {
	tg := open(t, Options{Worker: 208})
	tg.Close()
	if _, err := tg.Exec(context.Background(), "SELECT 1"); !errors.Is(err, errClosed) {
		t.Fatalf("Exec after Close: %v", err)
	}
}

// supervisedServer returns the pid of the mariadbd that tg is connected to when
// scripts/sqlservers.sh started it under its supervisor loop, which restarts it after a crash. It
// skips t otherwise (someone else's server, which the test must not kill), except in CI, where the
// script always starts the server.
func supervisedServer(t *testing.T, tg *Target) int {
	t.Helper()
	skip := func(format string, args ...any) int {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if testenv.InCI() {
			t.Fatalf("%s; in CI scripts/sqlservers.sh starts the server under its supervisor", msg)
		}
		t.Skipf("%s; this test kills the server, so it runs only on one that scripts/sqlservers.sh started", msg)
		return 0
	}
	r, err := tg.Exec(context.Background(), "SELECT @@pid_file")
	if err != nil || r.Status != fuzz.StatusOK || len(r.Rows) != 1 {
		t.Fatalf("SELECT @@pid_file: %+v %v", r, err)
	}
	pidFile := strings.TrimPrefix(r.Rows[0][0], "t:")
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return skip("cannot read the server's pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return skip("the server's pid file %s holds %q", pidFile, b)
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return skip("cannot read the command line of pid %d: %v", pid, err)
	}
	args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	if filepath.Base(args[0]) != "mariadbd" || !slices.Contains(args, fmt.Sprintf("--port=%d", tg.dsn.Port)) {
		return skip("pid %d is not a mariadbd listening on port %d (%q)", pid, tg.dsn.Port, args)
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	var ppid int
	if err == nil {
		// pid (comm) state ppid ...
		if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 1 {
			ppid, _ = strconv.Atoi(f[1])
		}
	}
	sup, _ := os.ReadFile(filepath.Join(filepath.Dir(pidFile), "supervisor.pid"))
	if ppid == 0 || strings.TrimSpace(string(sup)) != strconv.Itoa(ppid) {
		return skip("mariadbd (pid %d, parent %d) does not run under the supervisor of scripts/sqlservers.sh", pid, ppid)
	}
	return pid
}

// TestServerCrash kills the server with SIGSEGV, as a server bug does: Exec answers crash until
// Reset, which waits while the supervisor restarts the server and InnoDB recovers, and reconnects.
func TestServerCrash(t *testing.T) {
	testenv.Exclusive(t)
	tg := open(t, Options{Worker: 211})
	ctx := context.Background()
	mustExec(t, tg, "CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (1)")
	pid := supervisedServer(t, tg)
	if err := syscall.Kill(pid, syscall.SIGSEGV); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for exited := false; !exited; {
		// Gone, or dead and not yet reaped by the supervisor.
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		exited = err != nil || strings.HasPrefix(string(b[strings.LastIndexByte(string(b), ')')+1:]), " Z")
		if time.Since(start) > 10*time.Second {
			t.Fatalf("mariadbd (pid %d) still runs 10s after SIGSEGV", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("mariadbd (pid %d) died %s after SIGSEGV", pid, time.Since(start).Round(time.Millisecond))
	steps := []struct {
		name  string
		reset bool
		stmt  string
		want  fuzz.Status
		code  string
	}{
		{"the crash", false, "SELECT * FROM t0", fuzz.StatusCrash, ""},
		{"crash again until Reset", false, "SELECT 1", fuzz.StatusCrash, ""},
		{"a fresh database after Reset", true, "SELECT * FROM t0", fuzz.StatusEngineError, "1146"},
		{"works again", false, "CREATE TABLE t0(c0 INT)", fuzz.StatusOK, ""},
		{"and reads", false, "SELECT COUNT(*) FROM t0", fuzz.StatusOK, ""},
	}
	for _, s := range steps {
		if s.reset {
			start := time.Now()
			if err := tg.Reset(ctx); err != nil {
				t.Fatalf("Reset after the crash: %v", err)
			}
			took := time.Since(start)
			t.Logf("Reset reconnected after %s", took.Round(time.Millisecond))
			if took >= recoveryWait {
				t.Errorf("Reset took %s, more than the wait %s", took, recoveryWait)
			}
		}
		r, err := tg.Exec(ctx, s.stmt)
		if err != nil || r.Status != s.want || r.Code != s.code && s.code != "" {
			t.Fatalf("%s: Exec(%q) gave %+v %v, want status %v", s.name, s.stmt, r, err, s.want)
		}
		t.Logf("%s: %s", s.name, r.Err)
	}
	t.Logf("from SIGSEGV to a working session: %s", time.Since(start).Round(time.Millisecond))
	if pid2 := supervisedServer(t, tg); pid2 == pid {
		t.Errorf("the server still has pid %d", pid)
	}
}

func BenchmarkExec(b *testing.B) {
	tg := open(b, Options{Worker: 209, Timeout: 5 * time.Second})
	mustExec(b, tg, "CREATE TABLE t0(c0 INT, c1 TEXT)",
		"INSERT INTO t0 VALUES (1,'v1'),(2,'v2'),(3,'v3'),(4,'v4'),(5,'v5'),(6,'v6'),(7,'v7'),(8,'v8'),(9,'v9'),(10,'v10')")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := tg.Exec(ctx, "SELECT c0, c1 FROM t0 WHERE c0 > 5")
		if err != nil || len(r.Rows) != 5 {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkReset compares recreating the worker database with dropping its tables one list at a
// time (what Reset does in a database polyfuzz does not own).
func BenchmarkReset(b *testing.B) {
	for _, owned := range []bool{true, false} {
		name := "recreate-database"
		if !owned {
			name = "drop-tables"
		}
		b.Run(name, func(b *testing.B) {
			tg := open(b, Options{Worker: 210})
			tg.owned = owned
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				mustExec(b, tg, "CREATE TABLE t0(c0 INT)", "CREATE TABLE t1(c0 INT)", "CREATE VIEW v0 AS SELECT * FROM t0")
				if err := tg.Reset(ctx); err != nil {
					b.Fatal(err)
				}
			}
			tg.owned = true
		})
	}
}
