//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// These tests run the polyfuzz binary as a user would and kill it with SIGKILL. The live progress
// line is what tells them how many hits a campaign had counted before it died, so the campaign's
// stderr is a terminal (a pseudo-terminal the test holds).

// killDomains are the campaigns the kill test interrupts: each plants a fault, so that findings
// (and their reductions) happen all the time.
var killDomains = []struct {
	name string
	args []string
}{
	{"sql", []string{"sql", "--fault", "drop-row:WHERE"}},
	{"datalog", []string{"datalog", "--fault", "drop-row:transformed"}},
}

// TestKill builds polyfuzz and runs the tests of this file with it.
func TestKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds polyfuzz and kills 20 campaigns (about a minute)")
	}
	bin := filepath.Join(t.TempDir(), "polyfuzz")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	t.Run("AtAnyMoment", func(t *testing.T) { killAtAnyMoment(t, bin) })
	t.Run("SecondCampaignRefused", func(t *testing.T) { killSecondCampaignRefused(t, bin) })
}

// killAtAnyMoment kills 20 campaigns with SIGKILL at random moments and checks after each
// that every finding directory is complete and agrees with its finding.json, that the hits on
// disk are at least those the campaign had shown (so at most the last second's are lost) and not
// more than it can have counted, and that leftovers are cleared by the next campaign. Each
// domain has two output directories, each killed five times, so that more kills fall in the
// first seconds on a fresh one, when findings are being written and reduced. Then a campaign
// runs to its end on each and `polyfuzz report` runs, both cleanly, with exactly the hits the
// campaign counted added on disk.
func killAtAnyMoment(t *testing.T, bin string) {
	rng := rand.New(rand.NewPCG(20261126, 1))
	outs := make([]string, 2*len(killDomains)) // out k belongs to domain k % len(killDomains)
	for k := range outs {
		outs[k] = t.TempDir()
	}
	base := map[string]int64{} // hits on disk in each out
	interrupted := 0           // kills that left a write unfinished
	for i := range 20 {
		d := killDomains[i%len(killDomains)]
		out := outs[i%len(outs)]
		left := killTemps(t, out) // what the previous kill left
		delay := 200*time.Millisecond + time.Duration(rng.Int64N(int64(2800*time.Millisecond)))
		args := append(append([]string{}, d.args...), "--seed", "1", "-j", "2", "--budget", "1m", "--out", out)
		r := killRun(t, bin, delay, args...)
		what := fmt.Sprintf("run %d (%s, killed after %v)", i, d.name, delay.Round(time.Millisecond))
		if r.exited {
			t.Fatalf("%s: exited before it was killed:\n%s", what, r.stderr)
		}
		recs := killCheckFindings(t, what, out)
		if strings.Contains(r.stderr, ", out "+out) { // the store opened, so it cleared what was left
			for _, p := range left {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("%s: %s, left by the previous kill, is still there", what, p)
				}
			}
		}
		for _, dir := range r.newFindings {
			if _, ok := recs[filepath.Base(dir)]; !ok {
				t.Errorf("%s: announced new finding %s is not on disk", what, dir)
			}
		}
		disk := killHits(recs)
		got := disk - base[out]
		if got < r.shown {
			t.Errorf("%s: %d hits on disk, fewer than the %d it showed before it died", what, got, r.shown)
		}
		// More than can have been counted would be hits counted twice. (The first line's rise
		// can be far below the rate that follows, while new findings are reduced.)
		if r.lines >= 2 && got > r.shown+3*r.step+100 {
			t.Errorf("%s: %d hits on disk, more than it can have counted (%d shown, at most %d a second)",
				what, got, r.shown, r.step)
		}
		// Hits are shown (and so on disk) every second once the campaign runs (allow for a
		// loaded machine); the first line comes a second after the workers start, which is
		// after the store opens.
		if limit := 2 * time.Second; r.lines > 0 && r.quiet > limit || r.lines == 0 && r.quiet > limit+time.Second {
			t.Errorf("%s: the last %v before the kill showed no hits", what, r.quiet.Round(time.Millisecond))
		}
		temps := killTemps(t, out)
		if len(temps) > 0 {
			interrupted++
		}
		t.Logf("%s: %d live lines, the last %v before the kill; %d hits shown, %d on disk; %d findings, %d new announced; %d temporary entries left",
			what, r.lines, r.quiet.Round(time.Millisecond), r.shown, got, len(recs), len(r.newFindings), len(temps))
		base[out] = disk
	}
	t.Logf("%d of 20 kills interrupted a write", interrupted)

	for k, out := range outs {
		d := killDomains[k%len(killDomains)]
		start := time.Now()
		args := append(append([]string{}, d.args...), "--seed", "2", "-j", "2", "--tests", "200", "--reduce-time", "5s", "--out", out)
		cmd := exec.Command(bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr, cmd.Env = &stdout, &stderr, killEnv()
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: the campaign after the kills: %v\n%s%s", d.name, err, stdout.String(), stderr.String())
		}
		m := regexp.MustCompile(`hit in all \((\d+) hits\)`).FindStringSubmatch(stdout.String())
		if m == nil {
			t.Fatalf("%s: no hit count in the summary:\n%s", d.name, stdout.String())
		}
		counted, _ := strconv.ParseInt(m[1], 10, 64)
		recs := killCheckFindings(t, d.name+" after the last campaign", out)
		if got := killHits(recs) - base[out]; got != counted {
			t.Errorf("%s: the last campaign counted %d hits, %d were added on disk", d.name, counted, got)
		}
		if left := killTemps(t, out); len(left) > 0 {
			t.Errorf("%s: temporary files left after a campaign that ended: %v", d.name, left)
		}
		if b, err := exec.Command(bin, "report", out).CombinedOutput(); err != nil {
			t.Errorf("%s: polyfuzz report: %v\n%s", d.name, err, b)
		}
		t.Logf("%s: a campaign of 200 tests and the report in %v; %d hits counted and added on disk",
			d.name, time.Since(start).Round(time.Millisecond), counted)
	}
}

// killSecondCampaignRefused runs two campaigns on one --out: the second is refused with one
// line naming the first, and once the first is killed a new one runs.
func killSecondCampaignRefused(t *testing.T, bin string) {
	out := t.TempDir()
	first := exec.Command(bin, "datalog", "--budget", "1m", "-j", "1", "--quiet", "--out", out)
	first.Env = killEnv()
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	lock := filepath.Join(out, campaign.LockFile)
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(lock); bytes.Contains(b, []byte("polyfuzz datalog --budget 1m")) {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("the first campaign did not take the lock in 10s")
		}
	}
	second := exec.Command(bin, "datalog", "--tests", "10", "--out", out)
	second.Env = killEnv()
	b, err := second.CombinedOutput()
	msg := strings.TrimSpace(string(b))
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("the second campaign ran (%v):\n%s", err, msg)
	}
	want := fmt.Sprintf("%s is in use by another polyfuzz process (pid %d, started ", out, first.Process.Pid)
	if strings.Contains(msg, "\n") || !strings.Contains(msg, want) ||
		!strings.Contains(msg, ": polyfuzz datalog --budget 1m -j 1 --quiet --out "+out+"); wait for it or choose another --out") {
		t.Fatalf("the second campaign said:\n%s\nwant one line containing %q and the first's command", msg, want)
	}
	t.Logf("second campaign: %s", msg)
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	third := exec.Command(bin, "datalog", "--tests", "10", "--quiet", "--out", out)
	third.Env = killEnv()
	if b, err := third.CombinedOutput(); err != nil {
		t.Fatalf("after the first was killed, a campaign on its --out: %v\n%s", err, b)
	}
}

// killEnv is the test's environment without CI, so that a terminal gets the live line.
func killEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "CI=") {
			env = append(env, e)
		}
	}
	return env
}

// killResult is what a killed campaign showed on its terminal.
type killResult struct {
	stderr      string
	exited      bool     // it ended before the kill
	lines       int      // live lines shown
	shown       int64    // hits on the last live line
	step        int64    // the largest rise of hits from one live line to the next
	newFindings []string // directories of the new findings it announced
	// quiet is how long before the kill the last live line came, or the store opened if no
	// line came: the time whose hits the campaign had not shown.
	quiet time.Duration
}

var killHitsRe = regexp.MustCompile(`findings \d+ \((\d+) hits\)`)

// killRun runs polyfuzz with args, its stderr on a pseudo-terminal, and kills it with SIGKILL
// after delay.
func killRun(t *testing.T, bin string, delay time.Duration, args ...string) killResult {
	t.Helper()
	master, slave := killPty(t)
	defer master.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stderr, cmd.Env = slave, killEnv()
	var buf bytes.Buffer
	var mu sync.Mutex
	var lastShown time.Time // when the store opened, then when a live line came
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			now := time.Now()
			mu.Lock()
			buf.Write(b[:n])
			if bytes.Contains(b[:n], []byte(" hits)")) || bytes.Contains(b[:n], []byte(", out ")) {
				lastShown = now
			}
			mu.Unlock()
			if err != nil {
				return // EIO once every holder of the terminal is gone
			}
		}
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	var r killResult
	var killed time.Time
	select {
	case <-exited:
		r.exited = true
	case <-time.After(delay):
		cmd.Process.Signal(syscall.SIGKILL)
		killed = time.Now()
		<-exited
	}
	select {
	case <-drained:
	case <-time.After(3 * time.Second): // an engine child still holds the terminal
	}
	mu.Lock()
	r.stderr = buf.String()
	if !lastShown.IsZero() {
		r.quiet = killed.Sub(lastShown)
	}
	mu.Unlock()
	var prev int64
	for _, l := range strings.FieldsFunc(r.stderr, func(c rune) bool { return c == '\r' || c == '\n' }) {
		if m := killHitsRe.FindStringSubmatch(l); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			r.lines, r.shown, r.step = r.lines+1, n, max(r.step, n-prev)
			prev = n
		}
		if rest, ok := strings.CutPrefix(strings.TrimPrefix(l, "\x1b[K"), "new finding: "); ok {
			if i := strings.LastIndex(rest, "  "); i >= 0 {
				r.newFindings = append(r.newFindings, rest[i+2:])
			}
		}
	}
	return r
}

// killPty opens a pseudo-terminal.
func killPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	fd := int(master.Fd())
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0)
	}
	if err == nil {
		slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	if err != nil {
		master.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	return master, slave
}

// killTemps lists the temporary files and directories under out.
func killTemps(t *testing.T, out string) []string {
	t.Helper()
	var left []string
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != out && strings.HasPrefix(d.Name(), ".") && d.Name() != campaign.LockFile {
			left = append(left, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	return left
}

// killCheckFindings checks every finding directory of out, independently of the store's own
// checks: finding.json is a polyfuzz finding, the case and runs are there and agree with it, and
// the reduced case is there exactly when the status says reduced. It returns the records by
// directory name.
func killCheckFindings(t *testing.T, what, out string) map[string]*campaign.Record {
	t.Helper()
	recs := map[string]*campaign.Record{}
	ents, err := os.ReadDir(filepath.Join(out, "findings"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue // a temporary directory of the killed campaign
		}
		dir := filepath.Join(out, "findings", e.Name())
		fail := func(format string, a ...any) {
			t.Errorf("%s: %s: %s", what, dir, fmt.Sprintf(format, a...))
		}
		var r campaign.Record
		var orig, red fuzz.Case
		if err := killReadJSON(dir, "finding.json", &r); err != nil || r.Format != campaign.RecordFormat {
			fail("finding.json: %v (format %q)", err, r.Format)
			continue
		}
		if err := killReadJSON(dir, "case.json", &orig); err != nil {
			fail("%v", err)
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "runs.json")); err != nil {
			fail("%v", err)
		}
		if orig.Seed != r.Seed || len(orig.Setup)+len(orig.Queries) != r.Statements {
			fail("finding.json has seed %d and %d statements, case.json seed %d and %d", r.Seed, r.Statements,
				orig.Seed, len(orig.Setup)+len(orig.Queries))
		}
		if campaign.Hash(r.Title) != e.Name() {
			fail("the directory is not named by the hash of its title %q", r.Title)
		}
		texts, _ := filepath.Glob(filepath.Join(dir, "reduced.*"))
		errRed := killReadJSON(dir, "reduced.json", &red)
		switch {
		case r.Status == campaign.StatusReduced && (errRed != nil || len(texts) != 2):
			fail("status reduced, but reduced.json: %v, reduced files %v", errRed, texts)
		case r.Status != campaign.StatusReduced && len(texts) > 0:
			fail("status %s, but it has %v", r.Status, texts)
		case r.Status == campaign.StatusReduced && r.ReducedStatements != len(red.Setup)+len(red.Queries):
			fail("finding.json says %d reduced statements, reduced.json has %d", r.ReducedStatements,
				len(red.Setup)+len(red.Queries))
		}
		if r.Fault == "" || !strings.HasPrefix(r.Title, campaign.PlantedMark) {
			fail("a finding of a planted fault is not marked: fault %q, title %q", r.Fault, r.Title)
		}
		recs[e.Name()] = &r
	}
	return recs
}

func killReadJSON(dir, name string, v any) error {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// killHits is the total of the findings' hits.
func killHits(recs map[string]*campaign.Record) int64 {
	var n int64
	for _, r := range recs {
		n += r.Hits
	}
	return n
}
