package datalog

import (
	"strings"
	"testing"
)

func TestCozoTranslate(t *testing.T) {
	checkTranslate(t, Cozo{}, []translateTest{
		{"all constructs", dialectProg, `r_edge[c0, c1] <- [[1, -2147483648], [2147483647, 2]]
r_path[v_x, v_z] := r_path[v_x, v_y], r_edge[v_y, v_z], not r_blocked[v_z], not r_none['q'], v_x != v_z, 1 < 2
r_path[v_x, v_y] := r_edge[v_x, v_y]
r_blocked[v_n] := r_name[v_n, v_s], not r_edge[v_n, _], v_s >= 'a', v_n < -3, 'a' < 'b', v_s == v_s, v_s <= 'z', v_s > '', v_n >= 0
r_name[c0, c1] <- [[1, 'a\'"\\ b\u0009\u00c3\u00a9']]
r_Z_0[u] := r_path[1, _], u = 0
r_none[c0] <- []
?[c0, c1, c2] := r_path[c1, c2], c0 = 'path'
?[c0, c1, c2] := r_Z_0[_], c0 = 'Z_0', c1 = null, c2 = null
`},
		{"no outputs", ".decl e(x: number)\n", "r_e[c0] <- []\n?[c0] <- []\n"},
		{"facts and rules of one relation", `.decl e(x: number, y: symbol)
.decl z()
.output e
.output z
e(-9223372036854775808, "a").
e(x, "b") :- e(x, _), !z().
e(9223372036854775807, "c").
e(1, y) :- e(2, y), e(3, y), y < "q", 1 = 1.
z().
`, `f_e[c0, c1] <- [[(-9223372036854775807 - 1), 'a'], [9223372036854775807, 'c']]
r_e[c0, c1] := f_e[c0, c1]
r_e[v_x, h1] := r_e[v_x, _], not r_z[0], h1 = 'b'
r_e[h0, v_y] := r_e[2, v_y], r_e[3, v_y], v_y < 'q', 1 == 1, h0 = 1
r_z[u] <- [[0]]
?[c0, c1, c2] := r_e[c1, c2], c0 = 'e'
?[c0, c1, c2] := r_z[_], c0 = 'z', c1 = null, c2 = null
`},
		{"nullary outputs only", ".decl a()\n.decl b()\n.output a\n.output b\na() :- !b().\n",
			"r_a[u] := not r_b[0], u = 0\nr_b[u] <- []\n?[c0] := r_a[_], c0 = 'a'\n?[c0] := r_b[_], c0 = 'b'\n"},
		{"repeated head variable", ".decl e(x: number)\n.decl d(x: number, y: number)\n.output d\ne(1).\nd(x, x) :- e(x).\n",
			"r_e[c0] <- [[1]]\nr_d[v_x, v_x] := r_e[v_x]\n?[c0, c1, c2] := r_d[c1, c2], c0 = 'd'\n"},
	})
}

func TestWriteCozoString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `''`},
		{"abc XYZ 09~", `'abc XYZ 09~'`},
		{`'"\`, `'\'"\\'`},
		{" a ", `' a '`},
		{"\x00\t\n\r\x1f\x7f", `'\u0000\u0009\u000a\u000d\u001f\u007f'`},
		{"\x80\xc3\xa9\xff", `'\u0080\u00c3\u00a9\u00ff'`},
		{`_"_`, `'_"_'`},
	}
	for _, tt := range tests {
		var b strings.Builder
		writeCozoString(&b, tt.in)
		if got := b.String(); got != tt.want {
			t.Errorf("writeCozoString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestCozoScriptFiles checks the repro files and command line.
func TestCozoScriptFiles(t *testing.T) {
	p, err := Parse("p.dl", ".decl e(x: number)\n.output e\ne(1).\n")
	if err != nil {
		t.Fatal(err)
	}
	files, cmd, err := Cozo{}.Script(p, "p0")
	if err != nil {
		t.Fatal(err)
	}
	if want := `"${POLYFUZZ_PYTHON:-python3}" p0.py p0.cozo`; cmd != want {
		t.Errorf("command %q, want %q", cmd, want)
	}
	if got, want := files["p0.cozo"], "r_e[c0] <- [[1]]\n?[c0, c1] := r_e[c1], c0 = 'e'\n"; got != want {
		t.Errorf("p0.cozo =\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(files["p0.py"], "cozo_embedded") || len(files) != 2 {
		t.Errorf("files %v, want p0.cozo and a p0.py that imports cozo_embedded", files)
	}
}
