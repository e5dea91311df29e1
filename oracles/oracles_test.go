package oracles

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func ok(rows ...[]string) *fuzz.Result { return &fuzz.Result{Status: fuzz.StatusOK, Rows: rows} }
func row(v ...string) []string         { return v }

func norecCase(countForm bool) *fuzz.Case {
	opt := fuzz.Query{Role: "norec.opt-rows", Text: "SELECT * FROM t0 WHERE p"}
	if countForm {
		opt = fuzz.Query{Role: "norec.opt-count", Text: "SELECT COUNT(*) FROM t0 WHERE p"}
	}
	return &fuzz.Case{Queries: []fuzz.Query{opt, {Role: "norec.unopt", Text: "SELECT SUM(...)"}}}
}

func TestNoREC(t *testing.T) {
	tests := []struct {
		name      string
		countForm bool
		opt, sum  *fuzz.Result
		title     string // "" for no finding
		skip      string
	}{
		{"count agrees", true, ok(row("i:2")), ok(row("i:2")), "", ""},
		{"rows agree", false, ok(row("i:1"), row("i:2")), ok(row("i:2")), "", ""},
		{"sum null is zero", false, ok(), ok(row("NULL")), "", ""},
		{"fewer", true, ok(row("i:1")), ok(row("i:2")), "norec: sqlite: optimized query returns fewer rows", ""},
		{"more rows", false, ok(row("i:1"), row("i:1"), row("i:1")), ok(row("i:2")),
			"norec: sqlite: optimized query returns more rows", ""},
		{"decimal sum", true, ok(row("i:3")), ok(row("d:3")), "", ""},
		{"error skips", true, &fuzz.Result{Status: fuzz.StatusEngineError}, ok(row("i:2")), "", "error"},
		{"crash skips", true, ok(row("i:2")), &fuzz.Result{Status: fuzz.StatusCrash}, "", "crash"},
		{"malformed count", true, ok(), ok(row("i:2")), "norec: sqlite: count query did not return one value", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := norecCase(tc.countForm)
			v := NoREC{}.Check(c, []fuzz.Run{{Target: "sqlite", Results: []*fuzz.Result{tc.opt, tc.sum}}})
			checkVerdict(t, v, tc.title, tc.skip, fuzz.KindWrongResult)
		})
	}
}

func TestTLP(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "tlp.orig"}, {Role: "tlp.p"}, {Role: "tlp.notp"}, {Role: "tlp.null"}}}
	a, b, n := row("i:1", "t:a"), row("i:2", "t:b"), row("NULL", "NULL")
	tests := []struct {
		name                string
		orig, p, notp, null *fuzz.Result
		title, skip         string
	}{
		{"partition", ok(a, b, n), ok(a), ok(b), ok(n), "", ""},
		{"duplicates count", ok(a, a, b), ok(a, a), ok(b), ok(), "", ""},
		{"missing", ok(a, b, n), ok(a), ok(), ok(n), "tlp-where: sqlite: partitions miss rows", ""},
		{"extra", ok(a, b), ok(a, b), ok(b), ok(), "tlp-where: sqlite: partitions add rows", ""},
		{"typed", ok(row("i:1")), ok(row("r:1")), ok(), ok(), "tlp-where: sqlite: partitions differ from the original rows", ""},
		{"timeout skips", ok(a), ok(a), &fuzz.Result{Status: fuzz.StatusTimeout}, ok(), "", "timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := TLP{}.Check(c, []fuzz.Run{{Target: "sqlite", Results: []*fuzz.Result{tc.orig, tc.p, tc.notp, tc.null}}})
			checkVerdict(t, v, tc.title, tc.skip, fuzz.KindWrongResult)
		})
	}
}

func TestErrors(t *testing.T) {
	expect := func(scope, code, msg string) bool { return scope == "setup" && code == "SQLITE_CONSTRAINT_UNIQUE" }
	c := &fuzz.Case{Setup: []string{"INSERT INTO t0 VALUES (1)"}, Queries: []fuzz.Query{{Role: "q", Text: "SELECT 1"}}}
	tests := []struct {
		name  string
		setup *fuzz.Result
		query *fuzz.Result
		title string
		kind  fuzz.Kind
	}{
		{"expected", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_CONSTRAINT_UNIQUE"}, ok(), "", 0},
		{"unexpected in query", ok(), &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_CORRUPT",
			Err: "database disk image is malformed in t0"}, "error: sqlite: sqlite_corrupt database disk image is malformed in x",
			fuzz.KindUnexpectedError},
		{"crash", ok(), &fuzz.Result{Status: fuzz.StatusCrash, Err: "child signal: segmentation fault"},
			"crash: sqlite: child signal: segmentation fault", fuzz.KindCrash},
		{"hang", ok(), &fuzz.Result{Status: fuzz.StatusTimeout}, "hang: sqlite: statement select ran over its timeout", fuzz.KindHang},
		{"timeout skipped", ok(), &fuzz.Result{Status: fuzz.StatusTimeout}, "", 0},
		{"unexpected answer", ok(), &fuzz.Result{Status: fuzz.StatusEngineError, Code: fuzz.CodeUnexpectedAnswer,
			Err: `unexpected answer: "banana" where check-sat 1 of 1 wants sat, unsat or unknown`},
			"error: sqlite: unexpected answer", fuzz.KindUnexpectedError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			skipTimeouts := tc.name == "timeout skipped"
			v := Errors{Expect: expect, SkipTimeouts: skipTimeouts}.Check(c, []fuzz.Run{{Target: "sqlite", Setup: []*fuzz.Result{tc.setup},
				Results: []*fuzz.Result{tc.query}}})
			skip := ""
			if skipTimeouts {
				skip = "timeout"
			}
			checkVerdict(t, v, tc.title, skip, tc.kind)
		})
	}
}

func checkVerdict(t *testing.T, v fuzz.Verdict, title, skip string, kind fuzz.Kind) {
	t.Helper()
	if v.Skip != skip {
		t.Fatalf("skip = %q, want %q", v.Skip, skip)
	}
	if title == "" {
		if v.Finding != nil {
			t.Fatalf("unexpected finding %q (%s; %s)", v.Finding.Title, v.Finding.Expected, v.Finding.Actual)
		}
		return
	}
	if v.Finding == nil {
		t.Fatalf("no finding, want %q", title)
	}
	if v.Finding.Title != title || v.Finding.Kind != kind {
		t.Fatalf("finding %q (%s), want %q (%s)", v.Finding.Title, v.Finding.Kind, title, kind)
	}
}

func TestAnswers(t *testing.T) {
	o := Answers{Role: "smt.instance", Values: []string{"sat", "unsat", "unknown"}, Wildcards: []string{"unknown"}}
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "smt.instance", Text: "(check-sat)"}}}
	run := func(target string, answers ...string) fuzz.Run {
		r := &fuzz.Result{Status: fuzz.StatusOK}
		for _, a := range answers {
			r.Rows = append(r.Rows, []string{a})
		}
		return fuzz.Run{Target: target, Results: []*fuzz.Result{r}}
	}
	failed := fuzz.Run{Target: "c", Results: []*fuzz.Result{{Status: fuzz.StatusCrash}}}
	tests := []struct {
		name  string
		runs  []fuzz.Run
		title string
		skip  string
	}{
		{"agree", []fuzz.Run{run("a", "sat", "unsat"), run("b", "sat", "unsat")}, "", ""},
		{"unknown agrees", []fuzz.Run{run("a", "sat", "unknown"), run("b", "unknown", "unsat")}, "", ""},
		{"two disagree", []fuzz.Run{run("a", "sat"), run("b", "unsat")}, "diff: a vs b: answers sat vs unsat", ""},
		{"minority named", []fuzz.Run{run("a", "sat", "sat"), run("b", "sat", "unsat"), run("c", "sat", "sat")},
			"diff: b: answers unsat where a,c answer sat", ""},
		{"one answered", []fuzz.Run{run("a", "sat"), failed}, "", "fewer-than-two-answers"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkVerdict(t, o.Check(c, tc.runs), tc.title, tc.skip, fuzz.KindWrongResult)
		})
	}
}

// TestErrorsChained checks that with Chained, a query after a failed one in the same run is not
// judged, and that without it, it is.
func TestErrorsChained(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "smt.instance", Text: "(check-sat)"}, {Role: "smt.model", Text: "(get-value (x))"}}}
	runs := []fuzz.Run{{Target: "cvc4", Results: []*fuzz.Result{
		{Status: fuzz.StatusEngineError, Code: "error", Err: "not supported in default mode"},
		{Status: fuzz.StatusEngineError, Code: "error", Err: "Symbol x is not declared."}}}}
	expect := func(_, _, msg string) bool { return strings.Contains(msg, "not supported") }
	checkVerdict(t, Errors{Expect: expect, Chained: true}.Check(c, runs), "", "", 0)
	checkVerdict(t, Errors{Expect: expect}.Check(c, runs), "error: cvc4: error symbol x is not declared.", "",
		fuzz.KindUnexpectedError)
}

// TestErrorsReference checks that an engine error on a query the reference also rejects is
// expected, and that the reference's own error is a finding unless another engine rejects too.
func TestErrorsReference(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "graph.q", Text: "RETURN 1 / 0"}}}
	bad := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "type", Err: "bad argument"}
	run := func(target string, r *fuzz.Result) fuzz.Run {
		return fuzz.Run{Target: target, Results: []*fuzz.Result{r}}
	}
	tests := []struct {
		name  string
		runs  []fuzz.Run
		title string
	}{
		{"both reject", []fuzz.Run{run("neo4j", bad), run("ref", bad)}, ""},
		{"engine alone rejects", []fuzz.Run{run("neo4j", bad), run("ref", ok())}, "error: neo4j: type bad argument"},
		{"reference alone rejects", []fuzz.Run{run("neo4j", ok()), run("ref", bad)}, "error: ref: type bad argument"},
		{"reference and one of two reject", []fuzz.Run{run("falkordb", ok()), run("neo4j", bad), run("ref", bad)}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkVerdict(t, Errors{Reference: "ref"}.Check(c, tc.runs), tc.title, "", fuzz.KindUnexpectedError)
		})
	}
}
