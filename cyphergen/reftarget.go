package cyphergen

import (
	"context"
	"errors"
	"strings"

	"github.com/polyfuzz/polyfuzz/cypherval"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Error codes of the reference target's engine errors, besides the [EvalError] codes.
const CodeSyntax = "syntax" // the text is not in the Cypher subset the reference reads

// Reference is the reference evaluator as a fuzz.Target. Setup statements (CREATE, and MATCH ...
// CREATE as [Graph.Statements] prints them) build an in-memory graph; queries are parsed and run
// on it with [Graph.Run]. Text outside the subset is an engine error of code CodeSyntax;
// runtime errors carry their [EvalError] code ("unsupported" for what the evaluator does not
// model).
type Reference struct {
	g *Graph
}

// NewReference returns the reference target with an empty graph.
func NewReference() *Reference { return &Reference{g: &Graph{}} }

// Name returns "ref".
func (r *Reference) Name() string { return "ref" }

// Version returns the evaluator's description.
func (r *Reference) Version() string { return "polyfuzz reference evaluator" }

// Reset empties the graph.
func (r *Reference) Reset(context.Context) error {
	r.g = &Graph{}
	return nil
}

// Close does nothing.
func (r *Reference) Close() error { return nil }

// Exec applies a setup statement or runs a query.
func (r *Reference) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	// Setup statements take the short way; Apply gives them Cypher's meaning.
	if hasCreate(stmt) && r.g.Apply(stmt) == nil {
		return &fuzz.Result{Status: fuzz.StatusOK}, nil
	}
	q, err := ParseQuery(stmt)
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeSyntax, Err: err.Error()}, nil
	}
	cols, rows, err := r.g.Run(q)
	if err != nil {
		var ee *EvalError
		if errors.As(err, &ee) {
			return &fuzz.Result{Status: fuzz.StatusEngineError, Code: ee.Code, Err: ee.Msg}, nil
		}
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: err.Error()}, nil
	}
	res := &fuzz.Result{Status: fuzz.StatusOK, Columns: cols, Rows: make([][]string, len(rows))}
	for i, row := range rows {
		res.Rows[i] = cypherval.CanonRow(row)
	}
	return res, nil
}

// hasCreate reports whether stmt may be a setup statement: a query the parser rejects that
// holds the word CREATE.
func hasCreate(stmt string) bool {
	for _, f := range strings.Fields(stmt) {
		if strings.EqualFold(f, "CREATE") {
			return true
		}
	}
	return false
}

// ExecIsolated runs stmts on a copy of the graph and keeps the graph as it was (fuzz.Isolator).
func (r *Reference) ExecIsolated(ctx context.Context, stmts []string) ([]*fuzz.Result, error) {
	saved := r.g
	r.g = saved.Clone()
	defer func() { r.g = saved }()
	return fuzz.ExecAll(ctx, r, stmts)
}
