package oracles

import (
	"fmt"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Set relations a metamorphic oracle checks between the answer to the original query and the
// answer to the transformed one.
const (
	RelEqual    = "equal"    // the two answers are equal sets
	RelSubset   = "subset"   // the original's answer is a subset of the transformed one's
	RelSuperset = "superset" // the original's answer is a superset of the transformed one's
)

// Metamorphic checks, on every engine alone, that the rows answering a transformed query stand in
// the set relation the case names (Params[Param]: RelEqual, RelSubset or RelSuperset) to the rows
// answering the original query, as the queryFuzz transformations of Datalog programs promise.
// Rows are compared as multisets, values under [Normalize] keys (Datalog answers are sets).
//
// Skips: "no-layout" without both queries or a known relation, "no-answer" when no engine
// answered both; an engine that did not answer both is left out and counted in Partial as
// "CODE on ENGINE" (for example "unsupported symbol-order on muz").
type Metamorphic struct {
	Orig, Trans string // the roles of the two queries
	Param       string // the case parameter that names the relation
	// Show prints the rows the finding quotes; the zero Display strips the type tags.
	Show Display
}

// Name returns "metamorphic".
func (Metamorphic) Name() string { return "metamorphic" }

// Check compares the two answers of every run.
func (o Metamorphic) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	at, ok := layout(c, []string{o.Orig, o.Trans})
	rel := c.Params[o.Param]
	if !ok || (rel != RelEqual && rel != RelSubset && rel != RelSuperset) {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	oi, ti := at[0], at[1]
	v := fuzz.Verdict{}
	for _, run := range runs {
		if oi >= len(run.Results) || ti >= len(run.Results) {
			continue
		}
		a, b := run.Results[oi], run.Results[ti]
		if a.Failed() || b.Failed() {
			v.Partial = append(v.Partial, failReason(run.Target, a, b))
			continue
		}
		v.Checked = true
		what, broken := o.Show.relationBroken(rel, "tuples", a.Rows, b.Rows)
		if what == "" {
			continue
		}
		v.Finding = &fuzz.Finding{
			Title:    fuzz.Title("metamorphic", run.Target, "the "+rel+" transformation "+what),
			Kind:     fuzz.KindWrongResult,
			Oracle:   o.Name(),
			Expected: fmt.Sprintf("answer to %s %s answer to %s (%d rows)", o.Orig, relText(rel), o.Trans, len(a.Rows)),
			Actual:   fmt.Sprintf("%s: %s has %d rows; it %s", run.Target, o.Trans, len(b.Rows), strings.Join(broken, " and ")),
			Roles:    []string{o.Orig, o.Trans},
			Case:     c,
			Runs:     runs,
		}
		return v
	}
	if !v.Checked {
		return fuzz.Verdict{Skip: "no-answer", Partial: v.Partial}
	}
	return v
}

// relationBroken compares the rows of an original (a) and a transformed query (b) as multisets
// of [Normalize]d values under rel: "" when they stand in it, else what the transformed rows do
// ("misses UNIT of the original", "adds UNIT to the original", "misses and adds UNIT") and the
// rows that break it, printed with d ("misses (1, 2)", "adds (3)").
func (d Display) relationBroken(rel, unit string, a, b [][]string) (what string, broken []string) {
	misses, adds := d.normalDiff(a, b) // in a only, in b only
	if misses != "" && rel != RelSuperset {
		broken = append(broken, "misses "+misses)
	}
	if adds != "" && rel != RelSubset {
		broken = append(broken, "adds "+adds)
	}
	switch {
	case len(broken) == 0:
		return "", nil
	case len(broken) == 2:
		return "misses and adds " + unit, broken
	case strings.HasPrefix(broken[0], "adds"):
		return "adds " + unit + " to the original", broken
	}
	return "misses " + unit + " of the original", broken
}

func relText(rel string) string {
	switch rel {
	case RelSubset:
		return "⊆"
	case RelSuperset:
		return "⊇"
	}
	return "="
}

// failReason names why a run did not answer a or b: the first failed result's code (or status)
// and its message when that is a short name, and the engine.
func failReason(target string, a, b *fuzz.Result) string {
	r := a
	if !r.Failed() {
		r = b
	}
	if r == nil {
		return "no answer on " + target
	}
	what := r.Status.String()
	if r.Code != "" {
		what = r.Code
		if r.Err != "" && !strings.ContainsAny(r.Err, " \n") && len(r.Err) <= 40 {
			what += " " + r.Err
		}
	}
	return what + " on " + target
}
