// Package duckdbpy runs an old DuckDB release, the engine of a duckdb wheel from PyPI, as a SQL
// target: one long-lived Python process per target (package rowserver) that holds one in-memory
// database, so that `polyfuzz sql --dbms duckdb@0.8.1` tests DuckDB 0.8.1 with the oracles and
// generator of the current DuckDB target.
//
// The wheel is installed by package pypi in a folder of its own (duckdb==0.8.1 in
// ~/.cache/polyfuzz/pypi/duckdb-0.8.1); the server puts that folder first on sys.path, so that
// wheels of several versions live side by side and none is imported from the interpreter's own
// site-packages. Wheels for Python 3.11 exist from 0.6.0; releases before 0.7.0 import numpy at
// start, so 0.7.0 is the oldest this target opens.
//
// One package serves DuckDB only: the SQLite wheels on PyPI (pysqlite3-binary, sqlean.py) carry
// a few recent SQLite releases, while DuckDB's wheels cover every release since 0.1.
//
// # Values and errors
//
// Results are those of package duckdb, value for value: integer types of any width as i:, DECIMAL
// as d: (exact), FLOAT as r: of the float32, DOUBLE as r:, BOOLEAN as B:, BLOB as b:, VARCHAR as
// t:, and other types as t: with the text form of targets/duckdb. The server runs each statement
// through DuckDB's relation API, which gives the result's column types (FLOAT and DOUBLE come to
// Python as the same float). Engine errors carry DuckDB's error type as Result.Code ("Binder",
// "Out of Range", "Internal", ...) and the message without its "<type> Error: " prefix; an error
// of the binding (a value it cannot convert) has Code "driver". A FATAL error is a crash, and Exec
// answers crash until Reset.
//
// # Timeouts and crashes
//
// As package rowserver describes: a statement over Options.Timeout is a fuzz.StatusTimeout, and a
// process that dies (a segmentation fault in DuckDB) is a fuzz.StatusCrash; the next Exec or
// Reset starts a new process. Reset otherwise replaces the database by a new in-memory one in the
// running process.
//
// This package imports only fuzz, targets/rowserver, targets/pypi and the standard library.
package duckdbpy

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

//go:embed server.py
var serverSource string

// Package is the PyPI package whose wheels this target runs.
const Package = "duckdb"

// Oldest is the oldest release the target opens (older wheels need numpy).
const Oldest = "0.7.0"

// Options configure a target.
type Options struct {
	// Version is the duckdb wheel's version ("0.8.1"; a leading "v" is dropped).
	Version string
	// Python is the interpreter (see rowserver.Python); it must be the one the wheel was
	// installed for.
	Python string
	// Timeout bounds one statement; 0 means no limit.
	Timeout time.Duration
}

// Target is DuckDB of one wheel in a Python process. It is a fuzz.Target used by one goroutine.
type Target struct {
	s       *rowserver.Server
	wheel   string
	crashed string // the message of a FATAL error; Exec answers crash until Reset
}

var _ fuzz.Target = (*Target)(nil)

// WheelVersion returns the wheel version a version names: "v0.8.1" and "0.8.1" name 0.8.1.
func WheelVersion(v string) string { return strings.TrimPrefix(v, "v") }

// Open starts the server of the wheel o.Version. A wheel that is not installed, too old, or that
// the interpreter cannot import is an error that names the fix.
func Open(o Options) (*Target, error) {
	v := WheelVersion(o.Version)
	if older(v, Oldest) {
		return nil, fmt.Errorf("duckdb@%s: releases before %s need numpy at start and are not supported; give duckdb@%s or later", v, Oldest, Oldest)
	}
	if _, err := pypi.Path(Package, v, "duckdb-"+v+".dist-info"); err != nil {
		return nil, fmt.Errorf("duckdb@%s: %w", v, err)
	}
	src := "import sys\nsys.path.insert(0, " + strconv.Quote(pypi.Dir(Package, v)) + ")\n" + serverSource
	s, err := rowserver.StartPython(rowserver.PythonServer{Name: "duckdb", Module: "duckdb " + v, Source: src,
		Python: o.Python, Timeout: o.Timeout,
		Fix: "polyfuzz bench install duckdb==" + v + " (with the same python3)"})
	if err != nil {
		return nil, err
	}
	t := &Target{s: s, wheel: v}
	if got, _, _ := strings.Cut(s.Version(), " "); got != v {
		s.Close()
		return nil, fmt.Errorf("duckdb@%s: the folder %s holds duckdb %s; reinstall it with polyfuzz bench install duckdb==%s",
			v, pypi.Dir(Package, v), got, v)
	}
	return t, nil
}

// older reports whether version a comes before b (numeric dot-separated parts).
func older(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, err1 := strconv.Atoi(pa[i])
		y, err2 := strconv.Atoi(pb[i])
		if err1 != nil || err2 != nil {
			return false
		}
		if x != y {
			return x < y
		}
	}
	return len(pa) < len(pb)
}

// Name returns "duckdb".
func (t *Target) Name() string { return "duckdb" }

// Version returns DuckDB's version as the wheel's engine prints it ("0.8.1", "v0.10.3").
func (t *Target) Version() string {
	_, v, _ := strings.Cut(t.s.Version(), " ")
	return v
}

// Wheel returns the wheel's version ("0.8.1").
func (t *Target) Wheel() string { return t.wheel }

// Starts counts the Python processes started.
func (t *Target) Starts() int { return t.s.Starts }

// Reset replaces the database by an empty one, starting a new process when none runs.
func (t *Target) Reset(ctx context.Context) error {
	t.crashed = ""
	return t.s.ResetWith(ctx, rowserver.ResetProgram)
}

// Exec runs one statement (or several; the last one's rows are the answer).
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.crashed != "" {
		return &fuzz.Result{Status: fuzz.StatusCrash, Code: "Fatal", Err: t.crashed}, nil
	}
	res, err := t.s.ExecRows(ctx, stmt, rowserver.Canonical)
	if err == nil && res != nil && res.Status == fuzz.StatusEngineError && res.Code == "Fatal" {
		t.crashed = res.Err
		res.Status = fuzz.StatusCrash
	}
	return res, err
}

// Close stops the process.
func (t *Target) Close() error { return t.s.Close() }
