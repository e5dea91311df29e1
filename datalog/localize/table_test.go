package localize

import (
	"fmt"
	"math"
	"os"
	"testing"
	"time"
)

// tableSizes are the measured sizes: variables of the points-to program and changes of the
// update (as many insertions as deletions).
var tableSizes = []struct {
	name          string
	vars, changes int
}{{"small", 40, 5}, {"medium", 200, 25}, {"large", 800, 100}}

// TestLocalizeTable compares localization and rollback with delta debugging on generated
// points-to updates at three sizes (seeds 1-3 each) and prints the markdown table of
// docs/datalog.md. It runs the large size only with POLYFUZZ_LOCALIZE_TABLE=1.
func TestLocalizeTable(t *testing.T) {
	full := os.Getenv("POLYFUZZ_LOCALIZE_TABLE") == "1"
	fmt.Println("| size | changes | method | evaluations | updates | proof queries | ILP vars/cons | time | answer | DD evaluations | DD time | DD answer | speedup |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var logSum, logEvals float64
	n := 0
	for _, sz := range tableSizes {
		if sz.name == "large" && !full {
			continue
		}
		for seed := uint64(1); seed <= 3; seed++ {
			prob := PointsToUpdate(sz.vars, sz.changes, seed)
			for _, m := range []string{"localize", "rollback"} {
				l, err := New(prob)
				if err != nil {
					t.Fatal(err)
				}
				run, ddRun := l.Localize, l.DDLocalize
				if m == "rollback" {
					run, ddRun = l.Rollback, l.DDRollback
				}
				res, err := run()
				if err != nil {
					t.Fatal(err)
				}
				dd, err := ddRun()
				if err != nil {
					t.Fatal(err)
				}
				if !res.Verified || !dd.Verified {
					t.Errorf("%s seed %d %s: verified %v, ddmin verified %v", sz.name, seed, m, res.Verified, dd.Verified)
				}
				if m == "rollback" && len(res.Changes) > len(dd.Changes) {
					t.Errorf("%s seed %d: rollback of %d changes, larger than ddmin's %d", sz.name, seed, len(res.Changes), len(dd.Changes))
				}
				speedup := float64(dd.Stats.Time) / float64(max(res.Stats.Time, time.Microsecond))
				logSum += math.Log(speedup)
				logEvals += math.Log(float64(dd.Stats.Evaluations) / float64(res.Stats.Evaluations))
				n++
				fmt.Printf("| %s/%d | %d | %s | %d | %d | %d | %d/%d | %s | %d | %d | %s | %d | %.1fx |\n",
					sz.name, seed, 2*sz.changes, m, res.Stats.Evaluations, res.Stats.Updates, res.Stats.ProofQueries,
					res.Stats.ILPVars, res.Stats.ILPCons, ms(res.Stats.Time), len(res.Changes), dd.Stats.Evaluations, ms(dd.Stats.Time), len(dd.Changes), speedup)
			}
		}
	}
	fmt.Printf("\ngeometric-mean speedup over delta debugging: %.1fx in time, %.1fx in engine evaluations (%d runs)\n",
		math.Exp(logSum/float64(n)), math.Exp(logEvals/float64(n)), n)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

// benchProblem is the medium problem of the table.
func benchProblem() Problem { return PointsToUpdate(200, 25, 1) }

func benchmark(b *testing.B, run func(*Localizer) (*Result, error)) {
	prob := benchProblem()
	for b.Loop() {
		l, err := New(prob)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := run(l); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLocalize(b *testing.B) { benchmark(b, (*Localizer).Localize) }

func BenchmarkRollback(b *testing.B) { benchmark(b, (*Localizer).Rollback) }

func BenchmarkDDLocalize(b *testing.B) { benchmark(b, (*Localizer).DDLocalize) }

func BenchmarkDDRollback(b *testing.B) { benchmark(b, (*Localizer).DDRollback) }
