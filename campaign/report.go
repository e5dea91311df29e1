package campaign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// reportPage is what the template renders.
type reportPage struct {
	Info      Info
	Generated time.Time
	// Totals is Info.Totals, or the last sample if the campaign did not record totals; nil if neither.
	Totals       *Sample
	TotalsSource string
	ChecksPerSec string
	ValidRate    string
	Efficiency   string
	Findings     []*Record
	Bugs         []bugView
	// Throughput and FindingsPlot are inline SVG, empty when there is nothing to plot.
	Throughput   template.HTML
	FindingsPlot template.HTML
}

// bugView is one bug as the report shows it: the bug, and the case and facts of its most hit
// finding.
type bugView struct {
	Bug
	ID string
	// Rec is the most hit finding; Others the rest.
	Rec    *Record
	Others []*Record
	// Fault is the planted fault spec, "" for an engine bug.
	Fault string
	// CaseFile names the case text shown (reduced.EXT, else case.EXT); CaseText is its text, cut
	// at maxCaseText bytes (Cut says so).
	CaseFile string
	CaseText string
	Cut      bool
	Kinds    string
	Engines  string
}

// maxCaseText is how much of a case's text the report shows.
const maxCaseText = 32 << 10

// WriteReport reads campaign.json, stats.jsonl and findings/*/ from the campaign output
// directory dir and writes dir/report.html, replacing any previous report atomically. Findings
// are shown grouped into bugs ([Bugs]), each with its case text, expected and actual answers,
// engines and reproducer. A missing or empty stats.jsonl, a truncated last line in it, no
// findings, and a campaign.json without end or totals (an interrupted campaign) are all tolerated.
func WriteReport(dir string) error {
	var info Info
	b, err := os.ReadFile(filepath.Join(dir, "campaign.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return fmt.Errorf("campaign.json: %w", err)
	}
	samples, err := readSamples(filepath.Join(dir, "stats.jsonl"))
	if err != nil {
		return err
	}
	findingsDir := filepath.Join(dir, "findings")
	findings, err := readRecords(findingsDir)
	if err != nil {
		return err
	}
	bugs := groupBugs(findingsDir, findings)

	page := reportPage{Info: info, Generated: time.Now(), Findings: findings,
		ChecksPerSec: "—", ValidRate: "—", Efficiency: "—"}
	for _, bug := range bugs {
		page.Bugs = append(page.Bugs, newBugView(findingsDir, bug))
	}
	switch {
	case info.Totals != nil:
		page.Totals, page.TotalsSource = info.Totals, "final totals"
	case len(samples) > 0:
		last := samples[len(samples)-1]
		page.Totals = &last
		page.TotalsSource = fmt.Sprintf("last sample, %.0fs into the campaign (no final totals recorded)", last.Elapsed)
	}
	if t := page.Totals; t != nil {
		elapsed := t.Elapsed
		if elapsed <= 0 && !info.End.IsZero() {
			elapsed = info.End.Sub(info.Start).Seconds()
		}
		if elapsed > 0 {
			page.ChecksPerSec = fmt.Sprintf("%.1f", float64(t.Checks)/elapsed)
		}
		if t.Statements > 0 {
			page.ValidRate = fmt.Sprintf("%.1f%%", 100*float64(t.Valid)/float64(t.Statements))
		}
		if t.WorkerSeconds > 0 {
			page.Efficiency = fmt.Sprintf("%.1f%%", 100*t.TargetSeconds/t.WorkerSeconds)
		}
	}

	if len(samples) > 0 {
		p, err := ratePlot(samples)
		if err != nil {
			return err
		}
		if page.Throughput, err = PlotSVG(p); err != nil {
			return err
		}
		if p, err = findingsPlot(samples, bugs, info.Start); err != nil {
			return err
		}
		if page.FindingsPlot, err = PlotSVG(p); err != nil {
			return err
		}
	}

	var out bytes.Buffer
	if err := reportTmpl.Execute(&out, page); err != nil {
		return err
	}
	return WriteAtomic(dir, "report.html", out.Bytes())
}

// newBugView reads what the report shows of bug from its findings' directories under findings.
func newBugView(findings string, bug Bug) bugView {
	v := bugView{Bug: bug, ID: bug.Signature.ID(), Rec: bug.Records[0], Others: bug.Records[1:], Fault: bug.Signature.Fault}
	if v.Fault == "" {
		v.Fault = RecordFault(v.Rec)
	}
	var kinds, engines []string
	for _, r := range bug.Records {
		if k := r.Kind.String(); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
		for _, t := range r.Targets {
			if e := t.Name + " " + t.Version; !slices.Contains(engines, e) {
				engines = append(engines, e)
			}
		}
	}
	v.Kinds, v.Engines = strings.Join(kinds, ", "), strings.Join(engines, ", ")
	dir := filepath.Join(findings, v.Rec.Hash)
	for _, base := range []string{"reduced", "case"} {
		paths, _ := filepath.Glob(filepath.Join(dir, base+".*"))
		for _, p := range paths {
			if strings.HasSuffix(p, ".json") {
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			if len(b) > maxCaseText {
				b, v.Cut = b[:maxCaseText], true
			}
			v.CaseFile, v.CaseText = filepath.Base(p), strings.ToValidUTF8(string(b), "\uFFFD")
			return v
		}
	}
	return v
}

// readSamples parses stats.jsonl. A malformed final line (a write cut short by a crash) is
// skipped; a malformed line anywhere else is an error. A missing file means no samples.
func readSamples(path string) ([]Sample, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	var samples []Sample
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var s Sample
		if err := json.Unmarshal(line, &s); err != nil {
			if i == len(lines)-1 {
				break
			}
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		samples = append(samples, s)
	}
	return samples, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// ratePlot draws the checks per second of each sample's interval against elapsed time. The
// last sample usually covers a shorter interval than the others (the campaign stopped within
// it), over which the workers were also winding down; it is left out when its interval is
// shorter than nine tenths of the median interval, so that the line does not plunge at the end.
func ratePlot(samples []Sample) (*plot.Plot, error) {
	samples = fullIntervals(samples)
	var rate plotter.XYs
	for _, s := range samples {
		if finite(s.Elapsed) && finite(s.ChecksPerSec) {
			rate = append(rate, plotter.XY{X: s.Elapsed, Y: s.ChecksPerSec})
		}
	}
	return linePlot("Throughput", "checks/s", false, plotter.NoStep, namedLine{"", rate})
}

// fullIntervals returns samples without a last sample that covers a partial interval.
func fullIntervals(samples []Sample) []Sample {
	n := len(samples)
	if n < 3 {
		return samples
	}
	var dts []float64
	for i := 1; i < n-1; i++ {
		dts = append(dts, samples[i].Elapsed-samples[i-1].Elapsed)
	}
	slices.Sort(dts)
	median := dts[len(dts)/2]
	if last := samples[n-1].Elapsed - samples[n-2].Elapsed; last < 0.9*median {
		return samples[:n-1]
	}
	return samples
}

// findingsPlot draws, against elapsed time since start, the unique findings (titles) and the
// bugs they make (see Bugs), each counted from its first finding's first-seen time; findings first
// seen before start (by an earlier campaign on the same directory) count from the beginning.
// Without findings or a start time it draws the unique findings each sample counted.
func findingsPlot(samples []Sample, bugs []Bug, start time.Time) (*plot.Plot, error) {
	end := 0.0
	for _, s := range samples {
		if finite(s.Elapsed) {
			end = max(end, s.Elapsed)
		}
	}
	if len(bugs) == 0 || start.IsZero() {
		uniq := plotter.XYs{{X: 0, Y: 0}}
		for _, s := range samples {
			if finite(s.Elapsed) {
				uniq = append(uniq, plotter.XY{X: s.Elapsed, Y: float64(s.UniqueFindings())})
			}
		}
		return linePlot("Findings over time", "count (cumulative)", true, plotter.PostStep,
			namedLine{"unique findings (titles)", uniq})
	}
	var titles, firsts []float64
	for _, b := range bugs {
		first := math.Inf(1)
		for _, r := range b.Records {
			at := max(0, r.FirstSeen.Sub(start).Seconds())
			titles = append(titles, at)
			first = min(first, at)
		}
		firsts = append(firsts, first)
	}
	return linePlot("Findings over time", "count (cumulative)", true, plotter.PostStep,
		namedLine{"unique findings (titles)", cumulative(titles, end)}, namedLine{"bugs (signatures)", cumulative(firsts, end)})
}

// cumulative returns the step line of how many of the times at have passed, from zero to end.
func cumulative(at []float64, end float64) plotter.XYs {
	slices.Sort(at)
	line := plotter.XYs{{X: 0, Y: 0}}
	for i, x := range at {
		line = append(line, plotter.XY{X: x, Y: float64(i + 1)})
	}
	if len(at) > 0 && end > at[len(at)-1] {
		line = append(line, plotter.XY{X: end, Y: float64(len(at))})
	}
	return line
}

// namedLine is one line of a plot and its legend; no legend when Name is "".
type namedLine struct {
	Name string
	XYs  plotter.XYs
}

// linePlot draws lines against elapsed seconds, both axes from zero; counts gives the y axis
// whole-number ticks. Lines without points are left out; nil when no line has a point.
func linePlot(title, ylabel string, counts bool, step plotter.StepKind, lines ...namedLine) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "elapsed (s)"
	p.Y.Label.Text = ylabel
	p.X.Min, p.Y.Min, p.X.Max, p.Y.Max = 0, 0, 1, 1
	p.Add(plotter.NewGrid())
	drawn, legends := false, 0
	for i, l := range lines {
		if len(l.XYs) == 0 {
			continue
		}
		line, err := plotter.NewLine(l.XYs)
		if err != nil {
			return nil, err
		}
		line.StepStyle = step
		line.Color = plotutil.Color(i)
		line.Dashes = plotutil.Dashes(i)
		p.Add(line)
		if l.Name != "" {
			p.Legend.Add(l.Name, line)
			legends++
		}
		drawn = true
	}
	if !drawn {
		return nil, nil
	}
	if legends > 0 {
		// Room above the lines for the legend in the top left corner.
		p.Legend.Top, p.Legend.Left = true, true
		p.Y.Max *= 1.1 + 0.12*float64(legends)
	}
	if counts {
		p.Y.Tick.Marker = countTicks{}
	}
	return p, nil
}

// countTicks marks whole numbers only: at most about six labelled ticks, 1, 2 or 5 times a
// power of ten apart.
type countTicks struct{}

// Ticks returns the whole-number ticks between lo and hi.
func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	lo = math.Max(0, lo)
	step := 1.0
	for k := 1.0; k < 1e18; k *= 10 {
		if step = k; (hi-lo)/k <= 6 {
			break
		}
		if step = 2 * k; (hi-lo)/step <= 6 {
			break
		}
		if step = 5 * k; (hi-lo)/step <= 6 {
			break
		}
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}

// PlotSVG renders p as an SVG element to put inside an HTML page; "" for a nil plot. Every
// report of polyfuzz draws its charts with gonum/plot through it.
func PlotSVG(p *plot.Plot) (template.HTML, error) {
	if p == nil {
		return "", nil
	}
	c := vgsvg.New(6*vg.Inch, 3*vg.Inch)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	// Drop the XML declaration and comment that precede <svg; they do not belong inside HTML.
	s := buf.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return template.HTML(s), nil // generated by gonum/plot from numbers and fixed labels
}

// WriteAtomic writes data to dir/name through a temporary file in dir and a rename.
func WriteAtomic(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, "."+name+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Format("2006-01-02 15:04:05 MST")
}

var reportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"time": fmtTime,
	"dur": func(a, b time.Time) string {
		if a.IsZero() || b.IsZero() {
			return ""
		}
		return "(" + b.Sub(a).Round(time.Second).String() + ")"
	},
	"shortTitle": func(r *Record) string { return r.OracleTitle() },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>polyfuzz report: {{.Info.Command}} {{.Info.Domain}}</title>
<style>
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; margin-bottom: 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; }
figure { margin: 0 0 1.5em 0; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: 0.6em; overflow-x: auto; max-height: 30em; }
code { background: #f7f7f7; }
.planted { background: #fff3cd; border: 1px solid #e0c060; padding: 0.4em 0.8em; font-weight: bold; }
section.bug { border-top: 2px solid #ccc; margin-top: 1.5em; padding-top: 0.5em; }
</style>
</head>
<body>
<h1>polyfuzz campaign report</h1>
{{with .Info}}
{{if .Fault}}<p class="planted">This campaign planted a fault in its first engine: {{.Fault}}. Its findings are not engine bugs.</p>{{end}}
<table>
<tr><th>Command</th><td><code>{{.Command}}</code></td></tr>
<tr><th>polyfuzz</th><td>{{or .Polyfuzz "—"}}</td></tr>
<tr><th>Domain</th><td>{{.Domain}}</td></tr>
<tr><th>Seed</th><td>{{.Seed}}</td></tr>
<tr><th>Targets</th><td>{{range $i, $t := .Targets}}{{if $i}}, {{end}}{{$t.Name}} {{$t.Version}}{{else}}—{{end}}</td></tr>
<tr><th>Oracles</th><td>{{range $i, $o := .Oracles}}{{if $i}}, {{end}}{{$o}}{{else}}—{{end}}</td></tr>
<tr><th>Workers</th><td>{{.Workers}}</td></tr>
<tr><th>Start</th><td>{{time .Start}}</td></tr>
<tr><th>End</th><td>{{if .End.IsZero}}not recorded (running or interrupted){{else}}{{time .End}} {{dur .Start .End}}{{end}}</td></tr>
<tr><th>Stop reason</th><td>{{or .Stop "—"}}</td></tr>
</table>
{{end}}
<h2>Totals</h2>
{{with .Totals}}
<p>From {{$.TotalsSource}}.</p>
<table>
<tr><th>Tests</th><td class="num">{{.Tests}}</td></tr>
<tr><th>Checks</th><td class="num">{{.Checks}}</td></tr>
<tr><th>Checks/s (average)</th><td class="num">{{$.ChecksPerSec}}</td></tr>
<tr><th>Statements</th><td class="num">{{.Statements}}</td></tr>
<tr><th>Valid statements</th><td class="num">{{$.ValidRate}}</td></tr>
<tr><th>Skipped checks</th><td>{{range $r, $n := .Skips}}{{$r}}: {{$n}}<br>{{else}}none{{end}}</td></tr>
<tr><th>Notes</th><td>{{range $r, $n := .Notes}}{{$r}}: {{$n}}<br>{{else}}none{{end}}</td></tr>
<tr><th>Unique findings</th><td>{{range $k, $n := .Findings}}{{$k}}: {{$n}}<br>{{else}}none{{end}}</td></tr>
<tr><th>Hits</th><td class="num">{{.Hits}}</td></tr>
<tr><th>Harness efficiency (target time / worker time)</th><td class="num">{{$.Efficiency}}</td></tr>
</table>
{{else}}
<p>No statistics recorded.</p>
{{end}}
<h2>Bugs</h2>
{{if .Bugs}}
<p>{{len .Bugs}} bug(s) from {{len .Findings}} finding(s). Findings whose cases share a signature (the same planted fault,
or the same kind, engine and reduced case up to literals and names) are one bug, whatever oracle saw them.</p>
<table>
<tr><th>Bug</th><th>Title</th><th>Kind</th><th>Engines</th><th>Findings</th><th>Hits</th></tr>
{{range .Bugs}}<tr><td><a href="#bug-{{.ID}}">{{.ID}}</a></td><td>{{if .Fault}}<b>planted fault</b>: {{end}}{{shortTitle .Rec}}{{with .AltTitles}}<br><small>and {{len .}} other title(s)</small>{{end}}</td><td>{{.Kinds}}</td><td>{{.Signature.Engines}}</td><td class="num">{{len .Records}}</td><td class="num">{{.Hits}}</td></tr>
{{end}}</table>
{{range .Bugs}}
<section class="bug" id="bug-{{.ID}}">
<h3>{{shortTitle .Rec}}</h3>
{{if .Fault}}<p class="planted">planted fault: {{.Fault}} — not an engine bug. polyfuzz corrupted the engine's answers on purpose to prove that its oracles fire; the engine's own client cannot reproduce it.</p>{{end}}
<table>
<tr><th>Signature</th><td>{{.ID}}</td></tr>
<tr><th>Kind</th><td>{{.Kinds}}</td></tr>
<tr><th>Engines</th><td>{{.Engines}}</td></tr>
<tr><th>Hits</th><td class="num">{{.Hits}}</td></tr>
{{with .Rec}}
<tr><th>Oracle</th><td>{{.Oracle}}</td></tr>
<tr><th>Status</th><td>{{.Status}}{{with .Reliability}}, reproduced {{.}}{{end}}{{with .Note}} ({{.}}){{end}}</td></tr>
<tr><th>First seen</th><td>{{time .FirstSeen}}</td></tr>
{{if .OriginalExpected}}
<tr><th>Expected (reduced case)</th><td>{{.Expected}}</td></tr>
<tr><th>Actual (reduced case)</th><td>{{.Actual}}</td></tr>
<tr><th>Expected (original case)</th><td>{{.OriginalExpected}}</td></tr>
<tr><th>Actual (original case)</th><td>{{.OriginalActual}}</td></tr>
{{else}}
<tr><th>Expected</th><td>{{.Expected}}</td></tr>
<tr><th>Actual</th><td>{{.Actual}}</td></tr>
{{end}}
<tr><th>Reproduce</th><td><code>bash findings/{{.Hash}}/repro.sh</code>{{with .Replay}}<br><code>{{.}}</code>{{end}}</td></tr>
<tr><th>polyfuzz</th><td>{{or .Polyfuzz "—"}}</td></tr>
<tr><th>Directory</th><td><a href="findings/{{.Hash}}/">findings/{{.Hash}}/</a></td></tr>
{{end}}
{{with .Others}}<tr><th>Also seen as</th><td>{{range .}}{{shortTitle .}} ({{.Hits}} hits, <a href="findings/{{.Hash}}/">{{.Hash}}</a>)<br>{{end}}</td></tr>{{end}}
</table>
{{if .CaseFile}}<p>{{.CaseFile}}{{if .Cut}} (cut: the whole file is in the finding's directory){{end}}:</p>
<pre>{{.CaseText}}</pre>{{end}}
</section>
{{end}}
{{else}}
<p>No findings.</p>
{{end}}
{{if .Findings}}
<h2>All findings</h2>
<table>
<tr><th>Title</th><th>Kind</th><th>Oracle</th><th>Status</th><th>Hits</th><th>First seen</th><th>Reliability</th><th>Directory</th></tr>
{{range .Findings}}<tr><td>{{.Title}}</td><td>{{.Kind}}</td><td>{{.Oracle}}</td><td>{{.Status}}</td><td class="num">{{.Hits}}</td><td>{{time .FirstSeen}}</td><td>{{.Reliability}}</td><td><a href="findings/{{.Hash}}/">{{.Hash}}</a></td></tr>
{{end}}</table>
{{end}}
{{if or .Throughput .FindingsPlot}}<h2>Over time</h2>{{end}}
{{with .Throughput}}<figure>{{.}}</figure>{{end}}
{{with .FindingsPlot}}<figure>{{.}}</figure>{{end}}
<p><small>Generated {{time .Generated}}.</small></p>
</body>
</html>
`))
