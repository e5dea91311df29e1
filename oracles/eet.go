package oracles

import (
	"fmt"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// EET is Equivalent Expression Transformation (Jiang and Su, OSDI 2024): rewriting expressions
// of a query into equivalent ones (p OR NOT p OR p IS NULL is true, a CASE whose branches agree
// is its branch, ...) must not change its result. For a query ([fuzz.EET]: "eet.orig" and
// "eet.trans") the rows are compared as multisets; for a DELETE or UPDATE ([fuzz.EETDML]) the
// table's post-image after the original statement and after the transformed one, each read in
// its own rolled-back transaction. Values are compared under [Normalize] keys, since a CASE may
// give an equal value another type tag (MySQL's CASE over a BOOLEAN column answers integers).
//
// An error only the transformed statement raises is a finding unless Expect says the engine may
// raise it on a generated query: a runtime error (an integer overflow, a division by zero) depends
// on which rows the plan evaluates an expression on, and the rewrite changes the plan; such a
// check is skipped ("expected-error"), as is one whose original fails ("error").
type EET struct {
	// Expect says which engine errors the generator knowingly provokes.
	Expect Expect
	// Show prints the rows the finding quotes; the zero Display strips the type tags.
	Show Display
}

// Name returns "eet".
func (EET) Name() string { return "eet" }

// eetPair is one comparison of EET: the roles of the original and transformed statements and of
// the results to compare.
type eetPair struct {
	what                           string // "query", "delete or update"
	orig, trans, origRes, transRes string
}

var eetPairs = []eetPair{
	{"query", fuzz.EET.Role("orig"), fuzz.EET.Role("trans"), fuzz.EET.Role("orig"), fuzz.EET.Role("trans")},
	{"dml", fuzz.EETDML.Role("dml"), fuzz.EETDML.Role("tdml"), fuzz.EETDML.Role("post"), fuzz.EETDML.Role("tpost")},
}

// Check compares the results of every pair of the case on every run.
func (o EET) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	v := fuzz.Verdict{}
	found := false
	for _, p := range eetPairs {
		at, ok := layout(c, []string{p.orig, p.trans, p.origRes, p.transRes})
		if !ok {
			continue
		}
		found = true
		roles := fuzz.EET.Roles()
		if p.what == "dml" {
			roles = fuzz.EETDML.Roles()
		}
		for ri := range runs {
			run := &runs[ri]
			if len(run.Results) <= max(at[0], at[1], at[2], at[3]) {
				v.Skip = "no-result"
				continue
			}
			r := func(i int) *fuzz.Result { return run.Results[at[i]] }
			find := func(summary, expected, actual string, kind fuzz.Kind) fuzz.Verdict {
				return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
					Title: fuzz.Title("eet", run.Target, summary), Kind: kind, Oracle: "eet",
					Expected: expected, Actual: actual, Roles: roles, Case: c, Runs: runs,
				}}
			}
			stmt := "query"
			if p.what == "dml" {
				stmt = stmtKind(c.Queries[at[0]].Text)
			}
			switch {
			case r(0).Failed() || r(2).Failed():
				v.Skip = "error"
				continue
			case r(1).Failed():
				t := r(1)
				if t.Status == fuzz.StatusTimeout || t.Status == fuzz.StatusCrash {
					v.Skip = t.Status.String() // the error oracle reports it
					continue
				}
				if o.Expect != nil && o.Expect("query", t.Code, t.Err) {
					v.Skip = "expected-error"
					continue
				}
				return find("transformed "+stmt+" fails: "+t.Code+" "+errSummary(t.Err), "an answer, as the original "+stmt+" gives",
					fmt.Sprintf("%s: %s", t.Code, t.Err), fuzz.KindUnexpectedError)
			case r(3).Failed():
				v.Skip = "error"
				continue
			}
			a, b := r(2).Rows, r(3).Rows
			misses, adds := o.Show.normalDiff(a, b)
			if misses == "" && adds == "" {
				v.Checked = true
				continue
			}
			what := "returns other rows"
			if p.what == "dml" {
				what = "leaves another table"
			}
			actual := fmt.Sprintf("%d rows", len(b))
			if misses != "" {
				actual += "; misses " + misses
			}
			if adds != "" {
				actual += "; adds " + adds
			}
			return find("transformed "+stmt+" "+what,
				fmt.Sprintf("the %d rows of the original %s", len(a), cond(p.what == "dml", "post-image", "query")),
				actual, fuzz.KindWrongResult)
		}
	}
	if !found {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	if v.Checked {
		v.Skip = ""
	}
	return v
}

func cond(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
