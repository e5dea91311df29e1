package smtgen

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Theories lists the theory names [RandomGroundTerm] and [SelfCheck] accept.
var Theories = []string{"core", "ints", "reals", "bv", "bv-overflow", "arrays", "strings", "regex", "datatypes", "fp"}

// RandomGroundTerm returns a random well-sorted ground term (no symbols but the theory's own) of
// the theory ("core", "ints", "reals" with mixed Int/Real, "bv", "bv-overflow" with SMT-LIB
// 2.7's overflow predicates and bvredor, bvredand besides, "arrays", "strings", "regex"
// with str.in_re and random regular expressions, "datatypes" over [DatatypeTheoryDecls] with
// constructors, testers, selectors, also on other constructors, and match, "fp" as
// [RandomFPTerm] of any operation), at most depth deep, sort-checked (Sort filled
// in, Int-to-Real promotions explicit). Divisors of div, mod and / are mostly nonzero literals but
// sometimes arbitrary terms, which may be zero: such terms are undecided until pinned. It
// returns nil for an unknown theory.
func RandomGroundTerm(r *rand.Rand, theory string, depth int) *Term {
	t := randomGround(r, theory, depth)
	if t == nil {
		return nil
	}
	if err := theoryEnv(theory).CheckTerm(t); err != nil {
		panic(fmt.Sprintf("smtgen: RandomGroundTerm built an ill-sorted term: %v", err))
	}
	return t
}

// randomGround builds the term of RandomGroundTerm without checking it: Int terms stand where
// Real ones are expected, as solvers accept, and no Sort is filled in.
func randomGround(r *rand.Rand, theory string, depth int) *Term {
	g := &groundGen{r: r, theory: theory}
	var s *Sort
	switch theory {
	case "core":
		s = BoolSort
	case "ints":
		s = g.pick(BoolSort, IntSort, IntSort)
	case "reals":
		s = g.pick(BoolSort, RealSort, RealSort, IntSort)
	case "bv", "bv-overflow":
		if r.IntN(3) == 0 {
			s = BoolSort
		} else {
			s = BitVecSort(g.width())
		}
	case "arrays":
		s = g.pick(BoolSort, IntSort, g.arraySort(), g.arraySort())
	case "strings":
		s = g.pick(BoolSort, IntSort, StringSort, StringSort)
	case "regex":
		s = g.pick(BoolSort, BoolSort, BoolSort, StringSort)
	case "datatypes":
		s = g.dtTopSort()
	case "fp":
		return randomFPGround(r, depth)
	default:
		return nil
	}
	return g.term(s, depth)
}

// groundGen generates the terms of one theory.
type groundGen struct {
	r      *rand.Rand
	theory string
}

func (g *groundGen) pick(ss ...*Sort) *Sort { return ss[g.r.IntN(len(ss))] }

func (g *groundGen) chance(n int) bool { return g.r.IntN(n) == 0 }

// width returns a bit-vector width: small ones mostly, some word sizes, rarely above 64.
func (g *groundGen) width() int {
	ws := []int{1, 2, 3, 4, 4, 5, 7, 8, 8, 8, 12, 16, 32, 64, 65}
	return ws[g.r.IntN(len(ws))]
}

func (g *groundGen) arraySort() *Sort {
	switch g.r.IntN(6) {
	case 0:
		return ArraySort(IntSort, BoolSort)
	case 1:
		return ArraySort(BoolSort, IntSort)
	case 2:
		return ArraySort(BitVecSort(2), BitVecSort(3))
	case 3:
		return ArraySort(IntSort, ArraySort(IntSort, IntSort))
	}
	return ArraySort(IntSort, IntSort)
}

func rgApp(name string, args ...*Term) *Term { return &Term{Kind: KindApp, Name: name, Args: args} }

func rgIndexed(name string, idx []int, args ...*Term) *Term {
	return &Term{Kind: KindApp, Name: name, Index: idx, Args: args}
}

// term returns a term of sort s at most depth deep.
func (g *groundGen) term(s *Sort, depth int) *Term {
	if depth <= 0 || g.chance(5) {
		return g.leaf(s)
	}
	d := depth - 1
	// ite and = work in every theory.
	if g.chance(12) {
		return rgApp("ite", g.term(BoolSort, d), g.term(s, d), g.term(s, d))
	}
	if g.theory == "datatypes" {
		if t := g.dtTerm(s, d); t != nil {
			return t
		}
	}
	switch {
	case s.Equal(BoolSort):
		return g.boolTerm(d)
	case s.Equal(IntSort):
		return g.intTerm(d)
	case s.Equal(RealSort):
		return g.realTerm(d)
	case s.Width() > 0:
		return g.bvTerm(s.Width(), d)
	case s.Equal(StringSort):
		return g.stringTerm(d)
	case s.Equal(RegLanSort):
		return g.reTerm(d)
	case s.Name == "Array":
		switch g.r.IntN(3) {
		case 0:
			// cvc5 wants a value as the argument of (as const ...).
			return &Term{Kind: KindApp, Name: "const", As: s, Args: []*Term{g.leaf(s.Args[1])}}
		case 1:
			return rgApp("store", g.term(s, d), g.term(s.Args[0], d), g.term(s.Args[1], d))
		}
		idx := g.indexSortFor(s)
		return rgApp("select", g.term(ArraySort(idx, s), d), g.term(idx, d))
	}
	return g.leaf(s)
}

// indexSortFor picks an index sort for an array whose elements are s (select's first argument).
func (g *groundGen) indexSortFor(s *Sort) *Sort {
	if s.Name == "Array" {
		return IntSort
	}
	return g.pick(IntSort, BoolSort)
}

func (g *groundGen) boolTerm(d int) *Term {
	r := g.r
	if g.theory == "core" || r.IntN(3) == 0 {
		switch r.IntN(7) {
		case 0:
			return rgApp("not", g.term(BoolSort, d))
		case 1:
			return rgApp(g.pickName("and", "or"), g.terms(BoolSort, d, 1+r.IntN(3))...)
		case 2:
			return rgApp("xor", g.terms(BoolSort, d, 2+r.IntN(2))...)
		case 3:
			return rgApp("=>", g.terms(BoolSort, d, 2+r.IntN(2))...)
		case 4:
			return rgApp(g.pickName("=", "distinct"), g.terms(BoolSort, d, 2+r.IntN(2))...)
		case 5:
			return rgApp("ite", g.term(BoolSort, d), g.term(BoolSort, d), g.term(BoolSort, d))
		}
		if g.theory == "core" {
			return rgApp("and", g.term(BoolSort, d), g.term(BoolSort, d))
		}
	}
	switch g.theory {
	case "ints":
		switch r.IntN(4) {
		case 0:
			return rgIndexed("divisible", []int{1 + r.IntN(5)}, g.term(IntSort, d))
		case 1:
			return rgApp(g.pickName("=", "distinct"), g.terms(IntSort, d, 2+r.IntN(2))...)
		}
		return rgApp(g.pickName("<", "<=", ">", ">="), g.terms(IntSort, d, 2+g.r.IntN(2)/2)...)
	case "reals":
		switch r.IntN(4) {
		case 0:
			return rgApp("is_int", g.term(RealSort, d))
		case 1:
			return rgApp(g.pickName("=", "distinct"), g.term(RealSort, d), g.term(g.pick(RealSort, IntSort), d))
		}
		return rgApp(g.pickName("<", "<=", ">", ">="), g.term(g.pick(RealSort, IntSort), d), g.term(RealSort, d))
	case "bv", "bv-overflow":
		w := g.width()
		if g.theory == "bv-overflow" && r.IntN(2) == 0 {
			if r.IntN(8) == 0 {
				return rgApp("bvnego", g.term(BitVecSort(w), d))
			}
			return rgApp(g.pickName("bvuaddo", "bvsaddo", "bvumulo", "bvsmulo", "bvusubo", "bvssubo", "bvsdivo"),
				g.term(BitVecSort(w), d), g.term(BitVecSort(w), d))
		}
		if r.IntN(4) == 0 {
			return rgApp(g.pickName("=", "distinct"), g.term(BitVecSort(w), d), g.term(BitVecSort(w), d))
		}
		return rgApp(g.pickName("bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge"),
			g.term(BitVecSort(w), d), g.term(BitVecSort(w), d))
	case "arrays":
		if r.IntN(2) == 0 {
			s := g.arraySort()
			return rgApp("=", g.term(s, d), g.term(s, d))
		}
		return rgApp("select", g.term(ArraySort(IntSort, BoolSort), d), g.term(IntSort, d))
	case "strings":
		switch r.IntN(5) {
		case 0:
			return rgApp(g.pickName("str.prefixof", "str.suffixof", "str.contains"), g.term(StringSort, d), g.term(StringSort, d))
		case 1:
			return rgApp(g.pickName("str.<", "str.<="), g.term(StringSort, d), g.term(StringSort, d))
		case 2:
			return rgApp("str.is_digit", g.term(StringSort, d))
		case 3:
			return rgApp("=", g.term(StringSort, d), g.term(StringSort, d))
		}
		return rgApp(g.pickName("<", "<=", "="), g.term(IntSort, d), g.term(IntSort, d))
	case "regex":
		if r.IntN(6) == 0 {
			return rgApp("=", g.term(StringSort, d), g.term(StringSort, d))
		}
		return rgApp("str.in_re", g.term(StringSort, d), g.term(RegLanSort, d))
	}
	return g.leaf(BoolSort)
}

func (g *groundGen) pickName(names ...string) string { return names[g.r.IntN(len(names))] }

func (g *groundGen) terms(s *Sort, d, n int) []*Term {
	out := make([]*Term, n)
	for i := range out {
		out[i] = g.term(s, d)
	}
	return out
}

// divisor returns a divisor: a nonzero literal mostly, else any term (perhaps zero).
func (g *groundGen) divisor(s *Sort, d int) *Term {
	if g.r.IntN(10) < 7 {
		for {
			if t := g.leaf(s); !isZeroLiteral(t) {
				return t
			}
		}
	}
	return g.term(s, d)
}

func isZeroLiteral(t *Term) bool {
	for t.Kind == KindApp && t.Name == "-" && len(t.Args) == 1 {
		t = t.Args[0]
	}
	if t.Kind == KindApp && t.Name == "/" && len(t.Args) == 2 {
		return isZeroLiteral(t.Args[0])
	}
	r, ok := new(big.Rat).SetString(t.Lit)
	return (t.Kind == KindNumeral || t.Kind == KindDecimal) && ok && r.Sign() == 0
}

func (g *groundGen) intTerm(d int) *Term {
	r := g.r
	switch g.theory {
	case "reals":
		if r.IntN(2) == 0 {
			return rgApp("to_int", g.term(g.pick(RealSort, RealSort, IntSort), d))
		}
	case "strings":
		switch r.IntN(6) {
		case 0:
			return rgApp("str.len", g.term(StringSort, d))
		case 1:
			return rgApp("str.indexof", g.term(StringSort, d), g.term(StringSort, d), g.term(IntSort, d))
		case 2:
			return rgApp("str.to_int", g.term(StringSort, d))
		case 3:
			return rgApp("str.to_code", g.term(StringSort, d))
		}
		return rgApp(g.pickName("+", "-"), g.term(IntSort, d), g.term(IntSort, d))
	case "arrays":
		if r.IntN(2) == 0 {
			a := g.pick(ArraySort(IntSort, IntSort), ArraySort(BoolSort, IntSort))
			return rgApp("select", g.term(a, d), g.term(a.Args[0], d))
		}
		if r.IntN(2) == 0 {
			return rgApp("select", rgApp("select", g.term(ArraySort(IntSort, ArraySort(IntSort, IntSort)), d), g.term(IntSort, d)), g.term(IntSort, d))
		}
		return rgApp("+", g.term(IntSort, d), g.term(IntSort, d))
	}
	switch r.IntN(8) {
	case 0:
		return rgApp("-", g.term(IntSort, d))
	case 1:
		return rgApp("abs", g.term(IntSort, d))
	case 2:
		return rgApp("div", g.term(IntSort, d), g.divisor(IntSort, d))
	case 3:
		return rgApp("mod", g.term(IntSort, d), g.divisor(IntSort, d))
	case 4:
		return rgApp("*", g.terms(IntSort, d, 2)...)
	case 5:
		return rgApp("-", g.terms(IntSort, d, 2+r.IntN(2))...)
	}
	return rgApp("+", g.terms(IntSort, d, 2+r.IntN(2))...)
}

func (g *groundGen) realTerm(d int) *Term {
	r := g.r
	mixed := func() *Term { return g.term(g.pick(RealSort, RealSort, IntSort), d) }
	switch r.IntN(7) {
	case 0:
		return rgApp("to_real", g.term(IntSort, d))
	case 1:
		return rgApp("-", g.term(RealSort, d))
	case 2:
		return rgApp("/", mixed(), g.divisor(g.pick(RealSort, IntSort), d))
	case 3:
		return rgApp("*", g.term(RealSort, d), mixed())
	case 4:
		return rgApp("-", g.term(RealSort, d), mixed())
	}
	return rgApp("+", mixed(), g.term(RealSort, d))
}

func (g *groundGen) bvTerm(w, d int) *Term {
	r := g.r
	s := BitVecSort(w)
	switch r.IntN(12) {
	case 0:
		if w > 1 {
			k := 1 + r.IntN(w-1)
			return rgApp("concat", g.term(BitVecSort(k), d), g.term(BitVecSort(w-k), d))
		}
	case 1:
		extra := r.IntN(4)
		lo := r.IntN(extra + 1)
		return rgIndexed("extract", []int{lo + w - 1, lo}, g.term(BitVecSort(w+extra), d))
	case 2:
		if w > 1 {
			k := r.IntN(w)
			return rgIndexed(g.pickName("zero_extend", "sign_extend"), []int{k}, g.term(BitVecSort(w-k), d))
		}
	case 3:
		for _, k := range []int{2, 3, 4} {
			if w%k == 0 && r.IntN(2) == 0 {
				return rgIndexed("repeat", []int{k}, g.term(BitVecSort(w/k), d))
			}
		}
		return rgIndexed(g.pickName("rotate_left", "rotate_right"), []int{r.IntN(2 * w)}, g.term(s, d))
	case 4:
		return rgApp(g.pickName("bvnot", "bvneg"), g.term(s, d))
	case 5:
		if w == 1 && g.theory == "bv-overflow" && r.IntN(2) == 0 {
			return rgApp(g.pickName("bvredor", "bvredand"), g.term(BitVecSort(g.width()), d))
		}
		if w == 1 {
			ww := g.width()
			return rgApp("bvcomp", g.term(BitVecSort(ww), d), g.term(BitVecSort(ww), d))
		}
	}
	op := g.pickName("bvand", "bvor", "bvxor", "bvnand", "bvnor", "bvxnor", "bvadd", "bvsub", "bvmul",
		"bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr")
	return rgApp(op, g.term(s, d), g.term(s, d))
}

func (g *groundGen) stringTerm(d int) *Term {
	r := g.r
	small := func() *Term { return g.smallInt(d) }
	if g.theory == "regex" {
		switch r.IntN(5) {
		case 0:
			return rgApp(g.pickName("str.replace_re", "str.replace_re_all"), g.term(StringSort, d), g.term(RegLanSort, d), g.term(StringSort, d))
		case 1:
			return rgApp("str.++", g.term(StringSort, d), g.term(StringSort, d))
		}
		return g.leaf(StringSort)
	}
	switch r.IntN(9) {
	case 0:
		return rgApp("str.at", g.term(StringSort, d), small())
	case 1:
		return rgApp("str.substr", g.term(StringSort, d), small(), small())
	case 2:
		return rgApp(g.pickName("str.replace", "str.replace_all"), g.term(StringSort, d), g.term(StringSort, d), g.term(StringSort, d))
	case 3:
		return rgApp("str.from_int", g.term(IntSort, d))
	case 4:
		return rgApp("str.from_code", g.codeTerm(d))
	}
	return rgApp("str.++", g.terms(StringSort, d, 2+r.IntN(2))...)
}

// smallInt returns an Int term with a small value (string positions and lengths).
func (g *groundGen) smallInt(d int) *Term {
	if g.r.IntN(3) == 0 {
		return g.term(IntSort, d)
	}
	n := g.r.IntN(7) - 1
	return rgInt(int64(n))
}

// codeTerm returns an argument for str.from_code: near the interesting bounds mostly.
func (g *groundGen) codeTerm(d int) *Term {
	switch g.r.IntN(4) {
	case 0:
		return g.term(IntSort, d)
	case 1:
		return rgInt([]int64{-1, 0, 92, 127, 128, 0xFFFF, MaxChar, MaxChar + 1, 0x10FFFF, 0x110000}[g.r.IntN(10)])
	}
	return rgInt(int64(97 + g.r.IntN(4)))
}

func (g *groundGen) reTerm(d int) *Term {
	r := g.r
	switch r.IntN(11) {
	case 0:
		return rgApp("re.++", g.terms(RegLanSort, d, 2)...)
	case 1:
		return rgApp("re.union", g.terms(RegLanSort, d, 2)...)
	case 2:
		return rgApp("re.inter", g.terms(RegLanSort, d, 2)...)
	case 3:
		return rgApp("re.*", g.term(RegLanSort, d))
	case 4:
		return rgApp("re.+", g.term(RegLanSort, d))
	case 5:
		return rgApp("re.opt", g.term(RegLanSort, d))
	case 6:
		return rgApp("re.comp", g.term(RegLanSort, d))
	case 7:
		return rgApp("re.diff", g.terms(RegLanSort, d, 2)...)
	case 8:
		i := r.IntN(3)
		j := i + r.IntN(3) - 1
		if j < 0 {
			j = 0
		}
		return rgIndexed("re.loop", []int{i, j}, g.term(RegLanSort, d))
	case 9:
		return rgIndexed("re.^", []int{r.IntN(3)}, g.term(RegLanSort, d))
	}
	return rgApp("str.to_re", g.term(StringSort, d))
}

func rgInt(n int64) *Term {
	if n < 0 {
		return rgApp("-", &Term{Kind: KindNumeral, Lit: strconv.FormatInt(-n, 10)})
	}
	return &Term{Kind: KindNumeral, Lit: strconv.FormatInt(n, 10)}
}

func rgString(rs []rune) *Term {
	s := StringValue(rs).String()
	return &Term{Kind: KindString, Lit: strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)}
}

// leaf returns a literal of sort s.
func (g *groundGen) leaf(s *Sort) *Term {
	r := g.r
	switch {
	case s.Equal(BoolSort):
		return rgApp(g.pickName("true", "false"))
	case s.Equal(IntSort):
		if r.IntN(8) == 0 {
			return &Term{Kind: KindNumeral, Lit: new(big.Int).Abs(randomInt(r)).String()}
		}
		return rgInt(int64(r.IntN(13) - 4))
	case s.Equal(RealSort):
		switch r.IntN(3) {
		case 0:
			return rgApp("/", rgInt(int64(r.IntN(9)-4)), &Term{Kind: KindNumeral, Lit: strconv.Itoa(1 + r.IntN(6))})
		}
		lit := &Term{Kind: KindDecimal, Lit: []string{"0.0", "0.5", "1.0", "1.5", "2.25", "3.0", "0.125"}[r.IntN(7)]}
		if r.IntN(3) == 0 {
			return rgApp("-", lit)
		}
		return lit
	case s.Width() > 0:
		w := s.Width()
		v := RandomValue(r, s).(BVValue)
		switch {
		case w%4 == 0 && r.IntN(2) == 0:
			h := v.V.Text(16)
			return &Term{Kind: KindHex, Lit: strings.Repeat("0", w/4-len(h)) + h}
		case r.IntN(3) == 0:
			return rgIndexed("bv"+v.V.String(), []int{w})
		}
		return &Term{Kind: KindBinary, Lit: v.String()[2:]}
	case s.Equal(StringSort):
		if g.theory == "regex" {
			n := r.IntN(5)
			rs := make([]rune, n)
			for i := range rs {
				rs[i] = rune('a' + r.IntN(3))
			}
			return rgString(rs)
		}
		return rgString(randomRunes(r, r.IntN(4)))
	case s.Equal(RegLanSort):
		switch r.IntN(8) {
		case 0:
			return rgApp(g.pickName("re.allchar", "re.all", "re.none"))
		case 1, 2:
			a, b := rune('a'+r.IntN(3)), rune('a'+r.IntN(3))
			if r.IntN(6) == 0 {
				return rgApp("re.range", rgString([]rune{a, b}), rgString([]rune{b}))
			}
			return rgApp("re.range", rgString([]rune{a}), rgString([]rune{b}))
		}
		n := r.IntN(3)
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = rune('a' + r.IntN(3))
		}
		return rgApp("str.to_re", rgString(rs))
	case s.Name == "Array":
		return &Term{Kind: KindApp, Name: "const", As: s, Args: []*Term{g.leaf(s.Args[1])}}
	case s.DT != nil:
		return g.dtLeaf(s)
	}
	panic("smtgen: no literal of sort " + s.String())
}
