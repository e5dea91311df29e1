// Package turso is Turso, the Rust rewrite of SQLite, as a SQL target: one long-lived Python
// process per target (package rowserver) that holds one in-memory database of the pyturso binding
// (PyPI pyturso, module turso), so that polyfuzz tests the engine as its Python users run it and a
// Rust panic in it kills a child process, not polyfuzz.
//
// # Values and errors
//
// Values are SQLite's storage classes in the canonical forms of package fuzz, exactly as package
// sqlite prints them (i:, r:, t:, b:, NULL), so that the two engines compare value for value in
// the cross-engine differential. The binding gives an error's class, not SQLite's result code:
// Result.Code is the primary SQLite result code the class stands for (SQLITE_ERROR,
// SQLITE_CONSTRAINT, SQLITE_BUSY, ...), and Err the engine's message.
//
// # Timeouts and crashes
//
// As package rowserver describes: a statement over Options.Timeout is a fuzz.StatusTimeout, and a
// process that dies, or a panic in the engine (which pyo3 raises as PanicException), is a
// fuzz.StatusCrash whose message carries the panic's text; the next Exec or Reset starts a new
// process. Reset otherwise replaces the database by a new in-memory one in the running process.
//
// This package imports only fuzz, targets/rowserver and the standard library.
package turso

import (
	"context"
	_ "embed"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

//go:embed server.py
var serverSource string

// Fix is how to get a python3 with the pinned pyturso binding.
const Fix = "source scripts/python.sh && python_env (or python3 -m pip install pyturso==0.8.3)"

// Options configure a target.
type Options struct {
	// Python is the interpreter (see rowserver.Python); empty means the project's.
	Python string
	// Timeout bounds one statement; 0 means no limit.
	Timeout time.Duration
}

// Target is an in-memory Turso database in a Python process. It is a fuzz.Target used by one
// goroutine.
type Target struct {
	s *rowserver.Server
}

var _ fuzz.Target = (*Target)(nil)

// Open starts the server. A missing interpreter or binding is an error that names the fix.
func Open(o Options) (*Target, error) {
	s, err := rowserver.StartPython(rowserver.PythonServer{Name: "turso", Module: "turso (PyPI pyturso)",
		Source: serverSource, Python: o.Python, Fix: Fix, Timeout: o.Timeout})
	if err != nil {
		return nil, err
	}
	return &Target{s: s}, nil
}

// Name returns "turso".
func (t *Target) Name() string { return "turso" }

// Version returns the binding's version, which is Turso's ("0.8.3").
func (t *Target) Version() string {
	v, _, _ := strings.Cut(t.s.Version(), " ")
	return v
}

// SQLiteVersion returns the SQLite release whose behaviour Turso tracks (sqlite_version()).
func (t *Target) SQLiteVersion() string {
	_, v, _ := strings.Cut(t.s.Version(), " ")
	return v
}

// Starts counts the Python processes started.
func (t *Target) Starts() int { return t.s.Starts }

// Reset replaces the database by an empty one, starting a new process when none runs.
func (t *Target) Reset(ctx context.Context) error {
	return t.s.ResetWith(ctx, rowserver.ResetProgram)
}

// Exec runs one statement (or several; the last one's rows are the answer).
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	return t.s.ExecRows(ctx, stmt, rowserver.Canonical)
}

// Close stops the process.
func (t *Target) Close() error { return t.s.Close() }
