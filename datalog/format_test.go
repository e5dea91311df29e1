package datalog

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
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
	repro := string(f.Repro(c, nil, "title\nreplay: polyfuzz replay DIR"))
	for _, want := range []string{
		"#!/usr/bin/env bash\n# title\n# replay: polyfuzz replay DIR\n",
		"cat > p0.dl <<'POLYFUZZ_EOF'\n// original\n" + prog + "POLYFUZZ_EOF\n",
		"echo '== datalog.orig on muz'\n",
		"(query e :print-answer true)", // μZ's own text and command line
		"echo '== datalog.trans on sqlite'\npolyfuzz datalog run --engine sqlite p1.dl\n",
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
