package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/bench"
	"github.com/polyfuzz/polyfuzz/domain/graphdom"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestBenchGraphReal checks the real graph bugs of the benchmark (bench/bugs/graph-real.json):
// each entry names its versions consistently, its recorded case is a finding of its oracle, and
// the case gives that finding on the buggy version and not on the fixed one. Each version's
// server is the one whose URL is in POLYFUZZ_<ENGINE>_URL_<VERSION> (scripts/falkordb.sh:
// falkordb_start_version). Crash entries run last, since they leave their buggy server dead.
func TestBenchGraphReal(t *testing.T) {
	bugs, err := bench.Select("graph", bench.Real)
	if err != nil {
		t.Fatal(err)
	}
	if len(bugs) == 0 {
		t.Fatal("bench/bugs/graph-real.json has no entries")
	}
	slices.SortStableFunc(bugs, func(a, b bench.Bug) int {
		return boolCmp(a.Class == "crash", b.Class == "crash")
	})
	for _, b := range bugs {
		t.Run(b.ID, func(t *testing.T) {
			if want := b.Engine + "@" + b.Version; b.Buggy != want {
				t.Errorf("buggy is %q; want %q (engine@version)", b.Buggy, want)
			}
			if b.Fixed != "" && b.FixedSpec != b.Engine+"@"+b.Fixed {
				t.Errorf("fixed_spec is %q; want %q (engine@fixed)", b.FixedSpec, b.Engine+"@"+b.Fixed)
			}
			if b.FixedSpec == "" || b.FixedSpec == b.Buggy {
				t.Fatalf("fixed_spec %q must name another version without the bug", b.FixedSpec)
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
			needGraphVersions(t, b.Buggy, b.FixedSpec)
			r, err := replayBug(context.Background(), "../..", &b)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Buggy {
				t.Errorf("on %s the case gives %q, not its finding %q", b.Buggy, r.BuggyTitle, r.Want)
			}
			if r.Fixed {
				t.Errorf("on the fixed %s the case still gives %q", b.FixedSpec, r.FixedTitle)
			}
		})
	}
}

// needGraphVersions skips the test (fails it in CI) unless a server of each NAME@VERSION spec
// has its URL in its version's variable, and sets the engine's default variable when it is unset
// (the engine flag wants a server; the engine opens the one of the right version).
func needGraphVersions(t *testing.T, specs ...string) {
	t.Helper()
	for _, spec := range specs {
		name, version, _ := strings.Cut(spec, "@")
		env := graphdom.VersionEnv(name, version)
		url := os.Getenv(env)
		if url == "" {
			testenv.Missing(t, env+" is not set: start "+spec+" (source scripts/falkordb.sh && falkordb_start_version "+
				version+" PORT; scripts/test.sh does)")
		}
		if def := "POLYFUZZ_" + strings.ToUpper(name) + "_URL"; os.Getenv(def) == "" {
			t.Setenv(def, url)
		}
	}
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
