package sqlgen

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

//go:embed expected_sqlite.tsv
var expectedSQLite string

// Scopes of [Expected]: an error on a setup statement or on a query.
const (
	ScopeSetup = "setup"
	ScopeQuery = "query"
)

type expectRule struct {
	scope string // "setup", "query" or "any"
	code  string // result-code name or "*"
	re    *regexp.Regexp
}

// parseExpected reads an expected-errors table (see expected_sqlite.tsv).
func parseExpected(name, text string) ([]expectRule, error) {
	var rules []expectRule
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("sqlgen: %s:%d: want 3 tab-separated columns, got %d", name, i+1, len(f))
		}
		switch f[0] {
		case "setup", "query", "any":
		default:
			return nil, fmt.Errorf("sqlgen: %s:%d: scope %q is not setup, query or any", name, i+1, f[0])
		}
		re, err := regexp.Compile(f[2])
		if err != nil {
			return nil, fmt.Errorf("sqlgen: %s:%d: %v", name, i+1, err)
		}
		rules = append(rules, expectRule{scope: f[0], code: f[1], re: re})
	}
	return rules, nil
}

// Expected returns the expected-error test of a dialect: whether an engine error with the given
// result code name and message, on a generated statement in scope "setup" or "query", is one the
// generator knowingly provokes (a constraint violation on random data, an integer overflow, ...)
// rather than a finding. The rules are data, embedded from expected_<dialect>.tsv.
func Expected(dialect string) (func(scope, code, msg string) bool, error) {
	d, ok := dialects[dialect]
	if !ok {
		return nil, fmt.Errorf("sqlgen: unknown dialect %q (valid: %s)", dialect, strings.Join(dialectNames(), ", "))
	}
	rules, err := parseExpected("expected_"+d.name+".tsv", d.expected)
	if err != nil {
		return nil, err
	}
	return func(scope, code, msg string) bool {
		for i := range rules {
			r := &rules[i]
			if (r.scope == "any" || r.scope == scope) && (r.code == "*" || r.code == code) && r.re.MatchString(msg) {
				return true
			}
		}
		return false
	}, nil
}
