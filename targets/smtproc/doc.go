// Package smtproc is the SMT solver target: one long-lived solver process per target, spoken to in
// SMT-LIB 2 over its stdin and stdout, reset between cases instead of being started per instance
// (STORM and yinyang start a process per mutant).
//
// # Protocol
//
// [New] starts the solver through package childproc (in a process group of its own, so that a
// kill reaches any wrapper's children, and killed with that group when polyfuzz dies) and checks that it speaks SMT-LIB: it sends (set-option :print-success false), (get-info :version)
// and (echo "polyfuzz-hello") and waits up to 5 s for the echo. It then sends (reset) followed by
// an echo: a solver that answers (reset) with anything (an error, "unsupported", "success") is
// reset by restarting its process instead.
//
// Exec writes the statement, a newline and (echo "polyfuzz-sync-N") with a counter N, in one
// write, then reads stdout line by line until the line that ends with the marker (z3 and yices
// print the echoed string bare, cvc4, cvc5 and bitwuzla print it quoted; both are accepted).
// Everything before the marker is the statement's output. Reset only queues "(reset)": it is
// written in front of the next statement, which saves a round trip per case. ExecBatch writes all
// its statements, each with its own marker, in one write and reads the answers in order.
//
// A statement whose parentheses, "strings" or |quoted symbols| are not closed is not sent (the
// solver would swallow the sync marker and wait for more input): it is answered with
// fuzz.StatusEngineError and Code "unbalanced".
//
// # Rows
//
// The output is split into top-level s-expressions by package sexpr's lenient reader (balanced
// parentheses, "strings" with "" escapes, |quoted symbols|, ; comments skipped; what a solver
// left unclosed is closed at the end). Then:
//
//   - every bare atom (sat, unsat, unknown, unsupported, a string) is a row [atom];
//   - a list of two-element lists, as (get-value ...) prints it, ((t1 v1) (t2 v2)), gives one row
//     [t, v] per pair, each printed back with whitespace normalised (single spaces, none inside the
//     parentheses), so that z3's multi-line and cvc5's one-line answers compare equal;
//   - (error "msg") is no row: it makes the result fuzz.StatusEngineError with Code "error" and
//     Err the first error's message (the rows of the other responses are kept, before and after
//     it: z3 continues after an error);
//   - any other list (a model, a get-info answer) is one row [text];
//   - an "unsupported" atom leaves the status OK and sets Code "unsupported".
//
// Every top-level check-sat, check-sat-assuming and check-sat-using of the statement must be
// answered sat, unsat or unknown. When fewer of these answers came, and no error or unsupported
// explains it, the solver answered outside SMT-LIB (a wrapper that prints "banana"): the result
// is fuzz.StatusEngineError with Code fuzz.CodeUnexpectedAnswer and Err naming the first other
// atom (or "nothing"), which the error oracle reports as "error: NAME: unexpected answer"
// instead of the answer oracles skipping it.
//
// # Timeouts
//
// Options.Timeout bounds one statement. It is also passed to the solver as its own per-query soft
// limit where it has one (z3 -t:MS, cvc4/cvc5 --tlimit-per=MS, bitwuzla --time-limit-per=MS,
// yices-smt2 --timeout=S), so that a slow check-sat usually answers "unknown" (an OK result) and
// the process lives on. When the marker has not arrived after Timeout plus a margin (Timeout/4 +
// 250 ms), the process group is killed and the statement answered with fuzz.StatusTimeout. A
// cancelled context also kills the process; Exec then returns the context's error.
//
// # Crashes
//
// A process that exits or closes stdout before the marker is a fuzz.StatusCrash with Err
// "<name> exited with status N: <stderr>" or "<name> exited with status 128+S (signal S, name):
// <stderr>", where <stderr> is the first line that matches a crash pattern, or else the last lines
// of stderr, trimmed to 300 characters (stderr is kept in an 8 KiB ring buffer). Output that
// matches a crash pattern is also a crash while the process lives (and the process is killed),
// and a timeout whose output matches one is reported as a crash. The patterns
// (childproc.CrashPatterns), matched as case-sensitive substrings of stdout and stderr:
//
//	ASSERTION VIOLATION, Assertion `, Assertion failed, Assertion failure, assertion failed,
//	Fatal failure, Internal error, UNREACHABLE, Failed to verify, an invalid model was generated,
//	Segmentation fault, segfault, NULL pointer was dereferenced, AddressSanitizer,
//	LeakSanitizer, UndefinedBehaviorSanitizer, MemorySanitizer, ThreadSanitizer, runtime error:,
//	terminate called, Unhandled exception, CAUGHT SIGNAL
//
// stderr goes to a pipe (enlarged to 1 MiB where Linux allows) that is drained after every
// answer, not by a goroutine, so that what a solver wrote there before it answered is always
// matched against that statement. A solver that writes more than the pipe holds during one
// statement blocks until the statement's deadline kills it.
//
// One exit is not a crash: cvc4 and cvc5 exit on a parse error (an undeclared symbol, a sort
// error, a bad pop) instead of continuing. A process that exits normally (status 0, or status 1
// after printing an (error ...)) without a crash pattern is answered with StatusEngineError and
// the error's message. The statements run since the last Reset are kept, and the next Exec starts
// a new process and replays them first (their output is discarded), so that the cases that share
// the setup still find it. After a crash or a timeout the next Exec or Reset starts an empty
// process.
//
// This package imports only fuzz, childproc and sexpr, and runs on Linux (it uses process
// groups and raw pipes).
package smtproc
