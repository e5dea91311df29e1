package sqlgen

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// pgPlan is a PostgreSQL EXPLAIN answer: one row per line.
func pgPlan(lines ...string) *fuzz.Result {
	r := &fuzz.Result{Status: fuzz.StatusOK}
	for _, l := range lines {
		r.Rows = append(r.Rows, []string{"t:" + l})
	}
	return r
}

// duckPlan is a DuckDB EXPLAIN (FORMAT json) answer.
func duckPlan(json string) *fuzz.Result {
	return &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"t:physical_plan", "t:" + json}}}
}

func TestKnownCERT(t *testing.T) {
	const duckScan = `{"name":"SEQ_SCAN","children":[],"extra_info":{"Estimated Cardinality":"2"}}`
	pgRows := func(top string, n string) *fuzz.Result {
		return pgPlan(top+"  (cost=0.00..9.00 rows="+n+" width=8)", "  ->  Seq Scan on t0  (cost=0.00..1.00 rows=10 width=4)")
	}
	duck := func(est string, ops string) *fuzz.Result {
		return duckPlan(`[{"name":"PROJECTION","extra_info":{"Estimated Cardinality":"` + est + `"},"children":[` + ops + `]}]`)
	}
	cross := `{"name":"CROSS_PRODUCT","extra_info":{},"children":[` + duckScan + `,` + duckScan + `]}`
	nlj := `{"name":"BLOCKWISE_NL_JOIN","extra_info":{},"children":[` + duckScan + `,` + duckScan + `]}`
	filter := `{"name":"FILTER","extra_info":{"Estimated Cardinality":"1"},"children":[` + duckScan + `]}`
	tests := []struct {
		name, dialect, mut, from, pred, pred2 string
		orig, mutant                          *fuzz.Result
		want                                  string
	}{
		{"outer join, and", "postgres", mutAnd, "t0 LEFT JOIN t1 ON (TRUE)", "(t0.c0 > 1)", "", pgRows("Hash Left Join", "11"), pgRows("Hash Join", "753"), KnownOuterJoinEstimate},
		{"outer join, limit", "postgres", mutLimit, "t0 LEFT JOIN t1 ON (TRUE)", "(t0.c0 > 1)", "", pgRows("Limit", "1"), pgRows("Limit", "2"), ""},
		{"self equality in or", "postgres", mutOr, "t2", "(t2.c3 = t2.c3)", "", pgRows("Seq Scan on t2", "1373"), pgRows("Seq Scan on t2", "693"), KnownSelfEquality},
		{"negated self inequality in or", "postgres", mutOr, "t0", "(NOT (t0.c1 <> t0.c1))", "", pgRows("Seq Scan on t0", "1323"), pgRows("Seq Scan on t0", "13"), KnownSelfEquality},
		{"self membership in or", "postgres", mutOr, "t0", "(t0.c1 IN (t0.c1))", "", pgRows("Seq Scan on t0", "1761"), pgRows("Seq Scan on t0", "596"), KnownSelfEquality},
		{"negated self membership in or", "postgres", mutOr, "t0", "(NOT (t0.c1 IN (t0.c1)))", "", pgRows("Seq Scan on t0", "1761"), pgRows("Seq Scan on t0", "596"), ""},
		{"negated self equality in or", "postgres", mutOr, "t0", "(NOT (t0.c1 = t0.c1))", "", pgRows("Seq Scan on t0", "1323"), pgRows("Seq Scan on t0", "13"), ""},
		{"self membership, a list", "postgres", mutOr, "t0", "(t0.c2 IN (t0.c2, t0.c2, t0.c2))", "", pgRows("Seq Scan on t0", "1194"), pgRows("Seq Scan on t0", "412"), KnownSelfEquality},
		{"a view's columns", "postgres", mutOr, "v0", "(v0.c0 IN (v0.c1))", "", pgRows("Seq Scan on t1", "1502"), pgRows("Seq Scan on t1", "68"), KnownSelfEquality},
		{"folded to a self equality", "postgres", mutOr, "t0", "(FALSE OR (t0.c1 = t0.c1))", "", pgPlan("Seq Scan on t0  (cost=0.00..30.40 rows=2129 width=10)", "  Filter: (c1 IS NOT NULL)"), pgRows("Seq Scan on t0", "720"), KnownSelfEquality},
		{"a table's two columns", "postgres", mutOr, "t0", "(t0.c0 = t0.c1)", "", pgRows("Seq Scan on t0", "1502"), pgRows("Seq Scan on t0", "68"), ""},
		{"two columns in or", "postgres", mutOr, "t2", "(t2.c3 = t2.c2)", "", pgRows("Seq Scan on t2", "1373"), pgRows("Seq Scan on t2", "693"), ""},
		{"join clause", "postgres", mutOr, "t1 JOIN t0 ON (t1.c2 IS NULL)", "(t1.c2 IS NOT DISTINCT FROM NULL)", "(((CASE t1.c0 WHEN t0.c1 THEN t1.c2 END) + t1.c2) IS NULL)", pgRows("Nested Loop", "3"), pgRows("Nested Loop", "1"), KnownJoinClause},
		{"a BETWEEN over two relations", "postgres", mutOr, "t0 JOIN t2 ON (TRUE)", "(t0.c2 BETWEEN 0 AND t2.c3)", "(t2.c3 IS NULL)", pgRows("Nested Loop", "543"), pgRows("Nested Loop", "188"), KnownJoinClause},
		{"a comparison over two relations", "postgres", mutOr, "t0 JOIN t2 ON (TRUE)", "(t0.c2 > t2.c3)", "(t2.c3 IS NULL)", pgRows("Nested Loop", "543"), pgRows("Nested Loop", "188"), ""},
		{"no entry, a join", "postgres", mutOr, "t1 JOIN t0 ON (TRUE)", "(t1.c1 > 0)", "", pgRows("Nested Loop", "1124"), pgRows("Nested Loop", "1000"), ""},
		{"no entry, one table", "postgres", mutOr, "t1", "(t1.c1 > 0)", "", pgRows("Seq Scan on t1", "1124"), pgRows("Seq Scan on t1", "1120"), ""},
		{"default selectivity", "duckdb", mutOr, "t0", "(t0.c0 > 1)", "", duck("30", duckScan), duck("6", duckScan), KnownDefaultSelectivity},
		{"one more filter", "duckdb", mutOr, "v0", "(v0.c0 > 1)", "", duck("4", duckScan), duck("2", filter), KnownPlanShape},
		{"cross product made a join", "duckdb", mutOr, "v0, t1", "(v0.c0 > 1)", "", duck("6", cross), duck("3", nlj), KnownPlanShape},
		{"same shape, limit", "duckdb", mutLimit, "v0, t1", "(v0.c0 > 1)", "", duck("3", cross), duck("6", cross), ""},
		{"outer join in a view", "postgres", mutAnd, "v0", "(v0.c0 > 1)", "", pgRows("Hash Right Join", "2"), pgRows("Hash Join", "4"), KnownOuterJoinEstimate},
		{"or, any ratio", "duckdb", mutOr, "t0", "(t0.c0 > 1)", "", duck("9", duckScan), duck("3", duckScan), KnownDefaultSelectivity},
		{"no-where, unexplained", "duckdb", mutNoWhere, "t0", "(t0.c0 > 1)", "", duck("30", duckScan), duck("12", duckScan), ""},
		{"and, any ratio", "duckdb", mutAnd, "t0", "(t0.c0 > 1)", "", duck("1", duckScan), duck("3", duckScan), KnownDefaultSelectivity},
		{"limit, another shape", "duckdb", mutLimit, "t0", "(t0.c0 > 1)", "", duck("1", duckScan), duck("3", filter), ""},
		{"limit, unexplained", "duckdb", mutLimit, "t0", "(t0.c0 > 1)", "", duck("1", duckScan), duck("3", duckScan), ""},
		{"no catalogue", "mysql", mutOr, "t0 LEFT JOIN t1 ON (TRUE)", "(t0.c0 > 1)", "", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fuzz.Case{
				Params:  map[string]string{ParamMut: tt.mut, ParamFrom: tt.from, ParamPred: tt.pred, ParamPred2: tt.pred2},
				Queries: []fuzz.Query{{Role: RoleCERTOrig}, {Role: RoleCERTMut}},
			}
			f := &fuzz.Finding{Oracle: "cert", Case: c}
			if tt.orig != nil {
				f.Runs = []fuzz.Run{{Target: tt.dialect, Results: []*fuzz.Result{tt.orig, tt.mutant}}}
			}
			if got := knownCERT(tt.dialect)(f); got != tt.want {
				t.Errorf("knownCERT(%s) = %q, want %q", tt.dialect, got, tt.want)
			}
		})
	}
}

func TestKnownNaNBits(t *testing.T) {
	rows := func(vals ...string) *fuzz.Result {
		r := &fuzz.Result{Status: fuzz.StatusOK}
		for _, v := range vals {
			r.Rows = append(r.Rows, []string{v})
		}
		return r
	}
	tests := []struct {
		name, dialect, oracle string
		res                   *fuzz.Result
		want                  string
	}{
		{"two NaN rows", "clickhouse", "tlp-distinct", rows("r:NaN", "r:NaN"), KnownNaNBits},
		{"two NaN groups", "clickhouse", "tlp-groupby", rows("r:1", "r:NaN", "r:NaN"), KnownNaNBits},
		{"one NaN", "clickhouse", "tlp-distinct", rows("r:NaN", "r:1", "r:1"), ""},
		{"another oracle", "clickhouse", "tlp-where", rows("r:NaN", "r:NaN"), ""},
		{"another engine", "duckdb", "tlp-distinct", rows("r:NaN", "r:NaN"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fuzz.Finding{Oracle: tt.oracle, Case: &fuzz.Case{}, Runs: []fuzz.Run{{Target: tt.dialect, Results: []*fuzz.Result{tt.res}}}}
			if got := Known(tt.dialect)(f); got != tt.want {
				t.Errorf("Known(%s) = %q, want %q", tt.dialect, got, tt.want)
			}
		})
	}
}
