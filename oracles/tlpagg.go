package oracles

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// DefaultAvgTolerance is the tolerance of [TLPAgg] for AVG when AvgTolerance is zero.
const DefaultAvgTolerance = 1e-3

// TLPAggFuncs lists the aggregates [TLPAgg] checks, as they appear in Case.Params["agg"].
var TLPAggFuncs = []string{"MIN", "MAX", "SUM", "COUNT", "AVG"}

// tlpAggRoles are the roles of the layout fuzz.TLPAgg.
var tlpAggRoles = fuzz.TLPAgg.Roles()

// TLPAgg is Ternary Logic Partitioning for aggregates: an aggregate over all rows is composed from
// the aggregates over the rows where p, NOT p and p IS NULL. The aggregate function is in
// Case.Params["agg"]: MIN, MAX, SUM, COUNT or AVG.
//
// Layout: [fuzz.TLPAgg] ("agg.orig", "agg.p", "agg.notp", "agg.null"). Every query returns one
// row. For MIN, MAX and COUNT the row holds AGG(e); for SUM every row holds SUM(e) and COUNT(e);
// for AVG, agg.orig holds AVG(e) and each partition holds SUM(e) and COUNT(e).
//
// Rules, per run:
//   - COUNT: the original count is the sum of the partitions' counts.
//   - SUM: the original is NULL exactly when every partition is; otherwise it equals the exact sum
//     of the non-NULL partial sums. Float sums depend on the order of addition, so when a value is
//     a float (r:), or a NULL sum has a non-zero count (a NaN sum, which SQLite answers as NULL),
//     the check is skipped as "inexact-sum".
//   - AVG: the original is NULL exactly when the partitions count no values; otherwise it equals
//     ΣSUM/ΣCOUNT within AvgTolerance, relative or absolute (engines round the average of exact
//     types). A float partial sum skips the check as "inexact-sum"; the average itself may be a
//     float, since it is then computed from exact sums.
//   - SUM and AVG of integers whose true sum lies beyond BIGINT skip the check as "int-overflow"
//     when the sums disagree: an engine may wrap there (DataFusion), and no 64-bit sum is exact.
//   - MIN, MAX: the original is NULL exactly when every partition is. When all values are numbers
//     the original equals the least (greatest) partial value numerically; otherwise (text, bytes,
//     mixed kinds, ordered by the engine's collation and type order) it must be one of the
//     non-NULL partial values, and a match only under [Loose] keys skips the check as
//     "ambiguous-representative".
type TLPAgg struct {
	// AvgTolerance bounds |avg − ΣSUM/ΣCOUNT| by AvgTolerance × max(1, |ΣSUM/ΣCOUNT|);
	// zero means DefaultAvgTolerance.
	AvgTolerance float64
	// Show prints the values the finding quotes; the zero Display strips the type tags.
	Show Display
}

// Name returns "tlp-agg".
func (TLPAgg) Name() string { return "tlp-agg" }

// Check composes the partitions' aggregates and compares them with the original on every run.
func (o TLPAgg) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	agg := strings.ToUpper(c.Params["agg"])
	at, ok := layout(c, tlpAggRoles)
	if !ok || !slices.Contains(TLPAggFuncs, agg) {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	skip := ""
	for ri := range runs {
		run := &runs[ri]
		if s := failedSkip(run, at...); s != "" {
			return fuzz.Verdict{Skip: s}
		}
		a := aggCheck{agg: agg, tol: o.AvgTolerance, show: o.Show, c: c, runs: runs, target: run.Target}
		s, f := a.check(run, at)
		if f != nil {
			return fuzz.Verdict{Checked: true, Finding: f}
		}
		if skip == "" {
			skip = s
		}
	}
	if skip != "" {
		return fuzz.Verdict{Skip: skip}
	}
	return fuzz.Verdict{Checked: true}
}

// aggCheck is the check of one aggregate on one run.
type aggCheck struct {
	agg    string
	tol    float64
	show   Display
	c      *fuzz.Case
	runs   []fuzz.Run
	target string
}

// check reads the run's aggregates and applies the aggregate's rule; it returns a skip reason or
// a finding, or neither when the run passes.
func (a aggCheck) check(run *fuzz.Run, at []int) (string, *fuzz.Finding) {
	width, origWidth := 1, 1
	switch a.agg {
	case "AVG":
		width = 2
	case "SUM":
		width, origWidth = 2, 2
	}
	orig, isRow := oneRow(run.Results[at[0]], origWidth)
	if !isRow {
		return "", a.finding("original aggregate query did not return one value", fmt.Sprintf("one row of %d values", origWidth),
			fmt.Sprintf("%d rows", len(run.Results[at[0]].Rows)))
	}
	parts := make([][]string, 3)
	for i := range parts {
		if parts[i], isRow = oneRow(run.Results[at[i+1]], width); !isRow {
			return "", a.finding(fmt.Sprintf("partition aggregate query did not return one row of %d values", width),
				fmt.Sprintf("one row of %d values", width), fmt.Sprintf("%d rows", len(run.Results[at[i+1]].Rows)))
		}
	}
	switch a.agg {
	case "COUNT":
		return a.count(orig[0], parts)
	case "SUM":
		for _, r := range append([][]string{orig}, parts...) {
			if n, isCount := fuzz.Count(r[1]); r[0] == fuzz.Null && (!isCount || n > 0) {
				return "inexact-sum", nil // a NaN sum, answered as NULL (SQLite)
			}
		}
		return a.sum(orig[0], parts)
	case "AVG":
		return a.avg(orig[0], parts)
	}
	return a.extreme(orig[0], parts)
}

// oneRow returns the single row of r if it has width values.
func oneRow(r *fuzz.Result, width int) ([]string, bool) {
	if len(r.Rows) != 1 || len(r.Rows[0]) != width {
		return nil, false
	}
	return r.Rows[0], true
}

func (a aggCheck) finding(summary, expected, actual string) *fuzz.Finding {
	return &fuzz.Finding{
		Title:    fuzz.Title("tlp-agg", a.target, summary),
		Kind:     fuzz.KindWrongResult,
		Oracle:   "tlp-agg",
		Expected: expected,
		Actual:   actual,
		Roles:    tlpAggRoles,
		Case:     a.c,
		Runs:     a.runs,
	}
}

// mismatch reports that the partitions compose to got (already printed), which differs from the
// original.
func (a aggCheck) mismatch(orig, got string, parts [][]string) (string, *fuzz.Finding) {
	f := strings.ToLower(a.agg)
	ps := make([]string, len(parts))
	for i, p := range parts {
		vs := make([]string, len(p))
		for j, v := range p {
			vs[j] = a.show.value(v)
		}
		ps[i] = strings.Join(vs, " ")
	}
	return "", a.finding(f+" of partitions differs from the "+f,
		fmt.Sprintf("%s %s from the original query", f, a.show.value(orig)),
		fmt.Sprintf("%s of the partitions: %s (p: %s; not p: %s; p is null: %s)", f, got, ps[0], ps[1], ps[2]))
}

func (a aggCheck) count(orig string, parts [][]string) (string, *fuzz.Finding) {
	want, isCount := fuzz.Count(orig)
	if !isCount {
		return "", a.finding("count query returned a non-count", "a count", a.show.value(orig))
	}
	var got int64
	for _, p := range parts {
		n, isCount := fuzz.Count(p[0])
		if !isCount {
			return "", a.finding("count query returned a non-count", "a count", a.show.value(p[0]))
		}
		got += n
	}
	if got != want {
		return a.mismatch(orig, fmt.Sprint(got), parts)
	}
	return "", nil
}

// numbers reads vs as exact numbers: NULL gives nil. skip is "non-numeric" for a value that is
// not a number and "inexact-sum" for a float.
func numbers(vs ...string) (out []*big.Rat, skip string) {
	for _, v := range vs {
		if v == fuzz.Null {
			out = append(out, nil)
			continue
		}
		r, isNum := fuzz.Number(v)
		if !isNum {
			return nil, "non-numeric"
		}
		if strings.HasPrefix(v, "r:") {
			skip = "inexact-sum"
		}
		out = append(out, r)
	}
	return out, skip
}

// floatSum reports whether a sum is a float: float sums depend on the order of addition, and
// an engine may answer NULL for NaN (+Inf + -Inf), so neither the value nor NULL-ness is sound.
func floatSum(vs ...string) bool {
	return slices.ContainsFunc(vs, func(v string) bool { return strings.HasPrefix(v, "r:") })
}

func (a aggCheck) sum(orig string, parts [][]string) (string, *fuzz.Finding) {
	if floatSum(orig, parts[0][0], parts[1][0], parts[2][0]) {
		return "inexact-sum", nil
	}
	// The partitions' counts are not compared here: tlp-agg's COUNT does that.
	allNull := true
	for _, p := range parts {
		allNull = allNull && p[0] == fuzz.Null
	}
	if (orig == fuzz.Null) != allNull {
		got := "NULL"
		if !allNull {
			got = "not NULL"
		}
		return a.mismatch(orig, got, parts)
	}
	if allNull {
		return "", nil
	}
	ns, skip := numbers(orig, parts[0][0], parts[1][0], parts[2][0])
	if skip != "" {
		return skip, nil
	}
	total := new(big.Rat)
	for _, n := range ns[1:] {
		if n != nil {
			total.Add(total, n)
		}
	}
	if total.Cmp(ns[0]) != 0 {
		if beyondInt64(total) {
			return "int-overflow", nil
		}
		return a.mismatch(orig, ratText(total), parts)
	}
	return "", nil
}

// int64 bounds as exact numbers.
var (
	minInt64 = new(big.Rat).SetInt64(math.MinInt64)
	maxInt64 = new(big.Rat).SetInt64(math.MaxInt64)
)

// beyondInt64 reports whether an integer sum lies outside BIGINT: an engine whose SUM of integers
// wraps there (DataFusion) answers a different number, and the check proves nothing.
func beyondInt64(r *big.Rat) bool { return r.Cmp(minInt64) < 0 || r.Cmp(maxInt64) > 0 }

func (a aggCheck) avg(orig string, parts [][]string) (string, *fuzz.Finding) {
	var count int64
	for _, p := range parts {
		n, isCount := fuzz.Count(p[1])
		if !isCount {
			return "", a.finding("count query returned a non-count", "a count", a.show.value(p[1]))
		}
		if floatSum(p[0]) || p[0] == fuzz.Null && n > 0 { // a float sum, or NaN answered as NULL
			return "inexact-sum", nil
		}
		count += n
	}
	if (orig == fuzz.Null) != (count == 0) {
		got := "NULL"
		if count > 0 {
			got = "not NULL"
		}
		return a.mismatch(orig, got, parts)
	}
	if count == 0 {
		return "", nil
	}
	sums, skip := numbers(parts[0][0], parts[1][0], parts[2][0])
	if skip != "" {
		return skip, nil
	}
	avg, isNum := fuzz.Number(orig)
	if !isNum {
		return "non-numeric", nil
	}
	total := new(big.Rat)
	for _, s := range sums {
		if s != nil {
			total.Add(total, s)
		}
	}
	total.Quo(total, new(big.Rat).SetInt64(count))
	tol := a.tol
	if tol == 0 {
		tol = DefaultAvgTolerance
	}
	bound := new(big.Rat).Abs(total)
	if bound.Cmp(big.NewRat(1, 1)) < 0 {
		bound.SetInt64(1)
	}
	bound.Mul(bound, new(big.Rat).SetFloat64(tol))
	diff := new(big.Rat).Sub(avg, total)
	if diff.Abs(diff).Cmp(bound) > 0 {
		// A float average only tells the sum roughly: one near the edge of BIGINT may be beyond it.
		near := new(big.Rat).Mul(avg, new(big.Rat).SetInt64(count))
		near.Abs(near).Mul(near, big.NewRat(1_000_001, 1_000_000))
		if beyondInt64(near) {
			return "int-overflow", nil // the true sum is beyond BIGINT (see beyondInt64)
		}
		return a.mismatch(orig, ratText(total), parts)
	}
	return "", nil
}

func (a aggCheck) extreme(orig string, parts [][]string) (string, *fuzz.Finding) {
	var vals []string
	for _, p := range parts {
		if p[0] != fuzz.Null {
			vals = append(vals, p[0])
		}
	}
	if (orig == fuzz.Null) != (len(vals) == 0) {
		got := "NULL"
		if len(vals) > 0 {
			got = "not NULL"
		}
		return a.mismatch(orig, got, parts)
	}
	if len(vals) == 0 {
		return "", nil
	}
	if want, best, bestText := numericExtreme(a.agg, orig, vals); best != nil {
		if best.Cmp(want) != 0 {
			return a.mismatch(orig, a.show.value(bestText), parts)
		}
		return "", nil
	}
	if slices.Contains(vals, orig) {
		return "", nil
	}
	for _, v := range vals {
		if Loose(v) == Loose(orig) {
			return "ambiguous-representative", nil
		}
	}
	shown := make([]string, len(vals))
	for i, v := range vals {
		shown[i] = a.show.value(v)
	}
	return a.mismatch(orig, "one of "+strings.Join(shown, ", "), parts)
}

// numericExtreme returns orig and the least (MIN) or greatest (MAX) of vals, with its text, as
// numbers; best is nil unless orig and all of vals are numbers.
func numericExtreme(agg, orig string, vals []string) (want, best *big.Rat, bestText string) {
	want, isNum := exactNumber(orig)
	if !isNum {
		return nil, nil, ""
	}
	for _, v := range vals {
		n, isNum := exactNumber(v)
		if !isNum {
			return nil, nil, ""
		}
		if best == nil || agg == "MIN" && n.Cmp(best) < 0 || agg == "MAX" && n.Cmp(best) > 0 {
			best, bestText = n, v
		}
	}
	return want, best, bestText
}

// ratText prints r as an integer, a finite decimal, or a fraction with its approximate value.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	if n, exact := r.FloatPrec(); exact {
		return r.FloatString(n)
	}
	return r.RatString() + " ≈ " + r.FloatString(20)
}
