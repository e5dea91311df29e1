package sqlgen

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestDataFusionDialect checks what the DataFusion dialect writes and what it must never write:
// the statements its in-memory tables take, and none of the DDL DataFusion refuses or does not
// enforce; NoREC counts with CASE (CAST((p) IS TRUE AS ...) under SUM fails to plan on 55.2.0).
func TestDataFusionDialect(t *testing.T) {
	g := mustNew(t, Options{Dialect: "datafusion", Oracles: []string{OracleNoREC, OracleTLPWhere, OracleTLPHaving,
		OracleTLPDistinct, OracleTLPGroupBy, OracleTLPAgg}})
	want := []string{"CREATE TABLE", "INSERT INTO", "UPDATE t", "DELETE FROM", "CREATE VIEW", "SET datafusion.",
		" NOT NULL", " DEFAULT "}
	never := []string{"CREATE INDEX", "PRIMARY KEY", "UNIQUE", "CHECK (", "COLLATE", "SYMMETRIC"}
	seen := map[string]bool{}
	for i := 0; i < 4000; i += 20 {
		c, err := g.Generate(fuzz.CaseSeed(7, uint64(i), 20))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Setup {
			for _, w := range want {
				seen[w] = seen[w] || strings.Contains(s, w)
			}
		}
		for _, s := range append(append([]string(nil), c.Setup...), texts(c.Queries)...) {
			for _, n := range never {
				if strings.Contains(s, n) {
					t.Fatalf("seed %d: %q holds %q, which DataFusion refuses or does not enforce", c.Seed, s, n)
				}
			}
		}
		for _, q := range c.Queries {
			if q.Role == RoleNoRECUnopt && (!strings.Contains(q.Text, "CASE WHEN (") || strings.Contains(q.Text, "IS TRUE AS")) {
				t.Fatalf("NoREC's unoptimized query %q does not count with CASE", q.Text)
			}
		}
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no setup statement contains %q", w)
		}
	}
}

func texts(qs []fuzz.Query) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Text
	}
	return out
}

// TestDataFusionExpected checks the expected-error table on messages DataFusion 55.2.0 gives.
func TestDataFusionExpected(t *testing.T) {
	exp, err := Expected("datafusion")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		scope, code, msg string
		want             bool
	}{
		{"query", "Arrow/DivideByZero", "Arrow error: Divide by zero error", true},
		{"query", "Arrow/Cast", "Arrow error: Cast error: Cannot cast string 'a' to value of Int32 type\n(in Optimizer rule 'simplify_expressions' failed)", true},
		{"setup", "Arrow/Cast", "Arrow error: Cast error: Can't cast value 100000 to type Int16", true},
		{"query", "Arrow/Cast", "Arrow error: Cast error: Cannot cast to Decimal128(30, 15). Overflowing on NaN", false},
		{"query", "Arrow/Cast", "Arrow error: Cast error: Cannot cast to Decimal128(18, 4). Overflowing on inf\n(in Optimizer rule 'simplify_expressions' failed)", true},
		{"query", "Arrow/Cast", "Arrow error: Cast error: Cannot cast to Decimal128(38, 27). Overflowing on 272999945400.00003", false},
		{"setup", "Arrow/Cast", "Arrow error: Cast error: Cannot cast to Decimal128(10, 2). Overflowing on NaN", true},
		{"setup", "Arrow/InvalidArgument", "Arrow error: Invalid argument error: Column 'c0' is declared as non-nullable but contains null values", true},
		{"query", "Arrow/InvalidArgument", "Arrow error: Invalid argument error: Column 'c0' is declared as non-nullable but contains null values", false},
		{"query", "Arrow/InvalidArgument", "Arrow error: Invalid argument error: Invalid comparison operation: Decimal128(11, 2) == Decimal128(10, 1)", false},
		{"query", "Internal", "Internal error: Physical input schema should be the same as the one converted from logical input schema.", false},
		{"setup", "Schema", "Schema error: No field named __common_expr_1.", false},
		{"query", "SQL/ParserError", "SQL error: ParserError(\"Expected: an expression\")", false},
		{"setup", "NotImplemented", "This feature is not implemented: Unsupported logical plan: CreateIndex", true},
		{"query", "NotImplemented", "This feature is not implemented: Unsupported logical plan: CreateIndex", false},
	} {
		if got := exp(tc.scope, tc.code, tc.msg); got != tc.want {
			t.Errorf("Expected(%s, %s, %q) = %v, want %v", tc.scope, tc.code, tc.msg, got, tc.want)
		}
	}
}
