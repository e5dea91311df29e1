package sqleval

import (
	"errors"
	"testing"
)

// TestSQLite checks the rules SQLite's answers taught the evaluator (each was a disagreement), on
// a row of a TEXT column c0 = the empty string and a column without type c1 = 1.
func TestSQLite(t *testing.T) {
	row := Row{"t0.c0": {V: Value{C: Text}, Aff: AffText}, "t0.c1": {V: Value{C: Int, I: 1}, Aff: AffBlob}}
	tests := []struct{ expr, want string }{
		{"(~ '1e2')", "i:-2"},
		{"('1e2' + 0)", "r:100"},
		{"('1e2' % 43)", "r:1"},
		{"(- 0.0)", "r:0"},
		{"(replace(0, '', 5))", "t:0"},
		{"(256 IS (1 NOT IN ()))", "i:1"},
		{"(256 IS ((abs(1)) NOT IN ()))", "i:0"}, // a function keeps it TRUE OR abs(1): plain 1
		{"(127 IS DISTINCT FROM ((coalesce(t0.c1, 1)) NOT IN ()))", "i:1"},
		{"(127 IS DISTINCT FROM ((t0.c1 + 1) NOT IN ()))", "i:0"},
		{"('x' IS (('a' LIKE 'b') IN ()))", "i:0"},     // LIKE is a call of like(): FALSE AND x, a plain 0
		{"('x' IS (('a' GLOB 'b') NOT IN ()))", "i:0"}, // and GLOB of glob()
		{"('x' IS ((1 + 1) IN ()))", "i:1"},
		{"(' 1' IS (unlikely(TRUE)))", "i:0"},
		{"(' 1' IS TRUE)", "i:1"},
		{"((t0.c0 || t0.c1) <= t0.c1)", "i:0"},
		{"(t0.c0 = (t0.c0 COLLATE NOCASE))", "i:1"},
		{"('abc' = ('ABC' COLLATE NOCASE))", "i:1"},
		{"(9223372036854775807 + 1)", "r:9.223372036854776e+18"},
		{"(NULL IN ())", "i:0"},
		{"(2 IN (NULL, 3))", "NULL"},
	}
	for _, tc := range tests {
		n, err := Parse(tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		v, err := SQLite{}.Eval(n, row)
		if err != nil || v.Canonical() != tc.want {
			t.Errorf("%s = %s, %v; want %s", tc.expr, v.Canonical(), err, tc.want)
		}
	}
	n, _ := Parse("(printf('%d', 1))")
	if _, err := (SQLite{}).Eval(n, row); !errors.Is(err, ErrUnknown) {
		t.Errorf("printf: %v, want unknown", err)
	}
	if _, err := Parse("((1, 2) = (1, 2))"); !errors.Is(err, ErrSyntax) {
		t.Errorf("row value: %v, want a syntax error", err)
	}
}
