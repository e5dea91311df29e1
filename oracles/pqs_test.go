package oracles

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestPQS checks the containment relation of the pqs oracle, its skips, and the finding's kind.
func TestPQS(t *testing.T) {
	full := &fuzz.Case{Queries: []fuzz.Query{{Role: "pqs.fetch"}, {Role: "pqs.pivot"}, {Role: "pqs.contains"}}}
	fetchOnly := &fuzz.Case{Queries: []fuzz.Query{{Role: "pqs.fetch"}}}
	pivot := row("i:1", "t:a")
	failed := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_ERROR"}
	run := func(target string, rs ...*fuzz.Result) fuzz.Run { return fuzz.Run{Target: target, Results: rs} }
	tests := []struct {
		name        string
		c           *fuzz.Case
		runs        []fuzz.Run
		title, skip string
	}{
		{"pivot fetched", full, []fuzz.Run{run("e", ok(pivot), ok(pivot), ok(pivot))}, "", ""},
		{"pivot missing", full, []fuzz.Run{run("e", ok(pivot), ok(pivot), ok())}, "pqs: e: pivot row missing", ""},
		{"pivot missing on the second engine", full,
			[]fuzz.Run{run("a", ok(pivot), ok(pivot), ok(pivot)), run("b", ok(pivot), ok(pivot), ok())}, "pqs: b: pivot row missing", ""},
		{"no pivot in its tables", full, []fuzz.Run{run("e", ok(pivot), ok(), ok())}, "", "pqs-no-pivot"},
		{"containment query fails", full, []fuzz.Run{run("e", ok(pivot), ok(pivot), failed)}, "", "error"},
		{"no rows to pick from", fetchOnly, []fuzz.Run{run("e", ok())}, "", "pqs-no-rows"},
		{"no expression derived", fetchOnly, []fuzz.Run{run("e", ok(pivot))}, "", "pqs-unknown"},
		{"fetch fails", fetchOnly, []fuzz.Run{run("e", failed)}, "", "error"},
		{"no layout", &fuzz.Case{}, []fuzz.Run{run("e")}, "", "no-layout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := PQS{}.Check(tc.c, tc.runs)
			title := ""
			if f := v.Finding; f != nil {
				title = f.Title
				if f.Kind != fuzz.KindWrongResult || len(f.Roles) != 3 {
					t.Errorf("finding %+v", f)
				}
			}
			if title != tc.title || v.Skip != tc.skip {
				t.Errorf("got title %q skip %q; want %q %q", title, v.Skip, tc.title, tc.skip)
			}
			if v.Skip == "" && !v.Checked {
				t.Errorf("neither checked nor skipped")
			}
		})
	}
}
