package oracles

import (
	"fmt"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// DQP is the differential-query-plans oracle (Ba and Rigger, SIGMOD'24): one query forced onto
// another plan, by a planner setting run before it or by a hint in its text, must return the same
// rows, compared as bags of [Normalize]d values on each engine alone.
//
// Layout: [fuzz.DQP]: "dqp.base" and "dqp.plan", and optionally "dqp.set" (the setting, run
// between them) and "dqp.reset" (run after). Params[Param] names the plan variant (a hint or a
// setting's name) in titles, so that each variant's differences are a bug of their own.
//
// Skips: "no-layout" without base and plan; an engine on which the setting or either query failed
// (a setting the version lacks, an error one plan raises and the other does not, which SQL's
// unordered evaluation allows) is left out and counted in Partial; "no-answer" when none is left.
type DQP struct {
	// Param is the case parameter that names the plan variant ("plan").
	Param string
	// Show prints the rows the finding quotes.
	Show Display
}

// Name returns "dqp".
func (DQP) Name() string { return "dqp" }

// Check compares the rows of the two plans on every run.
func (o DQP) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	at, ok := layout(c, []string{fuzz.DQP.Role("base"), fuzz.DQP.Role("plan")})
	if !ok {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	bi, pi := at[0], at[1]
	si := queryIndex(c, fuzz.DQP.Role("set"))
	variant := c.Params[o.Param]
	if variant == "" {
		variant = "another plan"
	}
	v := fuzz.Verdict{}
	for _, run := range runs {
		if si >= 0 {
			if s := failedSkip(&run, si); s != "" {
				v.Partial = append(v.Partial, "setting "+s+" on "+run.Target)
				continue
			}
		}
		if s := failedSkip(&run, bi, pi); s != "" {
			v.Partial = append(v.Partial, failReason(run.Target, run.Results[bi], run.Results[pi]))
			continue
		}
		v.Checked = true
		a, b := run.Results[bi], run.Results[pi]
		misses, adds := o.Show.normalDiff(a.Rows, b.Rows)
		if misses == "" && adds == "" {
			continue
		}
		var what []string
		summary := "misses rows"
		if misses != "" {
			what = append(what, "misses "+misses)
		}
		if adds != "" {
			what = append(what, "adds "+adds)
			summary = "adds rows"
			if misses != "" {
				summary = "returns other rows"
			}
		}
		roles := []string{fuzz.DQP.Role("base")}
		if si >= 0 {
			roles = append(roles, fuzz.DQP.Role("set"))
		}
		roles = append(roles, fuzz.DQP.Role("plan"))
		if ri := queryIndex(c, fuzz.DQP.Role("reset")); ri >= 0 {
			roles = append(roles, fuzz.DQP.Role("reset"))
		}
		v.Finding = &fuzz.Finding{
			Title:    fuzz.Title("dqp", run.Target, "the query under "+variant+" "+summary),
			Kind:     fuzz.KindWrongResult,
			Oracle:   o.Name(),
			Expected: fmt.Sprintf("the %d rows of the query under the default plan", len(a.Rows)),
			Actual:   fmt.Sprintf("%s: under %s, %d rows; it %s", run.Target, variant, len(b.Rows), strings.Join(what, " and ")),
			Roles:    roles,
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
