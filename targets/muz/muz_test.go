package muz

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

func TestNewErrors(t *testing.T) {
	tests := []struct {
		path string
		want []string
	}{
		{"/nonexistent/z3", []string{"/nonexistent/z3 not found", "install z3", "Options.Path"}},
		{"true", []string{"not a Z3 version", "Options.Path"}},
	}
	for _, tc := range tests {
		_, err := New(Options{Path: tc.path})
		if err == nil {
			t.Errorf("New(%q) succeeded", tc.path)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("New(%q) error %q does not contain %q", tc.path, err, w)
			}
		}
	}
}

func newTarget(t *testing.T, o Options) *Target {
	t.Helper()
	testenv.NeedEngine(t, "z3")
	tg, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

const header = "(set-option :fp.engine datalog)\n(define-sort N () (_ BitVec 2))\n(declare-var x N)\n(declare-var y N)\n"

func TestExec(t *testing.T) {
	tg := newTarget(t, Options{})
	if !strings.HasPrefix(tg.Version(), "4.") || tg.Name() != "muz" {
		t.Errorf("name %q version %q, want muz 4.x", tg.Name(), tg.Version())
	}
	tests := []struct {
		name   string
		stmt   string
		status fuzz.Status
		code   string
		rows   string // rows joined by ";", values by ","
	}{
		{"tuples", "(declare-rel e (N N))(declare-rel p (N N))(rule (e #b00 #b01))(rule (e #b01 #b10))(rule (e #b01 #b10))" +
			"(declare-var z N)(rule (=> (e x y) (p x y)))(rule (=> (and (e x y) (p y z)) (p x z)))(query p :print-answer true)",
			fuzz.StatusOK, "", "p,#b00,#b01;p,#b00,#b10;p,#b01,#b10"},
		{"empty and nullary", "(declare-rel a (N))(declare-rel b (N))(declare-rel z ())(declare-rel u (N N))(rule (a #b11))" +
			"(rule (=> (and (a x) (not (b x))) z))(query b :print-answer true)(query z :print-answer true)(query u :print-answer true)",
			fuzz.StatusOK, "", "z"},
		{"many tuples", "(define-sort B () (_ BitVec 8))(declare-rel a (B))(declare-rel p (B B))(declare-var u B)(declare-var v B)" +
			factsUpTo(40) + "(rule (=> (and (a u) (a v)) (p u v)))(query p :print-answer true)",
			fuzz.StatusOK, "", "1600 rows"},
		{"infinite sort", "(declare-rel a (Int))(rule (a 1))(query a :print-answer true)", fuzz.StatusEngineError, "error", ""},
		{"undeclared", "(query nope :print-answer true)", fuzz.StatusEngineError, "error", ""},
		{"unbalanced", "(declare-rel a (N)", fuzz.StatusEngineError, "unbalanced", ""},
		{"exit", "(exit)", fuzz.StatusEngineError, "exited", ""},
		{"after exit", "(declare-rel a (N))(rule (a #b10))(query a :print-answer true)", fuzz.StatusOK, "", "a,#b10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tg.Exec(context.Background(), header+tc.stmt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.status || res.Code != tc.code {
				t.Fatalf("status %s code %q (%s), want %s %q", res.Status, res.Code, res.Err, tc.status, tc.code)
			}
			if got := rowString(res.Rows); tc.status == fuzz.StatusOK && got != tc.rows {
				t.Errorf("rows %q, want %q", got, tc.rows)
			}
		})
	}
}

// factsUpTo returns the facts (a #x00) ... for n values.
func factsUpTo(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "(rule (a #x%02x))", i)
	}
	return b.String()
}

// rowString prints sorted rows, or "N rows" for more than 20.
func rowString(rows [][]string) string {
	if len(rows) > 20 {
		return fmt.Sprintf("%d rows", len(rows))
	}
	var s []string
	for _, r := range rows {
		s = append(s, strings.Join(r, ","))
	}
	slices.Sort(s)
	return strings.Join(s, ";")
}

// TestIndependent checks that an answer does not depend on the programs run before it: the same
// relation names, redeclared with other sorts and facts, must not see the earlier facts.
func TestIndependent(t *testing.T) {
	for _, perProcess := range []bool{false, true} {
		tg := newTarget(t, Options{ProcessPerProgram: perProcess})
		progs := []struct{ stmt, rows string }{
			{"(declare-rel a (N))(rule (a #b01))(query a :print-answer true)", "a,#b01"},
			{"(declare-rel a (N))(rule (a #b10))(query a :print-answer true)", "a,#b10"},
			{"(declare-rel a (N))(query a :print-answer true)", ""},
			{"(define-sort M () (_ BitVec 4))(declare-rel a (M))(rule (a #x3))(query a :print-answer true)", "a,#x3"},
		}
		for i, p := range progs {
			res, err := tg.Exec(context.Background(), header+p.stmt)
			if err != nil || res.Status != fuzz.StatusOK {
				t.Fatalf("program %d: %+v %v", i, res, err)
			}
			if got := rowString(res.Rows); got != p.rows {
				t.Errorf("per process %v, program %d: rows %q, want %q", perProcess, i, got, p.rows)
			}
		}
		if want := map[bool]int{false: 1, true: 1 + len(progs)}[perProcess]; tg.Starts != want {
			t.Errorf("per process %v: %d starts, want %d", perProcess, tg.Starts, want)
		}
	}
}

// slow is a program that takes z3 far longer than a second: the non-linear transitive closure
// of a chain of 1000 edges.
func slow() string {
	var b strings.Builder
	b.WriteString("(set-option :fp.engine datalog)(define-sort N () (_ BitVec 16))(declare-rel e (N N))(declare-rel p (N N))" +
		"(declare-rel c ())(declare-var x N)(declare-var y N)(declare-var z N)")
	for i := range 1000 {
		fmt.Fprintf(&b, "(rule (e #x%04x #x%04x))", i, i+1)
	}
	b.WriteString("(rule (=> (e x y) (p x y)))(rule (=> (and (p x y) (p y z)) (p x z)))(rule (=> (p #x0000 #x03e8) c))(query c :print-answer true)")
	return b.String()
}

const quick = header + "(declare-rel a (N))(rule (a #b01))(query a :print-answer true)"

func TestTimeout(t *testing.T) {
	tg := newTarget(t, Options{Timeout: 300 * time.Millisecond})
	start := time.Now()
	res, err := tg.Exec(context.Background(), slow())
	if err != nil || res.Status != fuzz.StatusTimeout {
		t.Fatalf("slow program: %+v %v, want a timeout", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the timeout took %s", d)
	}
	res, err = tg.Exec(context.Background(), quick)
	if err != nil || res.Status != fuzz.StatusOK || rowString(res.Rows) != "a,#b01" || tg.Starts != 2 {
		t.Fatalf("after the timeout: %+v %v, %d starts; want a,#b01 from a second process", res, err, tg.Starts)
	}
}

func TestCrash(t *testing.T) {
	tg := newTarget(t, Options{})
	pid := tg.p.Pid()
	go func() {
		time.Sleep(200 * time.Millisecond)
		syscall.Kill(pid, syscall.SIGSEGV)
	}()
	res, err := tg.Exec(context.Background(), slow())
	if err != nil || res.Status != fuzz.StatusCrash || !strings.Contains(res.Err, "signal 11") {
		t.Fatalf("killed z3: %+v %v, want a crash with signal 11", res, err)
	}
	res, err = tg.Exec(context.Background(), quick)
	if err != nil || res.Status != fuzz.StatusOK || rowString(res.Rows) != "a,#b01" {
		t.Fatalf("after the crash: %+v %v", res, err)
	}
}

func TestCancel(t *testing.T) {
	tg := newTarget(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if res, err := tg.Exec(ctx, slow()); err == nil {
		t.Fatalf("cancelled program: %+v, want the context's error", res)
	}
	res, err := tg.Exec(context.Background(), quick)
	if err != nil || res.Status != fuzz.StatusOK || rowString(res.Rows) != "a,#b01" {
		t.Fatalf("after the cancellation: %+v %v", res, err)
	}
}

func TestCrashMessage(t *testing.T) {
	tests := []struct{ stdout, stderr, want string }{
		{"sat\ntrue\n", "", ""},
		{"(error \"unknown constant UNREACHABLE\")\n", "", ""},
		{"sat\nASSERTION VIOLATION\nFile: a.cpp\n", "", "ASSERTION VIOLATION; File: a.cpp"},
		{"", "warning\nterminate called after throwing\nmore\n", "terminate called after throwing; more"},
		{"(error \"x\")\n  Segmentation fault\n", "", "Segmentation fault"},
	}
	for _, tc := range tests {
		if got := crashMessage(tc.stdout, tc.stderr); got != tc.want {
			t.Errorf("crashMessage(%q, %q) = %q, want %q", tc.stdout, tc.stderr, got, tc.want)
		}
	}
}
