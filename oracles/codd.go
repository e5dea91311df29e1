package oracles

import (
	"fmt"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// CODD is CODDTest, constant-optimization-driven testing (Zhang and Rigger, SIGMOD 2025): the
// database does not change within a case, so replacing an expression by the value it computes
// must not change a query's result.
//
// Layout: [fuzz.CODD]. "codd.fetch" computes a predicate φ next to the columns it reads; the
// derived "codd.map" computes φ's result map (a CASE from each row's column values to the φ value
// the fetch gave) over the same rows, "codd.orig" is a query that uses φ and "codd.fold" the same
// query with the map in φ's place. The check holds only where the map reproduces φ on the rows
// the engine has now (fetch and map agree as multisets): a literal the engine reads back
// otherwise, or a database that a reduction changed, skips ("codd-inexact"). Then orig and fold
// must return the same multiset of rows, compared under [Normalize] keys.
type CODD struct {
	// Show prints the rows the finding quotes; the zero Display strips the type tags.
	Show Display
}

// Name returns "codd".
func (CODD) Name() string { return "codd" }

// Check reports a run whose folded query returns other rows than the original.
func (o CODD) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	fi := queryIndex(c, fuzz.CODD.Role("fetch"))
	if fi < 0 {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	at, ok := layout(c, []string{fuzz.CODD.Role("map"), fuzz.CODD.Role("orig"), fuzz.CODD.Role("fold")})
	if !ok {
		for ri := range runs {
			if s := failedSkip(&runs[ri], fi); s != "" {
				return fuzz.Verdict{Skip: s}
			}
		}
		if len(runs) > 0 && len(runs[0].Results[fi].Rows) == 0 {
			return fuzz.Verdict{Skip: "codd-no-rows"}
		}
		// A value could not be written exactly as a literal, or there were too many rows.
		return fuzz.Verdict{Skip: "codd-unfoldable"}
	}
	mi, oi, xi := at[0], at[1], at[2]
	v := fuzz.Verdict{}
	for ri := range runs {
		run := &runs[ri]
		if s := failedSkip(run, fi, mi, oi, xi); s != "" {
			return fuzz.Verdict{Skip: s}
		}
		if m, a := o.Show.normalDiff(run.Results[fi].Rows, run.Results[mi].Rows); m != "" || a != "" {
			return fuzz.Verdict{Skip: "codd-inexact"}
		}
		a, b := run.Results[oi].Rows, run.Results[xi].Rows
		misses, adds := o.Show.normalDiff(a, b)
		if misses == "" && adds == "" {
			v.Checked = true
			continue
		}
		actual := fmt.Sprintf("%d rows", len(b))
		if misses != "" {
			actual += "; misses " + misses
		}
		if adds != "" {
			actual += "; adds " + adds
		}
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
			Title:    fuzz.Title("codd", run.Target, "folded query returns other rows"),
			Kind:     fuzz.KindWrongResult,
			Oracle:   "codd",
			Expected: fmt.Sprintf("the %d rows of the original query (codd.map reproduces φ on every row)", len(a)),
			Actual:   actual,
			Roles:    fuzz.CODD.Roles(),
			Case:     c,
			Runs:     runs,
		}}
	}
	return v
}
