package localize

import (
	"strings"
	"time"
)

// DDLocalize is the delta-debugging baseline of Localize: ddmin over the changes of the update,
// a subset being kept when the old facts with only that subset applied, evaluated from scratch,
// still show every fault (every unwanted tuple derived, no wanted one). The answer is 1-minimal.
// Its statistics count its own evaluations only (a subset tested twice is evaluated once).
func (l *Localizer) DDLocalize() (*Result, error) {
	return l.ddmin(func(s []Change, st *Stats) (bool, error) {
		_, faulty, err := l.correct(s, st)
		return faulty, err
	})
}

// DDRollback is the delta-debugging baseline of Rollback: ddmin over the changes of the update,
// a subset being kept when the update without it, applied to the old facts and evaluated from
// scratch, gives the intended output.
func (l *Localizer) DDRollback() (*Result, error) {
	return l.ddmin(func(s []Change, st *Stats) (bool, error) {
		ok, _, err := l.correct(l.without(s), st)
		return ok, err
	})
}

// ddmin is Zeller's ddmin as the paper's baseline runs it: split the current set into n
// contiguous chunks; keep a chunk that passes (n back to 2), else a complement that passes (n
// one less), else double n, until n exceeds the set.
func (l *Localizer) ddmin(test func([]Change, *Stats) (bool, error)) (*Result, error) {
	start := time.Now()
	res := &Result{}
	cache := map[string]bool{}
	pass := func(s []Change) (bool, error) {
		var key strings.Builder
		for _, c := range s {
			key.WriteString(c.String())
			key.WriteByte('\n')
		}
		if ok, hit := cache[key.String()]; hit {
			return ok, nil
		}
		ok, err := test(s, &res.Stats)
		cache[key.String()] = ok
		return ok, err
	}
	cur := l.Update()
	n := 2
	for len(cur) >= 2 && n <= len(cur) {
		chunks := split(cur, n)
		reduced := false
		for _, c := range chunks {
			ok, err := pass(c)
			if err != nil {
				return nil, err
			}
			if ok {
				cur, n, reduced = c, 2, true
				break
			}
			if n > 2 {
				rest := minus(cur, c)
				if ok, err = pass(rest); err != nil {
					return nil, err
				} else if ok {
					cur, n, reduced = rest, n-1, true
					break
				}
			}
		}
		if !reduced {
			n *= 2
		}
	}
	res.Changes = cur
	ok, err := pass(cur)
	if err != nil {
		return nil, err
	}
	res.Verified = ok
	res.Stats.Time = time.Since(start)
	return res, nil
}

// split cuts s into n contiguous chunks of sizes that differ by at most one.
func split(s []Change, n int) [][]Change {
	var out [][]Change
	for i := range n {
		lo, hi := i*len(s)/n, (i+1)*len(s)/n
		if hi > lo {
			out = append(out, s[lo:hi])
		}
	}
	return out
}

// minus returns s without the elements of the contiguous chunk c of s.
func minus(s, c []Change) []Change {
	out := make([]Change, 0, len(s)-len(c))
	for _, x := range s {
		if !containsChange(c, x) {
			out = append(out, x)
		}
	}
	return out
}

func containsChange(cs []Change, x Change) bool {
	for _, c := range cs {
		if c.Insert == x.Insert && c.Tuple.String() == x.Tuple.String() {
			return true
		}
	}
	return false
}
