package sqlgen

import (
	"math/bits"
	"math/rand/v2"
	"strconv"
)

// rng is a small deterministic generator over PCG. Its methods are defined on values of fixed
// meaning, so a seed gives the same stream on every platform and Go version.
type rng struct{ p rand.PCG }

func newRNG(seed, stream uint64) *rng {
	r := &rng{}
	r.p.Seed(seed, stream)
	return r
}

// intn returns a value in [0, n); n must be positive.
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.p.Uint64(), uint64(n))
	return int(hi)
}

// prob returns true with probability p.
func (r *rng) prob(p float64) bool {
	return float64(r.p.Uint64()>>11)*(1.0/(1<<53)) < p
}

// oneIn returns true with probability 1/n.
func (r *rng) oneIn(n int) bool { return r.intn(n) == 0 }

// smallInt returns a decimal integer in [-lo, hi).
func (r *rng) smallInt(lo, hi int) string { return strconv.Itoa(r.intn(lo+hi) - lo) }
