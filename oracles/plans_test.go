package oracles

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestDQP checks the relation, the skips and the finding of the dqp oracle.
func TestDQP(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "dqp.base"}, {Role: "dqp.set"}, {Role: "dqp.plan"}, {Role: "dqp.reset"}},
		Params: map[string]string{"plan": "enable_hashjoin"}}
	a, b := []string{"i:1"}, []string{"i:2"}
	failed := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "42704"}
	tests := []struct {
		name    string
		results []*fuzz.Result
		title   string // "" for none
		skip    string
	}{
		{"same rows in another order", []*fuzz.Result{ok(a, b), ok(), ok(b, a), ok()}, "", ""},
		{"same values under other type tags", []*fuzz.Result{ok(a, b), ok(), ok([]string{"r:1"}, []string{"d:2.0"}), ok()}, "", ""},
		{"a row fewer", []*fuzz.Result{ok(a, b), ok(), ok(b), ok()}, "dqp: e: the query under enable_hashjoin misses rows", ""},
		{"a duplicate", []*fuzz.Result{ok(a), ok(), ok(a, a), ok()}, "dqp: e: the query under enable_hashjoin adds rows", ""},
		{"setting rejected", []*fuzz.Result{ok(a), failed, ok(), ok()}, "", "no-answer"},
		{"plan fails", []*fuzz.Result{ok(a), ok(), failed, ok()}, "", "no-answer"},
	}
	for _, tc := range tests {
		v := DQP{Param: "plan"}.Check(c, []fuzz.Run{{Target: "e", Results: tc.results}})
		switch {
		case tc.title == "" && v.Finding != nil:
			t.Errorf("%s: finding %q", tc.name, v.Finding.Title)
		case tc.title != "" && (v.Finding == nil || v.Finding.Title != tc.title || v.Finding.Kind != fuzz.KindWrongResult):
			t.Errorf("%s: verdict %+v, want %q", tc.name, v, tc.title)
		case v.Skip != tc.skip:
			t.Errorf("%s: skip %q, want %q", tc.name, v.Skip, tc.skip)
		}
	}
}

// TestCERT checks the relation of the cert oracle in both directions, its clamp, its skips and the
// kind of its findings.
func TestCERT(t *testing.T) {
	est := func(r *fuzz.Result) (float64, []string, bool) {
		if len(r.Rows) == 0 {
			return 0, nil, false
		}
		var n float64
		for _, c := range r.Rows[0][0] {
			n = 10*n + float64(c-'0')
		}
		return n, r.Rows[0][1:], true
	}
	plan := func(rows string, ops ...string) *fuzz.Result { return ok(append([]string{rows}, ops...)) }
	tests := []struct {
		dir        string
		qerror     float64
		orig, mut  *fuzz.Result
		title, skp string
	}{
		{"restrict", 0, plan("10", "Scan"), plan("5", "Scan"), "", ""},
		{"restrict", 0, plan("10", "Scan"), plan("11", "Scan"), "cert: e: the and mutant (restrict) is estimated to return more rows", ""},
		{"relax", 0, plan("10", "Scan"), plan("9", "Hash", "Scan"), "cert: e: the and mutant (relax) is estimated to return fewer rows", ""},
		{"relax", 0, plan("10", "Scan"), plan("9", "Hash", "Sort", "Scan"), "", "plans-differ"},
		{"restrict", 0, plan("0", "Result"), plan("1", "Limit", "Result"), "", ""},
		{"restrict", 0, plan("3", "Scan"), ok(), "", "no-estimate"},
		{"restrict", 2, plan("10", "Scan"), plan("20", "Scan"), "", ""},
		{"restrict", 2, plan("10", "Scan"), plan("21", "Scan"), "cert: e: the and mutant (restrict) is estimated to return more rows", ""},
		{"relax", 2, plan("2", "Scan"), plan("1", "Scan"), "", ""},
		{"relax", 2, plan("10", "Scan"), plan("4", "Scan"), "cert: e: the and mutant (relax) is estimated to return fewer rows", ""},
	}
	for i, tc := range tests {
		c := &fuzz.Case{Queries: []fuzz.Query{{Role: "cert.orig"}, {Role: "cert.mut"}}, Params: map[string]string{"dir": tc.dir, "mut": "and"}}
		v := CERT{Estimate: est, DirParam: "dir", MutParam: "mut", QError: tc.qerror}.Check(c, []fuzz.Run{{Target: "e", Results: []*fuzz.Result{tc.orig, tc.mut}}})
		if tc.title == "" && v.Finding != nil || tc.title != "" && (v.Finding == nil || v.Finding.Title != tc.title ||
			v.Finding.Kind != fuzz.KindPerformance) || v.Skip != tc.skp {
			t.Errorf("%d: verdict %+v, want title %q, skip %q", i, v, tc.title, tc.skp)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a b", "a b", 0}, {"a b", "a c b", 1}, {"a b c", "c b a", 2}, {"a", "", 1}} {
		if d := editDistance(strings.Fields(tc.a), strings.Fields(tc.b)); d != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}

// TestPlans checks that the plan counter notes each signature new once per engine.
func TestPlans(t *testing.T) {
	o := NewPlans(func(r *fuzz.Result) (string, bool) { return r.Rows[0][0], true })
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "qpg.plan"}}}
	var notes []string
	for _, s := range []string{"A", "B", "A"} {
		notes = append(notes, o.Check(c, []fuzz.Run{{Target: "e", Results: []*fuzz.Result{ok([]string{s})}}}).Notes...)
	}
	// A plan one engine chose is new for another engine.
	notes = append(notes, o.Check(c, []fuzz.Run{{Target: "f", Results: []*fuzz.Result{ok([]string{"A"})}}}).Notes...)
	if strings.Join(notes, ",") != "new plan,new plan,seen plan,new plan" {
		t.Errorf("notes %q", notes)
	}
}
