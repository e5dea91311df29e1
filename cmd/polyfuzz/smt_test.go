package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// repoFile returns the absolute path of a file of the repository.
func repoFile(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSMTFaultsFire proves each SMT oracle fires on a real solver behind a faulty wrapper
// (testdata/smt-faults): the finding has the right kind, hits more than once, is reduced, and
// replays; the campaign goes on after the solver dies.
func TestSMTFaultsFire(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	testenv.NeedEngine(t, "mawk")
	seed := fmt.Sprint(testenv.Seed(t))
	tests := []struct {
		name, wrapper, seeds, oracle string
		title, kind                  string
		extra                        []string
	}{
		{"unsat on a satisfiable instance", "unsat.sh", "lia_schedule.smt2", "sat",
			"sat: unsat.sh: unsat on a satisfiable qf_lia instance", "wrong-result", nil},
		{"wrong model", "wrong-model.sh", "lia_schedule.smt2", "model",
			"model: wrong-model.sh: invalid model of a qf_lia instance", "invalid-model", nil},
		{"solver dies", "die.sh", "lia_schedule.smt2", "sat",
			"crash: die.sh: die.sh exited with status n (signal n, segmentation fault)", "crash", nil},
		{"garbage answer", "banana.sh", "lia_schedule.smt2", "error",
			"error: banana.sh: unexpected answer", "unexpected-error", nil},
		{"two solvers disagree", "unsat.sh", "lia_schedule.smt2", "diff",
			"diff: z3 vs unsat.sh: answers sat vs unsat", "wrong-result", []string{"--solver", "z3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			stdout := runCampaign(t, 300, append([]string{"smt", "--solver-cmd", repoFile(t, "testdata/smt-faults/"+tc.wrapper),
				"--seeds", repoFile(t, "testdata/smt/"+tc.seeds), "--oracle", tc.oracle, "--incremental", "0",
				"--mutants", "50", "--seed", seed, "-j", "2", "--quiet", "--out", out,
				"--reduce-time", "30s"}, tc.extra...)...)
			rec := records(t, out)[tc.title]
			if rec == nil {
				t.Fatalf("no finding %q; got:\n%s", tc.title, stdout)
			}
			orig, red := checkFired(t, out, rec, tc.kind)
			dir := filepath.Join(out, "findings", rec.Hash)
			if a, b := len(red.Queries[0].Text), len(orig.Queries[0].Text); a >= b {
				t.Errorf("%s: reduced instance has %d bytes, the original %d", rec.Title, a, b)
			}
			t.Logf("%s: reduced from %d to %d bytes:\n%s", rec.Title, len(orig.Queries[0].Text), len(red.Queries[0].Text), red.Queries[0].Text)
			if b, err := os.ReadFile(filepath.Join(dir, "repro.sh")); err != nil || !strings.Contains(string(b), tc.wrapper) {
				t.Errorf("repro.sh does not run the solver: %v\n%s", err, b)
			}
		})
	}
}

// TestSMTSolversReportNothing runs real z3 and cvc5 on the project's seeds with every oracle:
// Debian's z3 4.8.12 and cvc5 1.0.3 give no finding on these instances.
func TestSMTSolversReportNothing(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	testenv.NeedEngine(t, "cvc5")
	out := t.TempDir()
	code, stdout, stderr := polyfuzz(t, "smt", "--solver", "z3", "--solver", "cvc5", "--tests", "400",
		"--mutants", "20", "--asserts", "16", "--depth", "16", "--seed", fmt.Sprint(testenv.Seed(t)), "-j", "2", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if recs := records(t, out); len(recs) != 0 {
		for title, r := range recs {
			t.Errorf("finding %s: %s / %s", title, r.Expected, r.Actual)
		}
		t.Fatalf("z3 and cvc5 gave findings:\n%s", stdout)
	}
	t.Logf("%s", stdout)
}

// TestSMTCorpusSeeds runs a short campaign over the shared corpus's QF_LIA folder on z3.
func TestSMTCorpusSeeds(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	dir := repoFile(t, "../shared/corpus/smt/QF_LIA")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no shared corpus beside the repository: %v", err)
	}
	out := t.TempDir()
	code, stdout, stderr := polyfuzz(t, "smt", "--solver", "z3", "--seeds", dir, "--tests", "400", "--mutants", "20",
		"--seed", fmt.Sprint(testenv.Seed(t)), "-j", "2", "--quiet", "--out", out, "--no-reduce")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "usable seeds of 47") {
		t.Errorf("no seed count:\n%s", stderr)
	}
	t.Logf("%s\n%s", stderr, stdout)
}

func TestSMTBadInput(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	os.Mkdir(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "broken.smt2"), []byte("(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x\n"), 0o644)
	mixed := filepath.Join(dir, "mixed")
	os.Mkdir(mixed, 0o755)
	os.WriteFile(filepath.Join(mixed, "broken.smt2"), []byte("(assert (> x 1)))\n"), 0o644)
	os.WriteFile(filepath.Join(mixed, "seq.smt2"), []byte("(declare-fun s () (Seq Int))\n(assert (= (seq.len s) 2))\n"), 0o644)
	b, _ := os.ReadFile(repoFile(t, "testdata/smt/lia_schedule.smt2"))
	os.WriteFile(filepath.Join(mixed, "good.smt2"), b, 0o644)
	checkBadInputs(t, []badInput{
		{"no usable seed", []string{"smt", "--seeds", bad, "--tests", "1"}, 2, "no usable seed"},
		{"malformed seed skipped with position", []string{"smt", "--seeds", mixed, "--tests", "5", "--out", filepath.Join(dir, "o1")}, 0,
			"skipped broken.smt2: syntax: line 1, column 17"},
		{"unsupported theory counted", []string{"smt", "--seeds", mixed, "--tests", "5", "--out", filepath.Join(dir, "o2")}, 0,
			"skipped: sequences 1, syntax 1"},
		{"missing seeds folder", []string{"smt", "--seeds", filepath.Join(dir, "nope")}, 2, "--seeds:"},
		{"missing solver binary", []string{"smt", "--solver-cmd", "/nonexistent/z3 -in"}, 1, "/nonexistent/z3"},
		{"not an SMT solver", []string{"smt", "--solver-cmd", "cat"}, 1, "does not speak SMT-LIB"},
		{"unknown solver", []string{"smt", "--solver", "mathsat9"}, 2, `unknown engine "mathsat9"`},
		{"unknown oracle", []string{"smt", "--oracle", "pqs"}, 2, `unknown --oracle "pqs"`},
		{"bad model source", []string{"smt", "--models", "solver"}, 2, `unknown model source "solver"`},
	})
}

// TestSMTReproScript runs a stored finding's repro.sh: it pipes the reduced case into the solver.
func TestSMTReproScript(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	out := t.TempDir()
	code, stdout, stderr := polyfuzz(t, "smt", "--solver-cmd", repoFile(t, "testdata/smt-faults/unsat.sh"),
		"--seeds", repoFile(t, "testdata/smt/bv_signed.smt2"), "--tests", "20", "--seed", "5", "--quiet", "--out", out,
		"--reduce-time", "20s")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, rec := range records(t, out) {
		b, err := exec.Command("bash", filepath.Join(out, "findings", rec.Hash, "repro.sh")).CombinedOutput()
		if err != nil || !strings.Contains(string(b), "unsat") {
			t.Errorf("repro.sh: %v\n%s", err, b)
		}
		return
	}
	t.Fatalf("no finding:\n%s", stdout)
}

// TestSMTSelfcheckCommand runs `polyfuzz smt selfcheck` on a few hundred terms per theory; the
// thorough comparison (10,000 terms per theory) is smtgen's TestSelfCheckAgainstSolvers.
func TestSMTSelfcheckCommand(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	testenv.NeedEngine(t, "cvc5")
	for _, th := range []string{"ints", "bv", "strings"} {
		code, stdout, stderr := polyfuzz(t, "smt", "selfcheck", "--terms", "300", "--theory", th)
		if code != 0 || strings.Count(stdout, " 0 disagreed") != 2 {
			t.Fatalf("%s: exit %d\n%s%s", th, code, stdout, stderr)
		}
	}
}

// TestCompare runs `polyfuzz compare` on SQLite and on a faulty solver: the table has one row per
// oracle style, the faulty solver's soundness finding is counted with its time, and the report
// files are written.
func TestCompare(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	tests := []struct {
		name string
		args []string
		rows []string
	}{
		{"sql", []string{"--domain", "sql", "--dbms", "sqlite", "--oracles", "norec,tlp-where,tlp-agg", "--tests", "1500", "--repeat", "2"},
			[]string{"| norec | 2 | ", "| tlp-where | 2 | ", "| tlp-agg | 2 | "}},
		{"smt", []string{"--domain", "smt", "--oracles", "sat", "--solver-cmd", repoFile(t, "testdata/smt-faults/unsat.sh"),
			"--tests", "50", "--repeat", "1"}, []string{"| sat | 1 | "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			code, stdout, stderr := polyfuzz(t, append([]string{"compare", "--out", out}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			for _, row := range tc.rows {
				if !strings.Contains(stdout, row) {
					t.Errorf("no row %q:\n%s", row, stdout)
				}
			}
			if tc.name == "smt" && !strings.Contains(stdout, "| 1 | ") || strings.Contains(stdout, "| none |") != (tc.name == "sql") {
				t.Errorf("findings and time to the first one not reported as expected:\n%s", stdout)
			}
			for _, f := range []string{"compare.json", "compare.md"} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
