package rowserver

import (
	"context"
	_ "embed" // lib.py
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// LibGrace is how long past its timeout a statement of a [Lib] server may run before its
// process is killed: the server interrupts the statement itself at the timeout, and is killed
// only when the engine does not stop.
const LibGrace = 2 * time.Second

// LibFile is the library file a library target runs, and how: the Options of targets/sqlitelib
// and targets/duckdblib.
type LibFile struct {
	// Lib is the path of the library file.
	Lib string
	// Python is the interpreter (see [Python]).
	Python string
	// Timeout bounds one statement; 0 means no limit.
	Timeout time.Duration
}

// LibOptions describe a Python row server that loads an engine's library file with ctypes and
// drives its C API (targets/sqlitelib, targets/duckdblib): a build other than the one polyfuzz
// embeds, given as --dbms NAME=lib:PATH.
type LibOptions struct {
	// Name is the engine's name ("duckdb"); File the library's usual file name ("libduckdb.so"),
	// Kind what the library is, for errors ("a DuckDB library").
	Name, File, Kind string
	// Source is the server's program. StartLib puts NAME (Name), GREETING ("polyfuzz-NAME"), LIB
	// (Lib) and TIMEOUT (seconds, 0 for none) before it, and lib.py: refuse, which refuses the library with a first line
	// "polyfuzz-NAME-refused REASON"; load, which loads it with ctypes and refuses a file that is
	// not the engine's library or not the one loaded; serve_lib, which checks the library's
	// version and serves a database. The program answers a timed-out statement with an error
	// whose code is "timeout".
	Source string
	LibFile
}

//go:embed lib.py
var libSource string

// Lib is the server of a library file.
type Lib struct {
	*Server
	path    string
	timeout time.Duration
}

// StartLib starts the server of the library o.Lib. A missing file, or one the server refuses,
// is an error that says so and names the fix.
func StartLib(o LibOptions) (*Lib, error) {
	what := o.Kind + " (" + o.File + ")"
	if o.Lib == "" {
		return nil, fmt.Errorf("%s lib: no library given: write --dbms %s=lib:/path/%s", o.Name, o.Name, o.File)
	}
	st, err := os.Stat(o.Lib)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s lib: %w: give the path of %s", o.Name, err, what)
	case st.IsDir():
		return nil, fmt.Errorf("%s lib: %s is a directory: give the path of %s", o.Name, o.Lib, what)
	}
	src := "NAME = " + strconv.Quote(o.Name) + "\nGREETING = " + strconv.Quote("polyfuzz-"+o.Name) + "\nLIB = " + strconv.Quote(o.Lib) + "\nTIMEOUT = " +
		strconv.FormatFloat(o.Timeout.Seconds(), 'g', -1, 64) + "\n" + libSource + o.Source
	timeout := time.Duration(0)
	if o.Timeout > 0 {
		timeout = o.Timeout + LibGrace
	}
	refused := "polyfuzz-" + o.Name + "-refused "
	s, err := StartPython(PythonServer{Name: o.Name, Module: "ctypes", Source: src,
		Python: o.Python, Timeout: timeout, Fix: "a python3 with ctypes",
		Refused: func(line string) error {
			why, ok := strings.CutPrefix(line, refused)
			if !ok {
				return nil
			}
			return fmt.Errorf("%s lib: %s", o.Name, strings.TrimSpace(why))
		}})
	if err != nil {
		return nil, err
	}
	return &Lib{Server: s, path: o.Lib, timeout: o.Timeout}, nil
}

// Path returns the library's path.
func (l *Lib) Path() string { return l.path }

// Reset replaces the database by an empty one, starting a new process when none runs.
func (l *Lib) Reset(ctx context.Context) error { return l.ResetWith(ctx, ResetProgram) }

// Exec runs a program with [Server.ExecRows] and [Canonical]: a statement the server interrupted
// at the timeout is a fuzz.StatusTimeout. An engine error keeps the code the server wrote, for
// the target to name.
func (l *Lib) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	res, err := l.ExecRows(ctx, stmt, Canonical)
	if err != nil || res == nil {
		return res, err
	}
	switch {
	case res.Status == fuzz.StatusEngineError && res.Code == "timeout":
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("statement ran over %s", l.timeout)}, nil
	case res.Status == fuzz.StatusTimeout:
		res.Err = fmt.Sprintf("statement ran over %s and was not interrupted", l.timeout)
	}
	return res, nil
}
