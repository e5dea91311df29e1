package oracles

import "github.com/polyfuzz/polyfuzz/fuzz"

// Known wraps an oracle with a catalogue of known differences between engines: a finding that
// Explain accounts for is not reported; the check counts as skipped with the reason
// "known: <id>", so that a campaign's report says how often each known difference showed.
type Known struct {
	fuzz.Oracle
	// Explain returns the id of the known difference behind a finding, or "" for none.
	Explain func(f *fuzz.Finding) string
}

// Check runs the wrapped oracle and explains its finding, if any.
func (k Known) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	v := k.Oracle.Check(c, runs)
	if v.Finding != nil && k.Explain != nil {
		if id := k.Explain(v.Finding); id != "" {
			return fuzz.Verdict{Skip: "known: " + id, Partial: v.Partial}
		}
	}
	return v
}
