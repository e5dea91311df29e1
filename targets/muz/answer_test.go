package muz

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/sexpr"
)

func TestTuples(t *testing.T) {
	bv2 := finSort{width: 2}
	tests := []struct {
		name    string
		formula string
		cols    []finSort
		want    string // rows joined by ";", values by ","
		err     string
	}{
		{"enumeration", "(or (and (= (:var 0) #b01) (= (:var 1) #b10)) (and (= (:var 1) #b00) (= (:var 0) #b11)))",
			[]finSort{bv2, bv2}, "#b01,#b10;#b11,#b00", ""},
		{"single tuple", "(and (= (:var 0) #x0f) (= #x01 (:var 1)))", []finSort{{width: 8}, {width: 8}}, "#x0f,#x01", ""},
		{"single value", "(= (:var 0) (_ bv3 4))", []finSort{{width: 4}}, "(_ bv3 4)", ""},
		{"nullary true", "true", nil, "", ""},
		{"false", "false", []finSort{bv2}, "-", ""},
		{"true over a column", "true", []finSort{bv2}, "#b00;#b01;#b10;#b11", ""},
		{"open column", "(= (:var 0) #b01)", []finSort{bv2, {}}, "#b01,false;#b01,true", ""},
		{"range", "(and (bvuge (:var 0) #b01) (bvult (:var 0) #b11))", []finSort{bv2}, "#b01;#b10", ""},
		{"not and distinct", "(and (not (= (:var 0) #b00)) (distinct (:var 0) #b11))", []finSort{bv2}, "#b01;#b10", ""},
		{"bool column", "(:var 0)", []finSort{{}}, "true", ""},
		{"unknown operator", "(bvslt (:var 0) #b01)", []finSort{bv2}, "", "cannot evaluate"},
		{"unknown sort", "true", []finSort{{unknown: true}}, "", "not a bit-vector"},
		{"too many candidates", "true", []finSort{{width: 17}}, "", "more than 65536"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes, err := sexpr.Parse(tc.formula)
			if err != nil || len(nodes) != 1 {
				t.Fatalf("Parse: %v", err)
			}
			rows, err := tuples(&nodes[0], tc.cols)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, strings.Join(r, ","))
			}
			g := strings.Join(got, ";")
			if rows == nil {
				g = "-"
			}
			if g != tc.want {
				t.Errorf("rows = %q, want %q", g, tc.want)
			}
		})
	}
}

func TestSchema(t *testing.T) {
	nodes, err := sexpr.Parse(`(define-sort $N () (_ BitVec 3)) (declare-rel r ($N (_ BitVec 5) Bool Int))
		(declare-rel z ()) (query r :print-answer true) (query z)`)
	if err != nil {
		t.Fatal(err)
	}
	s := newSchema(nodes)
	want := []finSort{{width: 3}, {width: 5}, {}, {unknown: true}}
	if !slices.Equal(s.rels["r"], want) || len(s.rels["z"]) != 0 || !slices.Equal(s.queries, []string{"r", "z"}) {
		t.Errorf("schema = %+v, want r %v, z nullary, queries r z", s, want)
	}
}
