package smtgen

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func rdApp(name string, args ...*Term) *Term { return &Term{Kind: KindApp, Name: name, Args: args} }

func rdNum(s string) *Term { return &Term{Kind: KindNumeral, Lit: s} }

// checkScriptRoundTrip fails unless s prints to text that reads back to an equal script and prints
// the same again.
func checkScriptRoundTrip(t *testing.T, name string, s *Script) {
	t.Helper()
	out := s.String()
	s2, err := ParseScript(out)
	if err != nil {
		t.Errorf("%s: re-reading the printed script: %v\n%s", name, err, out)
		return
	}
	if !reflect.DeepEqual(s, s2) {
		for i := range s.Commands {
			if i >= len(s2.Commands) || !reflect.DeepEqual(s.Commands[i], s2.Commands[i]) {
				t.Errorf("%s: command %d changed in the round trip: %s", name, i, s.Commands[i])
				return
			}
		}
		t.Errorf("%s: script changed in the round trip", name)
		return
	}
	if out2 := s2.String(); out2 != out {
		t.Errorf("%s: printing is not idempotent:\n%s\n%s", name, out, out2)
	}
}

func TestParseTermLiterals(t *testing.T) {
	tests := []struct {
		src  string
		want *Term
		out  string
	}{
		{"0", rdNum("0"), "0"},
		{"42", rdNum("42"), "42"},
		{"007", rdNum("007"), "007"},
		{"4.20", &Term{Kind: KindDecimal, Lit: "4.20"}, "4.20"},
		{"#xDEADbeef", &Term{Kind: KindHex, Lit: "DEADbeef"}, "#xDEADbeef"},
		{"#b0101", &Term{Kind: KindBinary, Lit: "0101"}, "#b0101"},
		{`"abc"`, &Term{Kind: KindString, Lit: "abc"}, `"abc"`},
		{`""`, &Term{Kind: KindString, Lit: ""}, `""`},
		{`"a""b"`, &Term{Kind: KindString, Lit: `a"b`}, `"a""b"`},
		{`""""`, &Term{Kind: KindString, Lit: `"`}, `""""`},
		{`"\u{48}\n"`, &Term{Kind: KindString, Lit: `\u{48}\n`}, `"\u{48}\n"`},
		{"\"two\nlines\"", &Term{Kind: KindString, Lit: "two\nlines"}, "\"two\nlines\""},
		{"x", rdApp("x"), "x"},
		{"|x|", rdApp("x"), "x"},
		{"|a b|", rdApp("a b"), "|a b|"},
		{"||", rdApp(""), "||"},
		{"|let|", rdApp("let"), "|let|"},
		{"|1x|", rdApp("1x"), "|1x|"},
		{"-3", rdApp("-3"), "|-3|"}, // a symbol; bars keep lenient readers from taking it for a numeral
		{"(- 3)", rdApp("-", rdNum("3")), "(- 3)"},
		{"  ; comment\n x ; trailing", rdApp("x"), "x"},
		{"+-*/=<>.?~!@$%^&_", rdApp("+-*/=<>.?~!@$%^&_"), "+-*/=<>.?~!@$%^&_"},
	}
	for _, tc := range tests {
		got, err := ParseTerm(tc.src)
		if err != nil {
			t.Errorf("ParseTerm(%q): %v", tc.src, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseTerm(%q) = %#v, want %#v", tc.src, got, tc.want)
		}
		if s := got.String(); s != tc.out {
			t.Errorf("ParseTerm(%q).String() = %q, want %q", tc.src, s, tc.out)
		}
	}
}

func TestParseTermCompound(t *testing.T) {
	arr := ArraySort(IntSort, IntSort)
	tests := []struct {
		src  string
		want *Term
		out  string // "" means src
	}{
		{"(f x 1)", rdApp("f", rdApp("x"), rdNum("1")), ""},
		{"(|f g| x)", rdApp("f g", rdApp("x")), ""},
		{"((_ extract 7 0) x)", &Term{Kind: KindApp, Name: "extract", Index: []int{7, 0}, Args: []*Term{rdApp("x")}}, ""},
		{"(_ bv5 8)", &Term{Kind: KindApp, Name: "bv5", Index: []int{8}}, ""},
		{"(_ +oo 8 24)", &Term{Kind: KindApp, Name: "+oo", Index: []int{8, 24}}, ""},
		{"((as const (Array Int Int)) 0)", &Term{Kind: KindApp, Name: "const", As: arr, Args: []*Term{rdNum("0")}}, ""},
		{"(as x Int)", &Term{Kind: KindApp, Name: "x", As: IntSort}, ""},
		{"(as (_ bv1 4) (_ BitVec 4))", &Term{Kind: KindApp, Name: "bv1", Index: []int{4}, As: BitVecSort(4)}, ""},
		{"((as (_ f 2) Int) 1)", &Term{Kind: KindApp, Name: "f", Index: []int{2}, As: IntSort, Args: []*Term{rdNum("1")}}, ""},
		{"(let ((x 1) (y (f x))) (+ x y))", &Term{Kind: KindLet,
			Binds: []Binding{{Name: "x", Term: rdNum("1")}, {Name: "y", Term: rdApp("f", rdApp("x"))}},
			Args:  []*Term{rdApp("+", rdApp("x"), rdApp("y"))}}, ""},
		{"(let ((|a b| 1)) |a b|)", &Term{Kind: KindLet, Binds: []Binding{{Name: "a b", Term: rdNum("1")}}, Args: []*Term{rdApp("a b")}}, ""},
		{"(forall ((x Int) (y (_ BitVec 3))) (p x y))", &Term{Kind: KindForall,
			Binds: []Binding{{Name: "x", Sort: IntSort}, {Name: "y", Sort: BitVecSort(3)}},
			Args:  []*Term{rdApp("p", rdApp("x"), rdApp("y"))}}, ""},
		{"(exists ((x Real)) true)", &Term{Kind: KindExists, Binds: []Binding{{Name: "x", Sort: RealSort}}, Args: []*Term{rdApp("true")}}, ""},
		{"(! (> x 0) :named a1)", &Term{Kind: KindAnnot, Args: []*Term{rdApp(">", rdApp("x"), rdNum("0"))}, Attrs: []Attr{{":named", "a1"}}}, ""},
		{"(! p :pattern ( ( f  x ) ) :weight 3 :flag)", &Term{Kind: KindAnnot, Args: []*Term{rdApp("p")},
			Attrs: []Attr{{":pattern", "((f x))"}, {":weight", "3"}, {":flag", ""}}}, "(! p :pattern ((f x)) :weight 3 :flag)"},
		{"(! p :named |x|)", &Term{Kind: KindAnnot, Args: []*Term{rdApp("p")}, Attrs: []Attr{{":named", "x"}}}, "(! p :named x)"},
		{"(! p :qid \"a\"\"b\")", &Term{Kind: KindAnnot, Args: []*Term{rdApp("p")}, Attrs: []Attr{{":qid", `"a""b"`}}}, ""},
		{"(f (g (h 1.5 #x0f #b1 \"s\")))", rdApp("f", rdApp("g", rdApp("h", &Term{Kind: KindDecimal, Lit: "1.5"},
			&Term{Kind: KindHex, Lit: "0f"}, &Term{Kind: KindBinary, Lit: "1"}, &Term{Kind: KindString, Lit: "s"}))), ""},
		{"(f\n\t x ; c\n y)", rdApp("f", rdApp("x"), rdApp("y")), "(f x y)"},
	}
	for _, tc := range tests {
		got, err := ParseTerm(tc.src)
		if err != nil {
			t.Errorf("ParseTerm(%q): %v", tc.src, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseTerm(%q) = %s, want %s (trees differ)", tc.src, got, tc.want)
		}
		out := tc.out
		if out == "" {
			out = tc.src
		}
		if s := got.String(); s != out {
			t.Errorf("ParseTerm(%q).String() = %q, want %q", tc.src, s, out)
		}
	}
}

func TestParseSort(t *testing.T) {
	tests := []struct {
		src  string
		want *Sort
	}{
		{"Int", IntSort},
		{"|Int|", IntSort},
		{"|my sort|", &Sort{Name: "my sort"}},
		{"(_ BitVec 32)", BitVecSort(32)},
		{"(_ FloatingPoint 8 24)", &Sort{Name: "FloatingPoint", Index: []int{8, 24}}},
		{"(Array Int (Array (_ BitVec 4) Bool))", ArraySort(IntSort, ArraySort(BitVecSort(4), BoolSort))},
		{"((_ Foo 3) Int)", &Sort{Name: "Foo", Index: []int{3}, Args: []*Sort{IntSort}}},
	}
	for _, tc := range tests {
		got, err := ParseSort(tc.src)
		if err != nil {
			t.Errorf("ParseSort(%q): %v", tc.src, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseSort(%q) = %#v, want %#v", tc.src, got, tc.want)
		}
		var b strings.Builder
		WriteSort(&b, got)
		back, err := ParseSort(b.String())
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("ParseSort(%q) printed %q, which reads back as %v, %v", tc.src, b.String(), back, err)
		}
	}
}

func TestParseCommands(t *testing.T) {
	tests := []struct {
		src  string
		want *Command
		out  string // "" means src
	}{
		{"(set-logic QF_BV)", &Command{Name: "set-logic", Symbol: "QF_BV"}, ""},
		{"(set-option :produce-models true)", &Command{Name: "set-option", Attr: Attr{":produce-models", "true"}}, ""},
		{"(set-option :print-success)", &Command{Name: "set-option", Attr: Attr{Key: ":print-success"}}, ""},
		{"(set-info :source |multi\nline|)", &Command{Name: "set-info", Attr: Attr{":source", "|multi\nline|"}}, ""},
		{"(set-info :status sat)", &Command{Name: "set-info", Attr: Attr{":status", "sat"}}, ""},
		{"(set-info :smt-lib-version 2.6)", &Command{Name: "set-info", Attr: Attr{":smt-lib-version", "2.6"}}, ""},
		{"(declare-sort U 0)", &Command{Name: "declare-sort", Symbol: "U"}, ""},
		{"(declare-sort U)", &Command{Name: "declare-sort", Symbol: "U"}, "(declare-sort U 0)"},
		{"(declare-sort P 2)", &Command{Name: "declare-sort", Symbol: "P", Arity: 2}, ""},
		{"(define-sort A (X Y) (Array X Y))", &Command{Name: "define-sort", Symbol: "A",
			Params: []Binding{{Name: "X"}, {Name: "Y"}}, Sort: ArraySort(&Sort{Name: "X"}, &Sort{Name: "Y"})}, ""},
		{"(define-sort B () (_ BitVec 8))", &Command{Name: "define-sort", Symbol: "B", Sort: BitVecSort(8)}, ""},
		{"(declare-const x Int)", &Command{Name: "declare-const", Symbol: "x", Sort: IntSort}, ""},
		{"(declare-fun f (Int (_ BitVec 2)) Bool)", &Command{Name: "declare-fun", Symbol: "f",
			ArgSorts: []*Sort{IntSort, BitVecSort(2)}, Sort: BoolSort}, ""},
		{"(declare-fun c () Real)", &Command{Name: "declare-fun", Symbol: "c", Sort: RealSort}, ""},
		{"(define-fun g ((a Int) (b Int)) Int (+ a b))", &Command{Name: "define-fun", Symbol: "g",
			Params: []Binding{{Name: "a", Sort: IntSort}, {Name: "b", Sort: IntSort}}, Sort: IntSort,
			Terms: []*Term{rdApp("+", rdApp("a"), rdApp("b"))}}, ""},
		{"(define-fun k () Bool true)", &Command{Name: "define-fun", Symbol: "k", Sort: BoolSort, Terms: []*Term{rdApp("true")}}, ""},
		{"(define-fun-rec h ((n Int)) Int (h n))", &Command{Name: "define-fun-rec", Symbol: "h",
			Params: []Binding{{Name: "n", Sort: IntSort}}, Sort: IntSort, Terms: []*Term{rdApp("h", rdApp("n"))}}, ""},
		{"(define-const z Int 3)", &Command{Name: "define-const", Symbol: "z", Sort: IntSort, Terms: []*Term{rdNum("3")}}, ""},
		{"(define-funs-rec ((f ((b Bool)) Bool)) (b))", &Command{Name: "define-funs-rec", Raw: "((f ((b Bool)) Bool)) (b)"}, ""},
		{"(declare-datatype Nat ((zero) (succ (pred Nat))))", &Command{Name: "declare-datatype", Raw: "Nat ((zero) (succ (pred Nat)))"}, ""},
		{"(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))", &Command{Name: "declare-datatypes",
			Raw: "((L 0)) (((nil) (cons (hd Int) (tl L))))"}, ""},
		{"(assert (> x 0))", &Command{Name: "assert", Terms: []*Term{rdApp(">", rdApp("x"), rdNum("0"))}}, ""},
		{"(check-sat)", &Command{Name: "check-sat"}, ""},
		{"(check-sat-assuming (p (not q)))", &Command{Name: "check-sat-assuming", Terms: []*Term{rdApp("p"), rdApp("not", rdApp("q"))}}, ""},
		{"(check-sat-assuming ())", &Command{Name: "check-sat-assuming"}, ""},
		{"(check-sat-using (then simplify smt))", &Command{Name: "check-sat-using", Raw: "(then simplify smt)"}, ""},
		{"(push)", &Command{Name: "push", Arity: 1}, "(push 1)"},
		{"(push 3)", &Command{Name: "push", Arity: 3}, ""},
		{"(pop)", &Command{Name: "pop", Arity: 1}, "(pop 1)"},
		{"(pop 0)", &Command{Name: "pop"}, ""},
		{"(get-model)", &Command{Name: "get-model"}, ""},
		{"(get-value (x (f x) #b01))", &Command{Name: "get-value", Terms: []*Term{rdApp("x"), rdApp("f", rdApp("x")), {Kind: KindBinary, Lit: "01"}}}, ""},
		{"(get-assignment)", &Command{Name: "get-assignment"}, ""},
		{"(get-unsat-core)", &Command{Name: "get-unsat-core"}, ""},
		{"(get-info :reason-unknown)", &Command{Name: "get-info", Raw: ":reason-unknown"}, ""},
		{"(get-option :verbosity)", &Command{Name: "get-option", Raw: ":verbosity"}, ""},
		{`(echo "hi ""there""")`, &Command{Name: "echo", Raw: `"hi ""there"""`}, ""},
		{"(reset)", &Command{Name: "reset"}, ""},
		{"(reset-assertions)", &Command{Name: "reset-assertions"}, ""},
		{"(exit)", &Command{Name: "exit"}, ""},
		{"(simplify (+ 1 2))", &Command{Name: "simplify", Terms: []*Term{rdApp("+", rdNum("1"), rdNum("2"))}}, ""},
		{"(simplify (+ 1 2) :som true)", &Command{Name: "simplify", Raw: "(+ 1 2) :som true"}, ""},
		{"(eval (f 1))", &Command{Name: "eval", Terms: []*Term{rdApp("f", rdNum("1"))}}, ""},
		{"(check-sat x)", &Command{Name: "check-sat", Raw: "x"}, ""},
		{"(block-model :literals)", &Command{Name: "block-model", Raw: ":literals"}, ""},
		{"(frob  ( a  |b| |c d| )  ; c\n 1 )", &Command{Name: "frob", Raw: "(a b |c d|) 1"}, "(frob (a b |c d|) 1)"},
		{"(get-proof)", &Command{Name: "get-proof"}, ""},
		// Constructs the AST cannot hold keep the command as text.
		{"(assert (= x 1/4 1.  12ab))", &Command{Name: "assert", Raw: "(= x 1/4 1. 12ab)"}, "(assert (= x 1/4 1. 12ab))"},
		{"(declare-const c (_ BitVec n))", &Command{Name: "declare-const", Raw: "c (_ BitVec n)"}, ""},
	}
	for _, tc := range tests {
		s, err := ParseScript(tc.src)
		if err != nil {
			t.Errorf("ParseScript(%q): %v", tc.src, err)
			continue
		}
		if len(s.Commands) != 1 {
			t.Errorf("ParseScript(%q): %d commands", tc.src, len(s.Commands))
			continue
		}
		got := s.Commands[0]
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseScript(%q) = %#v, want %#v", tc.src, got, tc.want)
		}
		out := tc.out
		if out == "" {
			out = tc.src
		}
		if p := got.String(); p != out {
			t.Errorf("ParseScript(%q) prints %q, want %q", tc.src, p, out)
		}
		checkScriptRoundTrip(t, tc.src, s)
	}
}

func TestParseScriptWhole(t *testing.T) {
	src := `; header
(set-logic QF_LIA) ; logic
(declare-fun x () Int)
(assert (! (> x 0) :named pos))
(check-sat)
(exit)
`
	s, err := ParseScript(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Commands) != 5 || s.Logic() != "QF_LIA" {
		t.Fatalf("got %d commands, logic %q", len(s.Commands), s.Logic())
	}
	want := "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (! (> x 0) :named pos))\n(check-sat)\n(exit)\n"
	if got := s.String(); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	if s, err := ParseScript("  ; nothing\n"); err != nil || len(s.Commands) != 0 {
		t.Errorf("empty script: %v, %v", s, err)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string // a substring of the message
	}{
		{"(assert \"abc)", 1, 9, "unterminated string literal"},
		{"(check-sat)\n(echo \"a\"\"b)\n", 2, 7, "unterminated string literal"},
		{"(assert |abc)", 1, 9, "unterminated quoted symbol"},
		{"(assert (f x)", 1, 14, "unexpected end of input"},
		{"(set-logic QF_LIA)\n(assert (and p\n  q)\n", 4, 1, "missing ')' for the command at line 2"},
		{"(check-sat))", 1, 12, "unexpected ')'"},
		{")", 1, 1, "unexpected ')'"},
		{"(assert #b)", 1, 9, "no digits after #b"},
		{"(assert #x)", 1, 9, "no digits after #x"},
		{"(assert #b012)", 1, 9, "bad binary literal"},
		{"(assert #q1)", 1, 9, "bad literal"},
		{"(assert x)\n  (assert (f 'a'))", 2, 14, "unexpected character"},
		{"(assert (f é))", 1, 12, "unexpected character 'é'"},
		{"(é)", 1, 2, "unexpected character"},
		{"check-sat", 1, 1, "expected '(' to start a command"},
		{"(assert)", 1, 8, "expected a term"},
		{"(assert ())", 1, 10, "expected an identifier"},
		{"(assert (f))", 1, 11, "application of f to no arguments"},
		{"(assert (1 2))", 1, 10, "expected an identifier"},
		{"(assert (let () x))", 1, 15, "let without bindings"},
		{"(assert (forall () x))", 1, 18, "forall without variables"},
		{"(assert (! x))", 1, 13, "annotation without attributes"},
		{"(assert (! x y))", 1, 14, "expected a keyword"},
		{"(assert (_ f))", 1, 13, "indexed identifier without indices"},
		{"(assert x y)", 1, 11, "expected ')' to close assert"},
		{"(assert let)", 1, 9, "unexpected reserved word let"},
		{"(assert (f :k))", 1, 12, "expected a term"},
		{"(declare-fun f Int Int)", 1, 16, "expected '(' to open the argument sorts"},
		{"(declare-const x (Array))", 1, 19, "applied to no arguments"},
		{"(declare-const x 3)", 1, 18, "expected a sort"},
		{"(set-option x)", 1, 13, "expected a keyword"},
		{"(assert :)", 1, 9, "empty keyword"},
		{"(push x)", 1, 7, "expected ')' to close push"},
		{"(push 99999999999999999999999)", 1, 7, "too large"},
		{"((check-sat))", 1, 2, "expected a command name"},
		{"(frob \"x)", 1, 7, "unterminated string literal"},
		{"(frob (a b)", 1, 12, "unexpected end of input"},
	}
	for _, tc := range tests {
		_, err := ParseScript(tc.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseScript(%q): error %v, want a *SyntaxError", tc.src, err)
			continue
		}
		if se.Line != tc.line || se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("ParseScript(%q): %v, want line %d, column %d: ...%s...", tc.src, err, tc.line, tc.col, tc.msg)
		}
	}
}

func TestParseTermErrors(t *testing.T) {
	tests := []struct{ src, msg string }{
		{"(match x ((a 1))", "line 1, column 17: unexpected end of input: expected ')' to close match"},
		{"((_ bv c) x)", "line 1, column 8: unsupported: non-numeral index symbol c"},
		{"(_ char #x41)", "line 1, column 9: unsupported: non-numeral index literal #x41"},
		{"(f 1/4)", "line 1, column 4: unsupported: non-standard atom 1/4"},
		{"(f 1.5e3)", "line 1, column 4: unsupported: non-standard atom 1.5e3"},
		{"x y", "line 1, column 3: unexpected symbol y after the end"},
		{"", "line 1, column 1: unexpected end of input: expected a term"},
	}
	for _, tc := range tests {
		_, err := ParseTerm(tc.src)
		if err == nil || err.Error() != tc.msg {
			t.Errorf("ParseTerm(%q): %v, want %q", tc.src, err, tc.msg)
		}
	}
	if _, err := ParseSort("Int Int"); err == nil {
		t.Errorf("ParseSort accepted two sorts")
	}
}

func TestDeepNesting(t *testing.T) {
	const depth = 200000
	src := strings.Repeat("(not ", depth) + "p" + strings.Repeat(")", depth)
	tm, err := ParseTerm(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := tm.String(); got != src {
		t.Fatalf("deep term printed differently (len %d, want %d)", len(got), len(src))
	}
	n := 0
	for ; tm.Kind == KindApp && tm.Name == "not"; tm = tm.Args[0] {
		n++
	}
	if n != depth {
		t.Errorf("depth %d, want %d", n, depth)
	}
	// Deep lets, quantifiers and annotations.
	src = strings.Repeat("(let ((x (! (forall ((y Int)) ", 20000) + "x" + strings.Repeat(") :named a))) x)", 20000)
	tm, err = ParseTerm(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := tm.String(); got != src {
		t.Fatalf("deep let printed differently")
	}
}

// smtCorpusDir is the shared SMT-LIB corpus beside the repository.
var smtCorpusDir = filepath.Join("..", "..", "shared", "corpus", "smt")

// smtCorpusFiles lists the .smt2 files of the corpus's MANIFEST.tsv (columns path, logic,
// status, mode), skipping tb when the corpus is absent.
func smtCorpusFiles(tb testing.TB) []string {
	files, err := smtCorpusPaths()
	if errors.Is(err, os.ErrNotExist) {
		tb.Skipf("no SMT corpus at %s", smtCorpusDir)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// smtCorpusPaths reads the corpus's MANIFEST.tsv.
func smtCorpusPaths() ([]string, error) {
	f, err := os.Open(filepath.Join(smtCorpusDir, "MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var files []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		path, _, _ := strings.Cut(sc.Text(), "\t")
		if strings.HasSuffix(path, ".smt2") {
			files = append(files, filepath.Join(smtCorpusDir, filepath.FromSlash(path)))
		}
	}
	return files, sc.Err()
}

func TestCorpus(t *testing.T) {
	files := smtCorpusFiles(t)
	var parseTime time.Duration
	var bytes, cmds, raw int
	start := time.Now()
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			continue
		}
		t0 := time.Now()
		s, err := ParseScript(string(data))
		parseTime += time.Since(t0)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		bytes += len(data)
		cmds += len(s.Commands)
		for _, c := range s.Commands {
			if c.Raw != "" {
				raw++
			}
		}
		checkScriptRoundTrip(t, path, s)
	}
	t.Logf("corpus: %d files, %d bytes, %d commands (%d kept as Raw); parse %v, parse+print+re-read %v",
		len(files), bytes, cmds, raw, parseTime, time.Since(start))
}

func BenchmarkParseCorpus(b *testing.B) {
	var texts []string
	size := 0
	for _, path := range smtCorpusFiles(b) {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, string(data))
		size += len(data)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, s := range texts {
			if _, err := ParseScript(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestParseScriptExit(t *testing.T) {
	for _, c := range []struct {
		src  string
		cmds int // commands read, (exit) included
	}{
		{"(assert true) (exit) (assert", 2},
		{"(assert true)\n(exit)\n)))garbage (((", 2},
		{"(exit) (exit)", 1},
		{"(assert true) (check-sat)", 2},
	} {
		sc, err := ParseScript(c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if len(sc.Commands) != c.cmds {
			t.Errorf("%q: %d commands, want %d", c.src, len(sc.Commands), c.cmds)
		}
	}
	if _, err := ParseScript("(assert true) (assert"); err == nil {
		t.Error("an unfinished command before any (exit) parses")
	}
}
