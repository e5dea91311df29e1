package datalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

func TestFormat(t *testing.T) {
	prog := ".decl e(x: number)\n.output e\ne(1).\n"
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: RoleOrig, Text: "// original\n" + prog}, {Role: RoleTrans, Text: prog}},
		Params: map[string]string{ParamExpect: "subset", ParamSteps: "ADD_CON"}}
	f := Format{Engines: []string{"muz", "sqlite"}, Dialects: map[string]Dialect{"muz": MuZ{}}}
	text := string(f.CaseText(c, []string{RoleTrans}))
	if text != "// ---- datalog.trans (expected subset the original's answer; steps ADD_CON)\n"+prog+"\n" {
		t.Errorf("case text:\n%s", text)
	}
	repro := string(f.Repro(c, fuzz.ReproInfo{Header: "title\nreplay: polyfuzz replay DIR", Oracle: "diff", Kind: fuzz.KindWrongResult}))
	for _, want := range []string{
		"#!/usr/bin/env bash\n# title\n# replay: polyfuzz replay DIR\n",
		"cat > p0.dl <<'POLYFUZZ_EOF'\n// original\n" + prog + "POLYFUZZ_EOF\n",
		"echo '== datalog.orig on muz'\n",
		"(query e :print-answer true)", // μZ's own text and command line
		"echo '== datalog.trans on sqlite'\nrun sqlite p1\n",
	} {
		if !strings.Contains(repro, want) {
			t.Errorf("repro.sh lacks %q:\n%s", want, repro)
		}
	}
	if !strings.Contains(repro, "z3 p0.smt2") && !strings.Contains(repro, "z3 -in") {
		t.Errorf("repro.sh does not run z3:\n%s", repro)
	}
}

func TestShowRow(t *testing.T) {
	tests := []struct {
		row  []string
		want string
	}{
		{[]string{"ypt3", "i:-8", "t:k", "t:k"}, `ypt3(-8, "k", "k")`},
		{[]string{"t:e", `t:say "hi" \o/`}, `e("say \"hi\" \\o/")`},
		{[]string{"flag"}, "flag"},
		{[]string{"r", "NULL"}, "r(NULL)"},
		{nil, "()"},
	}
	for _, tc := range tests {
		if got := ShowRow(tc.row); got != tc.want {
			t.Errorf("ShowRow(%q) = %s, want %s", tc.row, got, tc.want)
		}
	}
}

// TestRepro runs reproducers with z3 (μZ), SWI-Prolog and polyfuzz's reference engine: the μZ
// wrong answer recorded in testdata/datalog-findings reproduces (exit 0) and does not on
// SWI-Prolog (exit 1); a metamorphic relation broken on SWI-Prolog reproduces, one that holds
// does not; what cannot be judged exits 2.
func TestRepro(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	testenv.NeedEngine(t, "swipl")
	pf := testenv.PolyfuzzBinary(t)
	recorded := &fuzz.Case{}
	b, err := os.ReadFile(filepath.Join("..", "testdata", "datalog-findings", "muz-negated-copy-of-a-body-atom", "reduced.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, recorded); err != nil {
		t.Fatal(err)
	}
	const decl = ".decl e(x: number)\n.decl p(x: number)\n.output p\ne(1).\ne(2).\n"
	metamorphic := func(trans string) *fuzz.Case {
		return &fuzz.Case{Domain: "datalog", Params: map[string]string{ParamExpect: "subset"}, Queries: []fuzz.Query{
			{Role: RoleOrig, Text: decl + "p(X) :- e(X).\n"}, {Role: RoleTrans, Text: decl + trans}}}
	}
	dialects := map[string]Dialect{"muz": MuZ{}, "swipl": SWIProlog{}}
	diff := fuzz.ReproInfo{Oracle: "diff", Kind: fuzz.KindWrongResult, Roles: []string{RoleOrig}, Blamed: []string{"muz"},
		Targets: []fuzz.ReproTarget{{Name: "muz", Version: "4.8.12"}, {Name: "ref"}}}
	mm := fuzz.ReproInfo{Oracle: "metamorphic", Kind: fuzz.KindWrongResult, Roles: []string{RoleOrig, RoleTrans}, Blamed: []string{"swipl"}}
	tests := []struct {
		name    string
		c       *fuzz.Case
		engines []string
		in      fuzz.ReproInfo
		env     []string
		status  int
		output  string
	}{
		{"recorded μZ finding", recorded, []string{"muz", "ref"}, diff, nil, 0, `> ypt3(-8, "k", "k").`},
		{"the same on SWI-Prolog", recorded, []string{"swipl", "ref"}, diff, nil, 1, "the engines derive the same facts"},
		{"subset broken", metamorphic("p(X) :- e(X), X > 1.\n"), []string{"swipl", "ref"}, mm, nil, 0, "the bug reproduces on swipl"},
		{"subset kept", metamorphic("p(X) :- e(X).\np(3).\n"), []string{"swipl", "ref"}, mm, nil, 1, "the relation holds"},
		{"a planted fault", recorded, []string{"muz", "ref"}, fuzz.ReproInfo{Oracle: "diff", Kind: fuzz.KindWrongResult,
			Fault: "drop-row:ypt3", Targets: diff.Targets}, nil, 2, "planted in muz"},
		{"no polyfuzz", recorded, []string{"muz", "ref"}, diff, []string{"POLYFUZZ=/nonexistent/polyfuzz"}, 2, "/nonexistent/polyfuzz not found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Header = "title\nreplay: polyfuzz replay DIR"
			script := Format{Engines: tc.engines, Dialects: dialects}.Repro(tc.c, tc.in)
			status, out := testenv.RunRepro(t, script, append([]string{"POLYFUZZ=" + pf}, tc.env...)...)
			if status != tc.status || !strings.Contains(out, tc.output) {
				t.Errorf("exit status %d, want %d, and output lacking %q?\n%s\n---- script:\n%s", status, tc.status, tc.output, out, script)
			}
		})
	}
}
