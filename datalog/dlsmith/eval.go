package dlsmith

import (
	"context"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// evalFor evaluates p, the valid program of g, on the reference engine as far as the tuples of
// relation rel need, and answers as datalog.EvalContext(p, limit) does for them: the same tuples
// of rel, and an error exactly when that gives one. When p cannot derive more than limit tuples
// whatever its rules ([withinLimit]), it evaluates only the rules of rel and of the relations it
// depends on, which derive the tuples the whole program derives for them (stratified
// semantics) and no error; otherwise the whole program, so that the limit is met as it would
// be. Only rel's tuples (and its output rows, when rel is the output) are those of p; the other
// relations may be empty.
func evalFor(g *Graph, p *datalog.Program, rel string, limit int) (*datalog.Model, error) {
	if !withinLimit(p, limit) {
		return datalog.EvalContext(context.Background(), p, limit)
	}
	keep := g.Ancestors(rel)
	keep[rel] = true
	sub := &datalog.Program{File: p.File, Relations: p.Relations}
	for _, r := range p.Rules {
		if keep[r.Head.Rel] {
			sub.Rules = append(sub.Rules, r)
		}
	}
	return datalog.EvalContext(context.Background(), sub, limit)
}

// withinLimit reports whether p can derive at most limit tuples whatever its rules: a relation
// without rules holds at most its facts and, a rule making no new constant, a relation with rules
// holds at most the product, over its columns, of the number of distinct constants of the
// column's type in p.
func withinLimit(p *datalog.Program, limit int) bool {
	nums, syms := map[int64]bool{}, map[string]bool{}
	facts, derived := map[string]int{}, map[string]bool{}
	add := func(ts ...datalog.Term) {
		for _, t := range ts {
			switch t.Kind {
			case datalog.Num:
				nums[t.Num] = true
			case datalog.Sym:
				syms[t.Sym] = true
			}
		}
	}
	for _, r := range p.Rules {
		if r.IsFact() {
			facts[r.Head.Rel]++
		} else {
			derived[r.Head.Rel] = true
		}
		add(r.Head.Args...)
		for _, a := range r.Body {
			add(a.Args...)
		}
		for _, c := range r.Constraints {
			add(c.Left, c.Right)
		}
	}
	total := 0
	for _, r := range p.Relations {
		n := facts[r.Name]
		if derived[r.Name] {
			n = 1
			for _, a := range r.Attrs {
				d := len(nums)
				if a.Type == datalog.Symbol {
					d = len(syms)
				}
				n = min(n*d, limit+1) // n <= limit+1 and d is at most the terms of p: no overflow
			}
		}
		if total += n; total > limit {
			return false
		}
	}
	return true
}
