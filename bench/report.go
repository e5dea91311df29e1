package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/polyfuzz/polyfuzz/campaign"
)

// Alpha is the significance level of the pairwise tests.
const Alpha = 0.05

// Cell is one style on one bug, over the trials that held the bug.
type Cell struct {
	Style    string `json:"style"`
	Bug      string `json:"bug"`
	Trials   int    `json:"trials"`
	Detected int    `json:"detected"`
	// Times are the times to detection in seconds, the budget for a trial that missed the bug
	// (censored: Observed false).
	Times    []float64 `json:"times_s"`
	Observed []bool    `json:"observed"`
	// Median, Q1 and Q3 summarise the times of the trials that detected the bug (-1: none).
	Median float64 `json:"median_s"`
	Q1     float64 `json:"q1_s"`
	Q3     float64 `json:"q3_s"`
	// KMMedian is the Kaplan-Meier median time to detection, censored trials included; KMReached
	// is false when fewer than half the trials detected the bug (the median is beyond the budget).
	KMMedian  float64 `json:"km_median_s"`
	KMReached bool    `json:"km_median_reached"`
	// Reached and Triggered are the mean numbers of cases per trial that reached and triggered a
	// planted bug (its canary); -1 for a bug without a canary.
	Reached   float64 `json:"reached"`
	Triggered float64 `json:"triggered"`
	// Survival is the Kaplan-Meier curve.
	Survival []KMStep `json:"survival"`
}

// Pair is the comparison of two styles on one bug: Mann-Whitney U on the times to detection
// (a missed bug counts as the budget) and Vargha-Delaney A12 (the probability that A takes
// longer than B; below 0.5 A is faster).
type Pair struct {
	Bug       string  `json:"bug"`
	A         string  `json:"a"`
	B         string  `json:"b"`
	U         float64 `json:"u"`
	P         float64 `json:"p"`
	Method    string  `json:"method"`
	A12       float64 `json:"a12"`
	Magnitude string  `json:"magnitude"`
	// Faster names the style that detects sooner when P < Alpha, "" otherwise.
	Faster string `json:"faster,omitempty"`
}

// StyleSummary is a style's throughput and validity over all its trials.
type StyleSummary struct {
	Style        string  `json:"style"`
	Trials       int     `json:"trials"`
	ChecksPerSec float64 `json:"checks_per_s"`
	ValidRate    float64 `json:"valid_rate"`
	SkipRate     float64 `json:"skip_rate"`
	Detected     int     `json:"bugs_detected"`
	// Unexplained counts the unique findings no bug of a trial explains, by title.
	Unexplained map[string]int `json:"unexplained,omitempty"`
	Errors      []string       `json:"errors,omitempty"`
}

// Summary is a benchmark run's report.
type Summary struct {
	Plan    Plan           `json:"plan"`
	Bugs    []Bug          `json:"bugs"`
	Styles  []StyleSummary `json:"styles"`
	Cells   []Cell         `json:"cells"`
	Pairs   []Pair         `json:"pairs"`
	Ranking []Ranked       `json:"ranking"`
}

// Summarize computes the report of the journal's results; bugs describe the plan's bugs.
func Summarize(plan Plan, bugs []Bug, results []Result) *Summary {
	s := &Summary{Plan: plan, Bugs: bugs}
	byID := map[string]Bug{}
	for _, b := range bugs {
		byID[b.ID] = b
	}
	ttd := map[string]map[string][]float64{} // bug -> style -> times
	for _, style := range plan.Styles {
		ss := StyleSummary{Style: style, Unexplained: map[string]int{}}
		var rate, valid, skip []float64
		detected := map[string]bool{}
		for _, r := range results {
			if r.Style != style {
				continue
			}
			if r.Error != "" {
				ss.Errors = append(ss.Errors, r.Error)
				continue
			}
			ss.Trials++
			rate, valid, skip = append(rate, r.ChecksPerSec()), append(valid, r.ValidRate), append(skip, r.SkipRate)
			for _, t := range r.Unexplained {
				ss.Unexplained[t]++
			}
			for b := range r.Detected {
				detected[b] = true
			}
		}
		ss.ChecksPerSec, ss.ValidRate, ss.SkipRate = mean(rate), mean(valid), mean(skip) // 0 without trials
		ss.Detected = len(detected)
		s.Styles = append(s.Styles, ss)
		for _, id := range plan.Bugs {
			c := Cell{Style: style, Bug: id, Reached: -1, Triggered: -1}
			var hit []float64
			var reached, triggered int64
			for _, r := range results {
				if r.Style != style || r.Error != "" || !slices.Contains(r.Bugs, id) {
					continue
				}
				c.Trials++
				t, ok := r.Detected[id]
				if ok {
					c.Detected++
					hit = append(hit, t)
				} else {
					t = plan.Budget
				}
				c.Times, c.Observed = append(c.Times, t), append(c.Observed, ok)
				reached += r.Canaries[id]
				triggered += r.Canaries[id+"!"]
			}
			if b := byID[id]; b.Plant != nil && c.Trials > 0 {
				c.Reached, c.Triggered = float64(reached)/float64(c.Trials), float64(triggered)/float64(c.Trials)
			}
			c.Median, c.Q1, c.Q3 = -1, -1, -1
			if len(hit) > 0 {
				c.Median, c.Q1, c.Q3 = Median(hit), Quantile(hit, 0.25), Quantile(hit, 0.75)
			}
			c.Survival = KaplanMeier(c.Times, c.Observed)
			c.KMMedian, c.KMReached = KMMedian(c.Survival)
			s.Cells = append(s.Cells, c)
			if ttd[id] == nil {
				ttd[id] = map[string][]float64{}
			}
			if c.Trials > 0 {
				ttd[id][style] = c.Times
			}
		}
	}
	for _, id := range plan.Bugs {
		for i, a := range plan.Styles {
			for _, b := range plan.Styles[i+1:] {
				x, y := ttd[id][a], ttd[id][b]
				m, err := MannWhitneyU(x, y)
				if err != nil {
					continue
				}
				p := Pair{Bug: id, A: a, B: b, U: m.U, P: m.P, Method: m.Method, A12: A12(x, y)}
				p.Magnitude = Magnitude(p.A12)
				if p.P < Alpha {
					p.Faster = a
					if p.A12 > 0.5 {
						p.Faster = b
					}
				}
				s.Pairs = append(s.Pairs, p)
			}
		}
	}
	s.Ranking = RankTrials(ttd, false)
	return s
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var t float64
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

// cell returns the cell of style on bug.
func (s *Summary) cell(style, bug string) *Cell {
	for i := range s.Cells {
		if s.Cells[i].Style == style && s.Cells[i].Bug == bug {
			return &s.Cells[i]
		}
	}
	return nil
}

// seconds prints a time in seconds, "-" for none (negative).
func seconds(x float64) string {
	if x < 0 || math.IsNaN(x) {
		return "-"
	}
	if x < 10 {
		return fmt.Sprintf("%.2f s", x)
	}
	return fmt.Sprintf("%.0f s", x)
}

// TTD prints a cell's time to detection: the median of the detecting trials and their
// interquartile range, and the Kaplan-Meier median.
func (c *Cell) TTD(budget float64) string {
	if c.Detected == 0 {
		return "none"
	}
	km := "> " + seconds(budget)
	if c.KMReached {
		km = seconds(c.KMMedian)
	}
	return fmt.Sprintf("%s [%s, %s]; KM %s", seconds(c.Median), seconds(c.Q1), seconds(c.Q3), km)
}

// Markdown returns the report as Markdown tables.
func (s *Summary) Markdown() string {
	var b strings.Builder
	p := s.Plan
	fmt.Fprintf(&b, "# polyfuzz bench: %s\n\n`%s`\n\n", p.Domain, p.Command)
	fmt.Fprintf(&b, "%d styles × %d bugs × %d trials, %s per trial, seeds %d to %d.\n\n", len(p.Styles), len(p.Bugs), p.Trials,
		seconds(p.Budget), p.Seed, p.Seed+uint64(max(p.Trials, 1))-1)
	b.WriteString("## Styles\n\n| style | trials | checks/s | valid statements | skipped checks | bugs detected | unexplained findings | mean rank |\n|---|---|---|---|---|---|---|---|\n")
	ranks := map[string]float64{}
	for _, r := range s.Ranking {
		ranks[r.Style] = r.MeanRank
	}
	for _, st := range s.Styles {
		fmt.Fprintf(&b, "| %s | %d | %.0f | %.1f%% | %.1f%% | %d of %d | %d | %.2f |\n", st.Style, st.Trials, st.ChecksPerSec,
			100*st.ValidRate, 100*st.SkipRate, st.Detected, len(p.Bugs), len(st.Unexplained), ranks[st.Style])
	}
	b.WriteString("\n## Bugs\n\nDetection rate (trials that detected the bug), time to detection: median [first quartile, third quartile] of the detecting trials, and the Kaplan-Meier median over all trials (a missed bug is censored at the budget); for planted bugs, the mean number of cases per trial that reached and triggered the bug.\n\n")
	b.WriteString("| bug | origin | style | detected | time to detection | reached / triggered |\n|---|---|---|---|---|---|\n")
	origin := map[string]string{}
	for _, bug := range s.Bugs {
		origin[bug.ID] = bug.Origin
	}
	for _, id := range p.Bugs {
		for _, st := range p.Styles {
			c := s.cell(st, id)
			if c == nil || c.Trials == 0 {
				continue
			}
			canary := "-"
			if c.Reached >= 0 {
				canary = fmt.Sprintf("%.1f / %.1f", c.Reached, c.Triggered)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %d/%d | %s | %s |\n", id, origin[id], st, c.Detected, c.Trials, c.TTD(p.Budget), canary)
		}
	}
	if len(s.Pairs) > 0 {
		fmt.Fprintf(&b, "\n## Pairs\n\nTwo-sided Mann-Whitney U on the times to detection (a miss counts as the budget) and Vargha-Delaney A12 = P(A slower than B) + P(tie)/2; significant at p < %.2f.\n\n", Alpha)
		b.WriteString("| bug | A | B | U | p | A12 | effect | faster |\n|---|---|---|---|---|---|---|---|\n")
		for _, pr := range s.Pairs {
			faster := "no significant difference"
			if pr.Faster != "" {
				faster = pr.Faster
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %.1f | %.3g (%s) | %.2f | %s | %s |\n", pr.Bug, pr.A, pr.B, pr.U, pr.P, pr.Method, pr.A12, pr.Magnitude, faster)
		}
	}
	var unexplained []string
	for _, st := range s.Styles {
		for t, n := range st.Unexplained {
			unexplained = append(unexplained, fmt.Sprintf("- %s: %s (%d trials)", st.Style, t, n))
		}
		for _, e := range st.Errors {
			unexplained = append(unexplained, fmt.Sprintf("- %s: trial failed: %s", st.Style, e))
		}
	}
	if len(unexplained) > 0 {
		sort.Strings(unexplained)
		b.WriteString("\n## Findings no bug of the benchmark explains\n\nOther bugs of the engine version, or false alarms: each deserves a look (the trial folders hold them).\n\n")
		b.WriteString(strings.Join(unexplained, "\n") + "\n")
	}
	return b.String()
}

// JSON returns the report as indented JSON.
func (s *Summary) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	return append(b, '\n'), err
}

// palette colours the styles of a plot.
var palette = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
	color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
}

// SurvivalPlot draws the Kaplan-Meier curves of every style on bug: the share of trials that
// have not detected the bug yet, over time, to the budget.
func (s *Summary) SurvivalPlot(bug string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = bug
	p.X.Label.Text = "seconds"
	p.Y.Label.Text = "not detected yet"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, s.Plan.Budget, 0, 1.05
	for i, st := range s.Plan.Styles {
		c := s.cell(st, bug)
		if c == nil || c.Trials == 0 {
			continue
		}
		pts := plotter.XYs{{X: 0, Y: 1}}
		for _, step := range c.Survival {
			pts = append(pts, plotter.XY{X: step.T, Y: step.S})
		}
		pts = append(pts, plotter.XY{X: s.Plan.Budget, Y: pts[len(pts)-1].Y})
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.StepStyle = plotter.PostStep
		l.Color = palette[i%len(palette)]
		l.Width = vg.Points(1.5)
		l.Dashes = []vg.Length{vg.Points(float64(2 * (i % 3))), vg.Points(float64(2 * (i % 3)))}
		if i%3 == 0 {
			l.Dashes = nil
		}
		p.Add(l)
		p.Legend.Add(st, l)
	}
	p.Legend.Top = true
	return p, nil
}

// HTML returns the report as a page with the tables and a survival plot per bug.
func (s *Summary) HTML() ([]byte, error) {
	type plotted struct {
		Bug string
		SVG template.HTML
	}
	var plots []plotted
	for _, id := range s.Plan.Bugs {
		p, err := s.SurvivalPlot(id)
		if err != nil {
			return nil, err
		}
		svg, err := campaign.PlotSVG(p)
		if err != nil {
			return nil, err
		}
		plots = append(plots, plotted{id, svg})
	}
	var out bytes.Buffer
	err := htmlTmpl.Execute(&out, struct {
		S     *Summary
		MD    string
		Plots []plotted
	}{s, s.Markdown(), plots})
	return out.Bytes(), err
}

var htmlTmpl = template.Must(template.New("bench").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>polyfuzz bench: {{.S.Plan.Domain}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; max-width: 70em; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: 1em; }
figure { display: inline-block; margin: 0.5em; }
</style>
</head>
<body>
<h1>polyfuzz bench: {{.S.Plan.Domain}}</h1>
<h2>Survival curves</h2>
<p>For each bug, the share of trials of each style that have not detected it yet (Kaplan-Meier; a trial that missed the bug is censored at the budget).</p>
{{range .Plots}}<figure>{{.SVG}}</figure>
{{end}}
<h2>Tables</h2>
<pre>{{.MD}}</pre>
</body>
</html>
`))
