package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestDomainTable walks the domain table: in every domain, through the same code, a short
// campaign with a planted fault stores a reduced finding, which replays, reduces again and shows
// in the report; and compare runs one style of the domain.
func TestDomainTable(t *testing.T) {
	seed := "7"
	cases := map[string]struct {
		need    []string // engines the domain's row needs here
		engines []string // the campaign's engines and the domain's own flags
		oracle  string   // the campaign's oracle, and the style compare runs
		fault   []string
		tests   string
	}{
		"sql": {nil, []string{"--dbms", "sqlite"}, "norec", []string{"--fault", "drop-row:WHERE"}, "300"},
		"smt": {[]string{"z3", "mawk"}, []string{"--solver-cmd", repoFile(t, "testdata/smt-faults/unsat.sh"), "--mutants", "20",
			"--incremental", "0"}, "sat", nil, "30"},
		"datalog": {nil, []string{"--engine", "ref", "--ref=false"}, "metamorphic", []string{"--fault", "drop-row:transformed"}, "100"},
		"graph":   {nil, []string{"--engine", "ref", "--ref=false"}, "partition", []string{"--fault", "drop-row:WHERE"}, "100"},
	}
	if len(cases) != len(domains) {
		t.Fatalf("the test covers %d domains, the table has %d", len(cases), len(domains))
	}
	for _, d := range domains {
		tc, ok := cases[d.Name]
		if !ok {
			t.Fatalf("domain %s has no row in this test", d.Name)
		}
		t.Run(d.Name, func(t *testing.T) {
			for _, e := range tc.need {
				testenv.NeedEngine(t, e)
			}
			out := t.TempDir()
			args := append([]string{d.Name, "--out", out, "--seed", seed, "-j", "1", "--tests", tc.tests, "--max-findings", "1",
				"--confirm", "1", "--reduce-time", "20s", "--quiet", "--oracle", tc.oracle}, append(tc.engines, tc.fault...)...)
			code, stdout, stderr := polyfuzz(t, args...)
			if code != 0 {
				t.Fatalf("%s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
			}
			recs := records(t, out)
			if len(recs) == 0 {
				t.Fatalf("no finding:\n%s", stdout)
			}
			for _, rec := range recs {
				if planted := tc.fault != nil; strings.HasPrefix(rec.Title, "[planted fault] ") != planted || (rec.Fault != "") != planted || rec.Domain != d.Name {
					t.Errorf("finding %q (fault %q, domain %s) is not marked as planted in %s", rec.Title, rec.Fault, rec.Domain, d.Name)
				}
				dir := filepath.Join(out, "findings", rec.Hash)
				checkReplayed(t, out, rec, rec.Kind.String())
				if code, rout, rerr := polyfuzz(t, "reduce", "--reduce-time", "20s", dir); code != 0 || !strings.Contains(rout, "replayed") {
					t.Errorf("reduce %s: exit %d\n%s%s", dir, code, rout, rerr)
				}
			}
			if code, rout, rerr := polyfuzz(t, "report", out); code != 0 {
				t.Errorf("report: exit %d\n%s%s", code, rout, rerr)
			}
			if b, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil || strings.Contains(string(b), `class="planted"`) != (tc.fault != nil) {
				t.Errorf("report.html does not show whether the finding is planted: %v", err)
			}
			cmp := filepath.Join(out, "compare")
			cargs := append([]string{"compare", "--domain", d.Name, "--out", cmp, "--seed", seed, "--repeat", "1", "--tests", tc.tests,
				"--oracle", tc.oracle}, tc.engines...)
			if code, cout, cerr := polyfuzz(t, cargs...); code != 0 || !strings.Contains(cout, "| "+tc.oracle+" | 1 | ") {
				t.Errorf("%s: exit %d\n%s%s", strings.Join(cargs, " "), code, cout, cerr)
			}
		})
	}
}

// TestEngineVersions checks NAME@VERSION in engine flags: a versioned server's DSN comes from its
// version's variable before the engine's, and the version is kept in the spec.
func TestEngineVersions(t *testing.T) {
	t.Setenv("POLYFUZZ_FALKORDB_URL", "redis://127.0.0.1:1")
	t.Setenv("POLYFUZZ_FALKORDB_URL_4_14_2", "redis://127.0.0.1:2")
	t.Setenv("POLYFUZZ_FALKORDB_URL_4_22_1", "") // the test script starts this release
	d, _ := findDomain("graph")
	for _, tc := range []struct{ arg, version, dsn string }{
		{"falkordb", "", "redis://127.0.0.1:1"},
		{"falkordb@4.14.2", "4.14.2", "redis://127.0.0.1:2"},
		{"falkordb@4.22.1", "4.22.1", "redis://127.0.0.1:1"},
		{"falkordb@4.14.2=redis://127.0.0.1:3", "4.14.2", "redis://127.0.0.1:3"},
	} {
		specs, err := d.EngineArgs([]string{tc.arg}, domain.Spec{})
		if err != nil || specs[0].Version != tc.version || specs[0].DSN != tc.dsn {
			t.Errorf("%s: %+v, %v; want version %q at %s", tc.arg, specs, err, tc.version, tc.dsn)
		}
	}
	if _, err := d.EngineArgs([]string{"falkordb@4.14.2", "falkordb@4.22.1"}, domain.Spec{}); err != nil {
		t.Errorf("two releases of one engine side by side: %v", err)
	}
	if _, err := d.EngineArgs([]string{"falkordb@4.14.2", "falkordb@4.14.2"}, domain.Spec{}); err == nil {
		t.Error("one release given twice is accepted")
	}
}
