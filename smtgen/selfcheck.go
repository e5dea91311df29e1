package smtgen

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/polyfuzz/polyfuzz/sexpr"
)

// SelfCheckReport is the outcome of [SelfCheck]: how many random ground terms the evaluator and
// the solver agreed on.
type SelfCheckReport struct {
	Theory string
	// Terms is the number of terms generated, and Terms = Agreed + Disagreed + SolverError + Undecided.
	Terms     int
	Agreed    int
	Disagreed int
	// SolverError counts terms the solver rejected or answered with a value ParseValue cannot
	// read (alone: a failing batch is split until the failing terms are found).
	SolverError int
	// Undecided counts terms the evaluator could not decide even with the solver's values of the
	// partial applications pinned.
	Undecided int
	// Partial counts the terms with a partial application (div, mod or / by a term that is not
	// a nonzero literal), whose value depends on the solver's pinned values when it is zero.
	Partial int
	// Inconsistent counts pins of partial applications that contradicted an earlier pin or the
	// evaluator (the solver answered two values for one unspecified application).
	Inconsistent int
	// Examples holds up to 20 disagreements, ErrorExamples up to 10 solver errors or
	// inconsistencies.
	Examples      []Disagreement
	ErrorExamples []string

	all  []Disagreement // every disagreement, for the tests
	errs []scError      // every solver error, for the tests
}

// scError is one term the solver did not answer with a readable value.
type scError struct {
	term, answer string // answer: the solver's value text, or its (error ...)
}

// Disagreement is one term on which the evaluator and the solver differ, as printed values.
type Disagreement struct {
	Term, Ours, Solver string
}

// String summarises the report on one line.
func (r *SelfCheckReport) String() string {
	return fmt.Sprintf("%s: %d terms, %d agreed, %d disagreed, %d solver errors, %d undecided (%d with partial operations, %d inconsistent pins)",
		r.Theory, r.Terms, r.Agreed, r.Disagreed, r.SolverError, r.Undecided, r.Partial, r.Inconsistent)
}

// selfCheckBatch is the number of terms sent to the solver in one script.
const selfCheckBatch = 200

// SelfCheckScriptHeader starts every script of [SelfCheck]; z3 4.8 and cvc5 1.0 accept it.
const SelfCheckScriptHeader = "(set-option :produce-models true)\n(set-logic ALL)\n(check-sat)\n"

// SelfCheck evaluates n random ground terms of theory (see [RandomGroundTerm]) generated from
// seed, and compares each value with the solver's. ask runs one script on the solver and returns
// its output; the scripts are [SelfCheckScriptHeader] followed by (get-value (t1 t2 ...)) of about
// 200 terms and of their partial applications (div/mod// by a term that may be zero), whose
// values are pinned into the model before the terms are evaluated. The terms are printed before
// they are sort-checked, so the solver sees Int terms where Reals are expected, as written. An
// error means the evaluator failed (not undecided) on a term, or ask failed because ctx ended.
func SelfCheck(ctx context.Context, theory string, n int, seed int64,
	ask func(ctx context.Context, script string) (string, error)) (*SelfCheckReport, error) {
	h := fnv.New64a()
	h.Write([]byte(theory))
	r := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	if randomGround(r, theory, 0) == nil {
		return nil, fmt.Errorf("self-check: unknown theory %q (want one of %s)", theory, strings.Join(Theories, ", "))
	}
	return selfCheckTerms(ctx, theory, n, func() *Term { return randomGround(r, theory, 1+r.IntN(4)) }, ask)
}

// selfCheckTerms is [SelfCheck] of n terms from gen, reported under the name theory.
func selfCheckTerms(ctx context.Context, theory string, n int, gen func() *Term,
	ask func(ctx context.Context, script string) (string, error)) (*SelfCheckReport, error) {
	rep := &SelfCheckReport{Theory: theory}
	env := theoryEnv(theory)
	for done := 0; done < n; {
		k := min(selfCheckBatch, n-done)
		items := make([]scItem, k)
		for i := range items {
			t := gen()
			items[i].text = t.String()
			if err := env.CheckTerm(t); err != nil {
				return rep, fmt.Errorf("self-check: generated an ill-sorted term %s: %w", items[i].text, err)
			}
			items[i].t = t
		}
		if err := rep.batch(ctx, env, items, ask); err != nil {
			return rep, err
		}
		done += k
		rep.Terms += k
	}
	return rep, nil
}

// scItem is one generated term: as printed for the solver, and sort-checked.
type scItem struct {
	text string
	t    *Term
}

// batch checks items with one solver call: one get-value per term, then one per partial
// application. A solver that stops at an error (cvc5 does) is asked again without the failing
// term; one that goes on (z3) answers (error ...) for that term only.
func (rep *SelfCheckReport) batch(ctx context.Context, env *Env, items []scItem,
	ask func(ctx context.Context, script string) (string, error)) error {
	for len(items) > 0 {
		terms := make([]*Term, len(items))
		for i, it := range items {
			terms[i] = it.t
		}
		apps := PartialApps(terms)
		var b strings.Builder
		b.WriteString(selfCheckHeader(rep.Theory))
		for _, it := range items {
			b.WriteString("(get-value (" + it.text + "))\n")
		}
		for _, a := range apps {
			b.WriteString("(get-value (" + a.String() + "))\n")
		}
		out, err := ask(ctx, b.String())
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var answers []scAnswer
		if err == nil {
			answers, err = getValueAnswers(out)
		}
		if err != nil {
			// The solver failed as a whole: count the first term as failing and go on.
			rep.SolverError++
			rep.errs = append(rep.errs, scError{items[0].text, err.Error()})
			rep.errorExample(fmt.Sprintf("%s: %v", items[0].text, clipText(err.Error(), 300)))
			items = items[1:]
			continue
		}
		if n := len(answers); n < len(items)+len(apps) {
			if n == 0 || n > len(items) || answers[n-1].err == "" {
				return fmt.Errorf("self-check: the solver answered %d of %d get-values: %s",
					n, len(items)+len(apps), clipText(out, 300))
			}
			// Stopped at an error on term n-1: drop it and ask again.
			rep.SolverError++
			rep.errs = append(rep.errs, scError{items[n-1].text, answers[n-1].err})
			rep.errorExample(items[n-1].text + ": " + clipText(answers[n-1].err, 300))
			items = append(items[:n-1:n-1], items[n:]...)
			continue
		}
		rep.compare(env, items, apps, answers)
		return nil
	}
	return nil
}

// compare pins the partial applications' values into a fresh model and compares the terms'.
func (rep *SelfCheckReport) compare(env *Env, items []scItem, apps []*Term, answers []scAnswer) {
	m := NewModel(env)
	for i, a := range apps {
		ans := answers[len(items)+i]
		if ans.err != "" {
			continue
		}
		v, err := parseAnswer(m, ans.value, a.Sort)
		if err != nil {
			continue
		}
		if err := m.Pin(a, v); err != nil && errors.Is(err, ErrInconsistent) {
			rep.Inconsistent++
			rep.errorExample("inconsistent pin: " + err.Error())
		}
	}
	for i, it := range items {
		if len(PartialApps([]*Term{it.t})) > 0 {
			rep.Partial++
		}
		ans := answers[i]
		if ans.err != "" {
			rep.SolverError++
			rep.errs = append(rep.errs, scError{it.text, ans.err})
			rep.errorExample(it.text + ": " + clipText(ans.err, 300))
			continue
		}
		ours, err := m.Eval(it.t)
		if err != nil {
			if errors.Is(err, ErrUndecided) {
				rep.Undecided++
				continue
			}
			rep.SolverError++ // not the solver's, but never a disagreement
			rep.errs = append(rep.errs, scError{it.text, "evaluator: " + err.Error()})
			rep.errorExample(fmt.Sprintf("evaluator: %s: %v", it.text, err))
			continue
		}
		theirs, err := parseAnswer(m, ans.value, it.t.Sort)
		if err != nil {
			rep.SolverError++
			rep.errs = append(rep.errs, scError{it.text, ans.value})
			rep.errorExample(fmt.Sprintf("%s: value %s: %v", it.text, clipText(ans.value, 200), clipText(err.Error(), 200)))
			continue
		}
		if eq, ok := (&evaluator{m: m, re: m.re}).equal(ours, theirs); ok && eq {
			rep.Agreed++
			continue
		}
		rep.Disagreed++
		d := Disagreement{Term: it.text, Ours: ours.String(), Solver: ans.value}
		rep.all = append(rep.all, d)
		if len(rep.Examples) < 20 {
			rep.Examples = append(rep.Examples, d)
		}
	}
}

// scAnswer is the answer to one get-value: the value text, or the solver's error.
type scAnswer struct {
	value string
	err   string
}

// getValueAnswers reads a solver's answers to a check-sat and a sequence of one-term get-values.
func getValueAnswers(out string) ([]scAnswer, error) {
	items, err := sexprItems(dropWarnings(out))
	if err != nil {
		return nil, err
	}
	if len(items) == 0 || items[0] != "sat" {
		return nil, fmt.Errorf("solver: expected sat, got %q", clipText(out, 300))
	}
	var answers []scAnswer
	for _, it := range items[1:] {
		if strings.HasPrefix(it, "(error") {
			answers = append(answers, scAnswer{err: it})
			continue
		}
		if !strings.HasPrefix(it, "(") {
			return nil, fmt.Errorf("solver: unexpected %q", clipText(it, 100))
		}
		vs, err := GetValueAnswer(it)
		if err != nil {
			return nil, err
		}
		if len(vs) != 1 {
			return nil, fmt.Errorf("solver: %d values for one term", len(vs))
		}
		answers = append(answers, scAnswer{value: vs[0]})
	}
	return answers, nil
}

func (rep *SelfCheckReport) errorExample(s string) {
	if len(rep.ErrorExamples) < 10 {
		rep.ErrorExamples = append(rep.ErrorExamples, s)
	}
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// parseAnswer reads a value text of a get-value answer.
func parseAnswer(m *Model, text string, s *Sort) (Value, error) {
	t, err := ParseTerm(text)
	if err != nil {
		return nil, err
	}
	return m.ParseValue(t, s)
}

// GetValueAnswer finds the answer to the last get-value in a solver's output (which may start
// with sat and hold other answers) and returns the value texts, in order. An (error ...) in the
// output is an error.
func GetValueAnswer(out string) ([]string, error) {
	items, err := sexprItems(out)
	if err != nil {
		return nil, err
	}
	answer := ""
	for _, it := range items {
		if strings.HasPrefix(it, "(error") {
			return nil, fmt.Errorf("solver: %s", it)
		}
		if strings.HasPrefix(it, "(") {
			answer = it
		}
	}
	if answer == "" {
		return nil, fmt.Errorf("no get-value answer in %q", clipText(out, 200))
	}
	pairs, err := sexprItems(answer[1 : len(answer)-1])
	if err != nil {
		return nil, err
	}
	values := make([]string, len(pairs))
	for i, p := range pairs {
		if !strings.HasPrefix(p, "(") {
			return nil, fmt.Errorf("get-value answer: %q is not a (term value) pair", clipText(p, 100))
		}
		tv, err := sexprItems(p[1 : len(p)-1])
		if err != nil {
			return nil, err
		}
		if len(tv) != 2 {
			return nil, fmt.Errorf("get-value answer: %q is not a (term value) pair", clipText(p, 100))
		}
		values[i] = tv[1]
	}
	return values, nil
}

// dropWarnings removes the lines of solver output that start, in the first column, with a letter
// and are not sat, unsat or unknown: warnings such as cvc5's "Could not evaluate ... in
// getValue." (answers and their continuation lines start with a parenthesis or white space).
func dropWarnings(out string) string {
	lines := strings.Split(out, "\n")
	kept := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if l != "" && (l[0] >= 'a' && l[0] <= 'z' || l[0] >= 'A' && l[0] <= 'Z') &&
			t != "sat" && t != "unsat" && t != "unknown" {
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "\n")
}

// sexprItems splits s into the texts of its top-level s-expressions (atoms, string literals,
// quoted symbols, parenthesised lists), dropping white space and comments.
func sexprItems(s string) ([]string, error) {
	nodes, err := sexpr.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("solver output: %w", err)
	}
	items := make([]string, len(nodes))
	for i := range nodes {
		items[i] = s[nodes[i].Pos:nodes[i].End]
	}
	return items, nil
}
