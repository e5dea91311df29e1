package oracles

import (
	"slices"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestSeveralChecks checks the oracles on cases of several checks (fuzz.CheckRole): each check
// is made and counted, a skip in one check skips it alone, and a finding in one names that
// check's queries.
func TestSeveralChecks(t *testing.T) {
	errRes := &fuzz.Result{Status: fuzz.StatusEngineError}
	a, b := row("i:1"), row("i:2")
	// NoREC: three checks; the unoptimized query sums each.
	norec := &fuzz.Case{Queries: []fuzz.Query{
		{Role: "norec.opt-count"}, {Role: "norec.opt-rows#1"}, {Role: "norec.opt-count#2"}, {Role: "norec.unopt"}}}
	// TLP-WHERE: one original query, three checks.
	tlp := &fuzz.Case{Queries: []fuzz.Query{{Role: "tlp.orig"},
		{Role: "tlp.p"}, {Role: "tlp.notp"}, {Role: "tlp.null"},
		{Role: "tlp.p#1"}, {Role: "tlp.notp#1"}, {Role: "tlp.null#1"},
		{Role: "tlp.p#2"}, {Role: "tlp.notp#2"}, {Role: "tlp.null#2"}}}
	// PQS: one fetch and pivot, three containment queries.
	pqs := &fuzz.Case{Queries: []fuzz.Query{{Role: "pqs.fetch"}, {Role: "pqs.pivot"},
		{Role: "pqs.contains"}, {Role: "pqs.contains#1"}, {Role: "pqs.contains#2"}}}
	tests := []struct {
		name    string
		o       fuzz.Oracle
		c       *fuzz.Case
		results []*fuzz.Result
		checks  int      // checks made
		skips   []string // Skip and Partial
		title   string
		roles   []string
	}{
		{"norec all agree", NoREC{}, norec, []*fuzz.Result{ok(row("i:1")), ok(a, b), ok(row("i:0")), ok(row("i:1", "i:2", "NULL"))}, 3, nil, "", nil},
		{"norec check 1 fails", NoREC{}, norec, []*fuzz.Result{ok(row("i:1")), ok(a), ok(row("i:0")), ok(row("i:1", "i:2", "i:0"))}, 3, nil,
			"norec: sqlite: optimized query returns fewer rows", []string{"norec.opt-rows#1", "norec.unopt"}},
		{"norec check 2 skips", NoREC{}, norec, []*fuzz.Result{ok(row("i:1")), ok(a, b), errRes, ok(row("i:1", "i:2", "i:0"))}, 2, []string{"error"}, "", nil},
		{"norec sums missing", NoREC{}, norec, []*fuzz.Result{ok(row("i:1")), ok(a, b), ok(row("i:0")), ok(row("i:1", "i:2"))}, 3, nil,
			"norec: sqlite: sum query did not return one value", nil},
		{"tlp all agree", TLP{}, tlp, []*fuzz.Result{ok(a, b), ok(a), ok(b), ok(), ok(a, b), ok(), ok(), ok(), ok(a), ok(b)}, 3, nil, "", nil},
		{"tlp check 2 fails", TLP{}, tlp, []*fuzz.Result{ok(a, b), ok(a), ok(b), ok(), ok(a, b), ok(), ok(), ok(), ok(a), ok()}, 3, nil,
			"tlp-where: sqlite: partitions miss rows", []string{"tlp.orig", "tlp.p#2", "tlp.notp#2", "tlp.null#2"}},
		{"tlp check 0 skips", TLP{}, tlp, []*fuzz.Result{ok(a, b), errRes, ok(b), ok(), ok(a, b), ok(), ok(), ok(), ok(a), ok(b)}, 2, []string{"error"}, "", nil},
		{"tlp every check skips", TLP{}, tlp, []*fuzz.Result{ok(a, b), errRes, ok(b), ok(), errRes, ok(), ok(), ok(), ok(a), errRes}, 0,
			[]string{"error", "error", "error"}, "", nil},
		{"pqs all contain", PQS{}, pqs, []*fuzz.Result{ok(a), ok(a), ok(a), ok(b), ok(a)}, 3, nil, "", nil},
		{"pqs check 1 misses", PQS{}, pqs, []*fuzz.Result{ok(a), ok(a), ok(a), ok(), ok(a)}, 3, nil,
			"pqs: sqlite: pivot row missing", []string{"pqs.fetch", "pqs.pivot", "pqs.contains#1"}},
		{"pqs check 2 fails", PQS{}, pqs, []*fuzz.Result{ok(a), ok(a), ok(a), ok(b), errRes}, 2, []string{"error"}, "", nil},
		{"pqs no pivot", PQS{}, pqs, []*fuzz.Result{ok(a), ok(), ok(), ok(), ok()}, 0,
			[]string{"pqs-no-pivot", "pqs-no-pivot", "pqs-no-pivot"}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.o.Check(tc.c, []fuzz.Run{{Target: "sqlite", Results: tc.results}})
			if v.Made() != tc.checks {
				t.Errorf("made %d checks, want %d (%+v)", v.Made(), tc.checks, v)
			}
			var skips []string
			if v.Skip != "" {
				skips = append(skips, v.Skip)
			}
			skips = append(skips, v.Partial...)
			if !slices.Equal(skips, tc.skips) {
				t.Errorf("skips %q, want %q", skips, tc.skips)
			}
			switch {
			case tc.title == "" && v.Finding != nil:
				t.Fatalf("unexpected finding %q", v.Finding.Title)
			case tc.title == "":
			case v.Finding == nil:
				t.Fatalf("no finding, want %q", tc.title)
			case v.Finding.Title != tc.title || !slices.Equal(v.Finding.Roles, tc.roles):
				t.Errorf("finding %q of %q, want %q of %q", v.Finding.Title, v.Finding.Roles, tc.title, tc.roles)
			}
		})
	}
}
