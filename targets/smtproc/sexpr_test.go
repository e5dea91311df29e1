package smtproc

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestParseOutput(t *testing.T) {
	tests := []struct {
		name string
		out  string
		want fuzz.Result
	}{
		{"empty", "", fuzz.Result{Status: fuzz.StatusOK}},
		{"sat", "sat\n", fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"sat"}}}},
		{"several answers", "sat\nunsat\nunknown\n",
			fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"sat"}, {"unsat"}, {"unknown"}}}},
		{"z3 get-value", "sat\n((x 1)\n (y (- 1))\n ((+ x 1) 2))\n", fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"sat"}, {"x", "1"}, {"y", "(- 1)"}, {"(+ x 1)", "2"}}}},
		{"cvc5 get-value", "sat\n((x 1) (y (- 1)) ((+ x 1) 2))\n", fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"sat"}, {"x", "1"}, {"y", "(- 1)"}, {"(+ x 1)", "2"}}}},
		{"get-value odd spacing", "(( x  #b01 )\t(|a b|  \"s \"\" t\"))", fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"x", "#b01"}, {"|a b|", `"s "" t"`}}}},
		{"z3 error continues", "(error \"line 1 column 10: unknown constant q\")\nsat\n", fuzz.Result{
			Status: fuzz.StatusEngineError, Code: "error", Err: "line 1 column 10: unknown constant q",
			Rows: [][]string{{"sat"}}}},
		{"first error wins", "sat\n(error \"a \"\"b\"\"\")\n(error \"c\")\n", fuzz.Result{
			Status: fuzz.StatusEngineError, Code: "error", Err: `a "b"`, Rows: [][]string{{"sat"}}}},
		{"cvc5 multi-line error", "(error \"Parse Error: <stdin>:4.14: Symbol z is not declared.\n\n  (assert (> x z))\n               ^\n\")\n",
			fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
				Err: "Parse Error: <stdin>:4.14: Symbol z is not declared.\n\n  (assert (> x z))\n               ^"}},
		{"z3 unsupported with comment", "unsupported\n; foo line: 12 position: 4\nsat\n", fuzz.Result{
			Status: fuzz.StatusOK, Code: "unsupported", Rows: [][]string{{"unsupported"}, {"sat"}}}},
		{"z3 model", "sat\n(\n  (define-fun x () Int\n    0)\n  (define-fun y () Int\n    (- 1))\n)\n",
			fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"sat"},
				{"((define-fun x () Int 0) (define-fun y () Int (- 1)))"}}}},
		{"cvc5 model", "(\n(define-fun x () Int 1)\n)\n", fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"((define-fun x () Int 1))"}}}},
		{"get-info", "(:version \"4.8.12\")\n(:reason-unknown timeout)\n", fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{`(:version "4.8.12")`}, {"(:reason-unknown timeout)"}}}},
		{"cvc5 echo", "\"hello\"\n", fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{`"hello"`}}}},
		{"unterminated list", "((x 1", fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"x", "1"}}}},
		{"unterminated string", "(error \"abc", fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: `"abc`}},
		{"stray paren", ")\nsat", fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{")"}, {"sat"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parseOutput([]byte(tc.out))
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("parseOutput(%q)\n got %+v\nwant %+v", tc.out, *got, tc.want)
			}
		})
	}
}

func TestVersionOf(t *testing.T) {
	for out, want := range map[string]string{
		"(:version \"4.8.12\")\n":           "4.8.12",
		"success\n(:version \"1.0.3\")\n":   "1.0.3",
		"unsupported\n":                     "",
		"(error \"unknown keyword\")\n":     "",
		"(:name \"x\")(:version \"2.6.4\")": "2.6.4",
	} {
		if got := versionOf([]byte(out)); got != want {
			t.Errorf("versionOf(%q) = %q, want %q", out, got, want)
		}
	}
}

func TestShapeOf(t *testing.T) {
	tests := []struct {
		stmt     string
		balanced bool
		checks   int
	}{
		{"(check-sat)", true, 1},
		{"(set-logic QF_LIA)(declare-fun x () Int)(assert (> x 0))(check-sat)", true, 1},
		{"", true, 0},
		{"(assert (> x 0)", false, 0},
		{`(echo "a)b")`, true, 0},
		{`(echo "a""b")`, true, 0},
		{`(echo "abc)`, false, 0},
		{"(declare-fun |x)y| () Int)", true, 0},
		{"(declare-fun |x () Int)", false, 0},
		{"(check-sat) ; (unclosed comment", true, 1},
		{"(check-sat)) (push 1)", true, 1}, // the stray ')' is the solver's to report
		{"(assert ; comment )\n true)", true, 0},
		{"(push 1)(check-sat-assuming (p))(pop 1)(check-sat-using smt)(check-sat)", true, 3},
		{`(echo "(check-sat)")(assert (check-sat x))( check-sat )`, true, 1},
		{"(declare-fun |check-sat| () Bool)(check-sat", false, 1},
	}
	for _, tc := range tests {
		if got := shapeOf(tc.stmt); got.balanced != tc.balanced || got.checks != tc.checks {
			t.Errorf("shapeOf(%q) = %+v, want balanced %v, %d check-sats", tc.stmt, got, tc.balanced, tc.checks)
		}
	}
}

func TestCheckAnswers(t *testing.T) {
	unexpected := func(msg string) fuzz.Result {
		return fuzz.Result{Status: fuzz.StatusEngineError, Code: fuzz.CodeUnexpectedAnswer, Err: msg}
	}
	tests := []struct {
		name   string
		out    string
		checks int
		want   fuzz.Result
	}{
		{"answered", "sat\n", 1, fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"sat"}}}},
		{"no check-sat", "banana\n", 0, fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"banana"}}}},
		{"garbage", "banana\n", 1, unexpected(`unexpected answer: "banana" where check-sat 1 of 1 wants sat, unsat or unknown`)},
		{"garbage second", "unsat\nbanana\n((x 1))\n", 2,
			unexpected(`unexpected answer: "banana" where check-sat 2 of 2 wants sat, unsat or unknown`)},
		{"warning and answer", "WARNING\nsat\n", 1, fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"WARNING"}, {"sat"}}}},
		{"nothing", "", 1, unexpected("unexpected answer: nothing where check-sat 1 of 1 wants sat, unsat or unknown")},
		{"only a model", "((x 1))\n", 1, unexpected("unexpected answer: nothing where check-sat 1 of 1 wants sat, unsat or unknown")},
		{"error explains", "(error \"no logic\")\n", 1, fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: "no logic"}},
		{"unsupported explains", "unsupported\n", 1, fuzz.Result{Status: fuzz.StatusOK, Code: "unsupported",
			Rows: [][]string{{"unsupported"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parseOutput([]byte(tc.out))
			checkAnswers(got, tc.checks)
			if got.Status != fuzz.StatusOK {
				got.Rows = nil // kept, but not the point here
			}
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("checkAnswers(%q, %d)\n got %+v\nwant %+v", tc.out, tc.checks, *got, tc.want)
			}
		})
	}
}

func TestMarkerAt(t *testing.T) {
	m := []byte("polyfuzz-sync-5")
	tests := []struct {
		line string
		want int
	}{
		{"polyfuzz-sync-5\n", 0},
		{"\"polyfuzz-sync-5\"\n", 0},
		{"polyfuzz-sync-5\r\n", 0},
		{"sat polyfuzz-sync-5\n", 4},
		{"polyfuzz-sync-15\n", -1},
		{"polyfuzz-sync-55\n", -1},
		{"(echo \"polyfuzz-sync-5\")\n", -1},
		{"polyfuzz-sync-5\"\n", -1},
		{"sat\n", -1},
	}
	for _, tc := range tests {
		if got := markerAt([]byte(tc.line), m); got != tc.want {
			t.Errorf("markerAt(%q) = %d, want %d", tc.line, got, tc.want)
		}
	}
}

func TestCustom(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
		name string
	}{
		{"z3 -in -smt2", []string{"z3", "-in", "-smt2"}, "z3"},
		{"/opt/z3-4.13/bin/z3  -in\t-smt2 ", []string{"/opt/z3-4.13/bin/z3", "-in", "-smt2"}, "z3"},
		{`sh -c 'exec z3 -in'`, []string{"sh", "-c", "exec z3 -in"}, "sh"},
		{`"/path with space/cvc5" --lang "smt2" a\ b "q\"x"`,
			[]string{"/path with space/cvc5", "--lang", "smt2", "a b", `q"x`}, "cvc5"},
	}
	for _, tc := range tests {
		o, err := Custom(tc.cmd)
		if err != nil {
			t.Errorf("Custom(%q): %v", tc.cmd, err)
			continue
		}
		if !reflect.DeepEqual(o.Command, tc.want) || o.Name != tc.name || o.Timeout != DefaultTimeout {
			t.Errorf("Custom(%q) = %+v, want command %q name %q", tc.cmd, o, tc.want, tc.name)
		}
	}
	for _, bad := range []string{"", "  ", "z3 'unclosed", `z3 "unclosed`} {
		if _, err := Custom(bad); err == nil {
			t.Errorf("Custom(%q) gave no error", bad)
		}
	}
}

func TestPreset(t *testing.T) {
	for _, name := range Presets() {
		o, err := Preset(name)
		if err != nil || o.Name != name || len(o.Command) == 0 || o.Timeout != DefaultTimeout {
			t.Errorf("Preset(%q) = %+v, %v", name, o, err)
		}
	}
	o, _ := Preset("z3")
	o.Command[0] = "changed"
	if o2, _ := Preset("z3"); o2.Command[0] != "z3" {
		t.Errorf("Preset returns a shared slice")
	}
	if _, err := Preset("nosuch"); err == nil || !strings.Contains(err.Error(), "--solver-cmd") {
		t.Errorf("Preset(nosuch) error = %v", err)
	}
}

func TestSoftLimitArgs(t *testing.T) {
	d := 1500 * time.Millisecond
	tests := []struct {
		argv []string
		want []string
	}{
		{[]string{"z3", "-in"}, []string{"-t:1500"}},
		{[]string{"/usr/bin/z3", "-in", "-t:100"}, nil},
		{[]string{"cvc5", "--lang", "smt2"}, []string{"--tlimit-per=1500"}},
		{[]string{"cvc4"}, []string{"--tlimit-per=1500"}},
		{[]string{"bitwuzla"}, []string{"--time-limit-per=1500"}},
		{[]string{"yices-smt2", "--incremental"}, []string{"--timeout=2"}},
		{[]string{"boolector", "--smt2"}, nil},
		{[]string{"sh", "-c", "z3 -in"}, nil},
	}
	for _, tc := range tests {
		if got := softLimitArgs(tc.argv, d); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("softLimitArgs(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
	if got := softLimitArgs([]string{"z3"}, 0); got != nil {
		t.Errorf("no timeout gave %q", got)
	}
}
