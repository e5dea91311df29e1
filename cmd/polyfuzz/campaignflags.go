package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// campaignFlags are the flags every fuzzing command shares: budgets, workers, seeding, output,
// finding handling and progress.
type campaignFlags struct {
	budget        time.Duration
	tests         int64
	workers       int
	seed          string
	out           string
	maxFindings   int
	noReduce      bool
	reduceTime    time.Duration
	confirm       int
	failOnFinding bool
	quiet         bool
}

// register defines the flags on fs; unit names what one test is ("test cases", "instances") and
// worker what each worker owns ("its own database").
func (c *campaignFlags) register(fs *flag.FlagSet, unit, worker string) {
	fs.DurationVar(&c.budget, "budget", 0, "stop after this much time, e.g. 30s, 10m (0: no time limit)")
	fs.Int64Var(&c.tests, "tests", 0, "stop after this many "+unit+" (0: no limit)")
	fs.IntVar(&c.workers, "j", 0, "parallel workers, each with "+worker+" (0: one per CPU)")
	fs.StringVar(&c.seed, "seed", "", "campaign seed; the same seed and options give the same cases (default: random, printed)")
	fs.StringVar(&c.out, "out", "polyfuzz-out", "output directory for findings, stats and the report (earlier findings are kept)")
	fs.IntVar(&c.maxFindings, "max-findings", 0, "stop after this many new unique findings (0: no limit)")
	fs.BoolVar(&c.noReduce, "no-reduce", false, "store findings without reducing them")
	fs.DurationVar(&c.reduceTime, "reduce-time", 2*time.Minute, "time limit for reducing one finding")
	fs.IntVar(&c.confirm, "confirm", 3, "re-runs of a new finding's case to measure its reliability")
	fs.BoolVar(&c.failOnFinding, "fail-on-finding", false, "exit with status 3 when the campaign stores a new finding")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress output, only the summary")
}

// check validates the flags and returns the campaign seed (random when --seed is not given).
func (c *campaignFlags) check() (uint64, error) {
	switch {
	case c.budget < 0:
		return 0, fmt.Errorf("--budget must not be negative (got %s); use e.g. --budget 1m", c.budget)
	case c.tests < 0:
		return 0, fmt.Errorf("--tests must not be negative (got %d)", c.tests)
	case c.workers < 0:
		return 0, fmt.Errorf("-j must not be negative (got %d)", c.workers)
	}
	seed := rand.Uint64() >> 1
	if c.seed != "" {
		if _, err := fmt.Sscan(c.seed, &seed); err != nil {
			return 0, fmt.Errorf("--seed must be a non-negative integer (got %q)", c.seed)
		}
	}
	return seed, nil
}

// checkCommand checks what every fuzzing command checks after parsing its flags: no argument
// left over, the campaign flags, a positive timeout. It returns the campaign seed.
func (c *campaignFlags) checkCommand(fs *flag.FlagSet, timeout time.Duration) (uint64, error) {
	if fs.NArg() > 0 {
		return 0, fmt.Errorf("unexpected argument %q (flags start with --; see polyfuzz %s --help)", fs.Arg(0), fs.Name())
	}
	seed, err := c.check()
	if err == nil && timeout <= 0 {
		err = fmt.Errorf("--timeout must be positive (got %s)", timeout)
	}
	return seed, err
}

// genFlag registers --gen, a generator's options in the text form def prints.
func genFlag(fs *flag.FlagSet, def fmt.Stringer) *string {
	return fs.String("gen", "", "generator options in the form polyfuzz prints in campaign.json, e.g.\n"+
		"      '"+def.String()+"' (keys may be left out)")
}

// faultFlag registers --fault, a fault planted in the first engine; example is a spec to show.
func faultFlag(fs *flag.FlagSet, example string) *string {
	return fs.String("fault", "", "inject a known fault KIND:REGEXP into the first engine to prove the oracles fire,\n"+
		"      e.g. '"+example+"' (kinds: drop-row, new-row, add-row, change-value, error, hang)")
}

// genOptions returns def, or the options text parses to when it is not empty.
func genOptions[O any](text string, def O, parse func(string) (O, error)) (O, error) {
	if text == "" {
		return def, nil
	}
	return parse(text)
}

// config fills the shared fields of a campaign configuration; the caller adds the domain's.
func (c *campaignFlags) config(seed uint64, store *campaign.Store, reducer fuzz.Reducer, stderr io.Writer) campaign.Config {
	cfg := campaign.Config{Store: store, Seed: seed, Budget: c.budget, Tests: c.tests, MaxFindings: c.maxFindings,
		Workers: c.workers, Confirm: c.confirm, ReduceTime: c.reduceTime, ProgressEvery: time.Minute,
		Replay: func(dir string) string { return "polyfuzz replay " + dir }}
	if !c.quiet {
		cfg.Progress = stderr
		cfg.Live = isTerminal(stderr) && os.Getenv("CI") == ""
	}
	if !c.noReduce {
		cfg.Reducer = reducer
	}
	return cfg
}

// run runs the campaign, prints its summary and returns the exit code.
func (c *campaignFlags) run(ctx context.Context, cfg campaign.Config, name string, stdout, stderr io.Writer) int {
	sum, err := campaign.Run(ctx, cfg)
	if sum != nil {
		fmt.Fprint(stdout, campaign.SummaryText(sum, c.out))
	}
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz %s: %v\n", name, err)
		return 1
	}
	if c.failOnFinding && len(sum.New) > 0 {
		return 3
	}
	return 0
}
