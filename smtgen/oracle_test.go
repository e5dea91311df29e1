package smtgen

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestOracles feeds the SMT oracles known answers on one hand-written case: a certified unsat is a
// soundness finding, an uncertified one is skipped, a model that falsifies an assertion or gives a
// function two values at one point is an invalid-model finding.
func TestOracles(t *testing.T) {
	inst := "(set-option :produce-models true)\n(set-logic QF_UFLIA)\n(declare-fun x () Int)\n(declare-fun f (Int) Int)\n" +
		"(assert (> (f x) 3))\n(assert (or (= x 1) (= (div x 0) 7)))\n(check-sat)"
	good := "(define-fun x () Int 1)\n(define-fun f ((x!0 Int)) Int 5)\n"
	bad := "(define-fun x () Int 1)\n(define-fun f ((x!0 Int)) Int 2)\n"
	mk := func(model string) *fuzz.Case {
		return &fuzz.Case{Domain: "smt", Seed: 1, Queries: []fuzz.Query{{Role: RoleInstance, Text: inst},
			{Role: RoleModel, Text: "(get-value (x (f x) (div x 0)))"}},
			Params: map[string]string{ParamModel: model, ParamLogic: "QF_UFLIA", ParamMode: "plain"}}
	}
	ok := func(rows ...[]string) *fuzz.Result { return &fuzz.Result{Status: fuzz.StatusOK, Rows: rows} }
	run := func(answer string, values *fuzz.Result) []fuzz.Run {
		return []fuzz.Run{{Target: "z3", Results: []*fuzz.Result{ok([]string{answer}), values}}}
	}
	values := ok([]string{"x", "1"}, []string{"(f x)", "5"}, []string{"(div x 0)", "0"})
	tests := []struct {
		name   string
		oracle fuzz.Oracle
		c      *fuzz.Case
		runs   []fuzz.Run
		title  string
		kind   fuzz.Kind
		skip   string
	}{
		{"sat is right", SatOracle{}, mk(good), run("sat", values), "", 0, ""},
		{"unsat on a certified instance", SatOracle{}, mk(good), run("unsat", values),
			"sat: z3: unsat on a satisfiable qf_uflia instance", fuzz.KindWrongResult, ""},
		{"unsat, model does not certify", SatOracle{}, mk(bad), run("unsat", values), "", 0, "uncertified"},
		{"valid model", ModelOracle{}, mk(good), run("sat", values), "", 0, ""},
		{"assertion false under the model", ModelOracle{}, mk(good),
			run("sat", ok([]string{"x", "1"}, []string{"(f x)", "3"}, []string{"(div x 0)", "0"})),
			"model: z3: invalid model of a qf_uflia instance", fuzz.KindInvalidModel, ""},
		{"division by zero pinned by the solver", ModelOracle{}, mk(good),
			run("sat", ok([]string{"x", "2"}, []string{"(f x)", "9"}, []string{"(div x 0)", "6"})),
			"model: z3: invalid model of a qf_uflia instance", fuzz.KindInvalidModel, ""},
		{"not sat", ModelOracle{}, mk(good), run("unknown", &fuzz.Result{Status: fuzz.StatusEngineError, Err: "model is not available"}),
			"", 0, "not-sat"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.oracle.Check(tc.c, tc.runs)
			if v.Skip != tc.skip {
				t.Fatalf("skip %q, want %q", v.Skip, tc.skip)
			}
			switch {
			case tc.title == "" && v.Finding != nil:
				t.Fatalf("unexpected finding %s: %s", v.Finding.Title, v.Finding.Actual)
			case tc.title != "" && (v.Finding == nil || v.Finding.Title != tc.title || v.Finding.Kind != tc.kind):
				t.Fatalf("verdict %+v, want %q (%s)", v, tc.title, tc.kind)
			}
		})
	}
}

func TestExpectError(t *testing.T) {
	tests := []struct {
		code, msg string
		want      bool
	}{
		{"unsupported", "", true},
		{"error", "line 3 column 1: model is not available", true},
		{"error", "Cannot get value when not immediately preceded by SAT or UNKNOWN response.", true},
		{"error", "line 9 column 57: unknown constant const (Int) (Array Int Int)", true},
		{"error", "line 2 column 3: invalid function declaration, symbol expected", false},
		{"error", "ASSERTION VIOLATION", false},
		// Bitwuzla, which has no arithmetic
		{"error", "<string>:1:18: invalid sort 'Int'", true},
		{"error", "<string>:1:42: undefined symbol '*'", true},
		{"error", "numerals and decimals only allowed to represent real values under 'to_fp'", true},
		{"error", "<string>:1:23: expected 'BitVec' or 'FloatingPoint'", false},
		{"error", "got 1", false},
		{fuzz.CodeUnexpectedAnswer, `unexpected answer: "not-supported" where check-sat 1 of 1 wants sat, unsat or unknown`, false},
	}
	for _, tc := range tests {
		if got := ExpectError("query", tc.code, tc.msg); got != tc.want {
			t.Errorf("ExpectError(%q, %q) = %v, want %v", tc.code, tc.msg, got, tc.want)
		}
	}
}
