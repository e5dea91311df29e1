package polyfuzz_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayering checks the import rules of DESIGN.md against `go list -deps`: imports flow
// cmd -> {campaign, reduce, generators, oracles, targets} -> fuzz.
func TestLayering(t *testing.T) {
	const mod = "github.com/polyfuzz/polyfuzz/"

	rules := []struct {
		pkg     string
		allowed []string // module packages it may depend on (prefixes)
	}{
		{"fuzz", nil},
		{"reduce", []string{"fuzz"}},
		{"oracles", []string{"fuzz"}},
		{"campaign", []string{"fuzz"}},
		{"sqlgen", []string{"fuzz", "reduce", "genopts"}},
		{"smtgen", []string{"fuzz", "reduce", "genopts", "sexpr"}},
		{"datalog", []string{"fuzz", "reduce", "genopts"}},
		{"genopts", nil},
		{"sexpr", nil},
		{"cyphergen", []string{"fuzz", "reduce", "genopts", "cypherval"}},
		{"cypherval", []string{"fuzz"}},
		{"targets/smtproc", []string{"fuzz", "targets/childproc", "sexpr"}},
		{"targets/sqlite", []string{"fuzz"}},
		{"targets/isolated", []string{"fuzz", "targets/childproc"}},
		{"targets/fault", []string{"fuzz"}},
		{"targets/childproc", nil},
		{"targets/sqlexec", []string{"fuzz"}},
		{"targets/sqlserver", []string{"fuzz", "targets/redact", "targets/unreachable"}},
		{"targets/redact", nil},
		{"targets/unreachable", nil},
		{"targets/postgres", []string{"fuzz", "targets/sqlexec", "targets/sqlserver", "targets/redact", "targets/unreachable"}},
		{"targets/mysql", []string{"fuzz", "targets/sqlexec", "targets/sqlserver", "targets/redact", "targets/unreachable"}},
		{"targets/duckdb", []string{"fuzz", "targets/sqlexec"}},
		{"targets/muz", []string{"fuzz", "targets/childproc", "sexpr"}},
		{"targets/rowserver", []string{"fuzz", "targets/childproc"}},
		{"targets/swipl", []string{"fuzz", "targets/rowserver", "targets/childproc"}},
		{"targets/clingo", []string{"fuzz", "targets/rowserver", "targets/childproc"}},
		{"targets/souffle", []string{"fuzz", "targets/childproc"}},
		{"targets/bolt", []string{"fuzz", "cypherval", "targets/redact", "targets/unreachable"}},
		{"targets/falkordb", []string{"fuzz", "cypherval", "targets/redact", "targets/unreachable"}},
		{"internal/graphtest", []string{"fuzz"}},
		{"internal/testenv", []string{"fuzz"}},
		{"internal/sqltest", []string{"fuzz"}},
	}

	for _, r := range rules {
		t.Run(r.pkg, func(t *testing.T) {
			out, err := exec.Command("go", "list", "-deps", "./"+r.pkg).CombinedOutput()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, out)
			}
			for _, dep := range strings.Fields(string(out)) {
				if !strings.HasPrefix(dep, mod) || dep == mod+r.pkg {
					continue
				}
				rel := strings.TrimPrefix(dep, mod)
				ok := false
				for _, a := range r.allowed {
					if rel == a || strings.HasPrefix(rel, a+"/") {
						ok = true
					}
				}
				if !ok {
					t.Errorf("%s imports %s, which DESIGN.md forbids (allowed: %v)", r.pkg, rel, r.allowed)
				}
			}
		})
	}
}
