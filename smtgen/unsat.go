package smtgen

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// ParamExpect is the Params key of the answer an instance must get when it is not sat: "unsat"
// for an instance unsatisfiable by construction. Cases without it are sat by construction.
const ParamExpect = "expect"

// ExpectUnsat is ParamExpect's value for instances unsatisfiable by construction.
const ExpectUnsat = "unsat"

// unsatAsserts builds an instance unsatisfiable by construction from p: formulas true under the
// pool's model M, one formula false under M, and pins, equalities that fix every free constant
// and every ground application of a declared function or partial operation to its value in M.
// Any model of the instance agrees with M on every subterm, so the false formula makes it unsat.
// It reports false where the construction does not apply (quantifiers, sorts whose values are not
// literals, an application whose value M leaves open).
func (p *pool) unsatAsserts(r *rand.Rand, k int) ([]*Term, bool) {
	if len(p.init[0])+len(p.constr[0]) == 0 {
		return nil, false
	}
	var asserts []*Term
	for range k - 1 {
		f := p.pick(r)
		t := f.t
		if !f.v {
			t = notTerm(t)
		}
		asserts = append(asserts, t)
	}
	f := p.pick(r)
	for i := 0; f.v; i++ {
		if i == 100 {
			return nil, false
		}
		f = p.pick(r)
	}
	at := r.IntN(len(asserts) + 1)
	asserts = append(asserts[:at], append([]*Term{f.t}, asserts[at:]...)...)
	pins, err := pinTerms(p.model, p.seed.Env, asserts)
	if err != nil {
		return nil, false
	}
	return append(asserts, pins...), true
}

// pinTerms returns the pins of ts under m: (= c v) for every free constant c of ts, then
// (= a v) for every ground application a that [PartialApps] lists, innermost first.
func pinTerms(m *Model, env *Env, ts []*Term) ([]*Term, error) {
	consts, apps, err := pinTargets(env, ts)
	if err != nil {
		return nil, err
	}
	var pins []*Term
	for _, t := range append(consts, apps...) {
		v, err := m.Eval(t)
		if err != nil {
			return nil, err
		}
		lit, err := ParseTerm(v.String())
		if err != nil {
			return nil, err
		}
		setSorts(lit, t.Sort)
		pins = append(pins, &Term{Kind: KindApp, Name: "=", Args: []*Term{t, lit}, Sort: BoolSort})
	}
	return pins, nil
}

// pinTargets returns the free constants of ts (in declaration order) and the ground applications
// a pin must fix; it refuses quantifiers and declarations whose sorts have no literals.
func pinTargets(env *Env, ts []*Term) (consts, apps []*Term, err error) {
	used := map[string]*Term{}
	var exp []*Term
	for _, t := range ts {
		t = env.ExpandDefs(ExpandLets(t))
		exp = append(exp, t)
		if err := walkFree(env, t, used); err != nil {
			return nil, nil, err
		}
	}
	for _, name := range env.Order {
		if t := used[name]; t != nil {
			consts = append(consts, t)
		}
	}
	for _, a := range PartialApps(exp) {
		if !literalSort(a.Sort) {
			return nil, nil, fmt.Errorf("%s has a sort without literals", briefTerm(a))
		}
		for _, x := range a.Args {
			if !literalSort(x.Sort) {
				return nil, nil, fmt.Errorf("%s has an argument without literals", briefTerm(a))
			}
		}
		apps = append(apps, a)
	}
	return consts, apps, nil
}

// walkFree records the declared constants t uses; quantifiers and constants of sorts without
// literals are errors.
func walkFree(env *Env, t *Term, used map[string]*Term) error {
	switch t.Kind {
	case KindForall, KindExists:
		return errors.New("a quantifier")
	case KindApp:
		if len(t.Args) == 0 && len(t.Index) == 0 {
			if d, ok := env.Decls[t.Name]; ok && len(d.ArgSorts) == 0 {
				if !literalSort(t.Sort) {
					return fmt.Errorf("constant %s has a sort without literals", t.Name)
				}
				used[t.Name] = t
			}
		}
	}
	for _, a := range t.Args {
		if err := walkFree(env, a, used); err != nil {
			return err
		}
	}
	return nil
}

// checkPinned is the certificate of an instance unsatisfiable by construction: every free
// constant and every application [PartialApps] lists is pinned by an assertion (= t literal),
// every pin is true under m, and some assertion is false under m. Then every model of the
// assertions agrees with m on each of their subterms, which m refutes. It returns the index of
// the false assertion.
func checkPinned(env *Env, m *Model, asserts []*Term) (int, error) {
	consts, apps, err := pinTargets(env, asserts)
	if err != nil {
		return 0, err
	}
	pinned := map[string]bool{}
	for _, a := range asserts {
		a = env.ExpandDefs(ExpandLets(a))
		if a.Kind == KindApp && a.Name == "=" && len(a.Args) == 2 && isLiteral(a.Args[1]) {
			if v, ok := m.Truth(a); ok && v {
				pinned[a.Args[0].String()] = true
			}
		}
	}
	for _, t := range append(consts, apps...) {
		if !pinned[t.String()] {
			return 0, fmt.Errorf("%s is not pinned to its value", briefTerm(t))
		}
	}
	for i, a := range asserts {
		if v, ok := m.Truth(a); ok && !v {
			return i, nil
		}
	}
	return 0, errors.New("no assertion is false under the model")
}

// unsatCase returns case s as an instance unsatisfiable by construction when Options.Unsat draws
// it and the construction applies to p, nil otherwise. It draws from its own random stream, so
// the sat instances of a seed are the same whatever Unsat is.
func (g *Generator) unsatCase(p *pool, s uint64) *fuzz.Case {
	if g.opts.Unsat <= 0 || p.incremental {
		return nil
	}
	r := rand.New(rand.NewPCG(s, 0x0a5a7))
	if r.IntN(100) >= g.opts.Unsat {
		return nil
	}
	asserts, ok := p.unsatAsserts(r, 1+r.IntN(g.opts.MaxAsserts))
	if !ok {
		return nil
	}
	cmds := make([]string, 0, len(asserts)+1)
	for _, a := range asserts {
		cmds = append(cmds, "(assert "+a.String()+")")
	}
	c := &fuzz.Case{Domain: "smt", Gen: g.gen, Seed: s}
	p.finish(c, instanceText(p.seed, append(cmds, "(check-sat)")), asserts, [][]*Term{asserts}, "plain")
	c.Params[ParamExpect] = ExpectUnsat
	return c
}

// certifyUnsat checks the unsat certificate of the assertions in scope at check-sat number at
// under the case's model: the pinned form of [checkPinned], or the fused form of
// [checkFusedUnsat]. It says why the instance is unsat.
func certifyUnsat(c *fuzz.Case, at int) (string, error) {
	p, err := parseCase(c)
	if err != nil {
		return "", err
	}
	if at >= len(p.checks) {
		return "", fmt.Errorf("check-sat %d does not exist", at+1)
	}
	m, err := ParseModelText(c.Params[ParamModel], p.env)
	if err != nil {
		return "", err
	}
	asserts := p.checks[at]
	i, err := checkPinned(p.env, m, asserts)
	if err == nil {
		return fmt.Sprintf("assertions pin every constant and application to the case's model, under which assertion %d is false", i+1), nil
	}
	if why, ferr := checkFusedUnsat(p.env, m, asserts); ferr == nil {
		return why, nil
	}
	return "", err
}

// checkFusedUnsat is the certificate of an UNSAT fusion: the first assertion is (or A B), every
// other one is an equation (= v t) of a declared constant v; replacing in A and in B every term t
// of such an equation by its v (which the equations make equal in every model) gives pinned
// conjunctions that [checkPinned] refutes, so neither disjunct can hold.
func checkFusedUnsat(env *Env, m *Model, asserts []*Term) (string, error) {
	if len(asserts) < 2 {
		return "", errors.New("not a fused instance")
	}
	or := ExpandLets(asserts[0])
	if or.Kind != KindApp || or.Name != "or" || len(or.Args) != 2 {
		return "", errors.New("the first assertion is not a disjunction of two")
	}
	inverse := map[string]*Term{}
	for _, a := range asserts[1:] {
		a = ExpandLets(a)
		if a.Kind != KindApp || a.Name != "=" || len(a.Args) != 2 {
			return "", errors.New("an assertion after the first is not an equation")
		}
		v := a.Args[0]
		if d, ok := env.Decls[v.Name]; v.Kind != KindApp || len(v.Args) != 0 || !ok || len(d.ArgSorts) != 0 {
			return "", errors.New("an equation does not define a constant")
		}
		inverse[a.Args[1].String()] = v
	}
	for i, d := range or.Args {
		d = rewrite(d, func(t *Term) *Term {
			if v, ok := inverse[t.String()]; ok {
				return v
			}
			return t
		})
		conj := []*Term{d}
		if d.Kind == KindApp && d.Name == "and" {
			conj = d.Args
		}
		if _, err := checkPinned(env, m, conj); err != nil {
			return "", fmt.Errorf("disjunct %d: %w", i+1, err)
		}
	}
	return "both disjuncts of the fusion, with the inversion equations undone, pin their constants to the case's model, which refutes each", nil
}
