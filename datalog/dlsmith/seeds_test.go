package dlsmith

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// TestSeeds checks that every seed program parses, names one output relation and answers
// something on the reference engine.
func TestSeeds(t *testing.T) {
	seeds := Seeds()
	if len(seeds) < 10 {
		t.Fatalf("%d seed programs, want at least 10", len(seeds))
	}
	for _, p := range seeds {
		t.Run(p.File, func(t *testing.T) {
			outs := 0
			for _, r := range p.Relations {
				if r.Output {
					outs++
				}
			}
			if outs != 1 {
				t.Fatalf("%d output relations, want 1", outs)
			}
			m, err := datalog.Eval(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Output()) == 0 {
				t.Errorf("the output is empty")
			}
		})
	}
}

// TestSeedFeatures checks that the seeds, together, use every feature they are meant to
// exercise.
func TestSeedFeatures(t *testing.T) {
	found := map[string]bool{}
	for _, p := range Seeds() {
		for f := range seedFeatures(p) {
			found[f] = true
		}
	}
	for _, f := range []string{"linear recursion", "non-linear recursion", "mutual recursion", "negation",
		"negation over recursion", "constant in head", "constant in body", "repeated variable", "wide relation",
		"comparison", "symbol", "number", "facts and rules", "anonymous variable"} {
		if !found[f] {
			t.Errorf("no seed program has %s", f)
		}
	}
}

// seedFeatures returns the features p uses.
func seedFeatures(p *datalog.Program) map[string]bool {
	f := map[string]bool{}
	facts, rules := map[string]bool{}, map[string]bool{}
	deps := map[string][]string{}
	for _, r := range p.Relations {
		if len(r.Attrs) >= 4 {
			f["wide relation"] = true
		}
		for _, a := range r.Attrs {
			f[a.Type.String()] = true
		}
	}
	for _, r := range p.Rules {
		if r.IsFact() {
			facts[r.Head.Rel] = true
			continue
		}
		rules[r.Head.Rel] = true
		if len(r.Constraints) > 0 {
			f["comparison"] = true
		}
		if hasConst(r.Head.Args) {
			f["constant in head"] = true
		}
		self := 0
		seen := map[string]bool{}
		for _, a := range r.Body {
			deps[r.Head.Rel] = append(deps[r.Head.Rel], a.Rel)
			if a.Negated {
				f["negation"] = true
			}
			if a.Rel == r.Head.Rel {
				self++
			}
			if hasConst(a.Args) {
				f["constant in body"] = true
			}
			for _, x := range a.Args {
				switch {
				case x.Kind == datalog.Anon:
					f["anonymous variable"] = true
				case x.Kind == datalog.Var && seen[x.Name]:
					f["repeated variable"] = true
				}
				if x.Kind == datalog.Var {
					seen[x.Name] = true
				}
			}
		}
		switch self {
		case 0:
		case 1:
			f["linear recursion"] = true
		default:
			f["non-linear recursion"] = true
		}
	}
	for rel := range rules {
		if facts[rel] {
			f["facts and rules"] = true
		}
	}
	// Mutual recursion: a relation reaches itself through another one.
	reaches := func(from, to string) bool {
		seen := map[string]bool{}
		stack := []string{from}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range deps[n] {
				if d == to {
					return true
				}
				if !seen[d] {
					seen[d] = true
					stack = append(stack, d)
				}
			}
		}
		return false
	}
	for _, r := range p.Rules {
		for _, a := range r.Body {
			if a.Rel != r.Head.Rel && reaches(a.Rel, r.Head.Rel) {
				f["mutual recursion"] = true
			}
			if a.Negated && reaches(a.Rel, a.Rel) {
				f["negation over recursion"] = true
			}
		}
	}
	return f
}

// hasConst reports whether ts holds a constant.
func hasConst(ts []datalog.Term) bool {
	for _, x := range ts {
		if x.IsConst() {
			return true
		}
	}
	return false
}

// TestSeedsAreCopies checks that changing a returned seed does not change the next call's.
func TestSeedsAreCopies(t *testing.T) {
	a := Seeds()
	a[0].Rules = nil
	if b := Seeds(); len(b[0].Rules) == 0 || !strings.HasSuffix(b[0].File, ".dl") {
		t.Errorf("Seeds returned a shared program")
	}
}
