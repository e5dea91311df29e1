package smtproc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// tinyInstance is the benchmark's case: declarations, five assertions with a check-sat, and a
// get-value, as the SMT executor sends them (setup, smt.instance, smt.model).
func tinyInstance(i int) (setup, instance, model string) {
	n := strconv.Itoa(i % 1000)
	setup = "(set-option :produce-models true)(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)(declare-fun z () Int)"
	instance = "(assert (> x " + n + "))(assert (< y (+ x 10)))(assert (= z (+ x y)))(assert (>= y 0))(assert (distinct x y z))(check-sat)"
	model = "(get-value (x y z))"
	return
}

func checkTiny(b *testing.B, sat, model string) {
	if sat != "sat" || model == "" {
		b.Fatalf("unexpected answer %q %q", sat, model)
	}
}

// BenchmarkZ3TinyInstance measures one case on the long-lived process: Reset, then the setup,
// the instance and the get-value (three round trips, or one with ExecBatch).
func BenchmarkZ3TinyInstance(b *testing.B) {
	testenv.NeedEngine(b, "z3")
	ctx := context.Background()
	for _, mode := range []string{"exec", "batch", "one-statement", "eager-reset"} {
		b.Run(mode, func(b *testing.B) {
			tg := openPreset(b, "z3")
			tg.eagerReset = mode == "eager-reset"
			i := 0
			for b.Loop() {
				i++
				setup, inst, model := tinyInstance(i)
				if err := tg.Reset(ctx); err != nil {
					b.Fatal(err)
				}
				switch mode {
				case "batch":
					rs, err := tg.ExecBatch(ctx, []string{setup, inst, model})
					if err != nil {
						b.Fatal(err)
					}
					checkTiny(b, rs[1].Rows[0][0], rs[2].Rows[0][1])
				case "one-statement":
					r, err := tg.Exec(ctx, setup+inst+model)
					if err != nil {
						b.Fatal(err)
					}
					checkTiny(b, r.Rows[0][0], r.Rows[1][1])
				default:
					if _, err := tg.Exec(ctx, setup); err != nil {
						b.Fatal(err)
					}
					r, err := tg.Exec(ctx, inst)
					if err != nil {
						b.Fatal(err)
					}
					m, err := tg.Exec(ctx, model)
					if err != nil {
						b.Fatal(err)
					}
					checkTiny(b, r.Rows[0][0], m.Rows[0][1])
				}
			}
			if tg.Starts != 1 {
				b.Errorf("%d processes started", tg.Starts)
			}
		})
	}
}

// BenchmarkZ3SharedSetup is BenchmarkZ3TinyInstance without a Reset per case: the
// declarations are made once and each instance runs inside (push 1) ... (pop 1), which is how
// a generator that shares setups between cases drives the target. z3 4.8.12 spends about 1 ms
// re-initialising itself after each (reset), which this avoids (but z3 then solves every
// instance in incremental mode).
func BenchmarkZ3SharedSetup(b *testing.B) {
	testenv.NeedEngine(b, "z3")
	ctx := context.Background()
	tg := openPreset(b, "z3")
	setup, _, model := tinyInstance(0)
	if r, err := tg.Exec(ctx, setup); err != nil || r.Failed() {
		b.Fatal(r, err)
	}
	i := 0
	for b.Loop() {
		i++
		_, inst, _ := tinyInstance(i)
		r, err := tg.Exec(ctx, "(push 1)"+inst)
		if err != nil {
			b.Fatal(err)
		}
		m, err := tg.Exec(ctx, model+"(pop 1)")
		if err != nil {
			b.Fatal(err)
		}
		checkTiny(b, r.Rows[0][0], m.Rows[0][1])
	}
}

// BenchmarkZ3RoundTrip measures the protocol alone: an empty statement, that is one echo.
func BenchmarkZ3RoundTrip(b *testing.B) {
	testenv.NeedEngine(b, "z3")
	ctx := context.Background()
	tg := openPreset(b, "z3")
	for b.Loop() {
		if _, err := tg.Exec(ctx, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkZ3SpawnPerInstance is the STORM/yinyang way for comparison: a fresh z3 per instance,
// reading a file ("z3 -smt2 file") or stdin ("z3 -in").
func BenchmarkZ3SpawnPerInstance(b *testing.B) {
	testenv.NeedEngine(b, "z3")
	dir := b.TempDir()
	for _, mode := range []string{"file", "stdin"} {
		b.Run(mode, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				setup, inst, model := tinyInstance(i)
				script := setup + "\n" + inst + "\n" + model + "\n"
				var cmd *exec.Cmd
				if mode == "file" {
					f := filepath.Join(dir, "i.smt2")
					if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
						b.Fatal(err)
					}
					cmd = exec.Command("z3", "-smt2", f)
				} else {
					cmd = exec.Command("z3", "-in")
					cmd.Stdin = strings.NewReader(script)
				}
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				r := parseOutput(out)
				checkTiny(b, r.Rows[0][0], r.Rows[1][1])
			}
		})
	}
}
