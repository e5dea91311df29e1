package smtgen

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Oracle names.
const (
	OracleSat   = "sat"   // sat-by-construction: unsat on an instance the model satisfies
	OracleModel = "model" // model validation: an assertion false under the solver's own model
)

// parsed is an SMT case read back: its script, declarations, construction model, the assertions
// in scope at each check-sat, and the terms of its model query.
type parsed struct {
	script *Script
	env    *Env
	checks [][]*Term
	values []*Term
}

// memo is the parsed form of a case as its generator made it, kept in [fuzz.Case.Memo] with the
// queries it was made for.
type memo struct {
	queries []fuzz.Query
	p       *parsed
}

// parseCase reads c's instance (and model query, when present).
func parseCase(c *fuzz.Case) (*parsed, error) {
	if m, ok := c.Memo.(*memo); ok && slices.Equal(m.queries, c.Queries) {
		return m.p, nil
	}
	return readCase(c)
}

// readCase parses c's instance and model query text.
func readCase(c *fuzz.Case) (*parsed, error) {
	inst, ok := c.Query(RoleInstance)
	if !ok {
		return nil, errors.New("the case has no instance")
	}
	text := inst
	mq, hasModel := c.Query(RoleModel)
	if hasModel {
		text += "\n" + mq
	}
	sc, err := ParseScript(text)
	if err != nil {
		return nil, err
	}
	env, err := Check(sc)
	if err != nil {
		return nil, err
	}
	p := &parsed{script: sc, env: env}
	expand := func(t *Term) *Term { return t }
	if strings.Contains(text, "(let") { // generated instances have none; reduced or edited ones may
		expand = ExpandLets
	}
	var stack [][]*Term
	var cur []*Term
	for _, cmd := range sc.Commands {
		switch cmd.Name {
		case "assert":
			if len(cmd.Terms) != 1 {
				return nil, errors.New("an assertion the reader keeps as raw text")
			}
			cur = append(cur, expand(cmd.Terms[0]))
		case "push":
			for range max(cmd.Arity, 1) {
				stack = append(stack, cur)
				cur = append([]*Term(nil), cur...)
			}
		case "pop":
			for range max(cmd.Arity, 1) {
				if len(stack) == 0 {
					return nil, errors.New("pop below the first level")
				}
				cur, stack = stack[len(stack)-1], stack[:len(stack)-1]
			}
		case "check-sat", "check-sat-using":
			p.checks = append(p.checks, cur)
		case "get-value":
			p.values = cmd.Terms
		}
	}
	return p, nil
}

// answers returns the check-sat answers among a result's rows.
func answers(r *fuzz.Result) []string {
	var out []string
	for _, row := range r.Rows {
		if len(row) == 1 {
			switch row[0] {
			case "sat", "unsat", "unknown":
				out = append(out, row[0])
			}
		}
	}
	return out
}

// result returns run's result for role, nil when the case has no such query.
func result(c *fuzz.Case, run fuzz.Run, role string) *fuzz.Result {
	for i, q := range c.Queries {
		if q.Role == role && i < len(run.Results) {
			return run.Results[i]
		}
	}
	return nil
}

// modeSuffix describes an instance's mode for titles.
func modeSuffix(c *fuzz.Case) string {
	switch m := c.Params[ParamMode]; m {
	case "", "plain":
		return ""
	default:
		return " (" + m + ")"
	}
}

// SatOracle is STORM's oracle: every instance is true under the model in the case's Params, so an
// unsat answer is a refutational-soundness bug. The evaluator certifies the model again before a
// finding is reported; an instance it cannot certify is skipped, never reported.
type SatOracle struct{}

// Name returns "sat".
func (SatOracle) Name() string { return OracleSat }

// Check looks for unsat among the answers of every run (for sat among them on an instance
// unsatisfiable by construction).
func (SatOracle) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	if c.Params[ParamExpect] == ExpectUnsat {
		return checkKnown(c, runs, "sat", "sat on an unsatisfiable", func(at int) (string, error) {
			why, err := certifyUnsat(c, at)
			return "unsat: " + why, err
		})
	}
	if _, ok := c.Params[ParamModel]; !ok { // a mutant: its answer is not known
		return fuzz.Verdict{Skip: "no-construction-model"}
	}
	return checkKnown(c, runs, "unsat", "unsat on a satisfiable", func(at int) (string, error) {
		n, err := certify(c, at)
		return fmt.Sprintf("sat: the case's model makes all %d assertions in scope true", n), err
	})
}

// checkKnown looks for the wrong answer among the answers of every run of a case whose status is
// known by construction. The first one is a finding (title: "what LOGIC instance") once its
// certificate holds at that check-sat (cert returns what the case's status is and why); a case it
// cannot certify is skipped, never reported.
func checkKnown(c *fuzz.Case, runs []fuzz.Run, wrong, what string, cert func(at int) (string, error)) fuzz.Verdict {
	checked := false
	for _, run := range runs {
		r := result(c, run, RoleInstance)
		if r == nil || r.Failed() {
			continue
		}
		ans := answers(r)
		at := slices.Index(ans, wrong)
		if at < 0 {
			checked = checked || len(ans) > 0
			continue
		}
		expected, err := cert(at)
		if err != nil {
			return fuzz.Verdict{Skip: "uncertified"}
		}
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
			Title:    fuzz.Title(OracleSat, run.Target, what+" "+strings.ToLower(c.Params[ParamLogic])+" instance"+modeSuffix(c)),
			Kind:     fuzz.KindWrongResult,
			Oracle:   OracleSat,
			Expected: expected + " (certified by polyfuzz's evaluator)",
			Actual:   fmt.Sprintf("%s at check-sat %d of %d (answers: %s)", wrong, at+1, len(ans), strings.Join(ans, " ")),
			Roles:    []string{RoleInstance},
			Case:     c, Runs: runs,
		}}
	}
	if !checked {
		return fuzz.Verdict{Skip: "no-answer"}
	}
	return fuzz.Verdict{Checked: true}
}

// certify evaluates the assertions in scope at check-sat number at under the case's model and
// returns how many there are; an error says the certificate does not hold.
func certify(c *fuzz.Case, at int) (int, error) {
	p, err := parseCase(c)
	if err != nil {
		return 0, err
	}
	if at >= len(p.checks) {
		return 0, fmt.Errorf("check-sat %d does not exist", at+1)
	}
	m, err := ParseModelText(c.Params[ParamModel], p.env)
	if err != nil {
		return 0, err
	}
	return p.certify(m, at)
}

// certify checks that every assertion in scope at check-sat number at is true under m.
func (p *parsed) certify(m *Model, at int) (int, error) {
	for i, a := range p.checks[at] {
		if v, ok := m.Truth(a); !ok || !v {
			return 0, fmt.Errorf("assertion %d is not true under the model", i+1)
		}
	}
	return len(p.checks[at]), nil
}

// ModelOracle validates the models solvers give: on sat, the case's model query asks for the
// values of the declared constants and partial applications, and every assertion in scope must be
// true under them. It needs no construction model, so it checks mutants (opfuzz, typefuzz) too. A false assertion, or two different values for one function at the same
// arguments, is an invalid-model finding; an assertion the evaluator cannot decide is not.
type ModelOracle struct{}

// Name returns "model".
func (ModelOracle) Name() string { return OracleModel }

// Check validates every run's model.
func (ModelOracle) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	skip, checked := "no-model-query", false
	var p *parsed
	for _, run := range runs {
		ri, rm := result(c, run, RoleInstance), result(c, run, RoleModel)
		if ri == nil || rm == nil || ri.Failed() {
			continue
		}
		ans := answers(ri)
		if len(ans) == 0 || ans[len(ans)-1] != "sat" {
			skip = "not-sat"
			continue
		}
		if rm.Failed() {
			skip = "get-value-failed"
			continue
		}
		if p == nil {
			var err error
			if p, err = parseCase(c); err != nil || len(p.checks) == 0 {
				return fuzz.Verdict{Skip: "unparsable-case"}
			}
		}
		finding := func(actual string) fuzz.Verdict {
			return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
				Title:    fuzz.Title(OracleModel, run.Target, "invalid model of a "+strings.ToLower(c.Params[ParamLogic])+" instance"+modeSuffix(c)),
				Kind:     fuzz.KindInvalidModel,
				Oracle:   OracleModel,
				Expected: "every assertion in scope true under the values get-value gave",
				Actual:   actual,
				Roles:    []string{RoleInstance, RoleModel},
				Case:     c, Runs: runs,
			}}
		}
		m, err := ModelFromValues(p.env, p.values, rm.Rows)
		if errors.Is(err, ErrInconsistent) {
			return finding(err.Error())
		}
		if err != nil {
			skip = "unreadable-model"
			continue
		}
		decided := 0
		for i, a := range p.checks[len(p.checks)-1] {
			v, ok := m.Truth(a)
			if !ok {
				continue
			}
			decided++
			if !v {
				return finding(fmt.Sprintf("assertion %d is false under the model: %s", i+1, clip(a.String(), 300)))
			}
		}
		if decided == 0 {
			skip = "undecided"
			continue
		}
		checked = true
	}
	if !checked {
		return fuzz.Verdict{Skip: skip}
	}
	return fuzz.Verdict{Checked: true}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// ExpectError reports whether a solver error is expected: features a solver does not support, and
// model queries after an answer other than sat. An answer outside SMT-LIB
// (fuzz.CodeUnexpectedAnswer) never is, whatever it says.
func ExpectError(scope, code, msg string) bool {
	switch code {
	case "unsupported":
		return true
	case fuzz.CodeUnexpectedAnswer:
		return false
	}
	m := strings.ToLower(msg)
	for _, s := range expectedErrors {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// expectedErrors are lowercase message fragments of expected solver errors.
var expectedErrors = []string{
	"unsupported", "not supported", "unknown logic", "model is not available", "model not available",
	"cannot get value", "cannot get model", "not immediately preceded by sat", "unknown tactic",
	// z3 4.8.12 rejects constant arrays in logics whose array theory is the standard ArraysEx,
	// which has none; cvc5 accepts them. Instances copy them from seeds that use them.
	"unknown constant const",
	// A seed that uses a theory's sort outside its logic (cvc5's regression files do, and cvc5
	// accepts them; 2 of the corpus's 20 QF_FP files declare bit-vectors): z3 rejects the sort.
	// A declared sort that a solver forgets stays a finding.
	"unknown sort 'bitvec'", "unknown sort 'floatingpoint'", "unknown sort 'array'", "unknown sort 'string'",
	"unknown sort 'int'", "unknown sort 'real'", "unknown sort 'roundingmode'", "unknown sort 'float",
	// Bitwuzla has no arithmetic or string theory but takes logics that name one (QF_FPLRA,
	// ALL): its parser calls their sorts invalid and their operators undefined.
	"invalid sort 'int'", "invalid sort 'real'", "invalid sort 'string'", "invalid sort 'reglan'",
	"numerals and decimals only allowed to represent real values under 'to_fp'",
	"undefined symbol '+'", "undefined symbol '-'", "undefined symbol '*'", "undefined symbol '/'",
	"undefined symbol 'div'", "undefined symbol 'mod'", "undefined symbol 'abs'", "undefined symbol '<",
	"undefined symbol '>", "undefined symbol 'to_real'", "undefined symbol 'to_int'",
	"undefined symbol 'is_int'", "undefined symbol 'fp.to_real'",
	// A solver that rejects an option of the options style (z3, cvc5): a skipped check.
	"unknown parameter", "expected values for parameter", "error in option parsing",
}
