package oracles

import (
	"fmt"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// NoREC is the Non-optimizing Reference Engine Construction oracle (Rigger and Su, 2020): the
// number of rows an optimizable query fetches with predicate p in WHERE must equal the number of
// rows for which p IS TRUE, counted by an unoptimizable query that evaluates p on every row.
//
// Layout: [fuzz.NoREC]: "norec.opt-count" (one row, one count) or "norec.opt-rows" (rows to
// count), and "norec.unopt" (one row holding the sum; NULL counts as zero). A case of several
// checks holds check k's optimized query under fuzz.CheckRole(role, k), and one sum per check in
// norec.unopt's row.
type NoREC struct{}

// Name returns "norec".
func (NoREC) Name() string { return "norec" }

// Check compares the counts on every run, for each check of the case: a case of several checks
// holds one optimized query per check (fuzz.CheckRole) and one unoptimized query with a sum per
// check, in the same order.
func (o NoREC) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	ui := queryIndex(c, fuzz.NoREC.Role("unopt"))
	if ui < 0 {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	n := checkCount(c, fuzz.NoREC)
	var m checks
	for k := range n {
		m.add(o.check(c, runs, k, n, ui))
	}
	return m.verdict()
}

// check compares the optimized query of check k with the k-th sum of the unoptimized query at
// ui, which holds n sums.
func (o NoREC) check(c *fuzz.Case, runs []fuzz.Run, k, n, ui int) fuzz.Verdict {
	unoptRole := fuzz.NoREC.Role("unopt")
	oi := queryIndex(c, fuzz.CheckRole(fuzz.NoREC.Role("opt-count"), k))
	countForm := oi >= 0
	if !countForm {
		oi = queryIndex(c, fuzz.CheckRole(fuzz.NoREC.Role("opt-rows"), k))
	}
	if oi < 0 {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	for ri := range runs {
		run := &runs[ri]
		if s := failedSkip(run, oi, ui); s != "" {
			return fuzz.Verdict{Skip: s}
		}
		opt, unopt := run.Results[oi], run.Results[ui]
		var got int64
		if countForm {
			if len(opt.Rows) != 1 || len(opt.Rows[0]) != 1 {
				return o.malformed(c, runs, run.Target, "count query did not return one value")
			}
			var ok bool
			if got, ok = fuzz.Count(opt.Rows[0][0]); !ok {
				return o.malformed(c, runs, run.Target, "count query returned a non-count")
			}
		} else {
			got = int64(len(opt.Rows))
		}
		if len(unopt.Rows) != 1 || len(unopt.Rows[0]) != n {
			return o.malformed(c, runs, run.Target, "sum query did not return one value")
		}
		want, ok := fuzz.Count(unopt.Rows[0][k])
		if !ok {
			return o.malformed(c, runs, run.Target, "sum query returned a non-count")
		}
		if got == want {
			continue
		}
		dir := "fewer"
		if got > want {
			dir = "more"
		}
		form := "count"
		if !countForm {
			form = "fetched"
		}
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
			Title:    fuzz.Title("norec", run.Target, "optimized query returns "+dir+" rows"),
			Kind:     fuzz.KindWrongResult,
			Oracle:   "norec",
			Expected: fmt.Sprintf("%d rows for which the predicate is true (unoptimized query)", want),
			Actual:   fmt.Sprintf("%d rows %s by the optimized query", got, form),
			Roles:    []string{c.Queries[oi].Role, unoptRole},
			Case:     c,
			Runs:     runs,
		}}
	}
	return fuzz.Verdict{Checked: true}
}

func (NoREC) malformed(c *fuzz.Case, runs []fuzz.Run, target, what string) fuzz.Verdict {
	return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
		Title: fuzz.Title("norec", target, what), Kind: fuzz.KindWrongResult, Oracle: "norec",
		Expected: "a single count", Actual: what, Case: c, Runs: runs,
	}}
}
