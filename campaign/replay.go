package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// ReplayResult says what replaying a finding showed.
type ReplayResult struct {
	Record *Record // the stored finding
	// Regenerated is true when the generator, given the finding's seed, made exactly the stored
	// case; RegenChecked is false when no generator was given.
	Regenerated, RegenChecked bool
	// Original and Reduced are the titles the oracle gave on the replayed cases ("" for no
	// finding), to compare with Record.OracleTitle(); Reduced is "" too when the finding has no
	// reduced case.
	Original, Reduced string
	HasReduced        bool // the finding has a reduced case
	// Finding is the oracle's finding on the original case, if any.
	Finding *fuzz.Finding
}

// Reproduced reports whether every replayed case gave the finding's title again.
func (r *ReplayResult) Reproduced() bool {
	t := r.Record.OracleTitle()
	return r.Original == t && (!r.HasReduced || r.Reduced == t)
}

// Replay re-runs a stored finding: it regenerates the case from its seed with gen (when not nil)
// and checks it equals the stored case, then runs the stored original and reduced cases on
// targets from a fresh state and asks the finding's oracle again.
func Replay(ctx context.Context, dir string, gen fuzz.Generator, o fuzz.Oracle, targets []fuzz.Target) (*ReplayResult, error) {
	rec, orig, red, err := LoadFinding(dir)
	if err != nil {
		return nil, err
	}
	res := &ReplayResult{Record: rec, HasReduced: red != nil}
	if gen != nil {
		c, err := gen.Generate(rec.Seed)
		if err != nil {
			return nil, fmt.Errorf("regenerate seed %d: %w", rec.Seed, err)
		}
		res.RegenChecked = true
		a, _ := json.Marshal(c)
		b, _ := json.Marshal(orig.Generated())
		res.Regenerated = string(a) == string(b)
	}
	e := &executor{targets: targets}
	title := func(c *fuzz.Case) (string, *fuzz.Finding, error) {
		runs, err := e.runFresh(ctx, c)
		if err != nil {
			return "", nil, err
		}
		v := o.Check(c, runs)
		if v.Finding == nil {
			return "", nil, nil
		}
		return v.Finding.Title, v.Finding, nil
	}
	if res.Original, res.Finding, err = title(orig); err != nil {
		return nil, err
	}
	if red != nil {
		if res.Reduced, _, err = title(red); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// Check runs case c on targets from a fresh state and returns o's finding, nil for none.
func Check(ctx context.Context, c *fuzz.Case, o fuzz.Oracle, targets []fuzz.Target) (*fuzz.Finding, error) {
	runs, err := (&executor{targets: targets}).runFresh(ctx, c)
	if err != nil {
		return nil, err
	}
	return o.Check(c, runs).Finding, nil
}

// ReduceFinding reduces a stored finding again (from its original case) on targets and stores
// the result if it replays. It returns the reduced case.
func ReduceFinding(ctx context.Context, store *Store, dir string, o fuzz.Oracle, targets []fuzz.Target,
	r fuzz.Reducer, f Format, limit time.Duration) (*fuzz.Case, error) {
	rec, orig, _, err := LoadFinding(dir)
	if err != nil {
		return nil, err
	}
	w := &worker{cfg: &Config{Reducer: r, ReduceTime: limit}, exec: &executor{targets: targets}, parent: ctx}
	if !w.reproduces(ctx, o, orig, rec.OracleTitle()) {
		return nil, fmt.Errorf("the finding does not reproduce on %s; nothing to reduce", targetNames(targets))
	}
	var runs []fuzz.Run
	if b, err := os.ReadFile(filepath.Join(dir, "runs.json")); err == nil {
		json.Unmarshal(b, &runs) // without runs, a guided reducer falls back to its plain passes
	}
	red, note := w.reduce(ctx, o, &fuzz.Finding{Title: rec.OracleTitle(), Roles: rec.Roles, Case: orig, Runs: runs})
	if red == nil {
		return nil, fmt.Errorf("reduce: %s", note)
	}
	store.mu.Lock()
	if r, ok := store.byTitle[rec.Title]; ok {
		rec = r // the store's own record, so that its hits and status stay one
	}
	store.mu.Unlock()
	return red.Case, store.SetReduced(rec, red, f)
}

func targetNames(ts []fuzz.Target) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += t.Name()
	}
	return s
}
