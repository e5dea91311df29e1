package bolt

import (
	"context"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// ExecIsolated runs stmts in one explicit transaction and rolls it back (fuzz.Isolator), so that
// the database keeps what it held before. A statement that fails ends the server's transaction:
// the statements before it run again in a new one, without their answers, and the rest follow
// there. The statement timeout applies to each statement's share of the transaction.
func (t *Target) ExecIsolated(ctx context.Context, stmts []string) ([]*fuzz.Result, error) {
	if t.closed {
		return nil, errClosed
	}
	out := make([]*fuzz.Result, 0, len(stmts))
	var tx neo4j.ExplicitTransaction
	rollback := func() {
		if tx != nil {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), connectTimeout)
			tx.Rollback(rctx)
			cancel()
			tx = nil
		}
	}
	defer rollback()
	var done []string // the statements that succeeded, for a new transaction after a failure
	for _, stmt := range stmts {
		if t.crashed != "" {
			out = append(out, &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed})
			continue
		}
		if tx == nil {
			var err error
			if tx, err = t.begin(ctx, len(stmts)); err != nil {
				r, ferr := t.failure(ctx, ctx, err)
				if ferr != nil {
					return out, ferr
				}
				out = append(out, r)
				continue
			}
			for _, s := range done {
				if _, _, err := t.runIn(ctx, tx, s); err != nil {
					return out, t.failed("run a statement again after a failed one", err)
				}
			}
		}
		r, err := t.execIn(ctx, tx, stmt)
		if err != nil {
			return out, err
		}
		out = append(out, r)
		if r.Failed() {
			rollback()
		} else {
			done = append(done, stmt)
		}
	}
	return out, nil
}

// begin starts an explicit transaction whose timeout covers n statements.
func (t *Target) begin(ctx context.Context, n int) (neo4j.ExplicitTransaction, error) {
	return t.sess.BeginTransaction(ctx, func(c *neo4j.TransactionConfig) {
		if t.o.Timeout > 0 {
			c.Timeout = t.o.Timeout * time.Duration(n)
		}
	})
}

// runIn runs one statement in tx and collects its columns and records.
func (t *Target) runIn(ctx context.Context, tx neo4j.ExplicitTransaction, stmt string) ([]string, []*neo4j.Record, error) {
	res, err := tx.Run(ctx, stmt, nil)
	return collect(ctx, res, err)
}

// execIn runs one statement in tx as Exec runs it alone.
func (t *Target) execIn(ctx context.Context, tx neo4j.ExplicitTransaction, stmt string) (*fuzz.Result, error) {
	sctx, cancel := ctx, context.CancelFunc(func() {})
	if t.o.Timeout > 0 {
		sctx, cancel = context.WithTimeout(ctx, t.o.Timeout+backstop)
	}
	defer cancel()
	keys, recs, err := t.runIn(sctx, tx, stmt)
	if err != nil {
		return t.failure(ctx, sctx, err)
	}
	return t.result(keys, recs), nil
}
