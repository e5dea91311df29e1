package oracles

import (
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// State is the graph-state differential (GraspDB's and Dinkel's idea, across engines): a case
// that writes holds the write query (the layout's first role) and queries that read the state it
// leaves (the other roles: a graph's nodes, its relationships). Every engine whose write
// answered must return the same rows for each, compared as [Rows] does (multisets, the
// reference's side expected). An engine whose write failed is left out (its state is not the
// one the others reached; the error oracle judges the failure). When the reference's write fails,
// nothing is compared: what the write leaves is then not determined (rows that set one property
// to different values, in an order each engine chooses) or not modelled.
//
// Titles: "state: ENGINE: returns different rows than OTHERS" for the write's rows, "state:
// ENGINE: leaves different PART than OTHERS" for a read-back query (PART is the role's part:
// nodes, rels). Skips as Rows's, and "error-on-some-engine" when fewer than two writes answered.
type State struct {
	// Layout names the write query (its first part) and the read-back queries.
	Layout *fuzz.Layout
	// Reference names a trusted target whose side is the expected one (see Rows).
	Reference string
	// Show prints the rows a finding quotes.
	Show Display
}

// Name returns "state".
func (State) Name() string { return "state" }

// Check compares the write's rows, then the state read back, across the runs whose write answered.
func (o State) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	write := o.Layout.Roles()[0]
	wi := queryIndex(c, write)
	if wi < 0 {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	var kept []fuzz.Run
	var partial []string
	for _, r := range runs {
		if r.Target == o.Reference && wi < len(r.Results) && r.Results[wi].Failed() {
			// The reference cannot say what the write leaves (for one, rows that write one
			// property in an order engines choose): the engines may differ without a bug.
			return fuzz.Verdict{Skip: "reference-failed"}
		}
		if wi < len(r.Results) && !r.Results[wi].Failed() {
			kept = append(kept, r)
		} else if wi < len(r.Results) {
			partial = append(partial, failReason(r.Target, r.Results[wi], r.Results[wi]))
		}
	}
	if len(kept) < 2 {
		return fuzz.Verdict{Skip: "error-on-some-engine", Partial: partial}
	}
	v := Rows{Layouts: []*fuzz.Layout{o.Layout}, AnsweredOnly: true, Reference: o.Reference, Show: o.Show}.Check(c, kept)
	v.Partial = append(partial, v.Partial...)
	if f := v.Finding; f != nil {
		f.Oracle = o.Name()
		rest := strings.TrimPrefix(f.Title, "diff: ")
		if role := f.Roles[0]; role != write {
			part := strings.TrimPrefix(role, o.Layout.Family()+".")
			rest = strings.Replace(rest, "returns different rows", "leaves different "+part, 1)
			rest = strings.Replace(rest, "return different rows", "leave different "+part, 1)
			f.Roles = []string{write, role} // the read-back needs the write
		}
		f.Title = o.Name() + ": " + rest
		f.Runs = runs
	}
	return v
}
