package sqleval

import (
	"errors"
	"testing"
)

// TestPostgres checks the rules PostgreSQL's answers taught the evaluator (most were
// disagreements), on a row of a CHAR(8) column c0 = 'ab', a REAL c1 = 0.1, a SMALLINT c2 = 32767,
// a NUMERIC(10,2) c3 = 1.5, a TEXT c4 = 'é', a NUMERIC c5 = 1.5 (of a scale not known) and a
// VARCHAR(20) c6 = 'ab '.
func TestPostgres(t *testing.T) {
	row := Row{
		"t0.c0": {V: Value{C: Text, S: "ab      "}, Type: "CHAR(8)"},
		"t0.c1": {V: Value{C: Real, R: 0.1}, Type: "REAL"},
		"t0.c2": {V: Value{C: Int, I: 32767}, Type: "SMALLINT"},
		"t0.c3": {V: Value{C: Decimal, S: "1.5"}, Type: "NUMERIC(10,2)"},
		"t0.c4": {V: Value{C: Text, S: "é"}, Type: "TEXT"},
		"t0.c5": {V: Value{C: Decimal, S: "1.5"}, Type: "NUMERIC"},
		"t0.c6": {V: Value{C: Text, S: "ab "}, Type: "VARCHAR(20)"},
	}
	tests := []struct{ expr, want string }{
		// char(n): blanks count in its value and in LIKE, not in comparisons or as text.
		{"t0.c0", "t:ab      "},
		{"(t0.c0 = 'ab ')", "B:true"},
		{"(t0.c0 LIKE 'ab')", "B:false"},
		{"(t0.c0 || 'x')", "t:abx"},
		{"length(t0.c0)", "i:2"},
		{"(t0.c0 = t0.c6)", "B:true"},                // char(n) = varchar compares as char(n)
		{"(t0.c0 = CAST(t0.c6 AS TEXT))", "B:false"}, // and = text as text
		{"COALESCE(t0.c0, t0.c6)", "t:ab      "},
		// CASE's ELSE decides between char(n) and text; NULLIF takes its operator's left type.
		{"(CASE WHEN FALSE THEN lower('a') ELSE t0.c0 END)", "t:ab      "},
		{"(CASE WHEN FALSE THEN t0.c0 ELSE lower('a') END)", "t:a"},
		{"NULLIF(t0.c0, lower('x'))", "t:ab"},
		{"NULLIF(t0.c1, CAST('3.14' AS DOUBLE PRECISION))", "r:0.1"},
		// real arithmetic stays in 32 bits.
		{"(t0.c1 + t0.c1)", "r:0.2"},
		{"(t0.c1 + CAST('0' AS DOUBLE PRECISION))", "r:0.10000000149011612"},
		// Integer widths: smallint overflows at 32767, a literal makes it int.
		{"(t0.c2 + 1)", "i:32768"},
		{"(-2147483648 / 2)", "i:-1073741824"},
		{"((- 7) % 3)", "i:-1"},
		// numeric keeps its scale in text; round halves away from zero.
		{"CAST(t0.c3 AS TEXT)", "t:1.50"},
		{"CAST((t0.c3 * 1.0) AS TEXT)", "t:1.500"},
		{"round(2.5, 0)", "d:3"},
		{"CAST(2.5 AS INT)", "i:3"},
		{"CAST(CAST('2.5' AS DOUBLE PRECISION) AS INT)", "i:2"},
		{"CAST(CAST('1e20' AS DOUBLE PRECISION) AS TEXT)", "t:1e+20"},
		{"CAST(CAST('0.1' AS DOUBLE PRECISION) AS NUMERIC)", "d:0.1"},
		// C collation: bytes order, ASCII-only case mapping.
		{"('B' < 'a')", "B:true"},
		{"upper(t0.c4)", "t:é"},
		{"initcap('éa b')", "t:éA B"},
		{"('A' ILIKE 'a')", "B:true"},
		{"('a%' LIKE '%\\%')", "B:true"},
		// NaN equals itself and sorts above everything.
		{"(CAST('NaN' AS DOUBLE PRECISION) = CAST('NaN' AS DOUBLE PRECISION))", "B:true"},
		{"(CAST('NaN' AS DOUBLE PRECISION) > CAST('Infinity' AS DOUBLE PRECISION))", "B:true"},
		// Three-valued logic, IN lists, BETWEEN SYMMETRIC.
		{"(CAST(NULL AS BOOLEAN) AND FALSE)", "B:false"},
		{"(2 IN (1, CAST(NULL AS INT)))", "NULL"},
		{"(2 NOT IN (1, 3))", "B:true"},
		{"(2 BETWEEN SYMMETRIC 3 AND 1)", "B:true"},
		{"((1 < CAST(NULL AS INT)) IS UNKNOWN)", "B:true"},
		{"GREATEST(1, CAST(NULL AS INT), 3)", "i:3"},
		{"(COALESCE(CAST(NULL AS INT), 2) + 1)", "i:3"}, // a bare call as a left operand
		{"((t0.c4 COLLATE \"C\") > 'z')", "B:true"},
		{"substr('abc', 0, 2)", "t:a"},
		{"lpad('abc', 5, 'xy')", "t:xyabc"},
		{"strpos('éab', 'b')", "i:3"},
	}
	for _, tc := range tests {
		n, err := Parse(tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		v, err := Postgres{}.Eval(n, row)
		if err != nil || v.Canonical() != tc.want {
			t.Errorf("%s = %s, %v; want %s", tc.expr, v.Canonical(), err, tc.want)
		}
	}
	// What the server refuses is unknown, wherever it stands.
	for _, expr := range []string{
		"(t0.c2 + t0.c2)", "(CASE WHEN FALSE THEN (1 / 0) ELSE 1 END)", "CAST('a' AS INT)",
		"abs(-2147483648)", "CAST(t0.c5 AS TEXT)", "(CAST('1e300' AS DOUBLE PRECISION) * CAST('1e300' AS DOUBLE PRECISION))",
		"CAST(CAST('NaN' AS DOUBLE PRECISION) AS INT)", "('ab' LIKE 'a\\')",
	} {
		n, err := Parse(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if v, err := (Postgres{}).Eval(n, row); !errors.Is(err, ErrUnknown) {
			t.Errorf("%s = %s, %v; want unknown", expr, v.Canonical(), err)
		}
	}
}
