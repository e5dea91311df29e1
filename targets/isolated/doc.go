// Package isolated runs any in-process target (embedded SQLite, DuckDB) in a child process, so that
// a crash inside the engine kills the child, not the campaign. The child is the polyfuzz binary
// itself (or a test binary) started with an environment variable that makes its main call [Serve];
// requests and answers travel as gob over two pipes, one round trip per batch of statements. A child
// that dies is reported as fuzz.StatusCrash with its exit status and last stderr lines, one that
// stops answering is killed and reported as fuzz.StatusTimeout, and the next Reset starts a new one.
// The child runs through package childproc, so that it dies with polyfuzz. This package imports
// only fuzz and childproc.
package isolated
