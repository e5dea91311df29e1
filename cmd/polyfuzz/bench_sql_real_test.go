package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/polyfuzz/polyfuzz/bench"
)

// TestBenchSQLReal checks the real SQL bugs of the benchmark (bench/bugs/sql-real.json): each
// entry names its versions consistently (buggy is ENGINE@version, fixed_spec ENGINE@fixed, both
// wheels in install), its recorded case is a finding of its oracle, and the case gives that
// finding on the buggy release and not on the fixed one.
func TestBenchSQLReal(t *testing.T) {
	bugs, err := bench.Select("sql", bench.Real)
	if err != nil {
		t.Fatal(err)
	}
	if len(bugs) == 0 {
		t.Fatal("bench/bugs/sql-real.json has no entries")
	}
	for _, b := range bugs {
		t.Run(b.ID, func(t *testing.T) {
			if want := b.Engine + "@" + b.Version; b.Buggy != want {
				t.Errorf("buggy is %q; want %q (engine@version)", b.Buggy, want)
			}
			if b.Fixed != "" {
				if want := b.Engine + "@" + b.Fixed; b.FixedSpec != want {
					t.Errorf("fixed_spec is %q; want %q (engine@fixed)", b.FixedSpec, want)
				}
			}
			for _, v := range []string{b.Version, b.Fixed} {
				if v != "" && !slices.Contains(b.Install, "pypi:duckdb=="+v) && b.Engine == "duckdb" {
					t.Errorf("install %v lacks pypi:duckdb==%s", b.Install, v)
				}
			}
			var rec struct {
				Oracle string `json:"oracle"`
				Domain string `json:"domain"`
			}
			data, err := os.ReadFile(filepath.Join("../..", b.Case, "finding.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Oracle != b.Oracle || rec.Domain != b.Domain {
				t.Errorf("the recorded case is a %s finding of %s; the entry says %s of %s", rec.Oracle, rec.Domain, b.Oracle, b.Domain)
			}
			needBugEngines(t, &b)
			r, err := replayBug(context.Background(), "../..", &b)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Buggy {
				t.Errorf("on %s the case gives %q, not its finding %q", b.Buggy, r.BuggyTitle, r.Want)
			}
			if r.HasFixed && r.Fixed {
				t.Errorf("on the fixed %s the case still gives %q", b.FixedSpec, r.FixedTitle)
			}
		})
	}
}
