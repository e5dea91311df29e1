package smtgen

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// Value is a model value of the evaluator. The set is closed: [BoolValue], [IntValue],
// [RealValue], [BVValue], [StringValue], [ArrayValue], [ElemValue], [DatatypeValue], [FPValue] and [RMValue], plus the regular
// languages the evaluator builds internally for RegLan terms (never model values). Values are
// immutable. String prints a literal term that z3 and cvc5 accept (see docs/smt-evaluator.md).
type Value interface {
	Sort() *Sort
	String() string
}

// MaxChar is the largest SMT-LIB character code point, 0x2FFFF.
const MaxChar = 0x2FFFF

// BoolValue is a Bool value.
type BoolValue bool

// IntValue is an Int value.
type IntValue struct{ V *big.Int }

// RealValue is a Real value.
type RealValue struct{ V *big.Rat }

// BVValue is a bit-vector of width W; V is the unsigned value, 0 ≤ V < 2^W.
type BVValue struct {
	W int
	V *big.Int
}

// StringValue is a String value: a sequence of code points in 0..MaxChar.
type StringValue []rune

// ArrayValue is an Array value: Default everywhere except at Keys[i], where it is Vals[i]. Build
// it with [NewArray] or [ArrayValue.Store], which keep it normalised (no entry equal to the
// default, keys in a canonical order, finite index domains fully covered collapse to a constant
// array), so that [Equal] is extensional equality.
type ArrayValue struct {
	S       *Sort // (Array I E)
	Default Value
	Keys    []Value
	Vals    []Value
}

// ElemValue is element number Index of an uninterpreted sort S (declare-sort). It prints as the
// symbol @S_Index (for example @U_0), in bars when S's name needs them.
type ElemValue struct {
	S     *Sort
	Index int
}

// Sort implements [Value].
func (BoolValue) Sort() *Sort { return BoolSort }

// Sort implements [Value].
func (IntValue) Sort() *Sort { return IntSort }

// Sort implements [Value].
func (RealValue) Sort() *Sort { return RealSort }

// Sort implements [Value].
func (v BVValue) Sort() *Sort { return BitVecSort(v.W) }

// Sort implements [Value].
func (StringValue) Sort() *Sort { return StringSort }

// Sort implements [Value].
func (a ArrayValue) Sort() *Sort { return a.S }

// Sort implements [Value].
func (e ElemValue) Sort() *Sort { return e.S }

// String prints true or false.
func (b BoolValue) String() string { return strconv.FormatBool(bool(b)) }

// String prints a numeral, negative numbers as (- n).
func (v IntValue) String() string {
	if v.V.Sign() < 0 {
		return "(- " + new(big.Int).Neg(v.V).String() + ")"
	}
	return v.V.String()
}

// String prints 2.0, (- 2.0), (/ 1.0 3.0) or (- (/ 1.0 3.0)): decimals only, so that the text is
// a Real term in every logic.
func (v RealValue) String() string {
	neg := v.V.Sign() < 0
	a := new(big.Rat).Abs(v.V)
	var s string
	if a.IsInt() {
		s = a.Num().String() + ".0"
	} else {
		s = "(/ " + a.Num().String() + ".0 " + a.Denom().String() + ".0)"
	}
	if neg {
		return "(- " + s + ")"
	}
	return s
}

// String prints #b followed by W binary digits.
func (v BVValue) String() string {
	s := v.V.Text(2)
	if len(s) < v.W {
		s = strings.Repeat("0", v.W-len(s)) + s
	}
	return "#b" + s
}

// String prints an SMT-LIB string literal: printable ASCII as is, " doubled, backslash and every
// other character as \u{hex}.
func (s StringValue) String() string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"':
			b.WriteString(`""`)
		case c >= 0x20 && c < 0x7f && c != '\\':
			b.WriteRune(c)
		default:
			fmt.Fprintf(&b, `\u{%x}`, c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// String prints (store ... ((as const (Array I E)) d) k v). cvc5 1.0 accepts only values in its
// own normal form as the argument of (as const ...), so a Real default prints as n.0 when it is
// a nonnegative integer and as (/ n d) or (/ (- n) d) with numerals otherwise. (A default that
// is itself an array with stores may still be refused by cvc5, whose normal form orders the
// stores by its internal term order: see docs/smt-evaluator.md.)
func (a ArrayValue) String() string {
	s := "((as const " + a.S.String() + ") " + constArgString(a.Default) + ")"
	for i := range a.Keys {
		s = "(store " + s + " " + a.Keys[i].String() + " " + a.Vals[i].String() + ")"
	}
	return s
}

// constArgString prints v as the argument of (as const ...).
func constArgString(v Value) string {
	r, ok := v.(RealValue)
	if !ok || (r.V.IsInt() && r.V.Sign() >= 0) {
		return v.String()
	}
	n := new(big.Int).Abs(r.V.Num()).String()
	if r.V.Sign() < 0 {
		n = "(- " + n + ")"
	}
	return "(/ " + n + " " + r.V.Denom().String() + ")"
}

// String prints the element's symbol @S_i.
func (e ElemValue) String() string {
	return quoteSymbol("@" + e.S.String() + "_" + strconv.Itoa(e.Index))
}

// NewInt returns the Int value n.
func NewInt(n int64) IntValue { return IntValue{big.NewInt(n)} }

// NewReal returns the Real value a/b (b ≠ 0).
func NewReal(a, b int64) RealValue { return RealValue{big.NewRat(a, b)} }

// NewBV returns the bit-vector of width w holding v modulo 2^w.
func NewBV(w int, v *big.Int) BVValue {
	return BVValue{W: w, V: new(big.Int).And(v, bvMask(w))}
}

// NewBVUint returns the bit-vector of width w holding v modulo 2^w.
func NewBVUint(w int, v uint64) BVValue { return NewBV(w, new(big.Int).SetUint64(v)) }

// NewArray returns the constant array of sort s (an Array sort) with value d everywhere.
func NewArray(s *Sort, d Value) ArrayValue { return ArrayValue{S: s, Default: d} }

// Select returns a's value at k.
func (a ArrayValue) Select(k Value) Value {
	for i := range a.Keys {
		if Equal(a.Keys[i], k) {
			return a.Vals[i]
		}
	}
	return a.Default
}

// Store returns a with the value at k replaced by v, normalised.
func (a ArrayValue) Store(k, v Value) ArrayValue {
	out := ArrayValue{S: a.S, Default: a.Default}
	pos := sort.Search(len(a.Keys), func(i int) bool { return compareValues(a.Keys[i], k) >= 0 })
	found := pos < len(a.Keys) && compareValues(a.Keys[pos], k) == 0
	out.Keys = make([]Value, 0, len(a.Keys)+1)
	out.Vals = make([]Value, 0, len(a.Keys)+1)
	out.Keys = append(out.Keys, a.Keys[:pos]...)
	out.Vals = append(out.Vals, a.Vals[:pos]...)
	if !Equal(v, a.Default) {
		out.Keys = append(out.Keys, k)
		out.Vals = append(out.Vals, v)
	}
	if found {
		pos++
	}
	out.Keys = append(out.Keys, a.Keys[pos:]...)
	out.Vals = append(out.Vals, a.Vals[pos:]...)
	return out.collapse()
}

// collapse keeps an array over a finite index sort canonical: its default is the value taken
// at the most indices (ties: the smallest value) and only the other indices are stored. When
// fewer than half of the indices are stored, the default already is the strict majority.
func (a ArrayValue) collapse() ArrayValue {
	n, ok := domainSize(a.S.Args[0])
	if !ok || 2*int64(len(a.Keys)) < n {
		return a
	}
	keys := make([]Value, n)
	vals := make([]Value, n)
	var distinct []Value
	var counts []int
	for i := range keys {
		keys[i] = domainValue(a.S.Args[0], uint64(i))
		vals[i] = a.Select(keys[i])
		found := false
		for j, d := range distinct {
			if Equal(d, vals[i]) {
				counts[j]++
				found = true
				break
			}
		}
		if !found {
			distinct = append(distinct, vals[i])
			counts = append(counts, 1)
		}
	}
	best := 0
	for j := range distinct {
		if counts[j] > counts[best] || (counts[j] == counts[best] && compareValues(distinct[j], distinct[best]) < 0) {
			best = j
		}
	}
	out := ArrayValue{S: a.S, Default: distinct[best]}
	for i := range keys {
		if !Equal(vals[i], out.Default) {
			out.Keys = append(out.Keys, keys[i])
			out.Vals = append(out.Vals, vals[i])
		}
	}
	return out
}

// domainSize returns the number of values of s when s is Bool, RoundingMode or a bit-vector sort
// of at most 62 bits.
func domainSize(s *Sort) (int64, bool) {
	switch {
	case s.Equal(BoolSort):
		return 2, true
	case s.Name == "BitVec" && s.Width() > 0 && s.Width() <= 62:
		return 1 << s.Width(), true
	case s.Equal(RoundingModeSort):
		return int64(len(RoundingModes)), true
	}
	return enumSize(s)
}

// domainValue returns the i-th value of a sort that domainSize accepts, in increasing order.
func domainValue(s *Sort, i uint64) Value {
	if s.Equal(BoolSort) {
		return BoolValue(i == 1)
	}
	if s.DT != nil {
		return DatatypeValue{S: s, C: s.DT.Ctors[i]}
	}
	if s.Equal(RoundingModeSort) {
		return RoundingModes[i]
	}
	return NewBVUint(s.Width(), i)
}

// Equal reports whether a and b are the same value; arrays compare extensionally and regular
// languages by language equality (when that is decidable within the evaluator's bounds; when it
// is not, Equal reports false).
func Equal(a, b Value) bool {
	switch x := a.(type) {
	case BoolValue:
		y, ok := b.(BoolValue)
		return ok && x == y
	case IntValue:
		y, ok := b.(IntValue)
		return ok && x.V.Cmp(y.V) == 0
	case RealValue:
		y, ok := b.(RealValue)
		return ok && x.V.Cmp(y.V) == 0
	case BVValue:
		y, ok := b.(BVValue)
		return ok && x.W == y.W && x.V.Cmp(y.V) == 0
	case StringValue:
		y, ok := b.(StringValue)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	case ArrayValue:
		y, ok := b.(ArrayValue)
		if !ok || !x.S.Equal(y.S) || len(x.Keys) != len(y.Keys) || !Equal(x.Default, y.Default) {
			return false
		}
		for i := range x.Keys {
			if !Equal(x.Keys[i], y.Keys[i]) || !Equal(x.Vals[i], y.Vals[i]) {
				return false
			}
		}
		return true
	case ElemValue:
		y, ok := b.(ElemValue)
		return ok && x.Index == y.Index && x.S.Equal(y.S)
	case DatatypeValue:
		return equalDT(x, b)
	case FPValue:
		y, ok := b.(FPValue)
		return ok && x.E == y.E && x.S == y.S && x.Neg == y.Neg && x.Exp == y.Exp && x.Sig.Cmp(y.Sig) == 0
	case RMValue:
		y, ok := b.(RMValue)
		return ok && x == y
	case reValue:
		y, ok := b.(reValue)
		if !ok || x.c != y.c {
			return false // languages of different models are never compared
		}
		eq, decided := x.c.equivalent(x.n, y.n)
		return decided && eq
	}
	return false
}

// compareValues is a total order on values of one sort, used to keep array keys canonical.
func compareValues(a, b Value) int {
	switch x := a.(type) {
	case BoolValue:
		y := b.(BoolValue)
		switch {
		case x == y:
			return 0
		case !bool(x):
			return -1
		}
		return 1
	case IntValue:
		return x.V.Cmp(b.(IntValue).V)
	case RealValue:
		return x.V.Cmp(b.(RealValue).V)
	case BVValue:
		return x.V.Cmp(b.(BVValue).V)
	case StringValue:
		return compareRunes(x, b.(StringValue))
	case ElemValue:
		return x.Index - b.(ElemValue).Index
	case DatatypeValue:
		return compareDT(x, b.(DatatypeValue))
	case RMValue:
		return int(x) - int(b.(RMValue))
	case ArrayValue:
		y := b.(ArrayValue)
		if c := compareValues(x.Default, y.Default); c != 0 {
			return c
		}
		if len(x.Keys) != len(y.Keys) {
			return len(x.Keys) - len(y.Keys)
		}
		for i := range x.Keys {
			if c := compareValues(x.Keys[i], y.Keys[i]); c != 0 {
				return c
			}
			if c := compareValues(x.Vals[i], y.Vals[i]); c != 0 {
				return c
			}
		}
		return 0
	}
	return strings.Compare(a.String(), b.String())
}

func compareRunes(x, y []rune) int {
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return len(x) - len(y)
}

// bvMask returns 2^w - 1.
func bvMask(w int) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	return m.Sub(m, big.NewInt(1))
}

// ZeroValue returns a fixed value of sort s: false, 0, 0.0, #b0..0, "", the constant array of the
// element sort's zero, a datatype's first non-recursive constructor applied to zero values, or
// element 0 of an uninterpreted sort. It returns nil for RegLan.
func ZeroValue(s *Sort) Value {
	switch {
	case s.Equal(BoolSort):
		return BoolValue(false)
	case s.Equal(IntSort):
		return NewInt(0)
	case s.Equal(RealSort):
		return NewReal(0, 1)
	case s.Equal(StringSort):
		return StringValue{}
	case s.Equal(RegLanSort):
		return nil
	case s.Name == "BitVec" && s.Width() > 0:
		return NewBVUint(s.Width(), 0)
	case isFPSort(s):
		return FPZero(s.Index[0], s.Index[1], false)
	case s.Equal(RoundingModeSort):
		return RNE
	case s.Name == "Array" && len(s.Args) == 2 && len(s.Index) == 0:
		d := ZeroValue(s.Args[1])
		if d == nil {
			return nil
		}
		return NewArray(s, d)
	case s.DT != nil:
		return zeroDT(s)
	}
	return ElemValue{S: s, Index: 0}
}
