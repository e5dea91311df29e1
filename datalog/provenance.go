package datalog

import (
	"fmt"
	"math"
	"slices"
)

// Proof is a proof tree of a tuple: one instance of a rule whose head is Tuple. Rule indexes
// the rules of the model's program (Model.Program); Body holds the proofs of the instance's
// positive body tuples, in the order of the rule's positive atoms, and Negated the tuples its
// negated atoms require to be absent, in their order. Where a negated atom has _, the
// argument is _ (Kind Anon): no tuple that agrees with the other arguments is in the model. A
// fact's proof is a leaf.
type Proof struct {
	Tuple   Tuple
	Rule    int
	Body    []*Proof
	Negated []Tuple
}

// Rules returns the sorted distinct indexes of the rules, facts included, that p uses.
func (p *Proof) Rules() []int {
	var out []int
	var walk func(*Proof)
	walk = func(p *Proof) {
		out = append(out, p.Rule)
		for _, c := range p.Body {
			walk(c)
		}
	}
	walk(p)
	slices.Sort(out)
	return slices.Compact(out)
}

// Explain returns a proof tree of t built level by level from the height annotations (the
// two-phase method of Zhao et al.): a fact is a leaf; for a derived tuple of height h, an
// instance of one of its rules whose positive body tuples all have heights below h, each
// explained in turn. In a model that Eval computed, the tree's height is t's height, the
// minimal height of any proof tree of t; after Update, heights need not be minimal. Equal
// subtrees are one shared *Proof, so the tree takes space linear in the number of distinct
// tuples it holds.
func (m *Model) Explain(t Tuple) (*Proof, error) {
	rs, id, err := m.find(t)
	if err != nil {
		return nil, err
	}
	if rs.flags[id]&fAlive == 0 {
		return nil, fmt.Errorf("%s is not in the model", t)
	}
	m.freshHeights()
	return m.explain(rs, id, map[tupleRef]*Proof{})
}

// explain returns the proof tree of tuple id of rs, trying its stored rule first; memo holds
// the trees already built.
func (m *Model) explain(rs *relStore, id int32, memo map[tupleRef]*Proof) (*Proof, error) {
	if p := memo[tupleRef{rs, id}]; p != nil {
		return p, nil
	}
	if f := rs.facts[id]; len(f) > 0 {
		p := &Proof{Tuple: m.tupleOf(rs, id), Rule: m.progIndex(int(f[0]))}
		memo[tupleRef{rs, id}] = p
		return p, nil
	}
	h := rs.height[id]
	rules := rs.rules
	if stored := rs.rule[id]; stored >= 0 && !m.rules[stored].fact {
		rules = append([]*cRule{m.rules[stored]}, rules...)
	}
	for _, r := range rules {
		var found *joinRun
		m.run(r, r.plan(givenHead), nil, rs.tuple(id), false, h, func(x *joinRun) bool {
			found = x
			return false
		})
		if found != nil {
			p, err := m.proof(found, rs, id, memo)
			memo[tupleRef{rs, id}] = p
			return p, err
		}
	}
	return nil, fmt.Errorf("no derivation of %s has body tuples of heights below %d (the height annotations are inconsistent)",
		m.tupleOf(rs, id), h)
}

// proof returns the proof tree of the rule instance x with head tuple id of rs, explaining
// the body tuples with Explain; memo holds the trees already built.
func (m *Model) proof(x *joinRun, rs *relStore, id int32, memo map[tupleRef]*Proof) (*Proof, error) {
	p := &Proof{Tuple: m.tupleOf(rs, id), Rule: m.progIndex(x.r.id)}
	for i, a := range x.r.body {
		if a.negated {
			args := make([]Term, len(a.args))
			for j, o := range a.args {
				if o.slot == anonSlot {
					args[j] = Any()
				} else {
					args[j] = m.term(a.rel.types[j], x.value(o))
				}
			}
			p.Negated = append(p.Negated, Tuple{Rel: a.rel.name, Args: args})
			continue
		}
		c, err := m.explain(a.rel, x.ids[i], memo)
		if err != nil {
			return nil, err
		}
		p.Body = append(p.Body, c)
	}
	return p, nil
}

// ExplainAll returns up to limit proof trees of t (no limit when limit <= 0) that differ in
// their root: one per fact of t and per instance of a rule with head t, in rule order. Each
// body tuple is explained with Explain. It returns nil when t is not in the model.
func (m *Model) ExplainAll(t Tuple, limit int) []*Proof {
	rs, id, err := m.find(t)
	if err != nil || rs.flags[id]&fAlive == 0 {
		return nil
	}
	m.freshHeights()
	var out []*Proof
	memo := map[tupleRef]*Proof{}
	full := func() bool { return limit > 0 && len(out) >= limit }
	rules := slices.Clone(rs.rules)
	for _, f := range rs.facts[id] {
		rules = append(rules, m.rules[f])
	}
	slices.SortFunc(rules, func(a, b *cRule) int { return a.id - b.id })
	for _, r := range rules {
		if full() {
			break
		}
		if r.fact {
			out = append(out, &Proof{Tuple: m.tupleOf(rs, id), Rule: m.progIndex(r.id)})
			continue
		}
		m.run(r, r.plan(givenHead), nil, rs.tuple(id), false, math.MaxInt32, func(x *joinRun) bool {
			p, err := m.proof(x, rs, id, memo)
			if err == nil {
				out = append(out, p)
			}
			return !full()
		})
	}
	return out
}

// progIndex returns the index in Program().Rules of the rule with internal id.
func (m *Model) progIndex(id int) int {
	if m.progIdx == nil {
		m.progIdx = make([]int, len(m.rules))
		n := 0
		for i, r := range m.rules {
			m.progIdx[i] = n
			if !r.deleted {
				n++
			}
		}
	}
	return m.progIdx[id]
}

// freshHeights recomputes every tuple's height and rule when an update has left heights that
// may break the invariant Explain relies on (see Update): facts get 0, other tuples the
// minimal height over their derivations in the current model, computed like an evaluation
// that lowers heights from infinity.
func (m *Model) freshHeights() {
	if !m.stale {
		return
	}
	for _, rs := range m.rels {
		for id, f := range rs.flags {
			if f&fAlive == 0 {
				continue
			}
			if facts := rs.facts[int32(id)]; len(facts) > 0 {
				rs.height[id], rs.rule[id] = 0, facts[0]
			} else {
				rs.height[id] = math.MaxInt32
			}
		}
	}
	for _, s := range m.strata {
		m.evalStratum(s)
	}
	m.cur = -1
	m.stale = false
}
