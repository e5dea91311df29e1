package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// debianLib is Debian's SQLite library (libsqlite3-0; SQLite 3.40.1 on bookworm).
const debianLib = "/lib/x86_64-linux-gnu/libsqlite3.so.0"

// needDebianLib skips t (fails it in CI) when Debian's SQLite library is missing.
func needDebianLib(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(debianLib); err != nil {
		testenv.Missing(t, debianLib+" is missing: install the Debian package libsqlite3-0")
	}
}

// TestSQLiteLibFaults runs NoREC and TLP-WHERE on Debian's SQLite library with a planted fault
// that drops a row of every query with a WHERE clause: each oracle reports a wrong result on the
// library's release, reduced, and replayed on the library; the cases are written for the build
// (its release and features are in their generator options).
func TestSQLiteLibFaults(t *testing.T) {
	needDebianLib(t)
	out := t.TempDir()
	stdout := runCampaign(t, 300, "sql", "--dbms", "sqlite=lib:"+debianLib, "--oracle", "norec,tlp-where",
		"--seed", fmt.Sprint(testenv.Seed(t)), "-j", "1", "--quiet", "--out", out,
		"--fault", `drop-row:^SELECT .* WHERE `, "--reduce-time", "1m")
	recs := records(t, out)
	for _, o := range []string{"norec", "tlp-where"} {
		var rec *campaign.Record
		for title, r := range recs {
			if strings.HasPrefix(title, o+": sqlite: ") && (rec == nil || r.Hits > rec.Hits) {
				rec = r
			}
		}
		if rec == nil {
			t.Errorf("oracle %s did not fire on the library:\n%s", o, stdout)
			continue
		}
		orig, red := checkFired(t, out, rec, "wrong-result")
		if !strings.Contains(orig.Gen, "engine=3.40.1+json+math}") {
			t.Errorf("%s: the case is not written for SQLite 3.40.1 with json and math: %s", rec.Title, orig.Gen)
		}
		if len(red.Setup) > 6 || len(red.Queries) > 4 {
			t.Errorf("%s: reduced case has %d setup statements and %d queries, want a handful", rec.Title, len(red.Setup), len(red.Queries))
		}
		dir := filepath.Join(out, "findings", rec.Hash)
		b, _ := os.ReadFile(filepath.Join(dir, "finding.json"))
		if !strings.Contains(string(b), `"lib": "`+debianLib+`"`) && !strings.Contains(string(b), `"lib":"`+debianLib+`"`) {
			t.Errorf("%s: the finding does not name the library it ran on:\n%s", rec.Title, b)
		}
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
	})
}
