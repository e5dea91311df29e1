package campaign

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"gonum.org/v1/plot"
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

// TestWriteReportBugs checks what the report shows of each bug: findings grouped by signature,
// the reduced case (else the original), expected and actual on both, engines and versions, the
// reproducer, the polyfuzz version and the planted-fault mark, all HTML-escaped.
func TestWriteReportBugs(t *testing.T) {
	dir := t.TempDir()
	info := Info{Format: "polyfuzz campaign v1", Command: `polyfuzz sql --fault 'drop-row:<b>' --out "o 1"`, Domain: "sql",
		Polyfuzz: "9.8.7", Fault: "drop-row:<b>", Targets: []TargetInfo{{"sqlite", "3.45.1"}}, Start: reportStart}
	writeTestJSON(t, filepath.Join(dir, "campaign.json"), info)
	sqlite := []TargetInfo{{"sqlite", "3.45.1"}}
	reduced := sqlCase([]string{"CREATE TABLE t0 (c0)"}, "(c0 LIKE '<script>')", "norec.opt-rows")
	type files map[string]string
	findings := []struct {
		hash  string
		rec   Record
		files files
	}{
		{"aaaa000000000001", Record{Title: PlantedMark + "norec: sqlite: optimized query returns fewer rows", Kind: fuzz.KindWrongResult,
			Oracle: "norec", Targets: sqlite, Hits: 3, Fault: "drop-row:<b>", Polyfuzz: "9.8.7", Status: StatusReduced,
			Expected: "1 rows (reduced)", Actual: "0 rows (reduced)", OriginalExpected: "7 rows (original)", OriginalActual: "5 rows (original)",
			Replay: "polyfuzz replay o/findings/aaaa000000000001", FirstSeen: reportStart.Add(time.Second)},
			files{"reduced.sql": "SELECT '<script>' -- the reduced case\n", "case.sql": "SELECT 'the original case'\n"}},
		{"aaaa000000000002", Record{Title: PlantedMark + "tlp-where: sqlite: partitions miss rows", Kind: fuzz.KindWrongResult,
			Oracle: "tlp-where", Targets: sqlite, Hits: 1, Fault: "drop-row:<b>", FirstSeen: reportStart.Add(2 * time.Second)},
			files{"case.sql": "SELECT 'another case'\n"}},
		{"bbbb000000000001", Record{Title: "error: sqlite: malformed", Kind: fuzz.KindUnexpectedError, Oracle: "error",
			Targets: []TargetInfo{{"sqlite", "3.45.1"}, {"duckdb", "1.1.0"}}, Hits: 2, Expected: "an answer", Actual: "malformed <x>",
			Polyfuzz: "9.8.6", FirstSeen: reportStart.Add(3 * time.Second)},
			files{"case.sql": "SELECT 'unreduced';\n"}},
	}
	for _, f := range findings {
		f.rec.Format = RecordFormat
		d := filepath.Join(dir, "findings", f.hash)
		writeTestJSON(t, filepath.Join(d, "finding.json"), f.rec)
		writeTestJSON(t, filepath.Join(d, "case.json"), &fuzz.Case{Setup: []string{f.hash}})
		for name, text := range f.files {
			if err := os.WriteFile(filepath.Join(d, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	writeTestJSON(t, filepath.Join(dir, "findings", "aaaa000000000001", "reduced.json"), reduced)
	if err := WriteReport(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		"2 bug(s) from 3 finding(s)",
		`<code>polyfuzz sql --fault &#39;drop-row:&lt;b&gt;&#39; --out &#34;o 1&#34;</code>`,
		"<tr><th>polyfuzz</th><td>9.8.7</td></tr>",
		"planted fault: drop-row:&lt;b&gt; — not an engine bug",
		"<h3>norec: sqlite: optimized query returns fewer rows</h3>",
		"tlp-where: sqlite: partitions miss rows (1 hits",
		"SELECT &#39;&lt;script&gt;&#39; -- the reduced case",
		"Expected (reduced case)</th><td>1 rows (reduced)",
		"Actual (reduced case)</th><td>0 rows (reduced)",
		"Expected (original case)</th><td>7 rows (original)",
		"Actual (original case)</th><td>5 rows (original)",
		"<code>bash findings/aaaa000000000001/repro.sh</code>",
		"<code>polyfuzz replay o/findings/aaaa000000000001</code>",
		"<h3>error: sqlite: malformed</h3>",
		"sqlite 3.45.1, duckdb 1.1.0",
		"malformed &lt;x&gt;",
		"SELECT &#39;unreduced&#39;;",
		"<tr><th>polyfuzz</th><td>9.8.6</td></tr>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, avoid := range []string{"the original case", "another case", "<script", "drop-row:<b>"} {
		if strings.Contains(page, avoid) {
			t.Errorf("report shows %q", avoid)
		}
	}
	if n := strings.Count(page, "not an engine bug"); n != 1 {
		t.Errorf("the planted-fault mark appears %d times in the bug sections, want once", n)
	}
}

func TestFullIntervals(t *testing.T) {
	at := func(ts ...float64) []Sample {
		var out []Sample
		for _, x := range ts {
			out = append(out, Sample{Elapsed: x})
		}
		return out
	}
	tests := []struct {
		name    string
		samples []Sample
		want    int
	}{
		{"partial last interval", at(5, 10, 15, 17), 3},
		{"full last interval", at(5, 10, 15, 19.8), 4},
		{"two samples", at(5, 6), 2},
		{"none", nil, 0},
	}
	for _, tc := range tests {
		if got := len(fullIntervals(tc.samples)); got != tc.want {
			t.Errorf("%s: %d samples kept, want %d", tc.name, got, tc.want)
		}
	}
}

func TestCountTicks(t *testing.T) {
	tests := []struct{ lo, hi float64 }{{0, 1}, {0, 3}, {0, 7}, {0, 13.2}, {0, 250}, {2, 9}}
	for _, tc := range tests {
		ticks := countTicks{}.Ticks(tc.lo, tc.hi)
		if len(ticks) < 2 || len(ticks) > 8 {
			t.Errorf("Ticks(%v, %v): %d ticks", tc.lo, tc.hi, len(ticks))
		}
		for _, tk := range ticks {
			if tk.Value != math.Trunc(tk.Value) || strings.ContainsAny(tk.Label, ".e") || tk.Value < tc.lo || tk.Value > tc.hi {
				t.Errorf("Ticks(%v, %v) has tick %v %q", tc.lo, tc.hi, tk.Value, tk.Label)
			}
		}
	}
}

// TestPlotsStartAtZero checks that both plots start at zero on both axes, that the rate plot
// leaves out a partial last interval, and that the findings plot counts in whole numbers.
func TestPlotsStartAtZero(t *testing.T) {
	samples := []Sample{{Elapsed: 5, ChecksPerSec: 100, Findings: map[string]int64{"crash": 1}},
		{Elapsed: 10, ChecksPerSec: 120, Findings: map[string]int64{"crash": 1}},
		{Elapsed: 12, ChecksPerSec: 3, Findings: map[string]int64{"crash": 1}}}
	bugs := []Bug{{Records: []*Record{{FirstSeen: reportStart.Add(2 * time.Second)}, {FirstSeen: reportStart.Add(4 * time.Second)}}}}
	rate, err := ratePlot(samples)
	if err != nil {
		t.Fatal(err)
	}
	found, err := findingsPlot(samples, bugs, reportStart)
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*plot.Plot{"rate": rate, "findings": found} {
		if p.X.Min != 0 || p.Y.Min != 0 {
			t.Errorf("%s plot starts at (%v, %v)", name, p.X.Min, p.Y.Min)
		}
	}
	if rate.Y.Min != 0 || rate.X.Max != 10 {
		t.Errorf("rate plot spans x 0..%v, want the partial last interval (12 s) left out", rate.X.Max)
	}
	for _, tk := range found.Y.Tick.Marker.Ticks(found.Y.Min, found.Y.Max) {
		if tk.Label != "" && strings.Contains(tk.Label, ".") {
			t.Errorf("findings plot labels tick %q", tk.Label)
		}
	}
	if _, ok := rate.Y.Tick.Marker.(countTicks); ok {
		t.Error("the rate plot's axis counts in whole numbers")
	}
}
