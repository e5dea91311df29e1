package clingo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

// needClingo skips t, or fails it in CI, unless the target's python3 can import clingo.
func needClingo(t testing.TB) {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "clingo")
}

func newTarget(t testing.TB, timeout time.Duration) *Target {
	t.Helper()
	needClingo(t)
	tg, err := New(Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

func TestExec(t *testing.T) {
	tg := newTarget(t, 10*time.Second)
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(tg.Version()) {
		t.Errorf("Version = %q, want N.N.N", tg.Version())
	}
	tests := []struct {
		name, prog string
		want       *fuzz.Result
	}{
		{"closure", `edge(1,2). edge(2,3).
path(X,Y) :- edge(X,Y).
path(X,Z) :- path(X,Y), edge(Y,Z).
#show.
#show ("p",X,Y) : path(X,Y).
`, &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"p", "1", "2"}, {"p", "1", "3"}, {"p", "2", "3"}}}},
		{"shown atoms", "a(1,\"x\"). b. #show a/2. #show b/0.",
			&fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"a", "1", "x"}, {"b"}}}},
		{"escaped values", "#show (\"a\\\\b\\\"c\td\\ne\r\",\"\",\"é\",-2147483648,f(x),c).",
			&fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"a\\b\"c\td\ne\r", "", "é", "-2147483648", "f(x)", "c"}}}},
		{"no rows", "a. #show.", &fuzz.Result{Status: fuzz.StatusOK}},
		{"syntax error", "p(1) :- q(.", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "<block>:1:11-12: error: syntax error, unexpected ., expecting ) or ;"}},
		{"unsafe", "p(X) :- not q(X).", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "<block>:1:1-18: error: unsafe variables in:\n  p(X):-[#inc_base];not q(X).\n<block>:1:3-4: note: 'X' is unsafe"}},
		{"lexer error in UTF-8", "p :- éq.", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "<block>:1:6-7: error: lexer error, unexpected \ufffd"}},
		{"two answer sets", "p :- not q. q :- not p.", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "several answer sets; a stratified program has exactly one"}},
		{"no answer set", "p. :- p.", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "no answer sets; a stratified program has exactly one"}},
	}
	for _, tt := range tests {
		got, err := tg.Exec(context.Background(), tt.prog)
		if err == nil {
			slices.SortFunc(got.Rows, slices.Compare)
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Exec = %+v, %v\nwant %+v", tt.name, got, err, tt.want)
		}
	}
	if tg.Starts != 1 {
		t.Errorf("%d processes started, want 1", tg.Starts)
	}
}

func TestMissing(t *testing.T) {
	_, err := New(Options{Python: "/nonexistent/python3"})
	if err == nil || !strings.Contains(err.Error(), fix) {
		t.Errorf("New with a missing python3: %v, want an error naming the fix", err)
	}
	// A python3 that cannot import clingo: the real one with an empty module path.
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "python3")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec "+py+" -I -S \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = New(Options{Python: script})
	if err == nil || !strings.Contains(err.Error(), "the Python module clingo is missing") || !strings.Contains(err.Error(), fix) {
		t.Errorf("New with a python3 without clingo: %v, want an error naming the fix", err)
	}
}

// BenchmarkExec measures small programs per second on one warm process.
func BenchmarkExec(b *testing.B) {
	tg := newTarget(b, 10*time.Second)
	const prog = "edge(1,2). edge(2,3). edge(3,1). edge(3,4).\npath(X,Y) :- edge(X,Y).\n" +
		"path(X,Z) :- path(X,Y), edge(Y,Z).\n#show.\n#show (\"path\",X,Y) : path(X,Y).\n"
	for b.Loop() {
		res, err := tg.Exec(context.Background(), prog)
		if err != nil || res.Status != fuzz.StatusOK || len(res.Rows) != 12 {
			b.Fatalf("Exec = %+v, %v", res, err)
		}
	}
}
