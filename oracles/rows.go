package oracles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Bag is a multiset of rows, keyed by the row's canonical values.
type Bag map[string]int

// NewBag counts the rows of rs, keyed by their exact canonical values.
func NewBag(rows ...[][]string) Bag { return NewBagWith(nil, rows...) }

// NewBagWith counts the rows of rs, keyed by key applied to each value (Normalize, Loose); a nil
// key keeps the values as they are.
func NewBagWith(key func(string) string, rows ...[][]string) Bag {
	b := Bag{}
	for _, rs := range rows {
		for _, r := range rs {
			b[rowKeyWith(key, r)]++
		}
	}
	return b
}

func rowKey(r []string) string { return strings.Join(r, "\x1f") }

// rowKeyWith joins the keys of r's values; a nil key uses the values themselves.
func rowKeyWith(key func(string) string, r []string) string {
	if key == nil {
		return rowKey(r)
	}
	ks := make([]string, len(r))
	for i, v := range r {
		ks[i] = key(v)
	}
	return rowKey(ks)
}

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

// distinct returns the set of a's rows: every row once.
func (a Bag) distinct() Bag {
	s := make(Bag, len(a))
	for k := range a {
		s[k] = 1
	}
	return s
}

// repeated returns the rows of a that occur more than once, sorted.
func (a Bag) repeated() []string {
	var out []string
	for k, n := range a {
		if n > 1 {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// key returns the rows of a with their multiplicities in one canonical text, so that equal bags
// have equal keys.
func (a Bag) key() string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var s strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&s, "%d\x1e%s\x1d", a[k], k)
	}
	return s.String()
}

// queryIndex returns the index of the last query of c with role, or -1 when there is none.
func queryIndex(c *fuzz.Case, role string) int {
	for i := len(c.Queries) - 1; i >= 0; i-- {
		if c.Queries[i].Role == role {
			return i
		}
	}
	return -1
}

// layout returns the query index of each role of c, in order (the last query of a repeated
// role), and false if one is missing.
func layout(c *fuzz.Case, roles []string) ([]int, bool) {
	at := make([]int, len(roles))
	for i, r := range roles {
		if at[i] = queryIndex(c, r); at[i] < 0 {
			return nil, false
		}
	}
	return at, true
}

// selects reports whether role is one of the roles of layouts.
func selects(layouts []*fuzz.Layout, role string) bool {
	return slices.ContainsFunc(layouts, func(l *fuzz.Layout) bool { return l.Has(role) })
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

// checkCount returns how many checks of layout l case c holds: one more than the highest check
// index (fuzz.CheckRole) among its queries of l, 1 when it has none.
func checkCount(c *fuzz.Case, l *fuzz.Layout) int {
	n := 1
	for _, q := range c.Queries {
		if plain, k := fuzz.SplitCheck(q.Role); k >= n && l.Has(plain) {
			n = k + 1
		}
	}
	return n
}

// checks gathers the verdicts of the checks of a case that makes several (Options.Checks of the
// SQL generator) into the case's verdict: the checks made, the skipped ones' reasons, and the
// first finding.
type checks struct {
	made  int
	skips []string
	found *fuzz.Finding
}

// add counts one check's verdict.
func (m *checks) add(v fuzz.Verdict) {
	if v.Skip != "" {
		m.skips = append(m.skips, v.Skip)
	}
	m.skips = append(m.skips, v.Partial...)
	m.made += v.Made()
	if m.found == nil {
		m.found = v.Finding
	}
}

// verdict returns the case's verdict: checked when one check was made, with Checks set when
// several were, the reasons of the skipped ones in Partial (in Skip, the first, when none was
// made).
func (m *checks) verdict() fuzz.Verdict {
	if m.made == 0 && m.found == nil {
		if len(m.skips) == 0 {
			return fuzz.Verdict{Skip: "no-layout"}
		}
		return fuzz.Verdict{Skip: m.skips[0], Partial: m.skips[1:]}
	}
	v := fuzz.Verdict{Checked: true, Finding: m.found, Partial: m.skips}
	if m.made > 1 {
		v.Checks = m.made
	}
	return v
}
