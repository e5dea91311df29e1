package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
)

// TestSMTStylesFaults proves each SMT style beside STORM catches a planted solver fault that STORM
// alone misses with the same seeds and budget: a z3 that answers unsat when an operator occurs
// that the seed lacks and only mutation brings in (opfuzz, typefuzz; the fault is planted in the
// first of two z3s, Debian's and the z3-solver wheel's, and diff compares them), and a z3 that answers unsat when one option is set
// (options). The finding has its oracle, kind and title, is reduced and replays.
func TestSMTStylesFaults(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	if !pypi.Installed("z3-solver", "4.8.12.0") {
		testenv.Missing(t, "z3-solver==4.8.12.0 is not installed (the second z3): polyfuzz bench install z3-solver==4.8.12.0")
		return
	}
	seed := fmt.Sprint(testenv.Seed(t))
	plant := func(match string) string {
		return `[{"id":"planted","kind":"answer","match":` + fmt.Sprintf("%q", match) + `,"find":"^sat$","with":"unsat"}]`
	}
	tests := []struct {
		style, seeds, fault, oracle, title string
		extra                              []string // flags of both campaigns
		own                                []string // flags of the style's own campaign only
	}{
		{"opfuzz", "bv_bits.smt2", plant(`\(bvsmod `), "diff", "diff: z3 vs z3: answers sat vs unsat",
			[]string{"--solver", "z3", "--solver", "z3@4.8.12"}, []string{"--mutations", "8"}},
		{"typefuzz", "bv_bits.smt2", plant(`\(bvxnor `), "diff", "diff: z3 vs z3: answers sat vs unsat",
			[]string{"--solver", "z3", "--solver", "z3@4.8.12"}, []string{"--mutations", "8"}},
		{"options", "lia_schedule.smt2", plant(`\(set-option :smt\.relevancy 0\)`), "options",
			"options: z3: unsat with options, sat with defaults on a qf_lia instance",
			[]string{"--solver", "z3", "--incremental", "0"}, []string{"--settings", "6"}},
	}
	for _, tc := range tests {
		t.Run(tc.style, func(t *testing.T) {
			run := func(style string) (string, string) {
				out := t.TempDir()
				args := append([]string{"smt", "--style", style, "--fault", tc.fault,
					"--seeds", repoFile(t, "testdata/smt/"+tc.seeds), "--ref", "none", "--mutants", "50",
					"--timeout", "5s", "--seed", seed, "-j", "2", "--quiet", "--out", out, "--reduce-time", "30s"}, tc.extra...)
				if style == tc.style {
					args = append(args, tc.own...)
				}
				return out, runCampaign(t, 300, args...)
			}
			out, stdout := run(tc.style)
			rec := records(t, out)[tc.title]
			if rec == nil {
				t.Fatalf("no finding %q; got:\n%s", tc.title, stdout)
			}
			if rec.Oracle != tc.oracle {
				t.Errorf("%s: oracle %s, want %s", rec.Title, rec.Oracle, tc.oracle)
			}
			orig, red := checkFired(t, out, rec, "wrong-result")
			if a, b := len(red.Queries[0].Text), len(orig.Queries[0].Text); a >= b {
				t.Errorf("%s: reduced instance has %d bytes, the original %d", rec.Title, a, b)
			}
			if n := strings.Count(red.Queries[0].Text, "(set-option"); tc.style == "options" && n != 2 {
				t.Errorf("%s: the reduced instance sets %d options, want the planted one and produce-models", rec.Title, n)
			}
			t.Logf("%s: %d hits, reduced from %d to %d bytes:\n%s", rec.Title, rec.Hits, len(orig.Queries[0].Text),
				len(red.Queries[0].Text), red.Queries[0].Text)
			stormOut, stormStdout := run("storm")
			if recs := records(t, stormOut); len(recs) != 0 {
				for title := range recs {
					t.Errorf("STORM found %s with the same seeds and budget", title)
				}
				t.Log(stormStdout)
			}
			if !strings.Contains(stormStdout, "tests 300 ") {
				t.Errorf("the STORM campaign did not run:\n%s", stormStdout)
			}
		})
	}
}
