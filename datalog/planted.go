package datalog

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

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

// The planted faults of the Datalog domain (polyfuzz datalog --fault KIND:ARG). Each rewrites a
// program as an engine with a known class of bug would evaluate it, and fires only where the
// bug's feature sits at negation depth ARG or more (see NegationDepth: the depth of the rule's
// head, or of the relation), so that only tests that reach those strata see it. The domain
// registers PlantMixed and PlantRules as its own kinds; their argument may also name any kind of
// this package with its depth (KIND or KIND:N, N 0 when left out: stratum-drop:triple-atom:0), so
// that every kind can be planted through a registered one.
const (
	// PlantMixed: a relation that has both facts and rules loses what its rules derive, as if
	// the engine read it as an input relation only.
	PlantMixed = "mixed-drop"
	// PlantRules: a relation defined by two or more rules loses what all but its first rule
	// derive, as if the engine planned only one rule of the union.
	PlantRules = "stratum-drop"
	// PlantTripleAtom: a rule with three copies of one positive atom has that atom's variables
	// range over the whole active domain (z3 μZ issue 4844).
	PlantTripleAtom = "triple-atom"
	// PlantNonlinear: a rule with two or more positive atoms of its own recursive component
	// (non-linear recursion) sees only the tuples its relations hold before the recursion.
	PlantNonlinear = "nonlinear-once"
	// PlantNegEarly: a rule without negation that reads a relation defined with negation runs
	// in the first stratum, when that relation holds only its facts.
	PlantNegEarly = "neg-early"
	// PlantNegExists: a negated atom whose variables come from two different positive atoms
	// checks the variable of the later atom as `_` (an existence check).
	PlantNegExists = "neg-exists"
	// PlantEqAssign: an equality of a variable with a constant, where one positive atom binds
	// the variable, assigns the constant in the head instead of filtering (z3 μZ issue 6447).
	PlantEqAssign = "eq-assign"
	// PlantUnsigned: an order comparison of a variable with a negative number, where the
	// variable joins two positive atoms (a range scan of the join's index), compares the two
	// as unsigned 64-bit integers.
	PlantUnsigned = "unsigned-cmp"
	// PlantHeadRepeat: in a rule whose head repeats a variable that a body atom also repeats,
	// the atom's repetition is not checked and each head occurrence takes its own column.
	PlantHeadRepeat = "head-repeat"
	// PlantFactDedup: the facts of a relation that also has rules are deduplicated on their
	// first column, so a fact that shares its first value with an earlier one is lost.
	PlantFactDedup = "fact-dedup"
	// PlantNegWildcard: a negated atom with `_` and a bound argument, !r(x, _), holds when some
	// value v of the active domain has no r(x, v), instead of when r has no tuple with x first.
	PlantNegWildcard = "neg-wildcard"
	// PlantIneqDrop: an inequality between two variables, in a rule that joins three or more
	// positive atoms, is pushed into the join and lost.
	PlantIneqDrop = "ineq-drop"
	// PlantConstFilter: a constant in a positive body atom over a relation that has rules (a
	// derived column, whose filter the engine does not support) passes every row.
	PlantConstFilter = "const-filter"
)

// plant is one planted fault. rewrite changes f.q as the faulty engine evaluates f.p and reports
// whether the program reaches the bug's feature (whatever its depth: the canary) and whether
// the fault fired (the program changed).
type plant struct {
	help    string
	rewrite func(f *faulty) (reached, fired bool)
}

// plants are the planted faults by kind.
var plants = map[string]plant{
	PlantMixed:       {"relations at negation depth >= N with facts and rules lose their rules' tuples", mixedDrop},
	PlantRules:       {"relations at negation depth >= N with several rules keep only their first rule's tuples", stratumDrop},
	PlantTripleAtom:  {"rules at depth >= N with three copies of one atom let its variables range over the active domain", tripleAtom},
	PlantNonlinear:   {"non-linear recursive rules at depth >= N see only the tuples before the recursion", nonlinearOnce},
	PlantNegEarly:    {"rules at depth >= N without negation read relations defined with negation before those are computed", negEarly},
	PlantNegExists:   {"negated atoms at depth >= N joining two positive atoms check the later atom's variable as _", negExists},
	PlantEqAssign:    {"x = c at depth >= N, with x in one positive atom, assigns c in the head instead of filtering", eqAssign},
	PlantUnsigned:    {"order comparisons at depth >= N of a join variable with a negative number compare as unsigned", unsignedCmp},
	PlantHeadRepeat:  {"a variable repeated in the head and in a body atom at depth >= N: the atom's repetition is not checked", headRepeat},
	PlantFactDedup:   {"facts of relations at depth >= N that also have rules are deduplicated on their first column", factDedup},
	PlantNegWildcard: {"!r(x, _) at depth >= N holds when some value v has no r(x, v)", negWildcard},
	PlantIneqDrop:    {"x != y at depth >= N in a join of three or more atoms is dropped", ineqDrop},
	PlantConstFilter: {"constants in body atoms at depth >= N over relations with rules pass every row", constFilter},
}

// PlantedHelp describes the planted faults for --fault's help.
var PlantedHelp = plantedHelp()

func plantedHelp() map[string]string {
	out := map[string]string{}
	for k, p := range plants {
		out[k] = p.help + ", e.g. " + k + ":1"
	}
	return out
}

// PlantedKinds returns the names of the planted faults, sorted.
func PlantedKinds() []string {
	return slices.Sorted(maps.Keys(plants))
}

// Planted is a Datalog target with a planted fault: it rewrites each canonical program as a
// faulty engine would evaluate it and runs the rewrite on the inner target, which runs canonical
// programs. A statement that does not parse goes to the inner target unchanged. Once named
// (SetCanary), it records the bug's canary on each result (fuzz.Result.MarkCanary): reached when the
// program has the bug's feature, triggered when the fault changed the program.
type Planted struct {
	Inner   fuzz.Target
	Kind    string
	Stratum int
	canary  string
}

// NewPlanted returns inner with the fault of kind at negation depth arg: a number, at least 0,
// or another kind of this package with its depth (KIND or KIND:N). With a nil inner it only
// checks kind and arg.
func NewPlanted(inner fuzz.Target, kind, arg string) (fuzz.Target, error) {
	if _, ok := plants[kind]; !ok {
		return nil, fmt.Errorf("unknown planted fault %q; use one of %s", kind, strings.Join(PlantedKinds(), ", "))
	}
	if other, n, _ := strings.Cut(arg, ":"); plants[other].rewrite != nil {
		if n == "" {
			n = "0"
		}
		kind, arg = other, n
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("--fault %s:%s: give the negation depth from which the fault fires, a number such as %s:1, or a kind and its depth such as %s:%s:1",
			kind, arg, kind, kind, PlantTripleAtom)
	}
	return &Planted{Inner: inner, Kind: kind, Stratum: n}, nil
}

// SetCanary names the bug whose canary the results record.
func (t *Planted) SetCanary(id string) { t.canary = id }

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
	reached, q := t.rewrite(p)
	if q != nil {
		stmt = q.String()
	}
	r, err := t.Inner.Exec(ctx, stmt)
	if reached {
		r.MarkCanary(t.canary, q != nil)
	}
	return r, err
}

// Rewrite returns the program a faulty engine evaluates instead of p, or nil when the fault does
// not fire on p.
func (t *Planted) Rewrite(p *Program) *Program {
	_, q := t.rewrite(p)
	return q
}

// Reaches reports whether p has the planted bug's feature, whether or not the fault fires.
func (t *Planted) Reaches(p *Program) bool {
	reached, _ := t.rewrite(p)
	return reached
}

func (t *Planted) rewrite(p *Program) (bool, *Program) {
	f := &faulty{p: p, q: p.Clone(), depth: p.NegationDepth(), min: t.Stratum}
	reached, fired := plants[t.Kind].rewrite(f)
	if !fired {
		return reached, nil
	}
	return true, f.q
}

// faulty is a program being rewritten by a planted fault: p the original, q its rewrite.
type faulty struct {
	p, q  *Program
	depth map[string]int
	min   int
	scc   map[string]int
	doms  map[Type]string
}

// live reports whether rel reaches an output relation; deep, whether at depth min or more.
func (f *faulty) live(rel string) bool { _, ok := f.depth[rel]; return ok }
func (f *faulty) deep(rel string) bool { d, ok := f.depth[rel]; return ok && d >= f.min }

// component returns the index of rel's strongly connected component (-1 without one).
func (f *faulty) component(rel string) int {
	if f.scc == nil {
		f.scc = map[string]int{}
		strata, _ := f.p.Strata()
		for i, s := range strata {
			for _, r := range s {
				f.scc[r] = i
			}
		}
	}
	if i, ok := f.scc[rel]; ok {
		return i
	}
	return -1
}

// declare adds a relation to q named after base, not clashing with another, and returns its name.
func (f *faulty) declare(base string, attrs []Attr) string {
	name := base
	for i := 1; f.q.Relation(name) != nil; i++ {
		name = base + strconv.Itoa(i)
	}
	f.q.Relations = append(f.q.Relations, Relation{Name: name, Attrs: slices.Clone(attrs)})
	return name
}

// copyRules declares a copy of rel named after base holding rel's clauses that keep says, with
// the head renamed, and returns its name.
func (f *faulty) copyRules(rel, base string, keep func(Rule) bool) string {
	name := f.declare(rel+base, f.p.Relation(rel).Attrs)
	for _, r := range f.p.Rules {
		if r.Head.Rel == rel && keep(r) {
			r = cloneRule(r)
			r.Head.Rel = name
			f.q.Rules = append(f.q.Rules, r)
		}
	}
	return name
}

// dom returns a relation of q holding every constant of type t in p (the active domain).
func (f *faulty) dom(t Type) string {
	if name, ok := f.doms[t]; ok {
		return name
	}
	if f.doms == nil {
		f.doms = map[Type]string{}
	}
	name := f.declare("planted_dom_"+t.String(), []Attr{{Name: "v", Type: t}})
	f.doms[t] = name
	seen := map[Term]bool{}
	add := func(c Term) {
		c.Pos = Pos{}
		if (c.Kind == Num && t == Number || c.Kind == Sym && t == Symbol) && !seen[c] {
			seen[c] = true
			f.q.Rules = append(f.q.Rules, Rule{Head: Atom{Rel: name, Args: []Term{c}}})
		}
	}
	for x := range f.p.Terms() {
		add(x)
	}
	return name
}

// typeOf returns the type of argument i of atom a.
func (f *faulty) typeOf(a Atom, i int) Type { return f.p.Relation(a.Rel).Attrs[i].Type }

// freshVar returns a variable name that rule r does not use.
func freshVar(r Rule, base string) string {
	used := map[string]bool{}
	for x := range r.Terms() {
		used[x.Name] = true
	}
	name := base
	for i := 1; used[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	return name
}

// counts returns how many facts and how many other rules each relation has.
func counts(p *Program) (facts, rules map[string]int) {
	facts, rules = map[string]int{}, map[string]int{}
	for _, r := range p.Rules {
		if r.IsFact() {
			facts[r.Head.Rel]++
		} else {
			rules[r.Head.Rel]++
		}
	}
	return facts, rules
}

// eachRule calls fn with each rule of q that is not a fact and whose head reaches an output,
// and keeps what fn makes of it. The rules fn adds to q (helper relations) are not visited.
func (f *faulty) eachRule(fn func(r *Rule)) {
	for i := range len(f.q.Rules) {
		if r := f.q.Rules[i]; !r.IsFact() && f.live(r.Head.Rel) {
			fn(&r)
			f.q.Rules[i] = r
		}
	}
}

func mixedDrop(f *faulty) (reached, fired bool) {
	facts, rules := counts(f.p)
	var out []Rule
	for _, r := range f.q.Rules {
		if h := r.Head.Rel; !r.IsFact() && facts[h] > 0 && rules[h] > 0 && f.live(h) {
			reached = true
			if f.deep(h) {
				fired = true
				continue
			}
		}
		out = append(out, r)
	}
	f.q.Rules = out
	return reached, fired
}

func stratumDrop(f *faulty) (reached, fired bool) {
	_, rules := counts(f.p)
	seen := map[string]bool{}
	var out []Rule
	for _, r := range f.q.Rules {
		if h := r.Head.Rel; !r.IsFact() && rules[h] > 1 && f.live(h) {
			reached = true
			if f.deep(h) && seen[h] {
				fired = true
				continue
			}
			seen[h] = true
		}
		out = append(out, r)
	}
	f.q.Rules = out
	return reached, fired
}

func tripleAtom(f *faulty) (reached, fired bool) {
	f.eachRule(func(r *Rule) {
		n, copies := map[string]int{}, map[string]int{}
		tripled := ""
		for _, a := range r.Body {
			if !a.Negated {
				if n[a.Rel]++; n[a.Rel] >= 2 {
					reached = true
				}
				if copies[a.String()]++; copies[a.String()] == 3 && tripled == "" {
					tripled = a.String()
				}
			}
		}
		if tripled == "" || !f.deep(r.Head.Rel) {
			return
		}
		// The variables of the tripled atoms, in order, with their types; those used elsewhere
		// in the rule get the active domain.
		var vars []string
		types := map[string]Type{}
		elsewhere := map[string]bool{}
		var body []Atom
		for _, a := range r.Body {
			mine := !a.Negated && a.String() == tripled
			for i, x := range a.Args {
				if x.Kind != Var {
					continue
				}
				if !mine {
					elsewhere[x.Name] = true
				} else if _, ok := types[x.Name]; !ok {
					types[x.Name] = f.typeOf(a, i)
					vars = append(vars, x.Name)
				}
			}
			if !mine {
				body = append(body, a)
			}
		}
		if len(vars) == 0 {
			return
		}
		for _, x := range r.Head.Args {
			elsewhere[x.Name] = true
		}
		for _, c := range r.Constraints {
			elsewhere[c.Left.Name], elsewhere[c.Right.Name] = true, true
		}
		for i, v := range vars {
			if elsewhere[v] || i == 0 && len(body) == 0 {
				body = append(body, Atom{Rel: f.dom(types[v]), Args: []Term{V(v)}})
			}
		}
		r.Body = body
		fired = true
	})
	return reached, fired
}

func nonlinearOnce(f *faulty) (reached, fired bool) {
	base := map[string]string{}
	f.eachRule(func(r *Rule) {
		c := f.component(r.Head.Rel)
		var rec []int
		for i, a := range r.Body {
			if !a.Negated && f.component(a.Rel) == c {
				rec = append(rec, i)
			}
		}
		reached = reached || len(rec) > 0
		if len(rec) < 2 || !f.deep(r.Head.Rel) {
			return
		}
		for _, i := range rec {
			rel := r.Body[i].Rel
			if base[rel] == "" {
				base[rel] = f.copyRules(rel, "_base", func(s Rule) bool {
					for _, a := range s.Body {
						if !a.Negated && f.component(a.Rel) == c {
							return false
						}
					}
					return true
				})
			}
			r.Body[i].Rel = base[rel]
		}
		fired = true
	})
	return reached, fired
}

func negEarly(f *faulty) (reached, fired bool) {
	negated := map[string]bool{}
	for _, r := range f.p.Rules {
		for _, a := range r.Body {
			negated[r.Head.Rel] = negated[r.Head.Rel] || a.Negated
		}
	}
	facts := map[string]string{}
	f.eachRule(func(r *Rule) {
		hasNeg := false
		for _, a := range r.Body {
			hasNeg = hasNeg || a.Negated
		}
		for i, a := range r.Body {
			if a.Negated || !negated[a.Rel] || f.component(a.Rel) == f.component(r.Head.Rel) {
				continue
			}
			reached = true
			if hasNeg || !f.deep(r.Head.Rel) {
				continue
			}
			if facts[a.Rel] == "" {
				facts[a.Rel] = f.copyRules(a.Rel, "_facts", Rule.IsFact)
			}
			r.Body[i].Rel = facts[a.Rel]
			fired = true
		}
	})
	return reached, fired
}

func negExists(f *faulty) (reached, fired bool) {
	f.eachRule(func(r *Rule) {
		binder := map[string]int{}
		for i, a := range r.Body {
			for _, x := range a.Args {
				if _, ok := binder[x.Name]; !ok && !a.Negated && x.Kind == Var {
					binder[x.Name] = i
				}
			}
		}
		for j := range r.Body {
			n := &r.Body[j]
			if !n.Negated {
				continue
			}
			vars := map[string]bool{}
			first, last, lastVar := len(r.Body), -1, ""
			for _, x := range n.Args {
				if x.Kind == Var {
					vars[x.Name] = true
					first = min(first, binder[x.Name])
					if binder[x.Name] > last {
						last, lastVar = binder[x.Name], x.Name
					}
				}
			}
			if len(vars) < 2 {
				continue
			}
			reached = true
			if first == last || !f.deep(r.Head.Rel) {
				continue
			}
			for i, x := range n.Args {
				if x.Kind == Var && x.Name == lastVar {
					n.Args[i] = Any()
				}
			}
			fired = true
		}
	})
	return reached, fired
}

// varConst returns the variable and the constant of a comparison between the two, and whether
// the constant is on the left.
func varConst(c Constraint) (x string, k Term, left, ok bool) {
	switch {
	case c.Left.Kind == Var && c.Right.IsConst():
		return c.Left.Name, c.Right, false, true
	case c.Right.Kind == Var && c.Left.IsConst():
		return c.Right.Name, c.Left, true, true
	}
	return "", Term{}, false, false
}

func eqAssign(f *faulty) (reached, fired bool) {
	f.eachRule(func(r *Rule) {
		for i, c := range r.Constraints {
			x, k, _, ok := varConst(c)
			if !ok || c.Op != Eq {
				continue
			}
			reached = true
			if sources(r, x) != 1 || !f.deep(r.Head.Rel) {
				continue
			}
			r.Constraints = slices.Delete(slices.Clone(r.Constraints), i, i+1)
			for j, a := range r.Head.Args {
				if a.Kind == Var && a.Name == x {
					r.Head.Args[j] = k
				}
			}
			fired = true
			return
		}
	})
	return reached, fired
}

// flipped returns the operator of a comparison with its sides swapped.
var flipped = map[Op]Op{Lt: Gt, Le: Ge, Gt: Lt, Ge: Le, Eq: Eq, Ne: Ne}

func unsignedCmp(f *faulty) (reached, fired bool) {
	var out []Rule
	for _, r := range f.q.Rules {
		alts := [][]Constraint{nil}
		for _, c := range r.Constraints {
			x, k, left, ok := varConst(c)
			if !ok || k.Kind != Num || c.Op == Eq || c.Op == Ne || !f.live(r.Head.Rel) {
				for i := range alts {
					alts[i] = append(alts[i], c)
				}
				continue
			}
			reached = true
			if k.Num >= 0 || sources(&r, x) < 2 || !f.deep(r.Head.Rel) {
				for i := range alts {
					alts[i] = append(alts[i], c)
				}
				continue
			}
			op := c.Op
			if left {
				op = flipped[op]
			}
			cmp := func(op Op, k Term) Constraint { return Constraint{Op: op, Left: V(x), Right: k} }
			fired = true
			// Against a negative k, unsigned x < k holds for every x >= 0 and, for x < 0, when
			// x < k; unsigned x > k holds only for x < 0 with x > k.
			var next [][]Constraint
			for _, a := range alts {
				switch op {
				case Lt, Le:
					next = append(next, append(slices.Clone(a), cmp(Ge, N(0))), append(slices.Clone(a), cmp(op, k)))
				default:
					next = append(next, append(slices.Clone(a), cmp(Lt, N(0)), cmp(op, k)))
				}
			}
			alts = next
		}
		for _, a := range alts {
			s := cloneRule(r)
			s.Constraints = a
			out = append(out, s)
		}
	}
	f.q.Rules = out
	return reached, fired
}

func headRepeat(f *faulty) (reached, fired bool) {
	f.eachRule(func(r *Rule) {
		seen := map[string]int{}
		for _, x := range r.Head.Args {
			if x.Kind == Var {
				seen[x.Name]++
			}
		}
		for x, n := range seen {
			if n < 2 {
				continue
			}
			reached = true
			if !f.deep(r.Head.Rel) {
				continue
			}
			for i := range r.Body {
				a := &r.Body[i]
				if a.Negated || countVar(a.Args, x) < 2 {
					continue
				}
				y := freshVar(*r, x+"_")
				replaceSecond(a.Args, x, y)
				replaceSecond(r.Head.Args, x, y)
				fired = true
				return
			}
		}
	})
	return reached, fired
}

// sources returns how many positive body atoms of r hold variable x.
func sources(r *Rule, x string) int {
	n := 0
	for _, a := range r.Body {
		if !a.Negated && countVar(a.Args, x) > 0 {
			n++
		}
	}
	return n
}

func countVar(args []Term, x string) int {
	n := 0
	for _, a := range args {
		if a.Kind == Var && a.Name == x {
			n++
		}
	}
	return n
}

// replaceSecond replaces the second occurrence of variable x in args by y.
func replaceSecond(args []Term, x, y string) {
	n := 0
	for i, a := range args {
		if a.Kind == Var && a.Name == x {
			if n++; n == 2 {
				args[i] = V(y)
				return
			}
		}
	}
}

func factDedup(f *faulty) (reached, fired bool) {
	_, rules := counts(f.p)
	first := map[string]map[Term]bool{}
	var out []Rule
	for _, r := range f.q.Rules {
		h := r.Head.Rel
		if r.IsFact() && len(r.Head.Args) >= 2 && f.live(h) {
			k := r.Head.Args[0]
			k.Pos = Pos{}
			if first[h] == nil {
				first[h] = map[Term]bool{}
			}
			if first[h][k] {
				reached = true
				if rules[h] > 0 && f.deep(h) {
					fired = true
					continue
				}
			}
			first[h][k] = true
		}
		out = append(out, r)
	}
	f.q.Rules = out
	return reached, fired
}

func negWildcard(f *faulty) (reached, fired bool) {
	f.eachRule(func(r *Rule) {
		var doms []Atom
		for j := range r.Body {
			n := &r.Body[j]
			anon, bound := 0, 0
			for _, x := range n.Args {
				if x.Kind == Anon {
					anon++
				} else {
					bound++
				}
			}
			if !n.Negated || anon == 0 {
				continue
			}
			reached = true
			if bound == 0 || !f.deep(r.Head.Rel) {
				continue
			}
			for i, x := range n.Args {
				if x.Kind == Anon {
					v := freshVar(*r, "W")
					n.Args[i] = V(v)
					doms = append(doms, Atom{Rel: f.dom(f.typeOf(*n, i)), Args: []Term{V(v)}})
				}
			}
			fired = true
		}
		r.Body = append(doms, r.Body...)
	})
	return reached, fired
}

func ineqDrop(f *faulty) (reached, fired bool) {
	f.eachRule(func(r *Rule) {
		var keep []Constraint
		for _, c := range r.Constraints {
			if c.Op != Ne || c.Left.Kind != Var || c.Right.Kind != Var {
				keep = append(keep, c)
				continue
			}
			reached = true
			atoms := 0
			for _, a := range r.Body {
				if !a.Negated {
					atoms++
				}
			}
			if atoms < 3 || !f.deep(r.Head.Rel) {
				keep = append(keep, c)
				continue
			}
			fired = true
		}
		r.Constraints = keep
	})
	return reached, fired
}

func constFilter(f *faulty) (reached, fired bool) {
	_, rules := counts(f.p)
	f.eachRule(func(r *Rule) {
		for i := range r.Body {
			a := &r.Body[i]
			for j, x := range a.Args {
				if a.Negated || !x.IsConst() {
					continue
				}
				reached = true
				if rules[a.Rel] > 0 && f.deep(r.Head.Rel) {
					a.Args[j] = Any()
					fired = true
				}
			}
		}
	})
	return reached, fired
}
