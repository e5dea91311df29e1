package oracles

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func aggCase(agg string) *fuzz.Case {
	c := &fuzz.Case{Params: map[string]string{"agg": agg}}
	for _, r := range []string{"agg.orig", "agg.p", "agg.notp", "agg.null"} {
		c.Queries = append(c.Queries, fuzz.Query{Role: r})
	}
	return c
}

// aggRun is one run: the original's single value and the partitions' single rows.
func aggRun(target, orig string, parts ...[]string) fuzz.Run {
	rs := []*fuzz.Result{ok(row(orig))}
	for _, p := range parts {
		rs = append(rs, ok(p))
	}
	return fuzz.Run{Target: target, Results: rs}
}

// sumRun is aggRun for SUM, whose rows also hold COUNT(e): one for a non-NULL sum, zero for NULL.
func sumRun(target, orig string, parts ...[]string) fuzz.Run {
	withCount := func(v string) []string {
		if v == "NULL" {
			return row(v, "i:0")
		}
		return row(v, "i:1")
	}
	run := fuzz.Run{Target: target, Results: []*fuzz.Result{ok(withCount(orig))}}
	for _, p := range parts {
		run.Results = append(run.Results, ok(withCount(p[0])))
	}
	return run
}

func TestTLPAgg(t *testing.T) {
	N := "NULL"
	tests := []struct {
		name        string
		agg         string
		tol         float64
		orig        string
		parts       [][]string // p, notp, null
		title, skip string
	}{
		{"count", "COUNT", 0, "i:5", [][]string{{"i:2"}, {"i:3"}, {"i:0"}}, "", ""},
		{"count lower case param", "count", 0, "i:5", [][]string{{"i:2"}, {"i:3"}, {"i:0"}}, "", ""},
		{"count decimal", "COUNT", 0, "d:5", [][]string{{"i:2"}, {"i:3"}, {"i:0"}}, "", ""},
		{"count differs", "COUNT", 0, "i:5", [][]string{{"i:2"}, {"i:2"}, {"i:0"}},
			"tlp-agg: sqlite: count of partitions differs from the count", ""},
		{"count non-count", "COUNT", 0, "t:5", [][]string{{"i:2"}, {"i:3"}, {"i:0"}},
			"tlp-agg: sqlite: count query returned a non-count", ""},

		{"sum", "SUM", 0, "i:7", [][]string{{"i:3"}, {N}, {"i:4"}}, "", ""},
		{"sum decimals", "SUM", 0, "d:1.50", [][]string{{"d:0.5"}, {"i:1"}, {N}}, "", ""},
		{"sum all null", "SUM", 0, N, [][]string{{N}, {N}, {N}}, "", ""},
		{"sum differs", "SUM", 0, "i:8", [][]string{{"i:3"}, {N}, {"i:4"}},
			"tlp-agg: sqlite: sum of partitions differs from the sum", ""},
		{"sum null but partitions not", "SUM", 0, N, [][]string{{"i:3"}, {N}, {N}},
			"tlp-agg: sqlite: sum of partitions differs from the sum", ""},
		{"sum not null but partitions null", "SUM", 0, "i:0", [][]string{{N}, {N}, {N}},
			"tlp-agg: sqlite: sum of partitions differs from the sum", ""},
		{"sum float", "SUM", 0, "r:0.30000000000000004", [][]string{{"r:0.1"}, {"r:0.2"}, {N}}, "", "inexact-sum"},
		{"sum float orig", "SUM", 0, "r:3", [][]string{{"i:1"}, {"i:2"}, {N}}, "", "inexact-sum"},
		{"sum float null mismatch is no evidence (NaN reads as NULL)", "SUM", 0, N, [][]string{{"r:+Inf"}, {"r:-Inf"}, {N}},
			"", "inexact-sum"},
		{"sum exact null mismatch", "SUM", 0, N, [][]string{{"i:5"}, {N}, {N}},
			"tlp-agg: sqlite: sum of partitions differs from the sum", ""},
		{"sum non-numeric", "SUM", 0, "t:1 day", [][]string{{"t:1 day"}, {N}, {N}}, "", "non-numeric"},
		// DataFusion's SUM of BIGINT wraps: 2^62 + 2^62 + 1 answers -2^63 + 1.
		{"sum wrapped beyond bigint", "SUM", 0, "i:-9223372036854775807",
			[][]string{{"i:4611686018427387904"}, {"i:4611686018427387904"}, {"i:1"}}, "", "int-overflow"},
		{"sum differs within bigint", "SUM", 0, "i:-9223372036854775807",
			[][]string{{"i:4611686018427387904"}, {"i:-4611686018427387904"}, {"i:1"}},
			"tlp-agg: sqlite: sum of partitions differs from the sum", ""},

		{"avg", "AVG", 0, "d:2.3333333333333333", [][]string{{"i:3", "i:1"}, {"i:4", "i:2"}, {N, "i:0"}}, "", ""},
		{"avg mysql scale", "AVG", 0, "d:2.3333", [][]string{{"i:3", "i:1"}, {"i:4", "i:2"}, {N, "i:0"}}, "", ""},
		{"avg float of exact sums", "AVG", 0, "r:2.3333333333333335", [][]string{{"i:3", "i:1"}, {"i:4", "i:2"}, {N, "i:0"}}, "", ""},
		{"avg differs", "AVG", 0, "d:2.5", [][]string{{"i:3", "i:1"}, {"i:4", "i:2"}, {N, "i:0"}},
			"tlp-agg: sqlite: avg of partitions differs from the avg", ""},
		{"avg tight tolerance", "AVG", 1e-9, "d:2.3333", [][]string{{"i:3", "i:1"}, {"i:4", "i:2"}, {N, "i:0"}},
			"tlp-agg: sqlite: avg of partitions differs from the avg", ""},
		{"avg absolute tolerance near zero", "AVG", 0, "d:0.0005", [][]string{{"i:0", "i:1"}, {N, "i:0"}, {N, "i:0"}}, "", ""},
		{"avg large relative", "AVG", 0, "d:1000000.5", [][]string{{"i:2000000", "i:2"}, {N, "i:0"}, {N, "i:0"}}, "", ""},
		{"avg no rows", "AVG", 0, N, [][]string{{N, "i:0"}, {N, "i:0"}, {N, "i:0"}}, "", ""},
		{"avg null with rows", "AVG", 0, N, [][]string{{"i:1", "i:1"}, {N, "i:0"}, {N, "i:0"}},
			"tlp-agg: sqlite: avg of partitions differs from the avg", ""},
		{"avg value without rows", "AVG", 0, "i:1", [][]string{{N, "i:0"}, {N, "i:0"}, {N, "i:0"}},
			"tlp-agg: sqlite: avg of partitions differs from the avg", ""},
		{"avg of a wrapped sum", "AVG", 0, "r:1.5372286728091292e+18",
			[][]string{{N, "i:0"}, {N, "i:0"}, {"i:-9223372036854775806", "i:6"}}, "", "int-overflow"},
		{"avg float sums", "AVG", 0, "r:0.15", [][]string{{"r:0.1", "i:1"}, {"r:0.2", "i:1"}, {N, "i:0"}}, "", "inexact-sum"},
		{"avg non-count", "AVG", 0, "i:1", [][]string{{"i:1", "t:x"}, {N, "i:0"}, {N, "i:0"}},
			"tlp-agg: sqlite: count query returned a non-count", ""},
		{"avg partition shape", "AVG", 0, "i:1", [][]string{{"i:1"}, {N}, {N}},
			"tlp-agg: sqlite: partition aggregate query did not return one row of n values", ""},

		{"min", "MIN", 0, "i:1", [][]string{{"i:3"}, {"d:1.0"}, {N}}, "", ""},
		{"min differs", "MIN", 0, "i:2", [][]string{{"i:1"}, {"i:3"}, {N}},
			"tlp-agg: sqlite: min of partitions differs from the min", ""},
		{"min negative zero", "MIN", 0, "r:-0", [][]string{{"r:0"}, {"i:3"}, {N}}, "", ""},
		{"max", "MAX", 0, "r:3", [][]string{{"i:1"}, {"r:3"}, {N}}, "", ""},
		{"max differs", "MAX", 0, "i:1", [][]string{{"i:1"}, {"i:3"}, {N}},
			"tlp-agg: sqlite: max of partitions differs from the max", ""},
		{"min all null", "MIN", 0, N, [][]string{{N}, {N}, {N}}, "", ""},
		{"min null mismatch", "MIN", 0, N, [][]string{{"t:a"}, {N}, {N}},
			"tlp-agg: sqlite: min of partitions differs from the min", ""},
		{"max not null mismatch", "MAX", 0, "t:a", [][]string{{N}, {N}, {N}},
			"tlp-agg: sqlite: max of partitions differs from the max", ""},
		{"min text member", "MIN", 0, "t:b", [][]string{{"t:c"}, {"t:b"}, {N}}, "", ""},
		{"min text by collation", "MIN", 0, "t:c", [][]string{{"t:c"}, {"t:b"}, {N}}, "", ""},
		{"min text not member", "MIN", 0, "t:z", [][]string{{"t:a"}, {"t:b"}, {N}},
			"tlp-agg: sqlite: min of partitions differs from the min", ""},
		{"min text representative", "MIN", 0, "t:A", [][]string{{"t:a"}, {"t:b"}, {N}}, "", "ambiguous-representative"},
		{"max mixed kinds", "MAX", 0, "t:a", [][]string{{"i:1"}, {"t:a"}, {"b:00"}}, "", ""},
		{"max mixed kinds not member", "MAX", 0, "i:2", [][]string{{"i:1"}, {"t:a"}, {N}},
			"tlp-agg: sqlite: max of partitions differs from the max", ""},

		{"unknown aggregate", "MEDIAN", 0, "i:1", [][]string{{"i:1"}, {N}, {N}}, "", "no-layout"},
		{"no aggregate", "", 0, "i:1", [][]string{{"i:1"}, {N}, {N}}, "", "no-layout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := aggCase(tc.agg)
			run := aggRun("sqlite", tc.orig, tc.parts...)
			if strings.EqualFold(tc.agg, "SUM") {
				run = sumRun("sqlite", tc.orig, tc.parts...)
			}
			v := TLPAgg{AvgTolerance: tc.tol}.Check(c, []fuzz.Run{run})
			checkVerdict(t, v, tc.title, tc.skip, fuzz.KindWrongResult)
			if f := v.Finding; f != nil && (f.Oracle != "tlp-agg" || len(f.Roles) != 4 || f.Expected == "" || f.Actual == "") {
				t.Errorf("incomplete finding %+v", f)
			}
		})
	}
}

func TestTLPAggLayout(t *testing.T) {
	two := ok(row("i:1"), row("i:2"))
	tests := []struct {
		name        string
		c           *fuzz.Case
		runs        []fuzz.Run
		title, skip string
	}{
		{"missing role", &fuzz.Case{Params: map[string]string{"agg": "SUM"}, Queries: []fuzz.Query{{Role: "agg.orig"}}},
			[]fuzz.Run{aggRun("sqlite", "i:1")}, "", "no-layout"},
		{"original shape", aggCase("SUM"),
			[]fuzz.Run{{Target: "sqlite", Results: []*fuzz.Result{two, ok(row("i:1")), ok(row("i:2")), ok(row("NULL"))}}},
			"tlp-agg: sqlite: original aggregate query did not return one value", ""},
		{"timeout skips", aggCase("SUM"),
			[]fuzz.Run{{Target: "sqlite", Results: []*fuzz.Result{ok(row("i:1")), {Status: fuzz.StatusTimeout}, ok(row("i:1")), ok(row("NULL"))}}},
			"", "timeout"},
		{"every run judged", aggCase("SUM"), []fuzz.Run{
			sumRun("duckdb", "r:1.5", row("r:1.5"), row("NULL"), row("NULL")),
			sumRun("postgres", "i:3", row("i:1"), row("i:1"), row("NULL"))},
			"tlp-agg: postgres: sum of partitions differs from the sum", ""},
		{"skip after pass", aggCase("SUM"), []fuzz.Run{
			sumRun("postgres", "i:2", row("i:1"), row("i:1"), row("NULL")),
			sumRun("duckdb", "r:1.5", row("r:1.5"), row("NULL"), row("NULL"))},
			"", "inexact-sum"},
		{"a NULL sum of counted values is a NaN", aggCase("SUM"), []fuzz.Run{{Target: "sqlite", Results: []*fuzz.Result{
			ok(row("NULL", "i:9")), ok(row("NULL", "i:2")), ok(row("NULL", "i:0")), ok(row("i:-9223372036854775802", "i:7"))}}},
			"", "inexact-sum"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkVerdict(t, TLPAgg{}.Check(tc.c, tc.runs), tc.title, tc.skip, fuzz.KindWrongResult)
		})
	}
}

// TestTLPAggShows checks that a finding shows the values on both sides, printed by the
// oracle's Display.
func TestTLPAggShows(t *testing.T) {
	tag := func(v string) string { return "<" + v + ">" }
	tests := []struct {
		name             string
		o                TLPAgg
		c                *fuzz.Case
		run              fuzz.Run
		expected, actual []string
	}{
		{"sum, default display", TLPAgg{}, aggCase("SUM"), sumRun("sqlite", "d:8.5", row("d:3.25"), row("NULL"), row("i:4")),
			[]string{"sum 8.5 from"}, []string{"7.25", "p: 3.25 1", "NULL", "p is null: 4 1"}},
		{"sum, own notation", TLPAgg{Show: Display{Value: tag}}, aggCase("SUM"),
			sumRun("sqlite", "d:8.5", row("d:3.25"), row("NULL"), row("i:4")),
			[]string{"sum <d:8.5> from"}, []string{"7.25", "p: <d:3.25> <i:1>", "p is null: <i:4> <i:1>"}},
		{"max of text", TLPAgg{}, aggCase("MAX"), fuzz.Run{Target: "sqlite", Results: []*fuzz.Result{
			ok(row("t:a")), ok(row("t:b")), ok(row("NULL")), ok(row("t:it's"))}},
			[]string{"max 'a' from"}, []string{"one of 'b', 'it''s'"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.o.Check(tc.c, []fuzz.Run{tc.run})
			if v.Finding == nil {
				t.Fatalf("no finding (verdict %+v)", v)
			}
			for _, want := range tc.expected {
				if !strings.Contains(v.Finding.Expected, want) {
					t.Errorf("expected %q lacks %q", v.Finding.Expected, want)
				}
			}
			for _, want := range tc.actual {
				if !strings.Contains(v.Finding.Actual, want) {
					t.Errorf("actual %q lacks %q", v.Finding.Actual, want)
				}
			}
		})
	}
}
