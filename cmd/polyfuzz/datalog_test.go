package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/ascent"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

// dlEngineArg returns the --engine value for a Datalog engine, skipping t (failing it in CI) when
// the engine is not installed.
func dlEngineArg(t *testing.T, name string) string {
	t.Helper()
	switch name {
	case "muz":
		testenv.NeedEngine(t, "z3")
	case "swipl":
		testenv.NeedEngine(t, "swipl")
	case "clingo", "cozo":
		testenv.NeedPythonModule(t, rowserver.Python(""), map[string]string{"clingo": "clingo", "cozo": "cozo_embedded"}[name])
	case "ascent":
		if _, err := ascent.FindCargo(""); err != nil {
			testenv.Missing(t, "ascent needs cargo: "+err.Error())
		}
	case "postgres":
		return name + "=" + testenv.NeedDSN(t, "POLYFUZZ_POSTGRES_DSN")
	}
	return name
}

// programSize counts the rules (not facts) and facts of every program of a case.
func programSize(t *testing.T, texts []string) (rules, facts int) {
	t.Helper()
	for _, text := range texts {
		p, err := datalog.Parse("case.dl", text)
		if err != nil {
			t.Fatalf("stored program does not parse: %v\n%s", err, text)
		}
		for _, r := range p.Rules {
			if r.IsFact() {
				facts++
			} else {
				rules++
			}
		}
	}
	return rules, facts
}

// TestDatalogOraclesFire plants a fault in a real engine's driver and checks that the metamorphic
// and the differential oracle each report it as a wrong result, reduced to a program of a few
// rules that still fails when replayed.
func TestDatalogOraclesFire(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	tests := []struct {
		name, engine, fault, oracle, prefix string
		extra                               []string
		kind                                string // "" for wrong-result
	}{
		{"metamorphic drops a tuple", "swipl", "drop-row:transformed", "metamorphic", "metamorphic: swipl: ",
			[]string{"--ref=false"}, ""},
		{"metamorphic adds a tuple", "sqlite", "new-row:transformed", "metamorphic", "metamorphic: sqlite: ",
			[]string{"--ref=false"}, ""},
		{"diff drops a tuple", "muz", "drop-row:.", "diff", "diff: ", nil, ""},
		{"diff adds a tuple", "clingo", "new-row:.", "diff", "diff: ", nil, ""},
		{"error on a valid program", "swipl", "error:transformed", "metamorphic", "error: swipl: fault ",
			[]string{"--ref=false"}, "unexpected-error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"datalog", "--engine", dlEngineArg(t, tc.engine), "--oracle", tc.oracle, "--seed", seed,
				"-j", "2", "--quiet", "--out", out, "--fault", tc.fault, "--max-findings", "1", "--reduce-time", "1m"}, tc.extra...)
			rec := firedFinding(t, out, tc.prefix, append(args, "--tests", "300")...)
			kind := tc.kind
			if kind == "" {
				kind = "wrong-result"
			}
			orig, red := checkReplayed(t, out, rec, kind)
			rules, facts := programSize(t, red.Texts())
			origRules, origFacts := programSize(t, orig.Texts())
			t.Logf("%s: reduced from %d rules and %d facts to %d rules and %d facts", rec.Title, origRules, origFacts, rules, facts)
			if rules > 4*len(red.Queries) {
				t.Errorf("%s: the reduced case keeps %d rules in %d programs, want a few", rec.Title, rules, len(red.Queries))
			}
			repro, err := os.ReadFile(filepath.Join(out, "findings", rec.Hash, "repro.sh"))
			if err != nil || !strings.Contains(string(repro), "polyfuzz replay") {
				t.Errorf("repro.sh: %v\n%s", err, repro)
			}
		})
	}
}

// TestDatalogEnginesAgree runs the generated programs on every engine installed here and on the
// reference, without a fault: no finding. μZ is left out: z3 4.8.12 derives tuples from rule
// bodies that hold an atom and its negation (docs/datalog.md), which the pinned seed meets;
// TestRecordedDatalogFindings replays that bug.
func TestDatalogEnginesAgree(t *testing.T) {
	args := []string{"datalog", "--seed", fmt.Sprint(testenv.Seed(t)), "-j", "2", "--quiet"}
	for _, name := range []string{"swipl", "clingo", "sqlite", "duckdb", "postgres"} {
		args = append(args, "--engine", dlEngineArg(t, name))
	}
	out := t.TempDir()
	stdout := runCampaign(t, 300, append(args, "--out", out)...)
	if recs := records(t, out); len(recs) != 0 {
		for title := range recs {
			t.Errorf("finding: %s", title)
		}
		t.Fatalf("the engines disagree:\n%s", stdout)
	}
	t.Logf("%s", stdout)
}

// TestDatalogRefOnly runs a campaign with nothing installed: the reference engine alone, checked
// by the metamorphic oracle.
func TestDatalogRefOnly(t *testing.T) {
	out := t.TempDir()
	stdout := runCampaign(t, 500, "datalog", "--engine", "ref", "--seed", fmt.Sprint(testenv.Seed(t)), "--quiet", "--out", out)
	if recs := records(t, out); len(recs) != 0 {
		t.Fatalf("the reference engine breaks a transformation's relation:\n%s", stdout)
	}
}

// TestDatalogBadInput checks the messages for bad programs and bad engine flags.
func TestDatalogBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	bad := write("bad.dl", ".decl e(x: number)\n.output e\ne(1) :- e(x), y > 1.\n")
	unstrat := write("unstrat.dl", ".decl p(x: number)\n.decl q(x: number)\n.output p\np(1).\np(x) :- q(x), !p(x).\nq(x) :- p(x).\n")
	good := write("good.dl", ".decl e(x: number, y: symbol)\n.output e\ne(1, \"a\").\n")
	tests := []badInput{
		{"malformed program", []string{"datalog", "run", bad}, 2, "bad.dl:3:"},
		{"unstratifiable program", []string{"datalog", "run", unstrat}, 2, "unstrat.dl:5:15: not stratifiable: p depends negatively on p"},
		{"unknown engine", []string{"datalog", "--engine", "ddlog"}, 2, `unknown engine "ddlog"`},
		{"engine twice", []string{"datalog", "--engine", "ref", "--engine", "ref"}, 2, "--engine ref is given twice"},
		{"unknown oracle", []string{"datalog", "--oracle", "pqs"}, 2, `unknown --oracle "pqs"`},
		{"bad gen options", []string{"datalog", "--gen", "nonsense"}, 2, "--gen:"},
		{"no program", []string{"datalog", "run"}, 2, "want one argument"},
		{"translate ref", []string{"datalog", "translate", "--engine", "ref", good}, 2, "no program text of its own"},
	}
	if os.Getenv("POLYFUZZ_POSTGRES_DSN") == "" {
		tests = append(tests, badInput{"server without DSN", []string{"datalog", "--engine", "postgres"}, 2,
			"--engine postgres needs a server"})
	}
	if _, err := exec.LookPath("souffle"); err != nil {
		tests = append(tests, badInput{"missing engine", []string{"datalog", "--engine", "souffle", "--tests", "1", "--out", dir}, 1,
			"souffle"})
	}
	checkBadInputs(t, tests)
	code, stdout, stderr := polyfuzz(t, "datalog", "run", "--engine", "ref", good)
	if code != 0 || stdout != "e(1, \"a\").\n" {
		t.Errorf("datalog run: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestDatalogUnsupportedCounted runs programs with constants beyond 32 bits on clingo, which
// cannot express them: those programs are skipped for clingo and counted by reason, and the
// other engines still compare.
func TestDatalogUnsupportedCounted(t *testing.T) {
	out := t.TempDir()
	stdout := runCampaign(t, 100, "datalog", "--engine", dlEngineArg(t, "clingo"), "--engine", "sqlite",
		"--gen", "queryfuzz{numbers=-5000000000..5000000000}", "--seed", fmt.Sprint(testenv.Seed(t)), "--quiet", "--out", out)
	for _, want := range []string{"[diff: unsupported number-range on clingo]", "[metamorphic: unsupported number-range on clingo]"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %s:\n%s", want, stdout)
		}
	}
	if recs := records(t, out); len(recs) != 0 {
		t.Errorf("findings on unsupported programs:\n%s", stdout)
	}
}

// TestRecordedDatalogFindings replays the engine bugs kept in testdata/datalog-findings.
func TestRecordedDatalogFindings(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "datalog-findings", "*"))
	if len(dirs) == 0 {
		t.Fatal("no recorded findings in testdata/datalog-findings")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			replayRecorded(t, dir, func(engines []string) {
				for _, name := range engines {
					dlEngineArg(t, name)
				}
			})
		})
	}
}

// TestDatalogGuidance checks the guidance oracle of the Datalog table: it notes, for every
// generated program, whether the reference derives tuples from it, and finds nothing.
func TestDatalogGuidance(t *testing.T) {
	stdout := runCampaign(t, 200, "datalog", "--seed", "1", "-j", "1", "--quiet", "--out", t.TempDir())
	m := regexp.MustCompile(`\[guidance: empty\] (\d+) \[guidance: non-empty\] (\d+)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no guidance notes:\n%s", stdout)
	}
	empty, _ := strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	if empty+n != 200 || n == 0 || strings.Contains(stdout, "bug 1:") {
		t.Errorf("guidance noted %d empty and %d non-empty answers of 200 programs, or found something:\n%s", empty, n, stdout)
	}
	t.Logf("the reference derives tuples from %d of 200 programs", n)
}

// TestDatalogStyles puts the two Datalog styles head to head on the reference engine with a fault
// planted in a lower stratum: the comparison has one row per style (--styles, each with the
// domain's default oracles), DLSmith finds the planted fault (its findings marked planted, and
// they replay), and bad --style, --gen and --fault values are one-line usage errors.
func TestDatalogStyles(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := polyfuzz(t, "compare", "--domain", "datalog", "--styles", "queryfuzz,dlsmith",
		"--engine", "ref", "--ref=false", "--fault", datalog.PlantRules+":1", "--tests", "300", "--repeat", "1", "--seed", "1", "--out", out)
	if code != 0 {
		t.Fatalf("compare exited %d:\n%s\n%s", code, stdout, stderr)
	}
	// The last columns: unique findings, first finding, bugs detected, first detection.
	rows := regexp.MustCompile(`(?m)^\| (queryfuzz|dlsmith) \| 1 \|.*\| (\d+) \| [^|]+\| ([^|]+)\| [^|]+\|$`).FindAllStringSubmatch(stdout, -1)
	if len(rows) != 2 || rows[1][1] != "dlsmith" || rows[1][2] == "0" || !strings.HasPrefix(rows[1][3], "1 of 1: fault (1/1)") {
		t.Fatalf("want a queryfuzz and a dlsmith row, dlsmith with findings that detect the planted fault:\n%s", stdout)
	}
	dir := filepath.Join(out, "dlsmith", "1")
	recs := records(t, dir)
	if len(recs) == 0 {
		t.Fatalf("no findings stored in %s", dir)
	}
	for title, rec := range recs {
		if rec.Fault != datalog.PlantRules+":1" || rec.Kind != fuzz.KindWrongResult {
			t.Errorf("finding %q (kind %s) is not a planted wrong result", title, rec.Kind)
		}
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "findings", "*"))
	if code, stdout, stderr := polyfuzz(t, "replay", paths[0]); code != domain.ExitOK || !strings.Contains(stdout+stderr, "reproduces") {
		t.Errorf("replay of %s exited %d:\n%s\n%s", paths[0], code, stdout, stderr)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--style", "nope"}, `unknown --style "nope"; datalog has queryfuzz, dlsmith`},
		{[]string{"--style", "queryfuzz,dlsmith"}, "--style takes one style here"},
		{[]string{"--style", "dlsmith", "--gen", "queryfuzz{steps=1..2}"}, "--gen gives queryfuzz options but --style is dlsmith"},
		{[]string{"--fault", datalog.PlantMixed + ":x"}, "give the negation depth"},
	} {
		code, _, stderr := polyfuzz(t, append([]string{"datalog", "--tests", "1", "--out", t.TempDir()}, tc.args...)...)
		if code != domain.ExitUsage || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", tc.args, code, stderr, tc.want)
		}
	}
}
