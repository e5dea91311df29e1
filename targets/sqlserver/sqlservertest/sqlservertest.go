// Package sqlservertest holds what the server targets' tests (postgres, mysql and mariadb) share,
// on top of package sqltest: checks of a lost session, of the namespaces two workers own on one
// server, of those that targets of one worker number claim, of the safety of a namespace holding
// objects polyfuzz did not create, and of the one-line errors for bad DSNs. Each target's test
// calls them with its own statements and tables.
package sqlservertest

import (
	"context"
	"io"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

// CheckLostSession checks a target whose session the statement kill ends: kill answers a crash
// (with code, when not empty), Exec answers the crash again until Reset, and Reset reconnects to
// an empty namespace.
func CheckLostSession(t *testing.T, tg fuzz.Target, kill, code string) {
	t.Helper()
	ctx := context.Background()
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT)")
	r, err := tg.Exec(ctx, kill)
	if err != nil || r.Status != fuzz.StatusCrash || code != "" && r.Code != code {
		t.Fatalf("%s gave %+v %v, want a crash (code %q)", kill, r, err, code)
	}
	if r2, err := tg.Exec(ctx, "SELECT 1"); err != nil || r2.Status != fuzz.StatusCrash {
		t.Fatalf("Exec after a crash gave %+v %v, want the crash again until Reset", r2, err)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT)", "SELECT * FROM t0")
}

// Namespaces are two workers' targets on one server, for CheckNamespaces.
type Namespaces struct {
	// A and B are the targets of two workers.
	A, B fuzz.Target
	// Names are the namespaces (schemas, databases) A and B work in, in that order.
	Names []string
	// List returns those of Names that exist on the server, sorted.
	List func() []string
	// SetupA runs on A after it creates and fills its table t0: more for Reset to undo.
	SetupA []string
	// Before are checks on A before Reset, besides that A and B each see their own t0.
	Before []sqltest.ExecCase
	// Dirty runs on A after Before, just ahead of Reset.
	Dirty []string
	// After are checks on A after Reset.
	After []sqltest.ExecCase
}

// CheckNamespaces checks that two workers' targets do not see each other's tables, that Reset
// empties A (After says how) and leaves B alone, and that Close removes both namespaces.
func CheckNamespaces(t *testing.T, ns Namespaces) {
	t.Helper()
	t0 := func(who, v string) []sqltest.ExecCase {
		return []sqltest.ExecCase{{Name: who + " sees its own t0", Stmt: "SELECT c0 FROM t0", Want: sqltest.OK([]string{"c0"}, []string{v})}}
	}
	sqltest.MustExec(t, ns.A, append([]string{"CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (1)"}, ns.SetupA...)...)
	sqltest.MustExec(t, ns.B, "CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (2)")
	sqltest.CheckExec(t, ns.A, append(t0("A", "i:1"), ns.Before...))
	sqltest.CheckExec(t, ns.B, t0("B", "i:2"))
	sqltest.MustExec(t, ns.A, ns.Dirty...)
	if err := ns.A.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Run("after Reset", func(t *testing.T) { sqltest.CheckExec(t, ns.A, ns.After) })
	sqltest.MustExec(t, ns.B, "SELECT c0 FROM t0")
	if got := ns.List(); !reflect.DeepEqual(got, ns.Names) {
		t.Fatalf("namespaces before Close: %v, want %v", got, ns.Names)
	}
	ns.A.Close()
	ns.B.Close()
	if got := ns.List(); len(got) != 0 {
		t.Fatalf("Close left %v", got)
	}
}

// SharedWorker is a target's side of CheckSharedWorker: targets of one worker number, opened as
// two polyfuzz processes on one server would.
type SharedWorker struct {
	// Open opens a target with the worker number of the check.
	Open func(ctx context.Context) (fuzz.Target, error)
	// Name returns the namespace a target of Open works in.
	Name func(tg fuzz.Target) string
	// Base is the worker's namespace when no other session holds it.
	Base string
	// Kill is a statement that ends the target's own session.
	Kill string
	// List returns the namespaces named Base or Base_<number> that exist on the server, sorted.
	List func() []string
	// Tables returns the tables of the namespace name, sorted.
	Tables func(name string) []string
	// Hold takes the lock on the namespace name in a session of the test's own, as another polyfuzz
	// process would, waiting while another session holds it; release ends that session.
	Hold func(name string) (release func())
	// Leftover creates the namespace name as a polyfuzz run that died leaves it: marked as
	// polyfuzz's, holding a table left0, its lock free.
	Leftover func(name string)
}

// CheckSharedWorker checks that targets of one worker number claim namespaces of their own with
// the server's locks: the first reuses a leftover of a dead run, the others move on to Base_2,
// Base_3 and leave the first's tables alone, a new target gets Base again once its holder has
// closed, a target that lost its session claims its namespace again, and Reset fails rather than
// touch a namespace another session took meanwhile.
func CheckSharedWorker(t *testing.T, w SharedWorker) {
	t.Helper()
	ctx := context.Background()
	open := func(t *testing.T, want string) fuzz.Target {
		t.Helper()
		tg := sqltest.Open(t, func(ctx context.Context) (fuzz.Target, error) { return w.Open(ctx) })
		if got := w.Name(tg); got != want {
			t.Fatalf("the target works in %q, want %q", got, want)
		}
		return tg
	}
	second, third := sqlserver.Candidate(w.Base, 2), sqlserver.Candidate(w.Base, 3)
	t.Run("concurrent", func(t *testing.T) {
		w.Leftover(w.Base)
		a := open(t, w.Base)
		if got := w.Tables(w.Base); len(got) != 0 {
			t.Fatalf("the leftover %s still holds %v", w.Base, got)
		}
		sqltest.MustExec(t, a, "CREATE TABLE t0(c0 INT)", "INSERT INTO t0 VALUES (1)")
		others := []struct {
			name string
			want string
		}{
			{"second", second},
			{"third", third},
		}
		for _, o := range others {
			tg := open(t, o.want)
			if err := tg.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			sqltest.MustExec(t, tg, "CREATE TABLE t0(c1 INT, c2 INT)", "INSERT INTO t0 VALUES (2, 3)")
			if err := tg.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			sqltest.MustExec(t, tg, "CREATE TABLE t0(c2 INT)", "INSERT INTO t0 VALUES (4)")
			sqltest.CheckExec(t, a, []sqltest.ExecCase{
				{"A keeps its t0 beside the " + o.name, "SELECT c0 FROM t0", sqltest.OK([]string{"c0"}, []string{"i:1"})},
			})
		}
		if got, want := w.List(), []string{w.Base, second, third}; !reflect.DeepEqual(got, want) {
			t.Fatalf("namespaces %v, want %v", got, want)
		}
		a.Close()
		d := open(t, w.Base)
		sqltest.MustExec(t, d, "CREATE TABLE t0(c0 INT)")
	})
	if got := w.List(); len(got) != 0 {
		t.Fatalf("Close left %v", got)
	}
	t.Run("reconnect", func(t *testing.T) {
		tg := open(t, w.Base)
		crash := func() {
			t.Helper()
			sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT)")
			if r, err := tg.Exec(ctx, w.Kill); err != nil || r.Status != fuzz.StatusCrash {
				t.Fatalf("%s gave %+v %v, want a crash", w.Kill, r, err)
			}
		}
		crash()
		if err := tg.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		if got := w.Name(tg); got != w.Base {
			t.Fatalf("after a reconnect the target works in %q, want %q", got, w.Base)
		}
		crash()
		release := w.Hold(w.Base)
		err := tg.Reset(ctx)
		t.Log(err)
		if err == nil || !strings.Contains(err.Error(), w.Base+" is now in use by another session") {
			release()
			t.Fatalf("Reset over a namespace another session took gave %v, want an error that names %s", err, w.Base)
		}
		if got := w.Tables(w.Base); !reflect.DeepEqual(got, []string{"t0"}) {
			t.Errorf("the namespace holds %v after the failed Reset, want [t0]", got)
		}
		if r, err := tg.Exec(ctx, "SELECT 1"); err != nil || r.Status != fuzz.StatusCrash {
			t.Errorf("Exec after the failed Reset gave %+v %v, want the crash again", r, err)
		}
		release()
		if err := tg.Reset(ctx); err != nil {
			t.Fatalf("Reset once the other session ended: %v", err)
		}
		sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT)")
	})
	if got := w.List(); len(got) != 0 {
		t.Fatalf("Close left %v", got)
	}
}

// CheckForce checks a target on a server whose namespace holds objects polyfuzz did not create:
// open without force fails with an error that contains refusal and names --force; with force the
// target works beside them, and Reset drops what it created (a table t0 and what work makes). The
// caller then checks that the objects it did not create survived.
func CheckForce(t *testing.T, open func(ctx context.Context, force bool) (fuzz.Target, error), refusal string, work ...string) {
	t.Helper()
	ctx := context.Background()
	tg, err := open(ctx, false)
	if err == nil {
		tg.Close()
		t.Fatal("Open accepted a namespace holding objects polyfuzz did not create")
	}
	t.Log(err)
	for _, want := range []string{refusal, "--force"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open's error %q lacks %q", err, want)
		}
	}
	tg, err = open(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	sqltest.MustExec(t, tg, append([]string{"CREATE TABLE t0(c0 INT)"}, work...)...)
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err := tg.Exec(ctx, "SELECT * FROM t0"); err != nil || r.Status != fuzz.StatusEngineError {
		t.Fatalf("t0 survived Reset: %+v %v", r, err)
	}
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT)")
	if err := tg.Close(); err != nil {
		t.Fatal(err)
	}
}

// BadDSN is a DSN a target must refuse, with a regular expression for the whole error and the
// password the DSN holds, if any, which the error must not show. It is an alias of an unnamed
// struct, so that a target's table may list its fields in order.
type BadDSN = struct {
	Name, DSN, Want, Secret string
}

// other is, for each engine, the server of the other protocol: the variable of its DSN, its URL
// scheme, how a wrong-protocol error names it, and the engine to parse its DSN for.
var other = map[string]struct{ env, scheme, kind, engine string }{
	sqlserver.Postgres: {"POLYFUZZ_MARIADB_DSN", "mysql", "MySQL/MariaDB", sqlserver.MariaDB},
	sqlserver.MariaDB:  {"POLYFUZZ_POSTGRES_DSN", "postgres", "PostgreSQL", sqlserver.Postgres},
	sqlserver.MySQL:    {"POLYFUZZ_POSTGRES_DSN", "postgres", "PostgreSQL", sqlserver.Postgres},
}

// CheckConnectErrors checks that open refuses bad DSNs for engine ("postgres", "mariadb") with one
// line that matches the case's Want and shows no password: first the cases every server target
// shares, made from dsn, a working DSN of engine's server (nothing listening at port 1, a wrong
// password, the other engine's scheme and, when its DSN is in the environment, the other engine's
// server), then those extra makes from dsn taken apart.
func CheckConnectErrors(t *testing.T, engine, dsn string, open func(ctx context.Context, dsn string) (io.Closer, error),
	extra func(d sqlserver.DSN) []BadDSN) {
	t.Helper()
	d, err := sqlserver.ParseDSN(engine, dsn)
	if err != nil {
		t.Fatal(err)
	}
	at := func(host string, port int) string {
		e := *d
		e.Host, e.Port = host, port
		return e.URL()
	}
	wrong := *d
	wrong.Password = "not-the-secret-42"
	o := other[engine]
	tests := []BadDSN{
		{"unreachable", at("127.0.0.1", 1), `^cannot reach ` + engine + ` at 127\.0\.0\.1:1: connection refused; ` +
			`is the server running\? start it or fix --dbms ` + engine + `=DSN$`, ""},
		{"wrong password", wrong.URL(), `^` + engine + ` at ` + regexp.QuoteMeta(d.Addr()) + ` refused user "` +
			regexp.QuoteMeta(d.User) + `": wrong password or no such user$`, wrong.Password},
		{o.scheme + " scheme", o.scheme + "://u:p@127.0.0.1/db", `^--dbms ` + engine + ` got a ` + o.scheme +
			`:// DSN; give ` + engine + `://USER:PASS@HOST:PORT/DB$`, ""},
	}
	if odsn := os.Getenv(o.env); odsn != "" {
		od, err := sqlserver.ParseDSN(o.engine, odsn)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, BadDSN{o.engine + " server", at(od.Host, od.Port), `^` + regexp.QuoteMeta(od.Addr()) +
			` does not speak the ` + engine + ` protocol \(is it a ` + regexp.QuoteMeta(o.kind) + ` server\?\)$`, ""})
	}
	if extra != nil {
		tests = append(tests, extra(*d)...)
	}
	for _, tc := range tests {
		t.Run(tc.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			tg, err := open(ctx, tc.DSN)
			if err == nil {
				tg.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			t.Log(msg)
			if !regexp.MustCompile(tc.Want).MatchString(msg) {
				t.Errorf("error %q does not match %q", msg, tc.Want)
			}
			for _, secret := range []string{d.Password, tc.Secret} {
				if secret != "" && strings.Contains(msg, secret) {
					t.Errorf("error %q shows a password", msg)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line", msg)
			}
		})
	}
}
