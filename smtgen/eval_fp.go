package smtgen

import (
	"fmt"
	"math/big"
	"strings"
)

// fpBuiltinNames lists the function symbols of the FloatingPoint theory.
var fpBuiltinNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`fp +zero -zero +oo -oo NaN fp.abs fp.neg fp.add fp.sub fp.mul
		fp.div fp.fma fp.sqrt fp.rem fp.roundToIntegral fp.min fp.max fp.leq fp.lt fp.geq fp.gt fp.eq
		fp.isNormal fp.isSubnormal fp.isZero fp.isInfinite fp.isNaN fp.isNegative fp.isPositive
		to_fp to_fp_unsigned fp.to_ubv fp.to_sbv fp.to_real`) {
		m[n] = true
	}
	for n := range rmByName {
		m[n] = true
	}
	return m
}()

// fpBuiltin reports whether name is a symbol of the FloatingPoint theory.
func fpBuiltin(name string) bool { return fpBuiltinNames[name] }

// fpAppSort computes the sort of a FloatingPoint application t (Args checked); ok is false when
// t is not one.
func fpAppSort(t *Term) (s *Sort, ok bool, err error) {
	if !fpBuiltinNames[t.Name] {
		return nil, false, nil
	}
	n := len(t.Args)
	bad := func(format string, a ...any) (*Sort, bool, error) {
		return nil, true, fmt.Errorf("sort error in %s: %s", briefTerm(t), fmt.Sprintf(format, a...))
	}
	isFP := func(i int) bool { return isFPSort(t.Args[i].Sort) }
	isRM := func(i int) bool { return t.Args[i].Sort.Equal(RoundingModeSort) }
	sameFP := func(from int) bool {
		for i := from; i < n; i++ {
			if !isFP(i) || !t.Args[i].Sort.Equal(t.Args[from].Sort) {
				return false
			}
		}
		return n > from
	}
	format := func() (*Sort, bool) {
		if len(t.Index) == 2 && t.Index[0] >= 2 && t.Index[1] >= 2 && t.Index[0] <= maxFPExponentBits {
			return FPSort(t.Index[0], t.Index[1]), true
		}
		return nil, false
	}
	if _, isRMName := rmByName[t.Name]; isRMName {
		if n == 0 && len(t.Index) == 0 {
			return RoundingModeSort, true, nil
		}
		return bad("a rounding mode takes no arguments")
	}
	indexed := map[string]int{"+zero": 2, "-zero": 2, "+oo": 2, "-oo": 2, "NaN": 2, "to_fp": 2,
		"to_fp_unsigned": 2, "fp.to_ubv": 1, "fp.to_sbv": 1}[t.Name]
	if len(t.Index) != indexed {
		return bad("want %d indices", indexed)
	}
	switch t.Name {
	case "+zero", "-zero", "+oo", "-oo", "NaN":
		if f, ok := format(); ok && n == 0 {
			return f, true, nil
		}
	case "fp":
		if n == 3 && t.Args[0].Sort.Width() == 1 && t.Args[1].Sort.Width() >= 2 && t.Args[2].Sort.Width() >= 1 {
			if t.Args[1].Sort.Width() > maxFPExponentBits {
				return nil, true, &UnsupportedError{"fp-format-too-large", briefTerm(t)}
			}
			return FPSort(t.Args[1].Sort.Width(), t.Args[2].Sort.Width()+1), true, nil
		}
	case "fp.abs", "fp.neg":
		if n == 1 && isFP(0) {
			return t.Args[0].Sort, true, nil
		}
	case "fp.add", "fp.sub", "fp.mul", "fp.div":
		if n == 3 && isRM(0) && sameFP(1) {
			return t.Args[1].Sort, true, nil
		}
	case "fp.fma":
		if n == 4 && isRM(0) && sameFP(1) {
			return t.Args[1].Sort, true, nil
		}
	case "fp.sqrt", "fp.roundToIntegral":
		if n == 2 && isRM(0) && isFP(1) {
			return t.Args[1].Sort, true, nil
		}
	case "fp.rem", "fp.min", "fp.max":
		if n == 2 && sameFP(0) {
			return t.Args[0].Sort, true, nil
		}
	case "fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq":
		if n >= 2 && sameFP(0) {
			return BoolSort, true, nil
		}
	case "fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite", "fp.isNaN", "fp.isNegative", "fp.isPositive":
		if n == 1 && isFP(0) {
			return BoolSort, true, nil
		}
	case "fp.to_real":
		if n == 1 && isFP(0) {
			return RealSort, true, nil
		}
	case "fp.to_ubv", "fp.to_sbv":
		if n == 2 && isRM(0) && isFP(1) && t.Index[0] >= 1 {
			return BitVecSort(t.Index[0]), true, nil
		}
	case "to_fp", "to_fp_unsigned":
		f, ok := format()
		if !ok {
			return bad("bad format")
		}
		switch {
		case t.Name == "to_fp" && n == 1 && t.Args[0].Sort.Width() == f.Index[0]+f.Index[1]:
			return f, true, nil
		case n == 2 && isRM(0) && t.Args[1].Sort.Width() > 0:
			return f, true, nil
		case t.Name == "to_fp" && n == 2 && isRM(0) && (isFP(1) || t.Args[1].Sort.Equal(RealSort)):
			return f, true, nil
		case t.Name == "to_fp" && n == 2 && isRM(0) && t.Args[1].Sort.Equal(IntSort):
			t.Args[1] = toReal(t.Args[1])
			return f, true, nil
		}
	}
	return bad("arguments of sorts %s", argSorts(t))
}

// fpPartialTable returns the name of the table of pinned values of an FP operation whose value
// SMT-LIB leaves unspecified for some arguments, or "": fp.min and fp.max (of +0 and -0),
// fp.to_real (of infinities and NaN), (_ fp.to_ubv m) and (_ fp.to_sbv m) (of infinities, NaN
// and values out of range).
func fpPartialTable(t *Term) string {
	if t.Kind != KindApp {
		return ""
	}
	switch {
	case (t.Name == "fp.min" || t.Name == "fp.max" || t.Name == "fp.to_real") && len(t.Index) == 0:
		return t.Name
	case (t.Name == "fp.to_ubv" || t.Name == "fp.to_sbv") && len(t.Index) == 1:
		return fmt.Sprintf("(_ %s %d)", t.Name, t.Index[0])
	}
	return ""
}

// fpPinKey returns the table and key under which [Model.Pin] records the solver's value of app
// when app is an FP application with an unspecified value at its arguments' values (table ""
// when the value is specified there); ok is false when app is no such application.
func (m *Model) fpPinKey(app *Term) (table string, key []Value, ok bool, err error) {
	table = fpPartialTable(app)
	if table == "" {
		return "", nil, false, nil
	}
	args := make([]Value, len(app.Args))
	for i, a := range app.Args {
		if args[i], err = m.Eval(a); err != nil {
			return "", nil, true, err
		}
	}
	if !fpUnspecified(app, args) {
		return "", nil, true, nil
	}
	return table, args, true, nil
}

// fpUnspecified reports whether SMT-LIB leaves the value of t at args unspecified.
func fpUnspecified(t *Term, args []Value) bool {
	switch t.Name {
	case "fp.min", "fp.max":
		x, y := args[0].(FPValue), args[1].(FPValue)
		return x.IsZero() && y.IsZero() && x.Neg != y.Neg
	case "fp.to_real":
		x := args[0].(FPValue)
		return x.IsNaN() || x.IsInf()
	case "fp.to_ubv", "fp.to_sbv":
		_, ok := fpToBV(t.Name == "fp.to_sbv", t.Index[0], args[0].(RMValue), args[1].(FPValue))
		return !ok
	}
	return false
}

// fpPinned returns the pinned value of t at args.
func (ev *evaluator) fpPinned(t *Term, args []Value) (Value, error) {
	if v, ok := ev.m.Funcs[fpPartialTable(t)].Lookup(args); ok {
		return v, nil
	}
	return nil, undecided("%s at %s is unspecified and not pinned", briefTerm(t), valueList(args))
}

// evalFP evaluates the FloatingPoint operations; ok is false when t is not one.
func (ev *evaluator) evalFP(t *Term, args []Value) (v Value, ok bool, err error) {
	if !fpBuiltinNames[t.Name] {
		return nil, false, nil
	}
	if r, isRM := rmByName[t.Name]; isRM {
		return r, true, nil
	}
	fp := func(i int) FPValue { return args[i].(FPValue) }
	if fpTooWide(t, args) {
		return nil, true, undecided("%s: exponents wider than %d bits are not evaluated", briefTerm(t), maxFPEvalExponentBits)
	}
	var rm RMValue
	if len(args) > 0 {
		rm, _ = args[0].(RMValue)
	}
	switch t.Name {
	case "+zero", "-zero":
		return FPZero(t.Index[0], t.Index[1], t.Name[0] == '-'), true, nil
	case "+oo", "-oo":
		return FPInf(t.Index[0], t.Index[1], t.Name[0] == '-'), true, nil
	case "NaN":
		return FPNaN(t.Index[0], t.Index[1]), true, nil
	case "fp":
		s, e, m := args[0].(BVValue), args[1].(BVValue), args[2].(BVValue)
		return NewFP(e.W, m.W+1, s.V.Sign() != 0, int(e.V.Int64()), m.V), true, nil
	case "fp.abs":
		x := fp(0)
		if !x.IsNaN() {
			x.Neg = false
		}
		return x, true, nil
	case "fp.neg":
		return fpNeg(fp(0)), true, nil
	case "fp.add":
		return fpAdd(rm, fp(1), fp(2)), true, nil
	case "fp.sub":
		return fpAdd(rm, fp(1), fpNeg(fp(2))), true, nil
	case "fp.mul":
		return fpMul(rm, fp(1), fp(2)), true, nil
	case "fp.div":
		return fpDiv(rm, fp(1), fp(2)), true, nil
	case "fp.fma":
		return fpFMA(rm, fp(1), fp(2), fp(3)), true, nil
	case "fp.sqrt":
		x := fp(1)
		switch {
		case x.IsNaN() || x.IsZero() || (x.IsInf() && !x.Neg):
			return x, true, nil
		case x.Neg:
			return FPNaN(x.E, x.S), true, nil
		}
		return fpSqrt(rm, x), true, nil
	case "fp.rem":
		return fpRem(fp(0), fp(1)), true, nil
	case "fp.roundToIntegral":
		return fpRoundToIntegral(rm, fp(1)), true, nil
	case "fp.min", "fp.max":
		x, y := fp(0), fp(1)
		switch {
		case x.IsNaN():
			return y, true, nil
		case y.IsNaN():
			return x, true, nil
		case fpUnspecified(t, args):
			v, err := ev.fpPinned(t, args)
			return v, true, err
		}
		c := fpCompare(x, y)
		if (t.Name == "fp.min") == (c <= 0) {
			return x, true, nil
		}
		return y, true, nil
	case "fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq":
		for i := 0; i+1 < len(args); i++ {
			x, y := fp(i), fp(i+1)
			if x.IsNaN() || y.IsNaN() {
				return BoolValue(false), true, nil
			}
			c := fpCompare(x, y)
			holds := map[string]bool{"fp.leq": c <= 0, "fp.lt": c < 0, "fp.geq": c >= 0, "fp.gt": c > 0, "fp.eq": c == 0}[t.Name]
			if !holds {
				return BoolValue(false), true, nil
			}
		}
		return BoolValue(true), true, nil
	case "fp.isNormal":
		return BoolValue(fp(0).IsNormal()), true, nil
	case "fp.isSubnormal":
		return BoolValue(fp(0).IsSubnormal()), true, nil
	case "fp.isZero":
		return BoolValue(fp(0).IsZero()), true, nil
	case "fp.isInfinite":
		return BoolValue(fp(0).IsInf()), true, nil
	case "fp.isNaN":
		return BoolValue(fp(0).IsNaN()), true, nil
	case "fp.isNegative":
		return BoolValue(!fp(0).IsNaN() && fp(0).Neg), true, nil
	case "fp.isPositive":
		return BoolValue(!fp(0).IsNaN() && !fp(0).Neg), true, nil
	case "fp.to_real":
		x := fp(0)
		if x.IsNaN() || x.IsInf() {
			v, err := ev.fpPinned(t, args)
			return v, true, err
		}
		return RealValue{x.signedRat()}, true, nil
	case "fp.to_ubv", "fp.to_sbv":
		if v, ok := fpToBV(t.Name == "fp.to_sbv", t.Index[0], rm, fp(1)); ok {
			return v, true, nil
		}
		v, err := ev.fpPinned(t, args)
		return v, true, err
	case "to_fp", "to_fp_unsigned":
		e, s := t.Index[0], t.Index[1]
		if len(args) == 1 {
			return FPFromBits(e, s, args[0].(BVValue).V), true, nil
		}
		switch x := args[1].(type) {
		case FPValue:
			if x.IsNaN() {
				return FPNaN(e, s), true, nil
			}
			if x.IsInf() {
				return FPInf(e, s, x.Neg), true, nil
			}
			if x.IsZero() {
				return FPZero(e, s, x.Neg), true, nil
			}
			return fpRoundRat(e, s, rm, x.Neg, x.Rat()), true, nil
		case RealValue:
			return FPRound(e, s, rm, x.V), true, nil
		case IntValue:
			return FPRound(e, s, rm, new(big.Rat).SetInt(x.V)), true, nil
		case BVValue:
			n := x.V
			if t.Name == "to_fp" {
				n = bvSigned(x)
			}
			return FPRound(e, s, rm, new(big.Rat).SetInt(n)), true, nil
		}
	}
	return nil, true, fmt.Errorf("cannot evaluate %s", briefTerm(t))
}

// fpTooWide reports whether t computes with rationals (rounds or compares) in a format whose
// exponent is wider than maxFPEvalExponentBits.
func fpTooWide(t *Term, args []Value) bool {
	switch t.Name {
	case "fp", "fp.abs", "fp.neg", "fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite",
		"fp.isNaN", "fp.isNegative", "fp.isPositive", "+zero", "-zero", "+oo", "-oo", "NaN":
		return false
	}
	if isFPSort(t.Sort) && t.Sort.Index[0] > maxFPEvalExponentBits {
		return true
	}
	for _, a := range args {
		if x, ok := a.(FPValue); ok && x.E > maxFPEvalExponentBits {
			return true
		}
	}
	return false
}

// fpNeg flips the sign of x (NaN stays the NaN).
func fpNeg(x FPValue) FPValue {
	if x.IsNaN() {
		return x
	}
	x.Neg = !x.Neg
	return x
}

// fpCompare orders two values that are not NaN (-0 and +0 are equal).
func fpCompare(x, y FPValue) int {
	switch {
	case x.IsInf() && y.IsInf():
		return fpSignRank(x) - fpSignRank(y)
	case x.IsInf():
		if x.Neg {
			return -1
		}
		return 1
	case y.IsInf():
		if y.Neg {
			return 1
		}
		return -1
	}
	return x.signedRat().Cmp(y.signedRat())
}

func fpSignRank(x FPValue) int {
	if x.Neg {
		return -1
	}
	return 1
}

// fpSum rounds the exact sum r of two finite values (one of them nonzero, or both zero with
// signs negX and negY): an exact zero sum is +0, or -0 in RTN, and -0 when both zeros are -0.
func fpSum(e, s int, rm RMValue, r *big.Rat, zeros bool, negX, negY bool) FPValue {
	if r.Sign() != 0 {
		return fpRoundRat(e, s, rm, r.Sign() < 0, r.Abs(r))
	}
	if zeros && negX == negY {
		return FPZero(e, s, negX)
	}
	return FPZero(e, s, rm == RTN)
}

// fpAdd is fp.add.
func fpAdd(rm RMValue, x, y FPValue) FPValue {
	switch {
	case x.IsNaN() || y.IsNaN() || (x.IsInf() && y.IsInf() && x.Neg != y.Neg):
		return FPNaN(x.E, x.S)
	case x.IsInf():
		return x
	case y.IsInf():
		return y
	}
	r := new(big.Rat).Add(x.signedRat(), y.signedRat())
	return fpSum(x.E, x.S, rm, r, x.IsZero() && y.IsZero(), x.Neg, y.Neg)
}

// fpMul is fp.mul.
func fpMul(rm RMValue, x, y FPValue) FPValue {
	neg := x.Neg != y.Neg
	switch {
	case x.IsNaN() || y.IsNaN() || (x.IsInf() && y.IsZero()) || (x.IsZero() && y.IsInf()):
		return FPNaN(x.E, x.S)
	case x.IsInf() || y.IsInf():
		return FPInf(x.E, x.S, neg)
	case x.IsZero() || y.IsZero():
		return FPZero(x.E, x.S, neg)
	}
	return fpRoundRat(x.E, x.S, rm, neg, new(big.Rat).Mul(x.Rat(), y.Rat()))
}

// fpDiv is fp.div.
func fpDiv(rm RMValue, x, y FPValue) FPValue {
	neg := x.Neg != y.Neg
	switch {
	case x.IsNaN() || y.IsNaN() || (x.IsInf() && y.IsInf()) || (x.IsZero() && y.IsZero()):
		return FPNaN(x.E, x.S)
	case x.IsInf() || y.IsZero():
		return FPInf(x.E, x.S, neg)
	case y.IsInf() || x.IsZero():
		return FPZero(x.E, x.S, neg)
	}
	return fpRoundRat(x.E, x.S, rm, neg, new(big.Rat).Quo(x.Rat(), y.Rat()))
}

// fpFMA is fp.fma: x·y+z rounded once.
func fpFMA(rm RMValue, x, y, z FPValue) FPValue {
	pneg := x.Neg != y.Neg
	switch {
	case x.IsNaN() || y.IsNaN() || z.IsNaN() || (x.IsInf() && y.IsZero()) || (x.IsZero() && y.IsInf()):
		return FPNaN(x.E, x.S)
	case x.IsInf() || y.IsInf():
		if z.IsInf() && z.Neg != pneg {
			return FPNaN(x.E, x.S)
		}
		return FPInf(x.E, x.S, pneg)
	case z.IsInf():
		return z
	}
	p := new(big.Rat).Mul(x.signedRat(), y.signedRat())
	pzero := x.IsZero() || y.IsZero()
	r := p.Add(p, z.signedRat())
	return fpSum(x.E, x.S, rm, r, pzero && z.IsZero(), pneg, z.Neg)
}

// fpRem is fp.rem: x - y·n with n the integer nearest x/y, ties to even.
func fpRem(x, y FPValue) FPValue {
	switch {
	case x.IsNaN() || y.IsNaN() || x.IsInf() || y.IsZero():
		return FPNaN(x.E, x.S)
	case y.IsInf() || x.IsZero():
		return x
	}
	xr, yr := x.signedRat(), y.signedRat()
	n := ratRoundInt(new(big.Rat).Quo(xr, yr), RNE)
	r := new(big.Rat).Sub(xr, new(big.Rat).Mul(yr, new(big.Rat).SetInt(n)))
	if r.Sign() == 0 {
		return FPZero(x.E, x.S, x.Neg)
	}
	return FPRound(x.E, x.S, RNE, r)
}

// fpRoundToIntegral is fp.roundToIntegral.
func fpRoundToIntegral(rm RMValue, x FPValue) FPValue {
	if x.IsNaN() || x.IsInf() || x.IsZero() {
		return x
	}
	n := ratRoundInt(x.signedRat(), rm)
	if n.Sign() == 0 {
		return FPZero(x.E, x.S, x.Neg)
	}
	return FPRound(x.E, x.S, rm, new(big.Rat).SetInt(n))
}

// ratRoundInt rounds r to an integer in mode rm.
func ratRoundInt(r *big.Rat, rm RMValue) *big.Int {
	neg := r.Sign() < 0
	a := new(big.Rat).Abs(r)
	i, rem := new(big.Int).QuoRem(a.Num(), a.Denom(), new(big.Int))
	if rem.Sign() != 0 {
		if roundsUp(rm, neg, i, new(big.Int).Lsh(rem, 1).Cmp(a.Denom())) {
			i.Add(i, big.NewInt(1))
		}
	}
	if neg {
		i.Neg(i)
	}
	return i
}

// fpToBV converts x to an m-bit integer (signed when signed) rounded in mode rm; ok is false
// when the value is unspecified (NaN, an infinity, out of range).
func fpToBV(signed bool, m int, rm RMValue, x FPValue) (BVValue, bool) {
	if x.IsNaN() || x.IsInf() {
		return BVValue{}, false
	}
	n := ratRoundInt(x.signedRat(), rm)
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(m)) // lo ≤ n < hi
	if signed {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	if n.Cmp(lo) < 0 || n.Cmp(hi) >= 0 {
		return BVValue{}, false
	}
	return NewBV(m, n), true
}

// fpCandidates returns the values quantifiers try for an FP sort (the zeros, the infinities, NaN
// and one) or RoundingMode (all five).
func fpCandidates(s *Sort) []Value {
	if s.Equal(RoundingModeSort) {
		out := make([]Value, len(RoundingModes))
		for i, r := range RoundingModes {
			out[i] = r
		}
		return out
	}
	e, p := s.Index[0], s.Index[1]
	return []Value{FPZero(e, p, false), FPZero(e, p, true), FPInf(e, p, false), FPInf(e, p, true),
		FPNaN(e, p), NewFP(e, p, false, 1<<(e-1)-1, new(big.Int))}
}
