package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// maxWorkers bounds -j: more workers than this is a mistake, not a campaign.
const maxWorkers = 256

// campaignFlags are the flags every fuzzing command shares: budgets, workers, seeding, output,
// finding handling and progress.
type campaignFlags struct {
	budget        time.Duration
	tests         int64
	workers       int
	seed          domain.Seed
	out           string
	maxFindings   int
	noReduce      bool
	reduceTime    time.Duration
	confirm       int
	failOnFinding bool
	quiet         bool
}

// register defines the flags on fs; unit names what one test is ("test cases", "instances") and
// owns what each worker owns ("its own database").
func (c *campaignFlags) register(fs *domain.Flags, unit, owns string) {
	fs.DurationVar(&c.budget, "budget", 0, "stop after this much time, e.g. 30s, 10m (0: no time limit)")
	fs.Int64Var(&c.tests, "tests", 0, "stop after this many "+unit+" (0: no limit)")
	fs.IntVar(&c.workers, "j", 0, fmt.Sprintf("parallel workers, each with %s (0: one per CPU; at most %d)", owns, maxWorkers))
	fs.Var(&c.seed, "seed", "campaign seed; the same seed and options give the same cases (default: random, printed)")
	fs.StringVar(&c.out, "out", "polyfuzz-out", "output directory for findings, stats and the report (earlier findings are kept;\n"+
		"      one campaign at a time)")
	fs.IntVar(&c.maxFindings, "max-findings", 0, "stop after this many new unique findings (0: no limit)")
	fs.BoolVar(&c.noReduce, "no-reduce", false, "store findings without reducing them")
	fs.DurationVar(&c.reduceTime, "reduce-time", 2*time.Minute, "time limit for reducing one finding")
	fs.IntVar(&c.confirm, "confirm", 3, "re-runs of a new finding's case to measure its reliability (at least 1)")
	fs.BoolVar(&c.failOnFinding, "fail-on-finding", false, "exit with status 3 when the campaign stores a new finding")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress output, only the summary")
}

// check validates the flags.
func (c *campaignFlags) check() error {
	switch {
	case c.budget < 0:
		return fmt.Errorf("--budget must not be negative (got %s); use e.g. --budget 1m", c.budget)
	case c.tests < 0:
		return fmt.Errorf("--tests must not be negative (got %d)", c.tests)
	case c.workers < 0 || c.workers > maxWorkers:
		return fmt.Errorf("-j must be between 0 (one per CPU) and %d (got %d)", maxWorkers, c.workers)
	case strings.TrimSpace(c.out) == "":
		return fmt.Errorf("--out must name a directory (got an empty one); e.g. --out polyfuzz-out")
	case c.maxFindings < 0:
		return fmt.Errorf("--max-findings must not be negative (got %d)", c.maxFindings)
	case c.reduceTime <= 0:
		return fmt.Errorf("--reduce-time must be positive (got %s); use --no-reduce to store findings unreduced", c.reduceTime)
	case c.confirm < 1:
		return fmt.Errorf("--confirm must be at least 1 (got %d)", c.confirm)
	}
	return nil
}

// config fills the shared fields of a campaign configuration.
func (c *campaignFlags) config(store *campaign.Store, stderr io.Writer) campaign.Config {
	cfg := campaign.Config{Store: store, Seed: c.seed.Get(), Budget: c.budget, Tests: c.tests, MaxFindings: c.maxFindings,
		Workers: c.workers, Confirm: c.confirm, ReduceTime: c.reduceTime, ProgressEvery: time.Minute,
		Replay: func(dir string) string { return "polyfuzz replay " + domain.ShellJoin([]string{dir}) }, Polyfuzz: version}
	if !c.quiet {
		cfg.Progress = stderr
		cfg.Live = isTerminal(stderr) && os.Getenv("CI") == ""
	}
	return cfg
}

// engineFlags are the flags that say which engines and oracles a command runs, in every domain.
type engineFlags struct {
	engines domain.Repeated
	oracles domain.List
	timeout time.Duration
	fault   string
	force   bool
	gen     string
	styles  domain.List
}

// register defines the flags of domain d on fs.
func (e *engineFlags) register(fs *domain.Flags, d *domain.Domain) {
	help := "engine to test, NAME, NAME=DSN, NAME@VERSION or NAME=lib:PATH, repeatable: " + d.EngineNames() + " (default " + d.DefaultEngine + ")" +
		d.VersionNotes()
	fs.Var(&e.engines, d.EngineFlag, help)
	if d.EngineFlag != "engine" {
		fs.Var(&e.engines, "engine", "the same as --"+d.EngineFlag)
	}
	fs.Var(&e.oracles, "oracle", "oracles, repeatable or comma-separated: "+d.OracleNames()+"\n"+
		"      (default "+strings.Join(d.DefaultOracles, ",")+"; error is always on; diff needs two engines)")
	fs.DurationVar(&e.timeout, "timeout", d.Timeout, "per-statement timeout; "+d.TimeoutHelp)
	fs.StringVar(&e.fault, "fault", "", "plant a known fault KIND:REGEXP in the first engine to prove the oracles fire, e.g.\n"+
		"      '"+d.FaultExample+"' (kinds: drop-row, add-row, new-row, change-value, error, panic, exit, hang"+ownFaults(d)+");\n"+
		"      or a JSON list of planted bugs with conditions and canaries, [{\"id\",\"kind\",\"match\",\"context\",\"reach\",\"find\",\"with\"}]\n"+
		"      (kinds also rewrite and answer; docs/bench.md); its findings are marked as planted")
	fs.BoolVar(&e.force, "force", false, "work in a server database that holds objects polyfuzz did not create (they are left alone,\n"+
		"      but a graph database is emptied)")
	if len(d.Styles) > 0 {
		fs.Var(&e.styles, "style", "generator style: "+d.StyleNames()+"\n"+
			"      (default "+d.Styles[0].Name+")")
	}
	if d.GenDefault != nil {
		fs.StringVar(&e.gen, "gen", "", "generator options in the form polyfuzz prints in campaign.json, e.g.\n"+
			"      '"+d.GenDefault()+"' (keys may be left out)")
	}
}

// ownFaults lists the domain's own fault kinds for --fault's help.
func ownFaults(d *domain.Domain) string {
	var b strings.Builder
	for _, f := range d.Faults {
		b.WriteString(";\n      " + f.Kind + ": " + f.Help)
	}
	return b.String()
}

// settings turns the parsed flags into a campaign's settings: engines (the domain's default when
// none is given), the domain's own flags applied, and the oracles resolved.
func (e *engineFlags) settings(d *domain.Domain, apply func(*domain.Settings, domain.Spec) error, oracles []string) (*domain.Settings, error) {
	if e.timeout <= 0 {
		return nil, fmt.Errorf("--timeout must be positive (got %s)", e.timeout)
	}
	if e.fault != "" {
		if err := d.CheckFault(e.fault); err != nil {
			return nil, err
		}
	}
	base := domain.Spec{Timeout: e.timeout, Fault: e.fault, Force: e.force}
	specs, err := d.EngineArgs(e.engines, base)
	if err != nil {
		return nil, err
	}
	s := &domain.Settings{Engines: specs, Gen: e.gen}
	for _, st := range e.styles {
		if err := d.CheckStyle(st); err != nil {
			return nil, err
		}
	}
	switch {
	case len(e.styles) > 1:
		return nil, fmt.Errorf("--style takes one style here (got %s); polyfuzz compare --style puts several head to head", e.styles.String())
	case len(e.styles) == 1:
		s.Style = e.styles[0]
	}
	if apply != nil {
		if err := apply(s, base); err != nil {
			return nil, err
		}
	}
	if len(s.Engines) == 0 {
		if s.Engines, err = d.EngineArgs([]string{d.DefaultEngine}, base); err != nil {
			return nil, err
		}
	}
	if len(oracles) == 0 {
		oracles = d.StyleOracles(s.Style)
	}
	s.Oracles, err = d.ResolveOracles(oracles, len(s.Engines))
	return s, err
}

// cmdFuzz is "polyfuzz DOMAIN [flags]": a campaign in one domain.
func cmdFuzz(ctx context.Context, d *domain.Domain, args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags(d.Name, d.Synopsis, stdout, stderr)
	var ef engineFlags
	ef.register(fs, d)
	var cf campaignFlags
	cf.register(fs, d.Unit, d.Owns)
	var apply func(*domain.Settings, domain.Spec) error
	if d.Flags != nil {
		apply = d.Flags(fs.FlagSet)
	}
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	err := fs.NoArgs()
	if err == nil {
		err = cf.check()
	}
	var s *domain.Settings
	if err == nil {
		s, err = ef.settings(d, apply, ef.oracles)
	}
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	log := func(line string) {
		if !cf.quiet {
			fmt.Fprintln(stderr, "polyfuzz "+d.Name+": "+domain.Redact(line))
		}
	}
	st, err := d.Setup(ctx, s, log)
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	if st.MaxWorkers > 0 {
		if cf.workers > st.MaxWorkers {
			return fs.Fail(domain.ExitUsage, "%s (got -j %d)", st.WorkersWhy, cf.workers)
		}
		cf.workers = st.MaxWorkers
	}
	ts, err := st.Open(ctx, 0) // fail fast on a missing engine or a bad fault
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	versions := domain.Versions(ts)
	domain.CloseAll(ts)
	command := domain.CommandLine(append([]string{d.Name}, args...))
	store, err := campaign.OpenStore(cf.out, command)
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	defer store.Close()
	for _, w := range store.Warnings() {
		log(w)
	}
	if st.Prepare != nil {
		if err := st.Prepare(cf.out); err != nil {
			return fs.Fail(domain.ExitFailure, "%v", err)
		}
	}
	say := func(line string) { fmt.Fprintln(stderr, "polyfuzz "+d.Name+": "+domain.Redact(line)) } // also with --quiet
	for _, line := range st.Banner {
		say(line)
	}
	cfg := cf.config(store, stderr)
	say(fmt.Sprintf("engines %s, oracles %s, seed %d, out %s", versions, strings.Join(s.Oracles, ","), cfg.Seed, cf.out))
	if f := s.Fault(); f != "" {
		say("planted fault " + f + " in " + s.Engines[0].Engine + ": its findings are marked as planted, not engine bugs")
	}
	cfg.Command, cfg.Domain, cfg.Gen, cfg.Oracles, cfg.Format = command, d.Name, st.Gen, st.Oracles, st.Format
	cfg.Options, cfg.Open, cfg.Fault = s.Encode(), numbered(st), s.Fault()
	if !cf.noReduce {
		cfg.Reducer = st.Reducer
	}
	sum, err := campaign.Run(ctx, cfg)
	if sum != nil {
		fmt.Fprint(stdout, campaign.SummaryText(sum, cf.out))
	}
	switch {
	case err != nil:
		return fs.Fail(domain.ExitFailure, "%v", err)
	case sum.Info.Stop == "interrupted":
		return domain.ExitInterrupt
	case cf.failOnFinding && len(sum.New) > 0:
		return domain.ExitFindings
	}
	return domain.ExitOK
}

// numbered returns a campaign's Open: each call opens the engines of the next worker.
func numbered(st *domain.Setup) func(ctx context.Context) ([]fuzz.Target, error) {
	var worker atomic.Int64
	return func(ctx context.Context) ([]fuzz.Target, error) { return st.Open(ctx, int(worker.Add(1)-1)) }
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
