package sqleval

import (
	"errors"
	"testing"
)

// TestDuckDB checks where DuckDB's rules part from PostgreSQL's, on a row of a TINYINT c0 = 127,
// a VARCHAR c1 = 'Ab', a REAL c2 = 19846.5, a NUMERIC (DECIMAL(18,3)) c3 = 79.76 and a
// REAL c4 = 63.9.
func TestDuckDB(t *testing.T) {
	row := Row{
		"t0.c0": {V: Value{C: Int, I: 127}, Type: "TINYINT"},
		"t0.c1": {V: Value{C: Text, S: "Ab"}, Type: "VARCHAR"},
		"t0.c2": {V: Value{C: Real, R: 19846.5}, Type: "REAL"},
		"t0.c3": {V: Value{C: Decimal, S: "79.76"}, Type: "NUMERIC"},
		"t0.c4": {V: Value{C: Real, R: 63.9}, Type: "REAL"},
	}
	tests := []struct{ expr, want string }{
		{"((- 7) // 2)", "i:-3"},
		{"('a%' LIKE '%\\%')", "B:false"}, // no escape character: the pattern ends in a backslash
		{"('abc' GLOB 'a*')", "B:true"},
		{"((t0.c1 COLLATE NOCASE) = 'aB')", "B:true"},
		{"concat(t0.c1, CAST(NULL AS VARCHAR), 'x')", "t:Abx"},
		{"contains(t0.c1, 'b')", "B:true"},
		{"suffix(t0.c1, 'b')", "B:true"},
		{"sign(CAST(NULL AS DECIMAL(18,4)))", "NULL"},
		{"CAST('1.5' AS DECIMAL(18,4))", "d:1.5"},
		{"(floor(t0.c4) * t0.c4)", "r:4025.7002"}, // floor keeps REAL, and REAL * REAL is a REAL
		// A common DECIMAL takes the largest scale.
		{"CAST(LEAST(t0.c3, CAST(NULL AS DECIMAL(18,4)), 259.34) AS VARCHAR)", "t:79.7600"},
		{"CAST(t0.c3 AS VARCHAR)", "t:79.760"},
	}
	for _, tc := range tests {
		n, err := Parse(tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		v, err := DuckDB{}.Eval(n, row)
		if err != nil || v.Canonical() != tc.want {
			t.Errorf("%s = %s, %v; want %s", tc.expr, v.Canonical(), err, tc.want)
		}
	}
	for _, expr := range []string{
		"CAST(t0.c2 AS DECIMAL(18,4))", // DuckDB scales a REAL in 32 bits: 19846.4992
		"(t0.c0 + 1)",                  // TINYINT + 1 overflows in DuckDB
		"CAST(CAST('1.5' AS DOUBLE) AS VARCHAR)", "lower('É')", "((t0.c1 COLLATE NOCASE) = 'é')",
		"CAST(CAST('2.5' AS DOUBLE) AS INTEGER)", "CAST('1.23456' AS DECIMAL(18,4))",
	} {
		n, err := Parse(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if v, err := (DuckDB{}).Eval(n, row); !errors.Is(err, ErrUnknown) {
			t.Errorf("%s = %s, %v; want unknown", expr, v.Canonical(), err)
		}
	}
}
