package datalog

import (
	"testing"
)

// dialectProg exercises every construct of the canonical language.
const dialectProg = `.decl edge(x: number, y: number)
.decl path(x: number, y: number)
.decl blocked(n: number)
.decl name(n: number, s: symbol)
.decl Z_0()
.decl none(s: symbol)
.input edge
.output path
.output Z_0
path(x, z) :- path(x, y), x != z, !blocked(z), edge(y, z), !none("q"), 1 < 2.
name(1, "a'\"\\ b` + "\t\u00e9" + `").
edge(1, -2147483648).
edge(2147483647, 2).
blocked(n) :- name(n, s), s >= "a", !edge(n, _), n < -3, "a" < "b", s = s, s <= "z", s > "", n >= 0.
path(x, y) :- edge(x, y).
Z_0() :- path(1, _).
`

func TestSWIPrologTranslate(t *testing.T) {
	checkTranslate(t, SWIProlog{}, []translateTest{
		{"all constructs", dialectProg, `:- table r_path/2.
:- table r_blocked/1.
:- table r_Z_0/0.
:- dynamic r_none/1.
r_edge(1, -2147483648).
r_edge(2147483647, 2).
r_path(Vx, Vz) :- \+ r_none('q'), 1 < 2, r_path(Vx, Vy), r_edge(Vy, Vz), \+ r_blocked(Vz), Vx =\= Vz.
r_path(Vx, Vy) :- r_edge(Vx, Vy).
r_blocked(Vn) :- 'a' @< 'b', r_name(Vn, Vs), \+ r_edge(Vn, _), Vs @>= 'a', Vn < -3, Vs == Vs, Vs @=< 'z', Vs @> '', Vn >= 0.
r_name(1, 'a\'"\\ b\x09\\xc3\\xa9\').
r_Z_0 :- r_path(1, _).
row(['path', VA0, VA1]) :- r_path(VA0, VA1).
row(['Z_0']) :- r_Z_0.
`},
		{"symbol bytes", ".decl s(x: symbol)\n.output s\ns(\"\").\ns(\" ~\x00\x7f\x80\xff\").\n", `r_s('').
r_s(' ~\x00\\x7f\\x80\\xff\').
row(['s', VA0]) :- r_s(VA0).
`},
		{"64-bit numbers", ".decl n(x: number)\nn(-9223372036854775808).\nn(9223372036854775807).\n",
			":- dynamic row/1.\nr_n(-9223372036854775808).\nr_n(9223372036854775807).\n"},
		{"operators", `.decl n(x: number, y: number)
.decl s(x: symbol, y: symbol)
.decl o(x: number)
o(1) :- n(x, y), x = y, x != y, x < y, x <= y, x > y, x >= y.
o(2) :- s(x, y), x = y, x != y, x < y, x <= y, x > y, x >= y.
`, `:- dynamic r_n/2.
:- dynamic r_s/2.
:- table r_o/1.
:- dynamic row/1.
r_o(1) :- r_n(Vx, Vy), Vx =:= Vy, Vx =\= Vy, Vx < Vy, Vx =< Vy, Vx > Vy, Vx >= Vy.
r_o(2) :- r_s(Vx, Vy), Vx == Vy, Vx \== Vy, Vx @< Vy, Vx @=< Vy, Vx @> Vy, Vx @>= Vy.
`},
	})
}

// translateTest is a program and its translation.
type translateTest struct {
	name, src, want string
}

// checkTranslate checks d's translation of each program.
func checkTranslate(t *testing.T, d Dialect, tests []translateTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("prog.dl", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := d.Translate(p)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Text != tt.want {
				t.Errorf("Translate =\n%s\nwant\n%s", tr.Text, tt.want)
			}
		})
	}
}

func TestDecodeLatin1(t *testing.T) {
	tests := []struct {
		typ       Type
		raw, want string
		err       bool
	}{
		{Number, "-9223372036854775808", "i:-9223372036854775808", false},
		{Number, "9223372036854775808", "", true},
		{Number, "x", "", true},
		{Symbol, "", "t:", false},
		{Symbol, "a\tb\\", "t:a\tb\\", false},
		{Symbol, "\x00\u007f\u0080\u00ff", "t:\x00\x7f\x80\xff", false},
		{Symbol, "\u0100", "", true},
		{Symbol, "\xff", "", true},
	}
	for _, tt := range tests {
		got, err := decodeLatin1(tt.typ, tt.raw)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("decodeLatin1(%v, %q) = %q, %v; want %q, error %v", tt.typ, tt.raw, got, err, tt.want, tt.err)
		}
	}
}

func TestScripts(t *testing.T) {
	p, err := Parse("prog.dl", ".decl e(x: number)\n.output e\ne(1).\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []interface {
		Dialect
		Scripter
	}{SWIProlog{}, Clingo{}} {
		tr, err := d.Translate(p)
		if err != nil {
			t.Fatal(err)
		}
		files, cmd, err := d.Script(p, "p0")
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 1 {
			t.Fatalf("%s: Script wrote %d files, want 1", d.Name(), len(files))
		}
		for name, text := range files {
			if text != tr.Text {
				t.Errorf("%s: %s is not the translation", d.Name(), name)
			}
		}
		t.Logf("%s: %s", d.Name(), cmd)
	}
}
