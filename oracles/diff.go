package oracles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Rows is the N-engine differential oracle over rows: every engine (one run each) must return the
// same multiset of rows for each compared query, with values compared under [Normalize] keys (so
// that i:1, d:1.0 and B:true agree). A query is compared only when every run answered it, since
// engines reject different statements. When more than two engines answer, the minority is named as
// the odd one out; without a minority, every side is named. The check stops at the first query
// that differs.
//
// Skips: "fewer-than-two-answers" with fewer than two runs, "no-layout" when no query is selected,
// "error-on-some-engine" when no selected query was answered by every engine.
type Rows struct {
	// Layouts selects the compared queries: those whose role is one of the layouts' roles; empty
	// selects every query.
	Layouts []*fuzz.Layout
	// AnsweredOnly compares a query among the engines that answered it, when at least two did,
	// and counts each engine left out in the verdict's Partial ("CODE on ENGINE"); for engines
	// that fail only on programs they cannot express.
	AnsweredOnly bool
	// Reference names a trusted target (a reference implementation): when it answers, its side
	// is the expected answer and every other side is named as the odd one out.
	Reference string
	// Show prints the rows the finding quotes; the zero Display strips the type tags.
	Show Display
	// Direction names in the title how the odd side's rows differ from the expected side's (the
	// reference's, or the majority's): "misses rows of X" when they are part of X's rows, "returns
	// extra rows beyond X" when they hold X's rows and more, "returns different rows than X"
	// otherwise; so that a reduction, which keeps the title, keeps the direction too.
	Direction bool
}

// Name returns "diff".
func (Rows) Name() string { return "diff" }

// selects reports whether the query with the given role is compared.
func (o Rows) selects(role string) bool {
	return len(o.Layouts) == 0 || selects(o.Layouts, role)
}

// Check compares the rows of every selected query across the runs.
func (o Rows) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	if len(runs) < 2 {
		return fuzz.Verdict{Skip: "fewer-than-two-answers"}
	}
	selected, compared := false, false
	var partial []string
	all := runs
	for qi, q := range c.Queries {
		if !o.selects(q.Role) {
			continue
		}
		selected = true
		failed := func(r fuzz.Run) bool { return qi >= len(r.Results) || r.Results[qi].Failed() }
		runs := all
		if o.AnsweredOnly {
			runs = nil
			for _, r := range all {
				if !failed(r) {
					runs = append(runs, r)
				} else if qi < len(r.Results) {
					partial = append(partial, failReason(r.Target, r.Results[qi], r.Results[qi]))
				}
			}
			if len(runs) < 2 {
				continue
			}
		} else if slices.ContainsFunc(runs, failed) {
			continue
		}
		compared = true
		votes := map[string][]string{} // bag key -> targets
		first := map[string]int{}      // bag key -> index of its first run
		bags := map[string]Bag{}
		for ri, run := range runs {
			b := NewBagWith(Normalize, run.Results[qi].Rows)
			k := b.key()
			if _, seen := votes[k]; !seen {
				first[k], bags[k] = ri, b
			}
			votes[k] = append(votes[k], run.Target)
		}
		if len(votes) < 2 {
			continue
		}
		for _, ts := range votes {
			slices.Sort(ts)
		}
		return fuzz.Verdict{Checked: true, Finding: o.finding(c, runs, qi, votes, first, bags), Partial: partial}
	}
	switch {
	case !selected:
		return fuzz.Verdict{Skip: "no-layout"}
	case !compared:
		return fuzz.Verdict{Skip: "error-on-some-engine", Partial: partial}
	}
	return fuzz.Verdict{Checked: true, Partial: partial}
}

// finding describes the disagreement on query qi; votes maps each distinct multiset of rows to
// the targets that returned it (sorted), first to the first run that did, bags to the multiset.
func (o Rows) finding(c *fuzz.Case, runs []fuzz.Run, qi int, votes map[string][]string, first map[string]int,
	bags map[string]Bag) *fuzz.Finding {
	keys, minority := sides(votes)
	names := func(k string) string { return strings.Join(votes[k], ",") }
	// The sides in title order: by their targets.
	byName := slices.Clone(keys)
	slices.SortFunc(byName, func(a, b string) int { return strings.Compare(names(a), names(b)) })

	var title string
	if minority {
		var others []string
		for _, k := range keys[1:] {
			others = append(others, votes[k]...)
		}
		slices.Sort(others)
		title = fuzz.Title("diff", names(keys[0]), o.differs(bags, keys[1:], keys[:1])+strings.Join(others, ","))
	} else {
		who := make([]string, len(byName))
		for i, k := range byName {
			who[i] = names(k)
		}
		title = fuzz.Title("diff", strings.Join(who, " vs "), "return different rows")
	}

	// The reference is the largest side; among equally large sides, the first in title order.
	ref := byName[0]
	for _, k := range byName {
		if len(votes[k]) > len(votes[ref]) {
			ref = k
		}
	}
	for k, ts := range votes {
		if o.Reference != "" && slices.Contains(ts, o.Reference) {
			ref = k
			var odd []string
			for k2, ts2 := range votes {
				if k2 != k {
					odd = append(odd, ts2...)
				}
			}
			slices.Sort(odd)
			title = fuzz.Title("diff", strings.Join(odd, ","), o.differs(bags, []string{k}, oddKeys(bags, k))+names(k))
		}
	}
	role := c.Queries[qi].Role
	refRows := runs[first[ref]].Results[qi].Rows
	var actual []string
	for _, k := range byName {
		if k == ref {
			continue
		}
		rows := runs[first[k]].Results[qi].Rows
		missing, extra := bags[ref].Diff(bags[k])
		s := fmt.Sprintf("%s: %d rows", names(k), len(rows))
		if len(missing) > 0 {
			s += ", missing " + o.Show.rows(rawRows(missing, refRows))
		}
		if len(extra) > 0 {
			s += ", extra " + o.Show.rows(rawRows(extra, rows))
		}
		actual = append(actual, s)
	}
	return &fuzz.Finding{
		Title:    title,
		Kind:     fuzz.KindWrongResult,
		Oracle:   "diff",
		Expected: fmt.Sprintf("%s: the same rows from every engine; %s: %d rows", role, names(ref), len(refRows)),
		Actual:   strings.Join(actual, "; "),
		Roles:    []string{role},
		Case:     c,
		Runs:     runs,
	}
}

// differs returns the title's verb phrase for sides odd against the expected sides want: with
// Direction, and one expected side, "misses rows of " when every odd side returned part of its
// rows, "returns extra rows beyond " when every odd side returned its rows and more; otherwise
// "returns different rows than ".
func (o Rows) differs(bags map[string]Bag, want, odd []string) string {
	const other = "returns different rows than "
	if !o.Direction || len(want) != 1 {
		return other
	}
	dir := ""
	for _, k := range odd {
		missing, extra := bags[want[0]].Diff(bags[k])
		d := other
		switch {
		case len(extra) == 0:
			d = "misses rows of "
		case len(missing) == 0:
			d = "returns extra rows beyond "
		}
		if dir != "" && d != dir {
			return other
		}
		dir = d
	}
	if dir == "" {
		return other
	}
	return dir
}

// oddKeys returns the keys of bags other than k, sorted.
func oddKeys(bags map[string]Bag, k string) []string {
	var out []string
	for k2 := range bags {
		if k2 != k {
			out = append(out, k2)
		}
	}
	slices.Sort(out)
	return out
}

// normalDiff compares a and b as bags of rows of [Normalize]d values and prints, with d, the rows
// of a that b misses and the rows b adds, each as a or b gave it; "" where there are none.
func (d Display) normalDiff(a, b [][]string) (misses, adds string) {
	missing, extra := NewBagWith(Normalize, a).Diff(NewBagWith(Normalize, b))
	if len(missing) > 0 {
		misses = d.rows(rawRows(missing, a))
	}
	if len(extra) > 0 {
		adds = d.rows(rawRows(extra, b))
	}
	return misses, adds
}

// rawRows maps row keys under Normalize back to the first row of rows with each key, as it was
// returned.
func rawRows(keys []string, rows [][]string) []string {
	raw := map[string]string{}
	for _, r := range rows {
		k := rowKeyWith(Normalize, r)
		if _, seen := raw[k]; !seen {
			raw[k] = rowKey(r)
		}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = raw[k]
	}
	return out
}
