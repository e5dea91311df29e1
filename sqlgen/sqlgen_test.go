package sqlgen

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/genopts/genoptstest"
)

var (
	_ fuzz.Generator   = (*Generator)(nil)
	_ fuzz.SetupSharer = (*Generator)(nil)
	_ fuzz.Reducer     = (*Reducer)(nil)
)

func TestOptionsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"zero", Options{}, "sqlgen{dialect=sqlite oracles=norec,tlp-where queries=100 tables=3 columns=4 inserts=20 depth=3 indexes=4 views=2 from=3 distinct-views=false checks=4}"},
		{"one oracle", Options{Oracles: []string{"tlp-where"}, MaxDepth: 5}, ""},
		{"order and duplicates", Options{Oracles: []string{"tlp-where", "norec", "norec"}}, ""},
		{"none of some", Options{MaxIndexes: -1, MaxViews: -1, MaxInserts: -1, DistinctViews: true}, ""},
		{"one check", Options{Checks: 1}, "sqlgen{dialect=sqlite oracles=norec,tlp-where queries=100 tables=3 columns=4 inserts=20 depth=3 indexes=4 views=2 from=3 distinct-views=false}"},
		{"all set", Options{Dialect: "sqlite", QueriesPerDB: 7, MaxTables: 5, MaxColumns: 6, MaxInserts: 9, MaxDepth: 2, MaxIndexes: 1, MaxViews: 3, MaxFrom: 4}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.o.String()
			if tc.want != "" && s != tc.want {
				t.Fatalf("String() = %q, want %q", s, tc.want)
			}
			p, err := ParseOptions(s)
			if err != nil {
				t.Fatalf("ParseOptions(%q): %v", s, err)
			}
			if p.String() != s {
				t.Fatalf("round trip: %q -> %q", s, p.String())
			}
			if _, err := New(p); err != nil {
				t.Fatalf("New: %v", err)
			}
		})
	}
	if s := (Options{Oracles: []string{"tlp-where", "norec"}}).String(); !strings.Contains(s, "oracles=norec,tlp-where ") {
		t.Errorf("oracles not canonical: %s", s)
	}
	if s := (Options{MaxViews: -1}).String(); !strings.Contains(s, " views=0 ") {
		t.Errorf("views=-1 not printed as 0: %s", s)
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"sqlgen{dialect=oracle}", `dialect: unknown dialect "oracle"; use ` + strings.Join(dialectNames(), ", ")},
		{"sqlgen{oracles=norec,nosuch}", `oracles: unknown oracle "nosuch"; use norec, tlp-where, tlp-having`},
		{"sqlgen{oracles=}", "oracles is empty; name at least one of norec"},
		{"sqlgen{oracles=norec,norec}", "oracles: norec listed twice; name it once"},
		{"sqlgen{depth=0}", "depth=0 out of range; keep it within 1..12"},
		{"sqlgen{depth=x}", `depth="x": want an integer`},
		{"sqlgen{inserts=-1}", "inserts=-1 out of range; keep it within 0..10000"},
		{"sqlgen{distinct-views=maybe}", `distinct-views="maybe": want true or false`},
		{"sqlgen{colour=red}", `unknown key "colour"; the keys are dialect, oracles, queries`},
		{"sqlgen{depth=2 depth=3}", `key "depth" repeated; give it once`},
		{"depth=3", "want sqlgen{key=value ...}"},
		{"sqlgen{queries=70000}", "queries=70000 out of range; keep it within 1..65536"},
	} {
		if _, err := ParseOptions(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOptions(%q) error = %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
	if _, err := New(Options{Dialect: "db2"}); err == nil || !strings.Contains(err.Error(), "sqlite") {
		t.Errorf("New(db2) error = %v, want it to name sqlite", err)
	}
	if _, err := New(Options{Oracles: []string{"nosuch"}}); err == nil || !strings.Contains(err.Error(), "tlp-where") {
		t.Errorf("New(nosuch) error = %v, want it to name the valid oracles", err)
	}
	if _, err := New(Options{MaxTables: -1}); err == nil || !strings.Contains(err.Error(), "tables=-1 out of range") {
		t.Errorf("New(MaxTables: -1) error = %v, want it out of range", err)
	}
	for _, tc := range []struct{ dialect, oracle, want string }{
		{"datafusion", OracleDQE, "the dqe oracle runs UPDATE and DELETE in transactions it rolls back"},
		{"clickhouse", OracleDQE, "the dqe oracle runs UPDATE and DELETE in transactions it rolls back"},
		{"datafusion", OracleDQP, "the dqp oracle needs plan variants"},
		{"clickhouse", OracleDQP, "the dqp oracle needs plan variants"},
		{"mysql", OraclePQS, "the pqs oracle has an expression evaluator"},
		{"sqlite", OracleCERT, "the cert oracle needs the row estimates of an engine's EXPLAIN, and the sqlite dialect's engines give none"},
		{"common", OracleCERT, "several engines share no EXPLAIN: use one engine of the duckdb, mysql, postgres dialect alone"},
	} {
		if _, err := New(Options{Dialect: tc.dialect, Oracles: []string{tc.oracle}}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%s, %s) error = %v, want %q", tc.dialect, tc.oracle, err, tc.want)
		}
	}
}

// TestParseOptions checks that keys left out take their defaults (checks: 1, the meaning of the
// options stored before it), that a count written 0 is none, and that the result spells every
// default out.
func TestParseOptions(t *testing.T) {
	tests := []struct {
		in   string
		want Options
	}{
		{"sqlgen{}", Options{Checks: 1}},
		{" sqlgen{depth=4} ", Options{MaxDepth: 4, Checks: 1}},
		{"sqlgen{views=0 inserts=0 indexes=0}", Options{MaxViews: -1, MaxInserts: -1, MaxIndexes: -1, Checks: 1}},
		{"sqlgen{oracles=tlp-agg,norec distinct-views=true}", Options{Oracles: []string{"norec", "tlp-agg"}, DistinctViews: true, Checks: 1}},
		{"sqlgen{dialect=mysql queries=7 from=1}", Options{Dialect: "mysql", QueriesPerDB: 7, MaxFrom: 1, Checks: 1}},
		{"sqlgen{checks=4}", DefaultOptions()},
		{"sqlgen{checks=16 depth=2}", Options{Checks: 16, MaxDepth: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseOptions(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.want.withDefaults(); !reflect.DeepEqual(got, want) {
				t.Errorf("ParseOptions(%q) = %+v, want %+v", tc.in, got, want)
			}
		})
	}
	if d := DefaultOptions(); d.MaxInserts != DefaultMaxInserts || d.Dialect != DefaultDialect || len(d.Oracles) != 2 {
		t.Errorf("DefaultOptions() = %+v, want every default spelled out", d)
	}
}

// TestStoredOptions checks that the generator options of the recorded SQL findings read back to
// the same text, and that a generator made from them stamps its cases with that text.
// (Regenerating a stored case from its seed is cmd/polyfuzz's replay check: the generator has
// grown since most of these findings were recorded.)
func TestStoredOptions(t *testing.T) {
	genoptstest.Recorded(t, "../testdata/sql-findings", "", ParseOptions, func(t *testing.T, o Options, stored *fuzz.Case) {
		c, err := mustNew(t, o).Generate(stored.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if c.Gen != stored.Gen {
			t.Errorf("case options %q, want %q", c.Gen, stored.Gen)
		}
	})
}

func mustNew(t testing.TB, o Options) *Generator {
	t.Helper()
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func caseJSON(t testing.TB, c *fuzz.Case) string {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDeterminism(t *testing.T) {
	seeds := []uint64{0, 1, 0xdeadbeef, 1 << 63, fuzz.CaseSeed(42, 17, 100)}
	for _, o := range []Options{{}, {MaxDepth: 5, MaxFrom: 4, Oracles: []string{"norec"}}} {
		// Two generators, one walking the seeds backwards, a third concurrently: same bytes.
		g1, g2, g3 := mustNew(t, o), mustNew(t, o), mustNew(t, o)
		want := map[uint64]string{}
		for _, s := range seeds {
			c, err := g1.Generate(s)
			if err != nil {
				t.Fatal(err)
			}
			if c.Domain != "sql" || c.Gen != o.String() || c.Seed != s {
				t.Fatalf("case header = %q %q %#x", c.Domain, c.Gen, c.Seed)
			}
			want[s] = caseJSON(t, c)
		}
		for i := len(seeds) - 1; i >= 0; i-- {
			c, _ := g2.Generate(seeds[i])
			if got := caseJSON(t, c); got != want[seeds[i]] {
				t.Fatalf("seed %#x: second generator differs", seeds[i])
			}
		}
		var wg sync.WaitGroup
		for _, s := range seeds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, _ := g3.Generate(s)
				if got := caseJSON(t, c); got != want[s] {
					t.Errorf("seed %#x: concurrent generation differs", s)
				}
			}()
		}
		wg.Wait()
		// A cached setup is not shared with the case: changing one case leaves the next alone.
		c, _ := g1.Generate(seeds[0])
		c.Setup[0] = "changed"
		if c2, _ := g1.Generate(seeds[0]); caseJSON(t, c2) != want[seeds[0]] {
			t.Fatal("mutating a case changed the cached setup")
		}
	}
}

func TestSetupSharing(t *testing.T) {
	g := mustNew(t, Options{QueriesPerDB: 50})
	if g.CasesPerSetup() != 50 {
		t.Fatalf("CasesPerSetup = %d", g.CasesPerSetup())
	}
	distinctQueries := map[string]bool{}
	var first []string
	for i := 0; i < 50; i++ {
		c, _ := g.Generate(fuzz.CaseSeed(9, uint64(i), 50))
		if i == 0 {
			first = c.Setup
		} else if !slices.Equal(c.Setup, first) {
			t.Fatalf("case %d of a setup group has another setup", i)
		}
		distinctQueries[c.Params[ParamPred]] = true
	}
	if len(distinctQueries) < 45 {
		t.Errorf("only %d distinct predicates over 50 cases", len(distinctQueries))
	}
	c, _ := g.Generate(fuzz.CaseSeed(9, 50, 50))
	if slices.Equal(c.Setup, first) {
		t.Error("the next setup group has the same setup")
	}
}

func TestLayouts(t *testing.T) {
	tests := []struct {
		oracles []string
		roles   [][]string // each inner list: one of these roles must be present
	}{
		{[]string{"norec"}, [][]string{{RoleNoRECOptCount, RoleNoRECOptRows}, {RoleNoRECUnopt}}},
		{[]string{"tlp-where"}, [][]string{{RoleTLPOrig}, {RoleTLPP}, {RoleTLPNotP}, {RoleTLPNull}}},
		{nil, [][]string{{RoleNoRECOptCount, RoleNoRECOptRows}, {RoleNoRECUnopt}, {RoleTLPOrig}, {RoleTLPP}, {RoleTLPNotP}, {RoleTLPNull}}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.oracles, ","), func(t *testing.T) {
			g := mustNew(t, Options{Oracles: tc.oracles, Checks: 1})
			sawRows, sawCount, sawOrder := false, false, false
			for i := 0; i < 300; i++ {
				c, _ := g.Generate(fuzz.CaseSeed(3, uint64(i), 100))
				p, f := c.Params[ParamPred], c.Params[ParamFrom]
				if p == "" || f == "" {
					t.Fatalf("case %d: params %v", i, c.Params)
				}
				if len(c.Queries) != len(tc.roles) {
					t.Fatalf("case %d: %d queries, want %d", i, len(c.Queries), len(tc.roles))
				}
				for k, alts := range tc.roles {
					q := c.Queries[k]
					if !slices.Contains(alts, q.Role) {
						t.Fatalf("case %d: query %d has role %q, want one of %v", i, k, q.Role, alts)
					}
					if !strings.Contains(q.Text, f) {
						t.Fatalf("case %d: %s lacks the FROM clause %q: %s", i, q.Role, f, q.Text)
					}
					if q.Role != RoleTLPOrig && !strings.Contains(q.Text, p) {
						t.Fatalf("case %d: %s lacks the predicate: %s", i, q.Role, q.Text)
					}
					if strings.HasSuffix(q.Text, ";") {
						t.Fatalf("query ends with a semicolon: %s", q.Text)
					}
				}
				_, sawRows0 := c.Query(RoleNoRECOptRows)
				_, sawCount0 := c.Query(RoleNoRECOptCount)
				sawRows, sawCount = sawRows || sawRows0, sawCount || sawCount0
				if o := c.Params[ParamOrder]; o != "" {
					sawOrder = true
					if q, _ := c.Query(RoleNoRECOptRows); !strings.HasSuffix(q, " "+o) {
						t.Fatalf("ORDER BY param %q not at the end of %q", o, q)
					}
				}
				for _, s := range c.Setup {
					if strings.HasSuffix(s, ";") || strings.ContainsAny(s, "\n") {
						t.Fatalf("setup statement %q ends with ; or spans lines", s)
					}
				}
			}
			if slices.Contains(tc.oracles, "norec") && !(sawRows && sawCount && sawOrder) {
				t.Errorf("opt-rows %v, opt-count %v, order %v: want all", sawRows, sawCount, sawOrder)
			}
		})
	}
}

// TestSetupFeatures checks that the setups use the features they should, and none they must not.
func TestSetupFeatures(t *testing.T) {
	g := mustNew(t, Options{QueriesPerDB: 1})
	var all strings.Builder
	for i := 0; i < 400; i++ {
		c, _ := g.Generate(fuzz.CaseSeed(5, uint64(i), 1))
		for _, s := range c.Setup {
			all.WriteString(s)
			all.WriteByte('\n')
		}
		all.WriteString(c.Params[ParamPred] + "\n" + c.Params[ParamFrom] + "\n")
	}
	text := all.String()
	for _, want := range []string{
		"CREATE TABLE", "CREATE TEMP TABLE", "WITHOUT ROWID", "STRICT", "PRIMARY KEY (", "UNIQUE",
		"NOT NULL", "CHECK (", "DEFAULT ", "COLLATE NOCASE", "COLLATE RTRIM", "GENERATED ALWAYS AS",
		"CREATE UNIQUE INDEX", "CREATE INDEX", ") WHERE ", "CREATE VIEW", "UNION ALL", "INSERT OR IGNORE",
		"INSERT OR REPLACE", "UPDATE ", "DELETE FROM", "ANALYZE", "REINDEX", "VACUUM", "PRAGMA ",
		"sqlite_stat1", " INTEGER", " TEXT", " BLOB", " REAL", " NUMERIC", "VARCHAR(", " DOUBLE",
		"LEFT JOIN", "RIGHT JOIN", "FULL OUTER JOIN", "CROSS JOIN", "NATURAL JOIN", " LIKE ", " GLOB ",
		" ESCAPE ", " BETWEEN ", " IN (", "CASE ", "CAST(", " IS DISTINCT FROM ", " ISNULL", "||",
		"9223372036854775807", "-0.0", "1e308", "x'", "''", "printf(", "likelihood(", "zeroblob(",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no setup or query over 400 seeds contains %q", want)
		}
	}
	for _, bad := range []string{
		"random(", "randomblob(", "'now'", "changes(", "last_insert_rowid(", "total_changes(",
		" DATE", "DATETIME", "TIMESTAMP", " TIME", "BOOL", "SELECT DISTINCT", "sum(", "avg(",
	} {
		if strings.Contains(text, bad) {
			t.Errorf("a setup or query contains %q", bad)
		}
	}
}

func TestExpected(t *testing.T) {
	exp, err := Expected("sqlite")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		scope, code, msg string
		want             bool
	}{
		{"setup", "SQLITE_CONSTRAINT_UNIQUE", "UNIQUE constraint failed: t0.c0", true},
		{"query", "SQLITE_CONSTRAINT_UNIQUE", "UNIQUE constraint failed: t0.c0", true}, // an EET UPDATE
		{"query", "SQLITE_ERROR", "integer overflow", true},
		{"setup", "SQLITE_ERROR", "integer overflow", true},
		{"query", "SQLITE_TOOBIG", "string or blob too big", true},
		{"query", "SQLITE_ERROR", `near "SELEC": syntax error`, false},
		{"query", "SQLITE_CORRUPT", "database disk image is malformed", false},
		{"setup", "SQLITE_MISMATCH", "datatype mismatch", true},
	} {
		if got := exp(tc.scope, tc.code, tc.msg); got != tc.want {
			t.Errorf("Expected(%s, %s, %q) = %v, want %v", tc.scope, tc.code, tc.msg, got, tc.want)
		}
	}
	if _, err := Expected("oracle"); err == nil {
		t.Error("Expected(oracle) succeeded")
	}
	for _, bad := range []string{"setup\tX", "sometimes\tX\t.", "any\tX\t("} {
		if _, err := parseExpected("t.tsv", bad); err == nil {
			t.Errorf("parseExpected(%q) succeeded", bad)
		}
	}
}

func TestFormat(t *testing.T) {
	g := mustNew(t, Options{Checks: 1}) // a case of several checks has no shell judge (its reduced case has)
	c, _ := g.Generate(12345)
	f := Format{Dialect: "sqlite"}
	if f.Ext() != ".sql" {
		t.Fatalf("Ext = %q", f.Ext())
	}
	text := string(f.CaseText(c, nil))
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if want := len(c.Setup) + 2*len(c.Queries); len(lines) != want {
		t.Fatalf("CaseText has %d lines, want %d", len(lines), want)
	}
	for i, s := range c.Setup {
		if lines[i] != s+";" {
			t.Fatalf("line %d = %q, want %q", i, lines[i], s+";")
		}
	}
	for k, q := range c.Queries {
		if lines[len(c.Setup)+2*k] != "-- "+q.Role || lines[len(c.Setup)+2*k+1] != q.Text+";" {
			t.Fatalf("query %d printed as %q %q", k, lines[len(c.Setup)+2*k], lines[len(c.Setup)+2*k+1])
		}
	}
	some := string(f.CaseText(c, []string{RoleTLPOrig}))
	if strings.Count(some, "-- ") != 1 || !strings.Contains(some, "-- tlp.orig\n") {
		t.Fatalf("CaseText with one role:\n%s", some)
	}

	repro := string(f.Repro(c, fuzz.ReproInfo{Header: "finding: x\nseed: 1", Roles: []string{RoleTLPOrig, RoleTLPP}, Oracle: "diff"}))
	for _, want := range []string{"#!/usr/bin/env bash\n", "# finding: x\n# seed: 1\n", ":memory:", ".headers off", ".mode list", ".print '---- tlp.p'"} {
		if !strings.Contains(repro, want) {
			t.Errorf("repro lacks %q:\n%s", want, repro)
		}
	}
	sqlite, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("no sqlite3 shell to run the repro")
	}
	path := filepath.Join(t.TempDir(), "repro.sh")
	if err := os.WriteFile(path, []byte(repro), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", path)
	cmd.Env = append(os.Environ(), "SQLITE3="+sqlite)
	out, _ := cmd.CombinedOutput() // setup errors (constraint violations) are printed, not fatal
	if !strings.Contains(string(out), "---- tlp.orig\n") || !strings.Contains(string(out), "---- tlp.p\n") {
		t.Errorf("repro output lacks the role lines:\n%s", out)
	}
}

func TestShrinkCandidates(t *testing.T) {
	tests := []struct {
		in   string
		want []string // must be among the candidates
		not  []string // must not be
	}{
		{"((t0.c0 + 1) > (abs(t0.c1)))", []string{"(t0.c0 + 1)", "(abs(t0.c1))", "((t0.c0 + 1) > t0.c1)", "(t0.c0 > (abs(t0.c1)))", "NULL", "((t0.c0 + 1) > 0)"}, nil},
		{"(CASE t0.c0 WHEN 1 THEN 'a' ELSE (t0.c1 || 'b') END)", []string{"t0.c0", "'a'", "(t0.c1 || 'b')"}, nil},
		{"(CAST((t0.c0 + 2) AS TEXT))", []string{"(t0.c0 + 2)"}, []string{"TEXT"}},
		{"(t0.c0 IN (1, (t0.c1 * 3), 'x'))", []string{"t0.c0", "(t0.c1 * 3)", "'x'"}, nil},
		{"(coalesce(t0.c0, (NOT t0.c1)))", []string{"t0.c0", "(NOT t0.c1)"}, []string{"(t0.c0, (NOT t0.c1))"}},
		{"((t0.c0, 1) < (2, t0.c1))", []string{"t0.c0", "t0.c1"}, []string{"(t0.c0, 1)"}},
		{"(t0.c0 LIKE 'it''s' ESCAPE '!')", []string{"t0.c0", "'it''s'"}, nil},
		{"t0.c0", []string{"0", "1"}, nil},
	}
	for _, tc := range tests {
		got := shrinkCandidates(tc.in)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("shrink(%q) lacks %q; got %q", tc.in, w, got)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("shrink(%q) offers %q", tc.in, n)
			}
		}
		for _, c := range got {
			if len(c) >= len(tc.in) {
				t.Errorf("shrink(%q) offers %q, which is not shorter", tc.in, c)
			}
			if _, ok := matchParens(tokenize(c)); !ok {
				t.Errorf("shrink(%q) offers unbalanced %q", tc.in, c)
			}
		}
	}
}

func TestParseFrom(t *testing.T) {
	for _, in := range []string{
		"t0",
		"t0, t1",
		"t0 LEFT OUTER JOIN v0 ON ((t0.c0 = v0.c1) AND (NOT t0.c1)) CROSS JOIN t1",
		"v1 FULL JOIN t0 ON t0.c0 NATURAL JOIN t2",
		"t0 JOIN t1 ON ((t0.c0, 1) IN ((t1.c0, 2))), t2",
	} {
		items, ok := parseFrom(in)
		if !ok {
			t.Errorf("parseFrom(%q) failed", in)
			continue
		}
		if got := printFrom(items); got != in {
			t.Errorf("printFrom(parseFrom(%q)) = %q", in, got)
		}
	}
	got := fromCandidates("t0 FULL OUTER JOIN t1 ON (t0.c0 = t1.c0) JOIN v0 ON v0.c0")
	for _, w := range []string{"t1 JOIN v0 ON v0.c0", "t0 JOIN v0 ON v0.c0", "t0 FULL OUTER JOIN t1 ON (t0.c0 = t1.c0)",
		"t0 LEFT JOIN t1 ON (t0.c0 = t1.c0) JOIN v0 ON v0.c0", "t0 FULL OUTER JOIN t1 JOIN v0 ON v0.c0"} {
		if !slices.Contains(got, w) {
			t.Errorf("fromCandidates lacks %q: %q", w, got)
		}
	}
	// Generated FROM clauses all parse.
	g := mustNew(t, Options{MaxFrom: 4})
	for i := 0; i < 300; i++ {
		c, _ := g.Generate(uint64(i) * 0x9e3779b97f4a7c15)
		f := c.Params[ParamFrom]
		if items, ok := parseFrom(f); !ok || printFrom(items) != f {
			t.Fatalf("generated FROM %q does not parse back", f)
		}
	}
}

func TestInsertRowCandidates(t *testing.T) {
	got := insertRowCandidates("INSERT INTO t0(c0, c1) VALUES (1, (2 + 3)), ('a', NULL), (x'00', 4) ON CONFLICT DO NOTHING")
	want := []string{
		"INSERT INTO t0(c0, c1) VALUES ('a', NULL), (x'00', 4) ON CONFLICT DO NOTHING",
		"INSERT INTO t0(c0, c1) VALUES (1, (2 + 3)), (x'00', 4) ON CONFLICT DO NOTHING",
		"INSERT INTO t0(c0, c1) VALUES (1, (2 + 3)), ('a', NULL) ON CONFLICT DO NOTHING",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("insertRowCandidates =\n%q\nwant\n%q", got, want)
	}
	if got := insertRowCandidates("INSERT INTO t0 VALUES (1)"); got != nil {
		t.Errorf("one row: %q", got)
	}
}

// TestReducerSynthetic reduces a generated case with a keep that needs a CREATE TABLE, one INSERT
// and LIKE in the predicate, and checks that only accepted cases come back.
func TestReducerSynthetic(t *testing.T) {
	g := mustNew(t, Options{MaxDepth: 4, Checks: 1})
	reduced := 0
	for i := 0; reduced < 5 && i < 3000; i++ {
		c, _ := g.Generate(fuzz.CaseSeed(77, uint64(i), 1))
		keepFn := func(c *fuzz.Case) bool {
			tables, inserts := 0, 0
			for _, s := range c.Setup {
				switch {
				case strings.HasPrefix(s, "CREATE TABLE"), strings.HasPrefix(s, "CREATE TEMP TABLE"):
					tables++
				case strings.HasPrefix(s, "INSERT"):
					inserts++
				}
			}
			p := c.Params[ParamPred]
			if tables == 0 || inserts == 0 || !strings.Contains(p, " LIKE ") {
				return false
			}
			for _, q := range c.Queries {
				if q.Role != RoleTLPOrig && !strings.Contains(q.Text, p) || !strings.Contains(q.Text, c.Params[ParamFrom]) {
					return false
				}
			}
			return true
		}
		if !keepFn(c) {
			continue
		}
		reduced++
		accepted := map[string]bool{}
		calls := 0
		r, err := NewReducer().Reduce(context.Background(), c, func(_ context.Context, x *fuzz.Case) bool {
			calls++
			ok := keepFn(x)
			if ok {
				accepted[caseJSON(t, x)] = true
			}
			return ok
		})
		if err != nil {
			t.Fatal(err)
		}
		if !accepted[caseJSON(t, r)] {
			t.Fatalf("Reduce returned a case keep never accepted")
		}
		if len(r.Setup) != 2 {
			t.Errorf("reduced setup has %d statements, want 2: %q", len(r.Setup), r.Setup)
		}
		if !strings.HasPrefix(r.Setup[1], "INSERT") || strings.Count(r.Setup[1], "), (") > 0 {
			t.Errorf("INSERT not reduced to one row: %q", r.Setup[1])
		}
		if len(r.Params[ParamPred]) > 40 {
			t.Errorf("predicate not reduced: %q (from %q)", r.Params[ParamPred], c.Params[ParamPred])
		}
		if _, ok := parseFrom(r.Params[ParamFrom]); !ok || strings.Contains(r.Params[ParamFrom], "JOIN") || strings.Contains(r.Params[ParamFrom], ",") {
			t.Errorf("FROM not reduced to one relation: %q", r.Params[ParamFrom])
		}
		if len(r.Queries) >= len(c.Queries) {
			t.Errorf("queries of one oracle not dropped: %d", len(r.Queries))
		}
		t.Logf("%d keep calls: %q / %q / %q", calls, r.Setup, r.Params[ParamFrom], r.Params[ParamPred])
	}
	if reduced == 0 {
		t.Fatal("no case with LIKE in its predicate")
	}
}

// TestReducerCancel checks that a done context stops the reducer with an accepted case.
func TestReducerCancel(t *testing.T) {
	g := mustNew(t, Options{})
	c, _ := g.Generate(99)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	r, err := NewReducer().Reduce(ctx, c, func(context.Context, *fuzz.Case) bool {
		calls++
		if calls == 3 {
			cancel()
		}
		return true
	})
	if err != nil || r == nil {
		t.Fatalf("Reduce = %v, %v", r, err)
	}
	if calls > 3 {
		t.Errorf("keep called %d times after cancel", calls)
	}
	if _, err := NewReducer().Reduce(context.Background(), nil, nil); err == nil {
		t.Error("nil case accepted")
	}
}

func BenchmarkGenerate(b *testing.B) {
	g := mustNew(b, Options{})
	g.Generate(0) // the first setup
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Consecutive seeds of one setup, as a worker walks them.
		if _, err := g.Generate(uint64(i % 100)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGenerateSetup(b *testing.B) {
	g := mustNew(b, Options{})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g.Generate(uint64(i) << fuzz.SetupBits) // a new setup every time
	}
}

// BenchmarkGenerateParallel generates from one generator on every CPU, each goroutine walking
// setups of its own as campaign workers do, so that they share the setup cache.
func BenchmarkGenerateParallel(b *testing.B) {
	g := mustNew(b, Options{})
	var worker atomic.Uint64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		w := worker.Add(1)
		for i := uint64(0); pb.Next(); i++ {
			if _, err := g.Generate((w<<20+i/100)<<fuzz.SetupBits | i%100); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func TestListCandidates(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"t0.c0", nil},
		{"t0.c0, t1.c1", []string{"t1.c1", "t0.c0"}},
		{"a, b, c", []string{"b, c", "a, c", "a, b"}},
	}
	for _, tc := range tests {
		if got := listCandidates(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("listCandidates(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTypedDialects checks that every typed dialect's setups use its DDL and settings and that its
// queries carry every TLP layout.
func TestTypedDialects(t *testing.T) {
	tests := []struct {
		dialect string
		want    []string // substrings some setup statement must contain
	}{
		{"postgres", []string{"CREATE TABLE", "INSERT INTO", "CREATE INDEX", "CREATE VIEW", "SET enable_", "UNLOGGED"}},
		{"mysql", []string{"ENGINE=", "INSERT IGNORE", "optimizer_switch", "OPTIMIZE TABLE"}},
		{"duckdb", []string{"CREATE TABLE", "disabled_optimizers", "CHECKPOINT"}},
		{"common", []string{"CREATE TABLE", "VARCHAR(20)", "CREATE VIEW"}},
	}
	for _, tc := range tests {
		t.Run(tc.dialect, func(t *testing.T) {
			g := mustNew(t, Options{Dialect: tc.dialect, Oracles: []string{OracleNoREC, OracleTLPWhere,
				OracleTLPHaving, OracleTLPDistinct, OracleTLPGroupBy, OracleTLPAgg}})
			seen := map[string]bool{}
			for i := 0; i < 4000; i += 20 {
				c, err := g.Generate(fuzz.CaseSeed(5, uint64(i), 20))
				if err != nil {
					t.Fatal(err)
				}
				// NoREC: an optimized query per check and the sums; TLP: four queries per
				// layout, and three more per further check of tlp-where.
				k := DefaultChecks
				if want := 1 + k + 4*5 + 3*(k-1); len(c.Queries) != want {
					t.Fatalf("%d queries, want %d", len(c.Queries), want)
				}
				for _, s := range c.Setup {
					for _, w := range tc.want {
						seen[w] = seen[w] || strings.Contains(s, w)
					}
				}
			}
			for _, w := range tc.want {
				if !seen[w] {
					t.Errorf("no setup statement contains %q", w)
				}
			}
		})
	}
}

// TestChecks checks the cases of several checks (Options.Checks): NoREC's optimized query per
// check and one unoptimized query with a sum per check, TLP-WHERE's one original query and three
// partitions per check, each check's predicate in Params, deterministic, with the roles of
// fuzz.CheckRole.
func TestChecks(t *testing.T) {
	tests := []struct {
		oracles []string
		checks  int
		want    int // queries per case
	}{
		{[]string{OracleNoREC}, 1, 2},
		{[]string{OracleNoREC}, 4, 5},
		{[]string{OracleTLPWhere}, 3, 1 + 3*3},
		{[]string{OracleNoREC, OracleTLPWhere}, 4, 5 + 1 + 3*4},
		{[]string{OracleNoREC, OracleTLPAgg}, 2, 3 + 4}, // tlp-agg: one check, of predicate 0
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.oracles, tc.checks), func(t *testing.T) {
			g := mustNew(t, Options{Oracles: tc.oracles, Checks: tc.checks})
			for i := range uint64(200) {
				seed := fuzz.CaseSeed(9, i, 100)
				c, _ := g.Generate(seed)
				if again, _ := g.Generate(seed); caseJSON(t, again) != caseJSON(t, c) {
					t.Fatalf("seed %d: two different cases", seed)
				}
				if len(c.Queries) != tc.want {
					t.Fatalf("seed %d: %d queries, want %d: %v", seed, len(c.Queries), tc.want, c.Queries)
				}
				preds := []string{c.Params[ParamPred]}
				for k := 1; k < tc.checks; k++ {
					p, ok := c.Params[fuzz.CheckRole(ParamPred, k)]
					if !ok || p == "" {
						t.Fatalf("seed %d: no predicate of check %d: %v", seed, k, c.Params)
					}
					preds = append(preds, p)
				}
				if _, ok := c.Params[fuzz.CheckRole(ParamPred, tc.checks)]; ok {
					t.Fatalf("seed %d: a predicate past the last check: %v", seed, c.Params)
				}
				for _, q := range c.Queries {
					plain, k := fuzz.SplitCheck(q.Role)
					if k >= tc.checks {
						t.Fatalf("seed %d: role %s past the last check", seed, q.Role)
					}
					switch {
					case plain == RoleNoRECUnopt:
						if n := strings.Count(q.Text, "SUM("); n != tc.checks || !strings.HasSuffix(q.Text, ") FROM "+c.Params[ParamFrom]) {
							t.Fatalf("seed %d: unoptimized query with %d sums, want %d in one scan: %s", seed, n, tc.checks, q.Text)
						}
						for _, p := range preds {
							if !strings.Contains(q.Text, p) {
								t.Fatalf("seed %d: unoptimized query lacks %s: %s", seed, p, q.Text)
							}
						}
					case plain == RoleTLPOrig:
						if k != 0 {
							t.Fatalf("seed %d: original query of check %d", seed, k)
						}
					case fuzz.FamilyOf(plain) == fuzz.NoREC.Family() || fuzz.TLPWhere.Has(plain):
						if !strings.Contains(q.Text, "WHERE "+preds[k]) && !strings.Contains(q.Text, "("+preds[k]+")") {
							t.Fatalf("seed %d: %s lacks the predicate of check %d: %s", seed, q.Role, k, q.Text)
						}
					}
				}
			}
		})
	}
}

// TestReducerOneCheck checks that the reducer makes a case of several checks a case of the one
// check that fails: plain roles, one sum in the unoptimized query, one predicate in Params.
func TestReducerOneCheck(t *testing.T) {
	for _, failing := range []int{0, 2} {
		t.Run(fmt.Sprint(failing), func(t *testing.T) {
			g := mustNew(t, Options{Checks: 4})
			c, _ := g.Generate(fuzz.CaseSeed(4, 1, 100))
			bad := c.Params[fuzz.CheckRole(ParamPred, failing)]
			if failing == 0 {
				bad = c.Params[ParamPred]
			}
			// The finding: a NoREC check and a TLP check over the failing predicate.
			keep := func(_ context.Context, x *fuzz.Case) bool {
				opt, unopt, p := false, false, false
				for _, q := range x.Queries {
					plain, _ := fuzz.SplitCheck(q.Role)
					opt = opt || fuzz.FamilyOf(plain) == "norec" && plain != RoleNoRECUnopt && strings.Contains(q.Text, bad)
					unopt = unopt || plain == RoleNoRECUnopt && strings.Contains(q.Text, bad)
					p = p || plain == RoleTLPP && strings.Contains(q.Text, bad)
				}
				return opt && unopt && p
			}
			r, err := (&Reducer{MaxRounds: 1}).Reduce(context.Background(), c, keep)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Queries) != 6 {
				t.Fatalf("%d queries, want the 6 of one check: %v", len(r.Queries), r.Queries)
			}
			for _, q := range r.Queries {
				if _, k := fuzz.SplitCheck(q.Role); k != 0 {
					t.Errorf("role %s kept its check index", q.Role)
				}
				if q.Role == RoleNoRECUnopt && strings.Count(q.Text, "SUM(") != 1 {
					t.Errorf("unoptimized query with several sums: %s", q.Text)
				}
			}
			if _, ok := r.Params[fuzz.CheckRole(ParamPred, 1)]; ok {
				t.Errorf("predicates of other checks kept: %v", r.Params)
			}
			if !keep(context.Background(), r) {
				t.Error("reduced case does not keep the finding")
			}
		})
	}
}
