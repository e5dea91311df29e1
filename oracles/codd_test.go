package oracles

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestCODD checks the folding relation of the codd oracle, the result map's check, its skips,
// and the finding's kind.
func TestCODD(t *testing.T) {
	full := &fuzz.Case{Queries: []fuzz.Query{{Role: "codd.fetch"}, {Role: "codd.map"}, {Role: "codd.orig"}, {Role: "codd.fold"}}}
	fetchOnly := &fuzz.Case{Queries: []fuzz.Query{{Role: "codd.fetch"}}}
	fetched := []string{"i:1", "t:a", "i:1"}
	other := []string{"i:2", "t:b", "i:0"}
	failed := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_ERROR"}
	run := func(target string, rs ...*fuzz.Result) fuzz.Run { return fuzz.Run{Target: target, Results: rs} }
	tests := []struct {
		name        string
		c           *fuzz.Case
		runs        []fuzz.Run
		title, skip string
	}{
		{"same rows", full, []fuzz.Run{run("e", ok(fetched, other), ok(other, fetched), ok(row("i:1")), ok(row("i:1")))}, "", ""},
		{"folded query drops a row", full, []fuzz.Run{run("e", ok(fetched), ok(fetched), ok(row("i:1")), ok())},
			"codd: e: folded query returns other rows", ""},
		{"folded query changes a value", full, []fuzz.Run{run("e", ok(fetched), ok(fetched), ok(row("i:1")), ok(row("i:2")))},
			"codd: e: folded query returns other rows", ""},
		{"on the second engine", full, []fuzz.Run{run("a", ok(fetched), ok(fetched), ok(row("i:1")), ok(row("i:1"))),
			run("b", ok(fetched), ok(fetched), ok(row("i:1")), ok(row("i:1"), row("i:1")))}, "codd: b: folded query returns other rows", ""},
		{"map gives another value", full, []fuzz.Run{run("e", ok(fetched), ok(other), ok(row("i:1")), ok())}, "", "codd-inexact"},
		{"map misses a row", full, []fuzz.Run{run("e", ok(fetched, other), ok(fetched), ok(row("i:1")), ok())}, "", "codd-inexact"},
		{"folded query fails", full, []fuzz.Run{run("e", ok(fetched), ok(fetched), ok(row("i:1")), failed)}, "", "error"},
		{"no rows to fold", fetchOnly, []fuzz.Run{run("e", ok())}, "", "codd-no-rows"},
		{"no map derived", fetchOnly, []fuzz.Run{run("e", ok(fetched))}, "", "codd-unfoldable"},
		{"fetch fails", fetchOnly, []fuzz.Run{run("e", failed)}, "", "error"},
		{"no layout", &fuzz.Case{}, []fuzz.Run{run("e")}, "", "no-layout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := CODD{}.Check(tc.c, tc.runs)
			title := ""
			if f := v.Finding; f != nil {
				title = f.Title
				if f.Kind != fuzz.KindWrongResult || len(f.Roles) != 4 || f.Oracle != "codd" {
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
