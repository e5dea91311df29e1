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
