package campaign

import (
	"bytes"
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestProgressClock(t *testing.T) {
	tests := []struct {
		name     string
		budget   time.Duration
		limit    int64
		elapsed  float64
		tests    int64
		testRate float64
		want     string
	}{
		{"no limit", 0, 0, 65, 100, 10, "1m5s (no limit)"},
		{"budget", 10 * time.Minute, 0, 65, 100, 10, "1m5s of 10m0s (11%, 8m55s left)"},
		{"tests", 0, 5000, 65, 1000, 20, "1m5s of 5000 tests (20%, 3m20s left)"},
		{"tests, rate unknown", 0, 5000, 0.5, 0, 0, "1s of 5000 tests (0%)"},
		{"both, tests nearer", time.Hour, 5000, 65, 1000, 20, "1m5s of 1h0m0s or 5000 tests (20%, 3m20s left)"},
		{"both, budget nearer", 2 * time.Minute, 5000, 65, 1000, 1, "1m5s of 2m0s or 5000 tests (54%, 55s left)"},
		{"over", time.Minute, 0, 61, 1000, 1, "1m1s of 1m0s (100%, 0s left)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &progress{budget: tc.budget, tests: tc.limit, testRate: tc.testRate}
			if got := p.clock(&Sample{Elapsed: tc.elapsed, Tests: tc.tests}); got != tc.want {
				t.Errorf("clock = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestProgressSmoothing checks that the shown rate follows a change of pace gradually, not jumping
// with every second.
func TestProgressSmoothing(t *testing.T) {
	p := &progress{}
	checks := int64(0)
	for sec := 1; sec <= 30; sec++ {
		rate := int64(1000)
		if sec > 10 {
			rate = 0 // the engine stalls
		}
		checks += rate
		p.smooth(&Sample{Elapsed: float64(sec), Checks: checks})
		switch sec {
		case 10:
			if p.rate != 1000 {
				t.Errorf("steady rate shown as %.0f/s, want 1000/s", p.rate)
			}
		case 11:
			if want := 1000 * math.Exp(-1.0/5); math.Abs(p.rate-want) > 1 {
				t.Errorf("one second after a stall: %.0f/s, want %.0f/s", p.rate, want)
			}
		case 30:
			if p.rate > 20 {
				t.Errorf("twenty seconds after a stall: %.0f/s, want nearly 0", p.rate)
			}
		}
	}
}

// TestProgressFindingLine checks that a new finding gets a line of its own, which on a terminal
// first clears the live line and then draws it again.
func TestProgressFindingLine(t *testing.T) {
	for _, live := range []bool{true, false} {
		var b bytes.Buffer
		p := &progress{w: &b, live: live, every: time.Hour, lastPlain: time.Now()}
		p.tick(&Sample{Time: time.Now(), Elapsed: 1, Tests: 5})
		p.finding("norec: sqlite: optimized query\nreturns fewer rows", "out/findings/0123")
		got := b.String()
		want := "new finding: norec: sqlite: optimized query returns fewer rows  out/findings/0123\n"
		if live {
			want = "\r\x1b[K" + want + p.shown + "\x1b[K"
			got = got[strings.Index(got, "\x1b[K")+3:] // after the first live line
		}
		if got != want {
			t.Errorf("live %v: wrote %q, want %q", live, got, want)
		}
	}
}

// skipOracle skips every other case and checks the rest.
type skipOracle struct{}

func (skipOracle) Name() string { return "skip" }
func (skipOracle) Check(c *fuzz.Case, _ []fuzz.Run) fuzz.Verdict {
	if c.Seed%2 == 0 {
		return fuzz.Verdict{Skip: "even"}
	}
	return fuzz.Verdict{Checked: true}
}

var skipValid = regexp.MustCompile(`skipped ([0-9.]+)%  valid ([0-9.]+)%`)

// TestRunLiveCounts checks that skips and valid statements show while a setup group is still
// running (an SMT seed pool of 1000 mutants lasts minutes), and that new findings are announced.
func TestRunLiveCounts(t *testing.T) {
	cfg, log := newConfig(t, 1<<fuzz.SetupBits, fakeOracle{every: 5}, nil)
	var mu sync.Mutex
	cfg.Open = func(context.Context) ([]fuzz.Target, error) {
		return []fuzz.Target{&slowTarget{fakeTarget{mu: &mu, log: log}, time.Millisecond}}, nil
	}
	cfg.Oracles = append(cfg.Oracles, skipOracle{})
	cfg.Budget, cfg.Live, cfg.Confirm = 2500*time.Millisecond, true, 1
	var out strings.Builder
	cfg.Progress = writerFunc(func(b []byte) { out.Write(b) })
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.FieldsFunc(out.String(), func(r rune) bool { return r == '\r' || r == '\n' }) {
		if m := skipValid.FindStringSubmatch(l); m != nil {
			skipped, _ := strconv.ParseFloat(m[1], 64)
			valid, _ := strconv.ParseFloat(m[2], 64)
			if skipped < 10 || valid < 99 { // skips are added a quarter second late
				t.Errorf("live line shows %s%% skipped, %s%% valid; want about 25%% and 100%%: %q", m[1], m[2], l)
			}
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 {
		t.Errorf("%d live lines, want one a second:\n%q", len(lines), out.String())
	}
	if n := strings.Count(out.String(), "\r\x1b[Knew finding: fake: fake: bad  "+cfg.Store.Dir); n != 1 {
		t.Errorf("%d lines announce the new finding, want 1:\n%q", n, out.String())
	}
	if !strings.Contains(lines[0], " of 2.5s (") {
		t.Errorf("live line does not show the budget: %q", lines[0])
	}
}
