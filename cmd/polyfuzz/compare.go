package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/bench"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/targets/fault"
)

const compareSynopsis = `usage: polyfuzz compare --domain sql|smt|graph|datalog --oracle A,B,... [--styles S,T,...] [--fault F | --bugs SET] [flags]

Runs one campaign per oracle style (or per generator style, when --styles names several, as
'polyfuzz compare --domain datalog --styles queryfuzz,dlsmith --oracle metamorphic' does; without
--oracle each generator style runs with its own default oracles) and repetition, each with the
same budget, the same engines and the same seed schedule (repetition r of every style uses seed --seed + r), and prints a table:
checks per second, valid-statement rate, skip rate and its main reasons, unique findings, time to
the first finding, and the known bugs each style detected and how fast. The known bugs are a
fault planted with --fault, or bugs of the benchmark (--bugs; polyfuzz bench list shows them): a
finding detects a bug when it reproduces with the bug and not without it. OUT/compare.json and
OUT/compare.md hold the same; each campaign's own output is in OUT/STYLE/REP/. Every flag of the
domain's own command (polyfuzz DOMAIN --help) applies to each campaign. polyfuzz bench runs the
same trials with the full statistics.`

// compareOwn are compare's own flags.
type compareOwn struct {
	budget time.Duration
	tests  int64
	repeat int
	seed   domain.Seed
	jobs   int
	out    string
	bugs   string
}

// compareFlags registers compare's flags for domain d on a new flag set.
func compareFlags(d *domain.Domain, stdout, stderr io.Writer) (*domain.Flags, *compareOwn, *engineFlags, func(*domain.Settings, domain.Spec) error) {
	fs := domain.NewFlags("compare", compareSynopsis, stdout, stderr)
	fs.String("domain", "sql", "the domain: sql, smt, graph or datalog")
	var ef engineFlags
	ef.register(fs, d)
	fs.Var(&ef.oracles, "oracles", "the same as --oracle: the oracle styles to compare")
	if len(d.Styles) > 0 {
		fs.Var(&ef.styles, "styles", "the same as --style: the generator styles to compare (each with its own\n"+
			"      default oracles when --oracle is not given)")
	}
	var apply func(*domain.Settings, domain.Spec) error
	if d.Flags != nil {
		apply = d.Flags(fs.FlagSet)
	}
	c := &compareOwn{}
	fs.DurationVar(&c.budget, "budget", time.Minute, "time budget of each campaign")
	fs.Int64Var(&c.tests, "tests", 0, "stop each campaign after this many tests (0: budget only)")
	fs.IntVar(&c.repeat, "repeat", 3, "repetitions of each style, with seeds --seed, --seed+1, ...")
	fs.Var(&c.seed, "seed", "seed of the first repetition (default: random, printed)")
	fs.IntVar(&c.jobs, "j", 1, "parallel workers of each campaign")
	fs.StringVar(&c.out, "out", "polyfuzz-compare", "output directory")
	fs.StringVar(&c.bugs, "bugs", "", "known bugs of the benchmark to plant or run on: all, real, planted or ids (instead of --fault)")
	return fs, c, &ef, apply
}

// compareDomain finds the --domain of a compare command line before its flags are parsed, so that
// the domain's own flags can be registered; "sql" when none is given.
func compareDomain(args []string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		for _, p := range []string{"--domain=", "-domain="} {
			if v, ok := strings.CutPrefix(a, p); ok {
				return v
			}
		}
		if (a == "--domain" || a == "-domain") && i+1 < len(args) {
			return args[i+1]
		}
	}
	return "sql"
}

func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	d, derr := findDomain(compareDomain(args))
	if derr != nil {
		d = domains[0] // the flags of some domain, so that --help and the error below work
	}
	fs, c, ef, _ := compareFlags(d, stdout, stderr)
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	switch {
	case derr != nil:
		return fs.Fail(domain.ExitUsage, "%v", derr)
	case fs.NArg() > 0:
		return fs.Fail(domain.ExitUsage, "unexpected argument %q", fs.Arg(0))
	case len(ef.oracles) == 0 && len(ef.styles) < 2:
		return fs.Fail(domain.ExitUsage, "--oracle is required unless --styles names several styles, e.g. --oracle %s", strings.Join(d.DefaultOracles, ","))
	case c.repeat < 1:
		return fs.Fail(domain.ExitUsage, "--repeat must be at least 1 (got %d)", c.repeat)
	case c.budget <= 0 && c.tests <= 0:
		return fs.Fail(domain.ExitUsage, "give each campaign a --budget or --tests")
	case c.jobs < 1 || c.jobs > maxWorkers:
		return fs.Fail(domain.ExitUsage, "-j must be between 1 and %d (got %d)", maxWorkers, c.jobs)
	case strings.TrimSpace(c.out) == "":
		return fs.Fail(domain.ExitUsage, "--out must name a directory (got an empty one)")
	case c.bugs != "" && ef.fault != "":
		return fs.Fail(domain.ExitUsage, "give --fault or --bugs, not both")
	}
	vs := compareVariants(ef.styles, ef.oracles)
	byLabel := map[string]variant{}
	var labels []string
	for _, v := range vs {
		labels = append(labels, v.label)
		byLabel[v.label] = v
	}
	// Check the settings of every variant before the first campaign.
	for _, v := range vs {
		if _, err := variantSettings(d, args, v); err != nil {
			return fs.Fail(domain.ExitUsage, "%v", err)
		}
	}
	var bugs []bench.Bug
	var err error
	switch {
	case c.bugs != "":
		bugs, err = bench.Select(d.Name, c.bugs)
	case ef.fault != "":
		bugs, err = faultBugs(d, ef.fault)
	}
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	plan := bench.Plan{Command: domain.CommandLine(append([]string{"compare"}, args...)), Domain: d.Name, Styles: labels,
		Groups: bench.Groups(bugs, false), Trials: c.repeat, Budget: c.budget.Seconds(), Tests: c.tests, Seed: c.seed.Get()}
	if len(bugs) == 0 {
		plan.Groups = map[string][]string{"": nil}
	}
	for _, b := range bugs {
		plan.Bugs = append(plan.Bugs, b.ID)
	}
	r := &benchRun{d: d, args: args, plan: plan, bugs: bugs, stderr: stderr, workers: c.jobs, tests: c.tests,
		flags: func() (*domain.Flags, *engineFlags, func(*domain.Settings, domain.Spec) error) {
			fs, _, ef, apply := compareFlags(d, io.Discard, io.Discard)
			return fs, ef, apply
		},
		resolve: func(label string) (string, []string, []string) {
			v := byLabel[label]
			return v.style, v.oracles(), nil
		},
		dir: func(t bench.Trial) string {
			return filepath.Join(filepath.FromSlash(t.Style), slug(t.Group), fmt.Sprint(t.Index+1))
		}}
	if len(bugs) == 0 || len(plan.Groups) == 1 {
		r.dir = func(t bench.Trial) string { return filepath.Join(filepath.FromSlash(t.Style), fmt.Sprint(t.Index+1)) }
	}
	if len(bugs) > 0 {
		if err := r.check(ctx); err != nil {
			return fs.Fail(domain.ExitFailure, "%v", err)
		}
	}
	// A comparison starts afresh: the journal of an earlier one in OUT is replaced.
	os.Remove(filepath.Join(c.out, "plan.json"))
	os.Remove(filepath.Join(c.out, "trials.jsonl"))
	j, err := bench.OpenJournal(c.out, plan)
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	defer j.Close()
	r.journal = j
	fmt.Fprintf(stderr, "polyfuzz compare: %s, styles %s, seeds %d to %d\n", d.Name, strings.Join(labels, ","), plan.Seed, plan.Seed+uint64(c.repeat)-1)
	if err := r.run(ctx, 1); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	for _, res := range j.Results {
		if res.Error != "" {
			return fs.Fail(domain.ExitFailure, "%s: %s", res.Style, res.Error)
		}
	}
	table := compareTable(labels, plan, j.Results)
	fmt.Fprint(stdout, table)
	b, _ := json.MarshalIndent(j.Results, "", "  ")
	if err := os.WriteFile(filepath.Join(c.out, "compare.json"), append(b, '\n'), 0o644); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	md := "# polyfuzz compare\n\n`" + plan.Command + "`\n\n" + table
	if err := os.WriteFile(filepath.Join(c.out, "compare.md"), []byte(md), 0o644); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "\nreport: %s\n", filepath.Join(c.out, "compare.md"))
	if ctx.Err() != nil {
		return domain.ExitInterrupt
	}
	return domain.ExitOK
}

// variantSettings checks the settings of one variant of a comparison.
func variantSettings(d *domain.Domain, args []string, v variant) (*domain.Settings, error) {
	fs, _, ef, apply := compareFlags(d, io.Discard, io.Discard)
	if err := fs.FlagSet.Parse(args); err != nil {
		return nil, err
	}
	ef.styles = nil
	if v.style != "" {
		ef.styles = domain.List{v.style}
	}
	s, err := ef.settings(d, apply, v.oracles())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", v.label, err)
	}
	return s, nil
}

// faultBugs turns a --fault value into the known bugs of a comparison: one bug planted as given
// in the first engine, or each plant of a list of planted bugs.
func faultBugs(d *domain.Domain, spec string) ([]bench.Bug, error) {
	if err := d.CheckFault(spec); err != nil {
		return nil, err
	}
	if !fault.IsPlants(spec) {
		return []bench.Bug{bench.GivenFault(spec)}, nil
	}
	plants, err := fault.ParsePlants(spec)
	if err != nil {
		return nil, err
	}
	var out []bench.Bug
	for i, p := range plants {
		if p.ID == "" {
			p.ID = fmt.Sprintf("fault-%d", i+1)
		}
		out = append(out, bench.Bug{ID: p.ID, Domain: d.Name, Origin: bench.Planted, Plant: &p})
	}
	return out, nil
}

// variant is one row of a comparison: a generator style (empty for the domain's default) and
// an oracle (empty for the style's default oracles), and its label in the table.
type variant struct {
	label, style, oracle string
}

// oracles returns the variant's oracle list: nil for the style's defaults.
func (v variant) oracles() []string {
	if v.oracle == "" {
		return nil
	}
	return []string{v.oracle}
}

// compareVariants returns the rows of a comparison: one per oracle, or one per generator style
// when several are given (one per style and oracle when both vary).
func compareVariants(styles, oracles []string) []variant {
	if len(styles) <= 1 {
		var out []variant
		for _, o := range oracles {
			v := variant{label: o, oracle: o}
			if len(styles) == 1 {
				v.style = styles[0]
			}
			out = append(out, v)
		}
		return out
	}
	var out []variant
	if len(oracles) == 0 {
		oracles = []string{""}
	}
	for _, st := range styles {
		for _, o := range oracles {
			v := variant{label: st, style: st, oracle: o}
			if len(oracles) > 1 {
				v.label = st + "/" + o
			}
			out = append(out, v)
		}
	}
	return out
}

// compareTable prints one row per style, in the given order, as a Markdown table: throughput,
// validity, skips, findings and, when the comparison has known bugs, the bugs each style
// detected (in how many runs) and the median time to its first detection.
func compareTable(styles []string, plan bench.Plan, results []bench.Result) string {
	var b strings.Builder
	b.WriteString("| style | runs | checks/s | valid statements | skipped checks | main skip reasons | unique findings | first finding | bugs detected | first detection |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, style := range styles {
		var rate, valid, skip, first, firstBug []float64
		skips := map[string]int64{}
		titles := map[string]bool{}
		bugRuns := map[string]int{}
		n := 0
		for _, r := range results {
			if r.Style != style {
				continue
			}
			n++
			for k, v := range r.Skips {
				if _, reason, ok := strings.Cut(k, ": "); ok && !strings.HasPrefix(k, "error: ") {
					skips[reason] += v
				}
			}
			rate, valid, skip = append(rate, r.ChecksPerSec()), append(valid, 100*r.ValidRate), append(skip, 100*r.SkipRate)
			if r.FirstFinding >= 0 {
				first = append(first, r.FirstFinding)
			}
			for _, t := range r.Findings {
				titles[t] = true
			}
			soonest := math.Inf(1)
			for id, t := range r.Detected {
				bugRuns[id]++
				soonest = math.Min(soonest, t)
			}
			if !math.IsInf(soonest, 1) {
				firstBug = append(firstBug, soonest)
			}
		}
		firstText := median(first, n)
		bugsText, firstBugText := "-", "-"
		if len(plan.Bugs) > 0 {
			var parts []string
			for _, id := range plan.Bugs {
				if k := bugRuns[id]; k > 0 {
					parts = append(parts, fmt.Sprintf("%s (%d/%d)", id, k, n))
				}
			}
			bugsText = fmt.Sprintf("%d of %d", len(parts), len(plan.Bugs))
			if len(parts) > 0 {
				bugsText += ": " + strings.Join(parts, ", ")
			}
			firstBugText = median(firstBug, n)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s%% | %s%% | %s | %d | %s | %s | %s |\n", style, n, meanSD(rate, "%.0f"),
			meanSD(valid, "%.1f"), meanSD(skip, "%.1f"), domain.TopReasons(skips, 3), len(titles), firstText, bugsText, firstBugText)
	}
	return b.String()
}

// median prints the median of the times of the runs that had one, "none" when none did.
func median(xs []float64, runs int) string {
	if len(xs) == 0 {
		return "none"
	}
	return fmt.Sprintf("%.1f s (median of %d of %d runs)", bench.Median(xs), len(xs), runs)
}

// meanSD prints the mean and, for several values, the standard deviation.
func meanSD(xs []float64, f string) string {
	if len(xs) == 0 {
		return "-"
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(len(xs))
	if len(xs) == 1 {
		return fmt.Sprintf(f, m)
	}
	for _, x := range xs {
		sq += (x - m) * (x - m)
	}
	return fmt.Sprintf(f+" ± "+f, m, math.Sqrt(sq/float64(len(xs)-1)))
}
