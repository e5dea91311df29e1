package oracles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Bag is a multiset of rows, keyed by the row's canonical values.
type Bag map[string]int

// NewBag counts the rows of rs.
func NewBag(rows ...[][]string) Bag {
	b := Bag{}
	for _, rs := range rows {
		for _, r := range rs {
			b[rowKey(r)]++
		}
	}
	return b
}

func rowKey(r []string) string { return strings.Join(r, "\x1f") }

// Diff returns the rows in a but not in b and those in b but not in a, with multiplicity, sorted.
func (a Bag) Diff(b Bag) (missing, extra []string) {
	for k, n := range a {
		for i := b[k]; i < n; i++ {
			missing = append(missing, k)
		}
	}
	for k, n := range b {
		for i := a[k]; i < n; i++ {
			extra = append(extra, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}

// showRows prints up to three row keys for a finding's expected/actual lines.
func showRows(keys []string) string {
	var b strings.Builder
	for i, k := range keys {
		if i == 3 {
			fmt.Fprintf(&b, " ... (%d in all)", len(keys))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(" + strings.ReplaceAll(k, "\x1f", ", ") + ")")
	}
	return b.String()
}

// roleIndex maps each role of c to its query index.
func roleIndex(c *fuzz.Case, prefix string) map[string]int {
	m := map[string]int{}
	for i, q := range c.Queries {
		if strings.HasPrefix(q.Role, prefix) {
			m[q.Role] = i
		}
	}
	return m
}

// failedSkip returns a skip reason if any of the results at idx did not answer normally.
func failedSkip(run *fuzz.Run, idx ...int) string {
	for _, i := range idx {
		if i >= len(run.Results) {
			return "no-result"
		}
		r := run.Results[i]
		switch {
		case r == nil:
			return "no-result"
		case r.Status == fuzz.StatusEngineError:
			return "error"
		case r.Status != fuzz.StatusOK:
			return r.Status.String()
		}
	}
	return ""
}
