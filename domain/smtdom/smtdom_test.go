package smtdom

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
)

// boolectorWheel is the pyboolector wheel the tests run.
const boolectorWheel = "3.2.4.38488416565"

// TestVersionedSolvers checks NAME@VERSION: a solver of Wheels runs its release's executable and
// answers; one that takes no version is refused with the list of those that do.
func TestVersionedSolvers(t *testing.T) {
	if _, err := solverOptions(domain.Spec{Engine: "cvc4", Version: "1.8"}); err == nil || !strings.Contains(err.Error(), "only bitwuzla, boolector, cvc5, yices, z3 take") {
		t.Errorf("cvc4@1.8: %v, want a refusal naming bitwuzla, boolector, cvc5, yices, z3", err)
	}
	for _, tc := range []struct {
		engine, version string
		script, want    string
		then, thenWant  string // after an ERROR: the next statement and its answer (default: check-sat, sat)
	}{
		{"yices", "2.6.5.post24", "(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(check-sat)", "[[sat]]", "", ""},
		{"yices", "2.6.5.post24", "(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(assert (< x 2))(check-sat)", "[[unsat]]", "", ""},
		{"cvc5", "1.4.2", "(set-option :produce-models true)(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(assert (< x 5))(check-sat)(get-value (x))", "[[sat] [x 4]]", "", ""},
		// The bridge answers an error and goes on; (reset) forgets the logic and the declarations.
		{"cvc5", "1.4.2", "(foo)(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(check-sat)", "ERROR", "", ""},
		{"cvc5", "1.4.2", "(set-logic QF_LIA)(declare-const x Int)(reset)(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(assert (< x 2))(check-sat)", "[[unsat]]", "", ""},
		{"bitwuzla", "0.10.0", "(set-option :produce-models true)(set-logic QF_BV)(declare-const x (_ BitVec 4))(assert (= x #x3))(check-sat)(get-value (x))", "[[sat] [x #b0011]]", "", ""},
		// After an error, Bitwuzla's bridge starts a new parser in the same state.
		{"bitwuzla", "0.10.0", "(set-logic QF_BV)(declare-const x (_ BitVec 4))(assert (= x #x3))(foo)", "ERROR", "", ""},
		{"bitwuzla", "0.10.0", "(set-logic QF_BV)(declare-const x (_ BitVec 4))(assert (= x #x3))(assert (= x #x4))(check-sat)", "[[unsat]]", "", ""},
		// An error after check-sat: the model is still there (Bitwuzla wants two arguments to and).
		{"bitwuzla", "0.10.0", "(set-option :produce-models true)(set-logic QF_BV)(declare-const x (_ BitVec 4))(assert (= x #x3))(check-sat)(get-value ((and true)))", "ERROR", "(get-value (x))", "[[x #b0011]]"},
		// Boolector's bridge reruns the script so far at each answer and prints only the new part.
		{"boolector", boolectorWheel, "(set-option :produce-models true)(set-logic QF_BV)(declare-const x (_ BitVec 4))(assert (bvugt x #x3))(push 1)(assert (= x #x0))(check-sat)(pop 1)(assert (bvult x #x5))(check-sat)(get-value (x))", "[[unsat] [sat] [x #b0100]]", "", ""},
		{"boolector", boolectorWheel, "(set-logic QF_BV)(declare-const x (_ BitVec 4))(assert (= x #x3))(assert (= y #x4))", "ERROR", "", ""},
		{"boolector", boolectorWheel, "(set-logic QF_BV)(declare-const x (_ BitVec 4))(assert (= x #x3))(check-sat)(reset)(set-logic QF_BV)(declare-const x (_ BitVec 4))(assert (= x #x3))(assert (= x #x4))(check-sat)", "[[sat] [unsat]]", "", ""},
		{"z3", "5.4.1", "(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(assert (< x 2))(check-sat)", "[[unsat]]", "", ""},
	} {
		w := Wheels[tc.engine]
		if !pypi.Installed(w.Package, w.Version(tc.version)) {
			testenv.Missing(t, fmt.Sprintf("%s==%s is not installed: polyfuzz bench install %s==%s", w.Package,
				w.Version(tc.version), w.Package, w.Version(tc.version)))
			continue
		}
		tg, err := openSolver(context.Background(), domain.Spec{Engine: tc.engine, Version: tc.version, Timeout: 5e9})
		if err != nil {
			t.Fatalf("%s@%s: %v", tc.engine, tc.version, err)
		}
		r, err := tg.Exec(context.Background(), tc.script)
		if tc.want == "ERROR" { // an error answer, and the process answers the next statement
			if err != nil || r.Status != fuzz.StatusEngineError {
				t.Errorf("%s@%s: %s: %+v, %v; want an engine error", tc.engine, tc.version, tc.script, r, err)
			}
			if tc.then == "" {
				tc.then, tc.thenWant = "(check-sat)", "[[sat]]"
			}
			r, err = tg.Exec(context.Background(), tc.then)
			tc.want = tc.thenWant
		}
		tg.Close()
		if err != nil || r.Failed() || fmt.Sprint(r.Rows) != tc.want {
			t.Errorf("%s@%s: %s: %+v, %v; want %s", tc.engine, tc.version, tc.script, r, err, tc.want)
		}
	}
}
