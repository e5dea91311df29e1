package datalog

import (
	"reflect"
	"testing"
)

const tcProg = `.decl edge(x: number, y: number)
.decl path(x: number, y: number)
.decl blocked(n: number)
.decl name(n: number, s: symbol)
.input edge
.output path
edge(1, 2).
edge(2, -3).
name(1, "a \"q\" \\ b").
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z), x != z, !blocked(z). // comment
/* block
comment */ blocked(n) :- name(n, "x"), !edge(n, _).
`

var validProgs = []string{
	tcProg,
	".decl p()\n.output p\np().\n",
	".decl a(x: number)\n.decl b(x: number)\n.decl c(x: number)\na(1).\nb(x) :- a(x), x >= 0, 5 > x.\nc(x) :- a(x), !b(x).\n",
	".decl s(x: symbol)\n.decl t(x: symbol)\ns(\"\").\nt(x) :- s(x), x < \"z\", x = \"\", x <= x.\n",
	".decl n(x: number)\nn(-9223372036854775808).\nn(9223372036854775807).\n",
	".decl p(x: number)\n.decl q(x: number)\np(1).\np(x) :- q(x), !q(2).\nq(x) :- p(x).\n",
}

func TestParseValid(t *testing.T) {
	p, err := Parse("prog.dl", tcProg)
	if err != nil {
		t.Fatal(err)
	}
	want := &Program{
		Relations: []Relation{
			{Name: "edge", Attrs: []Attr{{"x", Number}, {"y", Number}}, Input: true},
			{Name: "path", Attrs: []Attr{{"x", Number}, {"y", Number}}, Output: true},
			{Name: "blocked", Attrs: []Attr{{"n", Number}}},
			{Name: "name", Attrs: []Attr{{"n", Number}, {"s", Symbol}}},
		},
		Rules: []Rule{
			{Head: Atom{Rel: "edge", Args: []Term{N(1), N(2)}}},
			{Head: Atom{Rel: "edge", Args: []Term{N(2), N(-3)}}},
			{Head: Atom{Rel: "name", Args: []Term{N(1), S(`a "q" \ b`)}}},
			{Head: Atom{Rel: "path", Args: []Term{V("x"), V("y")}},
				Body: []Atom{{Rel: "edge", Args: []Term{V("x"), V("y")}}}},
			{Head: Atom{Rel: "path", Args: []Term{V("x"), V("z")}},
				Body: []Atom{
					{Rel: "path", Args: []Term{V("x"), V("y")}},
					{Rel: "edge", Args: []Term{V("y"), V("z")}},
					{Rel: "blocked", Args: []Term{V("z")}, Negated: true},
				},
				Constraints: []Constraint{{Op: Ne, Left: V("x"), Right: V("z")}}},
			{Head: Atom{Rel: "blocked", Args: []Term{V("n")}},
				Body: []Atom{
					{Rel: "name", Args: []Term{V("n"), S("x")}},
					{Rel: "edge", Args: []Term{V("n"), Any()}, Negated: true},
				}},
		},
	}
	if !p.Equal(want) {
		t.Errorf("Parse = %s\nwant %s", p, want)
	}
	if got := p.Rules[4].Body[2].Pos; got != (Pos{11, 47}) {
		t.Errorf("negated atom position = %v, want 11:47", got)
	}
	if got := p.Relations[1].Pos; got != (Pos{2, 7}) {
		t.Errorf("relation position = %v, want 2:7", got)
	}
	for _, src := range validProgs {
		if _, err := Parse("prog.dl", src); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	const decls = ".decl edge(x: number, y: number)\n.decl path(x: number, y: number)\n"
	tests := []struct {
		name, src, want string
	}{
		{"unknown relation", decls + "path(x, y) :- edgee(x, y).\n",
			`prog.dl:3:15: unknown relation "edgee" (declared: edge, path)`},
		{"no relations", "p(1).", `prog.dl:1:1: unknown relation "p" (no relations declared); declare it with .decl`},
		{"unknown io relation", decls + ".output paht\n",
			`prog.dl:3:9: unknown relation "paht" (declared: edge, path)`},
		{"head arity", decls + "\n\npath(x, y, x) :- edge(x, y).\n",
			"prog.dl:5:1: rule head path has 3 arguments, its declaration 2"},
		{"body arity", decls + "path(x, y) :- edge(x, y, y).\n",
			"prog.dl:3:15: atom edge has 3 arguments, its declaration 2"},
		{"unbound negated", decls + "path(x, x) :- edge(x, x), !edge(x, y).\n",
			"prog.dl:3:36: variable y in a negated atom or a constraint is not bound by a positive atom of the body"},
		{"unbound constraint", decls + "path(x, x) :- edge(x, x), x < y.\n",
			"prog.dl:3:31: variable y in a negated atom or a constraint is not bound by a positive atom of the body"},
		{"unbound head", decls + "path(x, z) :- edge(x, y).\n",
			"prog.dl:3:9: variable z in the head is not bound by a positive atom of the body"},
		{"variable fact", decls + "edge(x, 1).\n",
			"prog.dl:3:6: variable x in the head is not bound by a positive atom of the body"},
		{"expected colon", ".decl p(x number)\n",
			"prog.dl:1:11: expected ':' after attribute name, found identifier number"},
		{"unknown type", ".decl p(x: int)\n",
			`prog.dl:1:12: unknown type "int"; use number or symbol`},
		{"duplicate decl", decls + ".decl edge(a: symbol)\n",
			"prog.dl:3:7: relation edge is declared twice (first at 1:7); remove or rename one"},
		{"duplicate attr", ".decl p(x: number, x: symbol)\n",
			"prog.dl:1:20: attribute x of p is declared twice; rename one"},
		{"anonymous head", decls + "path(x, _) :- edge(x, y).\n",
			"prog.dl:3:9: _ in the head of path; use a named variable bound in the body or a constant"},
		{"number in symbol column", ".decl s(x: symbol)\ns(1).\n",
			"prog.dl:2:3: number constant 1 in symbol column x of s"},
		{"symbol in number column", decls + `edge(1, "a").` + "\n",
			`prog.dl:3:9: symbol constant "a" in number column y of edge`},
		{"variable type clash", decls + ".decl s(x: symbol)\npath(x, x) :- edge(x, x), s(x).\n",
			"prog.dl:4:29: variable x is used as number and as symbol (column x of s)"},
		{"constraint types", decls + `path(x, y) :- edge(x, y), x = "a".` + "\n",
			`prog.dl:3:27: constraint x = "a" compares a number with a symbol`},
		{"anonymous constraint", decls + "path(x, y) :- edge(x, y), x < _.\n",
			"prog.dl:3:31: _ in a constraint; use a variable bound by a positive atom"},
		{"missing dot", decls + "edge(1, 2)\n",
			"prog.dl:4:1: expected '.' at the end of the rule, found end of input"},
		{"bad escape", `.decl s(x: symbol)` + "\n" + `s("a\n").`,
			`prog.dl:2:5: unknown escape in string; only \" and \\ are supported`},
		{"unterminated string", ".decl s(x: symbol)\ns(\"a).\n",
			"prog.dl:2:3: unterminated string; close it with \" on the same line"},
		{"unterminated comment", "/* x", "prog.dl:1:1: unterminated block comment; close it with */"},
		{"overflow", ".decl n(x: number)\nn(9223372036854775808).\n",
			"prog.dl:2:3: number 9223372036854775808 is out of the int64 range"},
		{"unknown directive", ".type T <: number\n",
			"prog.dl:1:1: unknown directive .type; supported: .decl, .input, .output"},
		{"io parameters", decls + ".input edge(IO=file)\n",
			"prog.dl:3:12: I/O parameters are not supported; write .input edge alone"},
		{"negated head", decls + "!edge(1, 2).\n", "prog.dl:3:1: a rule head cannot be negated"},
		{"bad operator", decls + "path(x, y) :- edge(x, y), x y.\n",
			"prog.dl:3:29: expected a comparison operator (=, !=, <, <=, >, >=), found identifier y"},
		{"bad character", "$", `prog.dl:1:1: unexpected character '$'`},
		{"bad number", ".decl n(x: number)\nn(12ab).\n", `prog.dl:2:3: malformed number "12a"; numbers are decimal integers`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("prog.dl", tt.src)
			if err == nil {
				t.Fatalf("Parse succeeded:\n%s", p)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestStrata(t *testing.T) {
	tests := []struct {
		name, src string
		want      [][]string
		err       string
	}{
		{"transitive closure", tcProg, [][]string{{"edge"}, {"name"}, {"blocked"}, {"path"}}, ""},
		{"layered negation",
			".decl a(x: number)\n.decl b(x: number)\n.decl c(x: number)\nc(x) :- a(x), !b(x).\nb(x) :- a(x), !a(2).\n",
			[][]string{{"a"}, {"b"}, {"c"}}, ""},
		{"mutual recursion",
			".decl e(x: number)\n.decl p(x: number)\n.decl q(x: number)\np(x) :- q(x).\nq(x) :- p(x), e(x).\nq(x) :- e(x).\n",
			[][]string{{"e"}, {"p", "q"}}, ""},
		{"negation through recursion",
			".decl e(x: number)\n.decl p(x: number)\n.decl q(x: number)\np(x) :- e(x), !q(x).\nq(x) :- p(x).\n",
			nil, "prog.dl:4:15: not stratifiable: p depends negatively on q in the cycle p -> q -> p"},
		{"negated self loop",
			".decl e(x: number)\n.decl p(x: number)\np(x) :- e(x), !p(x).\n",
			nil, "prog.dl:3:15: not stratifiable: p depends negatively on p in the cycle p -> p"},
		{"longer cycle",
			".decl e(x: number)\n.decl p(x: number)\n.decl q(x: number)\n.decl r(x: number)\nq(x) :- r(x).\nr(x) :- p(x).\np(x) :- e(x), !q(x).\n",
			nil, "prog.dl:7:15: not stratifiable: p depends negatively on q in the cycle p -> q -> r -> p"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("prog.dl", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Strata()
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("Strata error = %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Strata = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"canonical", tcProg, `.decl edge(x: number, y: number)
.decl path(x: number, y: number)
.decl blocked(n: number)
.decl name(n: number, s: symbol)
.input edge
.output path
edge(1, 2).
edge(2, -3).
name(1, "a \"q\" \\ b").
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z), !blocked(z), x != z.
blocked(n) :- name(n, "x"), !edge(n, _).
`},
		{"facts first", ".output p .decl p(x:number) p(x):-p(x),x>1. p(3).\n",
			".decl p(x: number)\n.output p\np(3).\np(x) :- p(x), x > 1.\n"},
		{"nullary", ".decl p() p() :- p().", ".decl p()\np() :- p().\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("prog.dl", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != tt.want {
				t.Errorf("String =\n%s\nwant\n%s", got, tt.want)
			}
			q, err := Parse("prog.dl", p.String())
			if err != nil {
				t.Fatal(err)
			}
			if q.String() != p.String() {
				t.Errorf("String not stable:\n%s", q)
			}
			r, err := Parse("prog.dl", q.String())
			if err != nil || !r.Equal(q) {
				t.Errorf("Parse(String()) not equal: %v", err)
			}
		})
	}
	for _, src := range validProgs {
		p, err := Parse("prog.dl", src)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Parse("prog.dl", p.String())
		if err != nil || q.String() != p.String() {
			t.Errorf("round trip of %q failed: %v", src, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(tcProg)
	for _, src := range validProgs {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse("f.dl", src)
		if err != nil {
			return
		}
		_, _ = p.Strata()
		text := p.String()
		q, err := Parse("f.dl", text)
		if err != nil {
			t.Fatalf("reparse of\n%s\nfailed: %v", text, err)
		}
		if q.String() != text {
			t.Fatalf("String not stable:\n%s\nthen\n%s", text, q.String())
		}
		r, err := Parse("f.dl", q.String())
		if err != nil || !r.Equal(q) {
			t.Fatalf("Parse(String()) not equal for\n%s", text)
		}
	})
}
