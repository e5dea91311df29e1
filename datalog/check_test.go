package datalog

import (
	"math/rand/v2"
	"testing"
)

// mutations break (or keep) a program in one place; each returns false when p has no place
// for it. They cover every check of Parse and Strata and what printing cannot express.
var mutations = []struct {
	name string
	fn   func(p *Program, r *rand.Rand) bool
}{
	{"relation name not an identifier", func(p *Program, r *rand.Rand) bool {
		return withRelation(p, r, func(rel *Relation) { rel.Name = pickOf(r, []string{"", "_", "1x", "a-b", "a b"}) })
	}},
	{"relation renamed", func(p *Program, r *rand.Rand) bool {
		return withRelation(p, r, func(rel *Relation) { rel.Name += "z" })
	}},
	{"relation declared twice", func(p *Program, r *rand.Rand) bool {
		if len(p.Relations) == 0 {
			return false
		}
		p.Relations = append(p.Relations, p.Relations[r.IntN(len(p.Relations))])
		return true
	}},
	{"attribute declared twice", func(p *Program, r *rand.Rand) bool {
		return withRelation(p, r, func(rel *Relation) {
			if len(rel.Attrs) > 0 {
				rel.Attrs = append(rel.Attrs, rel.Attrs[0])
			}
		})
	}},
	{"attribute name", func(p *Program, r *rand.Rand) bool {
		return withRelation(p, r, func(rel *Relation) {
			if len(rel.Attrs) > 0 {
				rel.Attrs[0].Name = pickOf(r, []string{"", "_", "9", "ok", "b"})
			}
		})
	}},
	{"attribute type", func(p *Program, r *rand.Rand) bool {
		return withRelation(p, r, func(rel *Relation) {
			if len(rel.Attrs) > 0 {
				rel.Attrs[r.IntN(len(rel.Attrs))].Type = Type(r.IntN(4))
			}
		})
	}},
	{"head negated", func(p *Program, r *rand.Rand) bool {
		return withRule(p, r, func(rule *Rule) { rule.Head.Negated = true })
	}},
	{"atom sign flipped", func(p *Program, r *rand.Rand) bool {
		return withAtom(p, r, func(a *Atom) { a.Negated = !a.Negated })
	}},
	{"atom dropped", func(p *Program, r *rand.Rand) bool {
		return withRule(p, r, func(rule *Rule) {
			if len(rule.Body) > 0 {
				i := r.IntN(len(rule.Body))
				rule.Body = append(rule.Body[:i:i], rule.Body[i+1:]...)
			}
		})
	}},
	{"atom relation", func(p *Program, r *rand.Rand) bool {
		if len(p.Relations) == 0 {
			return false
		}
		name := p.Relations[r.IntN(len(p.Relations))].Name
		return withAtom(p, r, func(a *Atom) { a.Rel = pickOf(r, []string{name, name, "undeclared", "", "_"}) })
	}},
	{"argument added", func(p *Program, r *rand.Rand) bool {
		return withAtom(p, r, func(a *Atom) { a.Args = append(a.Args, pickOf(r, []Term{V("x"), N(1), S("s")})) })
	}},
	{"argument dropped", func(p *Program, r *rand.Rand) bool {
		return withTerm(p, r, func(a *Atom, i int) { a.Args = append(a.Args[:i:i], a.Args[i+1:]...) })
	}},
	{"term replaced", func(p *Program, r *rand.Rand) bool {
		return withTerm(p, r, func(a *Atom, i int) {
			a.Args[i] = pickOf(r, []Term{
				V("_"), V(""), V("a b"), V("1a"), V("fresh"), V("x"), V("A"), Any(), {},
				N(-9223372036854775808), N(7), S(""), S("a\"b\\c"), S("line\nbreak"), S("x"),
			})
		})
	}},
	{"constraint", func(p *Program, r *rand.Rand) bool {
		return withRule(p, r, func(rule *Rule) {
			var vars []Term
			for _, a := range rule.Body {
				for _, t := range a.Args {
					if t.Kind == Var {
						vars = append(vars, t)
					}
				}
			}
			if len(vars) == 0 {
				vars = []Term{V("x")}
			}
			rule.Constraints = append(rule.Constraints, Constraint{
				Op:    pickOf(r, []Op{Eq, Ne, Lt, Le, Gt, Ge, "==", ""}),
				Left:  pickOf(r, vars),
				Right: pickOf(r, []Term{pickOf(r, vars), N(3), S("a"), Any(), V("unbound"), S("a\nb")}),
			})
		})
	}},
	{"negative self-dependency", func(p *Program, r *rand.Rand) bool {
		return withRule(p, r, func(rule *Rule) {
			if len(rule.Body) > 0 {
				rule.Body = append(rule.Body, Atom{Rel: rule.Head.Rel, Args: rule.Head.Args, Negated: true})
			}
		})
	}},
}

// withRelation applies f to a random relation of p.
func withRelation(p *Program, r *rand.Rand, f func(*Relation)) bool {
	if len(p.Relations) == 0 {
		return false
	}
	f(&p.Relations[r.IntN(len(p.Relations))])
	return true
}

// withRule applies f to a random rule of p.
func withRule(p *Program, r *rand.Rand, f func(*Rule)) bool {
	if len(p.Rules) == 0 {
		return false
	}
	f(&p.Rules[r.IntN(len(p.Rules))])
	return true
}

// withAtom applies f to a random head or body atom of p.
func withAtom(p *Program, r *rand.Rand, f func(*Atom)) bool {
	var atoms []*Atom
	for i := range p.Rules {
		atoms = append(atoms, &p.Rules[i].Head)
		for j := range p.Rules[i].Body {
			atoms = append(atoms, &p.Rules[i].Body[j])
		}
	}
	if len(atoms) == 0 {
		return false
	}
	f(pickOf(r, atoms))
	return true
}

// withTerm applies f to a random argument of a random atom of p.
func withTerm(p *Program, r *rand.Rand, f func(a *Atom, i int)) bool {
	ok := false
	withAtom(p, r, func(a *Atom) {
		if len(a.Args) > 0 {
			f(a, r.IntN(len(a.Args)))
			ok = true
		}
	})
	return ok
}

func pickOf[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// TestValidAgreesWithCheck checks that Valid decides as Check (print and parse) on generated
// programs, the parser's test programs and random mutations of them, and that both verdicts
// occur for every mutation.
func TestValidAgreesWithCheck(t *testing.T) {
	var progs []*Program
	for _, src := range validProgs {
		p, err := Parse("prog.dl", src)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	progs = append(progs, TransitiveClosure(10, 20, 1), PointsTo(10, 1))
	o := DefaultOptions()
	for seed := uint64(1); seed <= 600; seed++ {
		p, err := Generate(o, seed)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	agree := func(p *Program, what string) bool {
		err := p.Check()
		if p.Valid() != (err == nil) {
			t.Errorf("%s: Valid %v, Check %v:\n%s", what, p.Valid(), err, p)
			return false
		}
		return err == nil
	}
	r := rand.New(rand.NewPCG(1, 2))
	verdicts := map[string][2]int{}
	for _, p := range progs {
		agree(p, "unmutated")
		for range 8 {
			m := mutations[r.IntN(len(mutations))]
			q := p.Clone()
			if !m.fn(q, r) {
				continue
			}
			v := verdicts[m.name]
			if agree(q, m.name) {
				v[0]++
			} else {
				v[1]++
			}
			verdicts[m.name] = v
		}
	}
	for _, m := range mutations {
		if v := verdicts[m.name]; v[1] == 0 {
			t.Errorf("mutation %q never made an invalid program (valid %d)", m.name, v[0])
		}
	}
	if t.Failed() {
		return
	}
	total := [2]int{}
	for _, v := range verdicts {
		total[0] += v[0]
		total[1] += v[1]
	}
	if total[0] == 0 {
		t.Error("no mutated program was valid")
	}
	t.Logf("mutated programs: %d valid, %d invalid", total[0], total[1])
}
