package dlsmith

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/datalog/localize"
)

// Semantic is the rollback of a sequence whose relation the reference engine itself breaks: a
// transformation that does not keep its promise, which no engine run can blame. The sequence's
// edit from the original program to the transformed one is encoded as a fact update (every rule
// version guarded by a fact, localize.EncodeRuleChange), the tuples that break the relation are
// the faults (unwanted: in the transformed answer and not the original's, where the relation
// forbids new tuples; wanted: in the original's and not the transformed one, where it forbids
// lost tuples), and the provenance paper's algorithms answer on the reference alone: the
// localization (Alg. 1, one incremental proof tree per fault) and the rollback (Alg. 2, the 0-1
// program over every derivation, solved exactly), each mapped back to the steps that made its
// changes. Steps is nil when the reference keeps the relation.
type Semantic struct {
	// Faults are the tuples that break the relation.
	Unwanted, Wanted []datalog.Tuple
	// Localization and Rollback are the steps of each answer, in order; their results the
	// answers in clauses, with proof trees and statistics.
	Localization, Rollback []int
	Localized, RolledBack  *localize.Result
	// Verified says that both answers hold in clauses: the localization's changes alone break
	// the relation, the update without the rollback's keeps it (evaluations from scratch).
	Verified bool
	// StepsVerified says that replaying the sequence without the rollback's steps keeps the
	// relation; LocalizationBreaks that replaying the localization's steps alone breaks it.
	StepsVerified, LocalizationBreaks bool
}

// Semantic computes the reference-side localization and rollback of the sequence, for the
// relation expect it was promised to keep.
func (c *Culprits) Semantic(expect datalog.Expect) (*Semantic, error) {
	trans, _, _ := Replay(c.Orig, c.Steps, c.all())
	p0, err := c.Orig.Program()
	if err != nil {
		return nil, err
	}
	p1, err := trans.Program()
	if err != nil {
		return nil, err
	}
	m0, err := datalog.Eval(p0)
	if err != nil {
		return nil, err
	}
	m1, err := datalog.Eval(p1)
	if err != nil {
		return nil, err
	}
	out := &Semantic{}
	gained, lost := diffTuples(m0, m1), diffTuples(m1, m0)
	if expect != datalog.Subset {
		out.Unwanted = gained
	}
	if expect != datalog.Superset {
		out.Wanted = lost
	}
	if len(out.Unwanted)+len(out.Wanted) == 0 {
		return out, nil
	}
	a, b := sameDeclarations(p0, p1)
	rc, err := localize.EncodeRuleChange(a, b)
	if err != nil {
		return nil, err
	}
	l, err := localize.New(localize.Problem{Program: rc.Program, Before: rc.Before, After: rc.After,
		Unwanted: out.Unwanted, Wanted: out.Wanted})
	if err != nil {
		return nil, fmt.Errorf("dlsmith: semantic rollback: %w", err)
	}
	if out.Localized, err = l.Localize(); err != nil {
		return nil, err
	}
	if out.RolledBack, err = l.Rollback(); err != nil {
		return nil, err
	}
	added, removed := c.changes()
	toSteps := func(changes []localize.Change) []int {
		var idx []int
		for _, ch := range changes {
			key := datalog.Rule{Head: datalog.Atom{Rel: ch.Tuple.Rel, Args: ch.Tuple.Args}}.String()
			if r, ok := rc.Rule(ch.Tuple); ok {
				key = r.String()
			}
			from := removed
			if ch.Insert {
				from = added
			}
			if i, ok := from[key]; ok {
				idx = append(idx, i)
			}
		}
		return dedup(idx)
	}
	// A clause is attributed to the step that last changed it. Removing that step may bring
	// back an earlier version of the rule rather than remove it, so the rollback in steps is
	// checked by replaying the sequence without them (StepsVerified), as the localization is by
	// replaying its steps alone (with the steps that made the nodes they need).
	holds := func(keep []int) bool {
		g, _, _ := Replay(c.Orig, c.Steps, keep)
		p, err := g.Program()
		if err != nil {
			return false
		}
		m, err := datalog.Eval(p)
		return err == nil && expect.Holds(m0.Output(), m.Output())
	}
	out.Rollback = toSteps(out.RolledBack.Changes)
	out.StepsVerified = holds(slices.DeleteFunc(c.all(), func(i int) bool { return slices.Contains(out.Rollback, i) }))
	out.Localization = c.closure(toSteps(out.Localized.Changes))
	out.LocalizationBreaks = !holds(out.Localization)
	out.Verified = out.RolledBack.Verified && out.Localized.Verified
	return out, nil
}

// String describes the semantic rollback in a few lines.
func (s *Semantic) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d unwanted and %d wanted tuples break the relation on the reference\n", len(s.Unwanted), len(s.Wanted))
	fmt.Fprintf(&b, "localization: %d changes, steps %v (alone they break it: %v); rollback: %d changes, steps %v (without them it holds: %v); clauses verified: %v",
		len(s.Localized.Changes), s.Localization, s.LocalizationBreaks, len(s.RolledBack.Changes), s.Rollback, s.StepsVerified, s.Verified)
	return b.String()
}

// diffTuples returns the output tuples of b that a lacks.
func diffTuples(a, b *datalog.Model) []datalog.Tuple {
	in := map[string]bool{}
	for _, r := range a.Output() {
		in[strings.Join(r, "\x1f")] = true
	}
	var out []datalog.Tuple
	for _, r := range b.Output() {
		if !in[strings.Join(r, "\x1f")] {
			if t, ok := datalog.RowTuple(r); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// sameDeclarations returns copies of p0 and p1 that both declare every relation of either (p0's
// first, then the ones only p1 has), with their .input and .output marks, so that the edit from
// one to the other is a rule change.
func sameDeclarations(p0, p1 *datalog.Program) (*datalog.Program, *datalog.Program) {
	rels := slices.Clone(p0.Relations)
	for _, r := range p1.Relations {
		if p0.Relation(r.Name) == nil {
			rels = append(rels, r)
		}
	}
	a, b := p0.Clone(), p1.Clone()
	a.Relations, b.Relations = slices.Clone(rels), slices.Clone(rels)
	return a, b
}

// closure returns the steps of idx with the steps that made the nodes they need, in order.
func (c *Culprits) closure(idx []int) []int {
	var out []int
	for _, i := range idx {
		out = append(out, c.needs(i)...)
	}
	return dedup(out)
}
