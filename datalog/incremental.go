package datalog

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
)

// Delta is the net change of a model by one update: the tuples of every relation, facts
// included, that were inserted and deleted, each list sorted by relation name and arguments.
type Delta struct {
	Inserted, Deleted []Tuple
}

// Update applies one epoch of fact changes: it deletes the facts of delete and inserts those of
// insert, then maintains the model incrementally, stratum by stratum, touching only the strata
// whose inputs changed. Facts may belong to any relation. Deleting a fact the program does not
// hold and inserting one it holds are no-ops; a tuple both inserted and deleted ends up a fact.
// Inserted facts are appended to the program's rules, deleted ones removed from it (see
// Program).
//
// Each stratum is maintained with DRed: over-delete the tuples of the stratum that have a
// derivation through a deleted tuple (or through a negated atom whose tuple was inserted),
// re-derive those that still have a derivation, then propagate insertions semi-naively (a
// deletion below a negated atom acts as an insertion). Re-derived tuples may come back with a
// larger height than before, which can leave a tuple that depends on them with a height no
// larger than its body's; the model then marks its heights stale and Explain recomputes them
// all before it answers.
//
// On error (an ill-formed tuple) the model is unchanged; if the model's tuple limit (see
// EvalContext) is exceeded half-way, the error is returned and the model is unusable.
func (m *Model) Update(insert, delete []Tuple) (*Delta, error) {
	if m.broken != nil {
		return nil, m.broken
	}
	removed, added, err := m.changeFacts(insert, delete)
	if err != nil {
		return nil, err
	}
	m.updating, m.ctx, m.maintained = true, context.Background(), 0
	for _, s := range m.strata {
		if len(removed[s.index]) == 0 && len(added[s.index]) == 0 && !m.inputsChanged(s) {
			continue
		}
		start := len(m.touched)
		m.maintained++
		m.maintain(s, removed[s.index], added[s.index])
		if m.err != nil {
			m.broken = fmt.Errorf("model unusable after a failed update: %w", m.err)
			return nil, m.err
		}
		for _, t := range m.touched[start:] {
			f := t.rel.flags[t.id]
			switch {
			case f&fIns != 0 && f&fAlive != 0:
				t.rel.plus = append(t.rel.plus, t.id)
			case f&fDel != 0 && f&fAlive == 0:
				t.rel.minus = append(t.rel.minus, t.id)
			}
		}
	}
	m.updating, m.ctx, m.cur = false, nil, -1
	return m.delta(), nil
}

// changeFacts checks the tuples and changes the program's facts. It returns, per stratum, the
// tuples that lost their last fact and those that became facts.
func (m *Model) changeFacts(insert, delete []Tuple) (removed, added [][]tupleRef, err error) {
	var del []tupleRef
	for _, t := range delete {
		rs, vals, err := m.values(t, false)
		if err != nil {
			return nil, nil, fmt.Errorf("delete %w", err)
		}
		if id, ok := rs.lookup(vals); ok && vals != nil {
			del = append(del, tupleRef{rs, id})
		}
	}
	for _, t := range insert {
		if _, _, err := m.values(t, false); err != nil {
			return nil, nil, fmt.Errorf("insert %w", err)
		}
	}
	removed = make([][]tupleRef, len(m.strata))
	added = make([][]tupleRef, len(m.strata))
	inserted := map[tupleRef]bool{}
	for _, t := range insert {
		rs, vals, _ := m.values(t, true)
		id, ok := rs.lookup(vals)
		if !ok {
			id = rs.add(vals)
		}
		inserted[tupleRef{rs, id}] = true
		if len(rs.facts[id]) > 0 {
			continue
		}
		r, err := m.compile(Rule{Head: Atom{Rel: rs.name, Args: m.terms(rs, vals)}})
		if err != nil {
			panic(err) // unreachable: the tuple was checked
		}
		rs.facts[id] = []int32{int32(r.id)}
		added[rs.stratum] = append(added[rs.stratum], tupleRef{rs, id})
		m.progIdx = nil
	}
	for _, t := range del {
		if inserted[t] || len(t.rel.facts[t.id]) == 0 {
			continue
		}
		m.dropFacts(t.rel, t.id)
		removed[t.rel.stratum] = append(removed[t.rel.stratum], t)
		m.progIdx = nil
	}
	return removed, added, nil
}

// delta returns the net change of the update that ends and forgets it.
func (m *Model) delta() *Delta {
	d := &Delta{}
	for _, rs := range m.rels {
		for _, id := range m.sorted(rs, rs.plus) {
			d.Inserted = append(d.Inserted, m.tupleOf(rs, id))
		}
		for _, id := range m.sorted(rs, rs.minus) {
			d.Deleted = append(d.Deleted, m.tupleOf(rs, id))
		}
		rs.plus, rs.minus = rs.plus[:0], rs.minus[:0]
	}
	for _, t := range m.touched {
		t.rel.flags[t.id] &^= fIns | fDel | fOver
	}
	m.touched = m.touched[:0]
	byRel := func(a, b Tuple) int { return cmp.Compare(a.Rel, b.Rel) }
	slices.SortStableFunc(d.Inserted, byRel)
	slices.SortStableFunc(d.Deleted, byRel)
	return d
}

// dropFacts deletes the fact rules of tuple id of rs.
func (m *Model) dropFacts(rs *relStore, id int32) {
	for _, r := range rs.facts[id] {
		m.rules[r].deleted = true
	}
	delete(rs.facts, id)
}

// sorted returns ids sorted by their tuples' arguments.
func (m *Model) sorted(rs *relStore, ids []int32) []int32 {
	ids = slices.Clone(ids)
	slices.SortFunc(ids, func(a, b int32) int { return m.compareTuples(rs, a, b) })
	return ids
}

// inputsChanged reports whether a relation that a rule of s reads changed in this update.
func (m *Model) inputsChanged(s *stratumRules) bool {
	for _, r := range s.rules {
		for _, a := range r.body {
			if len(a.rel.plus) > 0 || len(a.rel.minus) > 0 {
				return true
			}
		}
	}
	return false
}

// maintain updates stratum s with DRed after its lower strata changed (their plus and minus
// lists) and the facts removed and added to its relations.
func (m *Model) maintain(s *stratumRules, removed, added []tupleRef) {
	m.cur = s.index
	// Over-delete, reading the model as it was: removed facts, then every head of an instance
	// that used a deleted tuple or a negated atom whose tuple was inserted, transitively.
	var over []tupleRef
	mark := func(rs *relStore, id int32) {
		if rs.flags[id]&(fAlive|fOver) == fAlive && len(rs.facts[id]) == 0 {
			rs.flags[id] |= fOver
			over = append(over, tupleRef{rs, id})
		}
	}
	for _, t := range removed {
		mark(t.rel, t.id)
	}
	overEmit := func(x *joinRun) bool {
		if id, ok := x.r.head.lookup(x.headValues()); ok {
			mark(x.r.head, id)
		}
		return true
	}
	for _, r := range s.rules {
		for i, a := range r.body {
			given := a.rel.minus
			if a.negated {
				given = a.rel.plus
			}
			if a.rel.stratum != s.index && len(given) > 0 {
				m.run(r, r.plan(i), given, nil, true, math.MaxInt32, overEmit)
			}
		}
	}
	for done := 0; done < len(over) && m.err == nil; {
		batch := over[done:]
		done = len(over)
		for _, t := range batch {
			t.rel.delta = append(t.rel.delta, t.id)
		}
		for _, r := range s.rules {
			for i, a := range r.body {
				if !a.negated && a.rel.stratum == s.index && len(a.rel.delta) > 0 {
					m.run(r, r.plan(i), a.rel.delta, nil, true, math.MaxInt32, overEmit)
				}
			}
		}
		for _, rs := range s.rels {
			rs.delta = rs.delta[:0]
		}
	}
	for _, t := range over {
		m.kill(t.rel, t.id)
	}
	// Re-derive the over-deleted tuples that keep a derivation; they are queued for the
	// insertion phase, which brings back those that depend on them.
	for _, t := range over {
		for _, r := range t.rel.rules {
			if !m.run(r, r.plan(givenHead), nil, t.rel.tuple(t.id), false, math.MaxInt32,
				func(x *joinRun) bool { m.derive(x); return false }) || t.rel.flags[t.id]&fAlive != 0 {
				break
			}
		}
	}
	// Insert: new facts, then the heads of instances that use an inserted tuple or a negated
	// atom whose tuple was deleted, then semi-naive propagation.
	for _, t := range added {
		m.insert(t.rel, t.rel.tuple(t.id), 0, t.rel.facts[t.id][0])
	}
	for _, r := range s.rules {
		for i, a := range r.body {
			given := a.rel.plus
			if a.negated {
				given = a.rel.minus
			}
			if a.rel.stratum != s.index && len(given) > 0 {
				m.run(r, r.plan(i), given, nil, false, math.MaxInt32, m.derive)
			}
		}
	}
	m.fixpoint(s)
}

// Program returns the model's program with its current facts: the rules it was evaluated
// from without the facts Update deleted, followed by the facts Update inserted. Proof.Rule
// indexes its rules.
func (m *Model) Program() *Program {
	p := &Program{File: m.file, Relations: slices.Clone(m.relations)}
	for _, r := range m.rules {
		if !r.deleted {
			p.Rules = append(p.Rules, deepCopyRule(r.src))
		}
	}
	return p
}
