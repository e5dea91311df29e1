package localize

import (
	"fmt"
	"slices"

	"github.com/crillab/gophersat/solver"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// direction is one instance of the reference engine: the state after an update (forward: the
// new facts after the update; reverse: the old facts after the reverse update), with what the
// update changed. A tuple is changed when the update inserted it (it was not derived before).
type direction struct {
	forward bool
	model   *datalog.Model
	rules   []datalog.Rule             // the model's program rules, which Proof.Rule indexes
	changed map[string]bool            // tuples the update inserted
	facts   map[string]Change          // facts this direction inserts -> their change of the update
	gone    map[string][]datalog.Tuple // tuples the update deleted, by relation
}

// newDirection updates m, the state before, by the update (forward) or its reverse.
func (l *Localizer) newDirection(m *datalog.Model, forward bool) (*direction, error) {
	d := &direction{forward: forward, model: m, changed: map[string]bool{}, facts: map[string]Change{}, gone: map[string][]datalog.Tuple{}}
	var ins, del []datalog.Tuple
	for _, c := range l.update {
		if c.Insert == forward {
			ins = append(ins, c.Tuple)
			d.facts[c.Tuple.String()] = c
		} else {
			del = append(del, c.Tuple)
		}
	}
	delta, err := m.Update(ins, del)
	if err != nil {
		return nil, err
	}
	for _, t := range delta.Inserted {
		d.changed[t.String()] = true
	}
	for _, t := range delta.Deleted {
		d.gone[t.Rel] = append(d.gone[t.Rel], t)
	}
	d.rules = m.Program().Rules
	return d, nil
}

// goneMatching returns the deleted tuples that a negated atom's tuple u (whose _ arguments match
// anything) names.
func (d *direction) goneMatching(u datalog.Tuple) []datalog.Tuple {
	var out []datalog.Tuple
	for _, g := range d.gone[u.Rel] {
		ok := len(g.Args) == len(u.Args)
		for i := 0; ok && i < len(u.Args); i++ {
			ok = u.Args[i].Kind == datalog.Anon || u.Args[i].Kind == g.Args[i].Kind && u.Args[i].Num == g.Args[i].Num && u.Args[i].Sym == g.Args[i].Sym
		}
		if ok {
			out = append(out, g)
		}
	}
	return out
}

// leaves is what one step of the full algorithm found: changes of the update, tuples behind
// negated atoms whose removal by the update matters (faults of the dual problem), and the
// proof trees that justify them.
type leaves struct {
	changes []Change
	negated []datalog.Tuple
	trees   []*Tree
}

// localize is Localize-Faults (Alg. 1) on faults that appear in this direction: the ΔE leaves
// and the removed negated tuples of one incremental proof tree per fault.
func (d *direction) localize(faults []datalog.Tuple, st *Stats) (leaves, error) {
	var out leaves
	seen := map[string]bool{}
	for _, f := range faults {
		t, err := d.explain(f, st)
		if err != nil {
			return out, err
		}
		out.trees = append(out.trees, t)
		t.walk(func(n *Tree) {
			switch n.Kind {
			case Update:
				if c, ok := d.facts[n.Tuple.String()]; ok && !seen["c"+c.String()] {
					seen["c"+c.String()] = true
					out.changes = append(out.changes, c)
				}
			case Gone:
				for _, g := range d.goneMatching(n.Tuple) {
					if !seen["n"+g.String()] {
						seen["n"+g.String()] = true
						out.negated = append(out.negated, g)
					}
				}
			}
		})
	}
	return out, nil
}

// explain returns the incremental proof tree of f.
func (d *direction) explain(f datalog.Tuple, st *Stats) (*Tree, error) {
	st.ProofQueries++
	p, err := d.model.Explain(f)
	if err != nil {
		return nil, err
	}
	return d.tree(p, map[*datalog.Proof]*Tree{}), nil
}

// rollback is Rollback-Repair (Alg. 2) on faults that appear in this direction: every one-step
// derivation of every changed tuple backward-reachable from the faults (cycles included) is a
// Horn constraint x_b1 + ... + x_bk - x_head <= k-1 over the changed body tuples (unchanged
// ones held before and count as true), each fault's variable is 0, and the number of kept leaves
// (facts of the update and removed negated tuples) is maximised. The leaves whose variable is 0
// are the answer.
func (d *direction) rollback(faults []datalog.Tuple, st *Stats) (leaves, error) {
	var out leaves
	for _, f := range faults {
		t, err := d.explain(f, st)
		if err != nil {
			return out, err
		}
		out.trees = append(out.trees, t)
	}
	vars := map[string]int{}
	var leafVars []int
	leafOf := map[int]any{} // variable -> Change or negated pattern
	variable := func(key string, leaf any) int {
		v, ok := vars[key]
		if !ok {
			v = len(vars) + 1
			vars[key] = v
			if leaf != nil {
				leafVars = append(leafVars, v)
				leafOf[v] = leaf
			}
		}
		return v
	}
	var cons []solver.PBConstr
	queue := slices.Clone(faults)
	queued := map[string]bool{}
	for _, f := range faults {
		queued[f.String()] = true
		cons = append(cons, solver.PropClause(-variable("t"+f.String(), nil)))
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		head := variable("t"+t.String(), nil)
		st.ProofQueries++
		for _, p := range d.model.ExplainAll(t, 0) {
			if d.rules[p.Rule].IsFact() {
				if c, ok := d.facts[t.String()]; ok {
					cons = append(cons, solver.PropClause(-variable("c"+c.String(), c), head))
				}
				continue
			}
			lits := []int{head}
			for _, b := range p.Body {
				k := b.Tuple.String()
				if !d.changed[k] {
					continue
				}
				lits = append(lits, -variable("t"+k, nil))
				if !queued[k] {
					queued[k] = true
					queue = append(queue, b.Tuple)
				}
			}
			for _, u := range p.Negated {
				if len(d.goneMatching(u)) > 0 {
					lits = append(lits, -variable("n"+u.String(), u))
				}
			}
			cons = append(cons, solver.PropClause(lits...))
		}
	}
	st.ILPVars += len(vars)
	st.ILPCons += len(cons)
	st.ILPSolves++
	pb := solver.ParsePBConstrs(cons)
	if pb.Status == solver.Unsat {
		return out, fmt.Errorf("no rollback of the update removes %s: it is derivable from tuples the update did not change", faults[0])
	}
	var obj []solver.Lit
	var weights []int // explicit unit weights: gophersat v1.4.0's Minimize fails without them
	for _, v := range leafVars {
		obj = append(obj, solver.IntToLit(int32(-v)))
		weights = append(weights, 1)
	}
	if len(obj) == 0 {
		return out, fmt.Errorf("no fact of the update leads to %s; its derivations use no changed input", faults[0])
	}
	pb.SetCostFunc(obj, weights)
	s := solver.New(pb)
	if s.Minimize() < 0 {
		return out, fmt.Errorf("no rollback of the update removes %s: it is derivable from tuples the update did not change", faults[0])
	}
	model := s.Model()
	seen := map[string]bool{}
	for _, v := range leafVars {
		if model[v-1] {
			continue
		}
		switch leaf := leafOf[v].(type) {
		case Change:
			out.changes = append(out.changes, leaf)
		case datalog.Tuple:
			for _, g := range d.goneMatching(leaf) {
				if !seen[g.String()] {
					seen[g.String()] = true
					out.negated = append(out.negated, g)
				}
			}
		}
	}
	return out, nil
}
