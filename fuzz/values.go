package fuzz

import (
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"
)

// Canonical values. A target prints every value it returns in one of these typed forms, so that
// results compare exactly and across engines:
//
//	NULL         the null value
//	i:<int>      an integer, decimal (any size)
//	r:<float>    a binary float, shortest round-trip form ("r:1.5", "r:NaN", "r:+Inf", "r:-0")
//	d:<decimal>  an exact decimal
//	t:<text>     a string
//	b:<hex>      a byte string
//	B:true|false a Boolean
//
// Domains may add their own prefixes (a solver's "sat", a node "n:..."), documented where used.
const Null = "NULL"

// Int is the canonical form of an integer.
func Int(n int64) string { return "i:" + strconv.FormatInt(n, 10) }

// Float is the canonical form of a binary float.
func Float(f float64) string { return "r:" + strconv.FormatFloat(f, 'g', -1, 64) }

// Float32 is the canonical form of a 32-bit binary float: the shortest form that reads back as the
// same float32 ("r:0.1" for float32(0.1)), so that a REAL column prints as the engine meant it.
func Float32(f float32) string { return "r:" + strconv.FormatFloat(float64(f), 'g', -1, 32) }

// Decimal is the canonical form of an exact decimal given as text, such as an engine prints a
// NUMERIC or DECIMAL value: the shortest plain decimal of the same value, so that equal numbers
// print equally ("1.500" → "d:1.5", "-0.0" → "d:0", "007" → "d:7", "1.2e3" → "d:1200"). NaN and
// infinities print as "d:NaN", "d:+Inf" and "d:-Inf". Text that is not a decimal number is kept
// as it is after the prefix.
func Decimal(text string) string {
	if n, ok := normDecimal(text); ok {
		return "d:" + n
	}
	return "d:" + text
}

// maxDecimalExp bounds the exponent Decimal expands, so that hostile text cannot ask for a
// gigabyte of zeros.
const maxDecimalExp = 100000

func normDecimal(s string) (string, bool) {
	neg := false
	switch {
	case s == "":
		return "", false
	case s[0] == '-':
		neg, s = true, s[1:]
	case s[0] == '+':
		s = s[1:]
	}
	switch strings.ToLower(s) {
	case "nan":
		return "NaN", true
	case "inf", "infinity":
		if neg {
			return "-Inf", true
		}
		return "+Inf", true
	}
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > maxDecimalExp || e < -maxDecimalExp {
			return "", false
		}
		exp, s = e, s[:i]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return "", false
	}
	// The value is digits × 10^(exp - len(frac)); point is where the decimal point goes in digits.
	digits := intPart + frac
	point := len(intPart) + exp
	lead := 0
	for lead < len(digits) && digits[lead] == '0' {
		lead++
	}
	digits, point = digits[lead:], point-lead
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return "0", true
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case point <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -point))
		b.WriteString(digits)
	case point >= len(digits):
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", point-len(digits)))
	default:
		b.WriteString(digits[:point])
		b.WriteByte('.')
		b.WriteString(digits[point:])
	}
	return b.String(), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Text is the canonical form of a string.
func Text(s string) string { return "t:" + s }

// Bytes is the canonical form of a byte string.
func Bytes(b []byte) string { return "b:" + hex.EncodeToString(b) }

// Bool is the canonical form of a Boolean.
func Bool(v bool) string {
	if v {
		return "B:true"
	}
	return "B:false"
}

// Number reads a canonical integer, float, decimal or Boolean as an exact rational; NULL and
// other values give ok=false.
func Number(v string) (r *big.Rat, ok bool) {
	switch {
	case strings.HasPrefix(v, "i:"), strings.HasPrefix(v, "d:"), strings.HasPrefix(v, "r:"):
		r, ok = new(big.Rat).SetString(v[2:])
		return r, ok
	case v == "B:true":
		return big.NewRat(1, 1), true
	case v == "B:false":
		return new(big.Rat), true
	}
	return nil, false
}

// Count reads a canonical value as a non-negative whole count; NULL counts as zero (SUM over no
// rows). ok is false for anything else.
func Count(v string) (n int64, ok bool) {
	if v == Null {
		return 0, true
	}
	r, ok := Number(v)
	if !ok || !r.IsInt() || r.Sign() < 0 || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}
