package oracles

import (
	"slices"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestRewrite(t *testing.T) {
	o := Rewrite{Label: "genie", Orig: "graph.q", Reference: "ref",
		Rels: map[string]string{"genie.eq": RelEqual, "genie.super": RelSubset, "genie.sub": RelSuperset}}
	run := func(target string, rs ...*fuzz.Result) fuzz.Run { return fuzz.Run{Target: target, Results: rs} }
	unsupported := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "unsupported", Err: "x"}
	a, aa, ab := ok(row("i:1")), ok(row("i:1"), row("i:1")), ok(row("i:1"), row("i:2"))
	tests := []struct {
		name, role  string
		runs        []fuzz.Run
		title, skip string
	}{
		{"equal holds in any order", "genie.eq", []fuzz.Run{run("neo4j", ab, ok(row("i:2"), row("i:1")))}, "", ""},
		{"equal misses", "genie.eq", []fuzz.Run{run("neo4j", ab, a)}, "genie: neo4j: the equivalent rewrite misses rows of the original", ""},
		{"equal counts duplicates", "genie.eq", []fuzz.Run{run("neo4j", a, aa)}, "genie: neo4j: the equivalent rewrite adds rows to the original", ""},
		{"relaxing holds", "genie.super", []fuzz.Run{run("neo4j", a, ab)}, "", ""},
		{"relaxing misses", "genie.super", []fuzz.Run{run("neo4j", aa, ab)}, "genie: neo4j: the relaxing rewrite misses rows of the original", ""},
		{"restricting holds", "genie.sub", []fuzz.Run{run("neo4j", ab, ok())}, "", ""},
		{"restricting adds", "genie.sub", []fuzz.Run{run("neo4j", a, ab)}, "genie: neo4j: the restricting rewrite adds rows to the original", ""},
		{"reference blamed first", "genie.eq", []fuzz.Run{run("neo4j", a, ab), run("ref", a, ok())},
			"genie: ref: the equivalent rewrite misses rows of the original", ""},
		{"engine after a sound reference", "genie.eq", []fuzz.Run{run("neo4j", a, ab), run("ref", a, a)},
			"genie: neo4j: the equivalent rewrite adds rows to the original", ""},
		{"no answer", "genie.eq", []fuzz.Run{run("neo4j", a, unsupported)}, "", "no-answer"},
		{"no rewrite", "grev.eq", []fuzz.Run{run("neo4j", a, a)}, "", "no-layout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fuzz.Case{Queries: []fuzz.Query{{Role: "graph.q"}, {Role: tc.role}}}
			v := o.Check(c, tc.runs)
			title := ""
			if v.Finding != nil {
				title = v.Finding.Title
				if v.Finding.Kind != fuzz.KindWrongResult || !slices.Equal(v.Finding.Roles, []string{"graph.q", tc.role}) {
					t.Errorf("finding %+v", v.Finding)
				}
			}
			if title != tc.title || v.Skip != tc.skip {
				t.Errorf("got title %q skip %q; want %q %q", title, v.Skip, tc.title, tc.skip)
			}
		})
	}
}
