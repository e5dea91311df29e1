// Package rowservertest holds what the tests of the SQL targets that run on a Python row server
// (package rowserver: datafusion, chdb, turso, duckdbpy, sqlitelib, duckdblib) share, on top of package
// sqltest: table-driven checks of canonical values, of statements and their errors, of Reset, of
// a timeout, of a server killed in the middle of a statement, of a missing Python module, and of a library file
// a library target refuses. Each target's test calls them with its own tables.
package rowservertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// Target is a row-server target: a fuzz.Target that counts the server processes it started.
type Target interface {
	fuzz.Target
	Starts() int
}

// ValueCase is an SQL expression and the canonical value that SELECT of it answers.
type ValueCase = struct {
	Expr string
	Want string
}

// CheckValues runs `SELECT expr AS c0` on tg for each case: the answer must be one row holding
// the case's value.
func CheckValues(t *testing.T, tg fuzz.Target, tests []ValueCase) {
	t.Helper()
	for _, tc := range tests {
		q := "SELECT " + tc.Expr + " AS c0"
		got, err := tg.Exec(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if want := sqltest.OK(nil, []string{tc.Want}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", q, got, want)
		}
	}
}

// CheckValuesAs runs `SELECT expr AS c0, 7` on tg and on ref, a target that runs the same engine
// another way (in process): the answers must be the same, their columns aside, so that oracles
// and the differential see one engine whichever target runs it.
func CheckValuesAs(t *testing.T, tg, ref fuzz.Target, exprs []string) {
	t.Helper()
	ctx := context.Background()
	for _, e := range exprs {
		q := "SELECT " + e + " AS c0, 7"
		want, err := ref.Exec(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tg.Exec(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got.Columns, want.Columns = nil, nil
		if want.Status != fuzz.StatusOK || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s answered %+v; %s answered %+v", q, tg.Name(), got, ref.Name(), want)
		}
	}
}

// StmtCase is a statement and the result it must give; a Want with an empty Err matches an
// engine error with any message (messages that carry a caret line, a version, a path).
type StmtCase = struct {
	Stmt string
	Want *fuzz.Result
}

// CheckStatements runs each case's statement on tg in order and checks its result.
func CheckStatements(t *testing.T, tg fuzz.Target, tests []StmtCase) {
	t.Helper()
	for _, tc := range tests {
		got, err := tg.Exec(context.Background(), tc.Stmt)
		if err != nil {
			t.Fatal(err)
		}
		if tc.Want.Err == "" && got.Status == fuzz.StatusEngineError {
			got.Err = ""
		}
		if !reflect.DeepEqual(got, tc.Want) {
			t.Errorf("%s: got %+v, want %+v", tc.Stmt, got, tc.Want)
		}
	}
}

// CheckReset resets tg, which created a table that probe reads: probe must then fail with the
// engine error code, and the process must be the one that ran before (Reset empties the
// database in the running server).
func CheckReset(t *testing.T, tg Target, probe, code string) {
	t.Helper()
	ctx := context.Background()
	before := tg.Starts()
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if res, err := tg.Exec(ctx, probe); err != nil || res.Status != fuzz.StatusEngineError || res.Code != code {
		t.Errorf("after Reset, %s answered %+v, %v; want a %s error", probe, res, err, code)
	}
	if tg.Starts() != before {
		t.Errorf("Starts = %d after a Reset, was %d: the process should be kept", tg.Starts(), before)
	}
}

// CheckTimeout runs c, a statement past tg's timeout, with sqltest.CheckTimeouts (then must
// succeed after it) and checks what became of the server: killed and started again (killed), or
// kept, the server having interrupted the statement itself.
func CheckTimeout(t *testing.T, tg Target, then string, c sqltest.TimeoutCase, killed bool) {
	t.Helper()
	want, why := tg.Starts(), "the timeout should interrupt, not kill"
	if killed {
		want, why = want+1, "the process killed and started again"
	}
	sqltest.CheckTimeouts(t, tg, then, []sqltest.TimeoutCase{c})
	if tg.Starts() != want {
		t.Errorf("Starts = %d; want %d (%s)", tg.Starts(), want, why)
	}
}

// Crash is a statement in the middle of which a test kills the server, as a fatal signal in the
// engine would.
type Crash struct {
	// Setup runs before Slow, and again after the crash, in the new process.
	Setup []string
	// Slow is a statement that runs for seconds.
	Slow string
	// Signal kills the server (SIGSEGV; SIGKILL for an engine that handles SIGSEGV itself).
	Signal syscall.Signal
}

// CheckCrash runs c.Slow on tg and kills the server 200ms into it: the answer must be a
// fuzz.StatusCrash whose message names the engine, and after Reset the target must answer in
// a new process.
func CheckCrash(t *testing.T, tg Target, c Crash) {
	t.Helper()
	ctx := context.Background()
	sqltest.MustExec(t, tg, c.Setup...)
	starts := tg.Starts()
	pid := ServerPID(t, tg.Name())
	go func() {
		time.Sleep(200 * time.Millisecond)
		syscall.Kill(pid, c.Signal)
	}()
	res, err := tg.Exec(ctx, c.Slow)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != fuzz.StatusCrash || !strings.Contains(res.Err, tg.Name()) {
		t.Fatalf("a killed server answered %+v; want a crash that names %s", res, tg.Name())
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	sqltest.MustExec(t, tg, c.Setup...)
	if res, err := tg.Exec(ctx, "SELECT 42"); err != nil || res.Status != fuzz.StatusOK || res.Rows[0][0] != "i:42" {
		t.Fatalf("after the crash and Reset: %+v, %v", res, err)
	}
	if tg.Starts() != starts+1 {
		t.Errorf("Starts = %d after the crash; want %d", tg.Starts(), starts+1)
	}
}

// ServerPID returns the process id of the one Python row server, greeting as polyfuzz-NAME, that
// this test process started; it skips t when /proc does not show one.
func ServerPID(t *testing.T, name string) int {
	t.Helper()
	self, marker := strconv.Itoa(os.Getpid()), "polyfuzz-"+name
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if len(f) > 1 && f[1] == self && strings.Contains(string(cmd), marker) {
			pid, _ := strconv.Atoi(e.Name())
			return pid
		}
	}
	t.Skip("cannot find the server process in /proc")
	return 0
}

// CheckMissingModule opens a target with open on a python3 that cannot import module (run with
// -I -S: no site packages) and on an interpreter that does not exist: each error must name fix.
func CheckMissingModule(t *testing.T, open func(python string) error, module, fix string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		testenv.Missing(t, "python3 is not on PATH")
	}
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "python3")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+python+" -I -S \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = open(wrapper)
	if err == nil || !strings.Contains(err.Error(), "the Python module "+module+" is missing") || !strings.Contains(err.Error(), fix) {
		t.Errorf("Open on a python3 without %s = %v; want an error that names the module and %q", module, err, fix)
	}
	err = open(filepath.Join(dir, "nosuch"))
	if err == nil || !strings.Contains(err.Error(), fix) {
		t.Errorf("Open on no python3 = %v; want an error that names %q", err, fix)
	}
}

// OtherLib is a shared library that is not an engine's (the C library's libm), for
// [CheckRefused]; a case that names it is skipped where it is missing.
const OtherLib = "/lib/x86_64-linux-gnu/libm.so.6"

// NotALibrary writes a text file called name in a temporary directory and returns its path: a
// file named like a library that is none, for [CheckRefused].
func NotALibrary(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// RefusedCase is a library file a target must refuse and a part of the error it must give.
type RefusedCase = struct {
	Name, Lib, Want string
}

// CheckRefused opens a target of each case's library file with open: each must fail with an
// error of one line that holds the case's Want.
func CheckRefused(t *testing.T, open func(lib string) (fuzz.Target, error), tests []RefusedCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Lib == OtherLib {
				if _, err := os.Stat(OtherLib); err != nil {
					t.Skip(OtherLib + " is not here")
				}
			}
			tg, err := open(tc.Lib)
			if err == nil {
				tg.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tc.Want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q, want one line with %q in it", err, tc.Want)
			}
		})
	}
}
