package sexpr

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// tokens scans src and prints each token as KIND:TEXT.
func tokens(src string, lenient bool) ([]string, error) {
	s := Scanner{Lenient: lenient}
	s.Reset(src)
	var out []string
	for {
		t, err := s.Next()
		if err != nil {
			return out, err
		}
		if t.Kind == EOF {
			if t.Pos != len(src) || s.Offset() != len(src) {
				return out, errors.New("EOF not at the end")
			}
			return out, nil
		}
		out = append(out, t.Kind.String()+":"+src[t.Pos:t.End])
	}
}

func TestScanner(t *testing.T) {
	tests := []struct {
		src     string
		lenient bool
		want    []string
		err     string
	}{
		{"", false, nil, ""},
		{"  ; only a comment", false, nil, ""},
		{"(assert (> x 1))", false, []string{"(:(", "atom:assert", "(:(", "atom:>", "atom:x", "atom:1", "):)", "):)"}, ""},
		{"\t:named a1 #b01 #x0F 1.5 1/4 k!0\f\v", false,
			[]string{"atom::named", "atom:a1", "atom:#b01", "atom:#x0F", "atom:1.5", "atom:1/4", "atom:k!0"}, ""},
		{`"a ""b"" ;c" |x y;| z`, false, []string{`string:"a ""b"" ;c"`, "quoted symbol:|x y;|", "atom:z"}, ""},
		{"a;comment\nb\r\nc", false, []string{"atom:a", "atom:b", "atom:c"}, ""},
		{"a|b|c\"d\"", false, []string{"atom:a", "quoted symbol:|b|", "atom:c", `string:"d"`}, ""},
		{"x,y \x01", false, []string{"atom:x,y", "atom:\x01"}, ""},
		{`(echo "abc`, false, []string{"(:(", "atom:echo"}, "offset 6: unterminated string literal"},
		{`(echo "abc`, true, []string{"(:(", "atom:echo", `string:"abc`}, ""},
		{"|abc", false, nil, "offset 0: unterminated quoted symbol"},
		{"|abc", true, []string{"quoted symbol:|abc"}, ""},
	}
	for _, tc := range tests {
		got, err := tokens(tc.src, tc.lenient)
		if !slices.Equal(got, tc.want) || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("tokens(%q, lenient %v) = %q, %v; want %q, %q", tc.src, tc.lenient, got, err, tc.want, tc.err)
		}
	}
}

func TestSeek(t *testing.T) {
	var s Scanner
	s.Reset("abc:d")
	tok, _ := s.Next()
	s.Seek(tok.Pos + 3)
	if tok, _ = s.Next(); tok.Kind != Atom || tok.Pos != 3 || tok.End != 5 {
		t.Errorf("after Seek: %+v", tok)
	}
}

// printed prints nodes with String, one per element.
func printed(nodes []Node) []string {
	var out []string
	for i := range nodes {
		out = append(out, nodes[i].String())
	}
	return out
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{in: "(a (b c)) d", want: []string{"(a (b c))", "d"}},
		{in: "(echo \"x \"\" ) y\") ; comment )\n(e)", want: []string{`(echo "x "" ) y")`, "(e)"}},
		{in: "(declare-rel |a b| ())", want: []string{"(declare-rel |a b| ())"}},
		{in: "((x 1)\n (y (- 1)))", want: []string{"((x 1) (y (- 1)))"}},
		{in: "", want: nil},
		{in: "(a", err: "offset 0: unclosed '('"},
		{in: "(a (b)", err: "offset 0: unclosed '('"},
		{in: "a)", err: "offset 1: unexpected ')'"},
		{in: `(echo "x)`, err: "offset 6: unterminated string literal"},
		{in: "(|x)", err: "offset 1: unterminated quoted symbol"},
	}
	for _, tc := range tests {
		nodes, err := Parse(tc.in)
		if (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("Parse(%q) error = %v, want %q", tc.in, err, tc.err)
			continue
		}
		if got := printed(nodes); !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var e *Error
	if _, err := Parse("(a"); !errors.As(err, &e) || e.Pos != 0 || e.Msg != MsgUnclosedList {
		t.Errorf("Parse error is not an *Error: %v", err)
	}
}

func TestParseLenient(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"sat\nunsat\n", []string{"sat", "unsat"}},
		{"((x 1", []string{"((x 1))"}},
		{"(error \"abc", []string{`(error "abc)`}},
		{")\nsat", []string{")", "sat"}},
		{"|a b", []string{"|a b"}},
		{"(a) (b", []string{"(a)", "(b)"}},
	}
	for _, tc := range tests {
		if got := printed(ParseLenient(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("ParseLenient(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNode(t *testing.T) {
	src := "(query |my rel| :print-answer true) (|a b|) \"s \"\"q\"\"\" ()"
	nodes, err := Parse(src)
	if err != nil || len(nodes) != 4 {
		t.Fatalf("Parse: %v, %d nodes", err, len(nodes))
	}
	q := &nodes[0]
	tests := []struct {
		name, got, want string
	}{
		{"head", q.Head(), "query"},
		{"quoted symbol", q.List[1].Symbol(), "my rel"},
		{"quoted text", q.List[1].Text, "|my rel|"},
		{"keyword", q.List[2].Symbol(), ":print-answer"},
		{"text by offsets", src[q.Pos:q.End], "(query |my rel| :print-answer true)"},
		{"quoted head", nodes[1].Head(), "a b"},
		{"string", nodes[2].Symbol(), `"s ""q"""`},
		{"unquote", Unquote(nodes[2].Text), `s "q"`},
		{"unquote an atom", Unquote("abc"), "abc"},
		{"empty list", nodes[3].String(), "()"},
		{"head of an empty list", nodes[3].Head(), ""},
		{"list symbol", nodes[3].Symbol(), ""},
		{"kind", nodes[3].Kind.String() + "," + nodes[2].Kind.String() + "," + Kind(99).String(), "list,string,kind(99)"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if !q.IsList() || q.List[0].IsList() {
		t.Error("IsList")
	}
}

func TestStringEnd(t *testing.T) {
	for src, want := range map[string]int{`"abc" x`: 5, `"a""b"`: 6, `"abc`: -1, `""`: 2, `"a"""`: 5, `"a""`: -1} {
		if got := StringEnd(src, 0); got != want {
			t.Errorf("StringEnd(%q) = %d, want %d", src, got, want)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	src := strings.Repeat("(define-fun x () (_ BitVec 8) #x0f)\n((x 1) (|y z| \"s\"))\n", 100)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
