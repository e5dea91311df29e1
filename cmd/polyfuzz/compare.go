package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
)

const compareSynopsis = `usage: polyfuzz compare --domain sql|smt|graph|datalog --oracle A,B,... [--style S,T,...] [flags]

Runs one campaign per oracle style (or per generator style, when --style names several, as
'polyfuzz compare --domain datalog --style queryfuzz,dlsmith --oracle metamorphic' does) and repetition, each with the same budget, the same engines and
the same seed schedule (repetition r of every style uses seed --seed + r), and prints a table:
checks per second, valid-statement rate, skip rate and its main reasons, unique findings, and
time to the first finding, per oracle (mean and spread over the repetitions). OUT/compare.json and
OUT/compare.md hold the same; each campaign's own output is in OUT/ORACLE/REP/. Every flag of the
domain's own command (polyfuzz DOMAIN --help) applies to each campaign.`

// compareRun is one campaign of a comparison.
type compareRun struct {
	Oracle       string           `json:"oracle"`
	Rep          int              `json:"rep"`
	Seed         uint64           `json:"seed"`
	Tests        int64            `json:"tests"`
	Checks       int64            `json:"checks"`
	Seconds      float64          `json:"seconds"`
	ChecksPerSec float64          `json:"checks_per_s"`
	ValidRate    float64          `json:"valid_rate"`
	SkipRate     float64          `json:"skip_rate"`
	Skips        map[string]int64 `json:"skips,omitempty"`
	Findings     []string         `json:"findings,omitempty"`
	// FirstFinding is the time from the start to the first finding in seconds, -1 for none.
	FirstFinding float64 `json:"first_finding_s"`
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
	fs := domain.NewFlags("compare", compareSynopsis, stdout, stderr)
	d, derr := findDomain(compareDomain(args))
	if derr != nil {
		d = domains[0] // the flags of some domain, so that --help and the error below work
	}
	fs.String("domain", "sql", "the domain: sql, smt, graph or datalog")
	var ef engineFlags
	ef.register(fs, d)
	fs.Var(&ef.oracles, "oracles", "the same as --oracle: the oracle styles to compare")
	var apply func(*domain.Settings, domain.Spec) error
	if d.Flags != nil {
		apply = d.Flags(fs.FlagSet)
	}
	budget := fs.Duration("budget", time.Minute, "time budget of each campaign")
	tests := fs.Int64("tests", 0, "stop each campaign after this many tests (0: budget only)")
	repeat := fs.Int("repeat", 3, "repetitions of each style, with seeds --seed, --seed+1, ...")
	var seed domain.Seed
	fs.Var(&seed, "seed", "seed of the first repetition (default: random, printed)")
	workers := fs.Int("j", 1, "parallel workers of each campaign")
	out := fs.String("out", "polyfuzz-compare", "output directory")
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	switch {
	case derr != nil:
		return fs.Fail(domain.ExitUsage, "%v", derr)
	case fs.NArg() > 0:
		return fs.Fail(domain.ExitUsage, "unexpected argument %q", fs.Arg(0))
	case len(ef.oracles) == 0:
		return fs.Fail(domain.ExitUsage, "--oracle is required, e.g. --oracle %s", strings.Join(d.DefaultOracles, ","))
	case *repeat < 1:
		return fs.Fail(domain.ExitUsage, "--repeat must be at least 1 (got %d)", *repeat)
	case *budget <= 0 && *tests <= 0:
		return fs.Fail(domain.ExitUsage, "give each campaign a --budget or --tests")
	case *workers < 1 || *workers > maxWorkers:
		return fs.Fail(domain.ExitUsage, "-j must be between 1 and %d (got %d)", maxWorkers, *workers)
	case strings.TrimSpace(*out) == "":
		return fs.Fail(domain.ExitUsage, "--out must name a directory (got an empty one)")
	}
	vs := compareVariants(ef.styles, ef.oracles)
	var labels []string
	for _, v := range vs {
		labels = append(labels, v.label)
	}
	command := domain.CommandLine(append([]string{"compare"}, args...))
	first := seed.Get()
	fmt.Fprintf(stderr, "polyfuzz compare: %s, styles %s, seeds %d to %d\n", d.Name, strings.Join(labels, ","), first, first+uint64(*repeat)-1)
	var runs []compareRun
	for _, v := range vs {
		for rep := range *repeat {
			ef.styles = nil // the settings of one variant: its style alone
			if v.style != "" {
				ef.styles = domain.List{v.style}
			}
			s, err := ef.settings(d, apply, []string{v.oracle})
			if err != nil {
				return fs.Fail(domain.ExitUsage, "%v", err)
			}
			st, err := d.Setup(ctx, s, nil)
			if err != nil {
				return fs.Fail(domain.ExitUsage, "%s: %v", v.label, err)
			}
			dir := filepath.Join(*out, filepath.FromSlash(v.label), fmt.Sprint(rep+1))
			store, err := campaign.OpenStore(dir, command)
			if err != nil {
				return fs.Fail(domain.ExitFailure, "%v", err)
			}
			cfg := campaign.Config{Command: command, Domain: d.Name, Gen: st.Gen, Oracles: st.Oracles, Format: st.Format,
				Options: s.Encode(), Open: numbered(st), Fault: s.Fault(), Polyfuzz: version,
				Store: store, Seed: first + uint64(rep), Budget: *budget, Tests: *tests, Workers: *workers, Confirm: 1,
				Replay: func(dir string) string { return "polyfuzz replay " + domain.ShellJoin([]string{dir}) }}
			if st.MaxWorkers > 0 {
				cfg.Workers = min(cfg.Workers, st.MaxWorkers)
			}
			fmt.Fprintf(stderr, "polyfuzz compare: %s, repetition %d of %d, seed %d\n", v.label, rep+1, *repeat, cfg.Seed)
			sum, err := campaign.Run(ctx, cfg)
			store.Close()
			if err != nil {
				return fs.Fail(domain.ExitFailure, "%s: %v", v.label, err)
			}
			runs = append(runs, summarizeRun(v.label, v.oracle, rep+1, cfg.Seed, sum))
			if ctx.Err() != nil {
				break
			}
		}
	}
	table := compareTable(labels, runs)
	fmt.Fprint(stdout, table)
	b, _ := json.MarshalIndent(runs, "", "  ")
	if err := os.WriteFile(filepath.Join(*out, "compare.json"), append(b, '\n'), 0o644); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	md := "# polyfuzz compare\n\n`" + command + "`\n\n" + table
	if err := os.WriteFile(filepath.Join(*out, "compare.md"), []byte(md), 0o644); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "\nreport: %s\n", filepath.Join(*out, "compare.md"))
	if ctx.Err() != nil {
		return domain.ExitInterrupt
	}
	return domain.ExitOK
}

// variant is one row of a comparison: a generator style (empty for the domain's default) and
// an oracle, and its label in the table.
type variant struct {
	label, style, oracle string
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

// summarizeRun reduces one campaign's summary to the figures a comparison shows; label names its
// row, oracle the oracle whose skips it counts.
func summarizeRun(label, oracle string, rep int, seed uint64, sum *campaign.Summary) compareRun {
	t := sum.Totals
	r := compareRun{Oracle: label, Rep: rep, Seed: seed, Tests: t.Tests, Checks: t.Checks, Seconds: t.Elapsed,
		Skips: map[string]int64{}, FirstFinding: -1}
	if t.Elapsed > 0 {
		r.ChecksPerSec = float64(t.Checks) / t.Elapsed
	}
	if t.Statements > 0 {
		r.ValidRate = float64(t.Valid) / float64(t.Statements)
	}
	var skipped int64
	for k, v := range t.Skips {
		if rest, ok := strings.CutPrefix(k, oracle+": "); ok {
			r.Skips[rest] += v
			skipped += v
		}
	}
	if n := skipped + t.Checks; n > 0 {
		r.SkipRate = float64(skipped) / float64(n)
	}
	for _, rec := range sum.Seen {
		r.Findings = append(r.Findings, rec.Title)
		if d := rec.FirstSeen.Sub(sum.Info.Start).Seconds(); r.FirstFinding < 0 || d < r.FirstFinding {
			r.FirstFinding = max(d, 0)
		}
	}
	sort.Strings(r.Findings)
	return r
}

// compareTable prints one row per style, in the given order, as a Markdown table.
func compareTable(styles []string, runs []compareRun) string {
	var b strings.Builder
	b.WriteString("| style | runs | checks/s | valid statements | skipped checks | main skip reasons | unique findings | first finding |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, style := range styles {
		var rate, valid, skip, first []float64
		skips := map[string]int64{}
		titles := map[string]bool{}
		n := 0
		for _, r := range runs {
			if r.Oracle != style {
				continue
			}
			n++
			rate, valid, skip = append(rate, r.ChecksPerSec), append(valid, 100*r.ValidRate), append(skip, 100*r.SkipRate)
			if r.FirstFinding >= 0 {
				first = append(first, r.FirstFinding)
			}
			for k, v := range r.Skips {
				skips[k] += v
			}
			for _, t := range r.Findings {
				titles[t] = true
			}
		}
		firstText := "none"
		if len(first) > 0 {
			sort.Float64s(first)
			firstText = fmt.Sprintf("%.1f s (median of %d of %d runs)", first[len(first)/2], len(first), n)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s%% | %s%% | %s | %d | %s |\n", style, n, meanSD(rate, "%.0f"),
			meanSD(valid, "%.1f"), meanSD(skip, "%.1f"), domain.TopReasons(skips, 3), len(titles), firstText)
	}
	return b.String()
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
