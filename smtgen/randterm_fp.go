package smtgen

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"strings"
)

// FPOps lists the operations [RandomFPTerm] can be restricted to: the FloatingPoint theory's
// functions and predicates by their SMT-LIB names, = on floats, and the conversions to_fp.bits
// ((_ to_fp e s) of a bit-vector), to_fp.fp (from another format), to_fp.real, to_fp.sbv,
// to_fp_unsigned, fp.to_ubv, fp.to_sbv and fp.to_real.
var FPOps = []string{"fp", "fp.abs", "fp.neg", "fp.add", "fp.sub", "fp.mul", "fp.div", "fp.fma",
	"fp.sqrt", "fp.rem", "fp.roundToIntegral", "fp.min", "fp.max", "fp.leq", "fp.lt", "fp.geq",
	"fp.gt", "fp.eq", "=", "fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite", "fp.isNaN",
	"fp.isNegative", "fp.isPositive", "to_fp.bits", "to_fp.fp", "to_fp.real", "to_fp.sbv",
	"to_fp_unsigned", "fp.to_ubv", "fp.to_sbv", "fp.to_real"}

// FPFormats lists the formats of the self-check's table: Float16, Float32, Float64 and the
// small (_ FloatingPoint 3 5), whose every value is near a boundary.
var FPFormats = []*Sort{FPSort(5, 11), FPSort(8, 24), FPSort(11, 53), FPSort(3, 5)}

// RandomFPTerm returns a random ground term whose root is op (one of [FPOps]; "" for any) over
// the format (an FP sort; nil for a random one of [FPFormats]), at most depth deep, sort-checked.
// The operands are mostly values near the special cases (zeros, subnormals, the smallest and
// largest normals, infinities, NaN, values whose sums and products fall halfway between two
// floats), the rounding modes all five, and sometimes terms of the same operation. It returns
// nil for an unknown op.
func RandomFPTerm(r *rand.Rand, op string, format *Sort, depth int) *Term {
	t := randomFPTerm(r, op, format, depth)
	if t == nil {
		return nil
	}
	if err := NewEnv("ALL").CheckTerm(t); err != nil {
		panic(fmt.Sprintf("smtgen: RandomFPTerm built an ill-sorted term: %v", err))
	}
	return t
}

func randomFPTerm(r *rand.Rand, op string, format *Sort, depth int) *Term {
	if op == "" {
		op = FPOps[r.IntN(len(FPOps))]
	} else if !validFPOp(op) {
		return nil
	}
	if format == nil {
		format = FPFormats[r.IntN(len(FPFormats))]
	}
	g := &fpGen{r: r, op: op}
	return g.app(op, format, depth)
}

func validFPOp(op string) bool {
	for _, o := range FPOps {
		if o == op {
			return true
		}
	}
	return false
}

// fpGen generates the terms of one operation.
type fpGen struct {
	r  *rand.Rand
	op string
}

// operand returns an FP term of sort f: a value, or (less often) an application of the
// generator's operation when that has sort f.
func (g *fpGen) operand(f *Sort, depth int) *Term {
	if depth > 0 && g.r.IntN(3) == 0 && fpOpKeepsFormat(g.op) {
		return g.app(g.op, f, depth-1)
	}
	return fpLeaf(g.r, f)
}

// fpOpKeepsFormat reports whether op's result has the sort of its FP operands.
func fpOpKeepsFormat(op string) bool {
	switch op {
	case "fp.abs", "fp.neg", "fp.add", "fp.sub", "fp.mul", "fp.div", "fp.fma", "fp.sqrt", "fp.rem",
		"fp.roundToIntegral", "fp.min", "fp.max":
		return true
	}
	return false
}

// app returns an application of op over the format f.
func (g *fpGen) app(op string, f *Sort, depth int) *Term {
	r := g.r
	e, s := f.Index[0], f.Index[1]
	x := func() *Term { return g.operand(f, depth) }
	switch op {
	case "fp":
		v := randomFPValue(r, f).(FPValue)
		if v.IsNaN() {
			v.Sig = new(big.Int).Add(big.NewInt(int64(r.IntN(3))), big.NewInt(1)) // any NaN pattern
			v.Sig.And(v.Sig, bvMask(s-1))
			if v.Sig.Sign() == 0 {
				v.Sig.SetInt64(1)
			}
		}
		sign := int64(0)
		if v.Neg {
			sign = 1
		}
		return rgApp("fp", bvLit(NewBVUint(1, uint64(sign))), bvLit(NewBVUint(e, uint64(v.Exp))), bvLit(NewBV(s-1, v.Sig)))
	case "fp.abs", "fp.neg", "fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite", "fp.isNaN",
		"fp.isNegative", "fp.isPositive", "fp.to_real":
		return rgApp(op, x())
	case "fp.add", "fp.sub", "fp.mul", "fp.div":
		return rgApp(op, fpRMLeaf(r), x(), x())
	case "fp.fma":
		return rgApp(op, fpRMLeaf(r), x(), x(), x())
	case "fp.sqrt", "fp.roundToIntegral":
		return rgApp(op, fpRMLeaf(r), x())
	case "fp.rem", "fp.min", "fp.max", "=":
		return rgApp(op, x(), x())
	case "fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq":
		args := []*Term{x(), x()}
		if r.IntN(4) == 0 {
			args = append(args, x())
		}
		return rgApp(op, args...)
	case "to_fp.bits":
		return rgIndexed("to_fp", []int{e, s}, bvLit(RandomValue(r, BitVecSort(e+s)).(BVValue)))
	case "to_fp.fp":
		from := FPFormats[r.IntN(len(FPFormats))]
		return rgIndexed("to_fp", []int{e, s}, fpRMLeaf(r), fpLeaf(r, from))
	case "to_fp.real":
		return rgIndexed("to_fp", []int{e, s}, fpRMLeaf(r), fpRealLeaf(r, f))
	case "to_fp.sbv", "to_fp_unsigned":
		w := []int{1, 3, 8, 16, 32, 64, 65}[r.IntN(7)]
		name := "to_fp"
		if op == "to_fp_unsigned" {
			name = op
		}
		return rgIndexed(name, []int{e, s}, fpRMLeaf(r), bvLit(RandomValue(r, BitVecSort(w)).(BVValue)))
	case "fp.to_ubv", "fp.to_sbv":
		m := []int{1, 2, 4, 8, 16, 32, 64}[r.IntN(7)]
		return rgIndexed(op, []int{m}, fpRMLeaf(r), x())
	}
	return nil
}

// bvLit returns the #b literal of v.
func bvLit(v BVValue) *Term { return &Term{Kind: KindBinary, Lit: v.String()[2:]} }

// fpRMLeaf returns a rounding mode by its short or long name.
func fpRMLeaf(r *rand.Rand) *Term {
	i := r.IntN(5)
	if r.IntN(4) == 0 {
		return rgApp(rmLong[i])
	}
	return rgApp(rmShort[i])
}

// fpLeaf returns a literal of the format f: (fp ...), or one of the named literals.
func fpLeaf(r *rand.Rand, f *Sort) *Term {
	v := randomFPValue(r, f).(FPValue)
	e, s := f.Index[0], f.Index[1]
	if r.IntN(3) == 0 {
		switch {
		case v.IsNaN():
			return rgIndexed("NaN", []int{e, s})
		case v.IsInf():
			return rgIndexed(map[bool]string{false: "+oo", true: "-oo"}[v.Neg], []int{e, s})
		case v.IsZero():
			return rgIndexed(map[bool]string{false: "+zero", true: "-zero"}[v.Neg], []int{e, s})
		}
	}
	if v.IsNaN() {
		return rgIndexed("NaN", []int{e, s})
	}
	t, err := ParseTerm(v.String())
	if err != nil {
		panic(err)
	}
	return t
}

// fpRealLeaf returns a Real term near values of f: a float's value, a midpoint of two floats, a
// simple fraction, or a number beyond f's range.
func fpRealLeaf(r *rand.Rand, f *Sort) *Term {
	var q *big.Rat
	switch r.IntN(4) {
	case 0:
		q = big.NewRat(int64(r.IntN(41)-20), int64(1+r.IntN(12)))
	case 1:
		v := randomFPValue(r, f).(FPValue)
		if v.IsNaN() || v.IsInf() {
			v = FPMaxFinite(f.Index[0], f.Index[1], v.Neg)
		}
		q = v.signedRat()
		if r.IntN(2) == 0 { // beyond the largest float, or a power of two beyond it
			q.Mul(q, big.NewRat(int64(2+r.IntN(3)), 1))
		}
	default: // the midpoint of a float and its successor: a tie
		v := randomFPValue(r, f).(FPValue)
		if v.IsNaN() || v.IsInf() {
			v = FPMaxFinite(f.Index[0], f.Index[1], v.Neg)
		}
		m, qe := v.mantissa()
		m.Lsh(m, 1).Add(m, big.NewInt(1))
		q = ratTimes2(new(big.Rat).SetInt(m), qe-1)
		if v.Neg {
			q.Neg(q)
		}
	}
	return ratTerm(q)
}

// ratTerm prints q as a Real term: n.0, (/ n.0 d.0), negated with (- ...).
func ratTerm(q *big.Rat) *Term {
	a := new(big.Rat).Abs(q)
	t := &Term{Kind: KindDecimal, Lit: a.Num().String() + ".0"}
	if !a.IsInt() {
		t = rgApp("/", t, &Term{Kind: KindDecimal, Lit: a.Denom().String() + ".0"})
	}
	if q.Sign() < 0 {
		t = rgApp("-", t)
	}
	return t
}

// randomFPValue returns a random value of an FP sort or RoundingMode, mostly special ones.
func randomFPValue(r *rand.Rand, s *Sort) Value {
	if s.Equal(RoundingModeSort) {
		return RoundingModes[r.IntN(5)]
	}
	e, p := s.Index[0], s.Index[1]
	neg := r.IntN(2) == 0
	maxExp := 1<<e - 1
	bias := 1<<(e-1) - 1
	randSig := func() *big.Int {
		v := new(big.Int)
		for i := 0; i < p-1; i += 32 {
			v.Lsh(v, 32).Or(v, big.NewInt(int64(r.Uint32())))
		}
		return v.And(v, bvMask(p-1))
	}
	// sparse: a few bits set at the top and bottom, whose sums and products round at ties
	sparse := func() *big.Int {
		v := new(big.Int)
		for k := r.IntN(3); k >= 0; k-- {
			v.SetBit(v, r.IntN(p-1), 1)
		}
		if r.IntN(2) == 0 {
			v.SetBit(v, 0, 1)
		}
		return v
	}
	switch r.IntN(16) {
	case 0:
		return FPZero(e, p, neg)
	case 1:
		return FPInf(e, p, neg)
	case 2:
		return FPNaN(e, p)
	case 3: // the smallest subnormal
		return NewFP(e, p, neg, 0, big.NewInt(1))
	case 4: // the largest subnormal
		return NewFP(e, p, neg, 0, bvMask(p-1))
	case 5: // a subnormal
		return NewFP(e, p, neg, 0, new(big.Int).Or(randSig(), big.NewInt(1)))
	case 6: // the smallest normal
		return NewFP(e, p, neg, 1, new(big.Int))
	case 7:
		return FPMaxFinite(e, p, neg)
	case 8: // near the top
		return NewFP(e, p, neg, maxExp-1-r.IntN(min(3, maxExp-1)), randSig())
	case 9, 10: // one, two, a half and their neighbours
		exp := bias - 1 + r.IntN(3)
		sig := new(big.Int)
		if r.IntN(2) == 0 {
			sig = sparse()
		}
		return NewFP(e, p, neg, max(1, min(exp, maxExp-1)), sig)
	case 11, 12: // small exponents around 1, sparse significands
		exp := bias - 3 + r.IntN(7)
		return NewFP(e, p, neg, max(1, min(exp, maxExp-1)), sparse())
	}
	return NewFP(e, p, neg, 1+r.IntN(maxExp-1), randSig())
}

// randomFPGround is the "fp" theory of RandomGroundTerm: any operation, any format of FPFormats.
func randomFPGround(r *rand.Rand, depth int) *Term {
	return randomFPTerm(r, "", nil, max(depth, 1))
}

// FPOpFormatName names an operation and format pair as the self-check prints it.
func FPOpFormatName(op string, format *Sort) string {
	return op + " " + fpFormatName(format)
}

// SelfCheckFP is [SelfCheck] restricted to the terms of [RandomFPTerm] with root op (one of
// [FPOps]) over format (an FP sort), at most 3 deep; the report's Theory is "op format".
func SelfCheckFP(ctx context.Context, op string, format *Sort, n int, seed int64,
	ask func(ctx context.Context, script string) (string, error)) (*SelfCheckReport, error) {
	if !validFPOp(op) {
		return nil, fmt.Errorf("self-check: unknown floating-point operation %q (want one of %s)", op, strings.Join(FPOps, ", "))
	}
	if !isFPSort(format) {
		return nil, fmt.Errorf("self-check: %s is not a floating-point format (want Float16, Float32, Float64 or (_ FloatingPoint e s))", format)
	}
	h := fnv.New64a()
	h.Write([]byte(FPOpFormatName(op, format)))
	r := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	gen := func() *Term { return randomFPTerm(r, op, format, 1+r.IntN(3)) }
	return selfCheckTerms(ctx, FPOpFormatName(op, format), n, gen, ask)
}
