package souffle

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// needSouffle skips t when souffle is not on PATH, also in CI: no package source provides it.
func needSouffle(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("souffle"); err != nil {
		t.Skip("souffle is not on PATH; Debian does not package it: install it from https://souffle-lang.github.io/install to run this test")
	}
}

func TestUnpack(t *testing.T) {
	tests := []struct {
		in   string
		want string // files as NAME=TEXT joined by "|"
		err  string
	}{
		{in: ".decl a(x: number)\n", want: "prog.dl=.decl a(x: number)\n"},
		{in: "-- prog.dl --\n.decl e(x: number)\n.input e\n-- e.facts --\n1\n2\n-- f.facts --\n",
			want: "prog.dl=.decl e(x: number)\n.input e\n|e.facts=1\n2\n|f.facts="},
		{in: "-- prog.dl --\nx\n-- e.facts --\na\tb\n--x--\n", want: "prog.dl=x\n|e.facts=a\tb\n--x--\n"},
		{in: "-- e.facts --\n", err: "not prog.dl"},
		{in: "-- prog.dl --\n-- ../e.facts --\n", err: "not NAME.facts"},
		{in: "-- prog.dl --\n-- e.csv --\n", err: "not NAME.facts"},
		{in: "-- prog.dl --\n-- e.facts --\n-- e.facts --\n", err: "twice"},
		{in: "-- prog.dl\n", err: "not -- NAME --"},
	}
	for _, tc := range tests {
		files, err := unpack(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("unpack(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		var got []string
		for _, f := range files {
			got = append(got, f.name+"="+f.text)
		}
		if err != nil || strings.Join(got, "|") != tc.want {
			t.Errorf("unpack(%q) = %q, %v; want %q", tc.in, strings.Join(got, "|"), err, tc.want)
		}
	}
}

func TestArities(t *testing.T) {
	got := arities(".decl a(x: number, y: symbol)\n .decl z()\n.decl b( x:number )\n// .decl c(x: number)\n")
	want := map[string]int{"a": 2, "z": 0, "b": 1}
	if len(got) != len(want) || got["a"] != 2 || got["z"] != 0 || got["b"] != 1 {
		t.Errorf("arities = %v, want %v", got, want)
	}
}

func TestReadOutputs(t *testing.T) {
	tests := []struct {
		files map[string]string
		want  string // rows joined by "|", values by ","
		err   string
	}{
		{files: map[string]string{"p.csv": "1\t2\n3\t4\n", "z.csv": "()\n", "e.csv": "", "s.csv": "\n a b\n"},
			want: "p,1,2|p,3,4|s,|s, a b|z"},
		{files: map[string]string{"p.csv": "1\t2\t3\n"}, err: "arity 2"},
		{files: map[string]string{"z.csv": "x\n"}, err: "0-ary"},
		{files: map[string]string{"p.csv": "1\t2"}, err: "without a newline"},
		{files: map[string]string{"other.csv": "a\tb\n"}, want: "other,a,b"},
	}
	for i, tc := range tests {
		dir := t.TempDir()
		for n, s := range tc.files {
			os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644)
		}
		rows, err := readOutputs(dir, map[string]int{"p": 2, "z": 0, "e": 1, "s": 1})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("case %d: error = %v, want %q", i, err, tc.err)
			}
			continue
		}
		var got []string
		for _, r := range rows {
			got = append(got, strings.Join(r, ","))
		}
		if err != nil || strings.Join(got, "|") != tc.want {
			t.Errorf("case %d: rows %q, %v; want %q", i, strings.Join(got, "|"), err, tc.want)
		}
	}
}

func TestVersionOf(t *testing.T) {
	for out, want := range map[string]string{
		"Souffle: 2.4.1(64bit Domains)\nCopyright (c) 2016-22 The Souffle Developers.\n": "2.4.1",
		"----\nVersion: 2.0.2\n----\n": "2.0.2",
		"souffle 3\n":                  "souffle 3",
	} {
		if got := versionOf(out); got != want {
			t.Errorf("versionOf(%q) = %q, want %q", out, got, want)
		}
	}
}

func TestNewMissing(t *testing.T) {
	_, err := New(Options{Path: "/nonexistent/souffle"})
	if err == nil || !strings.Contains(err.Error(), "install Soufflé") || !strings.Contains(err.Error(), "Options.Path") {
		t.Errorf("New with a missing binary: %v, want an error that names the fix", err)
	}
}

// standIn is a shell script that follows souffle's command line (souffle -w -F FACTS -D OUT
// ARGS... prog.dl) without evaluating anything: it copies e.facts to e.csv, writes its
// arguments to args.csv and a 0-ary z.csv, and misbehaves on cue. It checks the driver's side
// of the command-line contract; the engine's answers are checked with the real souffle.
const standIn = `#!/bin/sh
[ "$1" = --version ] && { echo "Souffle: 9.9.9(64bit Domains)"; exit 0; }
[ "$1" = -w ] && [ "$2" = -F ] && [ "$4" = -D ] || { echo "Error: bad arguments $*" >&2; exit 2; }
facts=$3 out=$5
for prog; do :; done
case $(cat "$prog") in
*SLEEP*) sleep 10;;
*SEGV*) kill -SEGV $$;;
*ASSERT*) echo "souffle: src/ast/Foo.cpp:52: Assertion 'x' failed." >&2; exit 1;;
*SYNTAX*) echo "Error: syntax error, unexpected IDENT in file prog.dl at line 1" >&2; exit 1;;
esac
cp "$facts/e.facts" "$out/e.csv" || exit 3
printf '%s\n' "$*" > "$out/args.csv"
printf '()\n' > "$out/z.csv"
`

func TestStandIn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "souffle")
	if err := os.WriteFile(path, []byte(standIn), 0o755); err != nil {
		t.Fatal(err)
	}
	tg, err := New(Options{Path: path, Timeout: 300 * time.Millisecond, Args: []string{"-j2"}})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Version() != "9.9.9" || tg.Name() != "souffle" {
		t.Errorf("name %q version %q", tg.Name(), tg.Version())
	}
	const prog = "-- prog.dl --\n.decl e(x: number, y: symbol)\n.decl z()\n.input e\n.output e\n.output z\n%s\n-- e.facts --\n1\ta b\n-2\t\n"
	tests := []struct {
		name, mark string
		status     fuzz.Status
		code, want string
	}{
		{"answer", "", fuzz.StatusOK, "", "args,-w -F facts -D out -j2 prog.dl|e,-2,|e,1,a b|z"},
		{"timeout", "SLEEP", fuzz.StatusTimeout, "", ""},
		{"signal", "SEGV", fuzz.StatusCrash, "", "signal 11"},
		{"assertion", "ASSERT", fuzz.StatusCrash, "", "Assertion 'x' failed"},
		{"error", "SYNTAX", fuzz.StatusEngineError, "error", "syntax error"},
		{"bad archive", "\n-- ../x --", fuzz.StatusEngineError, "bad-input", "not NAME.facts"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res, err := tg.Exec(context.Background(), fmt.Sprintf(prog, "// "+tc.mark))
			if err != nil {
				t.Fatal(err)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
			if res.Status != tc.status || res.Code != tc.code {
				t.Fatalf("status %s code %q (%s), want %s %q", res.Status, res.Code, res.Err, tc.status, tc.code)
			}
			if res.Status == fuzz.StatusOK {
				var rows []string
				for _, r := range res.Rows {
					rows = append(rows, strings.Join(r, ","))
				}
				slices.Sort(rows)
				if got := strings.Join(rows, "|"); got != tc.want {
					t.Errorf("rows %q, want %q", got, tc.want)
				}
			} else if !strings.Contains(res.Err, tc.want) {
				t.Errorf("err %q, want it to contain %q", res.Err, tc.want)
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if res, err := tg.Exec(ctx, fmt.Sprintf(prog, "// SLEEP")); err == nil {
		t.Errorf("cancelled run: %+v, want the context's error", res)
	}
}

// TestSouffle runs a program with facts in a file and inline on the real souffle.
func TestSouffle(t *testing.T) {
	needSouffle(t)
	tg, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := tg.Exec(context.Background(), "-- prog.dl --\n.decl e(x: number, y: symbol)\n.decl p(y: symbol)\n.decl z()\n"+
		".input e\n.output p\n.output z\ne(3, \"c\").\np(y) :- e(_, y).\nz() :- e(1, _).\n-- e.facts --\n1\ta b\n2\t\n")
	if err != nil || res.Status != fuzz.StatusOK {
		t.Fatalf("%+v %v", res, err)
	}
	var rows []string
	for _, r := range res.Rows {
		rows = append(rows, strings.Join(r, ","))
	}
	slices.Sort(rows)
	if got, want := strings.Join(rows, "|"), "p,|p,a b|p,c|z"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}
