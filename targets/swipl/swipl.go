// Package swipl is the SWI-Prolog target: one long-lived swipl process per target that loads
// each program into a fresh temporary module, so that Datalog programs translated to tabled
// Prolog (datalog.SWIProlog) run without a process start each.
//
// # Protocol
//
// The target is a [rowserver.Server]: [New] starts swipl, writes the embedded server (server.pl)
// to its standard input followed by end_of_file, and waits for the line "polyfuzz-swipl VERSION".
// Exec then sends a line with the program's length in characters and the program, Prolog source
// text. The server loads it with load_files/2 into the temporary module polyfuzz_program
// (in_temporary_module/3), collects the solutions of row(R) in that module, destroys the module
// and abolishes all tables, so that no answer depends on an earlier program. Each solution R, a list, is one row: integers as write/1
// prints them, atoms and strings as their text, other terms as writeq/1 prints them. Whatever the
// program prints is discarded. The first error message printed while loading or running (a
// syntax error, an unknown procedure, a resource error) makes the answer fuzz.StatusEngineError
// with Code "error" and the message as Err, and the program's rows are dropped. A running
// process needs no Reset, since every program runs in a fresh module.
//
// # Timeouts and crashes
//
// As package rowserver describes: a program that runs past Options.Timeout is a
// fuzz.StatusTimeout, a process that exits before it answers a fuzz.StatusCrash ("swipl exited
// with status 3"), and the next Exec starts a new process.
//
// This package imports only fuzz, targets/rowserver and the standard library.
package swipl

import (
	_ "embed"
	"fmt"
	"os/exec"
	"time"
	"unicode/utf8"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

//go:embed server.pl
var serverSource string

// Options configure a SWI-Prolog target.
type Options struct {
	// Path is the swipl binary; empty means "swipl" on PATH.
	Path string
	// Timeout bounds one program; 0 means no limit.
	Timeout time.Duration
}

// Target runs Prolog programs on one swipl process. It is used by one goroutine. Its Name is
// "swipl", its Version SWI-Prolog's, such as "9.0.4"; Exec answers with the rows of the
// program's row/1 predicate; Starts counts the swipl processes started.
type Target struct {
	*rowserver.Server
}

var _ fuzz.Target = (*Target)(nil)

// New starts swipl. A missing binary is an error that names the fix.
func New(o Options) (*Target, error) {
	name := o.Path
	if name == "" {
		name = "swipl"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("swipl: %s not found (%v): install SWI-Prolog (apt-get install swi-prolog-nox) or set the path to swipl", name, err)
	}
	s, err := rowserver.Start(rowserver.Config{
		Name: "swipl",
		Path: path,
		Args: []string{"-f", "none", "-q", "--tty=false", "--packs=false",
			"-g", "load_files(polyfuzz_server, [stream(user_input)])", "-g", "polyfuzz_server:serve", "-t", "halt"},
		Init:    serverSource + "\nend_of_file.\n",
		Hello:   "polyfuzz-swipl ",
		Reject:  reject,
		Length:  utf8.RuneCountInString,
		Timeout: o.Timeout,
	})
	if err != nil {
		return nil, err
	}
	return &Target{s}, nil
}

// reject refuses a program that is not UTF-8, which swipl reads as text.
func reject(prog string) string {
	if utf8.ValidString(prog) {
		return ""
	}
	return "the program is not valid UTF-8"
}
