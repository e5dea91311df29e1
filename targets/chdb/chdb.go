// Package chdb runs ClickHouse in process through chDB (the PyPI package chdb) as a SQL target:
// one long-lived Python process per target (package rowserver) that holds one chDB session on a
// temporary folder, with one database, polyfuzz, that the target creates, uses and drops.
//
// # Settings
//
// Options.Settings are SET statements the target owns: it applies them when the session starts
// and after every Reset (the SQL domain passes the clickhouse dialect's session settings, see
// package sqlgen). A SET that a program runs is undone by Reset (SET name = DEFAULT) before the
// owned settings are applied again.
//
// # Values and errors
//
// Each statement runs with the output format TabSeparatedWithNamesAndTypes, which gives the
// result's column types: integers of any width are i:, Decimal is d: (exact), Float64 is r:,
// Float32 is r: of the float32, Bool is B:, String and FixedString are t:, and other types
// (Date, DateTime, Array, Tuple) are t: with ClickHouse's text. Engine errors carry ClickHouse's
// error name as Result.Code (ILLEGAL_DIVISION, NO_COMMON_TYPE, ...) and the message without its
// "Code: N. DB::Exception: " prefix; an error that is not ClickHouse's has Code "driver".
//
// # Timeouts and crashes
//
// As package rowserver describes: a statement over Options.Timeout is a fuzz.StatusTimeout, and a
// process that dies (a segmentation fault or an abort in ClickHouse) is a fuzz.StatusCrash; the
// next Exec or Reset starts a new process. Reset otherwise drops and recreates the database in
// the running process.
//
// This package imports only fuzz, targets/rowserver and the standard library.
package chdb

import (
	"context"
	_ "embed"
	"strconv"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

//go:embed server.py
var serverSource string

// Name is the engine's name.
const Name = "clickhouse"

// Fix says how to install chDB in the project's Python environment.
const Fix = "source scripts/python.sh && python_env"

// Options configure a target.
type Options struct {
	// Python is the interpreter (see rowserver.Python).
	Python string
	// Timeout bounds one statement; 0 means no limit.
	Timeout time.Duration
	// Settings are SET statements applied at start and after every Reset.
	Settings []string
}

// Target is ClickHouse in a chDB session in a Python process. It is a fuzz.Target used by one
// goroutine.
type Target struct {
	s *rowserver.Server
}

var _ fuzz.Target = (*Target)(nil)

// Open starts the server. A missing interpreter or chdb module is an error that names the fix.
func Open(o Options) (*Target, error) {
	var src strings.Builder
	src.WriteString("SETTINGS = [")
	for _, s := range o.Settings {
		src.WriteString(strconv.Quote(s))
		src.WriteString(", ")
	}
	src.WriteString("]\n")
	src.WriteString(serverSource)
	s, err := rowserver.StartPython(rowserver.PythonServer{Name: Name, Module: "chdb", Source: src.String(),
		Python: o.Python, Timeout: o.Timeout, Fix: Fix})
	if err != nil {
		return nil, err
	}
	return &Target{s: s}, nil
}

// Name returns "clickhouse".
func (t *Target) Name() string { return Name }

// Version returns ClickHouse's version ("26.9.2.1").
func (t *Target) Version() string {
	v, _, _ := strings.Cut(t.s.Version(), " ")
	return v
}

// ChdbVersion returns the version of the chdb package ("4.4.0").
func (t *Target) ChdbVersion() string {
	_, v, _ := strings.Cut(t.s.Version(), " ")
	return v
}

// Starts counts the Python processes started.
func (t *Target) Starts() int { return t.s.Starts }

// Reset drops everything polyfuzz created and restores the settings, starting a new process
// when none runs.
func (t *Target) Reset(ctx context.Context) error {
	return t.s.ResetWith(ctx, rowserver.ResetProgram)
}

// Exec runs one statement.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	return t.s.ExecRows(ctx, stmt, rowserver.Canonical)
}

// Close stops the process.
func (t *Target) Close() error { return t.s.Close() }
