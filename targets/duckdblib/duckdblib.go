// Package duckdblib runs a DuckDB library given as a file, a build other than the one polyfuzz
// embeds (an engine developer's build, a release's libduckdb.so), as a SQL target:
// `polyfuzz sql --dbms duckdb=lib:/path/libduckdb.so` tests that build without rebuilding
// polyfuzz.
//
// The library runs in one long-lived Python process per target (rowserver.StartLib, shared with
// targets/sqlitelib) that loads it with ctypes and drives DuckDB's C API: duckdb_open and
// duckdb_connect for one in-memory database, then, for each program, as the Go binding of
// targets/duckdb does, duckdb_extract_statements and each statement prepared and executed, the
// rows of the last one the answer. The server refuses a file that is not a DuckDB library, and one
// the process did not load from the given path, with an error that says so.
//
// # Values and errors
//
// Values are those of targets/duckdb, value for value: integer types of any width as i:, DECIMAL
// as d: (exact), FLOAT as r: of the float32, DOUBLE as r:, BOOLEAN as B:, BLOB as b:, VARCHAR as
// t: (cut at a NUL byte, as the C API's value functions cut it), INTERVAL as targets/duckdb
// writes it, dates, times and timestamps as t: of DuckDB's own text of the value, which
// targets/duckdb's text form follows. Values of other types (lists, structs, maps, UUIDs, enums:
// the generator writes none of them) are not read: their statement answers an engine error of
// Code "driver", as one the Go binding cannot convert does. Engine errors carry
// the error type that the message's prefix names as Result.Code ("Binder", "Conversion", "Out of
// Range"), read by duckdb.ErrorOf as the Go binding reads it, and the message without the prefix.
// A FATAL error is a crash, and Exec answers crash until Reset.
//
// # Timeouts and crashes
//
// A statement past Options.Timeout is interrupted with duckdb_interrupt and answered with
// fuzz.StatusTimeout, the database kept; one that does not stop soon after has its process
// killed. A process that dies is a fuzz.StatusCrash, and the next Exec or Reset starts a new
// process with an empty database.
//
// This package imports fuzz, targets/rowserver, targets/duckdb (for the error codes) and the
// standard library.
package duckdblib

import (
	"context"
	_ "embed"
	"os"
	"path/filepath"
	"strconv"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/duckdb"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

//go:embed server.py
var serverSource string

// Options configure a target: Lib is the path of the DuckDB library (libduckdb.so).
type Options = rowserver.LibFile

// Target is DuckDB of one library file in a Python process. It is a fuzz.Target used by one
// goroutine.
type Target struct {
	l       *rowserver.Lib
	crashed string // the message of a FATAL error; Exec answers crash until Reset
	// dirty says a statement since the last reset may have changed the session, so that only a
	// new instance resets it.
	dirty bool
}

var _ fuzz.Target = (*Target)(nil)

// Open starts the server of the library o.Lib. A missing file or one that is not a DuckDB library
// is an error that says so.
func Open(o Options) (*Target, error) {
	l, err := rowserver.StartLib(rowserver.LibOptions{Name: "duckdb", File: "libduckdb.so", Kind: "a DuckDB library",
		Source: "INIT = " + strconv.Quote(duckdb.AttachIdle) + "\n" + serverSource, LibFile: o})
	if err != nil {
		return nil, err
	}
	return &Target{l: l}, nil
}

// Name returns "duckdb".
func (t *Target) Name() string { return "duckdb" }

// Version returns the library's duckdb_library_version(), as version() prints it ("v1.2.2").
func (t *Target) Version() string { return t.l.Version() }

// Lib returns the library's path.
func (t *Target) Lib() string { return t.l.Path() }

// Starts counts the Python processes started.
func (t *Target) Starts() int { return t.l.Starts }

// Reset replaces the database by an empty one, starting a new process when none runs. As
// targets/duckdb does, it swaps the default database for an empty one (duckdb.Swap) when the
// statements since the last reset cannot have changed the session, and opens a new instance
// otherwise.
func (t *Target) Reset(ctx context.Context) error {
	if t.crashed == "" && !t.dirty {
		if res, err := t.l.Exec(ctx, duckdb.Swap); err == nil && res.Status == fuzz.StatusOK {
			return nil
		}
	}
	t.crashed, t.dirty = "", false
	return t.l.Reset(ctx)
}

// Exec runs one statement (or several; the last one's rows are the answer).
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.crashed != "" {
		return &fuzz.Result{Status: fuzz.StatusCrash, Code: "Fatal", Err: t.crashed}, nil
	}
	if !t.dirty && duckdb.TouchesSession(stmt) {
		t.dirty = true
	}
	res, err := t.l.Exec(ctx, stmt)
	if err != nil || res == nil || res.Status != fuzz.StatusEngineError || res.Code == "driver" {
		return res, err
	}
	full := res.Err
	res.Code, res.Err = duckdb.ErrorCode(duckdb.ErrorOf(full))
	if res.Code == "Internal" {
		t.dirty = true // DuckDB may have invalidated the instance: only a new one resets it
	}
	if res.Code == "Fatal" { // the whole message, as targets/duckdb's crash has it
		t.crashed, res.Err = full, full
		res.Status = fuzz.StatusCrash
	}
	return res, nil
}

// Close stops the process.
func (t *Target) Close() error { return t.l.Close() }

// TestLibVersion is the release of the library the tests run (scripts/duckdblib.sh installs it):
// a release older than the one polyfuzz embeds.
const TestLibVersion = "1.2.2"

// EnvTestLib names the environment variable that gives the tests another library file.
const EnvTestLib = "POLYFUZZ_DUCKDB_LIB"

// TestLib returns the library file the tests run: $POLYFUZZ_DUCKDB_LIB, else the one
// scripts/duckdblib.sh caches, ~/.cache/polyfuzz/libduckdb-1.2.2/libduckdb.so.
func TestLib() string {
	if p := os.Getenv(EnvTestLib); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "polyfuzz", "libduckdb-"+TestLibVersion, "libduckdb.so")
}
