package bench

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJournalResumes(t *testing.T) {
	dir := t.TempDir()
	plan := Plan{Domain: "sql", Styles: []string{"norec", "tlp-where"}, Bugs: []string{"a", "b"},
		Groups: map[string][]string{"sqlite": {"a", "b"}}, Trials: 3, Budget: 10, Seed: 7}
	trials := plan.List()
	if len(trials) != 6 || trials[0].Seed != 7 || trials[5].Seed != 9 || trials[1].Style != "tlp-where" {
		t.Fatalf("trials: %+v", trials)
	}
	j, err := OpenJournal(dir, plan)
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range trials[:4] {
		r := Result{Trial: tr, Bugs: []string{"a", "b"}}
		if i == 3 {
			r.Error = "cannot reach the engine" // runs again on resume
		}
		if err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	// A line cut short by a crash is dropped.
	f, _ := os.OpenFile(filepath.Join(dir, "trials.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"style":"norec","gro`)
	f.Close()
	plan.Command = "another command line"
	j, err = OpenJournal(dir, plan)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var todo int
	for _, tr := range trials {
		if !j.Done(tr) {
			todo++
		}
	}
	if todo != 3 {
		t.Errorf("%d trials to do after resuming, want 3 (one failed)", todo)
	}
	if err := j.Append(Result{Trial: trials[3], Tests: 5}); err != nil {
		t.Fatal(err)
	}
	if _, results, err := ReadJournal(dir); err != nil || len(results) != 4 || results[3].Error != "" || results[3].Tests != 5 {
		t.Errorf("the failed trial's rerun does not replace it: %+v, %v", results, err)
	}
	other := plan
	other.Trials = 4
	if _, err := OpenJournal(dir, other); err == nil || !strings.Contains(err.Error(), "another --out") {
		t.Errorf("a journal of another plan: %v", err)
	}
}

func TestGroups(t *testing.T) {
	bugs := []Bug{
		{ID: "p1", Buggy: "sqlite", Plant: nil}, {ID: "p2", Buggy: "sqlite"},
		{ID: "r1", Buggy: "z3@4.8.7"}, {ID: "r2", Buggy: "z3@4.8.7", Options: []string{"--tactics", "100"}},
	}
	for _, tc := range []struct {
		apart bool
		want  map[string]string
	}{
		{false, map[string]string{"sqlite": "p1,p2", "z3@4.8.7": "r1", "z3@4.8.7 --tactics 100": "r2"}},
		{true, map[string]string{"p1": "p1", "p2": "p2", "r1": "r1", "r2": "r2"}},
	} {
		got := Groups(bugs, tc.apart)
		if len(got) != len(tc.want) {
			t.Errorf("apart %v: %v", tc.apart, got)
		}
		for k, v := range tc.want {
			if strings.Join(got[k], ",") != v {
				t.Errorf("apart %v: group %q = %v, want %s", tc.apart, k, got[k], v)
			}
		}
	}
}

// TestSummarize checks the report's figures on made-up trials: detection counts, times with
// misses censored at the budget, canaries, the pairwise test and the ranking.
func TestSummarize(t *testing.T) {
	plan := Plan{Domain: "sql", Styles: []string{"fast", "slow"}, Bugs: []string{"a", "b"}, Trials: 5, Budget: 100}
	bugs := []Bug{{ID: "a", Origin: Planted, Plant: &faultPlant}, {ID: "b", Origin: Real}}
	var results []Result
	fastA := []float64{1, 2, 3, 4, 5}
	slowA := []float64{50, 60, 70, -1, -1} // -1: missed
	for i := range 5 {
		r := Result{Trial: Trial{Style: "fast", Index: i}, Bugs: []string{"a", "b"}, Detected: map[string]float64{"a": fastA[i]},
			Canaries: map[string]int64{"a": 10, "a!": 4}, Checks: 1000, Seconds: 100}
		results = append(results, r)
		r = Result{Trial: Trial{Style: "slow", Index: i}, Bugs: []string{"a", "b"}, Detected: map[string]float64{},
			Canaries: map[string]int64{"a": 2}, Checks: 500, Seconds: 100, Unexplained: []string{"x"}}
		if slowA[i] >= 0 {
			r.Detected["a"] = slowA[i]
		}
		results = append(results, r)
	}
	s := Summarize(plan, bugs, results)
	fa, sa, fb := s.cell("fast", "a"), s.cell("slow", "a"), s.cell("fast", "b")
	if fa.Detected != 5 || sa.Detected != 3 || fb.Detected != 0 || fb.Trials != 5 {
		t.Fatalf("detections: fast/a %d, slow/a %d, fast/b %d of %d", fa.Detected, sa.Detected, fb.Detected, fb.Trials)
	}
	if sa.Times[3] != 100 || sa.Observed[3] {
		t.Errorf("a miss is censored at the budget: %v %v", sa.Times, sa.Observed)
	}
	if fa.Median != 3 || fa.Q1 != 2 || fa.Q3 != 4 || !fa.KMReached || fa.KMMedian != 3 {
		t.Errorf("fast/a times: median %v [%v, %v], KM %v %v", fa.Median, fa.Q1, fa.Q3, fa.KMMedian, fa.KMReached)
	}
	if fa.Reached != 10 || fa.Triggered != 4 || sa.Reached != 2 || sa.Triggered != 0 || fb.Reached != -1 {
		t.Errorf("canaries: %v/%v, %v/%v, %v", fa.Reached, fa.Triggered, sa.Reached, sa.Triggered, fb.Reached)
	}
	var pa *Pair
	for i := range s.Pairs {
		if s.Pairs[i].Bug == "a" {
			pa = &s.Pairs[i]
		}
	}
	// fast beats slow in every pair of trials: U = 0, A12 = 0; with the two misses tied at the
	// budget SciPy (mannwhitneyu, two-sided, auto) gives p = 0.0119252335930176 (asymptotic).
	if pa == nil || pa.U != 0 || pa.A12 != 0 || math.Abs(pa.P-0.0119252335930176) > 1e-12 || pa.Faster != "fast" || pa.Magnitude != "large" {
		t.Errorf("pair on a: %+v", pa)
	}
	if s.Ranking[0].Style != "fast" {
		t.Errorf("ranking: %+v", s.Ranking)
	}
	if s.Styles[1].Unexplained["x"] != 5 || s.Styles[0].ChecksPerSec != 10 {
		t.Errorf("styles: %+v", s.Styles)
	}
	md := s.Markdown()
	for _, want := range []string{"| a | planted | fast | 5/5 | 3.00 s [2.00 s, 4.00 s]; KM 3.00 s | 10.0 / 4.0 |", "| a | fast | slow | 0.0 |", "- slow: x (5 trials)"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	page, err := s.HTML()
	if err != nil || !strings.Contains(string(page), "<svg") {
		t.Errorf("html: %v", err)
	}
}

// TestSummaryJSON checks that a report with undetected bugs and styles without trials encodes.
func TestSummaryJSON(t *testing.T) {
	plan := Plan{Styles: []string{"a", "b"}, Bugs: []string{"x"}, Trials: 2, Budget: 5}
	s := Summarize(plan, []Bug{{ID: "x"}}, []Result{{Trial: Trial{Style: "a"}, Bugs: []string{"x"}}})
	b, err := s.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(b, &back); err != nil || len(back.Cells) != 2 || back.Cells[0].Median != -1 {
		t.Fatalf("%v %+v", err, back.Cells)
	}
}
