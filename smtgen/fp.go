package smtgen

import (
	"fmt"
	"math/big"
	"strings"
)

// RoundingModeSort is SMT-LIB's RoundingMode.
var RoundingModeSort = &Sort{Name: "RoundingMode"}

// FPSort returns (_ FloatingPoint e s); s counts the hidden bit, as in SMT-LIB.
func FPSort(e, s int) *Sort { return &Sort{Name: "FloatingPoint", Index: []int{e, s}} }

// maxFPExponentBits bounds the exponent width of the formats the checker accepts (the exponent
// field is an int); maxFPEvalExponentBits bounds the formats the evaluator computes in (Float128
// has 15): wider ones have values whose exact rationals are too long to compute with, and their
// arithmetic is undecided.
const (
	maxFPExponentBits     = 62
	maxFPEvalExponentBits = 24
)

// fpFormats maps the aliases Float16 ... Float128 to their exponent and significand widths.
var fpFormats = map[string][2]int{"Float16": {5, 11}, "Float32": {8, 24}, "Float64": {11, 53}, "Float128": {15, 113}}

// resolveFPSort returns the canonical sort of a FloatingPoint sort, its alias or RoundingMode.
func resolveFPSort(s *Sort) (*Sort, error) {
	if len(s.Args) != 0 {
		return nil, fmt.Errorf("ill-formed sort %s", s)
	}
	switch s.Name {
	case "RoundingMode":
		if len(s.Index) == 0 {
			return RoundingModeSort, nil
		}
	case "FloatingPoint":
		if len(s.Index) == 2 && s.Index[0] >= 2 && s.Index[1] >= 2 {
			if s.Index[0] > maxFPExponentBits {
				return nil, &UnsupportedError{"fp-format-too-large", s.String()}
			}
			return FPSort(s.Index[0], s.Index[1]), nil
		}
	default:
		if f, ok := fpFormats[s.Name]; ok && len(s.Index) == 0 {
			return FPSort(f[0], f[1]), nil
		}
	}
	return nil, fmt.Errorf("ill-formed sort %s", s)
}

// isFPSort reports whether s is a FloatingPoint sort (canonical form).
func isFPSort(s *Sort) bool { return s != nil && s.Name == "FloatingPoint" && len(s.Index) == 2 }

// RMValue is a RoundingMode value.
type RMValue uint8

// The five rounding modes.
const (
	RNE RMValue = iota // roundNearestTiesToEven
	RNA                // roundNearestTiesToAway
	RTP                // roundTowardPositive
	RTN                // roundTowardNegative
	RTZ                // roundTowardZero
)

// RoundingModes lists the five rounding modes.
var RoundingModes = []RMValue{RNE, RNA, RTP, RTN, RTZ}

var rmShort = [...]string{"RNE", "RNA", "RTP", "RTN", "RTZ"}
var rmLong = [...]string{"roundNearestTiesToEven", "roundNearestTiesToAway", "roundTowardPositive",
	"roundTowardNegative", "roundTowardZero"}

// rmByName maps both spellings of each rounding mode to it.
var rmByName = func() map[string]RMValue {
	m := map[string]RMValue{}
	for i := range rmShort {
		m[rmShort[i]], m[rmLong[i]] = RMValue(i), RMValue(i)
	}
	return m
}()

// Sort implements [Value].
func (RMValue) Sort() *Sort { return RoundingModeSort }

// String prints the short name, RNE ... RTZ.
func (r RMValue) String() string { return rmShort[r] }

// FPValue is a value of (_ FloatingPoint E S): its sign, biased exponent field (0 ≤ Exp < 2^E)
// and trailing significand field (0 ≤ Sig < 2^(S-1)). All NaNs are one value, kept as the quiet
// NaN with sign 0, so that [Equal] is SMT-LIB's = (NaN = NaN, +0 ≠ -0).
type FPValue struct {
	E, S int
	Neg  bool
	Exp  int
	Sig  *big.Int
}

// Sort implements [Value].
func (x FPValue) Sort() *Sort { return FPSort(x.E, x.S) }

// String prints (fp #bS #bE.. #bT..), or (_ NaN E S) for NaN.
func (x FPValue) String() string {
	if x.IsNaN() {
		return fmt.Sprintf("(_ NaN %d %d)", x.E, x.S)
	}
	sign := "#b0"
	if x.Neg {
		sign = "#b1"
	}
	return "(fp " + sign + " " + NewBVUint(x.E, uint64(x.Exp)).String() + " " + NewBV(x.S-1, x.Sig).String() + ")"
}

func (x FPValue) maxExp() int { return 1<<x.E - 1 }

// IsNaN reports whether x is NaN.
func (x FPValue) IsNaN() bool { return x.Exp == x.maxExp() && x.Sig.Sign() != 0 }

// IsInf reports whether x is an infinity.
func (x FPValue) IsInf() bool { return x.Exp == x.maxExp() && x.Sig.Sign() == 0 }

// IsZero reports whether x is a zero.
func (x FPValue) IsZero() bool { return x.Exp == 0 && x.Sig.Sign() == 0 }

// IsSubnormal reports whether x is subnormal.
func (x FPValue) IsSubnormal() bool { return x.Exp == 0 && x.Sig.Sign() != 0 }

// IsNormal reports whether x is normal.
func (x FPValue) IsNormal() bool { return x.Exp > 0 && x.Exp < x.maxExp() }

// Rat returns the value of a finite x (zero for ±0).
func (x FPValue) Rat() *big.Rat {
	m, q := x.mantissa()
	return ratTimes2(new(big.Rat).SetInt(m), q)
}

// mantissa returns the integer m ≥ 0 and exponent q with |x| = m·2^q (x finite).
func (x FPValue) mantissa() (*big.Int, int) {
	bias := 1<<(x.E-1) - 1
	if x.Exp == 0 {
		return new(big.Int).Set(x.Sig), 1 - bias - (x.S - 1)
	}
	m := new(big.Int).Lsh(big.NewInt(1), uint(x.S-1))
	return m.Or(m, x.Sig), x.Exp - bias - (x.S - 1)
}

// signedRat returns the value of a finite x with its sign.
func (x FPValue) signedRat() *big.Rat {
	r := x.Rat()
	if x.Neg {
		r.Neg(r)
	}
	return r
}

// ratTimes2 returns r·2^q (r is changed).
func ratTimes2(r *big.Rat, q int) *big.Rat {
	p := new(big.Int).Lsh(big.NewInt(1), uint(absInt(q)))
	if q >= 0 {
		return r.Mul(r, new(big.Rat).SetInt(p))
	}
	return r.Quo(r, new(big.Rat).SetInt(p))
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FPNaN returns the NaN of (_ FloatingPoint e s).
func FPNaN(e, s int) FPValue {
	return FPValue{E: e, S: s, Exp: 1<<e - 1, Sig: new(big.Int).Lsh(big.NewInt(1), uint(s-2))}
}

// FPInf returns the infinity of (_ FloatingPoint e s) with the sign neg.
func FPInf(e, s int, neg bool) FPValue {
	return FPValue{E: e, S: s, Neg: neg, Exp: 1<<e - 1, Sig: new(big.Int)}
}

// FPZero returns the zero of (_ FloatingPoint e s) with the sign neg.
func FPZero(e, s int, neg bool) FPValue { return FPValue{E: e, S: s, Neg: neg, Sig: new(big.Int)} }

// FPMaxFinite returns the finite value of largest magnitude with the sign neg.
func FPMaxFinite(e, s int, neg bool) FPValue {
	return FPValue{E: e, S: s, Neg: neg, Exp: 1<<e - 2, Sig: bvMask(s - 1)}
}

// NewFP returns the value with the given sign, exponent and significand fields (any NaN
// pattern gives the NaN).
func NewFP(e, s int, neg bool, exp int, sig *big.Int) FPValue {
	x := FPValue{E: e, S: s, Neg: neg, Exp: exp, Sig: new(big.Int).Set(sig)}
	if x.IsNaN() {
		return FPNaN(e, s)
	}
	return x
}

// FPFromBits returns the value whose IEEE interchange encoding (sign, exponent, significand, e+s
// bits) is bits.
func FPFromBits(e, s int, bits *big.Int) FPValue {
	sig := new(big.Int).And(bits, bvMask(s-1))
	exp := new(big.Int).Rsh(bits, uint(s-1))
	exp.And(exp, bvMask(e))
	neg := bits.Bit(e+s-1) == 1
	return NewFP(e, s, neg, int(exp.Int64()), sig)
}

// FPRound returns the value of (_ FloatingPoint e s) nearest to r in mode rm, as IEEE 754
// rounds (to infinity or the largest finite number on overflow, subnormals on underflow). A
// zero r gives +0.
func FPRound(e, s int, rm RMValue, r *big.Rat) FPValue {
	if r.Sign() == 0 {
		return FPZero(e, s, false)
	}
	return fpRoundRat(e, s, rm, r.Sign() < 0, new(big.Rat).Abs(r))
}

// fpRoundRat rounds the magnitude x > 0 with the sign neg.
func fpRoundRat(e, s int, rm RMValue, neg bool, x *big.Rat) FPValue {
	num, den := x.Num(), x.Denom()
	k := num.BitLen() - den.BitLen() // floor(log2 x) is k or k-1
	if cmpShifted(num, den, k) < 0 {
		k--
	}
	emin := 2 - 1<<(e-1)
	qe := max(k, emin) - (s - 1)
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	if qe < 0 {
		n.Lsh(n, uint(-qe))
	} else {
		d.Lsh(d, uint(qe))
	}
	i, rem := new(big.Int).QuoRem(n, d, new(big.Int))
	half := new(big.Int).Lsh(rem, 1).Cmp(d)
	return fpFinish(e, s, rm, neg, i, half, rem.Sign() != 0, qe)
}

// cmpShifted compares num with den·2^k.
func cmpShifted(num, den *big.Int, k int) int {
	if k >= 0 {
		return num.Cmp(new(big.Int).Lsh(den, uint(k)))
	}
	return new(big.Int).Lsh(num, uint(-k)).Cmp(den)
}

// fpFinish rounds the magnitude (i + f)·2^qe, where f in [0, 1) is below, at or above one half
// as half is -1, 0 or 1 and is nonzero when inexact, to an integer significand, and encodes it.
// qe is the quantum of the result: max(exponent, emin) - (s-1).
func fpFinish(e, s int, rm RMValue, neg bool, i *big.Int, half int, inexact bool, qe int) FPValue {
	if inexact && roundsUp(rm, neg, i, half) {
		i.Add(i, big.NewInt(1))
	}
	if i.BitLen() > s {
		i.Rsh(i, 1)
		qe++
	}
	bias := 1<<(e-1) - 1
	if i.Sign() == 0 {
		return FPZero(e, s, neg)
	}
	if i.BitLen() < s {
		return FPValue{E: e, S: s, Neg: neg, Sig: i}
	}
	exp := qe + s - 1 + bias
	if exp >= 1<<e-1 {
		toInf := rm == RNE || rm == RNA || (rm == RTP && !neg) || (rm == RTN && neg)
		if toInf {
			return FPInf(e, s, neg)
		}
		return FPMaxFinite(e, s, neg)
	}
	return FPValue{E: e, S: s, Neg: neg, Exp: exp, Sig: i.And(i, bvMask(s-1))}
}

// fpSqrt returns the correctly rounded square root of a finite x > 0.
func fpSqrt(rm RMValue, x FPValue) FPValue {
	e, s := x.E, x.S
	m, q := x.mantissa()
	kx := m.BitLen() - 1 + q // floor(log2 x)
	k := kx >> 1             // floor(log2 sqrt x), arithmetic shift floors
	emin := 2 - 1<<(e-1)
	qe := max(k, emin) - (s - 1)
	j := 2 - qe // sqrt(x)·2^j has at least two bits below the quantum
	shift := q + 2*j
	big2 := new(big.Int)
	exact := true
	if shift >= 0 {
		big2.Lsh(m, uint(shift))
	} else {
		big2.Rsh(m, uint(-shift))
		exact = new(big.Int).Lsh(big2, uint(-shift)).Cmp(m) == 0
	}
	t := new(big.Int).Sqrt(big2)
	exact = exact && new(big.Int).Mul(t, t).Cmp(big2) == 0
	low := uint(qe + j)
	i := new(big.Int).Rsh(t, low)
	rem := new(big.Int).And(t, bvMask(int(low)))
	halfV := new(big.Int).Lsh(big.NewInt(1), low-1)
	half := rem.Cmp(halfV)
	if half == 0 && !exact {
		half = 1
	}
	return fpFinish(e, s, rm, false, i, half, rem.Sign() != 0 || !exact, qe)
}

// parseFPValue reads a solver's FloatingPoint or RoundingMode value: (fp s e m) with bit-vector
// literals, the literals (_ +zero e s), (_ -zero e s), (_ +oo e s), (_ -oo e s), (_ NaN e s),
// ((_ to_fp e s) bv) of a literal, and the rounding modes by either name.
func parseFPValue(t *Term, s *Sort) (Value, error) {
	bad := fmt.Errorf("cannot read %s as a value of sort %s", briefTerm(t), s)
	if s.Equal(RoundingModeSort) {
		if t.Kind == KindApp && len(t.Args) == 0 && len(t.Index) == 0 {
			if r, ok := rmByName[t.Name]; ok {
				return r, nil
			}
		}
		return nil, bad
	}
	e, sb := s.Index[0], s.Index[1]
	if t.Kind != KindApp {
		return nil, bad
	}
	switch {
	case t.Name == "fp" && len(t.Args) == 3 && len(t.Index) == 0:
		var bits [3]BVValue
		for i, a := range t.Args {
			v, err := ParseValue(a, BitVecSort([]int{1, e, sb - 1}[i]))
			if err != nil {
				return nil, bad
			}
			bits[i] = v.(BVValue)
		}
		return NewFP(e, sb, bits[0].V.Sign() != 0, int(bits[1].V.Int64()), bits[2].V), nil
	case len(t.Args) == 0 && len(t.Index) == 2 && t.Index[0] == e && t.Index[1] == sb:
		switch t.Name {
		case "+zero", "-zero":
			return FPZero(e, sb, t.Name[0] == '-'), nil
		case "+oo", "-oo":
			return FPInf(e, sb, t.Name[0] == '-'), nil
		case "NaN":
			return FPNaN(e, sb), nil
		}
	case t.Name == "to_fp" && len(t.Args) == 1 && len(t.Index) == 2 && t.Index[0] == e && t.Index[1] == sb:
		v, err := ParseValue(t.Args[0], BitVecSort(e+sb))
		if err != nil {
			return nil, bad
		}
		return FPFromBits(e, sb, v.(BVValue).V), nil
	}
	return nil, bad
}

// fpFormatName prints a format as the alias when it has one.
func fpFormatName(s *Sort) string {
	for name, f := range fpFormats {
		if s.Index[0] == f[0] && s.Index[1] == f[1] {
			return name
		}
	}
	return s.String()
}

// ParseFPFormat reads a FloatingPoint format: Float16, Float32, Float64, Float128 or
// (_ FloatingPoint e s).
func ParseFPFormat(text string) (*Sort, error) {
	s, err := ParseSort(strings.TrimSpace(text))
	if err == nil {
		s, err = resolveFPSort(s)
	}
	if err != nil || !isFPSort(s) {
		return nil, fmt.Errorf("bad floating-point format %q: want Float16, Float32, Float64, Float128 or (_ FloatingPoint e s)", text)
	}
	return s, nil
}

// roundsUp reports whether an inexact magnitude truncated to i rounds away from zero under rm;
// half compares the dropped part with one half of a unit of i (-1, 0 or 1), and neg is the sign.
func roundsUp(rm RMValue, neg bool, i *big.Int, half int) bool {
	switch rm {
	case RNE:
		return half > 0 || (half == 0 && i.Bit(0) == 1)
	case RNA:
		return half >= 0
	case RTP:
		return !neg
	case RTN:
		return neg
	}
	return false
}
