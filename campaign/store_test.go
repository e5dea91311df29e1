package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// fakeFormat prints a case as its statements, one per line.
type fakeFormat struct{}

func (fakeFormat) Ext() string { return ".fake" }
func (fakeFormat) CaseText(c *fuzz.Case, _ []string) []byte {
	return []byte(strings.Join(c.Texts(), "\n") + "\n")
}
func (fakeFormat) Repro(c *fuzz.Case, info fuzz.ReproInfo) []byte {
	return []byte("#!/bin/sh\n# " + strings.ReplaceAll(info.Header, "\n", "\n# ") + "\n")
}

// testFinding makes a finding titled title on a case of seed with n setup statements.
func testFinding(title string, seed uint64, n int) *fuzz.Finding {
	c := &fuzz.Case{Domain: "fake", Gen: "fake", Seed: seed, Queries: []fuzz.Query{{Role: "q", Text: "query"}}}
	for i := range n {
		c.Setup = append(c.Setup, fmt.Sprintf("setup %d", i))
	}
	return &fuzz.Finding{Title: title, Kind: fuzz.KindWrongResult, Oracle: "fake", Case: c,
		Expected: "good", Actual: fmt.Sprintf("bad with %d statements", n+1)}
}

func openStore(t *testing.T, dir, holder string) *Store {
	t.Helper()
	s, err := OpenStore(dir, holder)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestStoreLock checks that a second opener of an output directory is refused with one line
// naming the first, and succeeds once the first closes.
func TestStoreLock(t *testing.T) {
	tests := []struct {
		name, holder string
		want         []string
	}{
		{"with command", "polyfuzz sql --budget 1m", []string{
			fmt.Sprintf("(pid %d, started ", os.Getpid()), ": polyfuzz sql --budget 1m)", "wait for it or choose another --out"}},
		{"without command", "", []string{fmt.Sprintf("(pid %d, started ", os.Getpid()), "Z); wait for it"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			first, err := OpenStore(dir, tc.holder)
			if err != nil {
				t.Fatal(err)
			}
			_, err = OpenStore(dir, "polyfuzz report")
			if err == nil {
				t.Fatal("a second store opened the directory the first holds")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, dir+" is in use by another polyfuzz process") || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line saying %s is in use", msg, dir)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if err := first.Close(); err != nil {
				t.Fatal(err)
			}
			second, err := OpenStore(dir, "polyfuzz reduce")
			if err != nil {
				t.Fatalf("after the first closed: %v", err)
			}
			second.Close()
		})
	}
}

// TestRunNamesLockHolder checks that a campaign writes its command line into the lock.
func TestRunNamesLockHolder(t *testing.T) {
	cfg, _ := newConfig(t, 1, fakeOracle{}, nil)
	cfg.Tests, cfg.Command = 10, "polyfuzz fake --tests 10"
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	_, err := OpenStore(cfg.Store.Dir, "")
	if err == nil || !strings.Contains(err.Error(), ": polyfuzz fake --tests 10)") {
		t.Fatalf("second open: %v, want the campaign's command named", err)
	}
}

// TestStoreCleansOnOpen checks that opening a store clears what a killed process left: temporary
// files, half-built finding directories, and puts back a directory moved aside by a swap that did
// not finish.
func TestStoreCleansOnOpen(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, "")
	for i, title := range []string{"fake: a", "fake: b", "fake: c"} {
		if _, _, err := s.Add(testFinding(title, uint64(i), 2), Meta{Format: fakeFormat{}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	a, b, c := Hash("fake: a"), Hash("fake: b"), Hash("fake: c")
	findings := filepath.Join(dir, "findings")
	// c was moved aside by a swap that was killed before the new directory went in; b was
	// replaced but its old copy was not removed.
	if err := os.Rename(filepath.Join(findings, c), filepath.Join(findings, ".old-"+c+"-99-1")); err != nil {
		t.Fatal(err)
	}
	mkdir := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mkdir(filepath.Join(findings, ".old-"+b+"-99-2"))
	mkdir(filepath.Join(findings, ".tmp-"+a+"-99-3"))
	write(filepath.Join(findings, ".tmp-"+a+"-99-3", "case.json"))
	write(filepath.Join(dir, ".campaign.json.tmp123"))
	write(filepath.Join(findings, a, ".finding.json.tmp456"))
	write(filepath.Join(dir, "notes.txt")) // not ours: kept

	s = openStore(t, dir, "")
	if n := len(s.Records()); n != 3 {
		t.Errorf("%d findings loaded, want 3", n)
	}
	var left []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".") && d.Name() != LockFile && p != dir {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("leftovers not cleared: %v", left)
	}
	if _, err := os.Stat(filepath.Join(findings, c, "finding.json")); err != nil {
		t.Errorf("the directory moved aside was not put back: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("a file polyfuzz did not write was removed: %v", err)
	}
}

// TestStoreSetsAsideCorrupt checks that a corrupt finding directory is moved to findings-corrupt
// with a one-line warning, that the report skips it, and that the rest of the store works.
func TestStoreSetsAsideCorrupt(t *testing.T) {
	tests := []struct {
		name     string
		spoil    func(dir string) error // dir is the finding's directory
		why      string
		readable bool // finding.json itself is fine, and the report lists it
	}{
		{"truncated", func(d string) error { return truncate(filepath.Join(d, "finding.json"), 40) }, "unexpected end of JSON input", false},
		{"not json", func(d string) error { return os.WriteFile(filepath.Join(d, "finding.json"), []byte("hello"), 0o644) }, "invalid character", false},
		{"wrong format", func(d string) error {
			return editRecord(d, func(m map[string]any) { m["format"] = "polyfuzz finding v0" })
		}, `format "polyfuzz finding v0"`, false},
		{"no finding.json", func(d string) error { return os.Remove(filepath.Join(d, "finding.json")) }, "no finding.json", false},
		{"reduced without reduced.json", func(d string) error {
			return editRecord(d, func(m map[string]any) { m["status"] = StatusReduced })
		}, "status reduced but no reduced.json", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openStore(t, dir, "")
			good, bad := testFinding("fake: good", 1, 2), testFinding("fake: bad", 2, 2)
			for _, f := range []*fuzz.Finding{good, bad} {
				if _, _, err := s.Add(f, Meta{Format: fakeFormat{}}); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
			badDir := filepath.Join(dir, "findings", Hash("fake: bad"))
			if err := tc.spoil(badDir); err != nil {
				t.Fatal(err)
			}
			// The report reads the findings without a lock and skips the corrupt one.
			want := 1
			if tc.readable {
				want = 2
			}
			if recs, err := readRecords(filepath.Join(dir, "findings")); err != nil || len(recs) != want {
				t.Errorf("readRecords: %d records, %v; want %d", len(recs), err, want)
			}

			s = openStore(t, dir, "")
			ws := s.Warnings()
			if len(ws) != 1 || strings.Contains(ws[0], "\n") || !strings.Contains(ws[0], badDir) ||
				!strings.Contains(ws[0], tc.why) || !strings.Contains(ws[0], filepath.Join(dir, "findings-corrupt", Hash("fake: bad"))) {
				t.Fatalf("warnings %q: want one line naming %s, why (%s) and where it went", ws, badDir, tc.why)
			}
			moved, _ := filepath.Glob(filepath.Join(dir, "findings-corrupt", Hash("fake: bad")+"-*"))
			if _, err := os.Stat(badDir); !errors.Is(err, fs.ErrNotExist) || len(moved) != 1 {
				t.Fatalf("corrupt directory not moved: stat %v, findings-corrupt has %v", err, moved)
			}
			if recs := s.Records(); len(recs) != 1 || recs[0].Title != "fake: good" {
				t.Fatalf("records %v, want the good one", recs)
			}
			// The title is free again: a new hit makes a new directory.
			if _, isNew, err := s.Add(testFinding("fake: bad", 3, 1), Meta{}); err != nil || !isNew {
				t.Fatalf("new hit of the corrupt finding's title: new %v, %v", isNew, err)
			}
		})
	}
}

func truncate(path string, n int) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b[:n], 0o644)
}

func editRecord(dir string, edit func(map[string]any)) error {
	p := filepath.Join(dir, "finding.json")
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	edit(m)
	b, _ = json.Marshal(m)
	return os.WriteFile(p, b, 0o644)
}

// checkSnapshot checks one version of a finding directory: finding.json, case.json and runs.json
// are there and agree, and the reduced files are there exactly when the status says reduced. It
// reads every file through one handle on the directory, so that it sees one version even when the
// directory is swapped meanwhile; stale is true when that version was replaced while it read.
func checkSnapshot(dir string) (stale bool, err error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return true, nil // replaced between listing and opening
	}
	defer root.Close()
	replaced := func() bool {
		a, err1 := root.Stat(".")
		b, err2 := os.Stat(dir)
		return err1 != nil || err2 != nil || !os.SameFile(a, b)
	}
	read := func(name string, v any) (bool, error) {
		b, err := root.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		if err == nil && v != nil {
			err = json.Unmarshal(b, v)
		}
		return err == nil, err
	}
	var r Record
	var orig, red fuzz.Case
	var runs []fuzz.Run
	okRec, err1 := read("finding.json", &r)
	okCase, err2 := read("case.json", &orig)
	okRuns, err3 := read("runs.json", &runs)
	okRed, err4 := read("reduced.json", &red)
	okRedText, err5 := read("reduced.fake", nil)
	okRepro, err6 := read("repro.sh", nil)
	if replaced() {
		return true, nil
	}
	if err := errors.Join(err1, err2, err3, err4, err5, err6); err != nil {
		return false, err
	}
	switch {
	case !okRec || !okCase || !okRuns || !okRepro:
		return false, fmt.Errorf("missing files: finding.json %v, case.json %v, runs.json %v, repro.sh %v", okRec, okCase, okRuns, okRepro)
	case r.Seed != orig.Seed || r.Statements != len(orig.Setup)+len(orig.Queries):
		return false, fmt.Errorf("finding.json says seed %d with %d statements, case.json has seed %d with %d",
			r.Seed, r.Statements, orig.Seed, len(orig.Setup)+len(orig.Queries))
	case (r.Status == StatusReduced) != okRed || okRed != okRedText:
		return false, fmt.Errorf("status %s, reduced.json %v, reduced.fake %v", r.Status, okRed, okRedText)
	case okRed && r.ReducedStatements != len(red.Setup)+len(red.Queries):
		return false, fmt.Errorf("finding.json says %d reduced statements, reduced.json has %d", r.ReducedStatements,
			len(red.Setup)+len(red.Queries))
	}
	return false, nil
}

// TestStoreDirectoriesAlwaysConsistent rewrites findings in every way the store can (new,
// replaced example, reduced, re-reduced, hits) while another goroutine checks that every finding
// directory it sees is complete and agrees with its finding.json.
func TestStoreDirectoriesAlwaysConsistent(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, "")
	m := Meta{Format: fakeFormat{}}
	var stop atomic.Bool
	var checked, stale atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			ents, _ := os.ReadDir(filepath.Join(dir, "findings"))
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".") {
					continue
				}
				isStale, err := checkSnapshot(filepath.Join(dir, "findings", e.Name()))
				if err != nil {
					select {
					case errs <- fmt.Errorf("%s: %w", e.Name(), err):
					default:
					}
					return
				}
				if isStale {
					stale.Add(1)
				} else {
					checked.Add(1)
				}
			}
		}
	}()
	deadline := time.Now().Add(time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		title := fmt.Sprintf("fake: %d", i%4)
		rec, isNew, err := s.Add(testFinding(title, uint64(i), 3+i%5), m)
		if err != nil {
			t.Fatal(err)
		}
		if !isNew {
			switch i % 3 {
			case 0:
				err = s.Replace(rec, testFinding(title, uint64(i), 4+i%3), m)
			case 1, 2: // a first reduction or a later one
				red := testFinding(title, uint64(i), i%3)
				err = s.SetReduced(rec, red, fakeFormat{})
			}
		}
		if err == nil {
			err = s.Flush()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	if checked.Load() < 100 {
		t.Fatalf("only %d directory versions checked (%d replaced while read); want many", checked.Load(), stale.Load())
	}
	t.Logf("%d directory versions checked, %d replaced while read", checked.Load(), stale.Load())
	if left, _ := filepath.Glob(filepath.Join(dir, "findings", ".*")); len(left) > 0 {
		t.Errorf("temporary directories left: %v", left)
	}
}

// TestStoreReducedExpectedActual checks that a reduced finding's Expected and Actual describe the
// reduced case, the original's are kept, and a later reduction keeps the original's.
func TestStoreReducedExpectedActual(t *testing.T) {
	s := openStore(t, t.TempDir(), "")
	rec, _, err := s.Add(testFinding("fake: x", 1, 9), Meta{Format: fakeFormat{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3, 1} {
		if err := s.SetReduced(rec, testFinding("fake: x", 1, n), fakeFormat{}); err != nil {
			t.Fatal(err)
		}
		got, _, red, err := LoadFinding(filepath.Join(s.Dir, "findings", rec.Hash))
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("bad with %d statements", n+1)
		if got.Actual != want || got.OriginalActual != "bad with 10 statements" || got.OriginalExpected != "good" ||
			got.Expected != "good" || len(red.Setup) != n || got.ReducedStatements != n+1 {
			t.Errorf("after reducing to %d statements: actual %q (original %q), expected %q (original %q), reduced %d",
				n+1, got.Actual, got.OriginalActual, got.Expected, got.OriginalExpected, got.ReducedStatements)
		}
		repro, _ := os.ReadFile(filepath.Join(s.Dir, "findings", rec.Hash, "repro.sh"))
		if !strings.Contains(string(repro), "actual: "+want) {
			t.Errorf("repro.sh header does not describe the reduced case:\n%s", repro)
		}
	}
}

// reduceOracle reports a finding on every case, whose Actual counts its statements; dropReducer
// drops all setup statements but one.
type reduceOracle struct{}

func (reduceOracle) Name() string { return "fake" }
func (reduceOracle) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	f := testFinding("fake: fake: bad", c.Seed, 0)
	f.Case, f.Runs, f.Actual = c, runs, fmt.Sprintf("bad with %d statements", len(c.Setup)+len(c.Queries))
	return fuzz.Verdict{Checked: true, Finding: f}
}

type dropReducer struct{}

func (dropReducer) Reduce(ctx context.Context, c *fuzz.Case, keep func(context.Context, *fuzz.Case) bool) (*fuzz.Case, error) {
	d := c.Clone()
	d.Setup = d.Setup[:min(1, len(d.Setup))]
	if keep(ctx, d) {
		return d, nil
	}
	return c, nil
}

// longGen makes cases of five setup statements and one query.
type longGen struct{}

func (longGen) Generate(seed uint64) (*fuzz.Case, error) {
	f := testFinding("", seed, 5)
	return f.Case, nil
}

// TestRunReducedExpectedActual checks the same through a campaign: the finding stored after
// reduction describes the reduced case.
func TestRunReducedExpectedActual(t *testing.T) {
	cfg, _ := newConfig(t, 1, fakeOracle{}, nil)
	cfg.Gen, cfg.Oracles, cfg.Reducer, cfg.Format = longGen{}, []fuzz.Oracle{reduceOracle{}}, dropReducer{}, fakeFormat{}
	cfg.Tests, cfg.Workers = 1, 1
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := sum.New[0]
	if r.Status != StatusReduced || r.Actual != "bad with 2 statements" || r.OriginalActual != "bad with 6 statements" {
		t.Fatalf("status %s, actual %q, original %q; want reduced, 2 and 6 statements", r.Status, r.Actual, r.OriginalActual)
	}
}

// TestPlantedMark checks that a campaign with a planted fault marks its findings' titles, records
// the fault and version, keeps them apart from the engine's own findings, and that dedup, replay,
// reduction and the summary work with the mark.
func TestPlantedMark(t *testing.T) {
	cfg, _ := newConfig(t, 1, fakeOracle{every: 1}, nil)
	cfg.Tests, cfg.Fault, cfg.Polyfuzz, cfg.Format = 20, "drop-row:WHERE", "v1.2.3", fakeFormat{}
	cfg.Reducer = dropReducer{}
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	const title = PlantedMark + "fake: fake: bad"
	if len(sum.New) != 1 || sum.New[0].Title != title || sum.New[0].Hits != 20 || sum.New[0].Status != StatusReduced {
		t.Fatalf("new findings %+v, want one %q with 20 hits, reduced", sum.New, title)
	}
	dir := filepath.Join(cfg.Store.Dir, "findings", Hash(title))
	rec, _, _, err := LoadFinding(dir)
	if err != nil || rec.Fault != "drop-row:WHERE" || rec.Polyfuzz != "v1.2.3" || rec.OracleTitle() != "fake: fake: bad" {
		t.Fatalf("stored %+v, %v", rec, err)
	}
	var info Info
	if err := readJSON(filepath.Join(cfg.Store.Dir, "campaign.json"), &info); err != nil || info.Fault != "drop-row:WHERE" ||
		info.Polyfuzz != "v1.2.3" {
		t.Fatalf("campaign.json %+v, %v", info, err)
	}
	if text := SummaryText(sum, cfg.Store.Dir); !strings.Contains(text, " "+title+"\n") {
		t.Errorf("summary lacks the marked title:\n%s", text)
	}
	ts, _ := cfg.Open(context.Background())
	res, err := Replay(context.Background(), dir, cfg.Gen, cfg.Oracles[0], ts)
	if err != nil || !res.Reproduced() {
		t.Fatalf("replay %+v, %v", res, err)
	}
	if _, err := ReduceFinding(context.Background(), cfg.Store, dir, cfg.Oracles[0], ts, dropReducer{}, fakeFormat{}, time.Minute); err != nil {
		t.Fatalf("reduce again: %v", err)
	}
	// The same oracle title from the engine itself is another finding; the planted one keeps its hits.
	cfg.Fault, cfg.Tests = "", 5
	sum, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.New) != 1 || sum.New[0].Title != "fake: fake: bad" || sum.New[0].Fault != "" {
		t.Fatalf("without the fault: new %+v, want the unmarked title", sum.New)
	}
	if recs := cfg.Store.Records(); len(recs) != 2 || recs[0].Hits != 20 {
		t.Fatalf("records %+v, want the planted one with 20 hits and the real one", recs)
	}
}

// hitsLine finds the hit count of a progress line.
var hitsLine = regexp.MustCompile(`findings \d+ \((\d+) hits\)`)

// slowTarget answers after a pause, so that a campaign runs several seconds on few cases.
type slowTarget struct {
	fakeTarget
	pause time.Duration
}

func (t *slowTarget) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	time.Sleep(t.pause)
	return t.fakeTarget.Exec(ctx, stmt)
}

// TestHitsOnDiskEverySecond checks that a campaign writes hit counts while it runs: whenever the
// progress line shows N hits, finding.json on disk already has at least N.
func TestHitsOnDiskEverySecond(t *testing.T) {
	cfg, log := newConfig(t, 1, fakeOracle{every: 1}, nil)
	var mu sync.Mutex
	cfg.Open = func(context.Context) ([]fuzz.Target, error) {
		return []fuzz.Target{&slowTarget{fakeTarget{mu: &mu, log: log}, time.Millisecond}}, nil
	}
	cfg.Budget, cfg.Live, cfg.Confirm = 3500*time.Millisecond, true, 1
	path := filepath.Join(cfg.Store.Dir, "findings", Hash("fake: fake: bad"), "finding.json")
	var lines []string
	cfg.Progress = writerFunc(func(b []byte) {
		m := hitsLine.FindSubmatch(b)
		if m == nil {
			return
		}
		shown, _ := strconv.ParseInt(string(m[1]), 10, 64)
		var r Record
		err := readJSON(path, &r)
		if err != nil || r.Hits < shown {
			t.Errorf("progress shows %d hits, finding.json has %d (%v)", shown, r.Hits, err)
		}
		lines = append(lines, fmt.Sprintf("shown %d, on disk %d", shown, r.Hits))
	})
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if len(lines) < 3 {
		t.Fatalf("%d progress lines, want one a second: %v", len(lines), lines)
	}
	t.Log(strings.Join(lines, "; "))
}

type writerFunc func([]byte)

func (w writerFunc) Write(b []byte) (int, error) { w(b); return len(b), nil }

// TestRunFinishesKilledFindings checks that a finding an earlier campaign left unconfirmed or
// unreduced, because it was killed, is confirmed and reduced by the next campaign that hits it.
func TestRunFinishesKilledFindings(t *testing.T) {
	tests := []struct {
		name    string
		status  string // what the killed campaign left
		note    string
		reducer fuzz.Reducer
		want    string
	}{
		{"unconfirmed", StatusUnconfirmed, "", dropReducer{}, StatusReduced},
		{"unconfirmed, no reducer", StatusUnconfirmed, "", nil, StatusConfirmed},
		{"confirmed, not reduced", StatusConfirmed, "", dropReducer{}, StatusReduced},
		{"confirmed, no reducer", StatusConfirmed, "", nil, StatusConfirmed},
		{"reduction failed", StatusConfirmed, "the reduced case did not replay; kept the original", dropReducer{}, StatusConfirmed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := newConfig(t, 1, fakeOracle{every: 1}, nil)
			cfg.Gen, cfg.Format, cfg.Reducer, cfg.Tests = longGen{}, fakeFormat{}, tc.reducer, 10
			rec, _, err := cfg.Store.Add(testFinding("fake: fake: bad", 1, 5), Meta{Format: fakeFormat{}})
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.Store.Update(rec, func(r *Record) { r.Status, r.Note = tc.status, tc.note }); err != nil {
				t.Fatal(err)
			}
			cfg.Store.Close()
			if cfg.Store, err = OpenStore(cfg.Store.Dir, ""); err != nil {
				t.Fatal(err)
			}
			defer cfg.Store.Close()
			sum, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(sum.New) != 0 || len(sum.Seen) != 1 || sum.Seen[0].Status != tc.want || sum.Seen[0].Hits != 11 {
				t.Fatalf("new %v, seen %+v; want the stored finding %s with 11 hits", sum.New, sum.Seen, tc.want)
			}
		})
	}
}
