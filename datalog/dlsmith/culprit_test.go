package dlsmith

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// culpritCase is a 50-step sequence whose relation breaks on an engine with a planted fault.
type culpritCase struct {
	seed    uint64
	fault   string
	orig    *Graph
	steps   []Step
	answer  [][]string // the engine's answer to the original program
	witness []datalog.Tuple
	engine  fuzz.Target
}

// breaks returns the Breaks function of c's engine.
func (c *culpritCase) breaks(t testing.TB) func(context.Context, *datalog.Program, datalog.Expect) bool {
	return func(ctx context.Context, p *datalog.Program, e datalog.Expect) bool {
		res, err := c.engine.Exec(ctx, p.String())
		if err != nil || res.Failed() {
			t.Fatalf("seed %d: engine: %v %+v", c.seed, err, res)
		}
		return !e.Holds(c.answer, res.Rows)
	}
}

// culpritCases finds n cases of 50-step sequences that break their relation on the reference
// engine with a planted fault, from seed 1 on.
func culpritCases(t testing.TB, fault string, n int) []*culpritCase {
	o := DefaultOptions()
	o.Steps = Range{Min: 50, Max: 50}
	gen, err := NewGenerator(o)
	if err != nil {
		t.Fatal(err)
	}
	kind, arg, _ := strings.Cut(fault, ":")
	engine, err := datalog.NewPlanted(datalog.NewReference(0), kind, arg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out []*culpritCase
	for seed := uint64(1); len(out) < n && seed < 3000; seed++ {
		orig, steps, err := gen.Sequence(seed)
		if err != nil {
			t.Fatal(err)
		}
		trans, expect, _ := Replay(orig, steps, allSteps(len(steps)))
		po, err1 := orig.Program()
		pt, err2 := trans.Program()
		if err1 != nil || err2 != nil {
			t.Fatalf("seed %d: %v %v", seed, err1, err2)
		}
		a, err1 := engine.Exec(ctx, po.String())
		b, err2 := engine.Exec(ctx, pt.String())
		if err1 != nil || err2 != nil || a.Failed() || b.Failed() || expect.Holds(a.Rows, b.Rows) {
			continue
		}
		c := &culpritCase{seed: seed, fault: fault, orig: orig, steps: steps, answer: a.Rows, engine: engine}
		for _, row := range symmetricDiff(a.Rows, b.Rows) {
			if tu, ok := datalog.RowTuple(row); ok {
				c.witness = append(c.witness, tu)
			}
		}
		out = append(out, c)
	}
	return out
}

func allSteps(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestCulprits rolls 50-step sequences that break on a planted fault back to their culprit steps,
// guided by the reference's provenance and by ddmin over the steps: both localizations must
// reproduce alone, the rollbacks must make the break vanish, and the guided search must need
// fewer engine runs in all. POLYFUZZ_CULPRIT_TABLE=1 runs 20 cases per fault and prints the
// table of docs/datalog.md; otherwise 4.
func TestCulprits(t *testing.T) {
	n := 4
	table := os.Getenv("POLYFUZZ_CULPRIT_TABLE") != ""
	if table {
		n = 20
	}
	ctx := context.Background()
	var rows []string
	for _, fault := range []string{datalog.PlantMixed + ":1", datalog.PlantRules + ":1"} {
		cases := culpritCases(t, fault, n)
		if len(cases) < n {
			t.Fatalf("%s: %d breaking 50-step sequences in the seeds tried, want %d", fault, len(cases), n)
		}
		var gRuns, dRuns, gSize, dSize, same int
		var gTime, dTime time.Duration
		ratios := 0.0
		for _, c := range cases {
			guided := &Culprits{Orig: c.orig, Steps: c.steps, Breaks: c.breaks(t)}
			start := time.Now()
			gl := guided.Guided(ctx, c.witness)
			gr := guided.Rollback(ctx, gl)
			gTime += time.Since(start)
			plain := &Culprits{Orig: c.orig, Steps: c.steps, Breaks: c.breaks(t)}
			start = time.Now()
			dl := plain.DDMin(ctx)
			dr := plain.Rollback(ctx, dl)
			dTime += time.Since(start)
			if gl == nil || dl == nil {
				t.Fatalf("%s seed %d: no localization (guided %v, ddmin %v)", fault, c.seed, gl, dl)
			}
			for name, loc := range map[string][]int{"guided": gl, "ddmin": dl} {
				check := &Culprits{Orig: c.orig, Steps: c.steps, Breaks: c.breaks(t)}
				if !check.try(ctx, loc) {
					t.Errorf("%s seed %d: the %s localization %v does not break the relation alone", fault, c.seed, name, loc)
				}
			}
			for name, rb := range map[string][]int{"guided": gr, "ddmin": dr} {
				if rb == nil {
					continue
				}
				// The rollback removed from the whole sequence must make the break vanish.
				keep := slices.DeleteFunc(allSteps(len(c.steps)), func(i int) bool { return slices.Contains(rb, i) })
				g, e, _ := Replay(c.orig, c.steps, keep)
				p, err := g.Program()
				if err != nil {
					t.Fatal(err)
				}
				if c.breaks(t)(ctx, p, e) {
					t.Errorf("%s seed %d: without the %s rollback %v the relation still breaks", fault, c.seed, name, rb)
				}
			}
			if fmt.Sprint(gl) == fmt.Sprint(dl) {
				same++
			}
			gRuns += guided.Runs
			dRuns += plain.Runs
			gSize += len(gl)
			dSize += len(dl)
			ratios += math.Log(float64(plain.Runs) / float64(max(1, guided.Runs)))
			if table {
				t.Logf("%s seed %d: guided %v (%d runs) rollback %v; ddmin %v (%d runs) rollback %v; culprit %s",
					fault, c.seed, gl, guided.Runs, gr, dl, plain.Runs, dr, strings.Join(stepNames(c.steps, gl), ", "))
			}
		}
		if gRuns >= dRuns {
			t.Errorf("%s: the guided search took %d engine runs, ddmin %d", fault, gRuns, dRuns)
		}
		k := float64(len(cases))
		rows = append(rows, fmt.Sprintf("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f ms | %.1f ms | %d of %d | %.1fx |",
			fault, len(cases), float64(gRuns)/k, float64(dRuns)/k, float64(gSize)/k, float64(dSize)/k,
			float64(gTime.Microseconds())/1000/k, float64(dTime.Microseconds())/1000/k, same, len(cases), math.Exp(ratios/k)))
	}
	if table {
		fmt.Println("| planted fault | sequences | engine runs, guided | engine runs, ddmin | steps named, guided | steps named, ddmin | time, guided | time, ddmin | same culprit | geo. mean run ratio |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
		for _, r := range rows {
			fmt.Println(r)
		}
	}
}

// stepNames returns the names of the steps at idx.
func stepNames(steps []Step, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, steps[i].String())
	}
	return out
}
