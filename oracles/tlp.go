package oracles

import (
	"fmt"
	"slices"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TLPVariants lists the variants of the TLP partition family, in the order of [TLP.Variant].
var TLPVariants = []string{"where", "having", "distinct", "groupby"}

// TLP is Ternary Logic Partitioning (Rigger and Su, 2020): for any predicate p, the result of a
// query Q is composed from Q restricted to p, to NOT p and to p IS NULL. Rows are compared whole
// and typed.
//
// The variant says which clause is partitioned and how the partitions compose:
//
//   - "where" (the zero value): multiset semantics, rows(orig) = rows(p) ⊎ rows(notp) ⊎ rows(null).
//   - "having": multiset semantics, the partitions split the groups of a GROUP BY by HAVING p.
//   - "distinct": set semantics; orig is SELECT DISTINCT cols FROM f and the partitions add
//     WHERE p, WHERE NOT p and WHERE p IS NULL, so one row may appear in several partitions. The
//     original rows must be distinct and equal, as a set, to the union of the partitions' rows.
//   - "groupby": set semantics as for distinct, with SELECT cols FROM f GROUP BY cols.
//
// Engines may print a group's value from any of its members ('a' or 'A' under a case-insensitive
// collation, 1.0 or 1.00, -0 or 0). For having, distinct and groupby, when the exact comparison
// fails but the comparison under [Loose] keys passes, the check is skipped as
// "ambiguous-representative".
//
// Layout: [fuzz.TLPWhere] ("tlp.orig", "tlp.p", "tlp.notp", "tlp.null") for where,
// [fuzz.TLPHaving], [fuzz.TLPDistinct] and [fuzz.TLPGroupBy] for the others; a case of several
// checks shares the original query and holds check k's partitions under fuzz.CheckRole(role, k).
type TLP struct {
	// Variant is "" or "where", "having", "distinct" or "groupby".
	Variant string
	// Show prints the rows the finding quotes; the zero Display strips the type tags.
	Show Display
}

// tlpLayouts maps each variant to its layout.
var tlpLayouts = map[string]*fuzz.Layout{
	"where": fuzz.TLPWhere, "having": fuzz.TLPHaving, "distinct": fuzz.TLPDistinct, "groupby": fuzz.TLPGroupBy,
}

// variant returns the variant's name, "where" for the zero value.
func (o TLP) variant() string {
	if o.Variant == "" {
		return "where"
	}
	return o.Variant
}

// Name returns "tlp-" followed by the variant ("tlp-where" for the zero value).
func (o TLP) Name() string { return "tlp-" + o.variant() }

// Roles returns the roles of the variant's layout: orig, p, notp and null, in that order; nil
// for an unknown variant.
func (o TLP) Roles() []string {
	l, ok := tlpLayouts[o.variant()]
	if !ok {
		return nil
	}
	return l.Roles()
}

// Check compares the original rows with the composition of the partitions on every run, for
// each check of the case: a case of several checks holds one original query and each check's
// partitions under fuzz.CheckRole(role, k).
func (o TLP) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	v := o.variant()
	if !slices.Contains(TLPVariants, v) {
		return fuzz.Verdict{Skip: "unknown-variant"}
	}
	roles := o.Roles()
	n := checkCount(c, tlpLayouts[v])
	var m checks
	for k := range n {
		at, ok := layout(c, append(roles[:1:1], checkRoles(roles[1:], k)...))
		if !ok {
			m.add(fuzz.Verdict{Skip: "no-layout"})
			continue
		}
		m.add(o.check(c, runs, at))
	}
	return m.verdict()
}

// checkRoles returns the roles of check k (fuzz.CheckRole).
func checkRoles(roles []string, k int) []string {
	out := make([]string, len(roles))
	for i, r := range roles {
		out[i] = fuzz.CheckRole(r, k)
	}
	return out
}

// check compares the original rows with the partitions of one check, at the query indices at.
func (o TLP) check(c *fuzz.Case, runs []fuzz.Run, at []int) fuzz.Verdict {
	v := o.variant()
	set := v == "distinct" || v == "groupby"
	skip := ""
	for ri := range runs {
		run := &runs[ri]
		if s := failedSkip(run, at...); s != "" {
			return fuzz.Verdict{Skip: s}
		}
		orig := run.Results[at[0]].Rows
		parts := [][][]string{run.Results[at[1]].Rows, run.Results[at[2]].Rows, run.Results[at[3]].Rows}
		summary, expected, actual := tlpCompare(o.Show, nil, set, orig, parts)
		if summary == "" {
			continue
		}
		if v != "where" && summary != tlpDuplicates {
			// Under the loose key and as sets: a group whose members differ in representation
			// (1 and 1.0 in SQLite) may be represented differently in each query, and a HAVING
			// predicate over the representative (length(c0)) may then place it in two partitions.
			if s, _, _ := tlpCompare(o.Show, Loose, true, orig, parts); s == "" && representations(orig, parts) {
				if skip == "" {
					skip = "ambiguous-representative"
				}
				continue
			}
		}
		roles := make([]string, len(at))
		for i, j := range at {
			roles[i] = c.Queries[j].Role
		}
		return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
			Title:    fuzz.Title(o.Name(), run.Target, summary),
			Kind:     fuzz.KindWrongResult,
			Oracle:   o.Name(),
			Expected: expected,
			Actual:   actual,
			Roles:    roles,
			Case:     c,
			Runs:     runs,
		}}
	}
	if skip != "" {
		return fuzz.Verdict{Skip: skip}
	}
	return fuzz.Verdict{Checked: true}
}

const tlpDuplicates = "original query returns duplicate rows"

// representations reports whether some row is represented in two ways among the original and
// partition rows: two rows that differ exactly but agree under the loose key.
func representations(orig [][]string, parts [][][]string) bool {
	all := append([][][]string{orig}, parts...)
	return len(NewBagWith(nil, all...)) > len(NewBagWith(Loose, all...))
}

// tlpCompare compares the original rows with the partitions' rows under key (nil: exact), as
// multisets or, with set, as sets of distinct rows, and prints the rows that differ with show.
// It returns an empty summary when they agree.
func tlpCompare(show Display, key func(string) string, set bool, orig [][]string, parts [][][]string) (summary, expected, actual string) {
	o, p := NewBagWith(key, orig), NewBagWith(key, parts...)
	expected = fmt.Sprintf("the %d rows of the original query", len(orig))
	if set {
		if key == nil {
			if dup := o.repeated(); len(dup) > 0 {
				return tlpDuplicates, "distinct rows from the original query", "repeated " + show.rows(dup)
			}
		}
		o, p = o.distinct(), p.distinct()
		expected = fmt.Sprintf("the %d distinct rows of the original query", len(o))
	}
	missing, extra := o.Diff(p)
	if len(missing) == 0 && len(extra) == 0 {
		return "", "", ""
	}
	summary, actual = "partitions miss rows", "partitions miss "+show.rows(missing)
	switch {
	case len(missing) == 0:
		summary, actual = "partitions add rows", "partitions add "+show.rows(extra)
	case len(extra) > 0:
		summary = "partitions differ from the original rows"
		actual += "; add " + show.rows(extra)
	}
	return summary, expected, actual
}
