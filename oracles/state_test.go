package oracles

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestState checks the state oracle's verdicts on recorded answers: the write's rows and each
// read-back compared, a failed write left out, a failed reference write skipping the check.
func TestState(t *testing.T) {
	l := fuzz.NewLayout("state", "write", "nodes", "rels")
	c := &fuzz.Case{Writes: true, Queries: []fuzz.Query{{Role: l.Role("write"), Text: "w"},
		{Role: l.Role("nodes"), Text: "n"}, {Role: l.Role("rels"), Text: "r"}}}
	ok := func(rows ...string) *fuzz.Result {
		r := &fuzz.Result{Status: fuzz.StatusOK}
		for _, v := range rows {
			r.Rows = append(r.Rows, []string{v})
		}
		return r
	}
	fail := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "unsupported", Err: "x"}
	run := func(target string, rs ...*fuzz.Result) fuzz.Run { return fuzz.Run{Target: target, Results: rs} }
	for _, tc := range []struct {
		name        string
		runs        []fuzz.Run
		title, skip string
	}{
		{"same", []fuzz.Run{run("ref", ok("i:1"), ok("a", "b"), ok()), run("neo4j", ok("i:1"), ok("b", "a"), ok())}, "", ""},
		{"write rows", []fuzz.Run{run("ref", ok("i:1"), ok("a"), ok()), run("neo4j", ok("i:2"), ok("a"), ok())},
			"state: neo4j: returns different rows than ref", ""},
		{"nodes", []fuzz.Run{run("ref", ok("i:1"), ok("a"), ok()), run("neo4j", ok("i:1"), ok("a"), ok()),
			run("falkordb", ok("i:1"), ok("c"), ok())}, "state: falkordb: leaves different nodes than neo4j,ref", ""},
		{"rels", []fuzz.Run{run("ref", ok("i:1"), ok("a"), ok("e")), run("falkordb", ok("i:1"), ok("a"), ok())},
			"state: falkordb: leaves different rels than ref", ""},
		{"failed write left out", []fuzz.Run{run("ref", ok("i:1"), ok("a"), ok()), run("neo4j", ok("i:1"), ok("a"), ok()),
			run("falkordb", fail, ok("b"), ok())}, "", ""},
		{"reference failed", []fuzz.Run{run("ref", fail, ok("a"), ok()), run("neo4j", ok("i:1"), ok("a"), ok()),
			run("falkordb", ok("i:2"), ok("b"), ok())}, "", "reference-failed"},
		{"one write answered", []fuzz.Run{run("ref", ok("i:1"), ok("a"), ok()), run("falkordb", fail, ok("b"), ok())},
			"", "error-on-some-engine"},
	} {
		v := State{Layout: l, Reference: "ref"}.Check(c, tc.runs)
		title := ""
		if v.Finding != nil {
			title = v.Finding.Title
			if v.Finding.Oracle != "state" || v.Finding.Kind != fuzz.KindWrongResult {
				t.Errorf("%s: finding %+v", tc.name, v.Finding)
			}
		}
		if title != tc.title || v.Skip != tc.skip {
			t.Errorf("%s: title %q skip %q, want %q and %q", tc.name, title, v.Skip, tc.title, tc.skip)
		}
	}
}
