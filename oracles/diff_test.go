package oracles

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestRows(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "tlp.orig"}, {Role: "tlp.p"}, {Role: "x.plain"}}}
	// run gives target's results to the three queries.
	run := func(target string, rs ...*fuzz.Result) fuzz.Run { return fuzz.Run{Target: target, Results: rs} }
	failed := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "42883", Err: "function does not exist"}
	one, two := ok(row("i:1", "t:a")), ok(row("i:1", "t:a"), row("i:2", "t:b"))
	x := fuzz.NewLayout("x", "plain")
	tests := []struct {
		name        string
		layouts     []*fuzz.Layout
		runs        []fuzz.Run
		title, skip string
		role        string // role of the finding
	}{
		{"agree", nil, []fuzz.Run{run("a", one, two, ok()), run("b", one, two, ok())}, "", "", ""},
		{"agree normalized", nil, []fuzz.Run{
			run("a", ok(row("i:1")), ok(row("d:0.1")), ok(row("r:-0"))),
			run("b", ok(row("d:1.0")), ok(row("r:0.1")), ok(row("i:0"))),
			run("c", ok(row("B:true")), ok(row("d:0.10")), ok(row("B:false")))}, "", "", ""},
		{"order does not matter", nil, []fuzz.Run{
			run("a", one, ok(row("i:2", "t:b"), row("i:1", "t:a")), ok()),
			run("b", one, two, ok())}, "", "", ""},
		{"text is exact", nil, []fuzz.Run{run("a", ok(row("t:a")), two, ok()), run("b", ok(row("t:A")), two, ok())},
			"diff: a vs b: return different rows", "", "tlp.orig"},
		{"multiplicity", nil, []fuzz.Run{run("a", one, two, ok()), run("b", ok(row("i:1", "t:a"), row("i:1", "t:a")), two, ok())},
			"diff: a vs b: return different rows", "", "tlp.orig"},
		{"two disagree", nil, []fuzz.Run{run("sqlite", one, two, ok()), run("postgres", one, one, ok())},
			"diff: postgres vs sqlite: return different rows", "", "tlp.p"},
		{"minority", nil, []fuzz.Run{
			run("sqlite", one, two, ok()), run("mysql", one, one, ok()), run("postgres", one, two, ok())},
			"diff: mysql: returns different rows than postgres,sqlite", "", "tlp.p"},
		{"minority of two", nil, []fuzz.Run{
			run("a", one, two, ok()), run("b", one, one, ok()), run("c", one, two, ok()), run("d", one, one, ok()),
			run("e", one, two, ok())},
			"diff: b,d: returns different rows than a,c,e", "", "tlp.p"},
		{"three sides", nil, []fuzz.Run{
			run("c", one, two, ok()), run("a", one, one, ok()), run("b", one, ok(), ok())},
			"diff: a vs b vs c: return different rows", "", "tlp.p"},
		{"error on one engine", nil, []fuzz.Run{run("a", one, two, ok()), run("b", failed, failed, failed)},
			"", "error-on-some-engine", ""},
		{"error on one query", nil, []fuzz.Run{run("a", one, two, ok()), run("b", failed, one, ok())},
			"diff: a vs b: return different rows", "", "tlp.p"},
		{"error skips the differing query", nil, []fuzz.Run{
			run("a", one, two, ok()), run("b", one, one, ok()), run("c", one, failed, ok())}, "", "", ""},
		{"crash on one engine", nil, []fuzz.Run{run("a", one, two, ok()), run("b", one, two, &fuzz.Result{Status: fuzz.StatusCrash})},
			"", "", ""},
		{"missing results", nil, []fuzz.Run{run("a", one, two, ok()), run("b")}, "", "error-on-some-engine", ""},
		{"one run", nil, []fuzz.Run{run("a", one, two, ok())}, "", "fewer-than-two-answers", ""},
		{"layout filters", []*fuzz.Layout{fuzz.TLPWhere}, []fuzz.Run{run("a", one, two, ok()), run("b", one, two, ok(row("i:9")))},
			"", "", ""},
		{"no layout compares all", nil, []fuzz.Run{run("a", one, two, ok()), run("b", one, two, ok(row("i:9")))},
			"diff: a vs b: return different rows", "", "x.plain"},
		{"layouts select", []*fuzz.Layout{fuzz.TLPWhere.Sub("p"), x}, []fuzz.Run{run("a", two, two, ok()), run("b", one, two, ok(row("i:9")))},
			"diff: a vs b: return different rows", "", "x.plain"},
		{"layout selects nothing", []*fuzz.Layout{fuzz.NoREC}, []fuzz.Run{run("a", one, two, ok()), run("b", one, two, ok())},
			"", "no-layout", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Rows{Layouts: tc.layouts}.Check(c, tc.runs)
			checkVerdict(t, v, tc.title, tc.skip, fuzz.KindWrongResult)
			if v.Finding != nil && (len(v.Finding.Roles) != 1 || v.Finding.Roles[0] != tc.role || v.Finding.Oracle != "diff") {
				t.Errorf("finding oracle %q roles %v, want diff [%s]", v.Finding.Oracle, v.Finding.Roles, tc.role)
			}
			if tc.title == "" && tc.skip == "" && !v.Checked {
				t.Errorf("passing check not marked checked")
			}
		})
	}
}

// TestRowsShows checks the expected and actual lines: the role, the row counts and the rows that
// differ from the majority, as the engines returned them, printed by the oracle's Display.
func TestRowsShows(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "q"}}}
	maj := ok(row("i:1", "t:a"), row("d:2.50", "t:b"))
	runs := []fuzz.Run{
		{Target: "postgres", Results: []*fuzz.Result{maj}},
		{Target: "mysql", Results: []*fuzz.Result{ok(row("d:1.0", "t:a"), row("r:2.5", "t:b"))}},
		{Target: "sqlite", Results: []*fuzz.Result{ok(row("i:1", "t:a"), row("i:3", "t:c"), row("i:4", "t:d"))}},
	}
	tests := []struct {
		name   string
		show   Display
		actual []string
	}{
		{"default display", Display{}, []string{"sqlite: 3 rows", "missing (", "'b')", "extra (3, 'c'), (4, 'd')"}},
		{"own row notation", Display{Row: func(r []string) string { return "row" + strings.Join(r, "/") }},
			[]string{"sqlite: 3 rows", "extra rowi:3/t:c, rowi:4/t:d"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Rows{Show: tc.show}.Check(c, runs)
			checkVerdict(t, v, "diff: sqlite: returns different rows than mysql,postgres", "", fuzz.KindWrongResult)
			f := v.Finding
			for _, want := range []string{"q", "mysql,postgres", "2 rows"} {
				if !strings.Contains(f.Expected, want) {
					t.Errorf("expected %q lacks %q", f.Expected, want)
				}
			}
			for _, want := range tc.actual {
				if !strings.Contains(f.Actual, want) {
					t.Errorf("actual %q lacks %q", f.Actual, want)
				}
			}
			if strings.Contains(f.Actual, "t:") != (tc.show.Row != nil) {
				t.Errorf("actual %q: type tags shown or hidden against the display", f.Actual)
			}
		})
	}
}

// TestRowsDirection checks that Direction names how the odd side differs from the expected one,
// and that without it the title is the same whatever the direction.
func TestRowsDirection(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "q"}}}
	one, two := ok(row("i:1")), ok(row("i:1"), row("i:2"))
	other, twice := ok(row("i:3")), ok(row("i:1"), row("i:1"), row("i:2"))
	run := func(target string, r *fuzz.Result) fuzz.Run {
		return fuzz.Run{Target: target, Results: []*fuzz.Result{r}}
	}
	tests := []struct {
		name      string
		runs      []fuzz.Run
		direction string // title with Direction
	}{
		{"missing against the reference", []fuzz.Run{run("neo4j", one), run("ref", two)},
			"diff: neo4j: misses rows of ref"},
		{"extra against the reference", []fuzz.Run{run("neo4j", two), run("ref", one)},
			"diff: neo4j: returns extra rows beyond ref"},
		{"a repeated row is extra", []fuzz.Run{run("neo4j", twice), run("ref", two)},
			"diff: neo4j: returns extra rows beyond ref"},
		{"other values", []fuzz.Run{run("neo4j", other), run("ref", one)},
			"diff: neo4j: returns different rows than ref"},
		{"two engines miss alike", []fuzz.Run{run("falkordb", one), run("neo4j", one), run("ref", two)},
			"diff: falkordb,neo4j: misses rows of ref"},
		{"two engines differ each their way", []fuzz.Run{run("falkordb", one), run("neo4j", twice), run("ref", two)},
			"diff: falkordb,neo4j: returns different rows than ref"},
		{"minority misses rows of the majority", []fuzz.Run{run("a", one), run("b", two), run("c", two)},
			"diff: a: misses rows of b,c"},
		{"minority against two sides", []fuzz.Run{run("a", one), run("b", two), run("c", two), run("d", other), run("e", other)},
			"diff: a: returns different rows than b,c,d,e"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Rows{Reference: "ref", Direction: true}.Check(c, tc.runs)
			checkVerdict(t, v, tc.direction, "", fuzz.KindWrongResult)
			plain := Rows{Reference: "ref"}.Check(c, tc.runs)
			if !strings.Contains(plain.Finding.Title, ": returns different rows than ") {
				t.Errorf("without Direction the title is %q", plain.Finding.Title)
			}
		})
	}
}
