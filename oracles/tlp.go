package oracles

import (
	"fmt"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TLP is Ternary Logic Partitioning for WHERE (Rigger and Su, 2020): for any predicate p, the
// multiset of rows of a query Q equals the union-all of Q WHERE p, Q WHERE NOT p and
// Q WHERE p IS NULL. Rows are compared whole and typed, with multiplicity.
//
// Layout: "tlp.orig", "tlp.p", "tlp.notp", "tlp.null".
type TLP struct{}

// Name returns "tlp-where".
func (TLP) Name() string { return "tlp-where" }

var tlpRoles = []string{"tlp.orig", "tlp.p", "tlp.notp", "tlp.null"}

// Check compares the original rows with the union of the partitions on every run.
func (o TLP) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	idx := roleIndex(c, "tlp.")
	var at [4]int
	for i, r := range tlpRoles {
		j, ok := idx[r]
		if !ok {
			return fuzz.Verdict{Skip: "no-layout"}
		}
		at[i] = j
	}
	for ri := range runs {
		run := &runs[ri]
		if s := failedSkip(run, at[:]...); s != "" {
			return fuzz.Verdict{Skip: s}
		}
		orig := NewBag(run.Results[at[0]].Rows)
		parts := NewBag(run.Results[at[1]].Rows, run.Results[at[2]].Rows, run.Results[at[3]].Rows)
		missing, extra := orig.Diff(parts)
		if len(missing) == 0 && len(extra) == 0 {
			continue
		}
		summary, actual := "partitions miss rows", "partitions miss "+showRows(missing)
		switch {
		case len(missing) == 0:
			summary, actual = "partitions add rows", "partitions add "+showRows(extra)
		case len(extra) > 0:
			summary = "partitions differ from the original rows"
			actual += "; add " + showRows(extra)
		}
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
			Title:    fuzz.Title("tlp-where", run.Target, summary),
			Kind:     fuzz.KindWrongResult,
			Oracle:   "tlp-where",
			Expected: fmt.Sprintf("the %d rows of the original query", len(run.Results[at[0]].Rows)),
			Actual:   actual,
			Roles:    tlpRoles,
			Case:     c,
			Runs:     runs,
		}}
	}
	return fuzz.Verdict{Checked: true}
}
