package polyfuzz_test

import (
	"os/exec"
	"strings"
	"testing"
)

// rule says which packages of the module a package may depend on, directly or not. pkg is a
// package path relative to the module ("." for its root), or a path ending in "/..." for that
// package and every package under it; the most specific rule of a package applies. Each entry of
// allowed admits a package and every package under it; "..." admits the whole module.
type rule struct {
	pkg     string
	allowed []string
}

// rules are DESIGN.md's import rules: imports flow cmd -> {campaign, reduce, generators, oracles,
// targets} -> fuzz, and the per-domain wiring in domain/ joins them for cmd.
var rules = []rule{
	{".", nil},
	{"fuzz", nil},
	{"reduce", []string{"fuzz"}},
	{"oracles", []string{"fuzz"}},
	{"campaign", []string{"fuzz"}},
	{"bench", []string{"fuzz", "campaign", "targets/fault"}},
	{"genopts", nil},
	{"genopts/genoptstest", []string{"fuzz", "genopts"}},
	{"sexpr", nil},
	{"cypherval", []string{"fuzz"}},

	// Generators.
	{"sqlgen", []string{"fuzz", "reduce", "genopts", "sqlgen/sqleval"}},
	{"sqlgen/sqleval", nil},
	{"smtgen", []string{"fuzz", "reduce", "genopts", "sexpr"}},
	{"datalog", []string{"fuzz", "reduce", "genopts"}},
	{"datalog/...", []string{"fuzz", "reduce", "genopts", "datalog"}},
	{"cyphergen", []string{"fuzz", "reduce", "genopts", "cypherval"}},

	// Targets, and the packages they share.
	{"targets/childproc", nil},
	{"targets/redact", nil},
	{"targets/unreachable", nil},
	{"targets/pypi", nil},
	{"targets/fault", []string{"fuzz"}},
	{"targets/isolated", []string{"fuzz", "targets/childproc"}},
	{"targets/sqlite", []string{"fuzz"}},
	{"targets/sqlexec", []string{"fuzz"}},
	{"targets/duckdb", []string{"fuzz", "targets/sqlexec"}},
	{"targets/duckdbpy", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi"}},
	{"targets/turso", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi"}},
	{"targets/sqlitelib", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi", "targets/sqlite"}},
	{"targets/duckdblib", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi", "targets/duckdb", "targets/sqlexec"}},
	{"targets/datafusion", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi"}},
	{"targets/chdb", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi"}},
	{"targets/sqlserver", []string{"fuzz", "targets/redact", "targets/unreachable"}},
	{"targets/sqlserver/sqlservertest", []string{"fuzz", "internal/sqltest", "internal/testenv", "targets/sqlserver",
		"targets/redact", "targets/unreachable"}},
	{"targets/postgres", []string{"fuzz", "targets/sqlexec", "targets/sqlserver", "targets/redact", "targets/unreachable"}},
	{"targets/mysql", []string{"fuzz", "targets/sqlexec", "targets/sqlserver", "targets/redact", "targets/unreachable"}},
	{"targets/smtproc", []string{"fuzz", "targets/childproc", "sexpr"}},
	{"targets/smtbridge", nil},
	{"targets/z3lib", []string{"fuzz", "targets/smtproc", "targets/childproc", "sexpr"}},
	{"targets/muz", []string{"fuzz", "targets/childproc", "sexpr"}},
	{"targets/rowserver", []string{"fuzz", "targets/childproc", "targets/pypi"}},
	{"targets/rowserver/rowservertest", []string{"fuzz", "internal/sqltest", "internal/testenv"}},
	{"targets/swipl", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi"}},
	{"targets/clingo", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi"}},
	{"targets/souffle", []string{"fuzz", "targets/childproc"}},
	{"targets/cozo", []string{"fuzz", "targets/rowserver", "targets/childproc", "targets/pypi"}},
	{"targets/ascent", []string{"fuzz", "targets/childproc"}},
	{"targets/bolt", []string{"fuzz", "cypherval", "targets/redact", "targets/unreachable"}},
	{"targets/falkordb", []string{"fuzz", "cypherval", "targets/redact", "targets/unreachable"}},
	{"targets/kuzu", []string{"fuzz", "cypherval", "targets/rowserver", "targets/childproc", "targets/pypi"}},

	// Test helpers.
	{"internal/graphtest", []string{"fuzz"}},
	{"internal/testenv", []string{"fuzz"}},
	{"internal/sqltest", []string{"fuzz"}},

	// The domain table and the command ("." is the module's root, which embeds the default seeds).
	{"domain", []string{"fuzz", "campaign", "targets"}},
	{"domain/...", []string{"domain", "fuzz", "campaign", "oracles", "reduce", "sqlgen", "smtgen", "datalog", "cyphergen",
		"targets", "genopts", "cypherval", "sexpr", "."}},
	{"cmd/...", []string{"..."}},
}

// ruleFor returns the most specific rule for the package rel.
func ruleFor(rel string) (rule, bool) {
	best, found := rule{}, false
	for _, r := range rules {
		if r.pkg == rel {
			return r, true
		}
		if p, ok := strings.CutSuffix(r.pkg, "/..."); ok && (rel == p || strings.HasPrefix(rel, p+"/")) &&
			(!found || len(r.pkg) > len(best.pkg)) {
			best, found = r, true
		}
	}
	return best, found
}

// allows reports whether r admits a dependency on the package dep.
func (r rule) allows(dep string) bool {
	for _, a := range r.allowed {
		if a == "..." || dep == a || strings.HasPrefix(dep, a+"/") {
			return true
		}
	}
	return false
}

// TestLayering checks every package of the module (go list ./...) against its rule: a package
// without a rule, or with a dependency its rule does not admit, fails.
func TestLayering(t *testing.T) {
	const mod = "github.com/polyfuzz/polyfuzz"
	// -e lists a package that does not build too; stderr stays out of the listing.
	out, err := exec.Command("go", "list", "-e", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	rel := func(path string) (string, bool) {
		if path == mod {
			return ".", true
		}
		r, ok := strings.CutPrefix(path, mod+"/")
		return r, ok
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, _ := rel(f[0])
		seen[pkg] = true
		t.Run(pkg, func(t *testing.T) {
			r, ok := ruleFor(pkg)
			if !ok {
				t.Fatalf("package %s has no import rule: add one to the rules in layering_test.go that lists "+
					"the module packages it may import (see DESIGN.md, 'Layout and who may import whom')", pkg)
			}
			for _, d := range f[1:] {
				if dep, ok := rel(d); ok && dep != pkg && !r.allows(dep) {
					t.Errorf("%s imports %s, which its rule forbids (allowed: %v); fix the import, or the rule "+
						"in layering_test.go if DESIGN.md allows it", pkg, dep, r.allowed)
				}
			}
		})
	}
	for _, r := range rules {
		if !strings.HasSuffix(r.pkg, "/...") && !seen[r.pkg] {
			t.Errorf("the rule for %s names no package of the module: remove it", r.pkg)
		}
	}
}

func TestRuleFor(t *testing.T) {
	tests := []struct {
		pkg, rule string
		found     bool
	}{
		{"fuzz", "fuzz", true},
		{".", ".", true},
		{"domain", "domain", true},
		{"domain/sqldom", "domain/...", true},
		{"domain/sqldom/x", "domain/...", true},
		{"cmd/polyfuzz", "cmd/...", true},
		{"targets/sqlserver/sqlservertest", "targets/sqlserver/sqlservertest", true},
		{"targets/newengine", "", false},
		{"domainx", "", false},
	}
	for _, tc := range tests {
		r, ok := ruleFor(tc.pkg)
		if ok != tc.found || r.pkg != tc.rule {
			t.Errorf("ruleFor(%q) = %q, %v; want %q, %v", tc.pkg, r.pkg, ok, tc.rule, tc.found)
		}
	}
	allows := []struct {
		allowed []string
		dep     string
		want    bool
	}{
		{[]string{"targets"}, "targets/a/b", true},
		{[]string{"targets"}, "targets", true},
		{[]string{"targets"}, "targetsx", false},
		{[]string{"."}, ".", true},
		{[]string{"fuzz"}, ".", false},
		{[]string{"..."}, "anything/at/all", true},
		{nil, "fuzz", false},
	}
	for _, tc := range allows {
		if got := (rule{allowed: tc.allowed}).allows(tc.dep); got != tc.want {
			t.Errorf("rule allowing %v allows %s: %v, want %v", tc.allowed, tc.dep, got, tc.want)
		}
	}
}
