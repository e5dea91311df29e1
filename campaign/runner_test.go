package campaign

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// The runner's unit tests use a fake generator, target and oracle; engines are tested for real in
// cmd/polyfuzz.

// fakeGen makes cases that share a setup in groups of perSetup, or have none when noSetup.
type fakeGen struct {
	perSetup int
	noSetup  bool
}

func (g fakeGen) CasesPerSetup() int { return g.perSetup }
func (g fakeGen) Generate(seed uint64) (*fuzz.Case, error) {
	c := &fuzz.Case{Domain: "fake", Gen: "fake", Seed: seed,
		Setup:   []string{fmt.Sprintf("setup %d", fuzz.SetupSeed(seed))},
		Queries: []fuzz.Query{{Role: "q", Text: fmt.Sprintf("query %d", seed)}}}
	if g.noSetup {
		c.Setup = nil
	}
	return c, nil
}

type fakeTarget struct {
	mu     *sync.Mutex
	log    *[]string // every statement and reset, across targets
	panics func(stmt string) bool
}

func (t *fakeTarget) Name() string    { return "fake" }
func (t *fakeTarget) Version() string { return "1" }
func (t *fakeTarget) Close() error    { return nil }
func (t *fakeTarget) Reset(context.Context) error {
	t.mu.Lock()
	*t.log = append(*t.log, "reset")
	t.mu.Unlock()
	return nil
}
func (t *fakeTarget) Exec(_ context.Context, stmt string) (*fuzz.Result, error) {
	if t.panics != nil && t.panics(stmt) {
		panic("fake target panic")
	}
	t.mu.Lock()
	*t.log = append(*t.log, stmt)
	t.mu.Unlock()
	return &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{fuzz.Text(stmt)}}}, nil
}

// fakeOracle reports a finding for every case whose seed is a multiple of every, and a crash for
// crashed results; each case makes checks checks (0: one).
type fakeOracle struct {
	every  uint64
	checks int
}

func (fakeOracle) Name() string { return "fake" }
func (o fakeOracle) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	for _, r := range runs[0].Results {
		if r.Status == fuzz.StatusCrash {
			return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{Title: "crash: fake: " + r.Err,
				Kind: fuzz.KindCrash, Oracle: "fake", Case: c, Runs: runs}}
		}
	}
	if o.every > 0 && c.Seed%o.every == 0 {
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{Title: "fake: fake: bad", Kind: fuzz.KindWrongResult,
			Oracle: "fake", Expected: "good", Actual: "bad", Case: c, Runs: runs}}
	}
	return fuzz.Verdict{Checked: true, Checks: o.checks}
}

// TestRunCountsChecks checks that a case of several checks counts each.
func TestRunCountsChecks(t *testing.T) {
	for _, checks := range []int{0, 1, 3} {
		cfg, _ := newConfig(t, 4, fakeOracle{checks: checks}, nil)
		cfg.Tests = 12
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(12 * max(checks, 1)); sum.Totals.Checks != want || sum.Totals.Tests != 12 {
			t.Errorf("checks=%d: totals %+v, want %d checks of 12 tests", checks, sum.Totals, want)
		}
	}
}

func newConfig(t *testing.T, perSetup int, o fakeOracle, panics func(string) bool) (Config, *[]string) {
	store, err := NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var mu sync.Mutex
	log := &[]string{}
	return Config{
		Domain: "fake", Gen: fakeGen{perSetup: perSetup}, Oracles: []fuzz.Oracle{o}, Store: store, Seed: 7, Workers: 2,
		Open: func(context.Context) ([]fuzz.Target, error) {
			return []fuzz.Target{&fakeTarget{mu: &mu, log: log, panics: panics}}, nil
		},
	}, log
}

func TestRunSetupReuseAndSeeds(t *testing.T) {
	tests := []struct {
		perSetup, n int
		noSetup     bool // cases without setup: a reset before every case
	}{{1, 12, false}, {4, 40, false}, {100, 250, false}, {100, 250, true}}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.perSetup, tc.noSetup), func(t *testing.T) {
			cfg, log := newConfig(t, tc.perSetup, fakeOracle{}, nil)
			cfg.Gen = fakeGen{tc.perSetup, tc.noSetup}
			cfg.Tests = int64(tc.n)
			sum, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Totals.Tests != int64(tc.n) || sum.Totals.Checks != int64(tc.n) || sum.Info.Stop != "tests" {
				t.Fatalf("totals %+v, stop %q", sum.Totals, sum.Info.Stop)
			}
			var resets int
			var queries []string
			for _, s := range *log {
				if s == "reset" {
					resets++
				} else if strings.HasPrefix(s, "query ") {
					queries = append(queries, s)
				}
			}
			want := (tc.n + tc.perSetup - 1) / tc.perSetup
			if tc.noSetup {
				want = tc.n
			}
			if resets != want {
				t.Errorf("%d resets, want one per setup: %d", resets, want)
			}
			var wantQ []string
			for i := range tc.n {
				wantQ = append(wantQ, fmt.Sprintf("query %d", fuzz.CaseSeed(7, uint64(i), tc.perSetup)))
			}
			slices.Sort(wantQ)
			slices.Sort(queries)
			if !slices.Equal(queries, wantQ) {
				t.Errorf("ran cases %v, want %v", queries, wantQ)
			}
			for _, f := range []string{"campaign.json", "stats.jsonl", "report.html"} {
				if _, err := os.Stat(filepath.Join(cfg.Store.Dir, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func TestRunDedupAndReplay(t *testing.T) {
	cfg, _ := newConfig(t, 1, fakeOracle{every: 1}, nil) // every case fails the same way
	cfg.Tests = 30
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.New) != 1 || sum.New[0].Hits != 30 || sum.New[0].Status != StatusConfirmed ||
		sum.New[0].Reliability != "3/3" {
		t.Fatalf("findings %+v", sum.New)
	}
	dir := filepath.Join(cfg.Store.Dir, "findings", Hash("fake: fake: bad"))
	rec, orig, _, err := LoadFinding(dir)
	if err != nil || rec.Hits != 30 || orig.Seed != rec.Seed {
		t.Fatalf("stored %+v %v", rec, err)
	}
	ts, _ := cfg.Open(context.Background())
	res, err := Replay(context.Background(), dir, cfg.Gen, cfg.Oracles[0], ts)
	if err != nil || !res.Reproduced() || !res.Regenerated {
		t.Fatalf("replay %+v %v", res, err)
	}
	// A second campaign on the same OUT counts hits on the stored finding instead of a new one.
	if err := cfg.Store.Close(); err != nil {
		t.Fatal(err)
	}
	store, err := NewStore(cfg.Store.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cfg.Store = store
	cfg.Tests = 5
	sum, err = Run(context.Background(), cfg)
	if err != nil || len(sum.New) != 0 || len(sum.Seen) != 1 || sum.Seen[0].Hits != 35 {
		t.Fatalf("second campaign: new %v seen %+v err %v", sum.New, sum.Seen, err)
	}
}

func TestRunTargetPanic(t *testing.T) {
	cfg, _ := newConfig(t, 1, fakeOracle{}, func(s string) bool { return strings.HasSuffix(s, "3") })
	cfg.Tests = 50
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Totals.Tests != 50 || len(sum.New) != 1 || sum.New[0].Kind != fuzz.KindCrash ||
		!strings.Contains(sum.New[0].Title, "panic: fake target panic") {
		t.Fatalf("tests %d, findings %+v", sum.Totals.Tests, sum.New)
	}
}

func TestRunInterrupted(t *testing.T) {
	cfg, _ := newConfig(t, 1, fakeOracle{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sum, err := Run(ctx, cfg)
	if err != nil || sum.Info.Stop != "interrupted" {
		t.Fatalf("stop %q, err %v", sum.Info.Stop, err)
	}
}

// deadServer is a target whose server dies on a statement: that statement and every later one
// answer crash, and every Reset after it fails, as a server that does not come back.
type deadServer struct {
	fakeTarget
	dies func(stmt string) bool
	dead *bool
}

func (t *deadServer) Reset(ctx context.Context) error {
	if *t.dead {
		return errors.New("cannot reach fake: connection refused")
	}
	return t.fakeTarget.Reset(ctx)
}

func (t *deadServer) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if *t.dead || t.dies(stmt) {
		*t.dead = true
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: "server closed the connection"}, nil
	}
	return t.fakeTarget.Exec(ctx, stmt)
}

// TestRunServerDies checks that when a server dies in a batch and cannot be reset, the crash is
// stored as a finding before the campaign stops with the target's error.
func TestRunServerDies(t *testing.T) {
	cfg, log := newConfig(t, 100, fakeOracle{}, nil)
	var mu sync.Mutex
	dead := false
	cfg.Workers, cfg.Tests = 1, 100
	cfg.Open = func(context.Context) ([]fuzz.Target, error) {
		return []fuzz.Target{&deadServer{fakeTarget: fakeTarget{mu: &mu, log: log},
			dies: func(s string) bool { return strings.HasPrefix(s, "query") && strings.HasSuffix(s, "5") }, dead: &dead}}, nil
	}
	sum, err := Run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("err = %v, want the reset's error", err)
	}
	if sum == nil || len(sum.New) != 1 || sum.New[0].Kind != fuzz.KindCrash ||
		sum.New[0].Title != "crash: fake: server closed the connection" {
		t.Fatalf("findings %+v, want the crash", sum)
	}
}

// onceOracle reports "crash: fake: down" the first time it checks any case (an innocent statement
// that saw a shared server die), and always for the cases whose seed is a multiple of 7 (the
// statement that crashes it).
type onceOracle struct{ seen *atomic.Bool }

func (onceOracle) Name() string { return "fake" }
func (o onceOracle) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	if o.seen.CompareAndSwap(false, true) && c.Seed%7 != 0 || c.Seed%7 == 0 {
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{Title: "crash: fake: down", Kind: fuzz.KindCrash,
			Oracle: "fake", Case: c, Runs: runs}}
	}
	return fuzz.Verdict{Checked: true}
}

// TestRunReplacesUnreproduced checks that an unreproduced finding takes a later example that
// reproduces, which is then confirmed.
func TestRunReplacesUnreproduced(t *testing.T) {
	cfg, _ := newConfig(t, 1, fakeOracle{}, nil)
	cfg.Oracles = []fuzz.Oracle{onceOracle{seen: &atomic.Bool{}}}
	cfg.Workers, cfg.Tests, cfg.Seed = 1, 200, 3
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.New) != 1 || sum.New[0].Status != StatusConfirmed || sum.New[0].Seed%7 != 0 {
		t.Fatalf("findings %+v, want one confirmed with a seed that is a multiple of 7", sum.New)
	}
}

// deriveGen is a fakeGen whose cases have a second stage: one query built from the first answer.
type deriveGen struct{ fakeGen }

func (deriveGen) Derive(c *fuzz.Case, runs []fuzz.Run) []fuzz.Query {
	r := runs[0].Results[0]
	if r.Failed() || len(r.Rows) == 0 {
		return nil
	}
	return []fuzz.Query{{Role: "derived", Text: "derived from " + r.Rows[0][0]}}
}

// derivedOracle fails every case whose derived query got the answer its text asked for; a case
// without one, or derived twice (a re-run of a stored case), is a malformed finding.
type derivedOracle struct{}

func (derivedOracle) Name() string { return "fake" }
func (derivedOracle) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	last := len(c.Queries) - 1
	if c.Derived != 1 || len(c.Queries) != 2 || c.Queries[last].Role != "derived" || len(runs[0].Results) != len(c.Queries) ||
		runs[0].Results[last].Rows[0][0] != fuzz.Text(c.Queries[last].Text) {
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{Title: "fake: fake: not derived",
			Kind: fuzz.KindWrongResult, Oracle: "fake", Case: c, Runs: runs}}
	}
	return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{Title: "fake: fake: derived",
		Kind: fuzz.KindWrongResult, Oracle: "fake", Case: c, Runs: runs}}
}

func TestRunDerives(t *testing.T) {
	for _, perSetup := range []int{1, 10} { // one case at a time, and batches of one setup
		t.Run(fmt.Sprint(perSetup), func(t *testing.T) {
			cfg, log := newConfig(t, perSetup, fakeOracle{}, nil)
			cfg.Gen, cfg.Oracles, cfg.Tests, cfg.Workers = deriveGen{fakeGen{perSetup: perSetup}}, []fuzz.Oracle{derivedOracle{}}, 20, 1
			sum, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			// Confirmed: the re-runs from scratch run the stored case's statements, not derived again.
			if len(sum.New) != 1 || sum.New[0].Title != "fake: fake: derived" || sum.New[0].Hits != 20 ||
				sum.New[0].Status != StatusConfirmed {
				t.Fatalf("findings %+v", sum.New)
			}
			var derived int
			for _, s := range *log {
				if strings.HasPrefix(s, "derived from t:query ") {
					derived++
				}
			}
			if derived < 20 {
				t.Errorf("%d derived statements ran, want one per case at least", derived)
			}
			dir := filepath.Join(cfg.Store.Dir, "findings", Hash("fake: fake: derived"))
			_, orig, _, err := LoadFinding(dir)
			if err != nil || orig.Derived != 1 {
				t.Fatalf("stored case %+v: %v", orig, err)
			}
			ts, _ := cfg.Open(context.Background())
			res, err := Replay(context.Background(), dir, cfg.Gen, cfg.Oracles[0], ts)
			if err != nil || !res.Reproduced() || !res.Regenerated {
				t.Fatalf("replay %+v %v", res, err)
			}
		})
	}
}
