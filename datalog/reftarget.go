package datalog

import (
	"context"
	"errors"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// DefaultMaxTuples is the tuple limit of a Reference made with NewReference(0).
const DefaultMaxTuples = 1_000_000

// CodeNotStratifiable is the Result.Code of a program with a cycle through negation.
const CodeNotStratifiable = "not-stratifiable"

// Reference is the reference engine as a fuzz.Target: Exec evaluates a canonical program with
// EvalContext and answers with Model.Output. A malformed program is an engine error of code
// CodeBadProgram, a non-stratifiable one of code CodeNotStratifiable; a program that runs past
// its context or derives more tuples than the limit times out.
type Reference struct {
	maxTuples int
}

// NewReference returns the reference target with a tuple limit; maxTuples <= 0 means
// DefaultMaxTuples.
func NewReference(maxTuples int) *Reference {
	if maxTuples <= 0 {
		maxTuples = DefaultMaxTuples
	}
	return &Reference{maxTuples: maxTuples}
}

// Name returns "ref".
func (r *Reference) Name() string { return "ref" }

// Version returns the engine's description.
func (r *Reference) Version() string { return "polyfuzz reference engine" }

// Reset does nothing: the engine keeps no state between programs.
func (r *Reference) Reset(context.Context) error { return nil }

// Close does nothing.
func (r *Reference) Close() error { return nil }

// Exec evaluates the canonical program stmt.
func (r *Reference) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	p, err := Parse("program.dl", stmt)
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeBadProgram, Err: err.Error()}, nil
	}
	m, err := EvalContext(ctx, p, r.maxTuples)
	var perr *Error
	switch {
	case errors.As(err, &perr):
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeNotStratifiable, Err: err.Error()}, nil
	case err != nil:
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: err.Error()}, nil
	}
	return &fuzz.Result{Status: fuzz.StatusOK, Rows: m.Output()}, nil
}
