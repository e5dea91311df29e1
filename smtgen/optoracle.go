package smtgen

import (
	"fmt"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// OracleOptions is the option-fuzzing oracle's name.
const OracleOptions = "options"

// OptionsOracle compares, on each solver, the answers to an instance solved under random options
// with the answers to the same instance solved with the options at their defaults (the case's
// RoleDefault query): sat against unsat at the same check-sat is a finding, unknown is not. A
// solver that rejects an option (an error answer) is a skipped check, not a finding.
type OptionsOracle struct{}

// Name returns "options".
func (OptionsOracle) Name() string { return OracleOptions }

// Check compares each run's two answers.
func (OptionsOracle) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	skip, checked := "no-default-query", false
	for _, run := range runs {
		ri, rd := result(c, run, RoleInstance), result(c, run, RoleDefault)
		switch {
		case ri == nil || rd == nil:
			continue
		case ri.Failed():
			skip = "option-rejected"
			continue
		case rd.Failed():
			skip = "default-failed"
			continue
		}
		ai, ad := answers(ri), answers(rd)
		for i := range min(len(ai), len(ad)) {
			if ai[i] == "unknown" || ad[i] == "unknown" || ai[i] == ad[i] {
				continue
			}
			opts := strings.ReplaceAll(c.Params[ParamOptions], "\n", " ")
			return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
				Title: fuzz.Title(OracleOptions, run.Target, fmt.Sprintf("%s with options, %s with defaults on a %s instance",
					ai[i], ad[i], strings.ToLower(c.Params[ParamLogic]))),
				Kind:     fuzz.KindWrongResult,
				Oracle:   OracleOptions,
				Expected: fmt.Sprintf("%s at check-sat %d, as with every option at its default", ad[i], i+1),
				Actual:   fmt.Sprintf("%s at check-sat %d with %s", ai[i], i+1, opts),
				Roles:    []string{RoleInstance, RoleDefault},
				Case:     c, Runs: runs,
			}}
		}
		if len(ai) == 0 || len(ad) == 0 {
			skip = "no-answer"
			continue
		}
		checked = true
	}
	if !checked {
		return fuzz.Verdict{Skip: skip}
	}
	return fuzz.Verdict{Checked: true}
}
