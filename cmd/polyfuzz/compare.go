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
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/smtgen"
	"github.com/polyfuzz/polyfuzz/sqlgen"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

const compareSynopsis = `usage: polyfuzz compare --domain sql|smt --oracles A,B,... [flags]

Runs one campaign per oracle style and repetition, each with the same budget, the same engine and
the same seed schedule (repetition r of every style uses seed --seed + r), and prints a table:
checks per second, valid-statement rate, skip rate and its main reasons, unique findings, and
time to the first finding, per oracle (mean and spread over the repetitions). OUT/compare.json and
OUT/compare.md hold the same; each campaign's own output is in OUT/ORACLE/REP/.`

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

func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("compare", compareSynopsis, stderr)
	domain := fs.String("domain", "sql", "domain: sql or smt")
	oracleList := fs.String("oracles", "", "comma-separated oracle styles to compare (sql: "+names(sqlOracles)+
		"; smt: "+names(smtOracles)+")")
	budget := fs.Duration("budget", time.Minute, "time budget of each campaign")
	tests := fs.Int64("tests", 0, "stop each campaign after this many tests (0: budget only)")
	repeat := fs.Int("repeat", 3, "repetitions of each style, with seeds --seed, --seed+1, ...")
	seed := fs.Uint64("seed", 1, "seed of the first repetition")
	workers := fs.Int("j", 1, "parallel workers of each campaign")
	out := fs.String("out", "polyfuzz-compare", "output directory")
	dbms := fs.String("dbms", "sqlite", "sql: the engine, or several comma-separated for the differential (server DSNs from POLYFUZZ_<ENGINE>_DSN)")
	var solvers listFlag
	fs.Var(&solvers, "solver", "smt: solver, repeatable (default z3)")
	seeds := fs.String("seeds", "", "smt: folder of seed files (default: the project's own)")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "polyfuzz compare: "+format+"\n", a...)
		return code
	}
	var styles []string
	for _, o := range strings.Split(*oracleList, ",") {
		if o = strings.TrimSpace(o); o != "" {
			styles = append(styles, o)
		}
	}
	switch {
	case fs.NArg() > 0:
		return fail(2, "unexpected argument %q", fs.Arg(0))
	case len(styles) == 0:
		return fail(2, "--oracles is required, e.g. --oracles norec,tlp-where")
	case *repeat < 1:
		return fail(2, "--repeat must be at least 1 (got %d)", *repeat)
	case *budget <= 0 && *tests <= 0:
		return fail(2, "give each campaign a --budget or --tests")
	case *domain != "sql" && *domain != "smt":
		return fail(2, "unknown --domain %q (known: sql, smt)", *domain)
	}
	if len(solvers) == 0 {
		solvers = []string{"z3"}
	}
	// configure returns the domain's part of one style's campaign.
	configure := func(style string) (campaign.Config, error) {
		var cfg campaign.Config
		switch *domain {
		case "sql":
			specs, err := sqlSpecsOf(newDBMSList(strings.Split(*dbms, ",")...), targetSpec{Timeout: 2 * time.Second, Isolate: true})
			if err != nil {
				return cfg, err
			}
			var gen sqlgen.Options
			if style != "error" {
				gen.Oracles = []string{style}
			}
			s, err := newSQLSetup(gen, []string{style}, specs)
			if err != nil {
				return cfg, err
			}
			var worker atomic.Int64
			cfg.Gen, cfg.Oracles, cfg.Format, cfg.Options = s.gen, s.oracles, s.format, specs.options()
			cfg.Open = specs.open(func() int { return int(worker.Add(1) - 1) })
		case "smt":
			spec := smtSpec{Solvers: solvers, Timeout: 10 * time.Second, Seeds: *seeds, Ref: "z3"}
			s, err := newSMTSetup(spec, smtgen.Options{}, []string{style, "error"}, func(string) {})
			if err != nil {
				return cfg, err
			}
			cfg.Gen, cfg.Oracles, cfg.Format, cfg.Options, cfg.Open = s.gen, s.oracles, s.format, spec.options(), spec.openSolvers
		}
		cfg.Domain = *domain
		return cfg, nil
	}
	var runs []compareRun
	for _, style := range styles {
		for rep := range *repeat {
			cfg, err := configure(style)
			if err != nil {
				return fail(2, "%v", err)
			}
			dir := filepath.Join(*out, style, fmt.Sprint(rep+1))
			store, err := campaign.NewStore(dir)
			if err != nil {
				return fail(1, "%v", err)
			}
			cfg.Command = sqlserver.Redact("polyfuzz compare " + strings.Join(args, " "))
			cfg.Store, cfg.Seed, cfg.Budget, cfg.Tests, cfg.Workers = store, *seed+uint64(rep), *budget, *tests, *workers
			cfg.Confirm, cfg.Replay = 1, func(dir string) string { return "polyfuzz replay " + dir }
			fmt.Fprintf(stderr, "polyfuzz compare: %s, repetition %d of %d, seed %d\n", style, rep+1, *repeat, cfg.Seed)
			sum, err := campaign.Run(ctx, cfg)
			if err != nil {
				return fail(1, "%s: %v", style, err)
			}
			runs = append(runs, summarizeRun(style, rep+1, cfg.Seed, sum))
			if ctx.Err() != nil {
				break
			}
		}
	}
	table := compareTable(styles, runs)
	fmt.Fprint(stdout, table)
	b, _ := json.MarshalIndent(runs, "", "  ")
	if err := os.WriteFile(filepath.Join(*out, "compare.json"), append(b, '\n'), 0o644); err != nil {
		return fail(1, "%v", err)
	}
	md := "# polyfuzz compare\n\n`polyfuzz compare " + strings.Join(args, " ") + "`\n\n" + table
	if err := os.WriteFile(filepath.Join(*out, "compare.md"), []byte(md), 0o644); err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintf(stdout, "\nreport: %s\n", filepath.Join(*out, "compare.md"))
	return 0
}

// summarizeRun reduces one campaign's summary to the figures a comparison shows.
func summarizeRun(style string, rep int, seed uint64, sum *campaign.Summary) compareRun {
	t := sum.Totals
	r := compareRun{Oracle: style, Rep: rep, Seed: seed, Tests: t.Tests, Checks: t.Checks, Seconds: t.Elapsed,
		Skips: map[string]int64{}, FirstFinding: -1}
	if t.Elapsed > 0 {
		r.ChecksPerSec = float64(t.Checks) / t.Elapsed
	}
	if t.Statements > 0 {
		r.ValidRate = float64(t.Valid) / float64(t.Statements)
	}
	var skipped int64
	for k, v := range t.Skips {
		if strings.HasPrefix(k, style+": ") {
			r.Skips[strings.TrimPrefix(k, style+": ")] += v
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
	b.WriteString("| oracle | runs | checks/s | valid statements | skipped checks | main skip reasons | unique findings | first finding |\n")
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
			meanSD(valid, "%.1f"), meanSD(skip, "%.1f"), topReasons(skips, 3), len(titles), firstText)
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

// topReasons lists the n most frequent reasons (all when n is 0) with their counts, most frequent
// first.
func topReasons(m map[string]int64, n int) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for i, k := range keys {
		if n > 0 && i == n {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
