package smtgen

import (
	"os"
	"strings"
	"testing"
)

func TestPrintTerm(t *testing.T) {
	tests := []struct {
		t    *Term
		want string
	}{
		{rdNum("12"), "12"},
		{rdNum("-12"), "(- 12)"},
		{&Term{Kind: KindDecimal, Lit: "-1.5"}, "(- 1.5)"},
		{&Term{Kind: KindHex, Lit: "aF"}, "#xaF"},
		{&Term{Kind: KindBinary, Lit: "10"}, "#b10"},
		{&Term{Kind: KindString, Lit: `say "hi" ""`}, `"say ""hi"" """""`},
		{&Term{Kind: KindString, Lit: `\u{61}`}, `"\u{61}"`},
		{rdApp("x"), "x"},
		{rdApp("a b"), "|a b|"},
		{rdApp("forall"), "|forall|"},
		{rdApp("0x"), "|0x|"},
		{rdApp("f", rdApp("x"), rdNum("1")), "(f x 1)"},
		{&Term{Kind: KindApp, Name: "extract", Index: []int{7, 0}, Args: []*Term{rdApp("x")}}, "((_ extract 7 0) x)"},
		{&Term{Kind: KindApp, Name: "bv5", Index: []int{8}}, "(_ bv5 8)"},
		{&Term{Kind: KindApp, Name: "const", As: ArraySort(IntSort, BoolSort), Args: []*Term{rdApp("true")}}, "((as const (Array Int Bool)) true)"},
		{&Term{Kind: KindApp, Name: "nil", As: &Sort{Name: "List", Args: []*Sort{IntSort}}}, "(as nil (List Int))"},
		{&Term{Kind: KindLet, Binds: []Binding{{Name: "a", Term: rdNum("1")}, {Name: "b", Term: rdApp("g", rdApp("a"))}}, Args: []*Term{rdApp("b")}},
			"(let ((a 1) (b (g a))) b)"},
		{&Term{Kind: KindForall, Binds: []Binding{{Name: "x", Sort: IntSort}}, Args: []*Term{rdApp("p", rdApp("x"))}}, "(forall ((x Int)) (p x))"},
		{&Term{Kind: KindExists, Binds: []Binding{{Name: "x", Sort: BitVecSort(2)}, {Name: "y", Sort: RealSort}}, Args: []*Term{rdApp("q")}},
			"(exists ((x (_ BitVec 2)) (y Real)) q)"},
		{&Term{Kind: KindAnnot, Args: []*Term{rdApp("p")}, Attrs: []Attr{{":named", "n"}, {":pattern", "((f x))"}, {Key: ":k"}}},
			"(! p :named n :pattern ((f x)) :k)"},
		{nil, "<nil term>"},
		{rdApp("f", nil), "(f <nil term>)"},
		{&Term{}, "<invalid term>"},
		{&Term{Kind: KindLet}, "(let () <nil term>)"},
	}
	for _, tc := range tests {
		var got string
		if tc.t == nil {
			var b strings.Builder
			WriteTerm(&b, nil)
			got = b.String()
		} else {
			got = tc.t.String()
		}
		if got != tc.want {
			t.Errorf("printed %q, want %q", got, tc.want)
		}
	}
}

func TestPrintSort(t *testing.T) {
	tests := []struct {
		s    *Sort
		want string
	}{
		{IntSort, "Int"},
		{&Sort{Name: "a sort"}, "|a sort|"},
		{BitVecSort(16), "(_ BitVec 16)"},
		{ArraySort(BitVecSort(4), ArraySort(IntSort, RealSort)), "(Array (_ BitVec 4) (Array Int Real))"},
		{&Sort{Name: "F", Index: []int{1, 2}, Args: []*Sort{BoolSort}}, "((_ F 1 2) Bool)"},
		{nil, "<nil sort>"},
	}
	for _, tc := range tests {
		var b strings.Builder
		WriteSort(&b, tc.s)
		if b.String() != tc.want {
			t.Errorf("WriteSort printed %q, want %q", b.String(), tc.want)
		}
	}
}

func TestPrintCommand(t *testing.T) {
	x := rdApp("x")
	tests := []struct {
		c    *Command
		want string
	}{
		{&Command{Name: "set-logic", Symbol: "ALL"}, "(set-logic ALL)"},
		{&Command{Name: "set-info", Attr: Attr{":status", "unsat"}}, "(set-info :status unsat)"},
		{&Command{Name: "set-option", Attr: Attr{Key: ":print-success"}}, "(set-option :print-success)"},
		{&Command{Name: "declare-sort", Symbol: "U"}, "(declare-sort U 0)"},
		{&Command{Name: "define-sort", Symbol: "S", Params: []Binding{{Name: "X"}}, Sort: ArraySort(&Sort{Name: "X"}, IntSort)},
			"(define-sort S (X) (Array X Int))"},
		{&Command{Name: "declare-const", Symbol: "c c", Sort: IntSort}, "(declare-const |c c| Int)"},
		{&Command{Name: "declare-fun", Symbol: "f", ArgSorts: []*Sort{IntSort, BoolSort}, Sort: RealSort}, "(declare-fun f (Int Bool) Real)"},
		{&Command{Name: "declare-fun", Symbol: "k", Sort: RealSort}, "(declare-fun k () Real)"},
		{&Command{Name: "define-fun", Symbol: "g", Params: []Binding{{Name: "x", Sort: IntSort}}, Sort: IntSort, Terms: []*Term{x}},
			"(define-fun g ((x Int)) Int x)"},
		{&Command{Name: "define-fun-rec", Symbol: "h", Sort: IntSort, Terms: []*Term{rdNum("-1")}}, "(define-fun-rec h () Int (- 1))"},
		{&Command{Name: "define-const", Symbol: "d", Sort: IntSort, Terms: []*Term{rdNum("4")}}, "(define-const d Int 4)"},
		{&Command{Name: "assert", Terms: []*Term{rdApp("not", x)}}, "(assert (not x))"},
		{&Command{Name: "check-sat"}, "(check-sat)"},
		{&Command{Name: "check-sat-assuming", Terms: []*Term{x, rdApp("not", rdApp("y"))}}, "(check-sat-assuming (x (not y)))"},
		{&Command{Name: "get-value"}, "(get-value ())"},
		{&Command{Name: "push", Arity: 1}, "(push 1)"},
		{&Command{Name: "pop", Arity: 2}, "(pop 2)"},
		{&Command{Name: "simplify", Terms: []*Term{x}}, "(simplify x)"},
		{&Command{Name: "eval", Terms: []*Term{x}}, "(eval x)"},
		{&Command{Name: "get-model"}, "(get-model)"},
		{&Command{Name: "echo", Raw: `"x"`}, `(echo "x")`},
		{&Command{Name: "declare-datatype", Raw: "D ((a) (b))"}, "(declare-datatype D ((a) (b)))"},
		{&Command{Name: "assert", Raw: "(match x ((a 1)))"}, "(assert (match x ((a 1))))"},
		{&Command{Name: "some-command"}, "(some-command)"},
		{nil, "<nil command>"},
	}
	for _, tc := range tests {
		var b strings.Builder
		WriteCommand(&b, tc.c)
		if b.String() != tc.want {
			t.Errorf("printed %q, want %q", b.String(), tc.want)
		}
		if tc.c != nil && tc.c.String() != tc.want {
			t.Errorf("Command.String() = %q, want %q", tc.c.String(), tc.want)
		}
	}
}

func TestPrintScript(t *testing.T) {
	s := &Script{Commands: []*Command{
		{Name: "set-logic", Symbol: "QF_UF"},
		{Name: "declare-const", Symbol: "p", Sort: BoolSort},
		{Name: "assert", Terms: []*Term{rdApp("p")}},
		{Name: "check-sat"},
	}}
	want := "(set-logic QF_UF)\n(declare-const p Bool)\n(assert p)\n(check-sat)\n"
	if got := s.String(); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	checkScriptRoundTrip(t, "script", s)
	if got := (&Script{}).String(); got != "" {
		t.Errorf("empty script printed %q", got)
	}
}

// TestPrintShared prints a DAG whose nodes are shared, as after let expansion.
func TestPrintShared(t *testing.T) {
	a := rdApp("a")
	tm := rdApp("and", a, a)
	for range 3 {
		tm = rdApp("or", tm, tm)
	}
	if got, want := strings.Count(tm.String(), "(and a a)"), 8; got != want {
		t.Errorf("shared subterm printed %d times, want %d", got, want)
	}
}

// TestSymbolHelpers checks the fast symbol helpers against quoteSymbol and reserved.
func TestSymbolHelpers(t *testing.T) {
	names := []string{"", "x", "x1", "1x", "a b", "|", "é", "-", "_", "!", "_x", "as", "As", "par", "NUMERAL", "match", "let1", "~!@$%^&*_-+=<>.?/"}
	for w := range reserved {
		names = append(names, w, w+"x")
	}
	for _, s := range names {
		var b strings.Builder
		if writeSymbol(&b, s); b.String() != quoteSymbol(s) {
			t.Errorf("writeSymbol(%q) wrote %q, quoteSymbol gives %q", s, b.String(), quoteSymbol(s))
		}
		if isReserved(s) != reserved[s] {
			t.Errorf("isReserved(%q) = %v", s, isReserved(s))
		}
	}
}

func BenchmarkPrintCorpus(b *testing.B) {
	var scripts []*Script
	size := 0
	for _, path := range smtCorpusFiles(b) {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		s, err := ParseScript(string(data))
		if err != nil {
			b.Fatal(err)
		}
		scripts = append(scripts, s)
		size += len(s.String())
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, s := range scripts {
			_ = s.String()
		}
	}
}
