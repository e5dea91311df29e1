package oracles

import "github.com/polyfuzz/polyfuzz/fuzz"

// Emptiness measures guidance: it notes, for each query whose role is one of the roles of Layouts,
// whether Target's answer has rows ("non-empty"), none ("empty") or failed ("failed"). It never
// finds anything and makes no check; a campaign's notes give the share of non-empty queries,
// which guided generators (GDsmith) aim to keep high.
type Emptiness struct {
	// Target names the target whose answers are noted.
	Target string
	// Layouts selects the noted queries (a layout's Sub selects some of its queries).
	Layouts []*fuzz.Layout
}

// Name returns "guidance".
func (Emptiness) Name() string { return "guidance" }

// Check notes the shape of Target's answers.
func (o Emptiness) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	var v fuzz.Verdict
	for _, run := range runs {
		if run.Target != o.Target {
			continue
		}
		for i, q := range c.Queries {
			if i >= len(run.Results) || !selects(o.Layouts, q.Role) {
				continue
			}
			switch r := run.Results[i]; {
			case r.Failed():
				v.Notes = append(v.Notes, "failed")
			case len(r.Rows) == 0:
				v.Notes = append(v.Notes, "empty")
			default:
				v.Notes = append(v.Notes, "non-empty")
			}
		}
	}
	return v
}
