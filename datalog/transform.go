package datalog

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Expect is the set relation that a transformation promises between the output of the original
// program and the output of the transformed one. The zero value is invalid.
type Expect int

// The metamorphic relations of queryFuzz.
const (
	Equal    Expect = iota + 1 // EQU: the outputs are equal
	Subset                     // EXP: the original output is a subset of the transformed one
	Superset                   // CON: the original output is a superset of the transformed one
)

var expectNames = [...]string{"invalid", "equal", "subset", "superset"}

// String returns "equal", "subset" or "superset".
func (e Expect) String() string {
	if e < 0 || int(e) >= len(expectNames) {
		return "expect(" + strconv.Itoa(int(e)) + ")"
	}
	return expectNames[e]
}

// ParseExpect reads an expectation by name.
func ParseExpect(s string) (Expect, error) {
	for i, n := range expectNames {
		if i > 0 && n == s {
			return Expect(i), nil
		}
	}
	return 0, fmt.Errorf("datalog: unknown expectation %q; use equal, subset or superset", s)
}

// MarshalText stores the expectation by name.
func (e Expect) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads an expectation name.
func (e *Expect) UnmarshalText(b []byte) error {
	v, err := ParseExpect(string(b))
	*e = v
	return err
}

// Holds reports whether the rows of the original and the transformed output, each a set of
// rows, stand in relation e.
func (e Expect) Holds(orig, trans [][]string) bool {
	in := func(a, b [][]string) bool {
		set := make(map[string]bool, len(b))
		for _, r := range b {
			set[strings.Join(r, "\x00")] = true
		}
		for _, r := range a {
			if !set[strings.Join(r, "\x00")] {
				return false
			}
		}
		return true
	}
	switch e {
	case Equal:
		return in(orig, trans) && in(trans, orig)
	case Subset:
		return in(orig, trans)
	case Superset:
		return in(trans, orig)
	}
	return false
}

// The names of the transformation steps.
const (
	StepAddEqu = "ADD_EQU"
	StepAddCon = "ADD_CON"
	StepModExp = "MOD_EXP"
	StepModEqu = "MOD_EQU"
	StepModCon = "MOD_CON"
	StepRemExp = "REM_EXP"
	StepRemEqu = "REM_EQU"
	StepNeg    = "NEG"
)

// A Micro is a micro-transformation of rule r of program p (p declares the relations and is not
// changed). It draws its choices from rnd and names new variables with fresh, which returns a
// variable name unused in r at each call. It returns the transformed rule, or false when its
// precondition fails.
type Micro func(p *Program, r Rule, rnd *rand.Rand, fresh func() string) (Rule, bool)

type namedMicro struct {
	name string
	fn   Micro
}

// alphabets lists the micro-transformations that keep each relation (queryFuzz's alphabets).
var alphabets = [...][]namedMicro{
	Equal: {{StepAddEqu, AddEqu}, {StepModEqu, ModEqu}, {StepRemEqu, RemEqu}},
	Subset: {{StepAddEqu, AddEqu}, {StepModEqu, ModEqu}, {StepRemEqu, RemEqu},
		{StepModExp, ModExp}, {StepRemExp, RemExp}},
	Superset: {{StepAddEqu, AddEqu}, {StepModEqu, ModEqu}, {StepRemEqu, RemEqu},
		{StepAddCon, AddCon}, {StepModCon, ModCon}},
}

// Transform applies one queryFuzz macro-transformation to a copy of p and returns the copy, the
// relation its output has to the output of p, and the names of the steps applied (p is not
// changed). The relation is drawn uniformly; then, for EQU, with Options.Neg percent the single
// NEG step (a sequence when NEG's precondition fails, where queryFuzz would leave the program
// unchanged), otherwise a sequence of Options.Steps micro-steps of the relation's alphabet, all
// on one rule. EXP and CON transform only a rule whose head has no negation downstream in the
// dependency graph, EQU any rule with a body atom. A step whose precondition fails, whose result
// would not be a safe and stratified program, or that would give the rule more than
// Options.MaxBody positive atoms, is skipped.
func Transform(p *Program, o Options, r *rand.Rand) (*Program, Expect, []string, error) {
	if err := o.Validate(); err != nil {
		return nil, 0, nil, err
	}
	if err := programValid(p); err != nil {
		return nil, 0, nil, fmt.Errorf("datalog: transform: %w", err)
	}
	var all, mono []int
	for i, rule := range p.Rules {
		if len(rule.Body) == 0 {
			continue
		}
		all = append(all, i)
		if monotone(p, rule.Head.Rel) {
			mono = append(mono, i)
		}
	}
	if len(all) == 0 {
		return nil, 0, nil, errors.New("datalog: transform: the program has no rule with a body atom to transform")
	}
	expect := Expect(1 + r.IntN(3))
	cands := all
	if expect != Equal {
		cands = mono // never empty: a rule of the top stratum qualifies
	}
	i := cands[r.IntN(len(cands))]
	q := cloneProgram(p)
	if expect == Equal && r.IntN(100) < o.Neg {
		if t, ok := Neg(q, i, r, freshRelation(q, "neg")); ok {
			return t, Equal, []string{StepNeg}, nil
		}
	}
	steps := alphabets[expect]
	var applied []string
	for range o.Steps.Min + r.IntN(o.Steps.Max-o.Steps.Min+1) {
		s := steps[r.IntN(len(steps))]
		old := q.Rules[i]
		rule, ok := s.fn(q, old, r, freshVars(old))
		if !ok || len(positiveAtoms(rule)) > max(o.MaxBody, len(positiveAtoms(old))) {
			continue
		}
		q.Rules[i] = rule
		if ruleValid(q, rule) != nil || !stratified(q) || expect != Equal && !monotone(q, rule.Head.Rel) {
			q.Rules[i] = old
			continue
		}
		applied = append(applied, s.name)
	}
	return q, expect, applied, nil
}

// AddEqu is ADD_EQU (thesis Alg. 3): it appends a copy of a random positive body atom in which m
// random argument positions, m in [1, arity], get fresh variables. The copy maps onto the
// original atom, so the rule is equivalent.
func AddEqu(_ *Program, r Rule, rnd *rand.Rand, fresh func() string) (Rule, bool) {
	pos := positiveAtoms(r)
	if len(pos) == 0 {
		return r, false
	}
	g := cloneAtom(r.Body[pos[rnd.IntN(len(pos))]])
	if n := len(g.Args); n > 0 {
		for range 1 + rnd.IntN(n) {
			g.Args[rnd.IntN(n)] = V(fresh())
		}
	}
	q := cloneRule(r)
	q.Body = append(q.Body, g)
	return q, true
}

// AddCon is ADD_CON (thesis Alg. 3): it appends an atom of a random relation of p whose arguments
// are random variables of the rule of the column's type (a fresh variable when the rule has none
// of that type, as queryFuzz does). An atom already in the body is redrawn, up to ten times. A
// new conjunct can only restrict the rule: the result is contained in the original's.
func AddCon(p *Program, r Rule, rnd *rand.Rand, fresh func() string) (Rule, bool) {
	if len(p.Relations) == 0 {
		return r, false
	}
	types := varTypes(p, r)
	vars := ruleVarNames(r)
	for range 10 {
		rel := &p.Relations[rnd.IntN(len(p.Relations))]
		g := Atom{Rel: rel.Name, Args: make([]Term, len(rel.Attrs))}
		for i, a := range rel.Attrs {
			var of []string
			for _, v := range vars {
				if types[v] == a.Type {
					of = append(of, v)
				}
			}
			if len(of) == 0 {
				g.Args[i] = V(fresh())
			} else {
				g.Args[i] = V(of[rnd.IntN(len(of))])
			}
		}
		if !slices.ContainsFunc(r.Body, func(a Atom) bool { return atomEqual(a, g) }) {
			q := cloneRule(r)
			q.Body = append(q.Body, g)
			return q, true
		}
	}
	return r, false
}

// ModExp is MOD_EXP (thesis Alg. 4): it replaces one random occurrence, in a positive atom, of a
// variable that occurs more than once in the positive atoms by a fresh variable. This removes a
// join, so the result contains the original's.
func ModExp(_ *Program, r Rule, rnd *rand.Rand, fresh func() string) (Rule, bool) {
	type occ struct{ atom, arg int }
	occs := map[string][]occ{}
	var reused []string
	for i, a := range r.Body {
		if a.Negated {
			continue
		}
		for j, t := range a.Args {
			if t.Kind == Var {
				occs[t.Name] = append(occs[t.Name], occ{i, j})
				if len(occs[t.Name]) == 2 {
					reused = append(reused, t.Name)
				}
			}
		}
	}
	if len(reused) == 0 {
		return r, false
	}
	at := occs[reused[rnd.IntN(len(reused))]]
	o := at[rnd.IntN(len(at))]
	q := cloneRule(r)
	q.Body[o.atom].Args[o.arg] = V(fresh())
	return q, true
}

// ModEqu is MOD_EQU: it renames every occurrence of a random variable to a fresh one.
func ModEqu(_ *Program, r Rule, rnd *rand.Rand, fresh func() string) (Rule, bool) {
	vars := ruleVarNames(r)
	if len(vars) == 0 {
		return r, false
	}
	return renameVar(r, vars[rnd.IntN(len(vars))], V(fresh())), true
}

// ModCon is MOD_CON (thesis Alg. 4): it replaces every occurrence of a random variable v, head
// included, by another random variable w of the same type. This adds a join, so the result is
// contained in the original's.
func ModCon(p *Program, r Rule, rnd *rand.Rand, _ func() string) (Rule, bool) {
	vars := ruleVarNames(r)
	if len(vars) < 2 {
		return r, false
	}
	types := varTypes(p, r)
	v := vars[rnd.IntN(len(vars))]
	var ws []string
	for _, w := range vars {
		if w != v && types[w] == types[v] {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return r, false
	}
	return renameVar(r, v, V(ws[rnd.IntN(len(ws))])), true
}

// RemExp is REM_EXP (thesis Alg. 5): it removes a random positive atom g when the rule keeps
// another positive atom, stays safe, and no containment mapping sends the original onto the
// result (g matches no remaining atom, see [ExistsContainment]). Removing a conjunct can only
// widen the rule: the result contains the original's.
func RemExp(_ *Program, r Rule, rnd *rand.Rand, _ func() string) (Rule, bool) {
	return remove(r, rnd, false)
}

// RemEqu is REM_EQU (thesis Alg. 5): as [RemExp], but it succeeds only when a containment mapping
// exists, so the rule is equivalent.
func RemEqu(_ *Program, r Rule, rnd *rand.Rand, _ func() string) (Rule, bool) {
	return remove(r, rnd, true)
}

func remove(r Rule, rnd *rand.Rand, contained bool) (Rule, bool) {
	pos := positiveAtoms(r)
	if len(pos) < 2 {
		return r, false
	}
	i := pos[rnd.IntN(len(pos))]
	q := cloneRule(r)
	q.Body = slices.Delete(q.Body, i, i+1)
	if ExistsContainment(r, q, r.Body[i]) != contained || !ruleSafe(q) {
		return r, false
	}
	return q, true
}

// ExistsContainment is EXISTSCONTAINMENT (thesis Alg. 5): whether a containment mapping sends
// rule q onto q2, which is q without its positive atom g. Only g needs a check, since every
// other literal maps onto itself: g is made a pattern in which the first occurrence of each
// variable of q missing from q2 is a wildcard and its later occurrences must equal what the
// first matched; any other term must match itself. It reports whether some positive atom of q2
// matches the pattern.
func ExistsContainment(q, q2 Rule, g Atom) bool {
	removed := map[string]bool{}
	for _, v := range ruleVarNames(q) {
		removed[v] = true
	}
	for _, v := range ruleVarNames(q2) {
		delete(removed, v)
	}
	match := func(h Atom) bool {
		bound := map[string]Term{}
		for k, t := range g.Args {
			u := h.Args[k]
			switch {
			case t.Kind == Anon:
			case t.Kind == Var && removed[t.Name]:
				if b, ok := bound[t.Name]; !ok {
					bound[t.Name] = u
				} else if u.Kind == Anon || !termEqual(b, u) {
					return false
				}
			case !termEqual(t, u):
				return false
			}
		}
		return true
	}
	for _, h := range q2.Body {
		if !h.Negated && h.Rel == g.Rel && len(h.Args) == len(g.Args) && match(h) {
			return true
		}
	}
	return false
}

// Neg is the NEG transformation (EQU): for rule i of p and a random positive body atom g whose
// variables the rest of the body binds, it declares a relation named name with g's variables as
// attributes, defined by the rule's body with g negated, and replaces g in rule i by the negation
// of the new relation:
//
//	p(X,Y) :- a(X,Y), b(Y,Z), c(Z).   becomes   name(Z) :- a(X,Y), b(Y,Z), !c(Z).
//	                                             p(X,Y) :- a(X,Y), b(Y,Z), !name(Z).
//
// It returns a new program (p is not changed), or false when no atom qualifies, name is taken
// or the result is not stratified (g or the rest of the body depends on the head).
func Neg(p *Program, i int, rnd *rand.Rand, name string) (*Program, bool) {
	if p.Relation(name) != nil || i < 0 || i >= len(p.Rules) {
		return nil, false
	}
	r := p.Rules[i]
	var cands []int
	for j, g := range r.Body {
		if g.Negated {
			continue
		}
		rest := cloneRule(r)
		rest.Body = slices.Delete(rest.Body, j, j+1)
		if len(positiveAtoms(rest)) == 0 {
			continue
		}
		bound := boundVars(rest)
		if !slices.ContainsFunc(g.Args, func(t Term) bool { return t.Kind == Var && !bound[t.Name] }) {
			cands = append(cands, j)
		}
	}
	if len(cands) == 0 {
		return nil, false
	}
	j := cands[rnd.IntN(len(cands))]
	g := r.Body[j]
	grel := p.Relation(g.Rel)
	rel := Relation{Name: name, Attrs: []Attr{}}
	args := []Term{}
	for k, t := range g.Args {
		if t.Kind == Var && !slices.ContainsFunc(args, func(u Term) bool { return u.Name == t.Name }) {
			rel.Attrs = append(rel.Attrs, Attr{Name: attrName(len(args)), Type: grel.Attrs[k].Type})
			args = append(args, V(t.Name))
		}
	}
	def := cloneRule(r)
	def.Head = Atom{Rel: name, Args: args}
	def.Body[j].Negated = true
	use := cloneRule(r)
	use.Body[j] = Atom{Rel: name, Args: slices.Clone(args), Negated: true}
	q := cloneProgram(p)
	q.Relations = append(q.Relations, rel)
	q.Rules[i] = use
	q.Rules = slices.Insert(q.Rules, i, def)
	if programValid(q) != nil {
		return nil, false
	}
	return q, true
}

// monotone reports whether no rule negates rel or a relation that depends on it: then a larger
// (smaller) rel can only make every relation larger (smaller).
func monotone(p *Program, rel string) bool {
	down := dependents(p, rel)
	for _, r := range p.Rules {
		for _, a := range r.Body {
			if a.Negated && down[a.Rel] {
				return false
			}
		}
	}
	return true
}

// dependents returns rel and the relations that depend on it.
func dependents(p *Program, rel string) map[string]bool {
	down := map[string]bool{rel: true}
	for grew := true; grew; {
		grew = false
		for _, r := range p.Rules {
			if down[r.Head.Rel] {
				continue
			}
			for _, a := range r.Body {
				if down[a.Rel] {
					down[r.Head.Rel], grew = true, true
					break
				}
			}
		}
	}
	return down
}

// programValid checks that p parses back from its text (declared relations, types, safety) and
// is stratified.
func programValid(p *Program) error {
	q, err := Parse(p.File, p.String())
	if err != nil {
		return err
	}
	_, err = q.Strata()
	return err
}

// ruleValid checks r against p's declarations: arities, types and safety.
func ruleValid(p *Program, r Rule) error {
	_, err := Parse(p.File, (&Program{Relations: p.Relations, Rules: []Rule{r}}).String())
	return err
}

func stratified(p *Program) bool {
	_, err := p.Strata()
	return err == nil
}

// ruleSafe reports whether every variable of r's head, negated atoms and constraints occurs in a
// positive body atom.
func ruleSafe(r Rule) bool {
	bound := boundVars(r)
	ok := func(t Term) bool { return t.Kind != Var || bound[t.Name] }
	if !allTerms(r.Head.Args, ok) {
		return false
	}
	for _, a := range r.Body {
		if a.Negated && !allTerms(a.Args, ok) {
			return false
		}
	}
	for _, c := range r.Constraints {
		if !ok(c.Left) || !ok(c.Right) {
			return false
		}
	}
	return true
}

// allTerms reports whether ok holds for every term of ts.
func allTerms(ts []Term, ok func(Term) bool) bool {
	return !slices.ContainsFunc(ts, func(t Term) bool { return !ok(t) })
}

// boundVars returns the variables of r's positive body atoms.
func boundVars(r Rule) map[string]bool {
	bound := map[string]bool{}
	for _, a := range r.Body {
		if !a.Negated {
			for _, t := range a.Args {
				if t.Kind == Var {
					bound[t.Name] = true
				}
			}
		}
	}
	return bound
}

// positiveAtoms returns the indexes of r's positive body atoms.
func positiveAtoms(r Rule) []int {
	var out []int
	for i, a := range r.Body {
		if !a.Negated {
			out = append(out, i)
		}
	}
	return out
}

// ruleVarNames returns the variables of r in order of first appearance: head, body, constraints.
func ruleVarNames(r Rule) []string {
	var out []string
	for t := range r.Terms() {
		if t.Kind == Var && !slices.Contains(out, t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}

// varTypes returns the types of r's variables by p's declarations of the atoms they occur in.
func varTypes(p *Program, r Rule) map[string]Type {
	types := map[string]Type{}
	for _, a := range append([]Atom{r.Head}, r.Body...) {
		if rel := p.Relation(a.Rel); rel != nil {
			for i, t := range a.Args {
				if t.Kind == Var && i < len(rel.Attrs) {
					types[t.Name] = rel.Attrs[i].Type
				}
			}
		}
	}
	return types
}

// renameVar returns a copy of r with every occurrence of variable v replaced by t.
func renameVar(r Rule, v string, t Term) Rule {
	q := cloneRule(r)
	sub := func(u *Term) {
		if u.Kind == Var && u.Name == v {
			*u = t
		}
	}
	for i := range q.Head.Args {
		sub(&q.Head.Args[i])
	}
	for _, a := range q.Body {
		for i := range a.Args {
			sub(&a.Args[i])
		}
	}
	for i := range q.Constraints {
		sub(&q.Constraints[i].Left)
		sub(&q.Constraints[i].Right)
	}
	return q
}

// freshVars returns a source of variable names unused in r: A, B, ..., Z, A1, ...
func freshVars(r Rule) func() string {
	used := map[string]bool{}
	for _, v := range ruleVarNames(r) {
		used[v] = true
	}
	i := 0
	return func() string {
		for {
			n := varName(i)
			i++
			if !used[n] {
				used[n] = true
				return n
			}
		}
	}
}

// freshRelation returns prefix followed by the smallest number that makes a relation name
// unused in p.
func freshRelation(p *Program, prefix string) string {
	for i := 0; ; i++ {
		if n := prefix + strconv.Itoa(i); p.Relation(n) == nil {
			return n
		}
	}
}

func cloneAtom(a Atom) Atom {
	a.Args = slices.Clone(a.Args)
	return a
}

func cloneRule(r Rule) Rule {
	r.Head = cloneAtom(r.Head)
	r.Body = slices.Clone(r.Body)
	for i := range r.Body {
		r.Body[i] = cloneAtom(r.Body[i])
	}
	r.Constraints = slices.Clone(r.Constraints)
	return r
}

func cloneProgram(p *Program) *Program {
	q := *p
	q.Relations = slices.Clone(p.Relations)
	for i := range q.Relations {
		q.Relations[i].Attrs = slices.Clone(q.Relations[i].Attrs)
	}
	q.Rules = make([]Rule, len(p.Rules))
	for i, r := range p.Rules {
		q.Rules[i] = cloneRule(r)
	}
	return &q
}
