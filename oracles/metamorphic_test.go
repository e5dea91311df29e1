package oracles

import (
	"slices"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestMetamorphic(t *testing.T) {
	o := Metamorphic{Orig: "dl.orig", Trans: "dl.trans", Param: "expect"}
	run := func(target string, rs ...*fuzz.Result) fuzz.Run { return fuzz.Run{Target: target, Results: rs} }
	unsupported := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "unsupported", Err: "symbol-order"}
	a, ab := ok(row("r", "i:1")), ok(row("r", "i:1"), row("r", "i:2"))
	b := ok(row("r", "i:2"))
	tests := []struct {
		name, rel   string
		runs        []fuzz.Run
		title, skip string
		partial     []string
	}{
		{"equal holds", "equal", []fuzz.Run{run("muz", ab, ok(row("r", "i:2"), row("r", "i:1")))}, "", "", nil},
		{"equal misses", "equal", []fuzz.Run{run("muz", ab, a)},
			"metamorphic: muz: the equal transformation misses tuples of the original", "", nil},
		{"equal adds", "equal", []fuzz.Run{run("muz", a, ab)},
			"metamorphic: muz: the equal transformation adds tuples to the original", "", nil},
		{"equal both", "equal", []fuzz.Run{run("muz", a, b)},
			"metamorphic: muz: the equal transformation misses and adds tuples", "", nil},
		{"subset holds", "subset", []fuzz.Run{run("muz", a, ab)}, "", "", nil},
		{"subset holds when equal", "subset", []fuzz.Run{run("muz", a, a)}, "", "", nil},
		{"subset broken", "subset", []fuzz.Run{run("muz", ab, a)},
			"metamorphic: muz: the subset transformation misses tuples of the original", "", nil},
		{"superset holds", "superset", []fuzz.Run{run("muz", ab, a)}, "", "", nil},
		{"superset holds when empty", "superset", []fuzz.Run{run("muz", ab, ok())}, "", "", nil},
		{"superset broken", "superset", []fuzz.Run{run("muz", a, ab)},
			"metamorphic: muz: the superset transformation adds tuples to the original", "", nil},
		{"second engine breaks", "equal", []fuzz.Run{run("ref", a, a), run("swipl", a, ok())},
			"metamorphic: swipl: the equal transformation misses tuples of the original", "", nil},
		{"unsupported left out", "equal", []fuzz.Run{run("muz", unsupported, unsupported), run("ref", a, a)},
			"", "", []string{"unsupported symbol-order on muz"}},
		{"no engine answers", "equal", []fuzz.Run{run("muz", a, unsupported)},
			"", "no-answer", []string{"unsupported symbol-order on muz"}},
		{"unknown relation", "bigger", []fuzz.Run{run("muz", a, a)}, "", "no-layout", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fuzz.Case{Queries: []fuzz.Query{{Role: "dl.orig"}, {Role: "dl.trans"}}, Params: map[string]string{"expect": tc.rel}}
			v := o.Check(c, tc.runs)
			title := ""
			if v.Finding != nil {
				title = v.Finding.Title
				if v.Finding.Kind != fuzz.KindWrongResult || !slices.Equal(v.Finding.Roles, []string{"dl.orig", "dl.trans"}) {
					t.Errorf("finding %+v", v.Finding)
				}
			}
			if title != tc.title || v.Skip != tc.skip || !slices.Equal(v.Partial, tc.partial) {
				t.Errorf("got title %q skip %q partial %q; want %q %q %q", title, v.Skip, v.Partial, tc.title, tc.skip, tc.partial)
			}
			if v.Skip == "" && !v.Checked {
				t.Errorf("neither checked nor skipped")
			}
		})
	}
}

func TestRowsAnsweredOnly(t *testing.T) {
	o := Rows{AnsweredOnly: true, Reference: "ref"}
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "dl.orig"}}}
	unsupported := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "unsupported", Err: "number-range"}
	one, two := ok(row("r", "i:1")), ok(row("r", "i:1"), row("r", "i:2"))
	tests := []struct {
		name        string
		runs        []fuzz.Run
		title, skip string
		partial     []string
	}{
		{"compares the rest", []fuzz.Run{{Target: "clingo", Results: []*fuzz.Result{unsupported}},
			{Target: "ref", Results: []*fuzz.Result{two}}, {Target: "muz", Results: []*fuzz.Result{one}}},
			"diff: muz: returns different rows than ref", "", []string{"unsupported number-range on clingo"}},
		{"agree", []fuzz.Run{{Target: "clingo", Results: []*fuzz.Result{unsupported}},
			{Target: "ref", Results: []*fuzz.Result{two}}, {Target: "muz", Results: []*fuzz.Result{two}}},
			"", "", []string{"unsupported number-range on clingo"}},
		{"reference decides", []fuzz.Run{{Target: "clingo", Results: []*fuzz.Result{one}},
			{Target: "ref", Results: []*fuzz.Result{two}}, {Target: "muz", Results: []*fuzz.Result{one}}},
			"diff: clingo,muz: returns different rows than ref", "", nil},
		{"one answer", []fuzz.Run{{Target: "clingo", Results: []*fuzz.Result{unsupported}},
			{Target: "ref", Results: []*fuzz.Result{two}}},
			"", "error-on-some-engine", []string{"unsupported number-range on clingo"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := o.Check(c, tc.runs)
			title := ""
			if v.Finding != nil {
				title = v.Finding.Title
			}
			if title != tc.title || v.Skip != tc.skip || !slices.Equal(v.Partial, tc.partial) {
				t.Errorf("got title %q skip %q partial %q; want %q %q %q", title, v.Skip, v.Partial, tc.title, tc.skip, tc.partial)
			}
		})
	}
}
