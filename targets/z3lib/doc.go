// Package z3lib is an SMT target that runs Z3 in polyfuzz's process: a thin cgo binding of
// libz3's C API (one Z3 context per target, scripts run with Z3_eval_smtlib2_string), answering
// as a warm z3 process behind targets/smtproc answers (its rows, errors and crash patterns, by
// smtproc.Answer), so that every SMT oracle treats the two alike.
//
// The binding is behind the build tag z3lib and needs libz3's headers and library (Debian:
// apt-get install libz3-dev):
//
//	go build -tags z3lib ./cmd/polyfuzz
//	go test -tags z3lib ./targets/z3lib/
//
// Without the tag the package holds this documentation only.
//
// # Contexts, resets and timeouts
//
// [New] makes a reference-counted context with an error handler that records nothing and
// returns (libz3's default handler exits the process), and sets libz3's global parameter
// "timeout" to Options.Timeout in milliseconds, the soft per-query limit that z3 -t:MS sets for
// the process (a parameter of the whole process: every z3lib target of a process shares the
// last one set). Reset queues (reset) in front of the next statement, as smtproc does for the
// process, so that the two run the same command sequence. Each statement runs with a hard limit
// of Timeout plus Timeout/4 plus 250 ms: when it fires, a goroutine calls Z3_interrupt, the
// statement is answered with fuzz.StatusTimeout and the context is replaced by a fresh one (an
// interrupted context stays cancelled). A cancelled Go context interrupts the same way and Exec
// returns its error.
//
// # Differences from the process
//
// (exit) ends the statement, not the context: the statements after it run. libz3 prints what
// the process prints on stdout and stderr into one string, so a warning that z3 writes to
// stderr is a row here (z3 4.8.12 prints none for the instances polyfuzz makes).
//
// # Crashes
//
// libz3 runs in the calling process: an abort, a failed assertion (which exits) or a segfault
// in it ends that process, and a call that ignores Z3_interrupt cannot be stopped. Run the target
// in a child process (targets/isolated, the default of 'polyfuzz smt --solver z3lib', turned off
// by --isolate=false) so that these become crash and timeout findings.
package z3lib
