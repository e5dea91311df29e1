package oracles

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestKnown(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "graph.q", Text: "q"}}}
	run := func(target, v string) fuzz.Run {
		return fuzz.Run{Target: target, Results: []*fuzz.Result{{Status: fuzz.StatusOK, Rows: [][]string{{v}}}}}
	}
	explainB := func(f *fuzz.Finding) string {
		if strings.Contains(f.Title, ": b:") {
			return "b-rounds"
		}
		return ""
	}
	tests := []struct {
		name     string
		runs     []fuzz.Run
		skip     string
		finding  bool
		explains func(*fuzz.Finding) string
	}{
		{"agree", []fuzz.Run{run("a", "i:1"), run("ref", "i:1")}, "", false, explainB},
		{"explained", []fuzz.Run{run("b", "i:2"), run("ref", "i:1")}, "known: b-rounds", false, explainB},
		{"not explained", []fuzz.Run{run("a", "i:2"), run("ref", "i:1")}, "", true, explainB},
		{"no catalogue", []fuzz.Run{run("b", "i:2"), run("ref", "i:1")}, "", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Known{Oracle: Rows{Prefixes: []string{"graph."}, Reference: "ref"}, Explain: tt.explains}
			v := o.Check(c, tt.runs)
			if v.Skip != tt.skip || (v.Finding != nil) != tt.finding {
				t.Errorf("verdict %+v, want skip %q, finding %v", v, tt.skip, tt.finding)
			}
			if o.Name() != "diff" {
				t.Errorf("name %q, want the wrapped oracle's", o.Name())
			}
		})
	}
}
