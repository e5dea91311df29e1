// Package sqlitelib runs a SQLite library given as a file, a build other than the one polyfuzz
// embeds (a distribution's libsqlite3.so.0, an engine developer's trunk build), as a SQL target:
// `polyfuzz sql --dbms sqlite=lib:/path/libsqlite3.so` tests that build without rebuilding
// polyfuzz.
//
// The library runs in one long-lived Python process per target (package rowserver) that loads it
// with ctypes and drives its C API, so that any build with the C API works and the interpreter's
// own sqlite3 module, and the library it links, play no part. The server refuses a file that is
// not a SQLite library, and one the process did not load from the given path (a library of the
// same name loaded before), with an error that says so. It opens one in-memory database and runs
// each program as targets/sqlite runs it through go-sqlite3: every statement prepared and stepped
// once, the last one to its end, its rows the answer.
//
// # Values and errors
//
// Values are those of targets/sqlite, value for value: integers as i:, floats as r: (exact: the
// server writes the double's shortest repr), text as t: and blobs as b: of the very bytes, NULL
// as NULL. Engine errors carry the extended result code's name (SQLITE_CONSTRAINT_UNIQUE) as
// Result.Code and sqlite3_errmsg as Result.Err, as in targets/sqlite. Result.Columns is not
// filled.
//
// # Timeouts and crashes
//
// A statement past Options.Timeout is interrupted by SQLite's progress handler and answered with
// fuzz.StatusTimeout, the database kept; one that does not return soon after (the handler is not
// called) has its process killed, as package rowserver does for a crash: a process that dies is
// a fuzz.StatusCrash, and the next Exec or Reset starts a new process with an empty database.
//
// This package imports fuzz, targets/rowserver, targets/sqlite (for the result-code names) and the
// standard library.
package sqlitelib

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

//go:embed server.py
var serverSource string

// Options configure a target: Lib is the path of the SQLite library (libsqlite3.so).
type Options = rowserver.LibFile

// Target is SQLite of one library file in a Python process. It is a fuzz.Target used by one
// goroutine.
type Target struct {
	l *rowserver.Lib
}

var _ fuzz.Target = (*Target)(nil)

// Open starts the server of the library o.Lib. A missing file or one that is not a SQLite library
// is an error that says so.
func Open(o Options) (*Target, error) {
	l, err := rowserver.StartLib(rowserver.LibOptions{Name: "sqlite", File: "libsqlite3.so", Kind: "a SQLite library",
		Source: serverSource, LibFile: o})
	if err != nil {
		return nil, err
	}
	return &Target{l: l}, nil
}

// Name returns "sqlite".
func (t *Target) Name() string { return "sqlite" }

// Version returns the library's release ("3.40.1").
func (t *Target) Version() string {
	v, _, _ := strings.Cut(t.l.Version(), " ")
	return v
}

// SourceID returns the library's sqlite3_sourceid(): the date and check-in it was built from.
func (t *Target) SourceID() string {
	_, id, _ := strings.Cut(t.l.Version(), " ")
	return id
}

// Lib returns the library's path.
func (t *Target) Lib() string { return t.l.Path() }

// Starts counts the Python processes started.
func (t *Target) Starts() int { return t.l.Starts }

// Reset replaces the database by an empty one, starting a new process when none runs.
func (t *Target) Reset(ctx context.Context) error { return t.l.Reset(ctx) }

// Exec runs one statement (or several; the last one's rows are the answer).
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	res, err := t.l.Exec(ctx, stmt)
	if err != nil || res == nil || res.Status != fuzz.StatusEngineError {
		return res, err
	}
	n, err := strconv.Atoi(res.Code)
	if err != nil {
		return nil, fmt.Errorf("sqlite lib: bad result code %q from the server", res.Code)
	}
	res.Code = sqlite.CodeName(n)
	return res, nil
}

// Close stops the process.
func (t *Target) Close() error { return t.l.Close() }
