package oracles

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// dqeRun builds a run of the DQE layout from the answers that matter; the transaction
// statements answer with no rows.
func dqeRun(sel, all, upd, updated, del, remaining *fuzz.Result) fuzz.Run {
	tx := ok()
	return fuzz.Run{Target: "sqlite", Results: []*fuzz.Result{sel, all, tx, upd, updated, tx, tx, del, remaining, tx}}
}

func TestDQE(t *testing.T) {
	a, b, c := row("i:1"), row("i:2"), row("i:3")
	all := ok(a, b, c, c)
	fail := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "22012", Err: "division by zero"}
	odd := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "XX000", Err: "internal error"}
	expect := func(scope, code, msg string) bool { return code == "22012" }
	tests := []struct {
		name        string
		run         fuzz.Run
		title, skip string
		kind        fuzz.Kind
	}{
		{"agree", dqeRun(ok(b, c, c), all, ok(), ok(c, b, c), ok(), ok(a)), "", "", 0},
		{"agree on no row", dqeRun(ok(), all, ok(), ok(), ok(), ok(c, a, b, c)), "", "", 0},
		{"update touches fewer", dqeRun(ok(b, c, c), all, ok(), ok(b, c), ok(), ok(a)),
			"dqe: sqlite: update touches fewer rows than select", "", fuzz.KindWrongResult},
		{"update touches more", dqeRun(ok(b), all, ok(), ok(a, b), ok(), ok(a, c, c)),
			"dqe: sqlite: update touches more rows than select", "", fuzz.KindWrongResult},
		{"delete touches other rows", dqeRun(ok(b), all, ok(), ok(b), ok(), ok(b, c, c)),
			"dqe: sqlite: delete touches other rows than select", "", fuzz.KindWrongResult},
		{"delete adds", dqeRun(ok(b), all, ok(), ok(b), ok(), ok(a, c, c, row("i:9"))),
			"dqe: sqlite: delete adds rows", "", fuzz.KindWrongResult},
		{"failed update marked rows", dqeRun(fail, all, fail, ok(b), fail, ok(a, b, c, c)),
			"dqe: sqlite: failed update changed rows", "", fuzz.KindWrongResult},
		{"failed delete removed rows", dqeRun(fail, all, fail, ok(), fail, ok(a, b)),
			"dqe: sqlite: failed delete changed rows", "", fuzz.KindWrongResult},
		{"all fail alike", dqeRun(fail, all, fail, ok(), fail, ok(a, b, c, c)), "", "error", 0},
		{"expected error in the update only", dqeRun(ok(b), all, fail, ok(), ok(), ok(a, c, c)), "", "expected-error", 0},
		{"unexpected error in the delete only", dqeRun(ok(b), all, ok(), ok(b), odd, ok(a, b, c, c)),
			"dqe: sqlite: delete fails where another statement with its predicate succeeds: xx000", "", fuzz.KindUnexpectedError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fuzz.Case{}
			for _, r := range fuzz.DQE.Roles() {
				c.Queries = append(c.Queries, fuzz.Query{Role: r})
			}
			v := DQE{Expect: expect}.Check(c, []fuzz.Run{tc.run})
			title := ""
			if v.Finding != nil {
				title = v.Finding.Title
				if v.Finding.Kind != tc.kind || len(v.Finding.Roles) != len(fuzz.DQE.Roles()) {
					t.Errorf("finding %+v", v.Finding)
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
	if v := (DQE{}).Check(&fuzz.Case{}, []fuzz.Run{{Target: "sqlite"}}); v.Skip != "no-layout" {
		t.Errorf("a case without the layout: %+v", v)
	}
}

func TestEET(t *testing.T) {
	a, b := row("i:1"), row("i:2")
	fail := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_ERROR", Err: "integer overflow"}
	odd := &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_ERROR", Err: "no such column: t0.c9"}
	expect := func(scope, code, msg string) bool { return msg == "integer overflow" }
	query := func(orig, trans *fuzz.Result) (*fuzz.Case, fuzz.Run) {
		c := &fuzz.Case{Queries: []fuzz.Query{{Role: "eet.orig", Text: "SELECT"}, {Role: "eet.trans", Text: "SELECT"}}}
		return c, fuzz.Run{Target: "sqlite", Results: []*fuzz.Result{orig, trans}}
	}
	dml := func(d, post, td, tpost *fuzz.Result) (*fuzz.Case, fuzz.Run) {
		c := &fuzz.Case{}
		for _, r := range fuzz.EETDML.Roles() {
			c.Queries = append(c.Queries, fuzz.Query{Role: r, Text: "DELETE FROM t0"})
		}
		return c, fuzz.Run{Target: "sqlite", Results: []*fuzz.Result{ok(), d, post, ok(), ok(), td, tpost, ok()}}
	}
	tests := []struct {
		name        string
		c           *fuzz.Case
		run         fuzz.Run
		title, skip string
	}{
		{"query agrees", nil, fuzz.Run{}, "", ""},
		{"query agrees under normalized values", nil, fuzz.Run{}, "", ""},
		{"query differs", nil, fuzz.Run{}, "eet: sqlite: transformed query returns other rows", ""},
		{"transformed query fails", nil, fuzz.Run{}, "eet: sqlite: transformed query fails: sqlite_error no such column: x", ""},
		{"transformed query meets a runtime error", nil, fuzz.Run{}, "", "expected-error"},
		{"original fails", nil, fuzz.Run{}, "", "error"},
		{"post-images agree", nil, fuzz.Run{}, "", ""},
		{"post-images differ", nil, fuzz.Run{}, "eet: sqlite: transformed delete leaves another table", ""},
		{"transformed delete fails", nil, fuzz.Run{}, "eet: sqlite: transformed delete fails: sqlite_error no such column: x", ""},
	}
	tests[0].c, tests[0].run = query(ok(a, b), ok(b, a))
	tests[1].c, tests[1].run = query(ok(row("B:true")), ok(row("i:1")))
	tests[2].c, tests[2].run = query(ok(a, b), ok(a))
	tests[3].c, tests[3].run = query(ok(a), odd)
	tests[4].c, tests[4].run = query(ok(a), fail)
	tests[5].c, tests[5].run = query(fail, odd)
	tests[6].c, tests[6].run = dml(ok(), ok(a), ok(), ok(a))
	tests[7].c, tests[7].run = dml(ok(), ok(a), ok(), ok(a, b))
	tests[8].c, tests[8].run = dml(ok(), ok(a), odd, ok(a))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := EET{Expect: expect}.Check(tc.c, []fuzz.Run{tc.run})
			title := ""
			if v.Finding != nil {
				title = v.Finding.Title
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
