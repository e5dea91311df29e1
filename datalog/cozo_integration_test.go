package datalog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/cozo"
)

// newCozo starts a cozo target, or skips tb (fails it in CI) when its python3 or the
// cozo_embedded module is missing; the error names the fix.
func newCozo(tb testing.TB, timeout time.Duration) *datalog.Engine {
	tb.Helper()
	return openEngine(tb, func() (*cozo.Target, error) {
		tg, err := cozo.New(cozo.Options{Timeout: timeout})
		if err != nil && (strings.Contains(err.Error(), "missing") || strings.Contains(err.Error(), "not found")) {
			testenv.Missing(tb, "cozo is missing: "+err.Error()+" (scripts/test.sh runs python_env)")
		}
		return tg, err
	}, datalog.Cozo{})
}

func TestCozoPrograms(t *testing.T) {
	e := newCozo(t, 10*time.Second)
	checkWarmEngine(t, e, func() int { return e.Inner.(*cozo.Target).Starts })
	if v := e.Version(); v != "0.7.6" {
		t.Errorf("Version = %q, want the pinned 0.7.6 (scripts/requirements.txt)", v)
	}
}

func TestCozoTimeout(t *testing.T) {
	checkTimeout(t, newCozo(t, 200*time.Millisecond))
}

func TestCozoScript(t *testing.T) {
	e := newCozo(t, 10*time.Second) // skips unless cozo is installed
	e.Close()
	checkScript(t, datalog.Cozo{}, `["reachable", 4, 3]`)
}

func TestCozoDifferential(t *testing.T) {
	if counts := checkDifferential(t, newCozo(t, 10*time.Second), 400); len(counts) > 0 {
		t.Errorf("cozo reported programs unsupported: %v", counts)
	}
}

// TestCozoCases runs both programs of generated queryFuzz cases (the original and its
// transformation, with the default options) on cozo and on the reference engine and compares
// the answers.
func TestCozoCases(t *testing.T) {
	programs, nonEmpty := checkCases(t, newCozo(t, 10*time.Second), 150)
	t.Logf("%d programs of 150 cases, %d with a non-empty answer, all translated", programs, nonEmpty)
}

// BenchmarkCozo measures programs/s on generated programs with one warm cozo server.
func BenchmarkCozo(b *testing.B) {
	benchEngine(b, func(b *testing.B) *datalog.Engine { return newCozo(b, 10*time.Second) })
}
