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
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver/sqlservertest"
)

const dsnEnv = "POLYFUZZ_MARIADB_DSN"

func TestCanonical(t *testing.T) {
	sqltest.CheckCanonical(t, Canonical, []sqltest.CanonicalCase[string, driver.Value]{
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
	})
}

// open opens a target on the test server (or opts.DSN) and closes it when t ends.
func open(t testing.TB, opts Options) *Target {
	t.Helper()
	if opts.DSN == "" {
		opts.DSN = testenv.NeedDSN(t, dsnEnv)
	}
	return sqltest.Open(t, func(ctx context.Context) (*Target, error) { return Open(ctx, opts) })
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

func TestExec(t *testing.T) {
	tg := open(t, Options{Worker: 200})
	if v := tg.Version(); !regexp.MustCompile(`^\d+\.\d+\.\d+(-MariaDB)?$`).MatchString(v) || tg.Name() != "mariadb" {
		t.Errorf("Name() = %q, Version() = %q", tg.Name(), v)
	}
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT PRIMARY KEY, c1 VARCHAR(10), c2 DOUBLE, c3 BLOB, c4 DECIMAL(10,3), c5 FLOAT)",
		"INSERT INTO t0 VALUES (1, 'a', 1.5, x'00ff', 1.500, 0.1), (2, NULL, -2.5e0, NULL, NULL, NULL)")
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{
		{"literals", `SELECT 1 AS a, 1.50 AS b, 0.1e0 AS c, 'a' AS d, true AS e, NULL AS f, x'00ff' AS g, 2.000 AS h,
			18446744073709551615 AS i, CAST(0.1 AS FLOAT) AS j, DATE '2024-01-02' AS k, b'101' AS l, -9223372036854775808 AS m`,
			sqltest.OK([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"},
				[]string{"i:1", "d:1.5", "r:0.1", "t:a", "i:1", "NULL", "b:00ff", "d:2", "i:18446744073709551615", "r:0.1",
					"t:2024-01-02", "b:05", "i:-9223372036854775808"})},
		{"rows", "SELECT * FROM t0 ORDER BY c0", sqltest.OK([]string{"c0", "c1", "c2", "c3", "c4", "c5"},
			[]string{"i:1", "t:a", "r:1.5", "b:00ff", "d:1.5", "r:0.1"}, []string{"i:2", "NULL", "r:-2.5", "NULL", "NULL", "NULL"})},
		{"no rows", "SELECT c0 FROM t0 WHERE false", sqltest.OK([]string{"c0"})},
		{"ddl", "CREATE TABLE t1(c0 INT)", sqltest.OK(nil)},
		{"bytes compare by bytes", "SELECT 'a' = 'A', 'a' < 'B'", sqltest.OK([]string{"'a' = 'A'", "'a' < 'B'"}, []string{"i:0", "i:0"})},
		{"division by zero is NULL", "SELECT 1/0 AS x", sqltest.OK([]string{"x"}, []string{"NULL"})},
		{"strict", "INSERT INTO t0(c0) VALUES ('abc')", sqltest.EngineErr("1366", "Incorrect integer value: 'abc' for column `polyfuzz_w200`.`t0`.`c0` at row 1")},
		{"unique", "INSERT INTO t0(c0) VALUES (1)", sqltest.EngineErr("1062", "Duplicate entry '1' for key 'PRIMARY'")},
		{"no table", "SELECT * FROM nope", sqltest.EngineErr("1146", "Table 'polyfuzz_w200.nope' doesn't exist")},
		{"after error", "SELECT COUNT(*) AS n FROM t0", sqltest.OK([]string{"n"}, []string{"i:2"})},
	})
}

func TestMySQLFlavor(t *testing.T) {
	tg := open(t, Options{DSN: testenv.NeedDSN(t, "POLYFUZZ_MYSQL_DSN"), Worker: 201})
	if tg.Name() != "mysql" {
		t.Errorf("Name() = %q, want mysql", tg.Name())
	}
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{{"decimal", "SELECT 1.50 AS x", sqltest.OK([]string{"x"}, []string{"d:1.5"})}})
}

func TestTimeout(t *testing.T) {
	tg := open(t, Options{Worker: 202, Timeout: 200 * time.Millisecond})
	sqltest.MustExec(t, tg, "CREATE TABLE kept(c0 INT)")
	sqltest.CheckTimeouts(t, tg, "SELECT * FROM kept", []sqltest.TimeoutCase{
		{"sleep", "", "SELECT SLEEP(5)", time.Second},
		{"busy", "", "SELECT BENCHMARK(10000000000, MD5('a'))", time.Second},
		{"endless", "SET SESSION max_recursive_iterations = 4294967295",
			"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT COUNT(*) FROM c", time.Second},
		// The statement turned the server's timeout off: the client's backstop drops the session.
		{"backstop", "SET SESSION max_statement_time = 0", "SELECT SLEEP(10)", 200*time.Millisecond + sqlserver.Backstop + time.Second},
	})
}

func TestLostConnection(t *testing.T) {
	sqlservertest.CheckLostSession(t, open(t, Options{Worker: 203}), "KILL CONNECTION_ID()", "")
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
		{"refused past the wait", refused, sqlserver.RecoveryWait, false},
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
		if got := retryable(tc.err, tc.elapsed, sqlserver.RecoveryWait); got != tc.want {
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

// databases lists the databases whose names match the regular expression re.
func databases(t testing.TB, db *sql.DB, re string) []string {
	t.Helper()
	return column(t, db, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME REGEXP ? ORDER BY 1", re)
}

// column runs the query q and returns its first column.
func column(t testing.TB, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(q, args...)
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
	db := admin(t, testenv.NeedDSN(t, dsnEnv))
	a, b := open(t, Options{Worker: 204}), open(t, Options{Worker: 205})
	if a.Database() != "polyfuzz_w204" || b.Database() != "polyfuzz_w205" {
		t.Fatalf("databases %q and %q", a.Database(), b.Database())
	}
	sqlservertest.CheckNamespaces(t, sqlservertest.Namespaces{
		A: a, B: b,
		Names:  []string{"polyfuzz_w204", "polyfuzz_w205"},
		List:   func() []string { return databases(t, db, "^polyfuzz_w20[45]$") },
		SetupA: []string{"CREATE VIEW v0 AS SELECT * FROM t0", "SET SESSION sql_mode = ''"},
		After: []sqltest.ExecCase{
			{"t0 is gone", "SELECT * FROM t0", sqltest.EngineErr("1146", "Table 'polyfuzz_w204.t0' doesn't exist")},
			{"v0 is gone", "SELECT * FROM v0", sqltest.EngineErr("1146", "Table 'polyfuzz_w204.v0' doesn't exist")},
			{"settings", "SELECT @@SESSION.sql_mode AS m, DATABASE() AS d", sqltest.OK([]string{"m", "d"}, []string{"t:" + SQLMode, "t:polyfuzz_w204"})},
		},
	})
}

func TestSharedWorker(t *testing.T) {
	dsn := testenv.NeedDSN(t, dsnEnv)
	db := admin(t, dsn)
	ctx := context.Background()
	const base = "polyfuzz_w310"
	sqlservertest.CheckSharedWorker(t, sqlservertest.SharedWorker{
		Open: func(ctx context.Context) (fuzz.Target, error) { return Open(ctx, Options{DSN: dsn, Worker: 310}) },
		Name: func(tg fuzz.Target) string { return tg.(*Target).Database() },
		Base: base,
		Kill: "KILL CONNECTION_ID()",
		List: func() []string { return databases(t, db, "^"+base+"(_[0-9]+)?$") },
		Tables: func(name string) []string {
			return column(t, db, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY 1", name)
		},
		Hold: func(name string) func() {
			c, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got sql.NullInt64
			if err := c.QueryRowContext(ctx, "SELECT GET_LOCK(?, 10)", name).Scan(&got); err != nil || got.Int64 != 1 {
				c.Close()
				t.Fatalf("GET_LOCK(%q) = %v, %v", name, got, err)
			}
			return func() {
				c.ExecContext(ctx, "DO RELEASE_LOCK(?)", name)
				c.Close()
			}
		},
		Leftover: func(name string) {
			for _, s := range []string{"DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name + " COMMENT '" + sqlserver.OwnerComment + "'",
				"CREATE TABLE " + name + ".left0(c0 INT)"} {
				if _, err := db.Exec(s); err != nil {
					t.Fatal(err)
				}
			}
		},
	})
}

func TestForeignTables(t *testing.T) {
	dsn := testenv.NeedDSN(t, dsnEnv)
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
	sqlservertest.CheckForce(t, func(ctx context.Context, force bool) (fuzz.Target, error) {
		return Open(ctx, Options{DSN: dsn, Worker: 206, Force: force})
	}, `mariadb database "polyfuzz_w206" already holds tables polyfuzz did not create (accounts)`,
		"CREATE VIEW v0 AS SELECT * FROM t0", "CREATE SEQUENCE s0")
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
	sqlservertest.CheckConnectErrors(t, "mariadb", testenv.NeedDSN(t, dsnEnv), func(ctx context.Context, dsn string) (io.Closer, error) {
		return Open(ctx, Options{DSN: dsn, Flavor: "mariadb", Worker: 207})
	}, func(d sqlserver.DSN) []sqlservertest.BadDSN {
		wrong := d.User + ":not-the-secret-43@tcp(" + d.Addr() + ")/" + d.Database // go-sql-driver's form
		d.Database = "my-db"
		return []sqlservertest.BadDSN{
			{"bad database name", d.URL(), `^mariadb database name "my-db_w207" is not a plain identifier`, ""},
			{"wrong password in the driver's form", wrong, `^mariadb at \S+ refused user "` + regexp.QuoteMeta(d.User) +
				`": wrong password or no such user$`, "not-the-secret-43"},
		}
	})
}

func TestClosed(t *testing.T) {
	sqltest.CheckClosed(t, open(t, Options{Worker: 208}), errClosed)
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
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (1)")
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
			if took >= sqlserver.RecoveryWait {
				t.Errorf("Reset took %s, more than the wait %s", took, sqlserver.RecoveryWait)
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
	sqltest.BenchExec(b, open(b, Options{Worker: 209, Timeout: 5 * time.Second}), "CREATE TABLE t0(c0 INT, c1 TEXT)",
		"INSERT INTO t0 VALUES (1,'v1'),(2,'v2'),(3,'v3'),(4,'v4'),(5,'v5'),(6,'v6'),(7,'v7'),(8,'v8'),(9,'v9'),(10,'v10')")
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
			sqltest.BenchReset(b, tg, "CREATE TABLE t0(c0 INT)", "CREATE TABLE t1(c0 INT)", "CREATE VIEW v0 AS SELECT * FROM t0")
			tg.owned = true
		})
	}
}
