package oracles

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Normalize returns the cross-engine key of one canonical value. Integers, decimals, floats and
// Booleans become one exact numeric form, "n:" followed by the value as a reduced rational
// (big.Rat's RatString), so that i:1, d:1.0, r:1 and B:true share the key n:1, and r:-0 is n:0.
// The float specials become n:NaN, n:+Inf and n:-Inf. Text, bytes, NULL and other values are
// returned unchanged.
func Normalize(v string) string {
	if r, ok := fuzz.Number(v); ok {
		return "n:" + r.RatString()
	}
	if strings.HasPrefix(v, "r:") || strings.HasPrefix(v, "d:") {
		if f, err := strconv.ParseFloat(v[2:], 64); err == nil {
			switch {
			case math.IsNaN(f):
				return "n:NaN"
			case math.IsInf(f, 1):
				return "n:+Inf"
			case math.IsInf(f, -1):
				return "n:-Inf"
			}
		}
	}
	return v
}

// exactNumber reads a canonical number as an exact rational, a float by its exact binary value
// (so that r:-9.223372036854776e+18 equals i:-9223372036854775808, as engines compare them);
// ok is false for non-numbers and for NaN and infinities.
func exactNumber(v string) (*big.Rat, bool) {
	if s, isFloat := strings.CutPrefix(v, "r:"); isFloat {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(f), true
	}
	return fuzz.Number(v)
}

// Loose returns the key of a value up to the choice of a group's representative: the Normalize
// key with floats at their exact binary value, and text lower-cased and stripped of trailing
// spaces (as case-insensitive and PAD SPACE collations compare it).
func Loose(v string) string {
	if r, ok := exactNumber(v); ok && strings.HasPrefix(v, "r:") {
		return "n:" + r.RatString()
	}
	v = Normalize(v)
	if s, ok := strings.CutPrefix(v, "t:"); ok {
		return "t:" + strings.ToLower(strings.TrimRight(s, " "))
	}
	return v
}
