package sqlgen

import (
	"context"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestCODDLiteral checks how each dialect writes a fetched value into a result map: exactly, or
// not at all.
func TestCODDLiteral(t *testing.T) {
	tests := []struct {
		dialect, v string
		key        bool
		want       string // "" when the value cannot be written exactly
	}{
		{"sqlite", "i:-7", true, "-7"},
		{"sqlite", "i:99999999999999999999", true, ""},
		{"sqlite", "r:1.5", true, "1.5"},
		{"sqlite", "r:100", true, "100.0"},
		{"sqlite", "r:1e+300", true, "1e+300"},
		{"sqlite", "r:+Inf", false, "1e999"},
		{"sqlite", "r:-Inf", true, "-1e999"},
		{"sqlite", "r:NaN", true, ""},
		{"sqlite", "r:-0", true, ""},
		{"sqlite", "t:it's", true, "'it''s'"},
		{"sqlite", "t:it's", false, "'it''s'"},
		{"sqlite", "t:a\x00b", true, ""},
		{"sqlite", "b:00ff", true, "X'00ff'"},
		{"sqlite", "NULL", false, "NULL"},
		{"postgres", "i:3", true, "3"},
		{"postgres", "d:1.5", true, "1.5"},
		{"postgres", "d:7", true, "7.0"},
		{"postgres", "d:NaN", true, ""},
		{"postgres", "r:0.1", true, "'0.1'"},
		{"postgres", "r:+Inf", true, ""},
		{"postgres", "t:abc", true, "'abc'"},
		{"postgres", "t:abc", false, ""},
		{"postgres", "B:true", false, "TRUE"},
		{"postgres", "B:false", true, "FALSE"},
		{"postgres", "NULL", false, "CAST(NULL AS BOOLEAN)"},
		{"postgres", "b:00", true, ""},
		{"mysql", "t:a\\b", true, ""},
		{"mysql", "t:ab", true, "'ab'"},
		{"mysql", "NULL", false, "NULL"},
		{"mysql", "i:1", false, "1"},
		{"duckdb", "r:-1.5", true, "'-1.5'"},
		{"datafusion", "d:-2", true, "CAST('-2.0' AS DECIMAL(38,10))"},
		{"duckdb", "B:maybe", true, ""},
		{"duckdb", "x:1", true, ""},
	}
	gens := map[string]*Generator{}
	for _, tc := range tests {
		g := gens[tc.dialect]
		if g == nil {
			g = mustNew(t, Options{Dialect: tc.dialect, Oracles: []string{OracleCODD}})
			gens[tc.dialect] = g
		}
		got, ok := g.coddLiteral(tc.v, tc.key)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("%s: coddLiteral(%q, key %v) = %q, %v; want %q", tc.dialect, tc.v, tc.key, got, ok, tc.want)
		}
	}
}

// TestCODDMap checks the result map written from fetched rows: one branch per distinct key, IS
// NULL for NULL columns, MySQL's binary comparison of text, and no map for rows it cannot fold.
func TestCODDMap(t *testing.T) {
	sc := &coddScope{cols: []string{"t0.c0", "t0.c1"}, types: []sqlType{tText, tBool}}
	tests := []struct {
		dialect string
		rows    [][]string
		want    string // "" when there is no map
	}{
		{"sqlite", [][]string{{"i:1", "NULL", "i:1"}, {"i:1", "NULL", "i:1"}, {"t:a", "r:2.5", "NULL"}},
			"CASE WHEN t0.c0 = 1 AND t0.c1 IS NULL THEN 1 WHEN t0.c0 = 'a' COLLATE BINARY AND t0.c1 = 2.5 THEN NULL END"},
		{"sqlite", [][]string{{"i:1", "i:2", "i:1"}, {"i:1", "i:2", "i:0"}}, ""}, // one key, two values
		{"sqlite", [][]string{{"i:1", "r:NaN", "i:1"}}, ""},
		{"sqlite", [][]string{{"i:1", "i:2"}}, ""}, // a row of another width
		{"mysql", [][]string{{"t:a", "d:1.5", "i:0"}},
			"CASE WHEN CAST(t0.c0 AS BINARY) = 'a' AND t0.c1 = 1.5 THEN 0 END"},
		{"postgres", [][]string{{"t:a", "B:true", "NULL"}},
			"CASE WHEN t0.c0 = 'a' AND t0.c1 = TRUE THEN CAST(NULL AS BOOLEAN) END"},
	}
	for _, tc := range tests {
		g := mustNew(t, Options{Dialect: tc.dialect, Oracles: []string{OracleCODD}})
		got, ok := g.coddMap(sc, tc.rows)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("%s: coddMap(%v) = %q; want %q", tc.dialect, tc.rows, got, tc.want)
		}
		if br, ok := coddBranches(got); ok && "CASE "+strings.Join(br, " ")+" END" != got {
			t.Errorf("%s: branches %q do not rebuild %q", tc.dialect, br, got)
		}
	}
	many := make([][]string, coddMaxKeys+1)
	for i := range many {
		many[i] = []string{fuzz.Int(int64(i)), "NULL", "i:1"}
	}
	if m, ok := mustNew(t, Options{Oracles: []string{OracleCODD}}).coddMap(sc, many); ok {
		t.Errorf("coddMap of %d keys = %q; want none", len(many), m)
	}
}

// TestCODDDerive checks that a case of the codd oracle alone is its fetch query, the same for the
// same seed, and that its derived queries are the map over the same FROM and the outer query
// with (φ) and with the map in its place.
func TestCODDDerive(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres", "mysql", "duckdb"} {
		g := mustNew(t, Options{Dialect: dialect, Oracles: []string{OracleCODD}})
		derived, subs := 0, 0
		for i := uint64(0); i < 200; i++ {
			seed := fuzz.CaseSeed(3, i, 20)
			c, _ := g.Generate(seed)
			c2, _ := mustNew(t, Options{Dialect: dialect, Oracles: []string{OracleCODD}}).Generate(seed)
			if len(c.Queries) != 1 || c.Queries[0].Role != RoleCODDFetch || c2.Queries[0].Text != c.Queries[0].Text {
				t.Fatalf("%s: case %d: queries %+v, again %+v; want the same fetch query", dialect, i, c.Queries, c2.Queries)
			}
			sc := g.coddScopeOf(coddRNG(seed), g.setup(fuzz.SetupSeed(seed)))
			if sc.sub != "" {
				subs++
				checkSub(t, g, c, sc)
				continue
			}
			vals := make([]string, len(sc.cols)+1)
			for k := range vals {
				vals[k] = fuzz.Int(int64(k))
			}
			qs := g.Derive(c, []fuzz.Run{{Results: []*fuzz.Result{{Status: fuzz.StatusOK, Rows: [][]string{vals}}}}})
			if len(qs) != 3 {
				t.Fatalf("%s: case %d: derived %+v; want map, orig and fold", dialect, i, qs)
			}
			derived++
			m := coddMapOf(&fuzz.Case{Queries: qs})
			if !strings.HasPrefix(m, "CASE WHEN ") || qs[0].Text != strings.Replace(c.Queries[0].Text, ", "+sc.phi+coddAlias, ", "+m+coddAlias, 1) {
				t.Errorf("%s: case %d: map query %q for fetch %q", dialect, i, qs[0].Text, c.Queries[0].Text)
			}
			if qs[1].Role != RoleCODDOrig || qs[2].Role != RoleCODDFold || strings.ReplaceAll(qs[1].Text, "("+sc.phi+")", m) != qs[2].Text {
				t.Errorf("%s: case %d: orig %q, fold %q", dialect, i, qs[1].Text, qs[2].Text)
			}
			if !strings.Contains(qs[2].Text, " WHERE "+m) && !strings.Contains(qs[2].Text, " WHERE NOT "+m) {
				t.Errorf("%s: case %d: fold %q does not start its WHERE with the map", dialect, i, qs[2].Text)
			}
		}
		if derived == 0 || subs == 0 {
			t.Errorf("%s: %d expression and %d subquery cases derived", dialect, derived, subs)
		}
	}
}

// checkSub checks the derived queries of a subquery folding for three answers of its subquery:
// two rows, one of them NULL, and none.
func checkSub(t *testing.T, g *Generator, c *fuzz.Case, sc *coddScope) {
	t.Helper()
	if c.Queries[0].Text != sc.sub || !strings.HasPrefix(sc.sub, "SELECT "+sc.subCol+" FROM ") {
		t.Fatalf("fetch %q, subquery %q", c.Queries[0].Text, sc.sub)
	}
	not := map[bool]string{true: "NOT ", false: ""}[sc.not]
	for _, rows := range [][][]string{{{"i:7"}, {"NULL"}}, nil} {
		qs := g.Derive(c, []fuzz.Run{{Results: []*fuzz.Result{{Status: fuzz.StatusOK, Rows: rows}}}})
		if len(qs) != 3 {
			t.Fatalf("derived %+v from %v; want map, orig and fold", qs, rows)
		}
		wantMap, wantFold := "SELECT 7 AS phi UNION ALL SELECT NULL AS phi", "IN (7, NULL)"
		if g.d.typed != nil && g.d.typed.castTypes[sc.subType] != "" {
			ct := g.d.typed.castTypes[sc.subType]
			wantMap = "SELECT CAST(7 AS " + ct + ") AS phi UNION ALL SELECT CAST(NULL AS " + ct + ") AS phi"
		}
		switch {
		case !sc.in && rows != nil:
			wantFold = not + "TRUE"
		case rows == nil:
			wantMap, wantFold = "SELECT NULL AS phi FROM ", not+"FALSE"
		default:
			wantFold = sc.subCol + " " + not + wantFold
		}
		wantOrig := not + "EXISTS (" + sc.sub + ")"
		if sc.in {
			wantOrig = sc.subCol + " " + not + "IN (" + sc.sub + ")"
		}
		if !strings.HasPrefix(qs[0].Text, wantMap) || !strings.HasSuffix(qs[1].Text, " WHERE "+wantOrig) ||
			!strings.HasSuffix(qs[2].Text, " WHERE "+wantFold) || strings.TrimSuffix(qs[1].Text, wantOrig) != strings.TrimSuffix(qs[2].Text, wantFold) {
			t.Errorf("rows %v: derived\n%q\n%q\n%q\nwant map %q, WHERE %q and %q", rows, qs[0].Text, qs[1].Text, qs[2].Text, wantMap, wantOrig, wantFold)
		}
	}
}

// TestCODDReduce checks the reducer's passes over a CODDTest case: the map's branches that the
// finding does not need are dropped in codd.map and codd.fold alike, and φ shrinks in codd.fetch
// and codd.orig.
func TestCODDReduce(t *testing.T) {
	m := "CASE WHEN t0.c0 = 1 THEN 1 WHEN t0.c0 = 'a''s' COLLATE BINARY THEN 0 WHEN t0.c0 IS NULL THEN NULL END"
	phi := "((t0.c0 > 0) AND (t0.c0 < 5))"
	c := &fuzz.Case{Queries: []fuzz.Query{
		{Role: RoleCODDFetch, Text: "SELECT t0.c0, " + phi + " AS phi FROM t0"},
		{Role: RoleCODDMap, Text: "SELECT t0.c0, " + m + " AS phi FROM t0"},
		{Role: RoleCODDOrig, Text: "SELECT t0.c0 FROM t0 WHERE (" + phi + ")"},
		{Role: RoleCODDFold, Text: "SELECT t0.c0 FROM t0 WHERE " + m},
	}}
	// The finding needs the branch of 1 and a φ that still reads t0.c0 > 0.
	keep := func(x *fuzz.Case) bool {
		mq, _ := x.Query(RoleCODDMap)
		fold, _ := x.Query(RoleCODDFold)
		fetch, _ := x.Query(RoleCODDFetch)
		orig, _ := x.Query(RoleCODDOrig)
		xm := coddMapOf(x)
		return strings.Contains(xm, "WHEN t0.c0 = 1 THEN 1") && strings.Contains(mq, xm) && strings.Contains(fold, " WHERE "+xm) &&
			strings.Contains(fetch, "t0.c0 > 0") && strings.Contains(orig, "t0.c0 > 0")
	}
	var best *fuzz.Case
	try := func(x *fuzz.Case) bool {
		if keep(x) {
			best = x
			return true
		}
		return false
	}
	NewReducer().shrinkCODD(context.Background(), c, try)
	if best == nil {
		t.Fatal("nothing kept")
	}
	want := []string{
		"SELECT t0.c0, (t0.c0 > 0) AS phi FROM t0",
		"SELECT t0.c0, CASE WHEN t0.c0 = 1 THEN 1 END AS phi FROM t0",
		"SELECT t0.c0 FROM t0 WHERE ((t0.c0 > 0))",
		"SELECT t0.c0 FROM t0 WHERE CASE WHEN t0.c0 = 1 THEN 1 END",
	}
	for i, q := range best.Queries {
		if q.Text != want[i] {
			t.Errorf("%s = %q; want %q", q.Role, q.Text, want[i])
		}
	}
}
