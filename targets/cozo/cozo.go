// Package cozo is the CozoDB target: one long-lived python3 process per target that runs each
// CozoScript program with the embedded engine of the PyPI wheel cozo-embedded, on one in-memory
// database, so that Datalog programs translated to CozoScript (datalog.Cozo) run without a process
// start each.
//
// # Protocol
//
// The target is a [rowserver.Server]: [New] starts python3 with the embedded server (server.py)
// and waits for the line "polyfuzz-cozo VERSION", VERSION being the wheel's. Exec then sends a
// line with the program's length in bytes and the program. The server runs it as one query and
// answers with the rows of its result: integers in decimal, strings as their text, null values
// left out (a translated program pads shorter rows with null). A program that cozo rejects (a
// syntax error, an unstratifiable program) is answered with fuzz.StatusEngineError, Code
// "error" and cozo's error as Err ("eval::unstratifiable: Query is unstratifiable"). A running
// process needs no Reset: a query defines only the inline rules of its own run, so the database
// stays empty.
//
// # Timeouts and crashes
//
// As package rowserver describes: a program that runs past Options.Timeout is a
// fuzz.StatusTimeout, a process that exits before it answers a fuzz.StatusCrash, and the next
// Exec starts a new process. A panic of the engine (pyo3's PanicException) ends the server with
// status 70 and the panic's message on its standard error, so it is a crash too.
//
// # Which Python
//
// Options.Python, else $POLYFUZZ_PYTHON, else python3 on PATH. scripts/python.sh makes the
// project's virtual environment with the pinned wheel and sets POLYFUZZ_PYTHON.
//
// This package imports only fuzz, targets/rowserver and the standard library.
package cozo

import (
	_ "embed"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

//go:embed server.py
var serverSource string

// EnvPython names the environment variable with the Python interpreter of the project's virtual
// environment, which scripts/python.sh sets.
const EnvPython = rowserver.EnvPython

// Fix is how to get a python3 with the pinned cozo_embedded module.
const Fix = "source scripts/python.sh && python_env (or python3 -m pip install cozo-embedded==0.7.6)"

// Options configure a cozo target.
type Options struct {
	// Python is the Python 3 interpreter with the cozo_embedded module; empty means
	// $POLYFUZZ_PYTHON, else "python3" on PATH.
	Python string
	// Timeout bounds one program; 0 means no limit.
	Timeout time.Duration
}

// Target runs CozoScript programs on CozoDB in one python3 process. It is used by one goroutine.
// Its Name is "cozo", its Version the wheel's, such as "0.7.6"; Exec answers with the rows of the
// program's result; Starts counts the processes started.
type Target struct {
	*rowserver.Server
}

var _ fuzz.Target = (*Target)(nil)

// New starts the server. A missing python3 or cozo_embedded module is an error that names the
// fix.
func New(o Options) (*Target, error) {
	s, err := rowserver.StartPython(rowserver.PythonServer{Name: "cozo", Module: "cozo_embedded", Source: serverSource,
		Python: o.Python, Fix: Fix, Timeout: o.Timeout})
	if err != nil {
		return nil, err
	}
	return &Target{s}, nil
}
