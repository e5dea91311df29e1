package smtgen

import (
	"fmt"
	"strings"
)

// UnsupportedError says that a script uses something the checker and the evaluator do not model
// (floating point, datatypes, sequences, an unknown function...). Reason is a short stable
// category for counting; Detail names the construct.
type UnsupportedError struct {
	Reason string
	Detail string
}

// Error returns "unsupported REASON: DETAIL".
func (e *UnsupportedError) Error() string { return "unsupported " + e.Reason + ": " + e.Detail }

// Decl is a declared (uninterpreted) constant or function: declare-const, declare-fun.
type Decl struct {
	Name     string
	ArgSorts []*Sort // empty for a constant
	Ret      *Sort
}

// Def is a defined function: define-fun, define-const, or a term named with :named (no
// parameters). Body is sort-checked with the parameters in scope.
type Def struct {
	Name   string
	Params []Binding // Name and Sort of each parameter
	Ret    *Sort
	Body   *Term
	// Rec is set for define-fun-rec and define-funs-rec, whose bodies may call themselves.
	Rec bool
}

// SortAlias is a define-sort: Body with Params replaced by the sort arguments.
type SortAlias struct {
	Name   string
	Params []string
	Body   *Sort
}

// Env is what a script declares, as [Check] found it. While checking, declarations follow the
// script's assertion levels: (pop n) and (reset-assertions) remove those of the levels they remove
// (unless :global-declarations is true), after which the name may be declared again. The Env that
// Check returns holds every declaration the script made, popped or not, so one Env serves all its
// assertions: a name declared again after a pop must therefore have the same signature (and a
// define-fun the same body) as before, or Check reports an [UnsupportedError] "redeclared-symbol".
type Env struct {
	// Logic is the argument of set-logic, "" without one.
	Logic string
	// Sorts maps each declare-sort'd sort to its arity; SortOrder lists them in order.
	Sorts     map[string]int
	SortOrder []string
	// Aliases holds the define-sort'd sorts (already expanded in every Term.Sort).
	Aliases map[string]*SortAlias
	// Decls holds declared constants and functions, Defs defined ones.
	Decls map[string]*Decl
	Defs  map[string]*Def
	// Order lists the names of Decls and Defs in the order of the script.
	Order []string
	// Datatypes holds the declare-datatype(s)'d sorts (not scoped by push and pop); ctors and
	// selectors index their constructors and selectors by name.
	Datatypes map[string]*Datatype
	ctors     map[string]*Constructor
	selectors map[string]selectorRef
	// realNumerals is set in logics whose only numbers are reals (QF_LRA...): numerals are Real.
	realNumerals bool
	// levels lists what each assertion level declared (levels[0] is the first level); global is
	// :global-declarations; popped holds what pops removed, restored when Check ends.
	levels [][]scopeName
	global bool
	popped map[scopeName]any
}

// scopeName is a declared name in its namespace: 's' for sorts (declare-sort, define-sort), 'f'
// for functions and constants (declare-fun, declare-const, define-fun, :named).
type scopeName struct {
	ns   byte
	name string
}

// NewEnv returns an empty environment for logic (which may be "").
func NewEnv(logic string) *Env {
	return &Env{Logic: logic, Sorts: map[string]int{}, Aliases: map[string]*SortAlias{},
		Decls: map[string]*Decl{}, Defs: map[string]*Def{}, realNumerals: realOnlyLogic(logic)}
}

// realOnlyLogic reports whether numerals denote reals in logic: the arithmetic part of its name is
// LRA, NRA or RDL (QF_LRA, QF_UFNRA, AUFLRA...), not mixed (LIRA, NIRA).
func realOnlyLogic(logic string) bool {
	l := strings.TrimPrefix(logic, "QF_")
	if strings.Contains(l, "IRA") {
		return false
	}
	return strings.Contains(l, "LRA") || strings.Contains(l, "NRA") || strings.Contains(l, "RDL")
}

// Check sort-checks s: it records the declarations in an [Env] and fills Term.Sort of every term
// of every command (assert, define-fun bodies, check-sat-assuming, get-value, simplify). Where an
// Int term stands in a Real position (mixed arithmetic, comparisons, =, ite, arguments of
// functions and arrays with Real parameters) the checker makes the promotion explicit: it replaces
// the term by (to_real t), or a numeral n by the decimal n.0, in the parent's Args. Constructs it
// does not model give a *[UnsupportedError]; ill-sorted terms give an error naming the term.
//
// Push, pop, reset-assertions and :global-declarations scope the declarations as SMT-LIB 2.6 says
// (see [Env]); a script with (reset) holds several scripts and must be split first ([SplitResets]).
func Check(s *Script) (*Env, error) {
	env := NewEnv(s.Logic())
	defer env.restorePopped()
	for _, c := range s.Commands {
		if err := env.command(c); err != nil {
			return env, err
		}
	}
	return env, nil
}

// record notes that the current assertion level declared n.
func (e *Env) record(n scopeName) {
	if len(e.levels) == 0 {
		e.levels = [][]scopeName{nil}
	}
	top := len(e.levels) - 1
	e.levels[top] = append(e.levels[top], n)
}

// popLevels removes the top n assertion levels (keep: the number of levels that stay, 0 to empty
// the first level as well) and, unless declarations are global, what they declared.
func (e *Env) popLevels(keep int) {
	if len(e.levels) == 0 {
		e.levels = [][]scopeName{nil}
	}
	for len(e.levels) > keep {
		top := e.levels[len(e.levels)-1]
		e.levels = e.levels[:len(e.levels)-1]
		if e.global {
			continue
		}
		for i := len(top) - 1; i >= 0; i-- {
			e.unbind(top[i])
		}
	}
	if len(e.levels) == 0 {
		e.levels = [][]scopeName{nil}
	}
}

// unbind moves n's declaration from the maps to e.popped.
func (e *Env) unbind(n scopeName) {
	if e.popped == nil {
		e.popped = map[scopeName]any{}
	}
	switch {
	case n.ns == 's' && e.Aliases[n.name] != nil:
		e.popped[n] = e.Aliases[n.name]
		delete(e.Aliases, n.name)
	case n.ns == 's':
		if k, ok := e.Sorts[n.name]; ok {
			e.popped[n] = k
			delete(e.Sorts, n.name)
		}
	case e.Decls[n.name] != nil:
		e.popped[n] = e.Decls[n.name]
		delete(e.Decls, n.name)
	case e.Defs[n.name] != nil:
		e.popped[n] = e.Defs[n.name]
		delete(e.Defs, n.name)
	}
}

// rebind handles a declaration of a name that a pop removed: v (an arity, *SortAlias, *Decl or
// *Def) must equal the popped one, which becomes visible again; otherwise the name stands for two
// things the one Env cannot hold. ok reports whether the name had been popped.
func (e *Env) rebind(n scopeName, v any) (ok bool, err error) {
	old, ok := e.popped[n]
	if !ok {
		return false, nil
	}
	if scopeKey(old) != scopeKey(v) {
		return true, &UnsupportedError{"redeclared-symbol", n.name + " declared again after a pop with another signature or definition"}
	}
	delete(e.popped, n)
	e.put(n.name, old)
	e.record(n)
	return true, nil
}

// scopeKey prints a declaration for comparison: its kind, signature and (definitions) body.
func scopeKey(v any) string {
	var b strings.Builder
	switch d := v.(type) {
	case int:
		fmt.Fprintf(&b, "sort %d", d)
	case *SortAlias:
		fmt.Fprintf(&b, "alias %v %s", d.Params, d.Body)
	case *Decl:
		fmt.Fprintf(&b, "decl %v %s", d.ArgSorts, d.Ret)
	case *Def:
		b.WriteString("def")
		for _, p := range d.Params {
			fmt.Fprintf(&b, " %s %s", p.Name, p.Sort)
		}
		fmt.Fprintf(&b, " %s %s", d.Ret, d.Body)
	}
	return b.String()
}

// restorePopped puts back what pops removed, so that the Env holds every declaration.
func (e *Env) restorePopped() {
	for n, v := range e.popped {
		e.put(n.name, v)
	}
	e.popped = nil
}

// put files a declaration (a sort's arity, an alias, a declaration or a definition) under name.
func (e *Env) put(name string, v any) {
	switch o := v.(type) {
	case int:
		e.Sorts[name] = o
	case *SortAlias:
		e.Aliases[name] = o
	case *Decl:
		e.Decls[name] = o
	case *Def:
		e.Defs[name] = o
	}
}

// command checks one command and records its declarations.
func (e *Env) command(c *Command) error {
	switch c.Name {
	case "set-logic":
		e.Logic = c.Symbol
		e.realNumerals = realOnlyLogic(c.Symbol)
	case "set-option":
		if c.Attr.Key == ":global-declarations" {
			e.global = c.Attr.Value == "true"
		}
	case "push":
		if len(e.levels) == 0 {
			e.levels = [][]scopeName{nil}
		}
		for i := 0; i < c.Arity; i++ {
			e.levels = append(e.levels, nil)
		}
	case "pop":
		if pushed := len(e.levels) - 1; c.Arity > pushed {
			return fmt.Errorf("(pop %d) with only %d pushed assertion levels", c.Arity, max(pushed, 0))
		}
		e.popLevels(len(e.levels) - c.Arity)
	case "reset-assertions":
		e.popLevels(0)
	case "reset":
		return fmt.Errorf("(reset) starts another script: split the script with SplitResets first")
	case "declare-sort":
		if e.Sorts == nil {
			e.Sorts = map[string]int{}
		}
		if e.Aliases == nil {
			e.Aliases = map[string]*SortAlias{}
		}
		n := scopeName{'s', c.Symbol}
		if _, ok := e.Sorts[c.Symbol]; ok {
			return fmt.Errorf("sort %s declared twice in the same scope", c.Symbol)
		}
		if ok, err := e.rebind(n, c.Arity); ok || err != nil {
			return err
		}
		if _, err := e.resolveSort(&Sort{Name: c.Symbol}, nil); err == nil || e.Aliases[c.Symbol] != nil {
			return &UnsupportedError{"redeclaration", "sort " + c.Symbol}
		}
		e.Sorts[c.Symbol] = c.Arity
		e.SortOrder = append(e.SortOrder, c.Symbol)
		e.record(n)
	case "define-sort":
		params := make([]string, len(c.Params))
		for i, p := range c.Params {
			params[i] = p.Name
		}
		if _, err := e.resolveSort(c.Sort, params); err != nil {
			return fmt.Errorf("define-sort %s: %w", c.Symbol, err)
		}
		if e.Aliases == nil {
			e.Aliases = map[string]*SortAlias{}
		}
		if e.Sorts == nil {
			e.Sorts = map[string]int{}
		}
		a := &SortAlias{Name: c.Symbol, Params: params, Body: c.Sort}
		n := scopeName{'s', c.Symbol}
		if _, ok := e.Aliases[c.Symbol]; ok {
			return fmt.Errorf("sort %s defined twice in the same scope", c.Symbol)
		}
		if ok, err := e.rebind(n, a); ok || err != nil {
			return err
		}
		e.Aliases[c.Symbol] = a
		e.record(n)
	case "declare-const", "declare-fun":
		d := &Decl{Name: c.Symbol}
		var err error
		if d.Ret, err = e.resolveSort(c.Sort, nil); err != nil {
			return fmt.Errorf("%s %s: %w", c.Name, c.Symbol, err)
		}
		for _, a := range c.ArgSorts {
			s, err := e.resolveSort(a, nil)
			if err != nil {
				return fmt.Errorf("%s %s: %w", c.Name, c.Symbol, err)
			}
			d.ArgSorts = append(d.ArgSorts, s)
		}
		return e.declare(d)
	case "define-fun", "define-const":
		d := &Def{Name: c.Symbol}
		var err error
		if d.Ret, err = e.resolveSort(c.Sort, nil); err != nil {
			return fmt.Errorf("%s %s: %w", c.Name, c.Symbol, err)
		}
		var sc *chkScope
		for _, p := range c.Params {
			s, err := e.resolveSort(p.Sort, nil)
			if err != nil {
				return fmt.Errorf("%s %s: %w", c.Name, c.Symbol, err)
			}
			d.Params = append(d.Params, Binding{Name: p.Name, Sort: s})
			sc = &chkScope{name: p.Name, sort: s, up: sc}
		}
		if len(c.Terms) != 1 {
			return fmt.Errorf("%s %s: no body", c.Name, c.Symbol)
		}
		if err := e.check(c.Terms[0], sc); err != nil {
			return err
		}
		body, err := coerce(c.Terms[0], d.Ret)
		if err != nil {
			return fmt.Errorf("%s %s: %w", c.Name, c.Symbol, err)
		}
		c.Terms[0], d.Body = body, body
		return e.define(d)
	case "define-fun-rec", "define-funs-rec":
		return e.defineRec(c)
	case "declare-datatype", "declare-datatypes":
		return e.declareDatatypes(c)
	case "declare-codatatypes":
		return &UnsupportedError{"codatatypes", c.Name}
	case "assert", "check-sat-assuming":
		for _, t := range c.Terms {
			if err := e.check(t, nil); err != nil {
				return err
			}
			if !t.Sort.Equal(BoolSort) {
				return fmt.Errorf("%s of a non-Bool term %s", c.Name, briefTerm(t))
			}
		}
	default:
		for _, t := range c.Terms {
			if err := e.check(t, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// declare records d. A name in scope cannot be declared again; one a pop removed can, with the
// same signature (see [Env]).
func (e *Env) declare(d *Decl) error { return e.bindFunc(d.Name, d) }

// define records d, as declare does.
func (e *Env) define(d *Def) error { return e.bindFunc(d.Name, d) }

// bindFunc records v, a *Decl or *Def named name, at the current assertion level.
func (e *Env) bindFunc(name string, v any) error {
	if e.Decls == nil {
		e.Decls = map[string]*Decl{}
	}
	if e.Defs == nil {
		e.Defs = map[string]*Def{}
	}
	if e.Decls[name] != nil || e.Defs[name] != nil {
		return fmt.Errorf("%s declared twice in the same scope", name)
	}
	n := scopeName{'f', name}
	if ok, err := e.rebind(n, v); ok || err != nil {
		return err
	}
	if chkBuiltin(name) {
		return &UnsupportedError{"redeclaration", name}
	}
	switch d := v.(type) {
	case *Decl:
		e.Decls[name] = d
	case *Def:
		e.Defs[name] = d
	}
	e.Order = append(e.Order, name)
	e.record(n)
	return nil
}

// ResolveSort expands define-sort aliases in s and checks that every sort in it is known.
func (e *Env) ResolveSort(s *Sort) (*Sort, error) { return e.resolveSort(s, nil) }

// resolveSort expands aliases in s; params are the names of define-sort parameters in scope.
func (e *Env) resolveSort(s *Sort, params []string) (*Sort, error) {
	if s == nil {
		return nil, fmt.Errorf("missing sort")
	}
	for _, p := range params {
		if s.Name == p && len(s.Index) == 0 && len(s.Args) == 0 {
			return s, nil
		}
	}
	args := make([]*Sort, len(s.Args))
	for i, a := range s.Args {
		r, err := e.resolveSort(a, params)
		if err != nil {
			return nil, err
		}
		args[i] = r
	}
	plain := len(s.Index) == 0 && len(s.Args) == 0
	switch s.Name {
	case "Bool", "Int", "Real", "String", "RegLan":
		if plain {
			return map[string]*Sort{"Bool": BoolSort, "Int": IntSort, "Real": RealSort,
				"String": StringSort, "RegLan": RegLanSort}[s.Name], nil
		}
	case "BitVec":
		if len(s.Index) == 1 && len(s.Args) == 0 && s.Index[0] > 0 {
			return BitVecSort(s.Index[0]), nil
		}
	case "Array":
		if len(s.Index) == 0 && len(args) == 2 {
			return ArraySort(args[0], args[1]), nil
		}
	case "FloatingPoint", "Float16", "Float32", "Float64", "Float128", "RoundingMode":
		return resolveFPSort(s)
	case "Seq":
		return nil, &UnsupportedError{"sequences", s.String()}
	case "Set", "Relation":
		return nil, &UnsupportedError{"sets", s.String()}
	case "Bag":
		return nil, &UnsupportedError{"bags", s.String()}
	case "FiniteField":
		return nil, &UnsupportedError{"finite-fields", s.String()}
	default:
		if d, ok := e.Datatypes[s.Name]; ok && len(s.Index) == 0 {
			if len(d.Params) != len(args) {
				return nil, fmt.Errorf("sort %s takes %d arguments", s.Name, len(d.Params))
			}
			return d.instance(args), nil
		}
		if n, ok := e.Sorts[s.Name]; ok && len(s.Index) == 0 {
			if n != len(args) {
				return nil, fmt.Errorf("sort %s takes %d arguments", s.Name, n)
			}
			return &Sort{Name: s.Name, Args: args}, nil
		}
		if a, ok := e.Aliases[s.Name]; ok && len(s.Index) == 0 {
			if len(a.Params) != len(args) {
				return nil, fmt.Errorf("sort %s takes %d arguments", s.Name, len(a.Params))
			}
			return e.resolveSort(substSort(a.Body, a.Params, args), nil)
		}
		return nil, &UnsupportedError{"unknown-sort", s.String()}
	}
	return nil, fmt.Errorf("ill-formed sort %s", s)
}

// substSort replaces the parameters params of s by args.
func substSort(s *Sort, params []string, args []*Sort) *Sort {
	if len(s.Index) == 0 && len(s.Args) == 0 {
		for i, p := range params {
			if p == s.Name {
				return args[i]
			}
		}
		return s
	}
	out := &Sort{Name: s.Name, Index: s.Index, DT: s.DT}
	for _, a := range s.Args {
		out.Args = append(out.Args, substSort(a, params, args))
	}
	return out
}

// chkScope is a chain of variables in scope (let, quantifier, define-fun parameter).
type chkScope struct {
	name string
	sort *Sort
	up   *chkScope
}

func (s *chkScope) lookup(name string) *Sort {
	for ; s != nil; s = s.up {
		if s.name == name {
			return s.sort
		}
	}
	return nil
}

// CheckTerm sort-checks t (a term with no free variables other than e's declarations) and fills
// its Term.Sort fields, as [Check] does for the terms of a script.
func (e *Env) CheckTerm(t *Term) error { return e.check(t, nil) }

// briefTerm prints t for an error message, cut to 120 bytes.
func briefTerm(t *Term) string {
	s := t.String()
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// check fills t.Sort and its subterms' sorts.
func (e *Env) check(t *Term, sc *chkScope) error {
	switch t.Kind {
	case KindNumeral:
		t.Sort = IntSort
		if e.realNumerals {
			t.Sort = RealSort
		}
	case KindDecimal:
		t.Sort = RealSort
	case KindHex:
		t.Sort = BitVecSort(4 * len(t.Lit))
	case KindBinary:
		t.Sort = BitVecSort(len(t.Lit))
	case KindString:
		t.Sort = StringSort
	case KindAnnot:
		if len(t.Args) != 1 {
			return fmt.Errorf("ill-formed annotation %s", briefTerm(t))
		}
		if err := e.check(t.Args[0], sc); err != nil {
			return err
		}
		t.Sort = t.Args[0].Sort
		for _, a := range t.Attrs {
			if a.Key == ":named" && a.Value != "" && sc == nil {
				if _, ok := e.Defs[a.Value]; !ok {
					if err := e.define(&Def{Name: a.Value, Ret: t.Sort, Body: t.Args[0]}); err != nil {
						return err
					}
				}
			}
		}
	case KindLet:
		if len(t.Args) != 1 {
			return fmt.Errorf("ill-formed let %s", briefTerm(t))
		}
		inner := sc
		for _, b := range t.Binds {
			if b.Term == nil {
				return fmt.Errorf("let binding %s without a term", b.Name)
			}
			if err := e.check(b.Term, sc); err != nil {
				return err
			}
			inner = &chkScope{name: b.Name, sort: b.Term.Sort, up: inner}
		}
		if err := e.check(t.Args[0], inner); err != nil {
			return err
		}
		t.Sort = t.Args[0].Sort
	case KindForall, KindExists:
		if len(t.Args) != 1 {
			return fmt.Errorf("ill-formed quantifier %s", briefTerm(t))
		}
		inner := sc
		for i, b := range t.Binds {
			s, err := e.resolveSort(b.Sort, nil)
			if err != nil {
				return err
			}
			t.Binds[i].Sort = s
			inner = &chkScope{name: b.Name, sort: s, up: inner}
		}
		if err := e.check(t.Args[0], inner); err != nil {
			return err
		}
		if !t.Args[0].Sort.Equal(BoolSort) {
			return fmt.Errorf("quantifier over a non-Bool body in %s", briefTerm(t))
		}
		t.Sort = BoolSort
	case KindMatch:
		return e.checkMatch(t, sc)
	case KindApp:
		for _, a := range t.Args {
			if err := e.check(a, sc); err != nil {
				return err
			}
		}
		s, err := e.appSort(t, sc)
		if err != nil {
			return err
		}
		t.Sort = s
	default:
		return fmt.Errorf("invalid term kind %d", t.Kind)
	}
	return nil
}

// coerce returns t, or t promoted to Real when want is Real and t is Int; an error when t's sort
// is not want.
func coerce(t *Term, want *Sort) (*Term, error) {
	if t.Sort.Equal(want) {
		return t, nil
	}
	if t.Sort.Equal(IntSort) && want.Equal(RealSort) {
		return toReal(t), nil
	}
	return nil, fmt.Errorf("%s has sort %s, want %s", briefTerm(t), t.Sort, want)
}

// toReal returns the promotion of the Int term t: the decimal n.0 for a numeral n, else (to_real t).
func toReal(t *Term) *Term {
	if t.Kind == KindNumeral {
		return &Term{Kind: KindDecimal, Lit: t.Lit + ".0", Sort: RealSort}
	}
	return &Term{Kind: KindApp, Name: "to_real", Args: []*Term{t}, Sort: RealSort}
}

// chkPromote makes all Args of t Real when some are Real and the others Int; it returns the
// common sort (nil when the Args disagree otherwise).
func chkPromote(t *Term) *Sort {
	if len(t.Args) == 0 {
		return nil
	}
	s := t.Args[0].Sort
	mixed := false
	for _, a := range t.Args[1:] {
		if a.Sort.Equal(s) {
			continue
		}
		if (a.Sort.Equal(IntSort) || a.Sort.Equal(RealSort)) && (s.Equal(IntSort) || s.Equal(RealSort)) {
			mixed = true
			continue
		}
		return nil
	}
	if mixed {
		for i, a := range t.Args {
			if a.Sort.Equal(IntSort) {
				t.Args[i] = toReal(a)
			}
		}
		return RealSort
	}
	return s
}

// chkBuiltinNames lists the function symbols the checker knows, for the UF/builtin distinction.
var chkBuiltinNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`true false not and or xor => = distinct ite
		+ - * / div mod abs to_real to_int is_int divisible < <= > >=
		concat extract repeat zero_extend sign_extend rotate_left rotate_right bvnot bvand bvor bvxor
		bvnand bvnor bvxnor bvcomp bvneg bvadd bvsub bvmul bvudiv bvurem bvsdiv bvsrem bvsmod bvshl
		bvlshr bvashr bvult bvule bvugt bvuge bvslt bvsle bvsgt bvsge bv2nat int2bv nat2bv
		bvnego bvuaddo bvsaddo bvumulo bvsmulo bvusubo bvssubo bvsdivo bvredor bvredand
		select store const
		str.++ str.len str.< str.<= str.at str.substr str.prefixof str.suffixof str.contains
		str.indexof str.replace str.replace_all str.replace_re str.replace_re_all str.is_digit
		str.to_code str.from_code str.to_int str.from_int str.to.int int.to.str str.in.re str.to.re
		str.in_re str.to_re re.none re.nostr re.all re.allchar re.++ re.union re.inter re.* re.+
		re.opt re.range re.loop re.^ re.comp re.diff`) {
		m[n] = true
	}
	return m
}()

// chkBuiltin reports whether name is a function symbol of a theory the checker knows (or a bvN
// literal).
func chkBuiltin(name string) bool {
	return chkBuiltinNames[name] || isBVLitName(name) || fpBuiltin(name)
}

// isBVLitName reports whether name is bvN (the symbol of (_ bvN w)).
func isBVLitName(name string) bool {
	if len(name) < 3 || !strings.HasPrefix(name, "bv") {
		return false
	}
	for _, c := range name[2:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// unsupportedFunc classifies a function symbol the checker does not know.
func unsupportedFunc(name string) *UnsupportedError {
	reason := "unknown-function"
	switch {
	case strings.HasPrefix(name, "fp.") || name == "fp" || strings.HasPrefix(name, "to_fp") ||
		strings.HasPrefix(name, "roundNearest") || strings.HasPrefix(name, "roundToward") ||
		name == "RNE" || name == "RNA" || name == "RTP" || name == "RTN" || name == "RTZ" ||
		name == "+zero" || name == "-zero" || name == "+oo" || name == "-oo" || name == "NaN" ||
		name == "to_ieee_bv":
		reason = "fp-extension" // the standard FloatingPoint symbols are all known
	case strings.HasPrefix(name, "seq."):
		reason = "sequences"
	case strings.HasPrefix(name, "set.") || strings.HasPrefix(name, "rel."):
		reason = "sets"
	case strings.HasPrefix(name, "bag."):
		reason = "bags"
	case strings.HasPrefix(name, "ff."):
		reason = "finite-fields"
	case name == "exp" || name == "sin" || name == "cos" || name == "tan" || name == "pi" ||
		name == "real.pi" || name == "sqrt" || name == "arcsin" || name == "arccos" || name == "arctan" ||
		name == "csc" || name == "sec" || name == "cot" || name == "log" || name == "^":
		reason = "transcendentals"
	case name == "lambda" || name == "as-array" || name == "_":
		reason = "higher-order"
	case strings.HasPrefix(name, "is-") || name == "is" || name == "match":
		reason = "datatypes"
	case strings.HasPrefix(name, "str.") || strings.HasPrefix(name, "re."):
		reason = "string-extension"
	case strings.HasPrefix(name, "bv"):
		reason = "bv-extension"
	}
	return &UnsupportedError{reason, name}
}

// appSort computes the sort of the application t (its Args are checked), promoting Int Args to
// Real where needed.
func (e *Env) appSort(t *Term, sc *chkScope) (*Sort, error) {
	n := len(t.Args)
	bad := func(format string, a ...any) error {
		return fmt.Errorf("sort error in %s: %s", briefTerm(t), fmt.Sprintf(format, a...))
	}
	argIs := func(i int, s *Sort) bool { return t.Args[i].Sort.Equal(s) }
	allArgs := func(s *Sort) bool {
		for i := range t.Args {
			if !argIs(i, s) {
				return false
			}
		}
		return true
	}
	idx := func(k int) error {
		if len(t.Index) != k {
			return bad("want %d indices", k)
		}
		for _, i := range t.Index {
			if i < 0 {
				return bad("negative index")
			}
		}
		return nil
	}
	isNum := func(s *Sort) bool { return s.Equal(IntSort) || s.Equal(RealSort) }
	// Variables and declared symbols first: they shadow nothing builtin with the same arity.
	if n == 0 && len(t.Index) == 0 {
		if s := sc.lookup(t.Name); s != nil {
			return s, nil
		}
	}
	if s, ok, err := e.dtAppSort(t); ok {
		return s, err
	}
	if t.As != nil && t.Name != "const" {
		// (as f S): an ordinary symbol with its result sort spelt out.
		want, err := e.resolveSort(t.As, nil)
		if err != nil {
			return nil, err
		}
		cp := *t
		cp.As = nil
		s, err := e.appSort(&cp, sc)
		if err != nil {
			return nil, err
		}
		if !s.Equal(want) {
			return nil, bad("has sort %s, not %s", s, want)
		}
		return s, nil
	}
	if d, ok := e.Decls[t.Name]; ok && len(t.Index) == 0 {
		if n != len(d.ArgSorts) {
			return nil, bad("%s takes %d arguments", t.Name, len(d.ArgSorts))
		}
		for i, a := range t.Args {
			c, err := coerce(a, d.ArgSorts[i])
			if err != nil {
				return nil, bad("argument %d: %v", i+1, err)
			}
			t.Args[i] = c
		}
		return d.Ret, nil
	}
	if d, ok := e.Defs[t.Name]; ok && len(t.Index) == 0 {
		if n != len(d.Params) {
			return nil, bad("%s takes %d arguments", t.Name, len(d.Params))
		}
		for i, a := range t.Args {
			c, err := coerce(a, d.Params[i].Sort)
			if err != nil {
				return nil, bad("argument %d: %v", i+1, err)
			}
			t.Args[i] = c
		}
		return d.Ret, nil
	}
	if s, ok, err := fpAppSort(t); ok {
		return s, err
	}
	if len(t.Index) > 0 {
		switch t.Name {
		case "extract", "repeat", "zero_extend", "sign_extend", "rotate_left", "rotate_right",
			"divisible", "re.loop", "re.^", "int2bv", "nat2bv":
		default:
			if isBVLitName(t.Name) {
				if idx(1) != nil || t.Index[0] < 1 || n != 0 {
					return nil, bad("ill-formed bit-vector literal")
				}
				return BitVecSort(t.Index[0]), nil
			}
			return nil, unsupportedFunc(t.Name)
		}
	}
	switch t.Name {
	case "true", "false":
		if n == 0 {
			return BoolSort, nil
		}
	case "not":
		if n == 1 && argIs(0, BoolSort) {
			return BoolSort, nil
		}
	case "and", "or", "xor", "=>":
		if n >= 1 && allArgs(BoolSort) && (n >= 2 || t.Name == "and" || t.Name == "or") {
			return BoolSort, nil
		}
	case "=", "distinct":
		if n >= 2 && chkPromote(t) != nil {
			return BoolSort, nil
		}
	case "ite":
		if n == 3 && argIs(0, BoolSort) {
			branches := &Term{Args: t.Args[1:]}
			if s := chkPromote(branches); s != nil {
				return s, nil
			}
		}
	case "+", "*", "-":
		if n >= 1 && (n >= 2 || t.Name == "-") {
			if s := chkPromote(t); s != nil && isNum(s) {
				return s, nil
			}
		}
	case "/":
		if n >= 2 {
			if s := chkPromote(t); s != nil && isNum(s) {
				for i, a := range t.Args {
					t.Args[i], _ = coerce(a, RealSort)
				}
				return RealSort, nil
			}
		}
	case "div", "mod":
		if n >= 2 && (n == 2 || t.Name == "div") && allArgs(IntSort) {
			return IntSort, nil
		}
	case "abs":
		if n == 1 && isNum(t.Args[0].Sort) {
			return t.Args[0].Sort, nil
		}
	case "<", "<=", ">", ">=":
		if n >= 2 {
			if s := chkPromote(t); s != nil && isNum(s) {
				return BoolSort, nil
			}
		}
	case "to_real":
		if n == 1 && isNum(t.Args[0].Sort) {
			return RealSort, nil
		}
	case "to_int", "is_int":
		if n == 1 && isNum(t.Args[0].Sort) {
			t.Args[0], _ = coerce(t.Args[0], RealSort)
			if t.Name == "to_int" {
				return IntSort, nil
			}
			return BoolSort, nil
		}
	case "divisible":
		if err := idx(1); err != nil {
			return nil, err
		}
		if t.Index[0] < 1 {
			return nil, bad("divisible by %d", t.Index[0])
		}
		if n == 1 && argIs(0, IntSort) {
			return BoolSort, nil
		}
	case "select":
		if n == 2 && t.Args[0].Sort.Name == "Array" {
			as := t.Args[0].Sort
			c, err := coerce(t.Args[1], as.Args[0])
			if err != nil {
				return nil, bad("%v", err)
			}
			t.Args[1] = c
			return as.Args[1], nil
		}
	case "store":
		if n == 3 && t.Args[0].Sort.Name == "Array" {
			as := t.Args[0].Sort
			for i := 1; i <= 2; i++ {
				c, err := coerce(t.Args[i], as.Args[i-1])
				if err != nil {
					return nil, bad("%v", err)
				}
				t.Args[i] = c
			}
			return as, nil
		}
	case "const":
		if t.As == nil {
			return nil, bad("const without (as const (Array I E))")
		}
		as, err := e.resolveSort(t.As, nil)
		if err != nil {
			return nil, err
		}
		if as.Name != "Array" || len(as.Args) != 2 || n != 1 {
			return nil, bad("const of sort %s", as)
		}
		c, err := coerce(t.Args[0], as.Args[1])
		if err != nil {
			return nil, bad("%v", err)
		}
		t.Args[0] = c
		return as, nil
	case "bv2nat":
		if n == 1 && t.Args[0].Sort.Width() > 0 {
			return IntSort, nil
		}
	case "int2bv", "nat2bv":
		if err := idx(1); err != nil {
			return nil, err
		}
		if n == 1 && argIs(0, IntSort) && t.Index[0] > 0 {
			return BitVecSort(t.Index[0]), nil
		}
	case "str.++":
		if n >= 1 && allArgs(StringSort) {
			return StringSort, nil
		}
	case "str.len", "str.to_code", "str.to_int", "str.to.int":
		if n == 1 && argIs(0, StringSort) {
			return IntSort, nil
		}
	case "str.is_digit":
		if n == 1 && argIs(0, StringSort) {
			return BoolSort, nil
		}
	case "str.from_code", "str.from_int", "int.to.str":
		if n == 1 && argIs(0, IntSort) {
			return StringSort, nil
		}
	case "str.<", "str.<=":
		if n >= 2 && allArgs(StringSort) {
			return BoolSort, nil
		}
	case "str.prefixof", "str.suffixof", "str.contains":
		if n == 2 && allArgs(StringSort) {
			return BoolSort, nil
		}
	case "str.at":
		if n == 2 && argIs(0, StringSort) && argIs(1, IntSort) {
			return StringSort, nil
		}
	case "str.substr":
		if n == 3 && argIs(0, StringSort) && argIs(1, IntSort) && argIs(2, IntSort) {
			return StringSort, nil
		}
	case "str.indexof":
		if n == 3 && argIs(0, StringSort) && argIs(1, StringSort) && argIs(2, IntSort) {
			return IntSort, nil
		}
	case "str.replace", "str.replace_all":
		if n == 3 && allArgs(StringSort) {
			return StringSort, nil
		}
	case "str.replace_re", "str.replace_re_all":
		if n == 3 && argIs(0, StringSort) && argIs(1, RegLanSort) && argIs(2, StringSort) {
			return StringSort, nil
		}
	case "str.in_re", "str.in.re":
		if n == 2 && argIs(0, StringSort) && argIs(1, RegLanSort) {
			return BoolSort, nil
		}
	case "str.to_re", "str.to.re":
		if n == 1 && argIs(0, StringSort) {
			return RegLanSort, nil
		}
	case "re.none", "re.nostr", "re.all", "re.allchar":
		if n == 0 {
			return RegLanSort, nil
		}
	case "re.++", "re.union", "re.inter", "re.diff":
		if n >= 1 && allArgs(RegLanSort) {
			return RegLanSort, nil
		}
	case "re.*", "re.+", "re.opt", "re.comp":
		if n == 1 && argIs(0, RegLanSort) {
			return RegLanSort, nil
		}
	case "re.range":
		if n == 2 && allArgs(StringSort) {
			return RegLanSort, nil
		}
	case "re.loop":
		// (_ re.loop i j) r, (_ re.loop i) r, or z3's old (re.loop r i j).
		if len(t.Index) == 0 && n == 3 && argIs(0, RegLanSort) && t.Args[1].Kind == KindNumeral &&
			t.Args[2].Kind == KindNumeral {
			return RegLanSort, nil
		}
		if (len(t.Index) == 1 || len(t.Index) == 2) && n == 1 && argIs(0, RegLanSort) {
			return RegLanSort, nil
		}
	case "re.^":
		if err := idx(1); err != nil {
			return nil, err
		}
		if n == 1 && argIs(0, RegLanSort) {
			return RegLanSort, nil
		}
	case "extract":
		if err := idx(2); err != nil {
			return nil, err
		}
		if n == 1 {
			w := t.Args[0].Sort.Width()
			if w > 0 && t.Index[0] >= t.Index[1] && t.Index[0] < w {
				return BitVecSort(t.Index[0] - t.Index[1] + 1), nil
			}
		}
	case "repeat", "zero_extend", "sign_extend", "rotate_left", "rotate_right":
		if err := idx(1); err != nil {
			return nil, err
		}
		if n == 1 {
			w, k := t.Args[0].Sort.Width(), t.Index[0]
			if w > 0 {
				switch t.Name {
				case "repeat":
					if k >= 1 {
						return BitVecSort(w * k), nil
					}
				case "zero_extend", "sign_extend":
					return BitVecSort(w + k), nil
				default:
					return t.Args[0].Sort, nil
				}
			}
		}
	case "concat":
		if n >= 2 {
			w := 0
			for _, a := range t.Args {
				if a.Sort.Width() == 0 {
					return nil, bad("concat of a non-bit-vector")
				}
				w += a.Sort.Width()
			}
			return BitVecSort(w), nil
		}
	case "bvnot", "bvneg":
		if n == 1 && t.Args[0].Sort.Width() > 0 {
			return t.Args[0].Sort, nil
		}
	case "bvnego", "bvredor", "bvredand": // SMT-LIB 2.7
		if n == 1 && t.Args[0].Sort.Width() > 0 {
			if t.Name == "bvnego" {
				return BoolSort, nil
			}
			return BitVecSort(1), nil
		}
	case "bvuaddo", "bvsaddo", "bvumulo", "bvsmulo", "bvusubo", "bvssubo", "bvsdivo": // SMT-LIB 2.7
		if n == 2 && t.Args[0].Sort.Width() > 0 && allArgs(t.Args[0].Sort) {
			return BoolSort, nil
		}
	case "bvand", "bvor", "bvxor", "bvadd", "bvmul", "bvnand", "bvnor", "bvxnor", "bvcomp", "bvsub",
		"bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr",
		"bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge":
		nary := t.Name == "bvand" || t.Name == "bvor" || t.Name == "bvxor" || t.Name == "bvadd" || t.Name == "bvmul"
		if (n == 2 || (nary && n > 2)) && t.Args[0].Sort.Width() > 0 && allArgs(t.Args[0].Sort) {
			switch t.Name {
			case "bvcomp":
				return BitVecSort(1), nil
			case "bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge":
				return BoolSort, nil
			}
			return t.Args[0].Sort, nil
		}
	default:
		if n == 0 && len(t.Index) == 0 {
			if d, ok := e.Defs[t.Name]; ok {
				return d.Ret, nil
			}
		}
		return nil, unsupportedFunc(t.Name)
	}
	return nil, bad("arguments of sorts %s", argSorts(t))
}

// argSorts lists the sorts of t's Args for an error message.
func argSorts(t *Term) string {
	var ss []string
	for _, a := range t.Args {
		ss = append(ss, a.Sort.String())
	}
	if len(ss) == 0 {
		return "(none)"
	}
	return strings.Join(ss, ", ")
}
