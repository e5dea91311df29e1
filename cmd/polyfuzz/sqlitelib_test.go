package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/duckdblib"
)

// debianLib is Debian's SQLite library (libsqlite3-0; SQLite 3.40.1 on bookworm).
const debianLib = "/lib/x86_64-linux-gnu/libsqlite3.so.0"

// TestLibFaults runs NoREC and TLP-WHERE on library builds older than the engines polyfuzz
// embeds (Debian's SQLite 3.40.1, DuckDB 1.2.2's libduckdb.so) with a planted fault that drops a
// row of every query with a WHERE clause: each oracle reports a wrong result on the library's
// release, reduced, and replayed on the library; the cases are written for the build (its
// release and features are in their generator options), and the finding names the library.
func TestLibFaults(t *testing.T) {
	cases := []struct {
		engine, lib, gen, fix string
		tests                 int
	}{
		{"sqlite", debianLib, "engine=3.40.1+json+math}", "install the Debian package libsqlite3-0", 300},
		{"duckdb", duckdblib.TestLib(), "engine=" + duckdblib.TestLibVersion + "}", "run scripts/duckdblib.sh", 150},
	}
	for _, c := range cases {
		t.Run(c.engine, func(t *testing.T) {
			if _, err := os.Stat(c.lib); err != nil {
				testenv.Missing(t, c.lib+" is missing: "+c.fix)
			}
			out := t.TempDir()
			stdout := runCampaign(t, c.tests, "sql", "--dbms", c.engine+"=lib:"+c.lib, "--oracle", "norec,tlp-where",
				"--seed", fmt.Sprint(testenv.Seed(t)), "-j", "1", "--quiet", "--out", out,
				"--fault", `drop-row:^SELECT .* WHERE `, "--reduce-time", "1m")
			recs := records(t, out)
			for _, o := range []string{"norec", "tlp-where"} {
				var rec *campaign.Record
				for title, r := range recs {
					if strings.HasPrefix(title, o+": "+c.engine+": ") && (rec == nil || r.Hits > rec.Hits) {
						rec = r
					}
				}
				if rec == nil {
					t.Errorf("oracle %s did not fire on the library:\n%s", o, stdout)
					continue
				}
				orig, red := checkFired(t, out, rec, "wrong-result")
				if !strings.Contains(orig.Gen, c.gen) {
					t.Errorf("%s: the case is not written for the library's build (%s): %s", rec.Title, c.gen, orig.Gen)
				}
				if len(red.Setup) > 6 || len(red.Queries) > 4 {
					t.Errorf("%s: reduced case has %d setup statements and %d queries, want a handful", rec.Title, len(red.Setup), len(red.Queries))
				}
				dir := filepath.Join(out, "findings", rec.Hash)
				b, _ := os.ReadFile(filepath.Join(dir, "finding.json"))
				if !strings.Contains(string(b), `"lib": "`+c.lib+`"`) && !strings.Contains(string(b), `"lib":"`+c.lib+`"`) {
					t.Errorf("%s: the finding does not name the library it ran on:\n%s", rec.Title, b)
				}
			}
		})
	}
}

// TestSQLiteLibBadInput checks the errors for a library that cannot be tested.
func TestSQLiteLibBadInput(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "libsqlite3.so")
	os.WriteFile(text, []byte("not a library"), 0o644)
	checkBadInputs(t, []badInput{
		{"missing library", []string{"sql", "--dbms", "sqlite=lib:/nonexistent/libsqlite3.so"}, 2,
			"--dbms sqlite=lib:/nonexistent/libsqlite3.so: no such file"},
		{"no path", []string{"sql", "--dbms", "sqlite=lib:"}, 2, "--dbms sqlite=lib: names no file"},
		{"directory", []string{"sql", "--dbms", "sqlite=lib:" + dir}, 2, "is a directory"},
		{"engine without libraries", []string{"sql", "--dbms", "postgres=lib:" + text}, 2, "--dbms postgres takes no library"},
		{"version and library", []string{"sql", "--dbms", "sqlite@3.40=lib:" + text}, 2, "not both"},
		{"not a library", []string{"sql", "--tests", "1", "--dbms", "sqlite=lib:" + text}, 2, "sqlite lib: cannot load " + text},
		{"missing DuckDB library", []string{"sql", "--dbms", "duckdb=lib:/nonexistent/libduckdb.so"}, 2,
			"--dbms duckdb=lib:/nonexistent/libduckdb.so: no such file: give duckdb=lib:PATH (a DuckDB library"},
		{"not a DuckDB library", []string{"sql", "--tests", "1", "--dbms", "duckdb=lib:" + text}, 2, "duckdb lib: cannot load " + text},
		{"DuckDB version and library", []string{"sql", "--dbms", "duckdb@1.2.2=lib:" + text}, 2, "not both"},
	})
}
