//go:build z3lib

package z3lib

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/smtgen"
	"github.com/polyfuzz/polyfuzz/targets/isolated"
	"github.com/polyfuzz/polyfuzz/targets/smtproc"
)

// TestMain makes the test binary its own isolated child: the spec is Options as JSON.
func TestMain(m *testing.M) {
	if isolated.IsChild() {
		isolated.Serve(func(spec string) (fuzz.Target, error) {
			var o Options
			if err := json.Unmarshal([]byte(spec), &o); err != nil {
				return nil, err
			}
			return New(o)
		})
	}
	os.Exit(m.Run())
}

func openLib(t testing.TB, o Options) *Target {
	t.Helper()
	tg, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

// openProc starts the warm Debian z3, which links the same libz3 (4.8.12).
func openProc(t testing.TB) *smtproc.Target {
	t.Helper()
	testenv.NeedEngine(t, "z3")
	o, err := smtproc.Preset("z3")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := smtproc.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	if v := Version(); tg.Version() != v {
		testenv.Missing(t, "z3 on PATH is "+tg.Version()+" and libz3 is "+v+": install Debian's z3 and libz3-dev of one release")
	}
	return tg
}

// lineCol matches the position of an error, which the process counts from its start.
var lineCol = regexp.MustCompile(`line [0-9]+ column [0-9]+: `)

// runBoth resets both targets, runs stmts on each and fails on the first result that differs;
// with values false, the values of get-value rows are left out of the comparison, and
// runBoth returns how many rows had other values.
func runBoth(t *testing.T, lib *Target, proc *smtproc.Target, what string, stmts []string, values bool) ([]*fuzz.Result, int) {
	t.Helper()
	ctx := context.Background()
	var got [2][]*fuzz.Result
	for i, tg := range []fuzz.Target{lib, proc} {
		if err := tg.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		rs, err := fuzz.ExecAll(ctx, tg, stmts)
		if err != nil {
			t.Fatalf("%s on %s: %v", what, tg.Name(), err)
		}
		got[i] = rs
	}
	other := 0
	for k := range stmts {
		if !values {
			other += dropValues(got[0][k], got[1][k])
		}
		if inconclusive(got[0][k]) || inconclusive(got[1][k]) {
			// One side ran into its time limit (a loaded machine): the rest of the case is not
			// comparable.
			t.Logf("%s: statement %d: one side timed out or answered unknown; the rest is not compared", what, k+1)
			return got[0][:k], other
		}
		a, _ := json.Marshal(got[0][k])
		b, _ := json.Marshal(got[1][k])
		if lineCol.ReplaceAllString(string(a), "") != lineCol.ReplaceAllString(string(b), "") {
			t.Fatalf("%s: statement %d answered differently\n%s\nz3lib: %s\nz3:    %s", what, k+1, strings.Join(stmts[:k+1], "\n"), a, b)
		}
	}
	return got[0], other
}

// inconclusive reports whether r timed out or answers unknown to its first check-sat: what a
// solver may say when it runs out of time.
func inconclusive(r *fuzz.Result) bool {
	return r.Status == fuzz.StatusTimeout || r.Status == fuzz.StatusOK && len(r.Rows) > 0 && len(r.Rows[0]) == 1 && r.Rows[0][0] == "unknown"
}

// dropValues empties the values of the get-value rows of a and b and returns how many of them
// differed.
func dropValues(a, b *fuzz.Result) int {
	n := 0
	if len(a.Rows) != len(b.Rows) {
		return 0
	}
	for i := range a.Rows {
		if len(a.Rows[i]) == 2 && len(b.Rows[i]) == 2 {
			if a.Rows[i][1] != b.Rows[i][1] {
				n++
			}
			a.Rows[i][1], b.Rows[i][1] = "", ""
		}
	}
	return n
}

// TestSameAsProcess runs scripts that exercise every kind of row, error and reset on z3lib and
// on the z3 process, and wants the same results.
func TestSameAsProcess(t *testing.T) {
	lib, proc := openLib(t, Options{Timeout: 5 * time.Second}), openProc(t)
	tests := []struct {
		name  string
		stmts []string
		want  fuzz.Status // of the last statement
		first string      // its first row's first cell, or its Code for an error
	}{
		{"sat and values", []string{"(set-option :produce-models true)(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)",
			"(assert (> x 3))(assert (= y (* 2 x)))(check-sat)", "(get-value (x y (+ x y)))"}, fuzz.StatusOK, "x"},
		{"unsat", []string{"(declare-fun p () Bool)(assert (and p (not p)))(check-sat)"}, fuzz.StatusOK, "unsat"},
		{"reals and bit-vectors", []string{"(set-option :produce-models true)(declare-fun r () Real)(declare-fun b () (_ BitVec 8))" +
			"(assert (= (* 3 r) 1))(assert (bvult b #x05))(assert (= (bvadd b #x01) #x03))(check-sat)(get-value (r b (- r)))"}, fuzz.StatusOK, "sat"},
		{"undeclared symbol", []string{"(assert (> nope 1))(check-sat)"}, fuzz.StatusEngineError, "error"},
		{"redeclared after reset", []string{"(declare-fun x () Int)(reset)(declare-fun x () Bool)(assert x)(check-sat)"}, fuzz.StatusOK, "sat"},
		{"push and pop", []string{"(declare-fun x () Int)(push 1)(assert (< x 0))(assert (> x 0))(check-sat)(pop 1)(check-sat)"}, fuzz.StatusOK, "unsat"},
		{"tactic", []string{"(declare-fun x () Int)(assert (> (* x x) 4))(check-sat-using (then simplify smt))"}, fuzz.StatusOK, "sat"},
		{"model", []string{"(set-option :produce-models true)(declare-fun x () Int)(assert (= x 7))(check-sat)(get-model)"}, fuzz.StatusOK, "sat"},
		{"unbalanced", []string{"(assert (> x 1)"}, fuzz.StatusEngineError, "unbalanced"},
		{"unsupported info", []string{"(get-info :polyfuzz-nothing)"}, fuzz.StatusOK, "unsupported"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, _ := runBoth(t, lib, proc, tc.name, tc.stmts, true)
			r := rs[len(rs)-1]
			got := r.Code
			if r.Status == fuzz.StatusOK && len(r.Rows) > 0 {
				got = r.Rows[0][0]
			}
			if r.Status != tc.want || got != tc.first {
				t.Fatalf("got %v %q (%+v), want %v %q", r.Status, got, r, tc.want, tc.first)
			}
		})
	}
}

// TestSameInstancesAsProcess runs STORM cases made from the project's seeds on z3lib and on the
// z3 process and wants the same answers, errors and get-value terms. The values may differ: the
// binding's context registers libz3's theories in another order than the z3 shell does, which
// steers the solver to other models (each is validated by the model oracle like any model).
// The count of other values is logged.
func TestSameInstancesAsProcess(t *testing.T) {
	lib, proc := openLib(t, Options{Timeout: 5 * time.Second}), openProc(t)
	seeds, _, err := smtgen.LoadSeeds(os.DirFS("../../testdata/smt"), ".")
	if err != nil {
		t.Fatal(err)
	}
	g, err := smtgen.New(smtgen.Options{Mutants: 5, Incremental: 30, Tactics: 20}, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	seed := testenv.Seed(t)
	sats, values, other := 0, 0, 0
	for i := range 40 {
		c, err := g.Generate(fuzz.CaseSeed(seed, uint64(i), g.CasesPerSetup()))
		if err != nil {
			t.Fatal(err)
		}
		rs, n := runBoth(t, lib, proc, "case "+c.Gen, append(append([]string(nil), c.Setup...), c.Texts()...), false)
		other += n
		for _, r := range rs {
			for _, row := range r.Rows {
				switch {
				case len(row) == 2:
					values++
				case row[0] == "sat":
					sats++
				}
			}
		}
	}
	t.Logf("%d sat answers; %d of %d values differ from the process's", sats, other, values)
	if sats == 0 {
		t.Fatal("no instance was sat: the comparison compared nothing")
	}
}

// TestFailures checks that an error, a timeout, a cancelled context and a crash are reported
// as smtproc reports them, in process and in an isolated child, and that the target recovers.
func TestFailures(t *testing.T) {
	const slow = "(declare-fun a () Int)(declare-fun b () Int)(declare-fun c () Int)(declare-fun n () Int)" +
		"(assert (> n 2))(assert (> a 0))(assert (> b 0))(assert (> c 0))" +
		"(assert (= (+ (* a a a a a) (* b b b b b)) (* c c c c c)))(check-sat)"
	tests := []struct {
		name     string
		opts     Options
		isolated bool
		stmt     string
		status   fuzz.Status
		errHas   string
	}{
		{"error", Options{}, false, "(assert (> nope 1))", fuzz.StatusEngineError, "unknown constant nope"},
		// A call that ignores Z3_interrupt (injected): the parent kills the child.
		{"isolated timeout", Options{Timeout: 300 * time.Millisecond, HangOn: "polyfuzz-hang"}, true, "(echo \"polyfuzz-hang\")", fuzz.StatusTimeout, "no answer within"},
		{"hard timeout", Options{Timeout: 300 * time.Millisecond}, false, "(set-option :timeout 100000)" + slow, fuzz.StatusTimeout, "no answer within 625ms; z3lib interrupted"},
		{"isolated error", Options{}, true, "(assert (> nope 1))", fuzz.StatusEngineError, "unknown constant nope"},
		{"isolated crash", Options{FaultOn: "polyfuzz-crash"}, true, "(echo \"polyfuzz-crash\")", fuzz.StatusCrash, "child exited with status 2"},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tg fuzz.Target
			if tc.isolated {
				spec, _ := json.Marshal(tc.opts)
				it, err := isolated.Open(ctx, isolated.Options{Spec: string(spec), Timeout: time.Second})
				if err != nil {
					t.Fatal(err)
				}
				defer it.Close()
				tg = it
			} else {
				tg = openLib(t, tc.opts)
			}
			if err := tg.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			r, err := tg.Exec(ctx, tc.stmt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tc.status || !strings.Contains(r.Err, tc.errHas) {
				t.Fatalf("got %v %q, want %v with %q", r.Status, r.Err, tc.status, tc.errHas)
			}
			// The target recovers.
			if err := tg.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			r, err = tg.Exec(ctx, "(declare-fun nope () Int)(assert (> nope 1))(check-sat)")
			if err != nil || r.Status != fuzz.StatusOK || len(r.Rows) != 1 || r.Rows[0][0] != "sat" {
				t.Fatalf("after the failure: %+v %v", r, err)
			}
		})
	}
}

// TestCancel checks that a cancelled context interrupts a statement and Exec returns its error.
func TestCancel(t *testing.T) {
	tg := openLib(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := tg.Exec(ctx, "(declare-fun a () Int)(declare-fun b () Int)(declare-fun c () Int)"+
		"(assert (> a 0))(assert (> b 0))(assert (> c 0))(assert (= (+ (* a a a a a) (* b b b b b)) (* c c c c c)))(check-sat)")
	if err != context.Canceled {
		t.Fatalf("Exec after cancel: %v, want context.Canceled", err)
	}
	r, err := tg.Exec(context.Background(), "(check-sat)")
	if err != nil || r.Failed() || r.Rows[0][0] != "sat" {
		t.Fatalf("after cancel: %+v %v", r, err)
	}
}
