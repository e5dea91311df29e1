package smtgen

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
)

// ErrUndecided is wrapped by the errors of [Model.Eval] when a term's value is not determined by
// the model: a quantifier over an infinite sort, an uninterpreted function or a partial operation
// without an entry for its arguments, a constant without a value.
var ErrUndecided = errors.New("undecided")

// ErrInconsistent is wrapped by [Model.Pin] when a pinned value contradicts an earlier one.
var ErrInconsistent = errors.New("inconsistent model")

// undecided returns an error wrapping ErrUndecided.
func undecided(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUndecided, fmt.Sprintf(format, a...))
}

// Entry is one point of a function table: the value at Args.
type Entry struct {
	Args []Value
	Val  Value
}

// FuncTable interprets an uninterpreted function (or one of the partial-operation tables div0,
// mod0 and /0): Entries first, Default for every other argument; a nil Default means the value
// outside the entries is unknown (undecided).
type FuncTable struct {
	Entries []Entry
	Default Value
}

// Lookup returns the value of the table at args.
func (f *FuncTable) Lookup(args []Value) (Value, bool) {
	if f == nil {
		return nil, false
	}
outer:
	for _, e := range f.Entries {
		if len(e.Args) != len(args) {
			continue
		}
		for i := range args {
			if !Equal(e.Args[i], args[i]) {
				continue outer
			}
		}
		return e.Val, true
	}
	return f.Default, f.Default != nil
}

// Model interprets a script's declared symbols: Consts holds the values of declared constants,
// Funcs the tables of declared functions and of the partial operations, under the names "div0",
// "mod0" and "/0" with one argument (the value of (div x 0) is div0's value at x). Env (may be
// nil) supplies define-fun bodies and sorts. A Model is not safe for concurrent use.
type Model struct {
	Consts map[string]Value
	Funcs  map[string]*FuncTable
	Env    *Env

	re    *reCache
	elems map[string]*elemNames // sort text -> element names
}

// Names of the partial-operation tables of a [Model].
const (
	DivZero  = "div0"
	ModZero  = "mod0"
	RealZero = "/0"
)

// NewModel returns an empty model for env.
func NewModel(env *Env) *Model {
	return &Model{Consts: map[string]Value{}, Funcs: map[string]*FuncTable{}, Env: env}
}

// Truth evaluates the Bool term t: (value, true) when decided, (false, false) when undecided or
// when evaluation fails.
func (m *Model) Truth(t *Term) (bool, bool) {
	v, err := m.Eval(t)
	if err != nil {
		return false, false
	}
	b, ok := v.(BoolValue)
	return bool(b), ok
}

// Eval returns the exact value of t under m. A term whose Sort is not filled in is sort-checked
// first against m.Env. The error wraps [ErrUndecided] when the model does not determine the value;
// other errors are sort errors or unsupported constructs. Boolean connectives and ite are
// three-valued: (and false U) is false, (or true U) true, (=> false U) true, and (ite U a a) a.
func (m *Model) Eval(t *Term) (v Value, err error) {
	defer func() {
		// Terms whose Sort fields disagree with their shape (built by hand, not checked) reach
		// type assertions that fail: report them as errors rather than crash a campaign.
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("evaluator: ill-sorted term %s: %v", briefTerm(t), r)
		}
	}()
	if t.Sort == nil {
		env := m.Env
		if env == nil {
			env = NewEnv("")
		}
		if err := env.CheckTerm(t); err != nil {
			return nil, err
		}
	}
	if m.re == nil {
		m.re = newReCache()
	}
	ev := &evaluator{m: m, re: m.re}
	return ev.eval(t, &evScope{})
}

// evaluator evaluates terms under one model.
type evaluator struct {
	m     *Model
	re    *reCache
	steps int
	// recDepth and recCalls count the unfolding of recursive definitions.
	recDepth, recCalls int
}

// evResult is a value or the error that replaces it.
type evResult struct {
	v   Value
	err error
}

// evScope binds variables (let, quantifier, define-fun parameters) and memoises the values of
// the terms evaluated in it.
type evScope struct {
	up   *evScope
	vars map[string]evResult
	memo map[*Term]evResult
}

func (s *evScope) lookup(name string) (evResult, bool) {
	for ; s != nil; s = s.up {
		if r, ok := s.vars[name]; ok {
			return r, true
		}
	}
	return evResult{}, false
}

// maxEvalSteps bounds the work of one Eval (define-fun unfolding, quantifier instances).
const maxEvalSteps = 5_000_000

func (ev *evaluator) eval(t *Term, sc *evScope) (Value, error) {
	if t.Kind == KindApp && len(t.Args) == 0 || t.Kind < KindApp {
		return ev.eval1(t, sc)
	}
	if r, ok := sc.memo[t]; ok {
		return r.v, r.err
	}
	ev.steps++
	if ev.steps > maxEvalSteps {
		return nil, undecided("evaluation exceeds %d steps", maxEvalSteps)
	}
	v, err := ev.eval1(t, sc)
	if sc.memo == nil {
		sc.memo = map[*Term]evResult{}
	}
	sc.memo[t] = evResult{v, err}
	return v, err
}

func (ev *evaluator) eval1(t *Term, sc *evScope) (Value, error) {
	switch t.Kind {
	case KindNumeral:
		n, ok := new(big.Int).SetString(t.Lit, 10)
		if !ok {
			return nil, fmt.Errorf("bad numeral %q", t.Lit)
		}
		if t.Sort.Equal(RealSort) {
			return RealValue{new(big.Rat).SetInt(n)}, nil
		}
		return IntValue{n}, nil
	case KindDecimal:
		r, ok := new(big.Rat).SetString(t.Lit)
		if !ok {
			return nil, fmt.Errorf("bad decimal %q", t.Lit)
		}
		return RealValue{r}, nil
	case KindHex:
		n, ok := new(big.Int).SetString(t.Lit, 16)
		if !ok {
			return nil, fmt.Errorf("bad hexadecimal %q", t.Lit)
		}
		return BVValue{W: 4 * len(t.Lit), V: n}, nil
	case KindBinary:
		n, ok := new(big.Int).SetString(t.Lit, 2)
		if !ok {
			return nil, fmt.Errorf("bad binary %q", t.Lit)
		}
		return BVValue{W: len(t.Lit), V: n}, nil
	case KindString:
		return StringValue(DecodeStringLit(t.Lit)), nil
	case KindAnnot:
		return ev.eval(t.Args[0], sc)
	case KindLet:
		inner := &evScope{up: sc, vars: make(map[string]evResult, len(t.Binds))}
		for _, b := range t.Binds {
			v, err := ev.eval(b.Term, sc)
			if err != nil && !errors.Is(err, ErrUndecided) {
				return nil, err
			}
			inner.vars[b.Name] = evResult{v, err}
		}
		return ev.eval(t.Args[0], inner)
	case KindForall, KindExists:
		return ev.quantifier(t, sc)
	case KindMatch:
		return ev.match(t, sc)
	case KindApp:
		return ev.app(t, sc)
	}
	return nil, fmt.Errorf("invalid term kind %d", t.Kind)
}

// app evaluates an application (or a symbol).
func (ev *evaluator) app(t *Term, sc *evScope) (Value, error) {
	m := ev.m
	if len(t.Args) == 0 && len(t.Index) == 0 {
		if r, ok := sc.lookup(t.Name); ok {
			return r.v, r.err
		}
		if v, ok := m.Consts[t.Name]; ok {
			return v, nil
		}
		if m.Env != nil {
			if d, ok := m.Env.Decls[t.Name]; ok && len(d.ArgSorts) == 0 {
				if f, ok := m.Funcs[t.Name]; ok && f.Default != nil {
					return f.Default, nil
				}
				return nil, undecided("no value for %s", t.Name)
			}
			if d, ok := m.Env.Defs[t.Name]; ok && len(d.Params) == 0 {
				if d.Rec {
					return ev.callDef(d, t, sc)
				}
				return ev.eval(d.Body, &evScope{})
			}
		}
	}
	switch t.Name {
	case "and", "or":
		return ev.andOr(t, sc)
	case "=>":
		return ev.implies(t, sc)
	case "ite":
		return ev.ite(t, sc)
	}
	args := make([]Value, len(t.Args))
	var firstUndecided error
	for i, a := range t.Args {
		v, err := ev.eval(a, sc)
		if err != nil {
			if !errors.Is(err, ErrUndecided) {
				return nil, err
			}
			if firstUndecided == nil {
				firstUndecided = err
			}
		}
		args[i] = v
	}
	if m.Env != nil && len(t.Index) == 0 {
		if d, ok := m.Env.Defs[t.Name]; ok && len(d.Params) == len(t.Args) && len(t.Args) > 0 {
			return ev.callDef(d, t, sc)
		}
		if d, ok := m.Env.Decls[t.Name]; ok && len(d.ArgSorts) == len(t.Args) && len(t.Args) > 0 {
			f := m.Funcs[t.Name]
			if f != nil && len(f.Entries) == 0 && f.Default != nil {
				return f.Default, nil
			}
			if firstUndecided != nil {
				return nil, firstUndecided
			}
			if v, ok := f.Lookup(args); ok {
				return v, nil
			}
			return nil, undecided("no value for %s at %s", t.Name, valueList(args))
		}
	}
	switch t.Name {
	case "=", "distinct":
		return ev.equality(t, args)
	}
	if firstUndecided != nil {
		return nil, firstUndecided
	}
	if v, ok, err := ev.evalDT(t, args); ok {
		return v, err
	}
	switch t.Name {
	case "true":
		return BoolValue(true), nil
	case "false":
		return BoolValue(false), nil
	case "not":
		return !args[0].(BoolValue), nil
	case "xor":
		r := false
		for _, a := range args {
			r = r != bool(a.(BoolValue))
		}
		return BoolValue(r), nil
	case "select":
		return args[0].(ArrayValue).Select(args[1]), nil
	case "store":
		return args[0].(ArrayValue).Store(args[1], args[2]), nil
	case "const":
		return NewArray(t.Sort, args[0]), nil
	}
	if v, ok, err := ev.arith(t, args); ok {
		return v, err
	}
	if v, ok, err := evalBV(t, args); ok {
		return v, err
	}
	if v, ok, err := ev.evalString(t, args); ok {
		return v, err
	}
	if v, ok, err := ev.evalFP(t, args); ok {
		return v, err
	}
	if m.Env == nil || t.Sort == nil {
		return nil, unsupportedFunc(t.Name)
	}
	return nil, undecided("no interpretation for %s", t.Name)
}

// valueList prints values for a message.
func valueList(vs []Value) string {
	s := "("
	for i, v := range vs {
		if i > 0 {
			s += " "
		}
		if v == nil {
			s += "?"
		} else {
			s += v.String()
		}
	}
	return s + ")"
}

// callDef evaluates the body of a define-fun with its parameters bound to t's arguments (which
// may be undecided: the body may not need them).
func (ev *evaluator) callDef(d *Def, t *Term, sc *evScope) (Value, error) {
	if d.Rec {
		if err := ev.enterRec(d); err != nil {
			return nil, err
		}
		defer ev.leaveRec()
	}
	inner := &evScope{vars: make(map[string]evResult, len(d.Params))}
	for i, p := range d.Params {
		v, err := ev.eval(t.Args[i], sc)
		inner.vars[p.Name] = evResult{v, err}
	}
	ev.steps += 10
	return ev.eval(d.Body, inner)
}

// andOr evaluates and/or three-valued: a deciding argument wins over undecided ones.
func (ev *evaluator) andOr(t *Term, sc *evScope) (Value, error) {
	stop := t.Name == "or" // the value that decides
	return ev.decides(t, sc, func(int) bool { return stop }, stop)
}

// implies evaluates (=> a1 ... an b): true if some ai is false or b is true.
func (ev *evaluator) implies(t *Term, sc *evScope) (Value, error) {
	return ev.decides(t, sc, func(i int) bool { return i == len(t.Args)-1 }, true)
}

// decides evaluates t's arguments in order: the first whose value is deciding(i) makes the result
// result; otherwise the result is !result, or undecided when an argument was undecided.
func (ev *evaluator) decides(t *Term, sc *evScope, deciding func(i int) bool, result bool) (Value, error) {
	var und error
	for i, a := range t.Args {
		v, err := ev.eval(a, sc)
		if err != nil {
			if !errors.Is(err, ErrUndecided) {
				return nil, err
			}
			if und == nil {
				und = err
			}
			continue
		}
		if bool(v.(BoolValue)) == deciding(i) {
			return BoolValue(result), nil
		}
	}
	if und != nil {
		return nil, und
	}
	return BoolValue(!result), nil
}

// ite evaluates (ite c a b); with c undecided the value is decided only when a and b agree.
func (ev *evaluator) ite(t *Term, sc *evScope) (Value, error) {
	c, err := ev.eval(t.Args[0], sc)
	if err == nil {
		if c.(BoolValue) {
			return ev.eval(t.Args[1], sc)
		}
		return ev.eval(t.Args[2], sc)
	}
	if !errors.Is(err, ErrUndecided) {
		return nil, err
	}
	a, errA := ev.eval(t.Args[1], sc)
	if errA != nil {
		if errors.Is(errA, ErrUndecided) {
			return nil, err
		}
		return nil, errA
	}
	b, errB := ev.eval(t.Args[2], sc)
	if errB != nil {
		if errors.Is(errB, ErrUndecided) {
			return nil, err
		}
		return nil, errB
	}
	if eq, ok := ev.equal(a, b); ok && eq {
		return a, nil
	}
	return nil, err
}

// equal compares two values of one sort; ok is false when that is undecided (regular languages
// beyond the equivalence checker's bound).
func (ev *evaluator) equal(a, b Value) (eq, ok bool) {
	if x, isRe := a.(reValue); isRe {
		return x.c.equivalent(x.n, b.(reValue).n)
	}
	return Equal(a, b), true
}

// equality evaluates = (chainable) and distinct (pairwise); args may hold nils for undecided
// arguments, which still let a decided difference (=) or coincidence (distinct) decide.
func (ev *evaluator) equality(t *Term, args []Value) (Value, error) {
	distinct := t.Name == "distinct"
	und := false
	for i := range args {
		if args[i] == nil {
			und = true
			continue
		}
		for j := i + 1; j < len(args); j++ {
			if args[j] == nil {
				continue
			}
			eq, ok := ev.equal(args[i], args[j])
			if !ok {
				und = true
				continue
			}
			if eq == distinct {
				return BoolValue(false), nil
			}
		}
	}
	if und {
		return nil, undecided("%s with an undecided argument", t.Name)
	}
	return BoolValue(true), nil
}

// quantifier evaluates forall/exists: exhaustively over Bool and bit-vector variables of at most
// 8 bits in all, else on a few candidate values (a counterexample decides a forall, a witness an
// exists); otherwise undecided.
func (ev *evaluator) quantifier(t *Term, sc *evScope) (Value, error) {
	forall := t.Kind == KindForall
	bits := 0
	finite := true
	cands := make([][]Value, len(t.Binds))
	for i, b := range t.Binds {
		switch {
		case b.Sort.Equal(BoolSort):
			bits++
		case b.Sort.Width() > 0:
			bits += b.Sort.Width()
		default:
			finite = false
		}
		cands[i] = candidates(b.Sort)
	}
	if finite && bits <= 8 {
		cands = cands[:0]
		for _, b := range t.Binds {
			var vs []Value
			if b.Sort.Equal(BoolSort) {
				vs = []Value{BoolValue(false), BoolValue(true)}
			} else {
				for k := uint64(0); k < 1<<b.Sort.Width(); k++ {
					vs = append(vs, NewBVUint(b.Sort.Width(), k))
				}
			}
			cands = append(cands, vs)
		}
	}
	total := 1
	for _, c := range cands {
		total *= len(c)
		if total > 256 {
			total = 256
		}
	}
	var und error
	idx := make([]int, len(cands))
	for n := 0; n < total; n++ {
		inner := &evScope{up: sc, vars: make(map[string]evResult, len(t.Binds))}
		for i, b := range t.Binds {
			if len(cands[i]) == 0 {
				return nil, undecided("quantifier over %s", b.Sort)
			}
			inner.vars[b.Name] = evResult{v: cands[i][idx[i]]}
		}
		v, err := ev.eval(t.Args[0], inner)
		if err != nil {
			if !errors.Is(err, ErrUndecided) {
				return nil, err
			}
			und = err
		} else if bool(v.(BoolValue)) != forall {
			return BoolValue(!forall), nil
		}
		for i := range idx {
			idx[i]++
			if idx[i] < len(cands[i]) {
				break
			}
			idx[i] = 0
		}
	}
	if und != nil {
		return nil, und
	}
	if !(finite && bits <= 8) {
		return nil, undecided("quantifier over an infinite sort")
	}
	return BoolValue(forall), nil
}

// candidates returns a few values of s tried by quantifiers over infinite sorts.
func candidates(s *Sort) []Value {
	switch {
	case s.Equal(BoolSort):
		return []Value{BoolValue(false), BoolValue(true)}
	case s.Equal(IntSort):
		return []Value{NewInt(0), NewInt(1), NewInt(-1), NewInt(2)}
	case s.Equal(RealSort):
		return []Value{NewReal(0, 1), NewReal(1, 1), NewReal(-1, 1), NewReal(1, 2)}
	case s.Equal(StringSort):
		return []Value{StringValue{}, StringValue("a")}
	case s.Width() > 0:
		w := s.Width()
		return []Value{NewBVUint(w, 0), NewBVUint(w, 1), NewBV(w, bvMask(w)),
			NewBV(w, new(big.Int).Lsh(big.NewInt(1), uint(w-1)))}
	case s.Name == "Array" && len(s.Args) == 2:
		if d := ZeroValue(s); d != nil {
			return []Value{d}
		}
	case s.DT != nil:
		return dtCandidates(s)
	case isFPSort(s) || s.Equal(RoundingModeSort):
		return fpCandidates(s)
	}
	return nil
}

// partial returns the value of an unspecified operation (table name: div0, mod0, /0) at x.
func (ev *evaluator) partial(table string, x Value) (Value, error) {
	if v, ok := ev.m.Funcs[table].Lookup([]Value{x}); ok {
		return v, nil
	}
	op := map[string]string{DivZero: "div", ModZero: "mod", RealZero: "/"}[table]
	return nil, undecided("(%s %s 0) is not pinned", op, x)
}

// number is what fold needs of *big.Int and *big.Rat.
type number[P any] interface {
	Set(P) P
	Neg(P) P
	Add(P, P) P
	Sub(P, P) P
	Mul(P, P) P
}

// fold applies +, - or * to xs (one argument: - negates) into r and returns r.
func fold[P number[P]](op string, r P, xs []P) P {
	if op == "-" && len(xs) == 1 {
		return r.Neg(xs[0])
	}
	r.Set(xs[0])
	for _, y := range xs[1:] {
		switch op {
		case "+":
			r.Add(r, y)
		case "-":
			r.Sub(r, y)
		default:
			r.Mul(r, y)
		}
	}
	return r
}

// arith evaluates the Ints and Reals operators; ok is false for other names.
func (ev *evaluator) arith(t *Term, args []Value) (v Value, ok bool, err error) {
	switch t.Name {
	case "+", "-", "*":
		if _, isInt := args[0].(IntValue); isInt {
			xs := make([]*big.Int, len(args))
			for i, a := range args {
				xs[i] = a.(IntValue).V
			}
			return IntValue{fold(t.Name, new(big.Int), xs)}, true, nil
		}
		xs := make([]*big.Rat, len(args))
		for i, a := range args {
			xs[i] = a.(RealValue).V
		}
		return RealValue{fold(t.Name, new(big.Rat), xs)}, true, nil
	case "/":
		acc := args[0].(RealValue)
		for _, a := range args[1:] {
			y := a.(RealValue).V
			if y.Sign() == 0 {
				v, err := ev.partial(RealZero, acc)
				if err != nil {
					return nil, true, err
				}
				acc = v.(RealValue)
				continue
			}
			acc = RealValue{new(big.Rat).Quo(acc.V, y)}
		}
		return acc, true, nil
	case "div":
		acc := args[0].(IntValue)
		for _, a := range args[1:] {
			y := a.(IntValue).V
			if y.Sign() == 0 {
				v, err := ev.partial(DivZero, acc)
				if err != nil {
					return nil, true, err
				}
				acc = v.(IntValue)
				continue
			}
			acc = IntValue{new(big.Int).Div(acc.V, y)} // Euclidean, as SMT-LIB
		}
		return acc, true, nil
	case "mod":
		x, y := args[0].(IntValue), args[1].(IntValue).V
		if y.Sign() == 0 {
			v, err := ev.partial(ModZero, x)
			return v, true, err
		}
		return IntValue{new(big.Int).Mod(x.V, y)}, true, nil
	case "abs":
		if x, isInt := args[0].(IntValue); isInt {
			return IntValue{new(big.Int).Abs(x.V)}, true, nil
		}
		return RealValue{new(big.Rat).Abs(args[0].(RealValue).V)}, true, nil
	case "to_real":
		if x, isInt := args[0].(IntValue); isInt {
			return RealValue{new(big.Rat).SetInt(x.V)}, true, nil
		}
		return args[0], true, nil
	case "to_int":
		x := args[0].(RealValue).V
		return IntValue{floorRat(x)}, true, nil
	case "is_int":
		return BoolValue(args[0].(RealValue).V.IsInt()), true, nil
	case "divisible":
		n := big.NewInt(int64(t.Index[0]))
		return BoolValue(new(big.Int).Mod(args[0].(IntValue).V, n).Sign() == 0), true, nil
	case "<", "<=", ">", ">=":
		for i := 0; i+1 < len(args); i++ {
			var c int
			if x, isInt := args[i].(IntValue); isInt {
				c = x.V.Cmp(args[i+1].(IntValue).V)
			} else {
				c = args[i].(RealValue).V.Cmp(args[i+1].(RealValue).V)
			}
			holds := map[string]bool{"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[t.Name]
			if !holds {
				return BoolValue(false), true, nil
			}
		}
		return BoolValue(true), true, nil
	}
	return nil, false, nil
}

// errBadLiteral reports a literal the reader let through but the evaluator cannot read.
func errBadLiteral(t *Term) error { return fmt.Errorf("bad literal %s", briefTerm(t)) }

// floorRat returns ⌊x⌋.
func floorRat(x *big.Rat) *big.Int {
	// Euclidean division by a positive denominator is floor division.
	return new(big.Int).Div(x.Num(), x.Denom())
}

// DecodeStringLit decodes the \u escapes of a string literal's text (as held in Term.Lit, with
// the "" escapes already undone) into code points, as SMT-LIB 2.6 specifies: \ud₃d₂d₁d₀ and
// \u{d} to \u{d₄d₃d₂d₁d₀} with a value of at most 0x2FFFF; any other backslash is itself.
func DecodeStringLit(s string) []rune {
	in := []rune(s)
	out := make([]rune, 0, len(in))
	for i := 0; i < len(in); i++ {
		if in[i] == '\\' && i+1 < len(in) && in[i+1] == 'u' {
			if c, n, ok := decodeUEscape(in[i+2:]); ok {
				out = append(out, c)
				i += 1 + n
				continue
			}
		}
		out = append(out, in[i])
	}
	return out
}

// decodeUEscape reads what follows \u; n is the number of runes used.
func decodeUEscape(s []rune) (c rune, n int, ok bool) {
	hex := func(r rune) bool { return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' }
	if len(s) > 0 && s[0] == '{' {
		j := 1
		for j < len(s) && j <= 6 && hex(s[j]) {
			j++
		}
		if j == 1 || j > 6 || j >= len(s) || s[j] != '}' {
			return 0, 0, false
		}
		v, err := strconv.ParseUint(string(s[1:j]), 16, 32)
		if err != nil || v > MaxChar {
			return 0, 0, false
		}
		return rune(v), j + 1, true
	}
	if len(s) >= 4 && hex(s[0]) && hex(s[1]) && hex(s[2]) && hex(s[3]) {
		v, _ := strconv.ParseUint(string(s[:4]), 16, 32)
		return rune(v), 4, true
	}
	return 0, 0, false
}

// ExpandLets returns t with every let replaced by its body, the bound variables substituted. The
// result shares subterms (a let-bound term used twice is one node), so its size as a DAG is at
// most that of t; bound variables of quantifiers that a substitution would capture are renamed.
// t itself is not changed, and subterms without lets are reused as they are.
func ExpandLets(t *Term) *Term {
	return newExpander(nil).expand(t, &expScope{})
}

// ExpandDefs is [ExpandLets] that also replaces every application of a function of e.Defs
// (define-fun, :named) by its body with the parameters substituted.
func (e *Env) ExpandDefs(t *Term) *Term {
	return newExpander(e).expand(t, &expScope{})
}

// expander substitutes let-bound variables (and define-fun bodies).
type expander struct {
	env   *Env
	defs  map[string]*Term // expanded define-fun bodies
	fresh int
}

// expScope maps variable names to their replacement; a nil replacement marks a variable bound by
// a quantifier (left as it is). memo holds the expansions done in this scope.
type expScope struct {
	up   *expScope
	vars map[string]*Term
	memo map[*Term]*Term
}

func (s *expScope) lookup(name string) (*Term, bool) {
	for ; s != nil; s = s.up {
		if r, ok := s.vars[name]; ok {
			return r, true
		}
	}
	return nil, false
}

func newExpander(env *Env) *expander { return &expander{env: env, defs: map[string]*Term{}} }

func (x *expander) expand(t *Term, sc *expScope) *Term {
	if r, ok := sc.memo[t]; ok {
		return r
	}
	r := x.expand1(t, sc)
	if sc.memo == nil {
		sc.memo = map[*Term]*Term{}
	}
	sc.memo[t] = r
	return r
}

func (x *expander) expand1(t *Term, sc *expScope) *Term {
	switch t.Kind {
	case KindLet:
		inner := &expScope{up: sc, vars: make(map[string]*Term, len(t.Binds))}
		for _, b := range t.Binds {
			inner.vars[b.Name] = x.expand(b.Term, sc)
		}
		return x.expand(t.Args[0], inner)
	case KindForall, KindExists:
		inner := &expScope{up: sc, vars: make(map[string]*Term, len(t.Binds))}
		binds := append([]Binding(nil), t.Binds...)
		renamed := false
		for i, b := range binds {
			if x.captures(b.Name, sc) {
				x.fresh++
				nb := b.Name + "!" + strconv.Itoa(x.fresh)
				inner.vars[b.Name] = &Term{Kind: KindApp, Name: nb, Sort: b.Sort}
				binds[i].Name = nb
				renamed = true
			} else {
				inner.vars[b.Name] = nil
			}
		}
		body := x.expand(t.Args[0], inner)
		if body == t.Args[0] && !renamed {
			return t
		}
		cp := *t
		cp.Binds, cp.Args = binds, []*Term{body}
		return &cp
	case KindMatch:
		return x.expandMatch(t, sc)
	case KindAnnot:
		a := x.expand(t.Args[0], sc)
		if a == t.Args[0] {
			return t
		}
		cp := *t
		cp.Args = []*Term{a}
		return &cp
	case KindApp:
		if len(t.Args) == 0 && len(t.Index) == 0 && t.As == nil {
			if r, ok := sc.lookup(t.Name); ok {
				if r == nil {
					return t
				}
				return r
			}
		}
		var args []*Term
		for i, a := range t.Args {
			e := x.expand(a, sc)
			if e != a && args == nil {
				args = append(make([]*Term, 0, len(t.Args)), t.Args[:i]...)
			}
			if args != nil {
				args = append(args, e)
			}
		}
		changed := args != nil
		if !changed {
			args = t.Args
		}
		if x.env != nil && len(t.Index) == 0 && t.As == nil {
			if d, ok := x.env.Defs[t.Name]; ok && !d.Rec && len(d.Params) == len(t.Args) {
				if _, bound := sc.lookup(t.Name); !bound || len(t.Args) > 0 {
					return x.inline(d, args)
				}
			}
		}
		if !changed {
			return t
		}
		cp := *t
		cp.Args = args
		return &cp
	}
	return t
}

// inline returns d's body with its parameters replaced by args.
func (x *expander) inline(d *Def, args []*Term) *Term {
	// The cached body has its parameters renamed to names no script can use ("\x00" + def +
	// index), so that a parameter named like a global symbol of an inlined body is not confused
	// with it.
	placeholder := func(i int) string { return "\x00" + d.Name + "\x00" + strconv.Itoa(i) }
	body, ok := x.defs[d.Name]
	if !ok {
		sc := &expScope{vars: make(map[string]*Term, len(d.Params))}
		for i, p := range d.Params {
			sc.vars[p.Name] = &Term{Kind: KindApp, Name: placeholder(i), Sort: p.Sort}
		}
		body = x.expand(d.Body, sc)
		x.defs[d.Name] = body
	}
	if len(d.Params) == 0 {
		return body
	}
	sc := &expScope{vars: make(map[string]*Term, len(d.Params))}
	for i := range d.Params {
		sc.vars[placeholder(i)] = args[i]
	}
	sub := &expander{fresh: x.fresh}
	r := sub.expand(body, sc)
	x.fresh = sub.fresh
	return r
}

// captures reports whether a replacement visible in sc mentions name, so that binding name
// around it would capture it.
func (x *expander) captures(name string, sc *expScope) bool {
	for s := sc; s != nil; s = s.up {
		for _, r := range s.vars {
			if r != nil && mentions(r, name, map[*Term]bool{}) {
				return true
			}
		}
	}
	return false
}

// mentions reports whether the symbol name occurs in t.
func mentions(t *Term, name string, seen map[*Term]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if t.Kind == KindApp && len(t.Args) == 0 && t.Name == name {
		return true
	}
	for _, a := range t.Args {
		if mentions(a, name, seen) {
			return true
		}
	}
	return false
}
