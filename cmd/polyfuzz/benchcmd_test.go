package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/bench"
)

// TestBenchSmall runs a small benchmark end to end, as CI does: two styles against two planted
// SQLite bugs of the benchmark, three trials of two seconds each, two trials at a time; then the
// report is written again from the journal, and a run with other flags in the same folder is
// refused.
func TestBenchSmall(t *testing.T) {
	// Two planted bugs that NoREC and TLP both reach, one found within a second or two, one rarer.
	const ids = "sql-left-join-strength,sql-partial-index-null"
	if _, err := bench.Select("sql", ids); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	args := []string{"bench", "--domain", "sql", "--styles", "norec,tlp-where", "--bugs", ids, "--trials", "3", "--budget", "2s",
		"-j", "2", "--seed", "1", "--out", out}
	code, stdout, stderr := polyfuzz(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	var sum bench.Summary
	b, err := os.ReadFile(filepath.Join(out, "bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	detected := 0
	for _, c := range sum.Cells {
		if c.Trials != 3 {
			t.Errorf("%s on %s: %d trials, want 3", c.Style, c.Bug, c.Trials)
		}
		if c.Reached <= 0 || c.Reached < c.Triggered {
			t.Errorf("%s on %s: canary reached %v, triggered %v", c.Style, c.Bug, c.Reached, c.Triggered)
		}
		detected += c.Detected
	}
	if len(sum.Cells) != 4 || detected == 0 || len(sum.Pairs) != 2 || len(sum.Ranking) != 2 {
		t.Errorf("report: %d cells, %d detections, %d pairs, %d ranked\n%s", len(sum.Cells), detected, len(sum.Pairs), len(sum.Ranking), stdout)
	}
	for _, f := range []string{"bench.md", "bench.html", "plan.json", "trials.jsonl"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if page, _ := os.ReadFile(filepath.Join(out, "bench.html")); !strings.Contains(string(page), "<svg") {
		t.Error("bench.html has no survival plot")
	}
	// Run again: every trial is in the journal, so nothing runs and the report is the same.
	code, again, stderr := polyfuzz(t, args...)
	if code != 0 || !strings.Contains(stderr, "resuming: 6 of 6 trials done") || again != stdout {
		t.Errorf("a second run does not resume from the journal: exit %d\n%s%s", code, again, stderr)
	}
	if code, rep, _ := polyfuzz(t, "bench", "report", out); code != 0 || rep+"\nreport: "+filepath.Join(out, "bench.html")+"\n" != stdout {
		t.Errorf("bench report: exit %d\n%s", code, rep)
	}
	bad := append(args[:len(args):len(args)], "--trials", "4")
	if code, _, stderr := polyfuzz(t, bad...); code != 2 || !strings.Contains(stderr, "another --out") {
		t.Errorf("a run with other flags in the same folder: exit %d %s", code, stderr)
	}
}

func TestBenchBadInput(t *testing.T) {
	checkBadInputs(t, []badInput{
		{"bench without styles", []string{"bench", "--domain", "sql"}, 2, "--styles is required"},
		{"bench unknown style", []string{"bench", "--styles", "nosuch"}, 2, `unknown style "nosuch": give an oracle`},
		{"bench unknown bug", []string{"bench", "--styles", "norec", "--bugs", "nope"}, 2, `no sql bug is "nope"`},
		{"bench bad define", []string{"bench", "--styles", "x", "--define", "x=tactics"}, 2, "want NAME='FLAGS'"},
		{"bench zero trials", []string{"bench", "--styles", "norec", "--trials", "0"}, 2, "--trials must be at least 1"},
		{"bench report of nothing", []string{"bench", "report", t.TempDir()}, 2, "is not the output of polyfuzz bench"},
		{"compare fault and bugs", []string{"compare", "--oracle", "norec", "--fault", "drop-row:x", "--bugs", "all"}, 2, "not both"},
	})
}

// TestBenchAttribution plants two bugs in one campaign: one that drops a row of NoREC's counts,
// and one that triggers on the same queries but rewrites them into equivalent ones. Every
// finding's case triggers both, and only the first may be credited with it.
func TestBenchAttribution(t *testing.T) {
	bugs := `[
 {"id":"t-drops","domain":"sql","origin":"planted","class":"wrong-value","engine":"sqlite","version":"bundled","buggy":"sqlite",
  "fixed_spec":"sqlite","trigger":"COUNT(*) with a WHERE","ref":"test","case":"none","oracle":"norec",
  "plant":{"kind":"drop-row","match":"^SELECT COUNT\\(\\*\\) FROM .* WHERE "}},
 {"id":"t-silent","domain":"sql","origin":"planted","class":"none","engine":"sqlite","version":"bundled","buggy":"sqlite",
  "fixed_spec":"sqlite","trigger":"any WHERE, rewritten into an equivalent one","ref":"test","case":"none","oracle":"norec",
  "plant":{"kind":"rewrite","match":"^SELECT .* WHERE ","find":"\\bWHERE ","with":"WHERE 1=1 AND "}}]`
	file := filepath.Join(t.TempDir(), "bugs.json")
	if err := os.WriteFile(file, []byte(bugs), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(bench.ExtraEnv, file)
	out := t.TempDir()
	code, stdout, stderr := polyfuzz(t, "bench", "--domain", "sql", "--styles", "norec", "--bugs", "t-drops,t-silent",
		"--trials", "2", "--budget", "2s", "--seed", "1", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	_, results, err := bench.ReadJournal(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if _, ok := r.Detected["t-drops"]; !ok {
			t.Errorf("trial %d: t-drops not detected: %+v", r.Index, r)
		}
		if _, ok := r.Detected["t-silent"]; ok {
			t.Errorf("trial %d: t-silent, which changes no answer, was credited with a finding", r.Index)
		}
		if r.Canaries["t-silent!"] == 0 {
			t.Errorf("trial %d: t-silent never triggered, so the test proves nothing: %v", r.Index, r.Canaries)
		}
	}
}

// TestBenchStyleOverridesBug checks the order of a trial's flags: a bug's options first, then
// its style's, so that a style which sets what a bug asks for is measured as the style says.
func TestBenchStyleOverridesBug(t *testing.T) {
	bugs := `[{"id":"t-options","domain":"sql","origin":"planted","class":"wrong-value","engine":"sqlite","version":"bundled",
  "buggy":"sqlite","fixed_spec":"sqlite","trigger":"COUNT(*) with a WHERE","ref":"test","case":"none","oracle":"norec",
  "options":["--timeout","3s"],"plant":{"kind":"drop-row","match":"^SELECT COUNT\\(\\*\\) FROM .* WHERE "}}]`
	file := filepath.Join(t.TempDir(), "bugs.json")
	if err := os.WriteFile(file, []byte(bugs), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(bench.ExtraEnv, file)
	out := t.TempDir()
	code, stdout, stderr := polyfuzz(t, "bench", "--domain", "sql", "--styles", "norec,slow", "--define", "slow=--oracle norec --timeout 4s",
		"--bugs", "t-options", "--trials", "1", "--budget", "1s", "--seed", "1", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for style, want := range map[string]time.Duration{"norec": 3 * time.Second, "slow": 4 * time.Second} {
		files, _ := filepath.Glob(filepath.Join(out, "trials", style, "*", "1", "campaign.json"))
		if len(files) != 1 {
			t.Fatalf("%s: campaign files %v", style, files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Options struct {
				Engines []struct{ Timeout time.Duration }
			}
		}
		if err := json.Unmarshal(b, &c); err != nil || len(c.Options.Engines) == 0 || c.Options.Engines[0].Timeout != want {
			t.Errorf("style %s: engines %+v (%v), want the timeout %s", style, c.Options.Engines, err, want)
		}
	}
}
