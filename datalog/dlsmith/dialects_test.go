package dlsmith

import (
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// dialects are the dialects package datalog has, each translating the programs of one engine.
var dialects = []datalog.Dialect{datalog.MuZ{}, datalog.SWIProlog{}, datalog.Clingo{}, datalog.Souffle{}, datalog.Cozo{}, datalog.Ascent{}}

// TestDialects translates the original and the transformed program of 2,000 cases with every
// dialect and logs, per dialect, the share it accepts and its *datalog.Unsupported errors by
// feature. Any other error of a translation is a defect of the dialect or of the program.
func TestDialects(t *testing.T) {
	seed := testenv.Seed(t)
	o := caseOptions()
	o.NonEmpty = 0 // the programs' answers do not matter here
	g, err := NewGenerator(o)
	if err != nil {
		t.Fatal(err)
	}
	type tally struct {
		ok          int
		unsupported map[string]int
	}
	const cases = 2000
	type result struct {
		programs int
		tallies  []tally
		errs     []string
	}
	// The cases are split among the CPUs; each worker keeps its own tallies.
	workers := runtime.GOMAXPROCS(0)
	results := make([]result, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := &results[w]
			res.tallies = make([]tally, len(dialects))
			for j := range res.tallies {
				res.tallies[j].unsupported = map[string]int{}
			}
			for i := uint64(w); i < cases; i += uint64(workers) {
				c, err := g.Generate(seed + i)
				if err != nil {
					res.errs = append(res.errs, err.Error())
					return
				}
				for _, q := range c.Queries {
					p, err := datalog.Parse("case.dl", q.Text)
					if err != nil {
						res.errs = append(res.errs, fmt.Sprintf("seed %d: %v", seed+i, err))
						return
					}
					res.programs++
					for j, d := range dialects {
						_, err := d.Translate(p)
						var u *datalog.Unsupported
						switch {
						case err == nil:
							res.tallies[j].ok++
						case errors.As(err, &u):
							res.tallies[j].unsupported[u.Feature]++
						default:
							res.errs = append(res.errs, fmt.Sprintf("seed %d, %s: %s cannot translate it: %v\n%s",
								seed+i, q.Role, d.Name(), err, q.Text))
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	tallies := make([]tally, len(dialects))
	for j := range tallies {
		tallies[j].unsupported = map[string]int{}
	}
	programs := 0
	for _, res := range results {
		for _, e := range res.errs {
			t.Error(e)
		}
		programs += res.programs
		for j, tl := range res.tallies {
			tallies[j].ok += tl.ok
			for f, n := range tl.unsupported {
				tallies[j].unsupported[f] += n
			}
		}
	}
	if programs != 2*cases {
		t.Fatalf("%d programs translated, want %d", programs, 2*cases)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d programs (original and transformed of %d cases):\n", programs, cases)
	fmt.Fprintf(&b, "%-8s %9s  %s\n", "dialect", "accepted", "unsupported by feature")
	for j, d := range dialects {
		var feats []string
		for _, f := range slices.Sorted(maps.Keys(tallies[j].unsupported)) {
			feats = append(feats, fmt.Sprintf("%s %d", f, tallies[j].unsupported[f]))
		}
		fmt.Fprintf(&b, "%-8s %8.1f%%  %s\n", d.Name(), 100*float64(tallies[j].ok)/float64(programs), strings.Join(feats, ", "))
	}
	t.Log(b.String())
}
