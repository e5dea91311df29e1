package oracles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Answers is the N-engine differential oracle over one-cell answers: each run's answers to the
// query of Role (the rows that hold exactly one of Values, in order; a solver's sat, unsat and
// unknown) must agree position by position between engines. Values in Wildcards (unknown) agree
// with anything. When more than two engines answer, the minority is named as the odd one out;
// without a majority, every side is named.
type Answers struct {
	Role      string
	Values    []string
	Wildcards []string
}

// Name returns "diff".
func (Answers) Name() string { return "diff" }

// Check compares the answers of every pair of runs that answered.
func (o Answers) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	qi := -1
	for i, q := range c.Queries {
		if q.Role == o.Role {
			qi = i
		}
	}
	if qi < 0 {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	type answered struct {
		target string
		ans    []string
	}
	var got []answered
	for _, run := range runs {
		if qi >= len(run.Results) || run.Results[qi].Failed() {
			continue
		}
		var ans []string
		for _, row := range run.Results[qi].Rows {
			if len(row) == 1 && slices.Contains(o.Values, row[0]) {
				ans = append(ans, row[0])
			}
		}
		got = append(got, answered{run.Target, ans})
	}
	if len(got) < 2 {
		return fuzz.Verdict{Skip: "fewer-than-two-answers"}
	}
	for pos := 0; ; pos++ {
		votes := map[string][]string{} // answer -> targets
		any := false
		for _, g := range got {
			if pos >= len(g.ans) {
				continue
			}
			any = true
			if !slices.Contains(o.Wildcards, g.ans[pos]) {
				votes[g.ans[pos]] = append(votes[g.ans[pos]], g.target)
			}
		}
		if !any {
			return fuzz.Verdict{Checked: true}
		}
		if len(votes) < 2 {
			continue
		}
		keys, minority := sides(votes)
		odd := keys[0]
		var parts []string
		for _, k := range keys {
			parts = append(parts, strings.Join(votes[k], ",")+" "+k)
		}
		title := fuzz.Title("diff", strings.Join(votes[odd], ","), "answers "+odd+" where "+strings.Join(otherTargets(votes, odd), ",")+" answer "+keys[len(keys)-1])
		if !minority { // no majority: name every side
			bySide := slices.Clone(keys)
			slices.Sort(bySide)
			var who []string
			for _, k := range bySide {
				who = append(who, strings.Join(votes[k], ","))
			}
			title = fuzz.Title("diff", strings.Join(who, " vs "), "answers "+strings.Join(bySide, " vs "))
		}
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
			Title:    title,
			Kind:     fuzz.KindWrongResult,
			Oracle:   "diff",
			Expected: "the same answer from every engine",
			Actual:   fmt.Sprintf("answer %d: %s", pos+1, strings.Join(parts, "; ")),
			Roles:    []string{o.Role},
			Case:     c, Runs: runs,
		}}
	}
}

func otherTargets(votes map[string][]string, odd string) []string {
	var out []string
	for k, ts := range votes {
		if k != odd {
			out = append(out, ts...)
		}
	}
	slices.Sort(out)
	return out
}

// sides orders the sides of a disagreement, given as answer -> targets, from the fewest targets to
// the most (equal sizes by answer), and reports whether the first side is smaller than every other:
// a minority, the odd one out.
func sides(votes map[string][]string) (keys []string, minority bool) {
	for k := range votes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := len(votes[a]) - len(votes[b]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return keys, len(keys) < 2 || len(votes[keys[0]]) < len(votes[keys[1]])
}
