package smtproc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// solvers are the presets tested against the real binaries, with the binary each needs.
var solvers = []struct{ preset, bin string }{
	{"z3", "z3"}, {"cvc5", "cvc5"}, {"cvc4", "cvc4"},
}

func open(t testing.TB, o Options) *Target {
	t.Helper()
	tg, err := New(o)
	if err != nil {
		t.Fatalf("New(%q): %v", o.Command, err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

func openPreset(t testing.TB, name string) *Target {
	t.Helper()
	o, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return open(t, o)
}

func exec1(t testing.TB, tg *Target, stmt string) *fuzz.Result {
	t.Helper()
	r, err := tg.Exec(context.Background(), stmt)
	if err != nil {
		t.Fatalf("%s: Exec(%q): %v", tg.Name(), stmt, err)
	}
	return r
}

func reset(t testing.TB, tg *Target) {
	t.Helper()
	if err := tg.Reset(context.Background()); err != nil {
		t.Fatalf("%s: Reset: %v", tg.Name(), err)
	}
}

const lia = "(set-option :produce-models true)(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)"

// TestSolvers runs the same statements on every installed solver and compares the results.
func TestSolvers(t *testing.T) {
	tests := []struct {
		name  string
		setup string
		stmt  string
		want  fuzz.Result
	}{
		{"sat", lia, "(assert (> x y))(check-sat)",
			fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"sat"}}}},
		{"unsat", lia, "(assert (> x y))(assert (> y x))(check-sat)",
			fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"unsat"}}}},
		{"get-value", lia, "(assert (= x 3))(assert (= y (- 2)))(check-sat)(get-value (x y (+ x y)))",
			fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"sat"}, {"x", "3"}, {"y", "(- 2)"}, {"(+ x y)", "1"}}}},
		{"push-pop several check-sat", lia,
			"(assert (> x 0))(check-sat)(push 1)(assert (< x 0))(check-sat)(pop 1)(check-sat)(push 1)(assert (= x 5))(check-sat)(get-value (x))(pop 1)",
			fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"sat"}, {"unsat"}, {"sat"}, {"sat"}, {"x", "5"}}}},
		{"bit-vectors", "(set-option :produce-models true)(set-logic QF_BV)(declare-fun a () (_ BitVec 8))",
			"(assert (= (bvadd a #x01) #x10))(check-sat)(get-value (a))",
			fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"sat"}, {"a", "#x0f"}}}}, // cvc prints #b00001111
		{"echo", "", `(echo "hi")`, fuzz.Result{Status: fuzz.StatusOK}}, // checked below: z3 prints hi, cvc "hi"
		{"nothing", lia, "(assert (> x 0))", fuzz.Result{Status: fuzz.StatusOK}},
	}
	for _, s := range solvers {
		t.Run(s.preset, func(t *testing.T) {
			testenv.NeedEngine(t, s.bin)
			tg := openPreset(t, s.preset)
			if v := tg.Version(); v == "" || v == "unknown" || !strings.Contains(v, ".") {
				t.Errorf("Version() = %q", v)
			}
			t.Logf("%s %s: %q", tg.Name(), tg.Version(), tg.Command())
			for _, tc := range tests {
				reset(t, tg)
				if tc.setup != "" {
					if r := exec1(t, tg, tc.setup); r.Failed() || len(r.Rows) != 0 {
						t.Fatalf("%s: setup: %+v", tc.name, r)
					}
				}
				got := exec1(t, tg, tc.stmt)
				if tc.name == "bit-vectors" && len(got.Rows) == 2 && got.Rows[1][1] == "#b00001111" {
					got.Rows[1][1] = "#x0f"
				}
				if tc.name == "echo" {
					if len(got.Rows) != 1 || strings.Trim(got.Rows[0][0], `"`) != "hi" {
						t.Errorf("%s: %+v", tc.name, got)
					}
					continue
				}
				if !reflect.DeepEqual(*got, tc.want) {
					t.Errorf("%s:\n got %+v\nwant %+v", tc.name, *got, tc.want)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, s := range solvers {
		t.Run(s.preset, func(t *testing.T) {
			testenv.NeedEngine(t, s.bin)
			tg := openPreset(t, s.preset)
			reset(t, tg)
			exec1(t, tg, lia)
			r := exec1(t, tg, "(assert (> x undeclared))(check-sat)")
			if r.Status != fuzz.StatusEngineError || r.Code != "error" || !strings.Contains(r.Err, "undeclared") {
				t.Errorf("undeclared symbol: %+v", r)
			}
			// Whether the solver continued (z3) or exited (cvc4, cvc5), the declarations are
			// still there for the next statement, without a Reset.
			r = exec1(t, tg, "(assert (= x 7))(check-sat)(get-value (x))")
			if want := [][]string{{"sat"}, {"x", "7"}}; r.Status != fuzz.StatusOK || !reflect.DeepEqual(r.Rows, want) {
				t.Errorf("after the error: %+v, want rows %q", r, want)
			}
			// A sort error, and an error after an answer: the answer is kept.
			r = exec1(t, tg, "(check-sat)(assert (+ x true))")
			if r.Status != fuzz.StatusEngineError || !reflect.DeepEqual(r.Rows, [][]string{{"sat"}}) {
				t.Errorf("sort error after check-sat: %+v", r)
			}
			// get-value without a model.
			reset(t, tg)
			r = exec1(t, tg, "(set-logic QF_LIA)(declare-fun x () Int)(get-value (x))")
			if r.Status != fuzz.StatusEngineError || r.Err == "" {
				t.Errorf("get-value before check-sat: %+v", r)
			}
			// An unbalanced statement is not sent, and the process is still usable.
			r = exec1(t, tg, "(assert (> x 0)")
			if r.Status != fuzz.StatusEngineError || r.Code != "unbalanced" {
				t.Errorf("unbalanced: %+v", r)
			}
			reset(t, tg)
			if r = exec1(t, tg, "(set-logic QF_LIA)(declare-fun x () Int)(assert (> x 0))(check-sat)"); r.Failed() ||
				r.Rows[0][0] != "sat" {
				t.Errorf("after the unbalanced statement: %+v", r)
			}
		})
	}
}

func TestZ3Unsupported(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	tg := openPreset(t, "z3")
	r := exec1(t, tg, "(set-logic NO_SUCH_LOGIC)(check-sat)")
	if r.Status != fuzz.StatusOK || r.Code != "unsupported" || !reflect.DeepEqual(r.Rows, [][]string{{"unsupported"}, {"sat"}}) {
		t.Errorf("unsupported logic: %+v", r)
	}
}

func TestResetClearsDeclarations(t *testing.T) {
	for _, s := range solvers {
		t.Run(s.preset, func(t *testing.T) {
			testenv.NeedEngine(t, s.bin)
			tg := openPreset(t, s.preset)
			for i := 0; i < 3; i++ {
				reset(t, tg)
				// The same declaration after every Reset: a leftover one would be an error.
				r := exec1(t, tg, "(set-option :produce-models true)(set-logic QF_LIA)(declare-fun x () Int)(assert (= x "+strconv.Itoa(i)+"))(check-sat)(get-value (x))")
				if want := [][]string{{"sat"}, {"x", strconv.Itoa(i)}}; r.Failed() || !reflect.DeepEqual(r.Rows, want) {
					t.Fatalf("round %d: %+v", i, r)
				}
			}
			reset(t, tg)
			if r := exec1(t, tg, "(set-logic QF_LIA)(assert (> x 0))"); r.Status != fuzz.StatusEngineError {
				t.Errorf("x survived the reset: %+v", r)
			}
			if tg.Starts > 2 { // cvc exits on the last error, which may restart it once
				t.Errorf("%d processes started for resets", tg.Starts)
			}
		})
	}
}

func TestBatch(t *testing.T) {
	for _, s := range solvers {
		t.Run(s.preset, func(t *testing.T) {
			testenv.NeedEngine(t, s.bin)
			tg := openPreset(t, s.preset)
			stmts := []string{
				lia,
				"(push 1)(assert (> x 2))(check-sat)(pop 1)",
				"(push 1)(assert (> x 2)",          // unbalanced, not sent
				"(push 1)(assert (> x zz))(pop 1)", // an error (cvc exits, and is restarted with lia replayed)
				"(assert (= y 4))(check-sat)(get-value (y))",
			}
			reset(t, tg)
			got, err := tg.ExecBatch(context.Background(), stmts)
			if err != nil || len(got) != len(stmts) {
				t.Fatalf("ExecBatch: %d results, %v", len(got), err)
			}
			reset(t, tg)
			for i, st := range stmts {
				want := exec1(t, tg, st)
				if i == 3 { // z3 continues after the error and pops; the message may differ in position
					if got[i].Status != fuzz.StatusEngineError || want.Status != fuzz.StatusEngineError {
						t.Errorf("statement %d: batch %+v, exec %+v", i, got[i], want)
					}
					continue
				}
				if !reflect.DeepEqual(got[i], want) {
					t.Errorf("statement %d: batch %+v, exec %+v", i, got[i], want)
				}
			}
			if r := got[4]; r.Failed() || !reflect.DeepEqual(r.Rows, [][]string{{"sat"}, {"y", "4"}}) {
				t.Errorf("last statement: %+v", r)
			}
		})
	}
}

// hardNIA takes z3 4.8.12 and cvc5 1.0.3 far longer than a second (z3 with a soft timeout
// even hangs on it without using the CPU).
const hardNIA = "(set-logic QF_NIA)(declare-fun p () Int)(declare-fun q () Int)(assert (> p 1))(assert (> q 1))" +
	"(assert (= (* p q) 1000000016000000063))(check-sat)"

func TestTimeout(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	// Through sh, z3 gets no soft limit of its own: the hard deadline must fire.
	tg := open(t, Options{Name: "z3", Command: []string{"sh", "-c", "exec z3 -in"}, Timeout: 300 * time.Millisecond})
	start := time.Now()
	r := exec1(t, tg, hardNIA)
	if r.Status != fuzz.StatusTimeout || !strings.Contains(r.Err, "no answer within") {
		t.Fatalf("hard instance: %+v", r)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("timeout took %s", el)
	}
	// The next Exec starts a new process.
	r = exec1(t, tg, "(set-logic QF_LIA)(declare-fun x () Int)(assert (> x 0))(check-sat)")
	if r.Failed() || r.Rows[0][0] != "sat" {
		t.Errorf("after the timeout: %+v", r)
	}
	if tg.Starts != 2 {
		t.Errorf("Starts = %d, want 2", tg.Starts)
	}
}

// php is the pigeonhole problem with n+1 pigeons and n holes: unsat, and slow for n = 11.
func php(n int) string {
	var b strings.Builder
	b.WriteString("(set-logic QF_UF)")
	p := func(i, j int) string { return "p" + strconv.Itoa(i) + "_" + strconv.Itoa(j) }
	for i := 0; i <= n; i++ {
		for j := 0; j < n; j++ {
			b.WriteString("(declare-fun " + p(i, j) + " () Bool)")
		}
	}
	for i := 0; i <= n; i++ {
		b.WriteString("(assert (or")
		for j := 0; j < n; j++ {
			b.WriteString(" " + p(i, j))
		}
		b.WriteString("))")
	}
	for j := 0; j < n; j++ {
		for i := 0; i <= n; i++ {
			for k := i + 1; k <= n; k++ {
				b.WriteString("(assert (not (and " + p(i, j) + " " + p(k, j) + ")))")
			}
		}
	}
	b.WriteString("(check-sat)")
	return b.String()
}

// TestSoftLimit checks that the solver's own limit answers unknown and keeps the process.
func TestSoftLimit(t *testing.T) {
	for _, s := range solvers {
		t.Run(s.preset, func(t *testing.T) {
			testenv.NeedEngine(t, s.bin)
			o, _ := Preset(s.preset)
			o.Timeout = 300 * time.Millisecond
			tg := open(t, o)
			r := exec1(t, tg, php(11)+"(get-info :reason-unknown)")
			switch {
			case r.Status == fuzz.StatusOK && len(r.Rows) == 2 && r.Rows[0][0] == "unknown":
				if tg.Starts != 1 {
					t.Errorf("the process was restarted")
				}
			case r.Status == fuzz.StatusOK && r.Rows[0][0] == "unsat":
				t.Logf("solved in time: %+v", r) // a fast machine
			case r.Status == fuzz.StatusTimeout:
				t.Logf("soft limit missed, hard limit hit: %+v", r)
			default:
				t.Errorf("php(11) with a 300ms limit: %+v", r)
			}
			reset(t, tg)
			if r := exec1(t, tg, "(set-logic QF_LIA)(declare-fun x () Int)(check-sat)"); r.Failed() {
				t.Errorf("after the soft limit: %+v", r)
			}
		})
	}
}

func TestContextCancel(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	tg := open(t, Options{Name: "z3", Command: []string{"z3", "-in"}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := tg.Exec(ctx, hardNIA)
	if !errors.Is(err, context.DeadlineExceeded) || r != nil {
		t.Fatalf("Exec = %+v, %v; want the context's error", r, err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("cancel took %s", el)
	}
	if _, err := tg.Exec(ctx, "(check-sat)"); err == nil {
		t.Errorf("Exec with a done context gave no error")
	}
	if r := exec1(t, tg, "(check-sat)"); r.Failed() || r.Rows[0][0] != "sat" {
		t.Errorf("after the cancel: %+v", r)
	}
}

// fakeSolver is a shell script that answers echo and check-sat and misbehaves on request.
const fakeSolver = `
while IFS= read -r l; do
  case "$l" in
    *die-now*) echo "fatal: dying on request" >&2; echo "more detail" >&2; exit 3;;
    *exit-now*) exit 0;;
    *segv-now*) kill -SEGV $$;;
    *assert-now*) echo "ASSERTION VIOLATION";;
    *stderr-assert*) echo "solver.cpp:12: f: Assertion \` + "`" + `x' failed." >&2;;
    *hang-now*) sleep 100;;
    *env-now*) echo "$POLYFUZZ_TEST_ENV";;
    *check-sat*) echo sat;;
    *'(echo "'*) m=${l#*\(echo \"}; m=${m%%\"*}; echo "$m";;
  esac
done
`

func openFake(t *testing.T) *Target {
	return open(t, Options{Name: "fake", Command: []string{"sh", "-c", fakeSolver}, Timeout: 500 * time.Millisecond})
}

func TestCrash(t *testing.T) {
	tests := []struct {
		stmt   string
		status fuzz.Status
		err    []string
	}{
		{"(die-now)", fuzz.StatusCrash, []string{"fake exited with status 3: fatal: dying on request; more detail"}},
		{"(segv-now)", fuzz.StatusCrash, []string{"fake exited with status 139 (signal 11, segmentation fault)"}},
		{"(assert-now)", fuzz.StatusCrash, []string{"fake: ASSERTION VIOLATION"}},
		{"(stderr-assert)", fuzz.StatusCrash, []string{"fake: solver.cpp:12: f: Assertion `x' failed."}},
		{"(hang-now)", fuzz.StatusTimeout, []string{"no answer within", "fake killed"}},
		{"(exit-now)", fuzz.StatusEngineError, []string{"fake exited with status 0 before answering"}},
	}
	tg := openFake(t)
	if tg.Version() != "unknown" {
		t.Errorf("Version() = %q", tg.Version())
	}
	for _, tc := range tests {
		reset(t, tg)
		if r := exec1(t, tg, "(check-sat)"); r.Failed() || r.Rows[0][0] != "sat" {
			t.Fatalf("before %s: %+v", tc.stmt, r)
		}
		r := exec1(t, tg, "(check-sat)"+tc.stmt)
		if r.Status != tc.status {
			t.Errorf("%s: %+v, want status %s", tc.stmt, r, tc.status)
		}
		for _, e := range tc.err {
			if !strings.Contains(r.Err, e) {
				t.Errorf("%s: Err %q does not contain %q", tc.stmt, r.Err, e)
			}
		}
		if tc.status == fuzz.StatusCrash && len(r.Err) > 400 {
			t.Errorf("%s: Err is %d characters long", tc.stmt, len(r.Err))
		}
		reset(t, tg)
		if r := exec1(t, tg, "(check-sat)"); r.Failed() || r.Rows[0][0] != "sat" {
			t.Errorf("after %s and Reset: %+v", tc.stmt, r)
		}
	}
	// In a batch, the statements after a crash run on a new process.
	rs, err := tg.ExecBatch(context.Background(), []string{"(check-sat)", "(die-now)", "(check-sat)"})
	if err != nil || len(rs) != 3 || rs[0].Rows[0][0] != "sat" || rs[1].Status != fuzz.StatusCrash || rs[2].Failed() {
		t.Errorf("batch with a crash: %v %v", rs, err)
	}
}

func TestMissingBinary(t *testing.T) {
	_, err := New(Options{Command: []string{"no-such-solver-polyfuzz", "-in"}})
	if err == nil || !strings.Contains(err.Error(), "install no-such-solver-polyfuzz or pass --solver-cmd") {
		t.Errorf("missing binary: %v", err)
	}
	_, err = New(Options{})
	if err == nil {
		t.Errorf("empty command: no error")
	}
}

func TestNotSMT(t *testing.T) {
	old := handshakeTimeout
	handshakeTimeout = 500 * time.Millisecond
	defer func() { handshakeTimeout = old }()
	tests := []struct {
		cmd  []string
		want string
	}{
		{[]string{"true"}, "true does not speak SMT-LIB on stdin: it printed nothing and exited with status 0"},
		{[]string{"cat"}, "cat does not speak SMT-LIB on stdin: it echoed its input back"},
		{[]string{"sleep", "100"}, "sleep does not speak SMT-LIB on stdin: it printed nothing in 500ms"},
		{[]string{"sh", "-c", "echo usage: foo FILE >&2; exit 2"}, `sh does not speak SMT-LIB on stdin: it printed "usage: foo FILE" and exited with status 2`},
	}
	for _, tc := range tests {
		start := time.Now()
		_, err := New(Options{Command: tc.cmd})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.cmd, err, tc.want)
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("%q: took %s", tc.cmd, el)
		}
	}
}

// TestBoolector checks that a boolector that cannot talk over a pipe is refused clearly (Debian's
// 1.5 reads the whole input before it answers), and that one that can works.
func TestBoolector(t *testing.T) {
	testenv.NeedEngine(t, "boolector")
	o, _ := Preset("boolector")
	tg, err := New(o)
	if err != nil {
		if !strings.Contains(err.Error(), "boolector does not speak SMT-LIB on stdin") {
			t.Fatalf("unclear error: %v", err)
		}
		t.Skipf("this boolector is not interactive: %v", err)
	}
	defer tg.Close()
	reset(t, tg)
	r := exec1(t, tg, "(set-option :produce-models true)(set-logic QF_BV)(declare-fun a () (_ BitVec 4))(assert (= a #x3))(check-sat)")
	if r.Failed() || r.Rows[0][0] != "sat" {
		t.Errorf("boolector: %+v", r)
	}
}

// TestCloseReaps checks that Close leaves no process and no goroutine behind.
func TestCloseReaps(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	before := runtime.NumGoroutine()
	var pids []int
	for i := 0; i < 5; i++ {
		o, _ := Preset("z3")
		tg, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		reset(t, tg)
		exec1(t, tg, "(check-sat)")
		pids = append(pids, tg.p.Pid())
		tg.Close()
		tg.Close()
		if _, err := tg.Exec(context.Background(), "(check-sat)"); err == nil {
			t.Errorf("Exec after Close gave no error")
		}
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err == nil {
			st, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
			t.Errorf("process %d still exists: %s", pid, st)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines before, %d after", before, n)
	}
}

// TestEagerReset checks the alternative Reset that waits for the solver (used in benchmarks).
func TestEagerReset(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	tg := openPreset(t, "z3")
	tg.eagerReset = true
	for i := 0; i < 3; i++ {
		reset(t, tg)
		if r := exec1(t, tg, "(set-logic QF_LIA)(declare-fun x () Int)(check-sat)"); r.Failed() {
			t.Fatalf("round %d: %+v", i, r)
		}
	}
}

func TestEnv(t *testing.T) {
	tg := open(t, Options{Name: "fake", Command: []string{"sh", "-c", fakeSolver}, Env: []string{"POLYFUZZ_TEST_ENV=hello-env"}})
	if r := exec1(t, tg, "(env-now)"); r.Failed() || !reflect.DeepEqual(r.Rows, [][]string{{"hello-env"}}) {
		t.Errorf("env: %+v", r)
	}
}

// TestLargeStatement sends a statement far larger than a pipe whose answer is also larger than
// a pipe, which deadlocks a writer that does not read at the same time.
func TestLargeStatement(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	tg := openPreset(t, "z3")
	var b strings.Builder
	line := strings.Repeat("x", 100)
	for i := 0; i < 3000; i++ {
		b.WriteString(`(echo "` + line + `")`)
	}
	for _, batch := range []bool{false, true} {
		var r *fuzz.Result
		if batch {
			rs, err := tg.ExecBatch(context.Background(), []string{b.String(), "(check-sat)"})
			if err != nil || len(rs) != 2 || rs[1].Failed() {
				t.Fatalf("batch: %v %v", rs, err)
			}
			r = rs[0]
		} else {
			r = exec1(t, tg, b.String())
		}
		if r.Failed() || len(r.Rows) != 3000 || r.Rows[2999][0] != line {
			t.Errorf("large statement (batch %v): %s, %d rows", batch, r.Status, len(r.Rows))
		}
	}
}

// TestUnexpectedAnswer runs z3 behind testdata/smt-faults/banana.sh, which prints banana for
// every sat: such an answer is an engine error with Code fuzz.CodeUnexpectedAnswer (which the
// error oracle reports as "error: banana.sh: unexpected answer"), not a silent OK; unsat passes.
func TestUnexpectedAnswer(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	wrapper, err := filepath.Abs("../../testdata/smt-faults/banana.sh")
	if err != nil {
		t.Fatal(err)
	}
	tg := open(t, Options{Name: "banana.sh", Command: []string{wrapper}, Timeout: 5 * time.Second})
	tests := []struct {
		stmt string
		want fuzz.Result
	}{
		{"(declare-fun x () Int)(assert (> x 0))(check-sat)", fuzz.Result{Status: fuzz.StatusEngineError,
			Code: fuzz.CodeUnexpectedAnswer, Rows: [][]string{{"banana"}},
			Err: `unexpected answer: "banana" where check-sat 1 of 1 wants sat, unsat or unknown`}},
		{"(declare-fun x () Int)(assert (> x x))(check-sat)", fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"unsat"}}}},
		{"(echo \"banana\")", fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"banana"}}}}, // no check-sat
	}
	for _, tc := range tests {
		reset(t, tg)
		if r := exec1(t, tg, tc.stmt); !reflect.DeepEqual(*r, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.stmt, *r, tc.want)
		}
	}
}
