// Package clingo is the clingo target: one long-lived python3 process per target that runs each
// ASP program through clingo's Python API with a new clingo.Control, so that Datalog programs
// translated to ASP (datalog.Clingo) run without a process start each. The PyPI wheel of clingo
// ships the library and its Python API, not the clingo executable.
//
// # Protocol
//
// The target is a [rowserver.Server]: [New] starts python3 with the embedded server (server.py)
// and waits for the line "polyfuzz-clingo VERSION". Exec then sends a line with the program's
// length in bytes and the program. The server grounds and solves it (asking for up to two answer
// sets) and answers with the shown symbols of its answer set: one row per symbol, a tuple's
// elements or a function's name and arguments; numbers in decimal, strings as their text. A
// program without exactly one answer set, or one that clingo rejects (a syntax error, an unsafe
// variable), is answered with fuzz.StatusEngineError, Code "error" and clingo's first error
// message as Err. A running process needs no Reset, since every program gets a new
// clingo.Control.
//
// # Timeouts and crashes
//
// As package rowserver describes: a program that runs past Options.Timeout is a
// fuzz.StatusTimeout, a process that exits before it answers a fuzz.StatusCrash ("clingo exited
// with status 139 (signal 11, segmentation fault)"), and the next Exec starts a new process.
//
// # Which Python
//
// Options.Python, else $POLYFUZZ_PYTHON, else python3 on PATH. scripts/python.sh makes the
// project's virtual environment with the pinned wheel and sets POLYFUZZ_PYTHON.
//
// This package imports only fuzz, targets/rowserver and the standard library.
package clingo

import (
	_ "embed"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

//go:embed server.py
var serverSource string

// Options configure a clingo target.
type Options struct {
	// Python is the Python 3 interpreter with the clingo module; empty means $POLYFUZZ_PYTHON,
	// else "python3" on PATH.
	Python string
	// Timeout bounds one program; 0 means no limit.
	Timeout time.Duration
}

// EnvPython names the environment variable with the Python interpreter of the project's virtual
// environment, which scripts/python.sh sets.
const EnvPython = rowserver.EnvPython

// fix is how to get a python3 with the pinned clingo module.
const fix = "source scripts/python.sh && python_env (or python3 -m pip install clingo==5.8.3)"

// Target runs ASP programs on clingo in one python3 process. It is used by one goroutine. Its
// Name is "clingo", its Version clingo's, such as "5.8.3"; Exec answers with the shown symbols of
// the program's answer set; Starts counts the processes started.
type Target struct {
	*rowserver.Server
}

var _ fuzz.Target = (*Target)(nil)

// New starts the server. A missing python3 or clingo module is an error that names the fix.
func New(o Options) (*Target, error) {
	s, err := rowserver.StartPython(rowserver.PythonServer{Name: "clingo", Module: "clingo", Source: serverSource,
		Python: o.Python, Fix: fix, Timeout: o.Timeout})
	if err != nil {
		return nil, err
	}
	return &Target{s}, nil
}
