package fuzz

import "context"

// Isolator is a Target that can undo what statements change: it runs the queries of a case that
// writes ([Case.Writes]) and then returns to the state before them, so that the next case of the
// same setup need not run the setup again (a database transaction rolled back, a copy of the
// graph restored, a clone of an in-memory state).
type Isolator interface {
	Target
	// ExecIsolated runs stmts in order, each seeing the changes of the ones before, like
	// [ExecAll], and then undoes their changes. A statement that crashed or timed out leaves the
	// state unknown: the caller resets the target then. A Go error says that the target cannot
	// be used.
	ExecIsolated(ctx context.Context, stmts []string) ([]*Result, error)
}
