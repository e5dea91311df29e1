package dldom

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLocalizeCommand(t *testing.T) {
	td := filepath.Join("..", "..", "datalog", "localize", "testdata")
	prog, before, after := filepath.Join(td, "pointsto.dl"), filepath.Join(td, "pointsto.before.facts"), filepath.Join(td, "pointsto.after.facts")
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	undeclared := write("undeclared.facts", `call("a", "b").`)
	arity := write("arity.facts", `new("a").`)
	typ := write("type.facts", `new("a", 1).`)
	tests := []struct {
		name string
		args []string
		code int
		want string // in stdout on success, in the one line of stderr on failure
	}{
		{"paper example", []string{prog, "--before", before, "--after", after, "--unwanted", "alias(userSession, sec)"}, 0,
			"rollback suggestion (removed from the update, these changes repair every fault): 1 changes, verified"},
		{"flags first, ddmin", []string{"--ddmin", "--before", before, "--after", after, "--unwanted", `alias("userSession", "sec")`, prog}, 0,
			"delta debugging, rollback"},
		{"help", []string{"--help"}, 0, "--unwanted value"},
		{"unwanted not derived after", []string{prog, "--before", before, "--after", after, "--unwanted", "alias(ins, sec)"}, 2,
			`unwanted tuple alias("ins", "sec") is not derived after the update, so it is no fault; drop it`},
		{"wanted derived after", []string{prog, "--before", before, "--after", after, "--wanted", "vpt(sec, L2)"}, 2,
			`wanted tuple vpt("sec", "L2") is derived after the update, so it is no fault; drop it`},
		{"undeclared relation", []string{prog, "--before", undeclared, "--after", after, "--unwanted", "alias(userSession, sec)"}, 2,
			`unknown relation "call"`},
		{"wrong arity", []string{prog, "--before", arity, "--after", after, "--unwanted", "alias(userSession, sec)"}, 2,
			"arity.facts:1:1: rule head new has 1 arguments, its declaration 2"},
		{"wrong type", []string{prog, "--before", typ, "--after", after, "--unwanted", "alias(userSession, sec)"}, 2,
			"number constant 1 in symbol column obj of new"},
		{"tuple of the wrong arity", []string{prog, "--before", before, "--after", after, "--unwanted", "alias(userSession)"}, 2,
			"alias has 1 arguments, its declaration 2"},
		{"no intended output", []string{prog, "--before", before, "--after", after}, 2, "give at least one --unwanted or --wanted tuple"},
		{"unreadable facts", []string{prog, "--before", filepath.Join(dir, "missing.facts"), "--after", after, "--unwanted", "alias(userSession, sec)"}, 2,
			"no such file or directory"},
		{"unreadable program", []string{filepath.Join(dir, "missing.dl"), "--before", before, "--after", after, "--unwanted", "alias(userSession, sec)"}, 2,
			"no such file or directory"},
		{"no facts files", []string{prog, "--unwanted", "alias(userSession, sec)"}, 2, "give both"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := localizeCommand(context.Background(), tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			out := stdout.String()
			if code != 0 {
				out = stderr.String()
				if strings.Count(out, "\n") != 1 {
					t.Errorf("error is not one line: %q", out)
				}
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, out)
			}
		})
	}
}
