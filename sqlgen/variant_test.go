package sqlgen

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestTursoDialectLeavesOut generates cases of the turso dialect and checks that none carries
// what the dialect data leaves out, while the sqlite dialect, from the same seeds, does.
func TestTursoDialectLeavesOut(t *testing.T) {
	absent := []struct {
		name string
		in   func(stmt string) bool
	}{
		{"WITHOUT ROWID", func(s string) bool { return strings.Contains(s, "WITHOUT ROWID") }},
		{"generated column", func(s string) bool { return strings.Contains(s, " AS (") && strings.HasPrefix(s, "CREATE TABLE") }},
		{"VACUUM", func(s string) bool { return s == "VACUUM" }},
		{"auto_vacuum", func(s string) bool { return strings.Contains(s, "auto_vacuum") }},
		{"case_sensitive_like", func(s string) bool { return strings.Contains(s, "case_sensitive_like") }},
		{"PRAGMA optimize", func(s string) bool { return s == "PRAGMA optimize" }},
		{"FULL JOIN", func(s string) bool { return strings.Contains(s, " FULL JOIN ") }},
		{"non-UTF-8 blob", func(s string) bool { return hasNonUTF8Blob(s) }},
		{"row-value BETWEEN", hasRowBetween},
	}
	count := func(dialect string) map[string]int {
		g := mustNew(t, Options{Dialect: dialect, Oracles: []string{OracleNoREC}, QueriesPerDB: 1})
		n := map[string]int{}
		for seed := uint64(0); seed < 1500; seed++ {
			c, err := g.Generate(seed << fuzz.SetupBits)
			if err != nil {
				t.Fatal(err)
			}
			stmts := append(append([]string(nil), c.Setup...), c.Queries[0].Text)
			for _, s := range stmts {
				for _, a := range absent {
					if a.in(s) {
						n[a.name]++
					}
				}
			}
		}
		return n
	}
	sqlite, turso := count("sqlite"), count("turso")
	for _, a := range absent {
		if sqlite[a.name] == 0 {
			t.Errorf("%s: the sqlite dialect never wrote it; the test checks nothing", a.name)
		}
		if turso[a.name] != 0 {
			t.Errorf("%s: the turso dialect wrote it %d times", a.name, turso[a.name])
		}
	}
}

// hasRowBetween reports whether a statement has a BETWEEN whose lower bound is a row value: a
// parenthesized operand with a comma at its top level.
func hasRowBetween(s string) bool {
	for i := strings.Index(s, " BETWEEN ("); i >= 0; i = strings.Index(s, " BETWEEN (") {
		s = s[i+len(" BETWEEN "):]
		depth, quoted := 0, false
	operand:
		for j := 0; j < len(s); j++ {
			switch c := s[j]; {
			case c == '\'':
				quoted = !quoted
			case quoted:
			case c == '(':
				depth++
			case c == ')':
				depth--
				if depth == 0 {
					break operand
				}
			case c == ',' && depth == 1:
				return true
			}
		}
	}
	return false
}

// blobLit matches a blob literal: x'..' of hex digits, not inside a text literal such as 'x'.
var blobLit = regexp.MustCompile(`(?:^|[^'\w])(x'[0-9a-f]*')`)

// hasNonUTF8Blob reports whether a statement has a blob literal whose bytes are not UTF-8.
func hasNonUTF8Blob(s string) bool {
	for _, m := range blobLit.FindAllStringSubmatch(s, -1) {
		if !utf8.Valid(hexBytes(m[1])) {
			return true
		}
	}
	return false
}

func TestBase(t *testing.T) {
	for _, tc := range []struct{ dialect, want string }{
		{"turso", "sqlite"}, {"sqlite", ""}, {"postgres", ""}, {"common", ""}, {"nosuch", ""},
	} {
		if got := Base(tc.dialect); got != tc.want {
			t.Errorf("Base(%q) = %q, want %q", tc.dialect, got, tc.want)
		}
	}
}

// TestDeriveRefusesUnknownNames checks that lacks data naming something its base does not have
// panics, so that the data cannot silently go stale.
func TestDeriveRefusesUnknownNames(t *testing.T) {
	for _, l := range []lacks{
		{features: []string{"no-such-feature"}},
		{funcs: []string{"no_such_function"}},
		{joins: []string{"SIDEWAYS JOIN"}},
		{stmts: []string{"PRAGMA no_such_pragma"}},
		{ops: []string{"IS SIDEWAYS FROM"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("derive(sqlite, %+v) did not panic", l)
				}
			}()
			derive(sqliteDialect, "x", l, "")
		}()
	}
	d := derive(sqliteDialect, "x", lacks{funcs: []string{"concat", "unhex"}, joins: []string{"RIGHT JOIN"}}, "query\t*\tx")
	for _, f := range d.funcs {
		if f.name == "concat" || f.name == "unhex" {
			t.Errorf("derived dialect kept %s", f.name)
		}
	}
	for _, j := range d.joins {
		if j.kw == "RIGHT JOIN" {
			t.Errorf("derived dialect kept RIGHT JOIN")
		}
	}
	if len(d.funcs) != len(sqliteDialect.funcs)-2 || !strings.HasSuffix(d.expected, "query\t*\tx") || d.base != "sqlite" {
		t.Errorf("derived dialect: %d functions, expected %q, base %q", len(d.funcs), d.expected[len(d.expected)-20:], d.base)
	}
}
