package sqlgen

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// caseText returns the setups and queries of n cases of the options, one string.
func caseText(t *testing.T, o Options, n int) string {
	t.Helper()
	o.Oracles = []string{OracleNoREC, OracleTLPWhere, OracleTLPAgg}
	o.QueriesPerDB = 4
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range uint64(n) {
		c, err := g.Generate(fuzz.CaseSeed(1, i, o.QueriesPerDB))
		if err != nil {
			t.Fatal(err)
		}
		if c.Gen != o.String() && o.Engine != "" && !strings.Contains(c.Gen, "engine="+o.Engine) {
			t.Fatalf("case's gen %q does not name engine %q", c.Gen, o.Engine)
		}
		if i%4 == 0 {
			for _, s := range c.Setup {
				b.WriteString(s)
				b.WriteByte('\n')
			}
		}
		for _, q := range c.Queries {
			b.WriteString(q.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestEngineGating checks that a generator for a build uses only what that build has, and what it
// has: SQLite 3.40 never gets concat, if or octet_length, the embedded release does; DuckDB 0.7
// never gets //.
func TestEngineGating(t *testing.T) {
	newer := []string{"(concat(", "(concat_ws(", "(unhex(", "(octet_length(", "(if("}
	math := []string{"(sin(", "(ln(", "(pow(", "(pi()"}
	tests := []struct {
		dialect, engine string
		has, lacks      []string
	}{
		{"sqlite", "", append([]string{"(iif(", "(format(", " RIGHT JOIN ", " IS DISTINCT FROM ", " STRICT", "(json_valid(",
			"ANALYZE sqlite_schema", " NULLS "}, newer...), math},
		{"sqlite", "3.54.1+json+schema-json+exact-avg+reindex-temp", append([]string{" FULL OUTER JOIN ", "(json_valid(",
			"trusted_schema", "AVG("}, newer...), append([]string{"REINDEX temp."}, math...)},
		{"sqlite", "3.40.1+json+math", append([]string{"(format(", " RIGHT JOIN ", " IS NOT DISTINCT FROM ", " STRICT", "(json_valid(",
			"SUM(", "REINDEX temp.t"}, math...), append([]string{"trusted_schema", "AVG("}, newer...)},
		{"sqlite", "3.43.0+math", []string{"(unhex(", "(octet_length(", "(sin("}, []string{"(concat(", "(concat_ws(", "(if(", "(json_valid("}},
		{"sqlite", "3.30.0", []string{"(printf(", " LEFT JOIN ", " NULLS ", "ANALYZE sqlite_master"}, append([]string{"(iif(",
			"(format(", "(substring(", "(sign(", " RIGHT JOIN ", " FULL JOIN ", " IS DISTINCT FROM ", " STRICT",
			"(json_valid(", "GENERATED ALWAYS", "trusted_schema", "analysis_limit", "sqlite_schema"}, append(math, newer...)...)},
		{"sqlite", "3.23.0", []string{"(likelihood(", "'%,d'"}, []string{" NULLS ", " ON CONFLICT DO NOTHING"}},
		{"sqlite", "3.17.0", []string{"(printf("}, []string{"'%,d'"}},
		{"duckdb", "", []string{" // ", " ILIKE "}, nil},
		{"duckdb", "0.8.0", []string{" // "}, nil},
		{"duckdb", "0.7.1", []string{" ILIKE ", " % "}, []string{" // "}},
		// ClickHouse's NOT BETWEEN is x < a OR x > b, not NOT (x BETWEEN a AND b) under NaN.
		{"clickhouse", "", []string{" BETWEEN "}, []string{" NOT BETWEEN "}},
	}
	for _, tc := range tests {
		t.Run(tc.dialect+"@"+tc.engine, func(t *testing.T) {
			text := caseText(t, Options{Dialect: tc.dialect, Engine: tc.engine}, 2000)
			for _, w := range tc.has {
				if !strings.Contains(text, w) {
					t.Errorf("no case uses %q", w)
				}
			}
			for _, w := range tc.lacks {
				if i := strings.Index(text, w); i >= 0 {
					line := text[strings.LastIndexByte(text[:i], '\n')+1:]
					line, _, _ = strings.Cut(line, "\n")
					t.Errorf("a case uses %q, which the build lacks: %s", w, line)
				}
			}
		})
	}
}

func TestEngineOption(t *testing.T) {
	tests := []struct {
		o   Options
		err string // "" when valid
	}{
		{Options{Engine: "3.40.1+json+math"}, ""},
		{Options{Engine: "v3.40"}, ""},
		{Options{Engine: "3.40.1+math+json"}, ""},
		{Options{Engine: "3.x"}, `release "3.x": want numbers`},
		{Options{Engine: "3.40.1+fts"}, `unknown feature "fts"; the sqlite dialect knows json, math, schema-json, exact-avg, reindex-temp`},
		{Options{Engine: "3.40.1+json+json"}, `feature "json" listed twice`},
		{Options{Dialect: "postgres", Engine: "15.4"}, "the postgres dialect does not adapt to engine versions"},
		{Options{Engine: "3.40 1"}, "write one word"},
	}
	for _, tc := range tests {
		t.Run(tc.o.Engine, func(t *testing.T) {
			_, err := New(tc.o)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				s := tc.o.String()
				p, err := ParseOptions(s)
				if err != nil || p.String() != s || p.Engine != tc.o.Engine {
					t.Fatalf("round trip of %q: %q, %v", s, p.String(), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("New: %v, want an error with %q", err, tc.err)
			}
		})
	}
	if s := (Options{}).String(); strings.Contains(s, "engine") {
		t.Errorf("the default options name an engine: %s", s)
	}
}

// TestGatesNameParts checks that every gate of a dialect's versioning names a part the dialect
// has, so that a renamed function or statement cannot leave its gate silently gating nothing. A
// variant dialect shares its base's versioning and may already lack what a gate names.
func TestGatesNameParts(t *testing.T) {
	for name, d := range dialects {
		if d.versioning == nil || d.base != "" {
			continue
		}
		var l lacks
		for _, g := range d.versioning.gates {
			*l.field(g.kind) = append(*l.field(g.kind), g.name)
		}
		if u := d.unknown(l); u != "" {
			t.Errorf("%s: a gate names %s, which the dialect does not have", name, u)
		}
	}
}

// TestSQLiteTextPinned pins the text the sqlite dialect writes for the NoREC and TLP oracles (a
// digest of 400 cases each): gating parts by release, variant dialects and the newer layouts must
// leave what an existing seed generates as it was. A deliberate change of the generator updates
// the digests. Cases of one check (Options.Checks) are the cases made before the option; the
// NoREC unoptimized query lost its subquery then (SELECT SUM((p) IS TRUE) FROM f).
func TestSQLiteTextPinned(t *testing.T) {
	for _, tc := range []struct {
		oracles []string
		want    string
		checks  int
	}{
		{[]string{OracleNoREC}, "b36e74a86f8c1a941b75c8c9153fdb83ca86a664dc87cd3e97531e8604aa008c", 1},
		{[]string{OracleTLPWhere}, "ca787b117a09d1584b3341380dd35811d73ec9198dc9608613c0ba5c6776e429", 1},
		{[]string{OracleTLPAgg}, "3455b09e9964b5be5eb641f31f2e6bfb2ac341811d6658e29ad11c3c66ed64cf", 1},
		{[]string{OracleNoREC, OracleTLPWhere, OracleTLPAgg}, "a5fb9244c7f0c04ebf473a6a6c2558c4d1b3bcb574259bd903146119c116dd18", 1},
		{[]string{OracleNoREC}, "85113750d19084ec711a8a6fe20d6723fa10fd5f7b5aacfd42f5882a6f8ce400", 4},
		{[]string{OracleTLPWhere}, "318172dbdcfafb324da9e46a974e2fdd5f4939a5d5b234dc8f6d4ae10b78d86d", 4},
		{[]string{OracleNoREC, OracleTLPWhere, OracleTLPAgg}, "4359ebc7657a5f500de704795157c052518cd3cc6628ff336386b06a7b6a1988", 4},
	} {
		g := mustNew(t, Options{Dialect: "sqlite", Oracles: tc.oracles, QueriesPerDB: 4, Checks: max(tc.checks, 1)})
		h := sha256.New()
		for i := range uint64(400) {
			c, err := g.Generate(fuzz.CaseSeed(1, i, 4))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.Setup {
				h.Write([]byte(s + "\n"))
			}
			for _, q := range c.Queries {
				h.Write([]byte(q.Text + "\n"))
			}
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != tc.want {
			t.Errorf("%v checks=%d: the text of the cases changed (digest %s)", tc.oracles, tc.checks, got)
		}
	}
}
