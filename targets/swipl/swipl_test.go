package swipl

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

func newTarget(t *testing.T, timeout time.Duration) *Target {
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
		t.Run(tt.name, func(t *testing.T) {
			got, err := tg.Exec(context.Background(), tt.prog)
			if err != nil {
				t.Fatal(err)
			}
			slices.SortFunc(got.Rows, slices.Compare)
			if got.Status != tt.want.Status || got.Code != tt.want.Code || got.Err != tt.want.Err ||
				!slices.EqualFunc(got.Rows, tt.want.Rows, slices.Equal) {
				t.Errorf("Exec = %+v\nwant %+v", got, tt.want)
			}
		})
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

func TestTimeoutAndCrash(t *testing.T) {
	tg := newTarget(t, 300*time.Millisecond)
	ok := func() {
		t.Helper()
		got, err := tg.Exec(context.Background(), "row([1]).")
		if err != nil || got.Status != fuzz.StatusOK || len(got.Rows) != 1 {
			t.Fatalf("Exec after failure = %+v, %v", got, err)
		}
	}
	start := time.Now()
	got, err := tg.Exec(context.Background(), "row([x]) :- repeat, fail.")
	if err != nil || got.Status != fuzz.StatusTimeout {
		t.Fatalf("looping program: %+v, %v; want a timeout", got, err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timeout took %s", d)
	}
	ok()
	got, err = tg.Exec(context.Background(), ":- halt(3).")
	if err != nil || got.Status != fuzz.StatusCrash || got.Err != "swipl process ended (exit status 3)" {
		t.Fatalf("halting program: %+v, %v; want a crash with exit status 3", got, err)
	}
	ok()
	if tg.Starts != 3 {
		t.Errorf("%d processes started, want 3", tg.Starts)
	}
}

func TestCancel(t *testing.T) {
	tg := newTarget(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := tg.Exec(ctx, "row([x]) :- repeat, fail."); err != context.DeadlineExceeded {
		t.Fatalf("Exec with a cancelled context: %v, want %v", err, context.DeadlineExceeded)
	}
	got, err := tg.Exec(context.Background(), "row([1]).")
	if err != nil || got.Status != fuzz.StatusOK {
		t.Fatalf("Exec after cancellation = %+v, %v", got, err)
	}
}

func TestMissingBinary(t *testing.T) {
	_, err := New(Options{Path: "/nonexistent/swipl"})
	if err == nil || !strings.Contains(err.Error(), "apt-get install swi-prolog-nox") {
		t.Fatalf("New with a missing binary: %v, want an error naming the fix", err)
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		``: ``, `abc`: `abc`, `a\tb`: "a\tb", `\\n`: `\n`, `\n\r\\`: "\n\r\\", `x\`: `x\`,
	} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkExec measures small programs per second on one warm process.
func BenchmarkExec(b *testing.B) {
	testenv.NeedEngine(b, "swipl")
	tg, err := New(Options{Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer tg.Close()
	const prog = ":- table path/2.\nedge(1, 2). edge(2, 3). edge(3, 1). edge(3, 4).\n" +
		"path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\nrow([path, X, Y]) :- path(X, Y).\n"
	for b.Loop() {
		res, err := tg.Exec(context.Background(), prog)
		if err != nil || res.Status != fuzz.StatusOK || len(res.Rows) != 12 {
			b.Fatalf("Exec = %+v, %v", res, err)
		}
	}
}
