package datalog

import (
	"errors"
	"testing"
)

func TestClingoTranslate(t *testing.T) {
	checkTranslate(t, Clingo{}, []translateTest{
		{"all constructs", dialectProg, `r_path(Vx,Vz) :- r_path(Vx,Vy), not r_blocked(Vz), r_edge(Vy,Vz), not r_none("q"), Vx != Vz, 1 < 2.
r_name(1,"a'\"\\ b` + "\t\u00c3\u00a9" + `").
r_edge(1,-2147483648).
r_edge(2147483647,2).
r_blocked(Vn) :- r_name(Vn,Vs), not r_edge(Vn,_), Vs >= "a", Vn < -3, "a" < "b", Vs = Vs, Vs <= "z", Vs > "", Vn >= 0.
r_path(Vx,Vy) :- r_edge(Vx,Vy).
r_Z_0 :- r_path(1,_).
#defined r_none/1.
#show.
#show ("path",V0,V1) : r_path(V0,V1).
#show ("Z_0",) : r_Z_0.
`},
		{"no outputs", ".decl e(x: number)\n", "#defined r_e/1.\n#show.\n"},
	})
}

func TestClingoUnsupported(t *testing.T) {
	const decls = ".decl n(x: number)\n.decl s(x: symbol)\n"
	tests := []struct {
		name, src, feature string
	}{
		{"fact above int32", "n(2147483648).", "number-range"},
		{"fact below int32", "n(-2147483649).", "number-range"},
		{"body constant", "n(1) :- n(-9223372036854775808).", "number-range"},
		{"constraint constant", "n(x) :- n(x), x < 4294967296.", "number-range"},
		{"negated atom constant", "n(1) :- n(1), !n(9223372036854775807).", "number-range"},
		{"NUL in a fact", "s(\"a\x00\").", "symbol-nul"},
		{"NUL in a constraint", "s(x) :- s(x), \"\x00\" < x.", "symbol-nul"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("prog.dl", decls+tt.src)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Clingo{}.Translate(p)
			var u *Unsupported
			if !errors.As(err, &u) || u.Feature != tt.feature || u.Engine != "clingo" {
				t.Fatalf("Translate error = %v, want an Unsupported %s", err, tt.feature)
			}
		})
	}
}
