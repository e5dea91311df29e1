package oracles

import (
	"fmt"
	"strconv"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// CERT is the cardinality-estimation-restriction-testing oracle (Ba and Rigger, ICSE'24): a query
// made more restrictive (a conjunct, a LIMIT, an inner join for an outer one) must not be estimated
// to return more rows than the original, and one made less restrictive (a disjunct, no WHERE) not
// fewer. The queries are only planned (EXPLAIN), never run. Its findings are of kind
// fuzz.KindPerformance: potential performance issues, an estimate that contradicts itself, not
// wrong answers.
//
// Layout: [fuzz.CERT]: "cert.orig" and "cert.mut", the plans of the query and of its mutant;
// Params[DirParam] is "restrict" or "relax", Params[MutParam] names the mutation in titles.
//
// A contradiction within a factor of QError is no finding: estimates within a small factor of each
// other rarely change a plan (Moerkotte, Neumann and Steidl, "Preventing bad plans by bounding the
// impact of cardinality estimation errors", VLDB 2009, bound a plan's cost by the q-error), and
// estimators round and clamp their figures.
//
// Estimates below one row count as one: PostgreSQL clamps every operator's estimate to at least one
// row (clamp_row_est) except a constant-false filter's, which a LIMIT over it then raises to one.
//
// Skips: "no-layout" without both plans or a known direction; "no-estimate" when Estimate reads no
// estimate from a plan; "plans-differ" when the operator sequences of the two plans are more than
// one edit apart, which makes their estimates incomparable (as in the paper); an engine that did
// not plan both queries is left out and counted in Partial.
type CERT struct {
	// Estimate reads an engine's plan: the estimated rows of its top operator and its operators
	// top down; ok is false when the answer holds no estimate.
	Estimate func(r *fuzz.Result) (rows float64, ops []string, ok bool)
	// DirParam and MutParam are the case parameters naming the direction and the mutation.
	DirParam, MutParam string
	// QError is the q-error (the larger estimate over the smaller) a contradiction must exceed to
	// make a finding; 0 compares strictly, as the paper does.
	QError float64
}

// Name returns "cert".
func (CERT) Name() string { return "cert" }

// Check compares the estimates of the two plans on every run.
func (o CERT) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	at, ok := layout(c, fuzz.CERT.Roles())
	dir := c.Params[o.DirParam]
	if !ok || (dir != "restrict" && dir != "relax") || o.Estimate == nil {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	oi, mi := at[0], at[1]
	v := fuzz.Verdict{}
	skip := ""
	for _, run := range runs {
		if s := failedSkip(&run, oi, mi); s != "" {
			v.Partial = append(v.Partial, failReason(run.Target, run.Results[oi], run.Results[mi]))
			continue
		}
		e1, ops1, ok1 := o.Estimate(run.Results[oi])
		e2, ops2, ok2 := o.Estimate(run.Results[mi])
		if !ok1 || !ok2 {
			skip = "no-estimate"
			continue
		}
		if editDistance(ops1, ops2) > 1 {
			skip = "plans-differ"
			continue
		}
		v.Checked = true
		e1, e2 = max(e1, 1), max(e2, 1)
		if dir == "restrict" && e2 <= e1 || dir == "relax" && e2 >= e1 || max(e1, e2) <= o.QError*min(e1, e2) {
			continue
		}
		mut := c.Params[o.MutParam]
		want, grows := "at most", "more"
		if dir == "relax" {
			want, grows = "at least", "fewer"
		}
		v.Finding = &fuzz.Finding{
			Title:    fuzz.Title("cert", run.Target, "the "+mut+" mutant ("+dir+") is estimated to return "+grows+" rows"),
			Kind:     fuzz.KindPerformance,
			Oracle:   o.Name(),
			Expected: fmt.Sprintf("%s %s rows estimated for the %s mutant (%s), as for the original query", want, num(e1), mut, dir),
			Actual:   fmt.Sprintf("%s estimates %s rows for the mutant and %s for the original", run.Target, num(e2), num(e1)),
			Roles:    fuzz.CERT.Roles(),
			Case:     c,
			Runs:     runs,
		}
		return v
	}
	if !v.Checked {
		if skip == "" {
			skip = "no-answer"
		}
		return fuzz.Verdict{Skip: skip, Partial: v.Partial}
	}
	return v
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// editDistance is the Levenshtein distance between two sequences of operators.
func editDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			d := prev[j-1]
			if a[i-1] != b[j-1] {
				d++
			}
			cur[j] = min(d, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
