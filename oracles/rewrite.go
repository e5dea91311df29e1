package oracles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Rewrite checks query rewriting on every engine alone (GraphGenie's graph query
// transformations, GRev's path covers): the rows of a rewritten query stand in a known relation
// to the rows of the original query, compared as multisets of [Normalize]d values. The role of
// the rewritten query names the relation: Rels maps each role a rewrite may have to RelEqual,
// RelSubset (the original's rows are contained in the rewrite's: the rewrite relaxed the query)
// or RelSuperset (the rewrite restricted it). A case holds the original (role Orig) and one
// rewrite.
//
// The reference engine, when named and present, is checked first: a reference that breaks the
// relation is blamed itself (the rewrite is unsound, or the reference is wrong), so that a
// reduction whose edits separate the two queries' meanings gives another title and is undone.
//
// Skips: "no-layout" without the original and a rewrite, "no-answer" when no engine answered
// both; an engine that did not answer both is left out and counted in Partial ("CODE on ENGINE").
type Rewrite struct {
	// Label names the oracle in titles ("genie", "grev").
	Label string
	// Orig is the role of the original query; Rels the rewrites' roles and relations.
	Orig string
	Rels map[string]string
	// Reference is the engine checked first ("" for none).
	Reference string
	// Show prints the rows the finding quotes; the zero Display strips the type tags.
	Show Display
}

// Name returns the label.
func (o Rewrite) Name() string { return o.Label }

// Check compares the original's rows with the rewrite's on every run.
func (o Rewrite) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	oi, ti, rel := queryIndex(c, o.Orig), -1, ""
	for i, q := range c.Queries {
		if r, ok := o.Rels[q.Role]; ok && ti < 0 {
			ti, rel = i, r
		}
	}
	if oi < 0 || ti < 0 || (rel != RelEqual && rel != RelSubset && rel != RelSuperset) {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	order := slices.Clone(runs)
	slices.SortStableFunc(order, func(a, b fuzz.Run) int {
		return boolInt(b.Target == o.Reference) - boolInt(a.Target == o.Reference)
	})
	v := fuzz.Verdict{}
	for _, run := range order {
		if oi >= len(run.Results) || ti >= len(run.Results) {
			continue
		}
		a, b := run.Results[oi], run.Results[ti]
		if a == nil || b == nil || a.Failed() || b.Failed() {
			v.Partial = append(v.Partial, failReason(run.Target, a, b))
			continue
		}
		v.Checked = true
		what, broken := o.Show.relationBroken(rel, "rows", a.Rows, b.Rows)
		if what == "" {
			continue
		}
		trans := c.Queries[ti].Role
		v.Finding = &fuzz.Finding{
			Title:    fuzz.Title(o.Label, run.Target, "the "+rewriteName(rel)+" rewrite "+what),
			Kind:     fuzz.KindWrongResult,
			Oracle:   o.Label,
			Expected: fmt.Sprintf("rows of %s %s rows of %s (%d rows)", o.Orig, relText(rel), trans, len(a.Rows)),
			Actual:   fmt.Sprintf("%s: %s has %d rows; it %s", run.Target, trans, len(b.Rows), strings.Join(broken, " and ")),
			Roles:    []string{o.Orig, trans},
			Case:     c,
			Runs:     runs,
		}
		return v
	}
	if !v.Checked {
		return fuzz.Verdict{Skip: "no-answer", Partial: v.Partial}
	}
	return v
}

// rewriteName says what a rewrite of relation rel does: "equivalent", "relaxing" (its rows
// contain the original's) or "restricting".
func rewriteName(rel string) string {
	switch rel {
	case RelSubset:
		return "relaxing"
	case RelSuperset:
		return "restricting"
	}
	return "equivalent"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
