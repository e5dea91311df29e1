package smtgen

import (
	"fmt"
	"strings"
	"sync"
)

// DatatypeTheoryDecls declares the datatypes of the "datatypes" theory of [RandomGroundTerm]:
// a parametric list and option, a parametric pair, an enumeration, a tree, and two mutually
// recursive sorts. [SelfCheck] sends them before the terms.
const DatatypeTheoryDecls = `(declare-datatypes ((Lst 1) (Opt 1) (Pair 2) (Color 0)) (
 (par (T) ((nil) (cons (hd T) (tl (Lst T)))))
 (par (T) ((none) (some (val T))))
 (par (X Y) ((pair (fst X) (snd Y))))
 ((red) (green) (blue))))
(declare-datatype Tree ((leaf (lv Int)) (node (lt Tree) (key Color) (rt Tree))))
(declare-datatypes ((Ev 0) (Od 0)) (((ez) (es (ep Od))) ((os (op Ev)))))
`

// dtTheoryData is the checked declarations of the "datatypes" theory and the sorts it uses.
type dtTheoryData struct {
	env   *Env
	sorts []*Sort
}

var dtTheory = sync.OnceValue(func() *dtTheoryData {
	env := theoryEnv("datatypes")
	d := &dtTheoryData{env: env}
	for _, s := range []string{"(Lst Int)", "(Lst Bool)", "(Opt Int)", "(Opt Color)", "(Pair Int Bool)",
		"(Pair Color (Lst Int))", "Color", "Tree", "Ev", "Od"} {
		ps, err := ParseSort(s)
		if err == nil {
			ps, err = env.ResolveSort(ps)
		}
		if err != nil {
			panic("smtgen: datatype theory sort " + s + ": " + err.Error())
		}
		d.sorts = append(d.sorts, ps)
	}
	return d
})

// theoryEnv returns a fresh environment for the terms of theory: logic ALL, and for
// "datatypes" the declarations of [DatatypeTheoryDecls].
func theoryEnv(theory string) *Env {
	if theory != "datatypes" {
		return NewEnv("ALL")
	}
	sc, err := ParseScript("(set-logic ALL)" + DatatypeTheoryDecls)
	if err != nil {
		panic("smtgen: DatatypeTheoryDecls: " + err.Error())
	}
	env, err := Check(sc)
	if err != nil {
		panic("smtgen: DatatypeTheoryDecls: " + err.Error())
	}
	return env
}

// selfCheckHeader returns [SelfCheckScriptHeader] with the theory's declarations before its
// check-sat.
func selfCheckHeader(theory string) string {
	if theory != "datatypes" {
		return SelfCheckScriptHeader
	}
	return strings.Replace(SelfCheckScriptHeader, "(check-sat)", DatatypeTheoryDecls+"(check-sat)", 1)
}

// dtTopSort picks the sort of a term of the datatypes theory.
func (g *groundGen) dtTopSort() *Sort {
	if g.chance(3) {
		return g.pick(BoolSort, IntSort)
	}
	ss := dtTheory().sorts
	return ss[g.r.IntN(len(ss))]
}

// dtTerm returns a datatype-theory term of sort s, or nil to let the other generators build one.
func (g *groundGen) dtTerm(s *Sort, d int) *Term {
	th := dtTheory()
	r := g.r
	switch r.IntN(6) {
	case 0: // a selector, sometimes on another constructor
		type src struct {
			s *Sort
			c *Constructor
			i int
		}
		var srcs []src
		for _, ds := range th.sorts {
			for _, c := range ds.DT.Ctors {
				for i := range c.Fields {
					if c.FieldSort(i, ds).Equal(s) {
						srcs = append(srcs, src{ds, c, i})
					}
				}
			}
		}
		if len(srcs) > 0 {
			x := srcs[r.IntN(len(srcs))]
			return rgApp(x.c.Fields[x.i].Name, g.term(x.s, d))
		}
	case 1: // match
		return g.dtMatch(s, d)
	}
	switch {
	case s.DT != nil:
		c := s.DT.Ctors[r.IntN(len(s.DT.Ctors))]
		if len(c.Fields) == 0 {
			return g.dtCtorHead(c, s)
		}
		args := make([]*Term, len(c.Fields))
		for i := range c.Fields {
			args[i] = g.term(c.FieldSort(i, s), d)
		}
		return &Term{Kind: KindApp, Name: c.Name, Args: args}
	case s.Equal(BoolSort) && r.IntN(2) == 0:
		ds := th.sorts[r.IntN(len(th.sorts))]
		if r.IntN(2) == 0 && len(ds.DT.Params) == 0 {
			// z3 5.4 refuses (_ is C) of a parametric datatype as ambiguous: no testers there.
			c := ds.DT.Ctors[r.IntN(len(ds.DT.Ctors))]
			return &Term{Kind: KindApp, Name: "is", Lit: c.Name, Args: []*Term{g.term(ds, d)}}
		}
		return rgApp(g.pickName("=", "distinct"), g.terms(ds, d, 2+r.IntN(2))...)
	}
	return nil
}

// dtCtorHead returns the nullary constructor c of sort s, qualified when s has parameters.
func (g *groundGen) dtCtorHead(c *Constructor, s *Sort) *Term {
	t := &Term{Kind: KindApp, Name: c.Name}
	if len(s.Args) > 0 {
		t.As = s
	}
	return t
}

// dtMatch returns a match of sort s on a random datatype term: a case per constructor (some
// left to a final variable case), bodies that use the pattern variables.
func (g *groundGen) dtMatch(s *Sort, d int) *Term {
	th := dtTheory()
	r := g.r
	ds := th.sorts[r.IntN(len(th.sorts))]
	m := &Term{Kind: KindMatch, Args: []*Term{g.term(ds, d)}}
	catchAll := r.IntN(3) == 0
	for k, c := range ds.DT.Ctors {
		if catchAll && k > 0 && r.IntN(2) == 0 {
			continue
		}
		pat := &Term{Kind: KindApp, Name: c.Name}
		var vars []*Term
		var sorts []*Sort
		for i := range c.Fields {
			v := &Term{Kind: KindApp, Name: fmt.Sprintf("x%d", i)}
			pat.Args = append(pat.Args, v)
			vars, sorts = append(vars, v), append(sorts, c.FieldSort(i, ds))
		}
		m.Binds = append(m.Binds, Binding{Term: pat})
		m.Args = append(m.Args, g.dtBody(s, d, vars, sorts))
	}
	if catchAll || len(m.Binds) < len(ds.DT.Ctors) {
		w := &Term{Kind: KindApp, Name: "w"}
		m.Binds = append(m.Binds, Binding{Term: w})
		m.Args = append(m.Args, g.dtBody(s, d, []*Term{w}, []*Sort{ds}))
	}
	return m
}

// dtBody returns a term of sort s that may use the variables vars (of sorts sorts).
func (g *groundGen) dtBody(s *Sort, d int, vars []*Term, sorts []*Sort) *Term {
	var fit []*Term
	for i, v := range vars {
		if sorts[i].Equal(s) {
			fit = append(fit, &Term{Kind: KindApp, Name: v.Name})
		}
	}
	if len(fit) > 0 && g.r.IntN(3) > 0 {
		v := fit[g.r.IntN(len(fit))]
		if s.Equal(IntSort) && g.chance(2) {
			return rgApp("+", v, g.term(IntSort, d))
		}
		return v
	}
	return g.term(s, d)
}

// dtLeaf returns a random value of the datatype sort s as a term.
func (g *groundGen) dtLeaf(s *Sort) *Term {
	t, err := ParseTerm(randomDT(g.r, s, 1+g.r.IntN(2)).String())
	if err != nil {
		panic("smtgen: datatype value does not read back: " + err.Error())
	}
	return t
}
