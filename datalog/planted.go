package datalog

import (
	"context"
	"fmt"
	"strconv"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// NegationDepth returns, for every relation of p with a dependency path to an output relation,
// the largest number of negated atoms on such a path (DLSmith's stratum: 0 for the outputs and
// what feeds them positively, 1 under one negation, and so on). p must be stratified, so that
// cycles hold no negated atom and the depth is finite.
func (p *Program) NegationDepth() map[string]int {
	depth := map[string]int{}
	for _, r := range p.outputs() {
		depth[r.Name] = 0
	}
	for range len(p.Relations) + 1 {
		changed := false
		for _, r := range p.Rules {
			d, ok := depth[r.Head.Rel]
			if !ok {
				continue
			}
			for _, a := range r.Body {
				n := d
				if a.Negated {
					n++
				}
				if old, ok := depth[a.Rel]; !ok || n > old {
					depth[a.Rel] = n
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	return depth
}

// The planted faults of the Datalog domain (polyfuzz datalog --fault KIND:STRATUM): each fires
// only on relations at negation depth STRATUM or more (see NegationDepth), so only tests that
// reach those strata can see it.
const (
	// PlantMixed: a relation that has both facts and rules loses what its rules derive, as if
	// the engine read it as an input relation only.
	PlantMixed = "mixed-drop"
	// PlantRules: a relation defined by two or more rules loses what all but its first rule
	// derive, as if the engine planned only one rule of the union.
	PlantRules = "stratum-drop"
)

// PlantedHelp describes the planted faults for --fault's help.
var PlantedHelp = map[string]string{
	PlantMixed: "relations at negation depth >= N with facts and rules lose their rules' tuples, e.g. " + PlantMixed + ":1",
	PlantRules: "relations at negation depth >= N with several rules keep only their first rule's tuples, e.g. " + PlantRules + ":1",
}

// Planted is a Datalog target with a planted fault: it rewrites each canonical program as a
// faulty engine would evaluate it and runs the rewrite on the inner target, which runs canonical
// programs. A statement that does not parse goes to the inner target unchanged.
type Planted struct {
	Inner   fuzz.Target
	Kind    string
	Stratum int
}

// NewPlanted returns inner with the fault of kind (PlantMixed or PlantRules) at negation depth
// arg (a number, at least 0). With a nil inner it only checks kind and arg.
func NewPlanted(inner fuzz.Target, kind, arg string) (fuzz.Target, error) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("--fault %s:%s: give the negation depth from which the fault fires, a number such as %s:1", kind, arg, kind)
	}
	if _, ok := PlantedHelp[kind]; !ok {
		return nil, fmt.Errorf("unknown planted fault %q; use %s or %s", kind, PlantMixed, PlantRules)
	}
	return &Planted{Inner: inner, Kind: kind, Stratum: n}, nil
}

// Name returns the inner target's name.
func (t *Planted) Name() string { return t.Inner.Name() }

// Version returns the inner target's version.
func (t *Planted) Version() string { return t.Inner.Version() }

// Reset resets the inner target.
func (t *Planted) Reset(ctx context.Context) error { return t.Inner.Reset(ctx) }

// Close closes the inner target.
func (t *Planted) Close() error { return t.Inner.Close() }

// Exec runs the faulty rewrite of the program stmt.
func (t *Planted) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	p, err := Parse("program.dl", stmt)
	if err != nil {
		return t.Inner.Exec(ctx, stmt)
	}
	if q := t.Rewrite(p); q != nil {
		stmt = q.String()
	}
	return t.Inner.Exec(ctx, stmt)
}

// Rewrite returns the program a faulty engine evaluates instead of p, or nil when the fault does
// not fire on p.
func (t *Planted) Rewrite(p *Program) *Program {
	depth := p.NegationDepth()
	facts, rules := map[string]int{}, map[string]int{}
	for _, r := range p.Rules {
		if r.IsFact() {
			facts[r.Head.Rel]++
		} else {
			rules[r.Head.Rel]++
		}
	}
	fires := func(rel string) bool {
		d, ok := depth[rel]
		if !ok || d < t.Stratum {
			return false
		}
		if t.Kind == PlantMixed {
			return facts[rel] > 0 && rules[rel] > 0
		}
		return rules[rel] > 1
	}
	q := &Program{File: p.File, Relations: p.Relations}
	seen := map[string]bool{}
	fired := false
	for _, r := range p.Rules {
		if !r.IsFact() && fires(r.Head.Rel) && (t.Kind == PlantMixed || seen[r.Head.Rel]) {
			fired = true
			continue
		}
		if !r.IsFact() {
			seen[r.Head.Rel] = true
		}
		q.Rules = append(q.Rules, r)
	}
	if !fired {
		return nil
	}
	return q
}
