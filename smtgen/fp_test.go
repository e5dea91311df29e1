package smtgen

import (
	"errors"
	"io/fs"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// evalText sort-checks and evaluates a ground term.
func evalText(t *testing.T, src string) (Value, error) {
	t.Helper()
	tm, err := ParseTerm(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if err := NewEnv("ALL").CheckTerm(tm); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return NewModel(NewEnv("ALL")).Eval(tm)
}

// TestFPEval evaluates terms whose values IEEE 754 fixes: rounding in every mode at ties and
// overflow, subnormals, signed zeros, NaN, and the conversions.
func TestFPEval(t *testing.T) {
	for _, c := range []struct{ term, want string }{
		// 1/3 and 0.1 in Float32: 0x3EAAAAAB, and 0x3DCCCCCD rounded to nearest, ...CC toward zero.
		{"((_ to_fp 8 24) RNE (/ 1.0 3.0))", "(fp #b0 #b01111101 #b01010101010101010101011)"},
		{"((_ to_fp 8 24) RNE 0.1)", "(fp #b0 #b01111011 #b10011001100110011001101)"},
		{"((_ to_fp 8 24) RTZ 0.1)", "(fp #b0 #b01111011 #b10011001100110011001100)"},
		{"((_ to_fp 8 24) RTN (- 0.1))", "(fp #b1 #b01111011 #b10011001100110011001101)"},
		// Ties: 1 + 2^-11 in Float16 is halfway between 1 and 1 + 2^-10.
		{"(fp.add RNE ((_ to_fp 5 11) RNE 1.0) ((_ to_fp 5 11) RNE (/ 1.0 2048.0)))", "(fp #b0 #b01111 #b0000000000)"},
		{"(fp.add RNA ((_ to_fp 5 11) RNE 1.0) ((_ to_fp 5 11) RNE (/ 1.0 2048.0)))", "(fp #b0 #b01111 #b0000000001)"},
		{"(fp.add RTP ((_ to_fp 5 11) RNE 1.0) ((_ to_fp 5 11) RNE (/ 1.0 4096.0)))", "(fp #b0 #b01111 #b0000000001)"},
		{"(fp.add RTN ((_ to_fp 5 11) RNE 1.0) ((_ to_fp 5 11) RNE (/ 1.0 4096.0)))", "(fp #b0 #b01111 #b0000000000)"},
		// Overflow: 65520 is halfway above Float16's largest, 65504.
		{"((_ to_fp 5 11) RNE 65520.0)", "(fp #b0 #b11111 #b0000000000)"},
		{"((_ to_fp 5 11) RTZ 65520.0)", "(fp #b0 #b11110 #b1111111111)"},
		{"((_ to_fp 5 11) RTP (- 70000.0))", "(fp #b1 #b11110 #b1111111111)"},
		{"((_ to_fp 5 11) RTN (- 70000.0))", "(fp #b1 #b11111 #b0000000000)"},
		// Subnormals: 2^-25 is halfway between 0 and Float16's smallest subnormal 2^-24.
		{"((_ to_fp 5 11) RNE (/ 1.0 33554432.0))", "(fp #b0 #b00000 #b0000000000)"},
		{"((_ to_fp 5 11) RNA (/ 1.0 33554432.0))", "(fp #b0 #b00000 #b0000000001)"},
		{"((_ to_fp 5 11) RNE (- (/ 3.0 33554432.0)))", "(fp #b1 #b00000 #b0000000010)"},
		{"(fp.mul RTZ (fp #b0 #b00000 #b1000000000) (fp #b0 #b01110 #b0000000000))", "(fp #b0 #b00000 #b0100000000)"},
		// Signed zeros.
		{"(fp.add RNE (fp #b0 #b01111 #b0000000000) (fp #b1 #b01111 #b0000000000))", "(fp #b0 #b00000 #b0000000000)"},
		{"(fp.add RTN (fp #b0 #b01111 #b0000000000) (fp #b1 #b01111 #b0000000000))", "(fp #b1 #b00000 #b0000000000)"},
		{"(fp.add RNE (_ -zero 5 11) (_ -zero 5 11))", "(fp #b1 #b00000 #b0000000000)"},
		{"(fp.mul RNE (_ -zero 5 11) (fp #b0 #b01111 #b0000000000))", "(fp #b1 #b00000 #b0000000000)"},
		{"(fp.sqrt RNE (_ -zero 5 11))", "(fp #b1 #b00000 #b0000000000)"},
		{"(fp.roundToIntegral RNE (fp #b1 #b01101 #b0000000000))", "(fp #b1 #b00000 #b0000000000)"},
		{"(fp.rem (fp #b1 #b10000 #b0000000000) (fp #b0 #b01111 #b0000000000))", "(fp #b1 #b00000 #b0000000000)"},
		// NaN: one value, = is identity, fp.eq is IEEE equality.
		{"(fp.div RNE (_ +zero 5 11) (_ -zero 5 11))", "(_ NaN 5 11)"},
		{"(fp.sqrt RNE (fp #b1 #b01111 #b0000000000))", "(_ NaN 5 11)"},
		{"(fp #b0 #b11111 #b0000000011)", "(_ NaN 5 11)"},
		{"(= (_ NaN 5 11) (fp #b1 #b11111 #b0000000011))", "true"},
		{"(fp.eq (_ NaN 5 11) (_ NaN 5 11))", "false"},
		{"(= (_ +zero 5 11) (_ -zero 5 11))", "false"},
		{"(fp.eq (_ +zero 5 11) (_ -zero 5 11))", "true"},
		{"(fp.leq (_ -oo 3 5) (_ -zero 3 5) (_ +zero 3 5) (_ +oo 3 5))", "true"},
		{"(fp.lt (_ -zero 3 5) (_ +zero 3 5))", "false"},
		{"(fp.isNegative (_ NaN 3 5))", "false"},
		{"(fp.isSubnormal (fp #b1 #b000 #b0001))", "true"},
		{"(fp.min (_ NaN 3 5) (fp #b1 #b000 #b0001))", "(fp #b1 #b000 #b0001)"},
		// fma rounds once: 3·(1/3 rounded) - 1 is the rounding error of 1/3, not 0.
		{"(fp.fma RNE (fp #b0 #b10000 #b1000000000) ((_ to_fp 5 11) RNE (/ 1.0 3.0)) (fp #b1 #b01111 #b0000000000))", "(fp #b1 #b00011 #b0000000000)"},
		// sqrt(2) in Float32 is 0x3FB504F3; remainder rounds the quotient to even: 5 rem 2 = 1, 7 rem 2 = -1.
		{"(fp.sqrt RNE ((_ to_fp 8 24) RNE 2.0))", "(fp #b0 #b01111111 #b01101010000010011110011)"},
		{"(fp.rem ((_ to_fp 5 11) RNE 5.0) ((_ to_fp 5 11) RNE 2.0))", "(fp #b0 #b01111 #b0000000000)"},
		{"(fp.rem ((_ to_fp 5 11) RNE 7.0) ((_ to_fp 5 11) RNE 2.0))", "(fp #b1 #b01111 #b0000000000)"},
		{"(fp.roundToIntegral RNE ((_ to_fp 5 11) RNE 2.5))", "(fp #b0 #b10000 #b0000000000)"},
		{"(fp.roundToIntegral RNA ((_ to_fp 5 11) RNE 2.5))", "(fp #b0 #b10000 #b1000000000)"},
		{"(fp.roundToIntegral RTN ((_ to_fp 5 11) RNE (- 2.5)))", "(fp #b1 #b10000 #b1000000000)"},
		// Conversions.
		{"((_ to_fp 5 11) #xbc00)", "(fp #b1 #b01111 #b0000000000)"},
		{"((_ to_fp 5 11) RNE #xff)", "(fp #b1 #b01111 #b0000000000)"},
		{"((_ to_fp_unsigned 5 11) RNE #xff)", "(fp #b0 #b10110 #b1111111000)"},
		{"((_ to_fp 3 5) RTZ (fp #b0 #b10000001 #b11111111111111111111111))", "(fp #b0 #b101 #b1111)"},
		{"((_ fp.to_sbv 8) RTZ ((_ to_fp 5 11) RNE (- 2.75)))", "#b11111110"},
		{"((_ fp.to_ubv 4) RNE ((_ to_fp 5 11) RNE 15.4))", "#b1111"},
		{"(fp.to_real (fp #b1 #b00000 #b0000000001))", "(- (/ 1.0 16777216.0))"},
		{"((_ to_fp 8 24) roundTowardPositive 1)", "(fp #b0 #b01111111 #b00000000000000000000000)"},
	} {
		v, err := evalText(t, c.term)
		if err != nil || v.String() != c.want {
			t.Errorf("%s = %v, %v; want %s", c.term, v, err, c.want)
		}
	}
}

// TestFPUnspecified checks that the operations SMT-LIB leaves unspecified are undecided until
// pinned, and take the pinned value after.
func TestFPUnspecified(t *testing.T) {
	for _, c := range []struct{ term, pin string }{
		{"(fp.min (_ +zero 5 11) (_ -zero 5 11))", "(_ -zero 5 11)"},
		{"(fp.max (_ -zero 3 5) (_ +zero 3 5))", "(_ -zero 3 5)"},
		{"(fp.to_real (_ +oo 5 11))", "7.0"},
		{"((_ fp.to_ubv 4) RNE (fp.neg ((_ to_fp 5 11) RNE 1.0)))", "#b1010"},
		{"((_ fp.to_sbv 4) RTZ ((_ to_fp 5 11) RNE 8.0))", "#b0110"},
		{"((_ fp.to_sbv 4) RTZ (_ NaN 5 11))", "#b0000"},
	} {
		tm, _ := ParseTerm(c.term)
		m := NewModel(NewEnv("ALL"))
		if err := m.Env.CheckTerm(tm); err != nil {
			t.Fatal(err)
		}
		if v, err := m.Eval(tm); err == nil {
			t.Errorf("%s = %s, want undecided before the pin", c.term, v)
		}
		if apps := PartialApps([]*Term{tm}); len(apps) != 1 {
			t.Errorf("%s: partial applications %v, want the term", c.term, apps)
		}
		pt, _ := ParseTerm(c.pin)
		pv, err := ParseValue(pt, tm.Sort)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Pin(tm, pv); err != nil {
			t.Fatal(err)
		}
		if v, err := m.Eval(tm); err != nil || !Equal(v, pv) {
			t.Errorf("%s = %v, %v after pinning %s", c.term, v, err, c.pin)
		}
	}
	// A specified application: the pin is checked against the evaluator.
	tm, _ := ParseTerm("(fp.min (_ +zero 5 11) (_ +oo 5 11))")
	m := NewModel(NewEnv("ALL"))
	_ = m.Env.CheckTerm(tm)
	if err := m.Pin(tm, FPInf(5, 11, false)); err == nil {
		t.Errorf("pinning fp.min(+0, +oo) to +oo: no inconsistency")
	}
}

// TestFPAgainstHardware compares the evaluator in Float64 and Float32 with rounding to nearest
// even against the machine's IEEE arithmetic on random operands (the test's reference only).
func TestFPAgainstHardware(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	f64 := func(v FPValue) float64 {
		if v.IsNaN() {
			return math.NaN()
		}
		bits := uint64(0)
		if v.Neg {
			bits = 1 << 63
		}
		return math.Float64frombits(bits | uint64(v.Exp)<<52 | v.Sig.Uint64())
	}
	same := func(a, b float64) bool {
		return (math.IsNaN(a) && math.IsNaN(b)) || math.Float64bits(a) == math.Float64bits(b)
	}
	for i := 0; i < 20000; i++ {
		x := randomFPValue(r, FPSort(11, 53)).(FPValue)
		y := randomFPValue(r, FPSort(11, 53)).(FPValue)
		z := randomFPValue(r, FPSort(11, 53)).(FPValue)
		a, b, c := f64(x), f64(y), f64(z)
		for _, op := range []struct {
			name      string
			got       FPValue
			want      float64
			ignoreNaN bool
		}{
			{"add", fpAdd(RNE, x, y), a + b, false},
			{"mul", fpMul(RNE, x, y), a * b, false},
			{"div", fpDiv(RNE, x, y), a / b, false},
			{"fma", fpFMA(RNE, x, y, z), math.FMA(a, b, c), false},
			{"rem", fpRem(x, y), math.Remainder(a, b), false},
			{"roundToIntegral", fpRoundToIntegral(RNE, x), math.RoundToEven(a), false},
		} {
			if !same(f64(op.got), op.want) {
				t.Fatalf("%s(%s, %s, %s) = %s (%g), the machine says %g", op.name, x, y, z, op.got, f64(op.got), op.want)
			}
		}
		if !x.IsNaN() && !x.Neg && !x.IsZero() && !x.IsInf() {
			if got := f64(fpSqrt(RNE, x)); !same(got, math.Sqrt(a)) {
				t.Fatalf("sqrt(%s) = %g, the machine says %g", x, got, math.Sqrt(a))
			}
		}
		// Float64 to Float32 conversion.
		if !x.IsNaN() {
			got := FPRound(8, 24, RNE, new(big.Rat))
			if !x.IsInf() && !x.IsZero() {
				got = fpRoundRat(8, 24, RNE, x.Neg, x.Rat())
			}
			if x.IsInf() || x.IsZero() {
				continue
			}
			want := math.Float32bits(float32(a))
			gotBits := uint32(got.Exp)<<23 | uint32(got.Sig.Uint64())
			if got.Neg {
				gotBits |= 1 << 31
			}
			if gotBits != want {
				t.Fatalf("to Float32 of %g: %s, the machine says %08x", a, got, want)
			}
		}
	}
}

// TestFPParseValue reads the value forms z3, cvc5 and Bitwuzla print for FloatingPoint and
// RoundingMode terms.
func TestFPParseValue(t *testing.T) {
	for _, c := range []struct{ text, sort, want string }{
		{"(fp #b0 #b10000 #b0100000000)", "Float16", "(fp #b0 #b10000 #b0100000000)"},
		{"(_ +zero 5 11)", "Float16", "(fp #b0 #b00000 #b0000000000)"},
		{"(_ -zero 5 11)", "(_ FloatingPoint 5 11)", "(fp #b1 #b00000 #b0000000000)"},
		{"(_ +oo 2 3)", "(_ FloatingPoint 2 3)", "(fp #b0 #b11 #b00)"},
		{"(_ -oo 5 11)", "Float16", "(fp #b1 #b11111 #b0000000000)"},
		{"(_ NaN 5 11)", "Float16", "(_ NaN 5 11)"},
		{"(fp #b0 #b11111 #b1000000000)", "Float16", "(_ NaN 5 11)"},
		{"(fp (_ bv1 1) #b11111 #b0000000000)", "Float16", "(fp #b1 #b11111 #b0000000000)"},
		{"((_ to_fp 5 11) #x3c00)", "Float16", "(fp #b0 #b01111 #b0000000000)"},
		{"roundNearestTiesToEven", "RoundingMode", "RNE"},
		{"roundTowardZero", "RoundingMode", "RTZ"},
		{"RTP", "RoundingMode", "RTP"},
		{"(_ +zero 8 24)", "Float16", ""},
		{"(fp #b0 #b1000 #b0100000000)", "Float16", ""},
		{"RXX", "RoundingMode", ""},
	} {
		tm, err := ParseTerm(c.text)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := ParseSort(c.sort)
		s, _ = NewEnv("ALL").ResolveSort(s)
		v, err := ParseValue(tm, s)
		got := ""
		if err == nil {
			got = v.String()
		}
		if got != c.want {
			t.Errorf("ParseValue(%s, %s) = %q, %v; want %q", c.text, c.sort, got, err, c.want)
		}
		if err == nil { // the printed value reads back as itself
			back, _ := ParseTerm(got)
			if w, err := ParseValue(back, s); err != nil || !Equal(v, w) {
				t.Errorf("%s does not read back: %v, %v", got, w, err)
			}
		}
	}
}

// TestFPCheck checks the sorts of FloatingPoint terms and the refusal of ill-sorted ones.
func TestFPCheck(t *testing.T) {
	for _, c := range []struct{ decls, term, want string }{
		{"(declare-const x Float32)", "(fp.add RNE x x)", "(_ FloatingPoint 8 24)"},
		{"(declare-const x Float32)(declare-const r RoundingMode)", "(fp.fma r x x x)", "(_ FloatingPoint 8 24)"},
		{"(declare-const x (_ FloatingPoint 3 5))", "(fp.leq x x x)", "Bool"},
		{"(declare-const b (_ BitVec 16))", "((_ to_fp 5 11) b)", "(_ FloatingPoint 5 11)"},
		{"(declare-const b (_ BitVec 7))", "((_ to_fp 5 11) RTZ b)", "(_ FloatingPoint 5 11)"},
		{"(declare-const x Float64)", "((_ fp.to_sbv 12) RTZ x)", "(_ BitVec 12)"},
		{"(declare-const x Float64)", "(fp.to_real x)", "Real"},
		{"(declare-const i Int)", "((_ to_fp 11 53) RNE i)", "(_ FloatingPoint 11 53)"},
		{"", "(fp #b0 #b000 #b0000)", "(_ FloatingPoint 3 5)"},
		{"", "(_ NaN 2 2)", "(_ FloatingPoint 2 2)"},
		{"(declare-const x Float32)(declare-const y Float64)", "(fp.add RNE x y)", "error"},
		{"(declare-const x Float32)", "(fp.add x x)", "error"},
		{"(declare-const b (_ BitVec 15))", "((_ to_fp 5 11) b)", "error"},
		{"(declare-const x Float32)", "(fp.to_ieee_bv x)", "fp-extension"},
		{"(declare-const x (_ FloatingPoint 53 11))", "(fp.isNaN x)", "Bool"},
		{"(declare-const x (_ FloatingPoint 70 5))", "x", "fp-format-too-large"},
	} {
		sc, err := ParseScript(c.decls + "(assert (= " + c.term + " " + c.term + "))")
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		_, err = Check(sc)
		var u *UnsupportedError
		switch {
		case err == nil:
			got = sc.Commands[len(sc.Commands)-1].Terms[0].Args[0].Sort.String()
		case asUnsupported(err, &u):
			got = u.Reason
		default:
			got = "error"
		}
		if got != c.want {
			t.Errorf("%s %s: %s (%v), want %s", c.decls, c.term, got, err, c.want)
		}
	}
}

func asUnsupported(err error, u **UnsupportedError) bool { return errors.As(err, u) }

// TestFPRandomTerms checks that RandomFPTerm makes well-sorted terms of every operation and
// format that the evaluator decides (the unspecified cases aside), deterministically.
func TestFPRandomTerms(t *testing.T) {
	for _, op := range FPOps {
		for _, f := range FPFormats {
			r := rand.New(rand.NewPCG(1, 1))
			r2 := rand.New(rand.NewPCG(1, 1))
			decided := 0
			for i := 0; i < 30; i++ {
				tm := RandomFPTerm(r, op, f, 2)
				if tm.Name != strings.SplitN(op, ".", 2)[0] && tm.Name != op && !strings.HasPrefix(op, "to_fp") {
					t.Fatalf("%s: root %s", op, tm.Name)
				}
				if again := RandomFPTerm(r2, op, f, 2); again.String() != tm.String() {
					t.Fatalf("%s: not deterministic", op)
				}
				if _, err := NewModel(NewEnv("ALL")).Eval(tm); err == nil {
					decided++
				}
			}
			if decided == 0 {
				t.Errorf("%s %s: no term decided", op, f)
			}
		}
	}
	if RandomFPTerm(rand.New(rand.NewPCG(1, 1)), "fp.nope", nil, 2) != nil {
		t.Error("an unknown operation gives a term")
	}
}

// TestLoadSeedsCorpusFP loads the floating-point files of the shared corpus, when present: every
// one must give a seed or a skip that names an extension, and every seed's script must print,
// read back and print the same.
func TestLoadSeedsCorpusFP(t *testing.T) {
	const dir = "../../shared/corpus/smt"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus at " + dir + " (the project's shared corpus); nothing to count")
	}
	fsys := os.DirFS(dir)
	var files []string
	for _, logic := range []string{"QF_FP", "QF_BVFP", "QF_FPLRA"} {
		fs, _ := fs.Glob(fsys, logic+"/*.smt2")
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Skip("no floating-point files in the corpus")
	}
	seeds, roundTrip := 0, 0
	by := map[string]int{}
	for _, f := range files {
		text, err := fs.ReadFile(fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		ss, skips := NewSeeds(f, string(text))
		for _, s := range skips {
			by[s.Reason]++
			if s.Reason == "floating-point" || s.Reason == "sort-error" || s.Reason == "syntax" {
				t.Errorf("%s: skipped: %v", f, s)
			}
		}
		for _, s := range ss {
			seeds++
			printed := s.Script.String()
			back, err := ParseScript(printed)
			if err != nil || back.String() != printed {
				t.Errorf("%s: does not round-trip: %v", s.Name, err)
				continue
			}
			if _, err := Check(back); err != nil {
				t.Errorf("%s: printed script does not check: %v", s.Name, err)
				continue
			}
			roundTrip++
		}
	}
	var rs []string
	for r, n := range by {
		rs = append(rs, r+" "+strconv.Itoa(n))
	}
	sort.Strings(rs)
	t.Logf("%d files: %d seeds (%d round-trip), skips: %s", len(files), seeds, roundTrip, strings.Join(rs, ", "))
}

// TestFPQuantifiers decides quantifiers over FP and RoundingMode by their candidates.
func TestFPQuantifiers(t *testing.T) {
	for _, c := range []struct{ term, want string }{
		{"(exists ((x Float16)) (fp.isNaN x))", "true"},
		{"(forall ((x Float16)) (fp.eq x x))", "false"},
		{"(exists ((r RoundingMode)) (= r RTN))", "true"},
		{"(forall ((r RoundingMode)) (= (fp.add r (_ +zero 3 5) (_ -zero 3 5)) (_ +zero 3 5)))", "false"},
	} {
		v, err := evalText(t, c.term)
		if err != nil || v.String() != c.want {
			t.Errorf("%s = %v, %v; want %s", c.term, v, err, c.want)
		}
	}
}

// TestFPArrayOverRoundingMode checks that an array over RoundingMode with every mode stored is
// equal to the constant array it is extensionally.
func TestFPArrayOverRoundingMode(t *testing.T) {
	s := ArraySort(RoundingModeSort, BoolSort)
	a := NewArray(s, BoolValue(false))
	for _, r := range []RMValue{RTZ, RNE, RTP, RNA, RTN} {
		a = a.Store(r, BoolValue(true))
	}
	if !Equal(a, NewArray(s, BoolValue(true))) {
		t.Errorf("%s is not the constant true array", a)
	}
}
