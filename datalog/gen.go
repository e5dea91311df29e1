package datalog

import (
	"math/rand/v2"
	"strconv"
)

// Streams of the PCG generators, so that a program and its transformation draw from unrelated
// sequences of the same seed.
const (
	genStream       = 0x6461746c6f672d67 // "datlog-g"
	transformStream = 0x6461746c6f672d74 // "datlog-t"
	nonEmptyStream  = 0x6461746c6f672d6e // "datlog-n"
)

// symbolChars holds the characters of symbol constants.
const symbolChars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Generate returns a random program as queryFuzz generates one: facts of 1 to 3 extensional
// relations, then the complex rules (safe negation, constraints; with Options.Recursive also
// linear, non-linear and mutual recursion), then the simple rules (pure conjunctive queries), each
// over the relations made before it. Variables join as in queryFuzz's validate_rule. The head of
// the last simple rule is the only output relation. The program is safe and stratified, lists its
// facts first (so it prints and parses back to an equal program), and depends only on o and seed.
func Generate(o Options, seed uint64) (*Program, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	g := &gen{o: o, r: rand.New(rand.NewPCG(seed, genStream)), p: &Program{File: "program.dl"}}
	g.facts()
	g.complexRules()
	g.simpleRules()
	return g.p, nil
}

// gen is the state of one program's generation.
type gen struct {
	o       Options
	r       *rand.Rand
	p       *Program
	pool    []string // relations a body may use: facts and the heads made so far
	complex []string // the heads of complex rules
}

func (g *gen) between(r Range) int { return r.Min + g.r.IntN(r.Max-r.Min+1) }

func (g *gen) typ() Type { return g.o.Types[g.r.IntN(len(g.o.Types))] }

// constant returns a random constant of type t.
func (g *gen) constant(t Type) Term {
	if t == Symbol {
		i := g.r.IntN(len(symbolChars))
		return S(symbolChars[i : i+1])
	}
	return N(int64(g.between(g.o.Numbers)))
}

// relation declares a new relation with the given attribute types and returns its name: three
// random letters and its index, so names are unique and never a keyword of any engine.
func (g *gen) relation(types []Type, input bool) string {
	var name []byte
	for range 3 {
		name = append(name, byte('a'+g.r.IntN(26)))
	}
	name = strconv.AppendInt(name, int64(len(g.p.Relations)), 10)
	attrs := make([]Attr, len(types))
	for i, t := range types {
		attrs[i] = Attr{Name: attrName(i), Type: t}
	}
	g.p.Relations = append(g.p.Relations, Relation{Name: string(name), Attrs: attrs, Input: input})
	return string(name)
}

// attrName returns the name of the i-th attribute of a generated relation.
func attrName(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return "a" + strconv.Itoa(i)
}

// varName returns the i-th variable name: A to Z, then A1 to Z1 and so on.
func varName(i int) string {
	s := string(rune('A' + i%26))
	if i >= 26 {
		s += strconv.Itoa(i / 26)
	}
	return s
}

// facts generates the extensional relations and their facts, without duplicate facts.
func (g *gen) facts() {
	for range g.between(g.o.FactTables) {
		types := make([]Type, g.between(g.o.FactArity))
		for i := range types {
			types[i] = g.typ()
		}
		name := g.relation(types, true)
		seen := map[string]bool{}
		for range g.between(g.o.Rows) {
			args := make([]Term, len(types))
			for i, t := range types {
				args[i] = g.constant(t)
			}
			head := Atom{Rel: name, Args: args}
			if key := head.String(); !seen[key] {
				seen[key] = true
				g.p.Rules = append(g.p.Rules, Rule{Head: head})
			}
		}
		g.pool = append(g.pool, name)
	}
}

// complexRules generates the complex rules, and for some of their heads a recursive rule.
func (g *gen) complexRules() {
	for range g.between(g.o.ComplexRules) {
		r, _ := g.rule("", nil, true, nil)
		g.p.Rules = append(g.p.Rules, r)
		if g.r.IntN(100) < g.o.Recursive {
			g.recurse(r.Head.Rel)
		}
		g.pool = append(g.pool, r.Head.Rel)
		g.complex = append(g.complex, r.Head.Rel)
	}
}

// recurse adds a recursive rule for h: linear (h once in its body), non-linear (twice) or mutual
// (h uses an earlier complex relation c, and a new rule of c uses h), keeping the program
// stratified; mutual recursion falls back to linear when no earlier relation allows it.
func (g *gen) recurse(h string) {
	kind := g.r.IntN(3)
	if kind == 2 {
		for _, i := range g.r.Perm(len(g.complex)) {
			c := g.complex[i]
			avoid := dependents(g.p, c)
			avoid[h] = true
			// Each rule includes its own head when the other relation lacks one of its types.
			rh, ok := g.rule(h, []string{c}, true, avoid)
			if !ok {
				rh, _ = g.rule(h, []string{c, h}, true, avoid)
			}
			rc, ok := g.rule(c, []string{h}, true, avoid)
			if !ok {
				rc, _ = g.rule(c, []string{h, c}, true, avoid)
			}
			n := len(g.p.Rules)
			g.p.Rules = append(g.p.Rules, rh, rc)
			if _, err := g.p.Strata(); err == nil {
				return
			}
			g.p.Rules = g.p.Rules[:n]
		}
		kind = 0
	}
	must := []string{h}
	if kind == 1 {
		must = append(must, h)
	}
	r, _ := g.rule(h, must, true, nil)
	g.p.Rules = append(g.p.Rules, r)
}

// simpleRules generates the simple rules and marks the last one's head as the output.
func (g *gen) simpleRules() {
	var r Rule
	for range g.between(g.o.SimpleRules) {
		r, _ = g.rule("", nil, false, nil)
		g.p.Rules = append(g.p.Rules, r)
		g.pool = append(g.pool, r.Head.Rel)
	}
	g.p.Relation(r.Head.Rel).Output = true
}

// rule generates a rule whose positive body has Options.Subgoals atoms over the pool and the
// relations must, and, when complex, negated atoms over the pool but not avoid, and
// constraints. With head "" the head is a new relation; otherwise the rule defines head, and rule
// fails when the body has no variable of one of head's types.
func (g *gen) rule(head string, must []string, complex bool, avoid map[string]bool) (Rule, bool) {
	rels := append([]string(nil), must...)
	for n := max(g.between(g.o.Subgoals), len(must)); len(rels) < n; {
		rels = append(rels, g.pool[g.r.IntN(len(g.pool))])
	}
	g.r.Shuffle(len(rels), func(i, j int) { rels[i], rels[j] = rels[j], rels[i] })
	r := Rule{Body: g.join(rels)}
	vars := ruleVars(g.p, r)
	if complex {
		g.negations(&r, vars, avoid)
		g.constraints(&r, vars)
	}
	if head == "" {
		args := make([]Term, g.between(g.o.HeadArity))
		types := make([]Type, len(args))
		perm := g.r.Perm(len(vars.names))
		for i := range args {
			v := vars.names[g.r.IntN(len(vars.names))]
			if i < len(perm) {
				v = vars.names[perm[i]] // distinct variables while there are enough
			}
			args[i], types[i] = V(v), vars.types[v]
		}
		r.Head = Atom{Rel: g.relation(types, false), Args: args}
		return r, true
	}
	rel := g.p.Relation(head)
	r.Head = Atom{Rel: head, Args: make([]Term, len(rel.Attrs))}
	for i, a := range rel.Attrs {
		of := vars.of(a.Type)
		if len(of) == 0 {
			return r, false
		}
		r.Head.Args[i] = V(of[g.r.IntN(len(of))])
	}
	return r, true
}

// join returns positive atoms over rels whose arguments are variables chosen as queryFuzz's
// validate_rule does: for each type with s argument spots, n distinct variables (1 when s < 3,
// otherwise between 2 and s-1) fill the spots at random, so repeated variables make joins.
func (g *gen) join(rels []string) []Atom {
	atoms := make([]Atom, len(rels))
	type spot struct{ atom, arg int }
	spots := map[Type][]spot{}
	for i, name := range rels {
		rel := g.p.Relation(name)
		atoms[i] = Atom{Rel: name, Args: make([]Term, len(rel.Attrs))}
		for j, a := range rel.Attrs {
			spots[a.Type] = append(spots[a.Type], spot{i, j})
		}
	}
	next := 0
	for _, t := range []Type{Number, Symbol} {
		s := len(spots[t])
		if s == 0 {
			continue
		}
		n := 1
		if s >= 3 {
			n = 2 + g.r.IntN(s-2)
		}
		for _, sp := range spots[t] {
			atoms[sp.atom].Args[sp.arg] = V(varName(next + g.r.IntN(n)))
		}
		next += n
	}
	return atoms
}

// negations adds up to Options.MaxNegated negated atoms over the pool but not avoid, whose
// arguments are variables of the positive body, so negation is safe.
func (g *gen) negations(r *Rule, vars varSet, avoid map[string]bool) {
	for range g.r.IntN(g.o.MaxNegated + 1) {
		var cands []string
		for _, name := range g.pool {
			if !avoid[name] && vars.covers(g.p.Relation(name)) {
				cands = append(cands, name)
			}
		}
		if len(cands) == 0 {
			return
		}
		rel := g.p.Relation(cands[g.r.IntN(len(cands))])
		a := Atom{Rel: rel.Name, Args: make([]Term, len(rel.Attrs)), Negated: true}
		for i, at := range rel.Attrs {
			of := vars.of(at.Type)
			a.Args[i] = V(of[g.r.IntN(len(of))])
		}
		r.Body = append(r.Body, a)
	}
}

// Comparison operators, order operators first.
var compareOps = []Op{Lt, Le, Gt, Ge, Eq, Ne}

// constraints adds up to Options.MaxPredicates comparisons of a body variable with a constant
// or, one time in four, with another variable of its type (a deviation: queryFuzz compares with
// constants only). Symbols use an order operator in Options.SymbolOrder percent of constraints.
func (g *gen) constraints(r *Rule, vars varSet) {
	for range g.r.IntN(g.o.MaxPredicates + 1) {
		x := vars.names[g.r.IntN(len(vars.names))]
		t := vars.types[x]
		op := compareOps[g.r.IntN(len(compareOps))]
		if t == Symbol {
			if g.r.IntN(100) < g.o.SymbolOrder {
				op = compareOps[g.r.IntN(4)]
			} else {
				op = compareOps[4+g.r.IntN(2)]
			}
		}
		right := g.constant(t)
		if of := vars.of(t); len(of) > 1 && g.r.IntN(4) == 0 {
			for right = V(x); right.Name == x; {
				right = V(of[g.r.IntN(len(of))])
			}
		}
		r.Constraints = append(r.Constraints, Constraint{Op: op, Left: V(x), Right: right})
	}
}

// varSet is the variables of a rule's positive body in order of appearance, with their types.
type varSet struct {
	names []string
	types map[string]Type
}

// ruleVars returns the variables of r's positive body atoms, typed by p's declarations.
func ruleVars(p *Program, r Rule) varSet {
	s := varSet{types: map[string]Type{}}
	for _, a := range r.Body {
		rel := p.Relation(a.Rel)
		if a.Negated || rel == nil {
			continue
		}
		for i, t := range a.Args {
			if t.Kind == Var && i < len(rel.Attrs) {
				if _, ok := s.types[t.Name]; !ok {
					s.names = append(s.names, t.Name)
					s.types[t.Name] = rel.Attrs[i].Type
				}
			}
		}
	}
	return s
}

// of returns the variables of type t.
func (s varSet) of(t Type) []string {
	var out []string
	for _, n := range s.names {
		if s.types[n] == t {
			out = append(out, n)
		}
	}
	return out
}

// covers reports whether s has a variable of every attribute type of rel.
func (s varSet) covers(rel *Relation) bool {
	for _, a := range rel.Attrs {
		if len(s.of(a.Type)) == 0 {
			return false
		}
	}
	return true
}
