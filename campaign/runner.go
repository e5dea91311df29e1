package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Config describes a campaign. Fields marked required must be set; the zero value of the others
// is a sensible default.
type Config struct {
	Command string         // the command line, for campaign.json
	Domain  string         // required
	Gen     fuzz.Generator // required
	Oracles []fuzz.Oracle  // required
	// Open opens one worker's targets (several for a differential campaign). Required.
	Open    func(ctx context.Context) ([]fuzz.Target, error)
	Reducer fuzz.Reducer  // nil: findings are stored unreduced
	Format  Format        // how cases are printed; nil: only JSON
	Store   *Store        // required
	Seed    uint64        // the campaign seed
	Budget  time.Duration // 0: no time limit
	Tests   int64         // 0: no limit on the number of cases
	// MaxFindings stops the campaign after this many new unique findings; 0: no limit.
	MaxFindings int
	Workers     int // 0: GOMAXPROCS
	// Confirm is how many times a new finding's case is re-run from scratch to measure its
	// reliability; 0 means 3.
	Confirm int
	// ReduceTime bounds the reduction of one finding; 0 means 2 minutes.
	ReduceTime time.Duration
	// Progress receives a live progress line (with carriage returns) when Live, and a plain line
	// every StatsEvery otherwise; nil: no progress.
	Progress io.Writer
	Live     bool
	// StatsEvery is the interval of stats.jsonl lines (0: 5 s); ProgressEvery that of plain
	// progress lines when not Live (0: StatsEvery).
	StatsEvery    time.Duration
	ProgressEvery time.Duration
	// Options are the campaign's engine settings that rebuild its targets, as the domain
	// encodes them (JSON); they are stored with findings.
	Options json.RawMessage
	// Replay returns the command line that replays a finding directory.
	Replay func(dir string) string
	// Fault is the fault spec planted in the first engine, "" for none. Findings of a campaign
	// with a planted fault carry it, and their titles start with PlantedMark.
	Fault string
	// Polyfuzz is polyfuzz's version, recorded in campaign.json and in findings.
	Polyfuzz string
	// OnHit, when set, is called for every finding the oracles report, duplicates included,
	// before it is stored (a benchmark attributes hits to known bugs). It must be safe for
	// concurrent use by the workers.
	OnHit func(f *fuzz.Finding, o fuzz.Oracle)
}

// Summary is what a finished campaign reports.
type Summary struct {
	Info   Info
	Totals Sample
	// New lists the findings this campaign stored for the first time.
	New []*Record
	// Seen lists every finding this campaign hit, new or not.
	Seen []*Record
}

type counters struct {
	tests, checks, hits atomic.Int64
	mu                  sync.Mutex
	skips               map[string]int64
	notes               map[string]int64
	canaries            map[string]int64
	kinds               map[string]int64
	newFindings         int
	seen                map[string]*Record
	new                 []*Record
	retries             map[string]int // title -> examples tried in place of an unreproduced one
	workers             []*workerStats
}

type workerStats struct {
	mu       sync.Mutex
	inTarget time.Duration
	wall     time.Duration
	stmts    int64
	valid    int64
}

// Run runs a campaign until its budget, test count or finding limit is reached, or ctx is done,
// then writes campaign.json, the last stats line and report.html. Findings are stored as they
// are found. An error means the campaign could not run as configured (for example, a target
// could not be opened); engine failures are findings, not errors.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if cfg.Gen == nil || len(cfg.Oracles) == 0 || cfg.Open == nil || cfg.Store == nil {
		return nil, errors.New("polyfuzz bug: campaign config lacks a generator, oracles, targets or store")
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Confirm <= 0 {
		cfg.Confirm = 3
	}
	if cfg.ReduceTime <= 0 {
		cfg.ReduceTime = 2 * time.Minute
	}
	if cfg.StatsEvery <= 0 {
		cfg.StatsEvery = 5 * time.Second
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = cfg.StatsEvery
	}
	perSetup := 1
	if s, ok := cfg.Gen.(fuzz.SetupSharer); ok {
		perSetup = max(1, s.CasesPerSetup())
	}

	// Open every worker's targets first, so that a bad DSN fails before anything is written.
	execs := make([]*executor, cfg.Workers)
	for w := range execs {
		ts, err := cfg.Open(ctx)
		if err != nil {
			for _, e := range execs[:w] {
				e.close()
			}
			return nil, err
		}
		execs[w] = &executor{targets: ts}
		execs[w].deriver, _ = cfg.Gen.(fuzz.Deriver)
	}
	defer func() {
		for _, e := range execs {
			e.close()
		}
	}()

	start := time.Now()
	info := Info{
		Format: "polyfuzz campaign v1", Polyfuzz: cfg.Polyfuzz, Fault: cfg.Fault, Command: cfg.Command,
		Domain: cfg.Domain, Seed: cfg.Seed, Options: cfg.Options, Workers: cfg.Workers, Start: start.UTC(),
		Budget: cfg.Budget.Seconds(), TestLimit: cfg.Tests,
	}
	for _, t := range execs[0].targets {
		info.Targets = append(info.Targets, TargetInfo{Name: t.Name(), Version: t.Version()})
	}
	for _, o := range cfg.Oracles {
		info.Oracles = append(info.Oracles, o.Name())
	}
	if err := cfg.Store.hold(cfg.Command); err != nil {
		return nil, fmt.Errorf("write %s: %w", LockFile, err)
	}
	if err := writeJSON(cfg.Store.Dir, "campaign.json", info); err != nil {
		return nil, fmt.Errorf("write campaign.json: %w", err)
	}
	statsFile, err := os.OpenFile(filepath.Join(cfg.Store.Dir, "stats.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("write stats.jsonl: %w", err)
	}
	defer statsFile.Close()

	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	stop := "" // why the campaign ended
	var stopOnce sync.Once
	halt := func(why string) { stopOnce.Do(func() { stop = why; stopRun() }) }
	if cfg.Budget > 0 {
		t := time.AfterFunc(cfg.Budget, func() { halt("budget") })
		defer t.Stop()
	}

	c := &counters{skips: map[string]int64{}, notes: map[string]int64{}, canaries: map[string]int64{}, kinds: map[string]int64{}, seen: map[string]*Record{}, retries: map[string]int{}}
	meta := Meta{Options: cfg.Options, Format: cfg.Format, Replay: cfg.Replay, Fault: cfg.Fault, Polyfuzz: cfg.Polyfuzz}
	prog := newProgress(&cfg, start)
	meta.Targets = info.Targets
	var nextGroup atomic.Uint64
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for w, e := range execs {
		ws := &workerStats{}
		c.workers = append(c.workers, ws)
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := &worker{cfg: &cfg, exec: e, stats: ws, c: c, meta: meta, id: w, halt: halt, parent: ctx, prog: prog}
			if err := wk.loop(runCtx, &nextGroup, perSetup); err != nil {
				errOnce.Do(func() { firstErr = err })
				halt("error")
			}
		}()
	}

	// The sampler writes hits, stats and progress every second until the workers are done. Hits
	// go to disk before the progress that counts them is shown, so that a killed campaign has on
	// disk at least the hits it last showed.
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var prev Sample
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	lastStats := start
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-ctx.Done():
			halt("interrupted")
			<-done
			running = false
		case now := <-tick.C:
			s := c.sample(start, now, &prev)
			if err := cfg.Store.Flush(); err != nil {
				errOnce.Do(func() { firstErr = fmt.Errorf("write findings: %w", err) })
				halt("error")
			}
			if now.Sub(lastStats) >= cfg.StatsEvery {
				writeSample(statsFile, &s)
				lastStats = now
				prev = s
			}
			prog.tick(&s)
		}
	}
	if stop == "" {
		stop = "tests"
		if ctx.Err() != nil {
			stop = "interrupted"
		}
	}
	end := time.Now()
	last := c.sample(start, end, &prev) // the last interval, for stats.jsonl
	writeSample(statsFile, &last)
	totals := c.sample(start, end, &Sample{}) // rates averaged over the whole campaign
	prog.end()
	if err := cfg.Store.Flush(); err != nil {
		return nil, fmt.Errorf("write findings: %w", err)
	}
	info.End, info.Stop, info.Totals = end.UTC(), stop, &totals
	if err := writeJSON(cfg.Store.Dir, "campaign.json", info); err != nil {
		return nil, fmt.Errorf("write campaign.json: %w", err)
	}
	if err := WriteReport(cfg.Store.Dir); err != nil {
		return nil, fmt.Errorf("write report.html: %w", err)
	}
	sum := &Summary{Info: info, Totals: totals, New: c.new}
	for _, r := range c.seen {
		sum.Seen = append(sum.Seen, r)
	}
	sortRecords(sum.Seen)
	return sum, firstErr
}

// sample reads the counters; rates are over the time since prev.
func (c *counters) sample(start, now time.Time, prev *Sample) Sample {
	s := Sample{Time: now.UTC(), Elapsed: now.Sub(start).Seconds(),
		Tests: c.tests.Load(), Checks: c.checks.Load(), Hits: c.hits.Load()}
	c.mu.Lock()
	s.Skips = maps(c.skips)
	s.Notes = maps(c.notes)
	if len(c.canaries) > 0 {
		s.Canaries = maps(c.canaries)
	}
	s.Findings = maps(c.kinds)
	c.mu.Unlock()
	for _, w := range c.workers {
		w.mu.Lock()
		s.TargetSeconds += w.inTarget.Seconds()
		s.WorkerSeconds += w.wall.Seconds()
		s.Statements += w.stmts
		s.Valid += w.valid
		w.mu.Unlock()
	}
	if s.WorkerSeconds > 0 {
		s.Efficiency = s.TargetSeconds / s.WorkerSeconds
	}
	if dt := s.Elapsed - prev.Elapsed; dt > 0 {
		s.ChecksPerSec = float64(s.Checks-prev.Checks) / dt
		s.TestsPerSec = float64(s.Tests-prev.Tests) / dt
	}
	return s
}

// countCanaries adds one to counts for each planted bug's canary (fuzz.Result.Canaries) that one
// of the case's results carries: the case reached the bug (id) or triggered it (id+"!").
func countCanaries(runs []fuzz.Run, counts map[string]int64) {
	var seen map[string]bool
	for _, run := range runs {
		for _, rs := range [][]*fuzz.Result{run.Setup, run.Results} {
			for _, r := range rs {
				if r == nil {
					continue
				}
				for _, c := range r.Canaries {
					if seen == nil {
						seen = map[string]bool{}
					}
					if !seen[c] {
						seen[c] = true
						counts[c]++
					}
				}
			}
		}
	}
}

func maps(m map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func writeSample(w io.Writer, s *Sample) {
	b, _ := jsonLine(s)
	w.Write(b)
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// worker is one goroutine of a campaign with its own targets.
type worker struct {
	cfg    *Config
	exec   *executor
	stats  *workerStats
	c      *counters
	meta   Meta
	id     int
	halt   func(string)
	parent context.Context // outlives the budget, for finishing a reduction
	prog   *progress
}

// publishEvery is how often a worker adds its counts to the campaign's, so that the progress
// line is live also when a setup group lasts minutes (an SMT seed pool of 1000 mutants).
const publishEvery = 250 * time.Millisecond

func (w *worker) loop(ctx context.Context, next *atomic.Uint64, perSetup int) error {
	cfg := w.cfg
	wallStart := time.Now()
	var lastIn time.Duration
	flush := func() {
		w.stats.mu.Lock()
		w.stats.wall = time.Since(wallStart)
		w.stats.inTarget += w.exec.inTarget - lastIn
		lastIn = w.exec.inTarget
		w.stats.stmts, w.stats.valid = w.exec.stmts, w.exec.valid
		w.stats.mu.Unlock()
	}
	defer flush()
	skips, notes, canaries := map[string]int64{}, map[string]int64{}, map[string]int64{}
	// tally moves the worker's skip, note and canary counts to the campaign's, also when the
	// worker stops in the middle of a setup group.
	tally := func() {
		if len(skips) == 0 && len(notes) == 0 && len(canaries) == 0 {
			return
		}
		w.c.mu.Lock()
		for k, v := range skips {
			w.c.skips[k] += v
		}
		for k, v := range notes {
			w.c.notes[k] += v
		}
		for k, v := range canaries {
			w.c.canaries[k] += v
		}
		w.c.mu.Unlock()
		clear(skips)
		clear(notes)
		clear(canaries)
	}
	defer tally()
	lastPublish := wallStart
	check := func(cs *fuzz.Case, runs []fuzz.Run) error {
		countCanaries(runs, canaries)
		checks := int64(0)
		for _, o := range cfg.Oracles {
			v := o.Check(cs, runs)
			if v.Skip != "" {
				skips[o.Name()+": "+v.Skip]++
			}
			for _, p := range v.Partial {
				skips[o.Name()+": "+p]++
			}
			for _, n := range v.Notes {
				notes[o.Name()+": "+n]++
			}
			if o.Name() != "error" {
				checks += int64(v.Made())
			}
			if v.Finding != nil {
				flush()
				wallPause := time.Now()
				if err := w.found(v.Finding, o); err != nil {
					return err
				}
				wallStart = wallStart.Add(time.Since(wallPause)) // reduction is not fuzzing time
				lastIn = w.exec.inTarget
			}
		}
		if g, ok := cfg.Gen.(fuzz.Guided); ok {
			g.Observe(cs, runs)
		}
		w.c.checks.Add(checks)
		w.c.tests.Add(1)
		if now := time.Now(); now.Sub(lastPublish) >= publishEvery {
			flush()
			tally()
			lastPublish = now
		}
		return nil
	}
	for ctx.Err() == nil {
		g := next.Add(1) - 1
		for j := 0; j < perSetup && ctx.Err() == nil; j += batchSize {
			// A batch of consecutive cases of one setup goes to the targets in one call.
			var batch []*fuzz.Case
			for k := j; k < min(j+batchSize, perSetup); k++ {
				i := g*uint64(perSetup) + uint64(k)
				if cfg.Tests > 0 && i >= uint64(cfg.Tests) {
					break
				}
				seed := fuzz.CaseSeed(cfg.Seed, i, perSetup)
				cs, err := cfg.Gen.Generate(seed)
				if err != nil {
					return fmt.Errorf("polyfuzz bug: generate case %d (seed %d): %w", i, seed, err)
				}
				if len(batch) > 0 && !sameSetup(batch[0].Setup, cs.Setup) {
					return fmt.Errorf("polyfuzz bug: cases %d and %d of one setup group differ in setup", i-1, i)
				}
				batch = append(batch, cs)
			}
			if len(batch) == 0 {
				return nil
			}
			// Cases without setup carry their whole state in their queries and run one by one.
			var runs [][]fuzz.Run
			var ok bool
			var err error
			if len(batch[0].Setup) > 0 {
				runs, ok, err = w.exec.runMany(ctx, batch)
			}
			for bi, cs := range batch {
				if err != nil {
					break
				}
				var r []fuzz.Run
				if ok {
					r = runs[bi]
				} else if r, err = w.exec.run(ctx, cs); err != nil {
					// The targets cannot be used again (a server died and did not come back):
					// judge the batch's own answers, so that the crash is stored before the
					// campaign stops.
					if runs != nil && ctx.Err() == nil {
						for k := bi; k < len(batch); k++ {
							if cerr := check(batch[k], runs[k]); cerr != nil {
								return cerr
							}
						}
					}
					break
				}
				if err = check(cs, r); err != nil {
					return err
				}
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
		}
		flush()
		tally()
	}
	return nil
}

// maxRetries bounds how many later examples of an unreproduced finding are tried in its place.
const maxRetries = 5

// retry reports whether another example of the unreproduced finding with the given title may be
// tried, counting the try.
func (w *worker) retry(title string) bool {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	w.c.retries[title]++
	return w.c.retries[title] <= maxRetries
}

// batchSize is how many consecutive cases of one setup are sent to the targets in one call.
const batchSize = 16

// found stores a finding; a new one is then confirmed, reduced and replayed on this worker's
// targets.
func (w *worker) found(f *fuzz.Finding, o fuzz.Oracle) error {
	cfg := w.cfg
	if cfg.OnHit != nil {
		cfg.OnHit(f, o)
	}
	rec, isNew, err := cfg.Store.Add(f, w.meta)
	if err != nil {
		return fmt.Errorf("store finding: %w", err)
	}
	w.c.hits.Add(1)
	w.c.mu.Lock()
	w.c.seen[rec.Title] = rec
	if isNew {
		w.c.kinds[f.Kind.String()]++
		w.c.new = append(w.c.new, rec)
		w.c.newFindings++
		if cfg.MaxFindings > 0 && w.c.newFindings >= cfg.MaxFindings {
			defer w.halt("findings")
		}
	}
	w.c.mu.Unlock()
	if isNew {
		w.prog.finding(rec.Title, filepath.Join(cfg.Store.Dir, "findings", rec.Hash))
	}
	ctx := w.parent
	if !isNew {
		// A finding an earlier campaign left unconfirmed or unreduced (it was killed), or one
		// whose example did not reproduce, takes this hit as its example and is confirmed again.
		if !cfg.Store.claim(rec, cfg.Reducer != nil) &&
			(!cfg.Store.Unreproduced(rec) || !w.retry(rec.Title) || !w.reproduces(ctx, o, f.Case, f.Title)) {
			return nil
		}
		if err := cfg.Store.Replace(rec, f, w.meta); err != nil {
			return fmt.Errorf("store finding: %w", err)
		}
	}
	ok := 0
	for range cfg.Confirm {
		if w.reproduces(ctx, o, f.Case, f.Title) {
			ok++
		}
	}
	status := StatusConfirmed
	switch {
	case ok == 0:
		status = StatusUnreproduced
	case ok < cfg.Confirm:
		status = StatusFlaky
	}
	if err := cfg.Store.Update(rec, func(r *Record) {
		r.Status, r.Reliability = status, fmt.Sprintf("%d/%d", ok, cfg.Confirm)
	}); err != nil {
		return fmt.Errorf("store finding: %w", err)
	}
	if ok == 0 || cfg.Reducer == nil || ctx.Err() != nil {
		return nil
	}
	red, note := w.reduce(ctx, o, f)
	if red == nil {
		return cfg.Store.Update(rec, func(r *Record) { r.Note = note })
	}
	return cfg.Store.SetReduced(rec, red, cfg.Format)
}

// reproduces re-runs c from scratch and reports whether o gives a finding titled title.
func (w *worker) reproduces(ctx context.Context, o fuzz.Oracle, c *fuzz.Case, title string) bool {
	return w.rerun(ctx, o, c, title) != nil
}

// rerun re-runs c from scratch and returns o's finding if it is titled title, nil otherwise.
func (w *worker) rerun(ctx context.Context, o fuzz.Oracle, c *fuzz.Case, title string) *fuzz.Finding {
	runs, err := w.exec.runFresh(ctx, c)
	if err != nil {
		return nil
	}
	v := o.Check(c, runs)
	if v.Finding == nil || v.Finding.Title != title {
		return nil
	}
	v.Finding.Case = c // the case that was run, whatever the oracle kept
	return v.Finding
}

// reduce shrinks f's case while the same oracle keeps giving the same title, then replays the
// result once more. It returns the oracle's finding on the reduced case, or nil and a note when
// the reduced case did not replay.
func (w *worker) reduce(ctx context.Context, o fuzz.Oracle, f *fuzz.Finding) (*fuzz.Finding, string) {
	ctx, cancel := context.WithTimeout(ctx, w.cfg.ReduceTime)
	defer cancel()
	keep := func(ctx context.Context, c *fuzz.Case) bool { return w.reproduces(ctx, o, c, f.Title) }
	c := f.Case
	if pruned := keepRoles(c, f.Roles); pruned != nil && keep(ctx, pruned) {
		c = pruned
	}
	var red *fuzz.Case
	var err error
	if g, ok := w.cfg.Reducer.(fuzz.GuidedReducer); ok && f.Runs != nil {
		red, err = g.ReduceGuided(ctx, c.Clone(), f, keep)
	} else {
		red, err = w.cfg.Reducer.Reduce(ctx, c.Clone(), keep)
	}
	if err != nil || red == nil {
		red = c
	}
	got := w.rerun(w.parent, o, red, f.Title)
	if got == nil {
		return nil, "the reduced case did not replay; kept the original"
	}
	return got, ""
}

// keepRoles returns a copy of c with only the queries of the given roles, or nil if that
// would change nothing.
func keepRoles(c *fuzz.Case, roles []string) *fuzz.Case {
	if len(roles) == 0 {
		return nil
	}
	d := c.Clone()
	d.Queries = d.Queries[:0]
	for _, q := range c.Queries {
		if slices.Contains(roles, q.Role) {
			d.Queries = append(d.Queries, q)
		}
	}
	if len(d.Queries) == len(c.Queries) || len(d.Queries) == 0 {
		return nil
	}
	return d
}

// writeCounts writes a line of counts by reason, sorted, if there are any.
func writeCounts(b *strings.Builder, what string, counts map[string]int64) {
	if len(counts) == 0 {
		return
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("  " + what + ":")
	for _, k := range keys {
		fmt.Fprintf(b, " [%s] %d", k, counts[k])
	}
	b.WriteString("\n")
}

// SummaryText formats the end-of-campaign summary for people.
func SummaryText(s *Summary, dir string) string {
	var b strings.Builder
	t := &s.Totals
	fmt.Fprintf(&b, "polyfuzz %s: stopped (%s) after %s", s.Info.Domain, s.Info.Stop,
		time.Duration(t.Elapsed*float64(time.Second)).Round(time.Millisecond))
	if s.Info.Budget > 0 {
		fmt.Fprintf(&b, " of a %s budget", time.Duration(s.Info.Budget*float64(time.Second)))
	}
	if s.Info.TestLimit > 0 {
		fmt.Fprintf(&b, ", %d of %d tests (%.0f%%)", t.Tests, s.Info.TestLimit, 100*ratio(t.Tests, s.Info.TestLimit))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "  seed %d, %d workers, targets:", s.Info.Seed, s.Info.Workers)
	for _, ti := range s.Info.Targets {
		fmt.Fprintf(&b, " %s %s", ti.Name, ti.Version)
	}
	fmt.Fprintf(&b, "\n  tests %d (%.0f/s), checks %d (%.0f/s, %.0f/s per worker)\n", t.Tests, t.TestsPerSec,
		t.Checks, t.ChecksPerSec, t.ChecksPerSec/float64(max(1, s.Info.Workers)))
	fmt.Fprintf(&b, "  statements %d, valid %.1f%%, harness efficiency %.2f (time in targets / worker time)\n",
		t.Statements, 100*ratio(t.Valid, t.Statements), t.Efficiency)
	writeCounts(&b, "skipped checks", t.Skips)
	writeCounts(&b, "notes", t.Notes)
	bugs := groupBugs(filepath.Join(dir, "findings"), s.Seen)
	fmt.Fprintf(&b, "  findings: %d new, %d hit in all (%d hits), %d bug(s)\n", len(s.New), len(s.Seen), t.Hits, len(bugs))
	for i, bug := range bugs {
		// One bug, one entry: its findings (titles) under it, most hit first.
		what := "bug " + bug.Signature.ID()
		if f := bug.Signature.Fault; f != "" {
			what = "planted fault " + f + " in " + bug.Signature.Engines + ", not an engine bug"
		}
		fmt.Fprintf(&b, "  bug %d: %s (%d title(s), %d hits)\n", i+1, what, len(bug.Records), bug.Hits)
		for _, r := range bug.Records {
			mark := " "
			if slices.Contains(s.New, r) {
				mark = "+"
			}
			fmt.Fprintf(&b, "  %s %-16s %-12s hits %-6d %s\n", mark, r.Kind, r.Status, r.Hits, r.Title)
			fmt.Fprintf(&b, "      %s\n", filepath.Join(dir, "findings", r.Hash))
		}
	}
	fmt.Fprintf(&b, "  report: %s\n", filepath.Join(dir, "report.html"))
	return b.String()
}
