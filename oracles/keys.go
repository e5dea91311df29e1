package oracles

import (
	"math"
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

// Loose returns the key of a value up to the choice of a group's representative: the Normalize
// key, with text lower-cased and stripped of trailing spaces (as case-insensitive and PAD SPACE
// collations compare it).
func Loose(v string) string {
	v = Normalize(v)
	if s, ok := strings.CutPrefix(v, "t:"); ok {
		return "t:" + strings.ToLower(strings.TrimRight(s, " "))
	}
	return v
}
