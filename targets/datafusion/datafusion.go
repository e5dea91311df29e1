// Package datafusion runs Apache DataFusion, the query engine of the PyPI package datafusion, as
// a SQL target: one long-lived Python process per target (package rowserver) that keeps one
// SessionContext, whose tables are DataFusion's in-memory tables (CREATE TABLE, INSERT, UPDATE,
// DELETE, CREATE VIEW; no indexes).
//
// The package comes from the project's Python environment (scripts/requirements.txt pins
// datafusion==55.0.0, whose engine is DataFusion 55.2.0); without it Open fails with an error
// that names the fix, `source scripts/python.sh && python_env`.
//
// # Values and errors
//
// Values are canonical by the Arrow type of their column: integers of any width as i:, Decimal128
// and Decimal256 as d: (exact), Float64 as r:, Float32 as r: of the float32 (a NaN with its sign
// bit set as [NegNaN]), Boolean as B:, the string types as t:, the binary types as b:, and other
// types (dates, times, lists) as t: with pyarrow's text. Engine errors carry the DataFusionError variant as Result.Code (Plan, Execution,
// NotImplemented, Internal, Schema, SQL/ParserError, ...), an Arrow error its kind (Arrow/Cast,
// Arrow/DivideByZero, Arrow/Compute, Arrow/InvalidArgument, ...), and the message of the
// innermost error (the contexts it came through, such as the optimizer rule, on later lines). A
// Rust panic, which the binding turns into a Python exception, is a fuzz.StatusCrash with Code
// "Panic"; the process goes on.
//
// # Timeouts and crashes
//
// As package rowserver describes: a statement over Options.Timeout is a fuzz.StatusTimeout, and a
// process that dies is a fuzz.StatusCrash; the next Exec or Reset starts a new process. Reset
// otherwise replaces the SessionContext by a new one in the running process.
//
// This package imports only fuzz, targets/rowserver (and what it imports) and the standard library.
package datafusion

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

// Fix says how to get the datafusion module into the project's Python environment.
const Fix = "source scripts/python.sh && python_env (or python3 -m pip install datafusion==55.0.0)"

// CodePanic is the Code of a Rust panic inside DataFusion, a crash.
const CodePanic = "Panic"

// Options configure a target.
type Options struct {
	// Python is the interpreter with the datafusion module; empty means the project's
	// (rowserver.Python).
	Python string
	// Timeout bounds one statement; 0 means no limit.
	Timeout time.Duration
}

// Target is DataFusion in a Python process. It is a fuzz.Target used by one goroutine.
type Target struct {
	s *rowserver.Server
}

var _ fuzz.Target = (*Target)(nil)

// Open starts the server. A missing interpreter or datafusion module is an error that names the
// fix.
func Open(o Options) (*Target, error) {
	s, err := rowserver.StartPython(rowserver.PythonServer{Name: "datafusion", Module: "datafusion",
		Source: serverSource, Python: o.Python, Timeout: o.Timeout, Fix: Fix})
	if err != nil {
		return nil, err
	}
	return &Target{s: s}, nil
}

// Name returns "datafusion".
func (t *Target) Name() string { return "datafusion" }

// Version returns the engine's version as DataFusion's version() names it ("55.2.0").
func (t *Target) Version() string {
	_, v, _ := strings.Cut(t.s.Version(), " ")
	return v
}

// Package returns the version of the Python package that carries the engine ("55.0.0").
func (t *Target) Package() string {
	v, _, _ := strings.Cut(t.s.Version(), " ")
	return v
}

// Starts counts the Python processes started.
func (t *Target) Starts() int { return t.s.Starts }

// Reset replaces the SessionContext by a new one, starting a new process when none runs.
func (t *Target) Reset(ctx context.Context) error {
	return t.s.ResetWith(ctx, rowserver.ResetProgram)
}

// Exec runs one statement.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	res, err := t.s.ExecRows(ctx, stmt, canonical)
	if err == nil && res != nil && res.Status == fuzz.StatusEngineError && res.Code == CodePanic {
		res.Status = fuzz.StatusCrash
	}
	return res, err
}

// NegNaN is the canonical form of a NaN whose sign bit is set. DataFusion orders, groups and
// deduplicates floats by IEEE 754's total order, where -NaN (the result of -Inf - -Inf) and NaN
// are two values (apache/datafusion#7273), so they print differently.
const NegNaN = "r:-NaN"

// canonical turns a value as the server writes it into its canonical form.
func canonical(v string) string {
	if v == "r:-nan" || v == "f:-nan" {
		return NegNaN
	}
	return rowserver.Canonical(v)
}

// Close stops the process.
func (t *Target) Close() error { return t.s.Close() }
