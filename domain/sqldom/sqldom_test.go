package sqldom

import (
	"strings"
	"testing"
)

func TestCaseDialect(t *testing.T) {
	for _, tc := range []struct{ engines, want string }{
		{"sqlite", "sqlite"},
		{"turso", "turso"},
		{"duckdb", "duckdb"},
		{"sqlite,turso", "turso"},
		{"turso,sqlite", "turso"},
		{"turso,turso", "turso"},
		{"sqlite,sqlite", "common"},
		{"sqlite,turso,duckdb", "common"},
		{"postgres,turso", "common"},
		{"mariadb,mysql", "common"},
	} {
		if got := caseDialect(strings.Split(tc.engines, ",")); got != tc.want {
			t.Errorf("caseDialect(%s) = %q, want %q", tc.engines, got, tc.want)
		}
	}
}
