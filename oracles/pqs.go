package oracles

import (
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// PQS is the pivoted query synthesis oracle (Rigger and Su, 2020): a query whose WHERE and ON
// conditions were rectified to hold for a pivot row must fetch that row.
//
// Layout: [fuzz.PQS]: "pqs.fetch" (the rows the pivot was picked from), and the derived
// "pqs.pivot" (the pivot's values INTERSECT the plain product of its tables: not empty while the
// pivot exists, which keeps a reduced case meaningful) and "pqs.contains" (the expected values
// INTERSECT the rectified query: empty when the pivot row is missing). A case of several checks
// holds one containment query per check, check k's under fuzz.CheckRole("pqs.contains", k).
type PQS struct{}

// Name returns "pqs".
func (PQS) Name() string { return "pqs" }

// Check reports a run whose containment query is empty while the pivot exists.
func (PQS) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	fi := queryIndex(c, fuzz.PQS.Role("fetch"))
	pi, ci := queryIndex(c, fuzz.PQS.Role("pivot")), queryIndex(c, fuzz.PQS.Role("contains"))
	if fi < 0 {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	if pi < 0 || ci < 0 {
		for ri := range runs {
			if s := failedSkip(&runs[ri], fi); s != "" {
				return fuzz.Verdict{Skip: s}
			}
		}
		if len(runs) > 0 && len(runs[0].Results[fi].Rows) == 0 {
			return fuzz.Verdict{Skip: "pqs-no-rows"}
		}
		// The evaluator was unsure of every expression drawn for a slot.
		return fuzz.Verdict{Skip: "pqs-unknown"}
	}
	n := checkCount(c, fuzz.PQS)
	var m checks
	for k := range n {
		m.add(pqsCheck(c, runs, pi, queryIndex(c, fuzz.CheckRole(fuzz.PQS.Role("contains"), k))))
	}
	return m.verdict()
}

// pqsCheck checks one containment query, at ci, against the pivot query at pi.
func pqsCheck(c *fuzz.Case, runs []fuzz.Run, pi, ci int) fuzz.Verdict {
	if ci < 0 {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	for ri := range runs {
		run := &runs[ri]
		if s := failedSkip(run, pi, ci); s != "" {
			return fuzz.Verdict{Skip: s}
		}
		if len(run.Results[pi].Rows) == 0 {
			return fuzz.Verdict{Skip: "pqs-no-pivot"}
		}
		if len(run.Results[ci].Rows) > 0 {
			continue
		}
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
			Title:    fuzz.Title("pqs", run.Target, "pivot row missing"),
			Kind:     fuzz.KindWrongResult,
			Oracle:   "pqs",
			Expected: "the rectified query fetches the pivot row (pqs.pivot finds it in its tables)",
			Actual:   "the containment query is empty",
			Roles:    []string{fuzz.PQS.Role("fetch"), fuzz.PQS.Role("pivot"), c.Queries[ci].Role},
			Case:     c,
			Runs:     runs,
		}}
	}
	return fuzz.Verdict{Checked: true}
}
