package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestSMTFusionFindsPlantedFault plants a z3 that reads bvxor as bvor. Only semantic fusion's
// fusion and inversion functions bring bvxor into instances over the bit-vector seed, so the
// fusion style finds the fault (an invalid model, or a wrong answer), reduced and replaying, and
// the storm style on the same seed, fault and number of tests finds nothing.
func TestSMTFusionFindsPlantedFault(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	const plant = `[{"id":"bvxor-as-bvor","kind":"rewrite","match":"\\(bvxor ","find":"\\(bvxor ","with":"(bvor "}]`
	seed := fmt.Sprint(testenv.Seed(t))
	run := func(style string) (string, string) {
		out := t.TempDir()
		stdout := runCampaign(t, 100, "smt", "--style", style, "--seeds", repoFile(t, "testdata/smt/bv_bits.smt2"),
			"--fault", plant, "--mutants", "10", "--seed", seed, "-j", "1", "--quiet", "--out", out, "--reduce-time", "30s")
		return out, stdout
	}
	out, stdout := run("fusion")
	kinds := map[string]string{
		"model: z3: invalid model of a qf_bv instance":    "invalid-model",
		"sat: z3: unsat on a satisfiable qf_bv instance":  "wrong-result",
		"sat: z3: sat on an unsatisfiable qf_bv instance": "wrong-result",
	}
	found := 0
	for title, rec := range records(t, out) {
		kind, ok := kinds[title]
		if !ok {
			t.Errorf("unexpected finding %q", title)
			continue
		}
		if rec.Fault == "" {
			t.Errorf("%s is not marked as planted", title)
		}
		found++
		orig, red := checkReplayed(t, out, rec, kind)
		if !strings.Contains(orig.Queries[0].Text, "(bvxor ") || !strings.Contains(red.Queries[0].Text, "(bvxor ") {
			t.Errorf("%s: the case or its reduction has no bvxor", title)
		}
		t.Logf("%s (%d hits): reduced from %d to %d bytes", title, rec.Hits, len(orig.Queries[0].Text), len(red.Queries[0].Text))
	}
	if found == 0 {
		t.Fatalf("fusion found no planted fault:\n%s", stdout)
	}
	out, stdout = run("storm")
	if recs := records(t, out); len(recs) != 0 {
		t.Errorf("storm found the fault that only fusion's bvxor reaches:\n%s", stdout)
	}
}
