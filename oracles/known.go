package oracles

import "github.com/polyfuzz/polyfuzz/fuzz"

// Known wraps an oracle with a catalogue of known differences between engines: a finding that
// Explain accounts for is not reported; the check counts as skipped with the reason
// "known: <id>" (in a case of several checks, that check alone: the others count as made), so that
// a campaign's report says how often each known difference showed. A verdict carries one finding,
// its first failing check's: Known therefore wraps oracles whose cases make one check (cert,
// tlp-distinct, tlp-groupby), since a later check's finding behind an explained one would go unseen.
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
			if v.Made() > 1 { // the other checks of the case were made
				return fuzz.Verdict{Checked: true, Checks: v.Made() - 1, Partial: append(v.Partial, "known: "+id), Notes: v.Notes}
			}
			return fuzz.Verdict{Skip: "known: " + id, Partial: v.Partial}
		}
	}
	return v
}
