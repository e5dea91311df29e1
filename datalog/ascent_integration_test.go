package datalog_test

import (
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/ascent"
)

// needCargo skips t, or fails it in CI, unless cargo can be found for the Ascent target.
func needCargo(t testing.TB) {
	t.Helper()
	if _, err := ascent.FindCargo(""); err != nil {
		testenv.Missing(t, err.Error()+": install Rust (scripts/test.sh does) and run ascent_prepare (scripts/ascent.sh) to build the cached project")
	}
}

func newAscent(tb testing.TB, timeout time.Duration) (*datalog.Engine, *ascent.Target) {
	tb.Helper()
	needCargo(tb)
	e := openEngine(tb, func() (*ascent.Target, error) { return ascent.New(ascent.Options{Timeout: timeout}) }, datalog.Ascent{})
	return e, e.Inner.(*ascent.Target)
}

// TestAscentFixtures checks, without cargo, that Ascent's dialect translates every engine
// program, and that its manifest for repro.sh is the target's.
func TestAscentFixtures(t *testing.T) {
	for _, c := range append(enginePrograms, muzPrograms...) {
		p, err := datalog.Parse(c.name, c.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (datalog.Ascent{}).Translate(p); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if m := datalog.AscentManifest("prog", ""); m != ascent.Manifest {
		t.Errorf("the dialect's manifest\n%s\ndiffers from the target's\n%s", m, ascent.Manifest)
	}
	if datalog.AscentVersion != ascent.LockedVersion() {
		t.Errorf("the dialect is written for ascent %s, the target pins %s", datalog.AscentVersion, ascent.LockedVersion())
	}
}

func TestAscentPrograms(t *testing.T) {
	e, tg := newAscent(t, time.Minute)
	checkEnginePrograms(t, e)
	checkIsolation(t, e)
	logAscentTimes(t, tg)
}

// logAscentTimes logs the build and run time per program of tg.
func logAscentTimes(t *testing.T, tg *ascent.Target) {
	if tg.Programs > 0 {
		n := time.Duration(tg.Programs)
		t.Logf("%d programs: build %s, run %s per program", tg.Programs, (tg.BuildTime / n).Round(time.Millisecond),
			(tg.RunTime / n).Round(time.Millisecond))
	}
}

func TestAscentTimeout(t *testing.T) {
	e, _ := newAscent(t, 3*time.Second)
	checkTimeout(t, e)
}

// TestAscentScript runs the repro script with the target directory of a target's project, whose
// dependencies are built.
func TestAscentScript(t *testing.T) {
	_, tg := newAscent(t, time.Minute)
	t.Setenv("CARGO_TARGET_DIR", tg.Dir()+"/target")
	checkScript(t, datalog.Ascent{}, "reachable\t4\t3")
}

// TestAscentDifferential compares Ascent's answers to generated programs with the reference's.
// Every program is compiled, so the count is small.
func TestAscentDifferential(t *testing.T) {
	e, tg := newAscent(t, time.Minute)
	if counts := checkDifferential(t, e, 40); len(counts) > 0 {
		t.Errorf("Ascent reported programs unsupported: %v", counts)
	}
	logAscentTimes(t, tg)
}

// TestAscentCases runs the original and transformed programs of generated cases (most of them
// with a non-empty answer) on Ascent and on the reference engine and compares the answers.
func TestAscentCases(t *testing.T) {
	e, tg := newAscent(t, time.Minute)
	_, nonEmpty := checkCases(t, e, 20)
	t.Logf("%d programs, %d with a non-empty answer", tg.Programs, nonEmpty)
	logAscentTimes(t, tg)
}
