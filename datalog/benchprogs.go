package datalog

import (
	"math/rand/v2"
	"strconv"
)

// TransitiveClosure returns a benchmark program: edges distinct random edges (at most
// nodes*nodes) between numbered nodes as edge facts, and path, the output relation, their
// transitive closure. The same arguments give the same program.
func TransitiveClosure(nodes, edges int, seed uint64) *Program {
	nodes = max(nodes, 1)
	edges = min(max(edges, 0), nodes*nodes)
	r := rand.New(rand.NewPCG(seed, 0x7c))
	num := []Attr{{"x", Number}, {"y", Number}}
	p := &Program{
		File: "tc.dl",
		Relations: []Relation{
			{Name: "edge", Attrs: num, Input: true},
			{Name: "path", Attrs: num, Output: true},
		},
	}
	seen := map[[2]int]bool{}
	for len(seen) < edges {
		e := [2]int{r.IntN(nodes), r.IntN(nodes)}
		if !seen[e] {
			seen[e] = true
			p.Rules = append(p.Rules, benchFact("edge", N(int64(e[0])), N(int64(e[1]))))
		}
	}
	p.Rules = append(p.Rules,
		benchRule(benchAtom("path", V("x"), V("y")), benchAtom("edge", V("x"), V("y"))),
		benchRule(benchAtom("path", V("x"), V("z")), benchAtom("path", V("x"), V("y")), benchAtom("edge", V("y"), V("z"))),
	)
	return p
}

// PointsTo returns a benchmark program: the Andersen-style points-to analysis of the
// provenance paper (Zhao et al., Fig. 2) over a random program with vars variables: vars/2
// allocations (new), vars assignments (assign), vars/4 field loads and vars/4 field stores
// over vars/10+1 fields. vpt (variable points to object) and alias (two variables point to the
// same object), the output, are derived. The same arguments give the same program.
func PointsTo(vars int, seed uint64) *Program {
	vars = max(vars, 2)
	r := rand.New(rand.NewPCG(seed, 0x9e))
	sym := func(prefix string, i int) Term { return S(prefix + strconv.Itoa(i)) }
	v := func() Term { return sym("v", r.IntN(vars)) }
	fields := vars/10 + 1
	f := func() Term { return sym("f", r.IntN(fields)) }
	attrs := func(names ...string) []Attr {
		out := make([]Attr, len(names))
		for i, n := range names {
			out[i] = Attr{n, Symbol}
		}
		return out
	}
	p := &Program{
		File: "pointsto.dl",
		Relations: []Relation{
			{Name: "new", Attrs: attrs("var", "obj"), Input: true},
			{Name: "assign", Attrs: attrs("var", "var2"), Input: true},
			{Name: "load", Attrs: attrs("var", "inter", "field"), Input: true},
			{Name: "store", Attrs: attrs("inter", "field", "var2"), Input: true},
			{Name: "vpt", Attrs: attrs("var", "obj")},
			{Name: "alias", Attrs: attrs("var1", "var2"), Output: true},
		},
	}
	for i := range vars / 2 {
		p.Rules = append(p.Rules, benchFact("new", v(), sym("L", i)))
	}
	for range vars {
		p.Rules = append(p.Rules, benchFact("assign", v(), v()))
	}
	for range vars / 4 {
		p.Rules = append(p.Rules, benchFact("load", v(), v(), f()))
	}
	for range vars / 4 {
		p.Rules = append(p.Rules, benchFact("store", v(), f(), v()))
	}
	p.Rules = append(p.Rules,
		benchRule(benchAtom("vpt", V("Var"), V("Obj")), benchAtom("new", V("Var"), V("Obj"))),
		benchRule(benchAtom("vpt", V("Var"), V("Obj")), benchAtom("assign", V("Var"), V("Var2")), benchAtom("vpt", V("Var2"), V("Obj"))),
		benchRule(benchAtom("vpt", V("Var"), V("Obj")),
			benchAtom("load", V("Var"), V("Inter"), V("F")), benchAtom("store", V("Inter2"), V("F"), V("Var2")),
			benchAtom("vpt", V("Inter"), V("InterObj")), benchAtom("vpt", V("Inter2"), V("InterObj")), benchAtom("vpt", V("Var2"), V("Obj"))),
	)
	alias := benchRule(benchAtom("alias", V("V1"), V("V2")), benchAtom("vpt", V("V1"), V("Obj")), benchAtom("vpt", V("V2"), V("Obj")))
	alias.Constraints = []Constraint{{Op: Ne, Left: V("V1"), Right: V("V2")}}
	p.Rules = append(p.Rules, alias)
	return p
}

func benchAtom(rel string, args ...Term) Atom { return Atom{Rel: rel, Args: args} }

func benchFact(rel string, args ...Term) Rule { return Rule{Head: benchAtom(rel, args...)} }

func benchRule(head Atom, body ...Atom) Rule { return Rule{Head: head, Body: body} }
