// Package localize explains and undoes a Datalog input update that broke a program's output,
// after Zhao, Subotić, Raghothaman and Scholz, "Provenance Guided Rollback Suggestions": given a
// program, its facts before and after an update, and the output the user intends (tuples that
// must not be derived, tuples that must be), fault localization names a small part of the update
// that alone, applied to the old facts, reproduces every fault (one incremental proof tree per
// fault, Alg. 1), and a rollback suggestion names a minimal part of the update whose removal
// repairs every fault (a 0-1 optimisation over all incremental derivations of the faults, Alg. 2,
// solved exactly by gophersat). Faults of the other kind and stratified negation go through the
// dual problem on the reverse update (Alg. 3 and its localization twin). Both run on the
// reference engine (datalog.Eval, Model.Update, Explain, ExplainAll) and are checked by one
// evaluation from scratch; delta debugging over the update (DDLocalize, DDRollback) is the
// black-box baseline. EncodeRuleChange turns a program edit into a fact update, so that rule
// changes are localized and rolled back the same way.
package localize

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// Problem is an update that broke a program's output. Program holds the declarations and rules;
// its own facts hold both before and after the update. Before and After are the input facts of
// the two states (E1 and E2): the update inserts the facts of After that Before lacks and deletes
// those of Before that After lacks. Unwanted tuples must not be derived and Wanted tuples must
// be; the old state must satisfy both, the new one violate at least one.
type Problem struct {
	Program          *datalog.Program
	Before, After    []datalog.Tuple
	Unwanted, Wanted []datalog.Tuple
}

// Change is one fact of an update: inserted (Insert) or deleted.
type Change struct {
	Tuple  datalog.Tuple
	Insert bool
}

// String prints the change as "+rel(...)" or "-rel(...)".
func (c Change) String() string {
	if c.Insert {
		return "+" + c.Tuple.String()
	}
	return "-" + c.Tuple.String()
}

// Stats counts the work of one answer, the shared set-up included.
type Stats struct {
	Evaluations  int           // evaluations from scratch on the reference engine
	Updates      int           // incremental updates (Model.Update)
	ProofQueries int           // proof-tree queries (Explain, ExplainAll)
	ILPVars      int           // variables of the 0-1 programs solved
	ILPCons      int           // constraints of the 0-1 programs solved
	ILPSolves    int           // 0-1 programs solved
	Time         time.Duration // wall time
}

// add adds o to s.
func (s *Stats) add(o Stats) {
	s.Evaluations += o.Evaluations
	s.Updates += o.Updates
	s.ProofQueries += o.ProofQueries
	s.ILPVars += o.ILPVars
	s.ILPCons += o.ILPCons
	s.ILPSolves += o.ILPSolves
	s.Time += o.Time
}

// String prints the statistics on one line.
func (s Stats) String() string {
	return fmt.Sprintf("%d evaluations, %d updates, %d proof queries, ILP %d variables %d constraints (%d solved), %s",
		s.Evaluations, s.Updates, s.ProofQueries, s.ILPVars, s.ILPCons, s.ILPSolves, s.Time.Round(time.Microsecond))
}

// Result is a localization or a rollback suggestion.
type Result struct {
	Changes  []Change // the answer: a subset of the update, sorted
	Trees    []*Tree  // incremental proof trees that justify it, one per fault met
	Verified bool     // an evaluation from scratch confirmed the answer
	// Negation is set when the answer went through a negated atom (the dual problem), where the
	// algorithm does not guarantee a minimal answer.
	Negation bool
	Stats    Stats
}

// Localizer holds one problem: the reference model of the new state after the update from the
// old one (and, once needed, of the old state after the reverse update) and the faults.
type Localizer struct {
	prob    Problem
	rules   []datalog.Rule // the program's rules, facts excluded
	base    []datalog.Tuple
	before  map[string]datalog.Tuple
	update  []Change
	fwd     *direction // E1 -> E2, built by New
	rev     *direction // E2 -> E1, built on first use
	appear  []datalog.Tuple
	missing []datalog.Tuple
	// Setup is the work of New: one evaluation of the old state and one update to the new one.
	Setup Stats
}

// New checks the problem and computes the update and its faults on the reference engine. The
// errors name the problem and the fix in one line.
func New(prob Problem) (*Localizer, error) {
	start := time.Now()
	if len(prob.Unwanted) == 0 && len(prob.Wanted) == 0 {
		return nil, fmt.Errorf("no intended output: give at least one unwanted or wanted tuple")
	}
	l := &Localizer{prob: prob, before: map[string]datalog.Tuple{}}
	inline := map[string]bool{}
	for _, r := range prob.Program.Rules {
		if r.IsFact() {
			t := datalog.Tuple{Rel: r.Head.Rel, Args: r.Head.Args}
			l.base = append(l.base, t)
			inline[t.String()] = true
		} else {
			l.rules = append(l.rules, r)
		}
	}
	after := map[string]datalog.Tuple{}
	for _, set := range []struct {
		facts []datalog.Tuple
		into  map[string]datalog.Tuple
	}{{prob.Before, l.before}, {prob.After, after}} {
		for _, t := range set.facts {
			if err := checkTuple(prob.Program, t, "fact"); err != nil {
				return nil, err
			}
			if !inline[t.String()] {
				set.into[t.String()] = t
			}
		}
	}
	for k, t := range after {
		if _, ok := l.before[k]; !ok {
			l.update = append(l.update, Change{Tuple: t, Insert: true})
		}
	}
	for k, t := range l.before {
		if _, ok := after[k]; !ok {
			l.update = append(l.update, Change{Tuple: t})
		}
	}
	sortChanges(l.update)
	for _, ts := range [][]datalog.Tuple{prob.Unwanted, prob.Wanted} {
		for _, t := range ts {
			if err := checkTuple(prob.Program, t, "intended tuple"); err != nil {
				return nil, err
			}
		}
	}
	m1, err := datalog.Eval(l.program(nil))
	if err != nil {
		return nil, err
	}
	l.Setup.Evaluations++
	for _, t := range prob.Unwanted {
		if m1.Contains(t) {
			return nil, fmt.Errorf("unwanted tuple %s is already derived before the update: the old facts must give the intended output; drop it or fix --before", t)
		}
	}
	for _, t := range prob.Wanted {
		if !m1.Contains(t) {
			return nil, fmt.Errorf("wanted tuple %s is not derived before the update either: the old facts must give the intended output; drop it or fix --before", t)
		}
	}
	l.fwd, err = l.newDirection(m1, true)
	if err != nil {
		return nil, err
	}
	l.Setup.Updates++
	for _, t := range prob.Unwanted {
		if !l.fwd.model.Contains(t) {
			return nil, fmt.Errorf("unwanted tuple %s is not derived after the update, so it is no fault; drop it", t)
		}
		l.appear = append(l.appear, t)
	}
	for _, t := range prob.Wanted {
		if l.fwd.model.Contains(t) {
			return nil, fmt.Errorf("wanted tuple %s is derived after the update, so it is no fault; drop it", t)
		}
		l.missing = append(l.missing, t)
	}
	l.Setup.Time = time.Since(start)
	return l, nil
}

// checkTuple checks t against the program's declarations.
func checkTuple(p *datalog.Program, t datalog.Tuple, what string) error {
	r := p.Relation(t.Rel)
	if r == nil {
		return fmt.Errorf("%s %s: relation %s is not declared in %s; declare it or drop the tuple", what, t, t.Rel, p.File)
	}
	if len(t.Args) != len(r.Attrs) {
		return fmt.Errorf("%s %s: %s has %d arguments, its declaration %d", what, t, t.Rel, len(t.Args), len(r.Attrs))
	}
	for i, a := range t.Args {
		ok := a.Kind == datalog.Num && r.Attrs[i].Type == datalog.Number || a.Kind == datalog.Sym && r.Attrs[i].Type == datalog.Symbol
		if !ok {
			return fmt.Errorf("%s %s: argument %d must be a %s constant (column %s of %s)", what, t, i+1, r.Attrs[i].Type, r.Attrs[i].Name, t.Rel)
		}
	}
	return nil
}

// Update returns the update: its insertions and deletions, sorted.
func (l *Localizer) Update() []Change { return slices.Clone(l.update) }

// Faults returns the unwanted tuples that appear and the wanted tuples that disappear.
func (l *Localizer) Faults() (appear, missing []datalog.Tuple) {
	return slices.Clone(l.appear), slices.Clone(l.missing)
}

// program returns the program with the old facts and the changes applied.
func (l *Localizer) program(apply []Change) *datalog.Program {
	p := &datalog.Program{File: l.prob.Program.File, Relations: l.prob.Program.Relations}
	facts := map[string]datalog.Tuple{}
	for k, t := range l.before {
		facts[k] = t
	}
	for _, c := range apply {
		if c.Insert {
			facts[c.Tuple.String()] = c.Tuple
		} else {
			delete(facts, c.Tuple.String())
		}
	}
	keys := make([]string, 0, len(facts))
	for k := range facts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, t := range l.base {
		p.Rules = append(p.Rules, datalog.Rule{Head: datalog.Atom{Rel: t.Rel, Args: t.Args}})
	}
	for _, k := range keys {
		t := facts[k]
		p.Rules = append(p.Rules, datalog.Rule{Head: datalog.Atom{Rel: t.Rel, Args: t.Args}})
	}
	p.Rules = append(p.Rules, l.rules...)
	return p
}

// correct evaluates the old facts with the changes applied and reports whether the intended
// output holds (no unwanted tuple, every wanted one) and whether every fault shows (every
// unwanted tuple, no wanted one).
func (l *Localizer) correct(apply []Change, st *Stats) (correct, faulty bool, err error) {
	m, err := datalog.Eval(l.program(apply))
	if err != nil {
		return false, false, err
	}
	st.Evaluations++
	correct, faulty = true, true
	for _, t := range l.prob.Unwanted {
		in := m.Contains(t)
		correct = correct && !in
		faulty = faulty && in
	}
	for _, t := range l.prob.Wanted {
		in := m.Contains(t)
		correct = correct && in
		faulty = faulty && !in
	}
	return correct, faulty, nil
}

// Localize computes a fault localization: a subset of the update that, applied alone to the old
// facts, reproduces every fault. Unwanted tuples that appear are localized by the ΔE leaves of
// one incremental proof tree each; wanted tuples that disappear by the dual problem (a rollback
// of their appearance under the reverse update); negated atoms switch between the two.
func (l *Localizer) Localize() (*Result, error) { return l.full(true) }

// Rollback computes a rollback suggestion: a subset of the update whose removal from the update
// repairs every fault. Unwanted tuples that appear are repaired by the 0-1 optimisation over all
// their incremental derivations; wanted tuples that disappear by the dual problem (a
// localization of their appearance under the reverse update); negated atoms switch between the
// two.
func (l *Localizer) Rollback() (*Result, error) { return l.full(false) }

// full is Alg. 3 (Full-Rollback-Repair) when localize is false and its localization twin when
// it is true: a worklist that alternates between the faults that appear under the update and
// those that appear under the reverse update, until no negated atom adds more.
func (l *Localizer) full(localize bool) (*Result, error) {
	start := time.Now()
	res := &Result{}
	plus, minus := l.appear, l.missing
	seen := [2]map[string]bool{{}, {}}
	chosen := map[string]Change{}
	mark := func(ts []datalog.Tuple, dir int) []datalog.Tuple {
		var out []datalog.Tuple
		for _, t := range ts {
			if !seen[dir][t.String()] {
				seen[dir][t.String()] = true
				out = append(out, t)
			}
		}
		return out
	}
	plus, minus = mark(plus, 0), mark(minus, 1)
	for len(plus)+len(minus) > 0 {
		for dir := range 2 {
			faults := plus
			if dir == 1 {
				faults = minus
			}
			if len(faults) == 0 {
				continue
			}
			d := l.fwd
			if dir == 1 {
				if err := l.reverse(&res.Stats); err != nil {
					return nil, err
				}
				d = l.rev
			}
			var lv leaves
			var err error
			if localize == (dir == 0) {
				lv, err = d.localize(faults, &res.Stats)
			} else {
				lv, err = d.rollback(faults, &res.Stats)
			}
			if err != nil {
				return nil, err
			}
			res.Trees = append(res.Trees, lv.trees...)
			for _, c := range lv.changes {
				chosen[c.String()] = c
			}
			if len(lv.negated) > 0 {
				res.Negation = true
			}
			next := mark(lv.negated, 1-dir)
			if dir == 0 {
				minus = append(minus, next...)
				plus = nil
			} else {
				plus = append(plus, next...)
				minus = nil
			}
		}
	}
	for _, c := range chosen {
		res.Changes = append(res.Changes, c)
	}
	sortChanges(res.Changes)
	apply := res.Changes
	if !localize {
		apply = l.without(res.Changes)
	}
	correct, faulty, err := l.correct(apply, &res.Stats)
	if err != nil {
		return nil, err
	}
	res.Verified = localize && faulty || !localize && correct
	res.Stats.Time = time.Since(start)
	res.Stats.add(l.Setup)
	return res, nil
}

// without returns the update without the changes of drop.
func (l *Localizer) without(drop []Change) []Change {
	out := make([]Change, 0, len(l.update))
	for _, c := range l.update {
		if !slices.ContainsFunc(drop, func(d Change) bool { return d.Insert == c.Insert && d.Tuple.String() == c.Tuple.String() }) {
			out = append(out, c)
		}
	}
	return out
}

// reverse builds the reverse direction on first use: the new state evaluated, then updated back
// to the old one.
func (l *Localizer) reverse(st *Stats) error {
	if l.rev != nil {
		return nil
	}
	m2, err := datalog.Eval(l.program(l.update))
	if err != nil {
		return err
	}
	st.Evaluations++
	l.rev, err = l.newDirection(m2, false)
	if err != nil {
		return err
	}
	st.Updates++
	return nil
}

// sortChanges sorts changes by tuple text, insertions first on ties.
func sortChanges(cs []Change) {
	slices.SortFunc(cs, func(a, b Change) int {
		if c := strings.Compare(a.Tuple.String(), b.Tuple.String()); c != 0 {
			return c
		}
		return cmp.Compare(b2i(!a.Insert), b2i(!b.Insert))
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
