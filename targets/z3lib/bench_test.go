//go:build z3lib

package z3lib

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/smtgen"
	"github.com/polyfuzz/polyfuzz/targets/isolated"
)

// benchCases returns n STORM cases of the project's linear-arithmetic and UF seeds (small
// instances: at most 8 assertions of depth 8, as smtproc's and cmd/polyfuzz's SMT benchmarks
// use), as statements: setup, instance, model query.
func benchCases(b *testing.B, n int) [][]string {
	all, _, err := smtgen.LoadSeeds(os.DirFS("../../testdata/smt"), ".")
	if err != nil {
		b.Fatal(err)
	}
	var seeds []*smtgen.Seed
	for _, s := range all {
		switch s.Name {
		case "lia_schedule.smt2", "lia_unsat_parity.smt2", "lra_mix.smt2", "uf_pigeons.smt2":
			seeds = append(seeds, s)
		}
	}
	g, err := smtgen.New(smtgen.Options{MaxDepth: 8, MaxAsserts: 8, Mutants: 100, Incremental: -1, Tactics: -1}, seeds, nil)
	if err != nil {
		b.Fatal(err)
	}
	out := make([][]string, n)
	for i := range out {
		c, err := g.Generate(fuzz.CaseSeed(1, uint64(i), g.CasesPerSetup()))
		if err != nil {
			b.Fatal(err)
		}
		out[i] = append(append([]string(nil), c.Setup...), c.Texts()...)
	}
	return out
}

// BenchmarkInstances runs the same STORM instances, one per iteration (Reset, then each
// statement), on the warm z3 process (smtproc), on the binding with (reset) between instances
// (the default), on the binding with a fresh context per instance, and on the binding in an
// isolated child: instances per second of each.
func BenchmarkInstances(b *testing.B) {
	cases := benchCases(b, 300)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		open   func(b *testing.B) fuzz.Target
		joined bool // the instance's statements in one call
	}{
		{"process", func(b *testing.B) fuzz.Target { return openProc(b) }, false},
		{"lib-reset", func(b *testing.B) fuzz.Target { return openLib(b, Options{Timeout: 10 * time.Second}) }, false},
		{"process-one-call", func(b *testing.B) fuzz.Target { return openProc(b) }, true},
		{"lib-reset-one-call", func(b *testing.B) fuzz.Target { return openLib(b, Options{Timeout: 10 * time.Second}) }, true},
		{"lib-fresh-context", func(b *testing.B) fuzz.Target {
			return openLib(b, Options{Timeout: 10 * time.Second, FreshContext: true})
		}, false},
		{"lib-isolated", func(b *testing.B) fuzz.Target {
			it, err := isolated.Open(ctx, isolated.Options{Spec: `{"Timeout":10000000000}`, Timeout: 15 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { it.Close() })
			return it
		}, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tg := tc.open(b)
			i := 0
			for b.Loop() {
				if err := tg.Reset(ctx); err != nil {
					b.Fatal(err)
				}
				stmts := cases[i%len(cases)]
				if tc.joined {
					stmts = []string{strings.Join(stmts, "\n")}
				}
				for _, stmt := range stmts {
					if _, err := tg.Exec(ctx, stmt); err != nil {
						b.Fatal(err)
					}
				}
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "instances/s")
		})
	}
}
