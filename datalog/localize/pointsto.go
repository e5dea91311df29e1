package localize

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// PointsToUpdate returns a benchmark problem: the points-to analysis of datalog.PointsTo over
// vars variables as the old state, an update of changes deletions of its facts and changes
// insertions of new random facts (assignments, loads, stores and allocations over the same
// names), and as the fault one alias tuple, drawn at random, that the update makes appear. The
// same arguments give the same problem; seeds whose update makes no alias appear are skipped
// (derived seeds are tried in turn).
func PointsToUpdate(vars, changes int, seed uint64) Problem {
	for attempt := uint64(0); ; attempt++ {
		if p, ok := pointsToUpdate(vars, changes, seed, attempt); ok {
			return p
		}
	}
}

func pointsToUpdate(vars, changes int, seed, attempt uint64) (Problem, bool) {
	full := datalog.PointsTo(vars, seed^attempt*0x9e3779b97f4a7c15)
	r := rand.New(rand.NewPCG(seed, attempt))
	prog := &datalog.Program{File: full.File, Relations: full.Relations}
	var before []datalog.Tuple
	have := map[string]bool{}
	for _, rule := range full.Rules {
		if rule.IsFact() {
			t := datalog.Tuple{Rel: rule.Head.Rel, Args: rule.Head.Args}
			if !have[t.String()] {
				have[t.String()] = true
				before = append(before, t)
			}
		} else {
			prog.Rules = append(prog.Rules, rule)
		}
	}
	changes = min(changes, len(before))
	drop := map[int]bool{}
	for len(drop) < changes {
		drop[r.IntN(len(before))] = true
	}
	var after []datalog.Tuple
	for i, t := range before {
		if !drop[i] {
			after = append(after, t)
		}
	}
	sym := func(prefix string, n int) datalog.Term { return datalog.S(fmt.Sprintf("%s%d", prefix, r.IntN(n))) }
	fields := vars/10 + 1
	for added := 0; added < changes; {
		v, w := sym("v", vars), sym("v", vars)
		var t datalog.Tuple
		switch k := r.IntN(10); {
		case k < 5:
			t = datalog.Tuple{Rel: "assign", Args: []datalog.Term{v, w}}
		case k < 7:
			t = datalog.Tuple{Rel: "load", Args: []datalog.Term{v, w, sym("f", fields)}}
		case k < 9:
			t = datalog.Tuple{Rel: "store", Args: []datalog.Term{v, sym("f", fields), w}}
		default:
			t = datalog.Tuple{Rel: "new", Args: []datalog.Term{v, sym("L", vars)}}
		}
		if !have[t.String()] {
			have[t.String()] = true
			after = append(after, t)
			added++
		}
	}
	m1, err1 := datalog.Eval(withFacts(prog, before))
	m2, err2 := datalog.Eval(withFacts(prog, after))
	if err1 != nil || err2 != nil {
		return Problem{}, false
	}
	var appeared []datalog.Tuple
	for _, t := range m2.Tuples("alias") {
		if !m1.Contains(t) {
			appeared = append(appeared, t)
		}
	}
	if len(appeared) == 0 {
		return Problem{}, false
	}
	return Problem{Program: prog, Before: before, After: after, Unwanted: []datalog.Tuple{appeared[r.IntN(len(appeared))]}}, true
}

// withFacts returns p with the facts added before its rules.
func withFacts(p *datalog.Program, facts []datalog.Tuple) *datalog.Program {
	q := &datalog.Program{File: p.File, Relations: p.Relations}
	for _, t := range facts {
		q.Rules = append(q.Rules, datalog.Rule{Head: datalog.Atom{Rel: t.Rel, Args: t.Args}})
	}
	q.Rules = append(q.Rules, slices.Clone(p.Rules)...)
	return q
}
