package smtgen

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
)

// elemNames maps the names a solver gives to the elements of one uninterpreted sort to indices.
type elemNames struct {
	byName  map[string]int
	byIndex map[int]string
	next    int
}

// Element returns the element of the uninterpreted sort s that a solver calls name, consistently
// within m. The solvers' own numbering is kept when the name has one (z3's U!val!3 and cvc5's
// @U_3 are element 3); other names get the next free index.
func (m *Model) Element(s *Sort, name string) ElemValue {
	if m.elems == nil {
		m.elems = map[string]*elemNames{}
	}
	key := s.String()
	en := m.elems[key]
	if en == nil {
		en = &elemNames{byName: map[string]int{}, byIndex: map[int]string{}}
		m.elems[key] = en
	}
	if i, ok := en.byName[name]; ok {
		return ElemValue{S: s, Index: i}
	}
	i, ok := elemIndex(name)
	if !ok || en.byIndex[i] != "" {
		for en.byIndex[en.next] != "" {
			en.next++
		}
		i = en.next
	}
	en.byName[name], en.byIndex[i] = i, name
	return ElemValue{S: s, Index: i}
}

// elemIndex reads the number at the end of a solver's element name: T!val!N, @T_N, @uc_T_N.
func elemIndex(name string) (int, bool) {
	k := len(name)
	for k > 0 && name[k-1] >= '0' && name[k-1] <= '9' {
		k--
	}
	if k == len(name) || k == 0 {
		return 0, false
	}
	if !strings.HasSuffix(name[:k], "!val!") && !(name[0] == '@' && name[k-1] == '_') {
		return 0, false
	}
	n, err := strconv.Atoi(name[k:])
	return n, err == nil
}

// ParseValue converts a solver's value term (from get-value or get-model, as read by ParseTerm)
// of sort s into a Value: numerals, (- n), decimals, (/ a b) with signs inside or outside, #b, #x,
// (_ bvN w), string literals, ((as const (Array I E)) v) and store chains, floating-point values
// and rounding modes as z3, cvc5 and Bitwuzla print them, and elements of
// uninterpreted sorts named z3's way (U!val!0) or cvc5's ((as @U_0 U), @U_0). Other element
// names need a model to number them: see [Model.ParseValue]. z3's (_ as-array f) and lambdas
// give an error, algebraic numbers (root-obj) an error wrapping [ErrUndecided].
func ParseValue(t *Term, s *Sort) (Value, error) {
	return (&Model{}).ParseValue(t, s)
}

// ParseValue is [ParseValue] with elements of uninterpreted sorts numbered by [Model.Element].
func (m *Model) ParseValue(t *Term, s *Sort) (Value, error) {
	if hasLet(t) {
		t = ExpandLets(expandHeadLets(t, nil))
	}
	v, err := m.parseValue(t, s)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// hasLet reports whether t contains a let.
func hasLet(t *Term) bool {
	if t.Kind == KindLet {
		return true
	}
	for _, a := range t.Args {
		if hasLet(a) {
			return true
		}
	}
	return false
}

func (m *Model) parseValue(t *Term, s *Sort) (Value, error) {
	bad := func() error { return fmt.Errorf("cannot read %s as a value of sort %s", briefTerm(t), s) }
	if t.Kind == KindApp && (t.Name == "root-obj" || t.Name == "irrational" || t.Name == "real_algebraic_number") {
		return nil, undecided("algebraic number %s", briefTerm(t))
	}
	if t.Kind == KindApp && (t.Name == "as-array" || t.Name == "lambda" || t.Name == "_") {
		return nil, fmt.Errorf("array value %s is a function reference, not a literal", briefTerm(t))
	}
	if isFPSort(s) || s.Equal(RoundingModeSort) {
		return parseFPValue(t, s)
	}
	switch {
	case s.DT != nil:
		return m.parseDT(t, s)
	case s.Equal(BoolSort):
		if t.Kind == KindApp && len(t.Args) == 0 && (t.Name == "true" || t.Name == "false") {
			return BoolValue(t.Name == "true"), nil
		}
	case s.Equal(IntSort):
		r, ok := parseRational(t)
		if ok && r.IsInt() {
			return IntValue{new(big.Int).Set(r.Num())}, nil
		}
	case s.Equal(RealSort):
		if r, ok := parseRational(t); ok {
			return RealValue{r}, nil
		}
	case s.Equal(StringSort):
		if t.Kind == KindString {
			return StringValue(DecodeStringLit(t.Lit)), nil
		}
	case s.Width() > 0:
		var v BVValue
		switch {
		case t.Kind == KindBinary:
			n, _ := new(big.Int).SetString(t.Lit, 2)
			v = BVValue{W: len(t.Lit), V: n}
		case t.Kind == KindHex:
			n, _ := new(big.Int).SetString(t.Lit, 16)
			v = BVValue{W: 4 * len(t.Lit), V: n}
		case t.Kind == KindApp && isBVLitName(t.Name) && len(t.Index) == 1 && len(t.Args) == 0:
			n, _ := new(big.Int).SetString(t.Name[2:], 10)
			v = NewBV(t.Index[0], n)
		default:
			return nil, bad()
		}
		if v.W != s.Width() || v.V == nil {
			return nil, bad()
		}
		return v, nil
	case s.Name == "Array" && len(s.Args) == 2:
		if t.Kind != KindApp {
			return nil, bad()
		}
		switch {
		case t.Name == "const" && t.As != nil && len(t.Args) == 1:
			d, err := m.parseValue(t.Args[0], s.Args[1])
			if err != nil {
				return nil, err
			}
			return NewArray(s, d), nil
		case t.Name == "store" && len(t.Args) == 3:
			a, err := m.parseValue(t.Args[0], s)
			if err != nil {
				return nil, err
			}
			k, err := m.parseValue(t.Args[1], s.Args[0])
			if err != nil {
				return nil, err
			}
			v, err := m.parseValue(t.Args[2], s.Args[1])
			if err != nil {
				return nil, err
			}
			return a.(ArrayValue).Store(k, v), nil
		}
	case s.Equal(RegLanSort):
		return nil, fmt.Errorf("RegLan has no value literals")
	default: // an uninterpreted sort
		if t.Kind == KindApp && len(t.Args) == 0 && len(t.Index) == 0 {
			if t.As != nil && !t.As.Equal(s) {
				return nil, bad()
			}
			return m.Element(s, t.Name), nil
		}
	}
	return nil, bad()
}

// parseRational reads n, d.d, (- x), (/ x y) and combinations as a rational.
func parseRational(t *Term) (*big.Rat, bool) {
	switch t.Kind {
	case KindNumeral, KindDecimal:
		lit := t.Lit
		neg := strings.HasPrefix(lit, "-")
		r, ok := new(big.Rat).SetString(strings.TrimPrefix(lit, "-"))
		if !ok {
			return nil, false
		}
		if neg {
			r.Neg(r)
		}
		return r, true
	case KindApp:
		switch {
		case t.Name == "-" && len(t.Args) == 1:
			r, ok := parseRational(t.Args[0])
			if !ok {
				return nil, false
			}
			return r.Neg(r), true
		case t.Name == "/" && len(t.Args) == 2:
			a, ok1 := parseRational(t.Args[0])
			b, ok2 := parseRational(t.Args[1])
			if !ok1 || !ok2 || b.Sign() == 0 {
				return nil, false
			}
			return a.Quo(a, b), true
		case t.Name == "to_real" && len(t.Args) == 1:
			return parseRational(t.Args[0])
		}
	}
	return nil, false
}

// Pin records that the solver's value of app is v. app is an application of a declared function
// or a division (div, mod, /) by a term that is zero in m, or an FP operation at arguments where
// SMT-LIB leaves its value unspecified (fp.min, fp.max, fp.to_real, fp.to_ubv, fp.to_sbv; the
// table is named after the operation, keyed by all its arguments): its arguments are evaluated under m
// (the constants, and the pins of inner applications, must be set already) and the entry is added
// to the function's table, or to div0, mod0 or /0 at the dividend. For any other term, Pin only
// checks v against the evaluator. A value that contradicts an earlier pin or the evaluator gives
// an error wrapping [ErrInconsistent]; arguments that cannot be evaluated give their error.
func (m *Model) Pin(app *Term, v Value) error {
	if app.Sort == nil {
		env := m.Env
		if env == nil {
			env = NewEnv("")
		}
		if err := env.CheckTerm(app); err != nil {
			return err
		}
	}
	if m.Funcs == nil {
		m.Funcs = map[string]*FuncTable{}
	}
	if m.Consts == nil {
		m.Consts = map[string]Value{}
	}
	n := len(app.Args)
	if app.Kind == KindApp && n == 0 && len(app.Index) == 0 && m.isDeclared(app.Name, 0) {
		if old, ok := m.Consts[app.Name]; ok {
			if !Equal(old, v) {
				return fmt.Errorf("%w: %s is %s and %s", ErrInconsistent, app.Name, old, v)
			}
			return nil
		}
		m.Consts[app.Name] = v
		return nil
	}
	table := ""
	var args []Value
	switch {
	case app.Kind == KindApp && n == 2 && (app.Name == "div" || app.Name == "mod" || app.Name == "/"):
		x, err := m.Eval(app.Args[0])
		if err != nil {
			return err
		}
		y, err := m.Eval(app.Args[1])
		if err != nil {
			return err
		}
		if isZero(y) {
			table = map[string]string{"div": DivZero, "mod": ModZero, "/": RealZero}[app.Name]
			args = []Value{x}
		}
	case n == 1 && m.Env != nil && m.Env.selectors[app.Name].c != nil:
		var err error
		if table, args, err = m.wrongSelector(app); err != nil {
			return err
		}
	case fpPartialTable(app) != "":
		var err error
		if table, args, _, err = m.fpPinKey(app); err != nil {
			return err
		}
	case app.Kind == KindApp && n > 0 && len(app.Index) == 0 && m.isDeclared(app.Name, n):
		table = app.Name
		for _, a := range app.Args {
			x, err := m.Eval(a)
			if err != nil {
				return err
			}
			args = append(args, x)
		}
	}
	if table == "" {
		got, err := m.Eval(app)
		if err != nil {
			if errors.Is(err, ErrUndecided) {
				return nil
			}
			return err
		}
		if eq, ok := (&evaluator{m: m, re: m.re}).equal(got, v); ok && !eq {
			return fmt.Errorf("%w: %s is %s, the evaluator says %s", ErrInconsistent, briefTerm(app), v, got)
		}
		return nil
	}
	f := m.Funcs[table]
	if f == nil {
		f = &FuncTable{}
		m.Funcs[table] = f
	}
outer:
	for _, e := range f.Entries {
		for i := range args {
			if !Equal(e.Args[i], args[i]) {
				continue outer
			}
		}
		if !Equal(e.Val, v) {
			return fmt.Errorf("%w: %s at %s is %s and %s", ErrInconsistent, table, valueList(args), e.Val, v)
		}
		return nil
	}
	f.Entries = append(f.Entries, Entry{Args: args, Val: v})
	return nil
}

// isDeclared reports whether name is a declared function of arity n (without an Env: any
// symbol that is not a theory symbol).
func (m *Model) isDeclared(name string, n int) bool {
	if m.Env != nil {
		d, ok := m.Env.Decls[name]
		return ok && len(d.ArgSorts) == n
	}
	return !chkBuiltin(name)
}

// isZero reports whether v is the Int or Real zero.
func isZero(v Value) bool {
	switch x := v.(type) {
	case IntValue:
		return x.V.Sign() == 0
	case RealValue:
		return x.V.Sign() == 0
	}
	return false
}

// PartialApps returns the terms whose values a model read from a solver needs besides the
// constants: every ground application of a function that is not a theory symbol (declared
// functions, and define-fun applications, which [Model.Pin] merely checks), every div, mod or
// / application whose divisor is not a nonzero numeric literal (an n-ary one as its binary
// prefixes) and every application of fp.min, fp.max, fp.to_real, fp.to_ubv and fp.to_sbv, in the let-expanded, quantifier-free parts of ts. The list is innermost first and
// has no two terms with the same printed text. Partial operations inside define-fun bodies are
// only found after [Env.ExpandDefs].
func PartialApps(ts []*Term) []*Term {
	seen := map[string]bool{}
	visited := map[*Term]bool{}
	var out []*Term
	add := func(t *Term) {
		k := t.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	var walk func(t *Term)
	walk = func(t *Term) {
		if visited[t] {
			return
		}
		visited[t] = true
		switch t.Kind {
		case KindAnnot:
			walk(t.Args[0])
		case KindApp:
			for _, a := range t.Args {
				walk(a)
			}
			switch {
			case len(t.Args) >= 2 && (t.Name == "div" || t.Name == "/" || t.Name == "mod") && len(t.Index) == 0:
				acc := t.Args[0]
				for _, d := range t.Args[1:] {
					p := t
					if len(t.Args) > 2 {
						p = &Term{Kind: KindApp, Name: t.Name, Args: []*Term{acc, d}, Sort: t.Sort}
					}
					if !nonzeroLiteral(d) {
						add(p)
					}
					acc = p
				}
			case fpPartialTable(t) != "":
				add(t)
			case len(t.Args) > 0 && len(t.Index) == 0 && !chkBuiltin(t.Name):
				add(t)
			}
		}
	}
	for _, t := range ts {
		walk(ExpandLets(t))
	}
	return out
}

// nonzeroLiteral reports whether t is a numeral or decimal other than zero, possibly negated or
// promoted with to_real.
func nonzeroLiteral(t *Term) bool {
	for t.Kind == KindApp && len(t.Args) == 1 && (t.Name == "-" || t.Name == "to_real") {
		t = t.Args[0]
	}
	if t.Kind != KindNumeral && t.Kind != KindDecimal {
		return false
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(t.Lit, "-"))
	return ok && r.Sign() != 0
}

// RandomValue returns a random value of s: small magnitudes mostly, sometimes large ones; short
// strings over a small alphabet with an occasional special or non-ASCII character; arrays with a
// few stores. It returns nil for RegLan and sorts it does not know.
func RandomValue(r *rand.Rand, s *Sort) Value {
	switch {
	case s.Equal(BoolSort):
		return BoolValue(r.IntN(2) == 0)
	case s.Equal(IntSort):
		return IntValue{randomInt(r)}
	case s.Equal(RealSort):
		num := randomInt(r)
		den := big.NewInt(1)
		if r.IntN(3) > 0 {
			den = big.NewInt(int64(1 + r.IntN(8)))
		}
		return RealValue{new(big.Rat).SetFrac(num, den)}
	case s.Equal(StringSort):
		return StringValue(randomRunes(r, r.IntN(5)))
	case s.Width() > 0:
		w := s.Width()
		switch r.IntN(8) {
		case 0:
			return NewBVUint(w, 0)
		case 1:
			return NewBVUint(w, 1)
		case 2:
			return NewBV(w, bvMask(w))
		case 3:
			return NewBV(w, new(big.Int).Lsh(big.NewInt(1), uint(w-1)))
		case 4:
			return NewBV(w, new(big.Int).Rsh(bvMask(w), 1))
		case 5:
			return NewBVUint(w, uint64(r.IntN(16)))
		}
		v := new(big.Int)
		for i := 0; i < w; i += 32 {
			v.Lsh(v, 32).Or(v, big.NewInt(int64(r.Uint32())))
		}
		return NewBV(w, v)
	case s.Name == "Array" && len(s.Args) == 2 && len(s.Index) == 0:
		d := RandomValue(r, s.Args[1])
		if d == nil {
			return nil
		}
		a := NewArray(s, d)
		for n := r.IntN(4); n > 0; n-- {
			k := RandomValue(r, s.Args[0])
			v := RandomValue(r, s.Args[1])
			if k == nil {
				break
			}
			a = a.Store(k, v)
		}
		return a
	case s.Equal(RegLanSort):
		return nil
	case s.DT != nil:
		return randomDT(r, s, 3)
	case isFPSort(s) || s.Equal(RoundingModeSort):
		return randomFPValue(r, s)
	case s.Name == "Bool" || s.Name == "Int" || s.Name == "Real" || s.Name == "String" || s.Name == "BitVec" ||
		s.Name == "Array" || s.Name == "RegLan":
		return nil
	}
	return ElemValue{S: s, Index: r.IntN(3)}
}

// randomInt returns a random integer: mostly in -10..10, sometimes up to ±1000 or beyond 2^64.
func randomInt(r *rand.Rand) *big.Int {
	switch n := r.IntN(20); {
	case n < 16:
		return big.NewInt(int64(r.IntN(21) - 10))
	case n < 19:
		return big.NewInt(int64(r.IntN(2001) - 1000))
	default:
		v := new(big.Int).Lsh(big.NewInt(1), uint(32+r.IntN(70)))
		v.Add(v, big.NewInt(int64(r.IntN(1000))))
		if r.IntN(2) == 0 {
			v.Neg(v)
		}
		return v
	}
}

// specialRunes are the occasional characters of random strings: quotes, backslash, space, NUL,
// non-ASCII letters, an emoji, the largest BMP and SMT-LIB characters.
var specialRunes = []rune{'"', '\\', ' ', 0, 0x7f, 'é', 'Ω', 0x1F600, 0xFFFF, MaxChar}

// randomRunes returns n random characters.
func randomRunes(r *rand.Rand, n int) []rune {
	out := make([]rune, n)
	for i := range out {
		switch k := r.IntN(20); {
		case k < 14:
			out[i] = rune('a' + r.IntN(2))
		case k < 16:
			out[i] = rune('0' + r.IntN(10))
		case k < 18:
			out[i] = rune('c' + r.IntN(3))
		default:
			out[i] = specialRunes[r.IntN(len(specialRunes))]
		}
	}
	return out
}

// RandomModel returns a random model of env's declarations: a value for every declared constant,
// a table with a few entries and a Default for every declared function, and the partial-operation
// tables div0, mod0 and /0 with the constant default 0 (see docs/smt-evaluator.md).
func RandomModel(r *rand.Rand, env *Env) *Model {
	m := NewModel(env)
	for _, name := range env.Order {
		d := env.Decls[name]
		if d == nil {
			continue
		}
		if len(d.ArgSorts) == 0 {
			if v := RandomValue(r, d.Ret); v != nil {
				m.Consts[name] = v
			}
			continue
		}
		def := RandomValue(r, d.Ret)
		if def == nil {
			continue
		}
		f := &FuncTable{Default: def}
	entries:
		for n := r.IntN(4); n > 0; n-- {
			e := Entry{Val: RandomValue(r, d.Ret)}
			for _, s := range d.ArgSorts {
				a := RandomValue(r, s)
				if a == nil {
					break entries
				}
				e.Args = append(e.Args, a)
			}
			if _, dup := (&FuncTable{Entries: f.Entries}).Lookup(e.Args); !dup {
				f.Entries = append(f.Entries, e)
			}
		}
		m.Funcs[name] = f
	}
	m.Funcs[DivZero] = &FuncTable{Default: NewInt(0)}
	m.Funcs[ModZero] = &FuncTable{Default: NewInt(0)}
	m.Funcs[RealZero] = &FuncTable{Default: NewReal(0, 1)}
	return m
}
