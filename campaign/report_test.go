package campaign

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

var reportStart = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func writeTestJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// statsLines returns n samples as JSON lines, the k-th with k unique findings.
func statsLines(t *testing.T, n int) string {
	t.Helper()
	var sb strings.Builder
	for k := 1; k <= n; k++ {
		s := Sample{
			Time: reportStart.Add(time.Duration(5*k) * time.Second), Elapsed: float64(5 * k),
			Tests: int64(100 * k), Checks: int64(300 * k), Statements: int64(1000 * k), Valid: int64(900 * k),
			ChecksPerSec: 60, TestsPerSec: 20, Skips: map[string]int64{"timeout": int64(k)},
			Findings: map[string]int64{"wrong-result": int64(k)}, Hits: int64(2 * k),
			TargetSeconds: float64(4 * k), WorkerSeconds: float64(5 * k),
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(b)
		sb.WriteByte('\n')
	}
	return sb.String()
}

func TestWriteReport(t *testing.T) {
	info := Info{
		Format: "polyfuzz campaign v1", Command: "fuzz", Domain: "sql", Seed: 42,
		Targets: []TargetInfo{{"sqlite", "3.45.1"}, {"duckdb", "1.1.0"}},
		Oracles: []string{"differential", "tlp"}, Workers: 4, Start: reportStart,
	}
	finished := info
	finished.End = reportStart.Add(time.Minute)
	finished.Stop = "budget"
	finished.Totals = &Sample{Elapsed: 60, Tests: 1200, Checks: 3600, Statements: 12000, Valid: 11000,
		Findings: map[string]int64{"crash": 1, "wrong-result": 1}, Hits: 7, TargetSeconds: 200, WorkerSeconds: 240}

	findings := map[string]*Record{
		"0123456789abcdef": {Format: RecordFormat, Title: `SELECT '<b>' & "x" FROM t`, Kind: fuzz.KindWrongResult, Oracle: "tlp",
			Status: "reduced", Hits: 5, FirstSeen: reportStart.Add(10 * time.Second), Reliability: "3/3"},
		"fedcba9876543210": {Format: RecordFormat, Title: `crash in <script>alert(1)</script>`, Kind: fuzz.KindCrash, Oracle: "differential",
			Status: "confirmed", Hits: 2, FirstSeen: reportStart.Add(20 * time.Second), Reliability: "2/3"},
	}
	escaped := []string{
		`SELECT &#39;&lt;b&gt;&#39; &amp; &#34;x&#34; FROM t`,
		`crash in &lt;script&gt;alert(1)&lt;/script&gt;`,
	}

	tests := []struct {
		name     string
		info     Info
		stats    string // contents of stats.jsonl
		findings bool
		want     []string
		svgs     int
	}{
		{"finished", finished, statsLines(t, 3) + `{"time":"2025-03-01T12:00:2`, true,
			append([]string{"budget", "sqlite 3.45.1", "final totals", "83.3%", "findings/0123456789abcdef/"}, escaped...), 2},
		{"interrupted", info, statsLines(t, 4), true,
			append([]string{"not recorded", "last sample", "80.0%"}, escaped...), 2},
		{"empty", info, "", false, []string{"No findings", "No statistics"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTestJSON(t, filepath.Join(dir, "campaign.json"), tc.info)
			if err := os.WriteFile(filepath.Join(dir, "stats.jsonl"), []byte(tc.stats), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.findings {
				for hash, f := range findings {
					writeTestJSON(t, filepath.Join(dir, "findings", hash, "finding.json"), f)
				}
			}
			if err := WriteReport(dir); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("report lacks %q", w)
				}
			}
			for _, f := range findings {
				if strings.Contains(page, f.Title) {
					t.Errorf("report contains unescaped title %q", f.Title)
				}
			}
			if n := strings.Count(page, "<svg"); n != tc.svgs {
				t.Errorf("report has %d <svg elements, want %d", n, tc.svgs)
			}
			if strings.Contains(page, "<script") {
				t.Error("report contains a <script element")
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".report") {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

func TestReadSamples(t *testing.T) {
	good := statsLines(t, 2)
	tests := []struct {
		name    string
		data    string
		want    int
		wantErr bool
	}{
		{"empty", "", 0, false},
		{"complete", good, 2, false},
		{"truncated last line", good + `{"tests":`, 2, false},
		{"corrupt middle line", `{"tests":` + "\n" + good, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stats.jsonl")
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := readSamples(path)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if len(got) != tc.want {
				t.Errorf("got %d samples, want %d", len(got), tc.want)
			}
		})
	}
	if got, err := readSamples(filepath.Join(t.TempDir(), "missing")); err != nil || got != nil {
		t.Errorf("missing file: got %v, %v; want no samples and no error", got, err)
	}
}
