package datalog_test

import (
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/clingo"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

// needClingo skips t, or fails it in CI, unless python3 can import clingo.
func needClingo(t testing.TB) {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "clingo")
}

func newClingo(tb testing.TB, timeout time.Duration) *datalog.Engine {
	tb.Helper()
	needClingo(tb)
	return openEngine(tb, func() (*clingo.Target, error) { return clingo.New(clingo.Options{Timeout: timeout}) }, datalog.Clingo{})
}

func TestClingoPrograms(t *testing.T) {
	e := newClingo(t, 10*time.Second)
	checkWarmEngine(t, e, func() int { return e.Inner.(*clingo.Target).Starts })
}

func TestClingoTimeout(t *testing.T) {
	checkTimeout(t, newClingo(t, 200*time.Millisecond))
}

func TestClingoScript(t *testing.T) {
	needClingo(t)
	checkScript(t, datalog.Clingo{}, `("reachable",4,3)`)
}

func TestClingoDifferential(t *testing.T) {
	counts := checkDifferential(t, newClingo(t, 10*time.Second), 300)
	if counts["number-range"] == 0 {
		t.Error("no program had a number outside clingo's range")
	}
}

// BenchmarkClingo measures programs/s on generated programs with one warm clingo server.
func BenchmarkClingo(b *testing.B) {
	benchEngine(b, func(b *testing.B) *datalog.Engine { return newClingo(b, 10*time.Second) })
}
