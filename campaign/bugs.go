package campaign

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Signature says which bug a finding is, as syzkaller groups crashes: findings with equal
// signatures are one bug, whatever their titles. It is computed from the finding's directory
// alone (finding.json, and reduced.json or else case.json), so that any command can compute it;
// it is stored nowhere.
//
// A finding from a planted fault (Record.Fault, or "fault" in its options) is the planted fault:
// every finding of one fault spec in one engine is one bug, whichever oracle saw it and whatever
// its reduced case looks like. For any other finding the signature is its kind, the engines its
// title blames, and the shape of its case (the reduced one when there is one): the setup
// statements and the part of the queries that every oracle's variant shares (the case's "pred"
// and "from" parameters, where a query holds them, else the first query), with literals
// stripped ([fuzz.StripLiterals]), generated names reduced to their prefix (t0.c1 reads t#.c#)
// and white space collapsed. The oracle's name and the variant queries that differ between
// oracles are not part of it, so that NoREC and the TLP family finding one bug on one reduced
// case are one bug.
type Signature struct {
	// Fault is the planted fault spec, "" for a finding of the engine itself.
	Fault string
	// Kind is the finding's kind; empty for a planted fault.
	Kind string
	// Engines names the engines the title blames, comma-separated (for a planted fault, the
	// engine it was planted in).
	Engines string
	// Shape is the normalised case; empty for a planted fault.
	Shape string
}

// ID returns 16 hex digits of the SHA-1 of the signature, a short name for the bug.
func (s Signature) ID() string {
	h := sha1.Sum([]byte(s.Fault + "\x00" + s.Kind + "\x00" + s.Engines + "\x00" + s.Shape))
	return hex.EncodeToString(h[:8])
}

// Bug is the findings that share one signature.
type Bug struct {
	Signature Signature
	// Title is the title of the most hit finding (the first seen among equals).
	Title string
	// AltTitles are the titles of the other findings, most hit first.
	AltTitles []string
	// Records are the findings, most hit first.
	Records []*Record
	// Hits is the sum of the findings' hits.
	Hits int64
}

// Bugs reads the findings of the campaign output directory dir (dir/findings/*/) and groups
// them into bugs by [FindingSignature], in the order their first finding was seen. A directory
// without findings gives no bugs.
func Bugs(dir string) ([]Bug, error) {
	recs, err := readRecords(filepath.Join(dir, "findings"))
	if err != nil {
		return nil, err
	}
	return groupBugs(filepath.Join(dir, "findings"), recs), nil
}

// groupBugs groups recs (oldest first), whose directories are under findings, into bugs.
func groupBugs(findings string, recs []*Record) []Bug {
	var order []string
	byID := map[string]*Bug{}
	for _, r := range recs {
		sig := recordSignature(r, loadCase(filepath.Join(findings, r.Hash)))
		id := sig.ID()
		b, ok := byID[id]
		if !ok {
			b = &Bug{Signature: sig}
			byID[id] = b
			order = append(order, id)
		}
		b.Records = append(b.Records, r)
		b.Hits += r.Hits
	}
	out := make([]Bug, 0, len(order))
	for _, id := range order {
		b := byID[id]
		// Most hit first; the records came oldest first, and the sort is stable.
		sort.SliceStable(b.Records, func(i, j int) bool { return b.Records[i].Hits > b.Records[j].Hits })
		b.Title = b.Records[0].Title
		for _, r := range b.Records[1:] {
			b.AltTitles = append(b.AltTitles, r.Title)
		}
		out = append(out, *b)
	}
	return out
}

// FindingSignature returns the signature of the finding directory dir.
func FindingSignature(dir string) (Signature, error) {
	r := &Record{}
	if err := readJSON(filepath.Join(dir, "finding.json"), r); err != nil {
		return Signature{}, err
	}
	return recordSignature(r, loadCase(dir)), nil
}

// loadCase reads the reduced case of a finding directory, else its case; nil if neither reads.
func loadCase(dir string) *fuzz.Case {
	for _, name := range []string{"reduced.json", "case.json"} {
		c := &fuzz.Case{}
		if err := readJSON(filepath.Join(dir, name), c); err == nil {
			return c
		}
	}
	return nil
}

// recordSignature computes the signature of r, whose case (reduced when it was) is c.
func recordSignature(r *Record, c *fuzz.Case) Signature {
	if f := RecordFault(r); f != "" {
		engine := ""
		if len(r.Targets) > 0 {
			engine = r.Targets[0].Name
		}
		return Signature{Fault: f, Engines: engine}
	}
	sig := Signature{Kind: r.Kind.String(), Engines: blamed(r)}
	if c == nil {
		sig.Shape = "title " + r.Title // nothing to compare: the finding is its own bug
		return sig
	}
	sig.Shape = caseShape(c)
	return sig
}

// RecordFault returns the planted fault spec of r: Record.Fault, or the "fault" entry of its
// options (as campaigns stored it before Record.Fault existed); "" for a finding of the engine.
func RecordFault(r *Record) string {
	if r.Fault != "" {
		return r.Fault
	}
	var opts map[string]any
	if json.Unmarshal(r.Options, &opts) == nil {
		if f, ok := opts["fault"].(string); ok {
			return f
		}
	}
	return ""
}

// blamed returns the engines r's title names: of the title's ": "-separated fields, the first
// whose words (split at commas, spaces and "vs") are all names of r's targets; every target when
// no field is.
func blamed(r *Record) string {
	names := make([]string, 0, len(r.Targets))
	for _, t := range r.Targets {
		names = append(names, strings.ToLower(t.Name))
	}
	for _, field := range strings.Split(r.Title, ": ") {
		words := strings.FieldsFunc(field, func(c rune) bool { return c == ',' || c == ' ' })
		words = slices.DeleteFunc(words, func(w string) bool { return w == "vs" })
		if len(words) > 0 && !slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(names, w) }) {
			slices.Sort(words)
			return strings.Join(slices.Compact(words), ",")
		}
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// sharedParams are the case parameters every variant query of a case holds (SQL's predicate and
// FROM clause, see fuzz.Case.Params), in the order the shape lists them.
var sharedParams = []string{"pred", "from"}

// caseShape returns the normalised setup and shared query part of c.
func caseShape(c *fuzz.Case) string {
	var b strings.Builder
	for _, s := range c.Setup {
		b.WriteString(normalise(s))
		b.WriteString(";\n")
	}
	shared := false
	for _, p := range sharedParams {
		v := c.Params[p]
		if v == "" || !slices.ContainsFunc(c.Queries, func(q fuzz.Query) bool { return strings.Contains(q.Text, v) }) {
			continue // not used, or left behind by a reduction that changed the queries
		}
		shared = true
		b.WriteString(p + ": " + normalise(v) + "\n")
	}
	if !shared && len(c.Queries) > 0 {
		b.WriteString("query: " + normalise(c.Queries[0].Text) + "\n")
	}
	return b.String()
}

// genName matches a generated name: letters and underscores followed by digits (t0, c12, k49,
// ypt3, v0), as a whole word.
var genName = regexp.MustCompile(`\b([A-Za-z_]+)[0-9]+\b`)

// normalise strips literals and generated names' numbers from s and collapses white space.
func normalise(s string) string {
	s = fuzz.StripLiterals(s)
	s = genName.ReplaceAllString(s, "$1#")
	return strings.Join(strings.Fields(s), " ")
}
