package swipl

import (
	"context"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

func newTarget(t testing.TB, timeout time.Duration) *Target {
	t.Helper()
	testenv.NeedEngine(t, "swipl")
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
		{"tabled closure", `:- table path/2.
edge(1, 2). edge(2, 3).
path(X, Y) :- edge(X, Y).
path(X, Z) :- path(X, Y), edge(Y, Z).
row([p, X, Y]) :- path(X, Y).
`, &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"p", "1", "2"}, {"p", "1", "3"}, {"p", "2", "3"}}}},
		{"escaped values", `row(['a\tb\nc\\d\x0\e', '', 'é', -12345678901234567890, "str", f(x), []]).`,
			&fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{
				{"a\tb\nc\\d\x00e", "", "é", "-12345678901234567890", "str", "f(x)", "[]"}}}},
		{"empty row", `row([]).`, &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{}}}},
		{"no rows", `:- dynamic row/1.`, &fuzz.Result{Status: fuzz.StatusOK}},
		{"output discarded", ":- writeln('OK').\nrow([x]) :- writeln('R\tno').", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"x"}}}},
		{"syntax error", "row([x]) :- foo(.\n", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "program:1:16: Syntax error: Unexpected end of clause"}},
		{"unknown procedure", "row([x]) :- nope.\n", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "findall_loop/4: Unknown procedure: polyfuzz_program:nope/0"}},
		{"no row predicate", "p.\n", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "findall_loop/4: Unknown procedure: polyfuzz_program:row/1"}},
		{"invalid utf-8", "row(['\xff']).", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "the program is not valid UTF-8"}},
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

// TestIsolation checks that a program sees nothing of the programs before it: clauses, tables,
// dynamic facts and flags live in the temporary module.
func TestIsolation(t *testing.T) {
	tg := newTarget(t, 10*time.Second)
	prog := func(n string) string {
		return ":- table p/1.\n:- dynamic q/1.\np(" + n + ").\np(X) :- q(X).\n:- assertz(q(" + n + "0)).\nrow([X]) :- p(X).\n"
	}
	for _, n := range []string{"1", "2", "1", "3"} {
		got, err := tg.Exec(context.Background(), prog(n))
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(got.Rows, slices.Compare)
		if want := [][]string{{n}, {n + "0"}}; got.Status != fuzz.StatusOK || !slices.EqualFunc(got.Rows, want, slices.Equal) {
			t.Fatalf("program %s answered %+v, want rows %v", n, got, want)
		}
	}
}

// TestHalt checks that a program that ends swipl is a crash and that a new process runs the next.
func TestHalt(t *testing.T) {
	tg := newTarget(t, 10*time.Second)
	got, err := tg.Exec(context.Background(), ":- halt(3).")
	if err != nil || got.Status != fuzz.StatusCrash || got.Err != "swipl exited with status 3" {
		t.Fatalf("halting program: %+v, %v; want a crash with exit status 3", got, err)
	}
	got, err = tg.Exec(context.Background(), "row([1]).")
	if err != nil || got.Status != fuzz.StatusOK || tg.Starts != 2 {
		t.Fatalf("Exec after the crash = %+v, %v with %d processes started, want OK with 2", got, err, tg.Starts)
	}
}

func TestMissingBinary(t *testing.T) {
	_, err := New(Options{Path: "/nonexistent/swipl"})
	if err == nil || !strings.Contains(err.Error(), "apt-get install swi-prolog-nox") {
		t.Fatalf("New with a missing binary: %v, want an error naming the fix", err)
	}
}

// BenchmarkExec measures small programs per second on one warm process.
func BenchmarkExec(b *testing.B) {
	tg := newTarget(b, 10*time.Second)
	const prog = ":- table path/2.\nedge(1, 2). edge(2, 3). edge(3, 1). edge(3, 4).\n" +
		"path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\nrow([path, X, Y]) :- path(X, Y).\n"
	for b.Loop() {
		res, err := tg.Exec(context.Background(), prog)
		if err != nil || res.Status != fuzz.StatusOK || len(res.Rows) != 12 {
			b.Fatalf("Exec = %+v, %v", res, err)
		}
	}
}
