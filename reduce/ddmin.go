package reduce

import "context"

// DDMin returns a subsequence of items for which keep holds and from which no single chunk at the
// final granularity (in particular no single item) can be removed, following Zeller's ddmin with
// complement tests. keep(items) is assumed to hold; it is not called for the full input. Candidates
// are tried in a fixed order, so the result is deterministic for a deterministic keep. DDMin stops
// early, returning the best sequence so far, when ctx is done.
func DDMin[T any](ctx context.Context, items []T, keep func([]T) bool) []T {
	cur := append([]T(nil), items...)
	n := 2
	for len(cur) >= 2 && ctx.Err() == nil {
		if n > len(cur) {
			n = len(cur)
		}
		chunk := (len(cur) + n - 1) / n
		reduced := false
		// Try each subset alone, then each complement.
		for i := 0; i < len(cur) && ctx.Err() == nil; i += chunk {
			end := min(i+chunk, len(cur))
			if n > 2 && end-i < len(cur) {
				sub := append([]T(nil), cur[i:end]...)
				if keep(sub) {
					cur, n, reduced = sub, 2, true
					break
				}
			}
		}
		if !reduced {
			for i := 0; i < len(cur) && ctx.Err() == nil; i += chunk {
				end := min(i+chunk, len(cur))
				comp := make([]T, 0, len(cur)-(end-i))
				comp = append(comp, cur[:i]...)
				comp = append(comp, cur[end:]...)
				if keep(comp) {
					cur, reduced = comp, true
					n = max(n-1, 2)
					break
				}
			}
		}
		if !reduced {
			if n >= len(cur) {
				break
			}
			n = min(2*n, len(cur))
		}
	}
	if len(cur) == 1 && ctx.Err() == nil && keep(cur[:0]) {
		return cur[:0]
	}
	return cur
}

// Pass proposes smaller variants of a value; Candidates returns them in the order to try them.
type Pass[T any] interface {
	Name() string
	Candidates(v T) []T
}

// PassFunc adapts a function to a Pass.
type PassFunc[T any] struct {
	PassName string
	Fn       func(T) []T
}

// Name returns the pass's name.
func (p PassFunc[T]) Name() string { return p.PassName }

// Candidates returns p.Fn(v).
func (p PassFunc[T]) Candidates(v T) []T { return p.Fn(v) }

// Fixpoint applies passes in order, taking the first candidate of each that keep accepts, until
// no pass makes progress, ctx is done, or maxRounds rounds ran (0: no limit). It returns the last
// accepted value.
func Fixpoint[T any](ctx context.Context, v T, passes []Pass[T], keep func(T) bool, maxRounds int) T {
	for round := 0; maxRounds == 0 || round < maxRounds; round++ {
		progress := false
		for _, p := range passes {
			for again := true; again && ctx.Err() == nil; {
				again = false
				for _, c := range p.Candidates(v) {
					if ctx.Err() != nil {
						return v
					}
					if keep(c) {
						v, again, progress = c, true, true
						break
					}
				}
			}
		}
		if !progress || ctx.Err() != nil {
			return v
		}
	}
	return v
}
