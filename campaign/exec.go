package campaign

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// executor runs cases on one worker's targets and remembers which setup they hold.
type executor struct {
	targets   []fuzz.Target
	deriver   fuzz.Deriver // nil when the generator's cases have no second stage
	lastSetup []string
	ready     bool // the targets hold lastSetup and nothing went wrong since
	inTarget  time.Duration
	stmts     int64
	valid     int64
}

// setupFrom says how a case with setup s starts on the targets: -1 from a reset target, running
// all of s; len(s) on the state they hold, which is s; or k < len(s) when they hold s[:k], the
// setup before, which s extends (query plan guidance appends statements to a setup): only s[k:]
// runs then. A case without setup always starts from a reset target.
func (e *executor) setupFrom(s []string) int {
	if !e.ready || len(s) == 0 || len(e.lastSetup) == 0 || len(e.lastSetup) > len(s) ||
		!sameSetup(e.lastSetup, s[:len(e.lastSetup)]) {
		return -1
	}
	return len(e.lastSetup)
}

// runSetup brings target t to setup s from where setupFrom says and returns the results aligned
// with s (nil for the statements that did not run now), nil when nothing ran.
func (e *executor) runSetup(ctx context.Context, t fuzz.Target, s []string, from int) ([]*fuzz.Result, error) {
	if from < 0 {
		if err := e.call(func() error { return t.Reset(ctx) }); err != nil {
			return nil, fmt.Errorf("reset %s: %w", t.Name(), err)
		}
		return e.execAll(ctx, t, s)
	}
	if from == len(s) {
		return nil, nil
	}
	rs, err := e.execAll(ctx, t, s[from:])
	return append(make([]*fuzz.Result, from, len(s)), rs...), err
}

// run executes c, reusing the targets' state when c's setup is not empty and equals or extends
// the one they hold; a case without setup always starts from a reset target.
func (e *executor) run(ctx context.Context, c *fuzz.Case) ([]fuzz.Run, error) {
	from := e.setupFrom(c.Setup)
	runs := make([]fuzz.Run, len(e.targets))
	healthy, dirty := true, false
	for i, t := range e.targets {
		runs[i].Target = t.Name()
		start := time.Now()
		rs, err := e.runSetup(ctx, t, c.Setup, from)
		if err != nil {
			e.ready = false
			return nil, err
		}
		if rs != nil {
			runs[i].Setup = rs
			healthy = healthy && alive(rs[max(from, 0):])
		}
		var left bool
		rs, left, err = e.execQueries(ctx, t, c)
		if err != nil {
			e.ready = false
			return nil, err
		}
		dirty = dirty || left
		runs[i].Results = rs
		healthy = healthy && alive(rs)
		e.inTarget += time.Since(start)
	}
	ok, err := e.derive(ctx, []*fuzz.Case{c}, [][]fuzz.Run{runs})
	if err != nil {
		return nil, err
	}
	e.lastSetup, e.ready = c.Setup, healthy && ok && !dirty
	return runs, nil
}

// runMany executes cases that share one (non-empty) setup with one target call per target for all
// their queries, which saves round trips to an isolated child. ok is false when a statement crashed or
// timed out: the runs are then unusable, and the caller re-runs the cases one at a time to learn
// which one did it. Only the first case's runs carry the setup results.
func (e *executor) runMany(ctx context.Context, cs []*fuzz.Case) (runs [][]fuzz.Run, ok bool, err error) {
	from := e.setupFrom(cs[0].Setup)
	runs = make([][]fuzz.Run, len(cs))
	for ci := range cs {
		runs[ci] = make([]fuzz.Run, len(e.targets))
	}
	healthy := true
	for ti, t := range e.targets {
		start := time.Now()
		rs, err := e.runSetup(ctx, t, cs[0].Setup, from)
		if err != nil {
			e.ready = false
			return nil, false, err
		}
		if rs != nil {
			runs[0][ti].Setup = rs
			healthy = healthy && alive(rs[max(from, 0):])
		}
		rs, err = e.execCases(ctx, t, cs)
		e.inTarget += time.Since(start)
		if err != nil {
			e.ready = false
			return nil, false, err
		}
		healthy = healthy && alive(rs)
		for ci, c := range cs {
			runs[ci][ti].Target = t.Name()
			runs[ci][ti].Results, rs = rs[:len(c.Queries):len(c.Queries)], rs[len(c.Queries):]
		}
	}
	if healthy {
		if healthy, err = e.derive(ctx, cs, runs); err != nil {
			return nil, false, err
		}
	}
	e.lastSetup, e.ready = cs[0].Setup, healthy
	return runs, healthy, nil
}

// derive gives each case of cs that has not been derived yet its second stage (see fuzz.Deriver),
// runs the derived queries of all of them in one call per target, after every first stage, and
// appends their answers to the runs. ok is false when a derived statement crashed or timed out.
func (e *executor) derive(ctx context.Context, cs []*fuzz.Case, runs [][]fuzz.Run) (ok bool, err error) {
	if e.deriver == nil {
		return true, nil
	}
	var stmts []string
	var derived []int
	for ci, c := range cs {
		if c.Derived > 0 {
			continue
		}
		qs := e.deriver.Derive(c, runs[ci])
		if len(qs) == 0 {
			continue
		}
		c.Queries, c.Derived = append(c.Queries, qs...), len(qs)
		derived = append(derived, ci)
		for _, q := range qs {
			stmts = append(stmts, q.Text)
		}
	}
	ok = true
	for ti, t := range e.targets {
		if len(stmts) == 0 {
			break
		}
		start := time.Now()
		rs, err := e.execAll(ctx, t, stmts)
		e.inTarget += time.Since(start)
		if err != nil {
			e.ready = false
			return false, err
		}
		ok = ok && alive(rs)
		for _, ci := range derived {
			n := cs[ci].Derived
			runs[ci][ti].Results = append(runs[ci][ti].Results, rs[:n:n]...)
			rs = rs[n:]
		}
	}
	return ok, nil
}

// runFresh executes c from an empty state, leaving the targets marked as needing a reset.
func (e *executor) runFresh(ctx context.Context, c *fuzz.Case) ([]fuzz.Run, error) {
	e.ready = false
	runs, err := e.run(ctx, c)
	e.ready = false
	return runs, err
}

// execQueries runs the queries of c on t. When c writes (fuzz.Case.Writes), t must leave them
// undone for the next case: an Isolator runs them isolated; any other target is reset and runs
// c's setup again after them. dirty says that this failed: the setup must run again before the
// next case.
func (e *executor) execQueries(ctx context.Context, t fuzz.Target, c *fuzz.Case) (rs []*fuzz.Result, dirty bool, err error) {
	if it, ok := t.(fuzz.Isolator); ok && c.Writes {
		rs, err = e.exec(ctx, t, c.Texts(), it.ExecIsolated)
		return rs, false, err
	}
	rs, err = e.execAll(ctx, t, c.Texts())
	if err != nil || !c.Writes {
		return rs, false, err
	}
	if len(c.Setup) == 0 || !alive(rs) {
		return rs, true, nil // a case without setup starts from a reset target anyway
	}
	if err := e.call(func() error { return t.Reset(ctx) }); err != nil {
		return nil, false, fmt.Errorf("reset %s: %w", t.Name(), err)
	}
	setup, err := e.execAll(ctx, t, c.Setup)
	return rs, err != nil || !alive(setup) || slices.ContainsFunc(setup, (*fuzz.Result).Failed), err
}

// execCases runs the queries of cs on t: those of consecutive cases that do not write in one
// call, those of each case that writes as execQueries does.
func (e *executor) execCases(ctx context.Context, t fuzz.Target, cs []*fuzz.Case) ([]*fuzz.Result, error) {
	var out []*fuzz.Result
	var plain []string
	flush := func() error {
		rs, err := e.execAll(ctx, t, plain)
		out, plain = append(out, rs...), nil
		return err
	}
	for _, c := range cs {
		if !c.Writes {
			plain = append(plain, c.Texts()...)
			continue
		}
		if err := flush(); err != nil {
			return out, err
		}
		rs, dirty, err := e.execQueries(ctx, t, c)
		out = append(out, rs...)
		if err != nil {
			return out, err
		}
		if dirty { // the next cases would not start from the setup: they look crashed
			for len(out) < len(stmtsOf(cs)) {
				out = append(out, &fuzz.Result{Status: fuzz.StatusCrash, Err: "the setup could not be restored after a write"})
			}
			return out, nil
		}
	}
	return out, flush()
}

// execAll runs stmts on t; a panic in the target becomes a crash result for every statement.
func (e *executor) execAll(ctx context.Context, t fuzz.Target, stmts []string) (rs []*fuzz.Result, err error) {
	return e.exec(ctx, t, stmts, func(ctx context.Context, stmts []string) ([]*fuzz.Result, error) {
		return fuzz.ExecAll(ctx, t, stmts)
	})
}

// exec runs stmts on t with run, counting them; a panic in the target becomes a crash result for
// every statement.
func (e *executor) exec(ctx context.Context, t fuzz.Target, stmts []string,
	run func(context.Context, []string) ([]*fuzz.Result, error)) (rs []*fuzz.Result, err error) {
	if len(stmts) == 0 {
		return nil, nil
	}
	defer func() {
		if p := recover(); p != nil {
			rs, err = make([]*fuzz.Result, len(stmts)), nil
			for i := range rs {
				rs[i] = &fuzz.Result{Status: fuzz.StatusCrash, Err: fmt.Sprintf("panic: %v", p)}
			}
		}
		e.stmts += int64(len(rs))
		for _, r := range rs {
			if r != nil && r.Status == fuzz.StatusOK {
				e.valid++
			}
		}
	}()
	rs, err = run(ctx, stmts)
	if err == nil && len(rs) != len(stmts) {
		err = fmt.Errorf("polyfuzz bug: target %s answered %d of %d statements", t.Name(), len(rs), len(stmts))
	}
	return rs, err
}

// call runs fn, turning a panic into an error.
func (e *executor) call(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return fn()
}

func (e *executor) close() {
	for _, t := range e.targets {
		t.Close()
	}
}

func alive(rs []*fuzz.Result) bool {
	for _, r := range rs {
		if r == nil || r.Status == fuzz.StatusCrash || r.Status == fuzz.StatusTimeout {
			return false
		}
	}
	return true
}

func sameSetup(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// stmtsOf returns the queries of cs, in order.
func stmtsOf(cs []*fuzz.Case) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Texts()...)
	}
	return out
}
