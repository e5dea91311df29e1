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
			o := Known{Oracle: Rows{Layouts: []*fuzz.Layout{fuzz.NewLayout("graph", "q")}, Reference: "ref"}, Explain: tt.explains}
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

func TestEmptiness(t *testing.T) {
	graph := fuzz.NewLayout("graph", "q")
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "graph.q"}, {Role: "tlp.orig"}, {Role: "other"}}}
	rows := func(n int) *fuzz.Result {
		r := &fuzz.Result{Status: fuzz.StatusOK}
		for range n {
			r.Rows = append(r.Rows, []string{"i:1"})
		}
		return r
	}
	runs := []fuzz.Run{
		{Target: "neo4j", Results: []*fuzz.Result{rows(0), rows(0), rows(0)}},
		{Target: "ref", Results: []*fuzz.Result{rows(2), {Status: fuzz.StatusEngineError}, rows(0)}},
	}
	v := Emptiness{Target: "ref", Layouts: []*fuzz.Layout{graph, fuzz.TLPWhere}}.Check(c, runs)
	if got := strings.Join(v.Notes, ","); got != "non-empty,failed" || v.Checked || v.Finding != nil || v.Skip != "" {
		t.Errorf("verdict %+v, want notes non-empty,failed only", v)
	}
	runs[1].Results[0] = rows(0)
	if got := strings.Join(Emptiness{Target: "ref", Layouts: []*fuzz.Layout{graph}}.Check(c, runs).Notes, ","); got != "empty" {
		t.Errorf("notes %q, want empty", got)
	}
}

// fixed is an oracle with a fixed verdict.
type fixed fuzz.Verdict

func (fixed) Name() string                                { return "fixed" }
func (o fixed) Check(*fuzz.Case, []fuzz.Run) fuzz.Verdict { return fuzz.Verdict(o) }

// TestKnownSeveralChecks checks that an explained finding in a case of several checks skips that
// check alone.
func TestKnownSeveralChecks(t *testing.T) {
	explain := func(*fuzz.Finding) string { return "k" }
	tests := []struct {
		name  string
		v     fuzz.Verdict
		made  int
		skip  string
		parts []string
	}{
		{"one check", fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{}}, 0, "known: k", nil},
		{"four checks", fuzz.Verdict{Checked: true, Checks: 4, Finding: &fuzz.Finding{}}, 3, "", []string{"known: k"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Known{Oracle: fixed(tt.v), Explain: explain}.Check(&fuzz.Case{}, nil)
			if v.Finding != nil || v.Made() != tt.made || v.Skip != tt.skip || strings.Join(v.Partial, ",") != strings.Join(tt.parts, ",") {
				t.Errorf("verdict %+v: want %d checks made, skip %q, partial %v", v, tt.made, tt.skip, tt.parts)
			}
		})
	}
}
