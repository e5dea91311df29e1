package campaign

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"
)

// progress writes what a running campaign shows people: a live line redrawn every second on a
// terminal (a plain line every so often otherwise), and one line for each new finding. Its zero
// value with a nil writer shows nothing.
type progress struct {
	w      io.Writer
	live   bool
	every  time.Duration // plain lines: the interval
	budget time.Duration // 0: no time limit
	tests  int64         // 0: no limit on tests

	mu        sync.Mutex
	rate      float64 // checks/s, smoothed
	testRate  float64 // tests/s, smoothed
	prev      *Sample
	lastPlain time.Time
	shown     string // the live line on screen, "" if none
}

// smoothing is the time constant of the smoothed rates.
const smoothing = 5 * time.Second

func newProgress(cfg *Config, start time.Time) *progress {
	return &progress{w: cfg.Progress, live: cfg.Live, every: cfg.ProgressEvery, budget: cfg.Budget,
		tests: cfg.Tests, lastPlain: start}
}

// tick takes the sample of the second that ended and shows it.
func (p *progress) tick(s *Sample) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.smooth(s)
	switch {
	case p.w == nil:
	case p.live:
		p.shown = p.line(s)
		fmt.Fprintf(p.w, "\r%s\x1b[K", p.shown)
	case s.Time.Sub(p.lastPlain) >= p.every:
		fmt.Fprintln(p.w, p.line(s))
		p.lastPlain = s.Time
	}
}

// smooth folds s into the exponentially weighted rates.
func (p *progress) smooth(s *Sample) {
	if p.prev == nil {
		p.prev = &Sample{}
	}
	dt := s.Elapsed - p.prev.Elapsed
	if dt <= 0 {
		return
	}
	checks, tests := float64(s.Checks-p.prev.Checks)/dt, float64(s.Tests-p.prev.Tests)/dt
	if p.prev.Elapsed == 0 {
		p.rate, p.testRate = checks, tests
	} else {
		a := 1 - math.Exp(-dt/smoothing.Seconds())
		p.rate += a * (checks - p.rate)
		p.testRate += a * (tests - p.testRate)
	}
	p.prev = s
}

// finding shows the title of a new finding stored in dir on a line of its own.
func (p *progress) finding(title, dir string) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	line := "new finding: " + strings.ReplaceAll(title, "\n", " ") + "  " + dir
	if p.live {
		fmt.Fprintf(p.w, "\r\x1b[K%s\n", line)
		if p.shown != "" {
			fmt.Fprintf(p.w, "%s\x1b[K", p.shown)
		}
		return
	}
	fmt.Fprintln(p.w, line)
}

// end ends the live line.
func (p *progress) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w != nil && p.live && p.shown != "" {
		fmt.Fprintln(p.w)
		p.shown = ""
	}
}

// line formats s: the time against the budget, counts, smoothed rate, skip and valid rates,
// findings and harness efficiency.
func (p *progress) line(s *Sample) string {
	skipped := int64(0)
	for _, v := range s.Skips {
		skipped += v
	}
	return fmt.Sprintf("%s  tests %d  checks %d (%.0f/s)  skipped %.1f%%  valid %.1f%%  findings %d (%d hits)  eff %.2f",
		p.clock(s), s.Tests, s.Checks, p.rate, 100*ratio(skipped, s.Checks+skipped),
		100*ratio(s.Valid, s.Statements), s.UniqueFindings(), s.Hits, s.Efficiency)
}

// clock says how far the campaign is: "1m5s of 10m0s (11%, 8m55s left)", "1m5s of 5000 tests
// (25%, 3m15s left)", or "1m5s (no limit)". With both limits, the nearer one counts.
func (p *progress) clock(s *Sample) string {
	elapsed := time.Duration(s.Elapsed * float64(time.Second))
	var limits []string
	done, left := 0.0, time.Duration(-1)
	if p.budget > 0 {
		limits = append(limits, p.budget.String())
		done, left = s.Elapsed/p.budget.Seconds(), max(0, p.budget-elapsed)
	}
	if p.tests > 0 {
		limits = append(limits, fmt.Sprintf("%d tests", p.tests))
		done = max(done, float64(s.Tests)/float64(p.tests))
		if p.testRate > 0 {
			l := time.Duration(float64(max(0, p.tests-s.Tests)) / p.testRate * float64(time.Second))
			if left < 0 || l < left {
				left = l
			}
		}
	}
	at := elapsed.Round(time.Second).String()
	if len(limits) == 0 {
		return at + " (no limit)"
	}
	at += fmt.Sprintf(" of %s (%.0f%%", strings.Join(limits, " or "), 100*min(1, done))
	if left >= 0 {
		at += ", " + left.Round(time.Second).String() + " left"
	}
	return at + ")"
}
