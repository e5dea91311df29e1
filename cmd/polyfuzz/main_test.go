package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/isolated"
)

// TestMain lets the test binary serve as the isolated child of the campaigns it runs.
func TestMain(m *testing.M) {
	if isolated.IsChild() {
		domain.ServeChild(domains)
		return
	}
	if os.Getenv("POLYFUZZ_TEST_MAIN") == "1" { // the test binary as the polyfuzz command
		main()
		return
	}
	os.Exit(m.Run())
}

// polyfuzz runs one command line in process and returns its exit code, stdout and stderr.
func polyfuzz(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func records(t *testing.T, out string) map[string]*campaign.Record {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(out, "findings", "*", "finding.json"))
	m := map[string]*campaign.Record{}
	for _, p := range paths {
		rec, _, _, err := campaign.LoadFinding(filepath.Dir(p))
		if err != nil {
			t.Fatal(err)
		}
		m[rec.OracleTitle()] = rec
	}
	return m
}

// TestFaultsFire proves each oracle fires on a real SQLite with a planted fault: the finding has the
// right kind and title, repeated hits are one finding, the case is reduced to a handful of
// statements, and the stored finding replays. A crashing or panicking engine does not stop the
// campaign.
func TestFaultsFire(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	tests := []struct {
		name   string
		fault  string
		extra  []string
		titles map[string]string // title -> kind
	}{
		{"drop-row", `drop-row:^SELECT \* FROM .* WHERE .*LIKE`, nil, map[string]string{
			"norec: sqlite: optimized query returns fewer rows": "wrong-result",
			"tlp-where: sqlite: partitions miss rows":           "wrong-result",
		}},
		{"add-row", `add-row:^SELECT \* FROM .* WHERE \(\(`, []string{"--oracle", "tlp-where"}, map[string]string{
			"tlp-where: sqlite: partitions add rows": "wrong-result",
		}},
		{"change-value", `change-value:^SELECT COUNT\(\*\) FROM .* WHERE .* IN \(`, []string{"--oracle", "norec"},
			map[string]string{"norec: sqlite: optimized query returns more rows": "wrong-result"}},
		{"child dies", `exit:^SELECT COUNT\(\*\) FROM .* WHERE .*GLOB`, nil, map[string]string{
			"crash: sqlite: child exited with status n: fault: planted crash": "crash",
		}},
		{"in-process panic", `panic:^SELECT COUNT\(\*\) FROM .* WHERE .*GLOB`, []string{"--isolate=false"},
			map[string]string{"crash: sqlite: panic: fault: planted panic": "crash"}},
		{"hang", `hang:^SELECT SUM\(\(.*instr\(`, nil, map[string]string{
			"hang: sqlite: statement select ran over its timeout": "hang",
		}},
		{"unexpected error", `error:^SELECT \* FROM .* WHERE .*BETWEEN`, []string{"--oracle", "tlp-where"},
			map[string]string{"error: sqlite: fault fault: planted error": "unexpected-error"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			stdout := runCampaign(t, 3000, append([]string{"sql", "--seed", seed, "-j", "2", "--quiet", "--out", out,
				"--fault", tc.fault}, tc.extra...)...)
			recs := records(t, out)
			for title, kind := range tc.titles {
				rec := recs[title]
				if rec == nil {
					t.Fatalf("no finding %q; got:\n%s", title, stdout)
				}
				_, red := checkFired(t, out, rec, kind)
				if len(red.Setup) > 4 || len(red.Queries) > 4 {
					t.Errorf("%s: reduced case has %d setup statements and %d queries, want a handful",
						title, len(red.Setup), len(red.Queries))
				}
			}
		})
	}
}

// runCampaign runs a campaign of n tests and returns its stdout; it fails t unless the campaign
// exits 0 having run every test.
func runCampaign(t *testing.T, n int, args ...string) string {
	t.Helper()
	code, stdout, stderr := polyfuzz(t, append(args, "--tests", fmt.Sprint(n))...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, fmt.Sprintf("tests %d ", n)) {
		t.Errorf("the campaign did not run all its tests:\n%s", stdout)
	}
	return stdout
}

// firedFinding runs a campaign with a planted fault and returns the stored finding whose title
// starts with prefix, failing t when the campaign fails or stored none.
func firedFinding(t *testing.T, out, prefix string, args ...string) *campaign.Record {
	t.Helper()
	code, stdout, stderr := polyfuzz(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for title, r := range records(t, out) {
		if strings.HasPrefix(title, prefix) {
			return r
		}
	}
	t.Fatalf("no finding %q:\n%s", prefix, stdout)
	return nil
}

// checkFired checks that an oracle's finding on a planted fault has several hits and passes
// checkReplayed.
func checkFired(t *testing.T, out string, rec *campaign.Record, kind string) (orig, red *fuzz.Case) {
	t.Helper()
	if rec.Hits < 2 {
		t.Errorf("%s: %d hits, want several", rec.Title, rec.Hits)
	}
	return checkReplayed(t, out, rec, kind)
}

// checkReplayed checks that a finding has the kind wanted, a reduced case, and a replay that
// regenerates the case and reproduces; it returns the original and reduced cases.
func checkReplayed(t *testing.T, out string, rec *campaign.Record, kind string) (orig, red *fuzz.Case) {
	t.Helper()
	if rec.Kind.String() != kind || rec.Status != campaign.StatusReduced {
		t.Errorf("%s: kind %s, status %s (%s); want %s, reduced", rec.Title, rec.Kind, rec.Status, rec.Note, kind)
	}
	dir := filepath.Join(out, "findings", rec.Hash)
	_, orig, red, err := campaign.LoadFinding(dir)
	if err != nil || red == nil {
		t.Fatalf("%s: no reduced case: %v", rec.Title, err)
	}
	code, rout, rerr := polyfuzz(t, "replay", dir)
	if code != 0 || !strings.Contains(rout, "identical to the stored case") || !strings.Contains(rout, "\nreproduces") {
		t.Errorf("replay of %s: exit %d\n%s%s", rec.Title, code, rout, rerr)
	}
	return orig, red
}

// TestPlainSQLiteReportsNothing runs the seeds of TestFaultsFire without a fault: no findings.
func TestPlainSQLiteReportsNothing(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := polyfuzz(t, "sql", "--tests", "20000", "--seed", fmt.Sprint(testenv.Seed(t)),
		"-j", "2", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if recs := records(t, out); len(recs) != 0 {
		t.Fatalf("plain SQLite gave findings (false alarms or real bugs):\n%s", stdout)
	}
	var info campaign.Info
	b, _ := os.ReadFile(filepath.Join(out, "campaign.json"))
	if err := json.Unmarshal(b, &info); err != nil || info.Totals == nil || info.Totals.Checks < 20000 {
		t.Fatalf("campaign.json: %+v %v", info, err)
	}
	t.Logf("%s", stdout)
}

// TestOutLayout checks that a campaign writes OUT as DESIGN.md describes, and that repro.sh
// reproduces with the sqlite3 shell.
func TestOutLayout(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := polyfuzz(t, "sql", "--tests", "2000", "--seed", "1", "--quiet", "--out", out,
		"--fault", `drop-row:^SELECT \* FROM .* WHERE .*LIKE`, "--oracle", "tlp-where")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, f := range []string{"campaign.json", "stats.jsonl", "report.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	recs := records(t, out)
	if len(recs) != 1 {
		t.Fatalf("want one finding, got %d:\n%s", len(recs), stdout)
	}
	for _, rec := range recs {
		dir := filepath.Join(out, "findings", rec.Hash)
		for _, f := range []string{"finding.json", "case.json", "case.sql", "runs.json", "reduced.json", "reduced.sql", "repro.sh"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Error(err)
			}
		}
		code, rout, rerr := polyfuzz(t, "reduce", "--reduce-time", "30s", dir)
		if code != 0 || !strings.Contains(rout, "replayed") {
			t.Errorf("reduce: exit %d\n%s%s", code, rout, rerr)
		}
		// A planted fault lives in polyfuzz's wrapper: the engine's own client cannot reproduce it,
		// and repro.sh says so with exit status 2 (cannot tell).
		b, err := exec.Command("bash", filepath.Join(dir, "repro.sh")).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(b), "planted") {
			t.Errorf("repro.sh of a planted finding: %v, want exit status 2\n%s", err, b)
		}
	}
}

// TestInterrupt sends SIGINT to a running campaign: it stops cleanly, exit status 0, with the
// summary printed and campaign.json and report.html written.
func TestInterrupt(t *testing.T) {
	out := t.TempDir()
	cmd := exec.Command(os.Args[0], "sql", "--budget", "1m", "--seed", "3", "--out", out)
	cmd.Env = append(os.Environ(), "POLYFUZZ_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 130 {
		t.Fatalf("interrupted campaign: %v, want exit status 130\n%s", err, stderr.String())
	}
	var info campaign.Info
	b, _ := os.ReadFile(filepath.Join(out, "campaign.json"))
	if err := json.Unmarshal(b, &info); err != nil || info.Stop != "interrupted" || info.Totals == nil || info.Totals.Tests == 0 {
		t.Fatalf("campaign.json after SIGINT: %s (%v)", b, err)
	}
	if _, err := os.Stat(filepath.Join(out, "report.html")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "stopped (interrupted)") {
		t.Fatalf("no summary:\n%s", stdout.String())
	}
}

func TestBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	notFinding := t.TempDir()
	checkBadInputs(t, []badInput{
		{"unknown dbms", []string{"sql", "--dbms", "oracle"}, 2, `unknown engine "oracle" (known: sqlite, duckdb, turso, datafusion, postgres, mariadb, mysql, clickhouse)`},
		{"unknown oracle", []string{"sql", "--oracle", "nosuch"}, 2, `unknown --oracle "nosuch"`},
		{"unwritable out", []string{"sql", "--tests", "1", "--out", filepath.Join(file, "out")}, 2,
			"cannot write to output directory"},
		{"negative budget", []string{"sql", "--budget", "-1m"}, 2, "--budget must not be negative"},
		{"bad budget", []string{"sql", "--budget", "ten"}, 2, `invalid value "ten" for flag -budget`},
		{"unknown flag", []string{"sql", "--dbm", "sqlite"}, 2, "flag provided but not defined: -dbm"},
		{"bad fault", []string{"sql", "--fault", "drop:x"}, 2, `bad fault "drop:x"`},
		{"version of an engine that takes none", []string{"sql", "--dbms", "postgres@15"}, 2, `--dbms postgres takes no version (got "15")`},
		{"empty version", []string{"sql", "--dbms", "sqlite@"}, 2, "--dbms sqlite@ names no version"},
		{"bad planted bugs", []string{"sql", "--fault", `[{"id":"x","kind":"rewrite","match":"a"}]`}, 2, "needs find"},
		{"bad seed", []string{"sql", "--seed", "-3"}, 2, "want a non-negative integer"},
		{"empty out", []string{"sql", "--out", ""}, 2, "--out must name a directory"},
		{"negative confirm", []string{"sql", "--confirm", "-1"}, 2, "--confirm must be at least 1"},
		{"negative reduce time", []string{"smt", "--reduce-time", "-1s"}, 2, "--reduce-time must be positive"},
		{"absurd workers", []string{"datalog", "-j", "100000"}, 2, "-j must be between 0 (one per CPU) and 256"},
		{"oracle of another domain", []string{"graph", "--oracle", "norec"}, 2, `unknown --oracle "norec"`},
		{"replay not a finding", []string{"replay", notFinding}, 2, "is not a finding directory"},
		{"replay no argument", []string{"replay"}, 2, "want one argument"},
		{"compare without oracles", []string{"compare"}, 2, "--oracle is required"},
		{"compare unknown domain", []string{"compare", "--domain", "nosql", "--oracles", "x"}, 2, `unknown domain "nosql"`},
		{"compare unknown oracle", []string{"compare", "--oracles", "nosuch", "--tests", "1"}, 2, `unknown --oracle "nosuch"`},
		{"unknown command", []string{"fuzz"}, 2, `unknown command "fuzz"`},
	})
}

// badInput is a command line that must fail with code and a stderr line containing want.
type badInput struct {
	name string
	args []string
	code int
	want string
}

// checkBadInputs runs each bad command line: the exit code and message must match, without a
// stack trace.
func checkBadInputs(t *testing.T, tests []badInput) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := polyfuzz(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, tc.code, tc.want)
			}
			if strings.Contains(stderr, "goroutine ") {
				t.Fatalf("stack trace for bad input:\n%s", stderr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	tests := []struct {
		cmd   string
		flags []string
	}{
		{"sql", []string{"--dbms", "--oracle", "--budget", "--tests", "-j", "--seed", "--out", "--fault", "--timeout"}},
		{"smt", []string{"--solver", "--solver-cmd", "--seeds", "--ref", "--oracle", "--budget", "--tests", "-j", "--seed",
			"--out", "--timeout", "--depth", "--asserts", "--enrich", "--mutants", "--incremental", "--tactics", "--models",
			"--connectives"}},
		{"compare", []string{"--domain", "--oracle", "--oracles", "--budget", "--tests", "--repeat", "--seed", "-j", "--out", "--dbms",
			"--engine", "--queries-per-db"}},
		{"compare --domain smt", []string{"--domain", "--oracle", "--solver", "--solver-cmd", "--seeds", "--engine"}},
		{"graph", []string{"--engine", "--ref", "--known", "--oracle", "--force", "--budget", "--tests", "-j", "--seed", "--out",
			"--fault", "--timeout", "--gen"}},
		{"graph run", []string{"--engine", "--timeout"}},
		{"smt selfcheck", []string{"--solver", "--theory", "--terms", "--seed"}},
		{"datalog", []string{"--engine", "--ref", "--oracle", "--budget", "--tests", "-j", "--seed", "--out", "--fault",
			"--timeout", "--gen"}},
		{"replay", []string{"--no-fault"}},
		{"reduce", []string{"--reduce-time", "--plain"}},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			for _, args := range [][]string{append(strings.Fields(tc.cmd), "--help"), append([]string{"help"}, strings.Fields(tc.cmd)...)} {
				code, stdout, stderr := polyfuzz(t, args...)
				if code != 0 || stderr != "" {
					t.Fatalf("%s: exit %d, stderr %q; want 0 and help on stdout", args, code, stderr)
				}
				for _, f := range tc.flags {
					if !strings.Contains(stdout, "  "+f+" ") {
						t.Errorf("%s: help lacks %s:\n%s", args, f, stdout)
					}
				}
			}
		})
	}
}

// TestCLIConventions checks what every command shares: the version, help on stdout, a flag error
// in one line that points to --help with exit 2, and the same flag names in every domain.
func TestCLIConventions(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		code, stdout, _ := polyfuzz(t, args...)
		if code != 0 || !strings.HasPrefix(stdout, "polyfuzz "+version+"\n") {
			t.Errorf("%s: exit %d, stdout %q", args, code, stdout)
		}
	}
	if code, stdout, stderr := polyfuzz(t, "help"); code != 0 || stderr != "" || !strings.Contains(stdout, "polyfuzz compare [flags]") {
		t.Errorf("help: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	cmds := [][]string{{"compare"}, {"replay"}, {"reduce"}, {"report"}, {"version"}}
	for _, d := range domains {
		cmds = append(cmds, []string{d.Name})
		for _, c := range d.Commands {
			cmds = append(cmds, []string{d.Name, c.Name})
		}
	}
	for _, cmd := range cmds {
		name := strings.Join(cmd, " ")
		code, stdout, stderr := polyfuzz(t, append(cmd, "--no-such-flag")...)
		want := "polyfuzz " + name + ": flag provided but not defined: -no-such-flag (see polyfuzz " + name + " --help)\n"
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr %q; want 2 and %q", name, code, stdout, stderr, want)
		}
	}
	for _, d := range domains {
		// --oracle is repeatable and comma-separated alike; --engine and --seed are accepted everywhere.
		for _, args := range [][]string{{"--oracle", "nope,error"}, {"--oracle", "error", "--oracle", "nope"}} {
			code, _, stderr := polyfuzz(t, append([]string{d.Name, "--engine", d.DefaultEngine, "--seed", "1", "--tests", "1"}, args...)...)
			if code != 2 || !strings.Contains(stderr, `unknown --oracle "nope"`) {
				t.Errorf("%s %s: exit %d, stderr %q", d.Name, args, code, stderr)
			}
		}
	}
}

// TestExitCodes checks the exit codes every domain shares: 1 when an engine cannot be reached,
// 3 for new findings with --fail-on-finding.
func TestExitCodes(t *testing.T) {
	out := t.TempDir()
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"sql", "--dbms", "postgres=postgres://u:p@127.0.0.1:1/db", "--tests", "1"}, 1},
		{[]string{"graph", "--engine", "falkordb=redis://127.0.0.1:1", "--tests", "1"}, 1},
		{[]string{"datalog", "--engine", "postgres=postgres://u:p@127.0.0.1:1/db", "--tests", "1"}, 1},
		{[]string{"smt", "--solver-cmd", "/nonexistent/solver -in", "--tests", "1"}, 1},
		{[]string{"datalog", "--engine", "ref", "--ref=false", "--fault", "drop-row:transformed", "--tests", "50",
			"--fail-on-finding", "--no-reduce", "--quiet", "--out", out}, 3},
	}
	for _, tc := range tests {
		code, stdout, stderr := polyfuzz(t, tc.args...)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.args, code, tc.code, stdout, stderr)
		}
	}
}

// TestPlantedFaultIsOneBug runs a campaign with one planted fault, which several oracles see under
// several titles: the findings are marked as planted everywhere (title, finding.json, summary,
// report) and grouped as one bug with alternate titles.
func TestPlantedFaultIsOneBug(t *testing.T) {
	out := t.TempDir()
	fault := `drop-row:WHERE.*LIKE`
	stdout := runCampaign(t, 3000, "sql", "--seed", "1", "-j", "2", "--quiet", "--out", out, "--fault", fault,
		"--reduce-time", "30s", "--confirm", "1")
	recs := records(t, out)
	if len(recs) < 2 {
		t.Fatalf("want several titles from one planted fault, got %d:\n%s", len(recs), stdout)
	}
	for _, rec := range recs {
		if !strings.HasPrefix(rec.Title, campaign.PlantedMark) || rec.Fault != fault {
			t.Errorf("finding %q (fault %q) is not marked as planted", rec.Title, rec.Fault)
		}
		if !strings.Contains(stdout, rec.Title) {
			t.Errorf("the summary does not show %q:\n%s", rec.Title, stdout)
		}
	}
	bugs, err := campaign.Bugs(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(bugs) != 1 || len(bugs[0].AltTitles) != len(recs)-1 {
		t.Fatalf("%d findings grouped as %d bugs, want one with %d alternate titles: %+v", len(recs), len(bugs), len(recs)-1, bugs)
	}
	if !strings.Contains(stdout, "), 1 bug(s)\n  bug 1: planted fault "+fault) {
		t.Errorf("the summary does not group the findings as one bug:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil || !strings.Contains(string(b), "planted fault: "+fault) {
		t.Errorf("report.html does not mark the planted fault: %v", err)
	}
}
