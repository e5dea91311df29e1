package smtgen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestRepro runs reproducers with z3 and the project's faulty solvers (testdata/smt-faults, z3
// with its answers corrupted): a finding of a faulty solver reproduces (exit 0), the same case on
// z3 itself does not (exit 1), and what cannot be judged exits 2.
func TestRepro(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	testenv.NeedEngine(t, "mawk")
	faults, err := filepath.Abs(filepath.Join("..", "testdata", "smt-faults"))
	if err != nil {
		t.Fatal(err)
	}
	instance := func(body string) *fuzz.Case {
		return &fuzz.Case{Domain: "smt", Queries: []fuzz.Query{
			{Role: RoleInstance, Text: "(set-logic QF_LIA)\n(declare-const x Int)\n" + body + "\n(check-sat)"},
			{Role: RoleModel, Text: "(get-value (x))"}},
			Params: map[string]string{ParamModel: "(define-fun x () Int 7)", ParamLogic: "QF_LIA"}}
	}
	sat := instance("(assert (> x 2))")
	withMod := instance("(assert (= (mod x 5) 2))")
	illSorted := instance("(assert (+ x true))")
	z3 := Solver{Name: "z3", Cmd: "z3 -in -smt2"}
	buggy := func(script string) Solver { return Solver{Name: "buggy", Cmd: filepath.Join(faults, script)} }
	instanceOnly := []string{RoleInstance}
	tests := []struct {
		name    string
		c       *fuzz.Case
		solvers []Solver
		in      fuzz.ReproInfo
		status  int
		output  string
	}{
		{"sat: unsat reproduces", sat, []Solver{buggy("unsat.sh")},
			fuzz.ReproInfo{Oracle: OracleSat, Kind: fuzz.KindWrongResult, Blamed: []string{"buggy"}, Roles: instanceOnly}, 0,
			"buggy answers unsat on a satisfiable instance"},
		{"sat: a sound solver", sat, []Solver{z3}, fuzz.ReproInfo{Oracle: OracleSat, Kind: fuzz.KindWrongResult,
			Blamed: []string{"z3"}, Roles: instanceOnly}, 1, "no unsat"},
		{"sat: only the blamed solver is run", sat, []Solver{buggy("unsat.sh"), z3}, fuzz.ReproInfo{Oracle: OracleSat,
			Kind: fuzz.KindWrongResult, Blamed: []string{"z3"}, Roles: instanceOnly}, 1, "no unsat"},
		{"diff: contradicting answers", sat, []Solver{z3, buggy("unsat.sh")}, fuzz.ReproInfo{Oracle: "diff",
			Kind: fuzz.KindWrongResult, Roles: instanceOnly}, 0, "check-sat 1: z3 sat; buggy unsat;"},
		{"diff: agreeing answers", sat, []Solver{z3, {Name: "z3 again", Cmd: "z3 -in"}}, fuzz.ReproInfo{Oracle: "diff",
			Kind: fuzz.KindWrongResult, Roles: instanceOnly}, 1, "the answers agree"},
		{"crash", withMod, []Solver{buggy("die.sh")}, fuzz.ReproInfo{Oracle: "error", Kind: fuzz.KindCrash}, 0, "killed by signal 11"},
		{"no crash", sat, []Solver{buggy("die.sh")}, fuzz.ReproInfo{Oracle: "error", Kind: fuzz.KindCrash}, 1, "does not reproduce"},
		{"error message", illSorted, []Solver{z3}, fuzz.ReproInfo{Oracle: "error", Kind: fuzz.KindUnexpectedError,
			Actual: `error: line 3 column 9: Sort mismatch at argument #2 for function (declare-fun + (Int Int) Int) (in the query)`},
			0, "reports the error again"},
		{"no error message", sat, []Solver{z3}, fuzz.ReproInfo{Oracle: "error", Kind: fuzz.KindUnexpectedError,
			Actual: `error: line 3 column 9: Sort mismatch at argument #2 for function (declare-fun + (Int Int) Int) (in the query)`},
			1, "does not reproduce"},
		{"model: not judged here", sat, []Solver{buggy("wrong-model.sh")}, fuzz.ReproInfo{Oracle: OracleModel,
			Kind: fuzz.KindInvalidModel}, 2, "decided by polyfuzz's evaluator"},
		{"a planted fault", sat, []Solver{z3}, fuzz.ReproInfo{Oracle: OracleSat, Kind: fuzz.KindWrongResult,
			Fault: "unsat:assert", Targets: []fuzz.ReproTarget{{Name: "z3", Version: "4.8.12"}}}, 2, "planted in z3"},
		{"no such solver", sat, []Solver{{Name: "nosolver", Cmd: "/nonexistent/solver -in"}},
			fuzz.ReproInfo{Oracle: OracleSat, Kind: fuzz.KindWrongResult}, 2, "/nonexistent/solver not found"},
		{"another version", sat, []Solver{z3}, fuzz.ReproInfo{Oracle: OracleSat, Kind: fuzz.KindWrongResult,
			Targets: []fuzz.ReproTarget{{Name: "z3", Version: "0.0.1-none"}}}, 1, "recorded on z3 0.0.1-none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Header = "title\nreplay: polyfuzz replay DIR"
			script := Format{Solvers: tc.solvers}.Repro(tc.c, tc.in)
			status, out := testenv.RunRepro(t, script)
			if status != tc.status || !strings.Contains(out, tc.output) {
				t.Errorf("exit status %d, want %d, and output lacking %q?\n%s\n---- script:\n%s", status, tc.status, tc.output, out, script)
			}
		})
	}
}
