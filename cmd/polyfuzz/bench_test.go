package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/domain/smtdom"
	"github.com/polyfuzz/polyfuzz/domain/sqldom"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/smtgen"
)

// BenchmarkSQLCampaign runs the whole loop (generate, execute, NoREC, the TLP family and the error
// oracle) on one worker and reports oracle checks per second and harness efficiency per engine:
// SQLite in an isolated child and in process, DuckDB in an isolated child, and the servers whose
// DSN is set (scripts/test.sh sets them).
func BenchmarkSQLCampaign(b *testing.B) {
	for _, tc := range []struct {
		name, dbms string
		isolate    bool
	}{
		{"sqlite-isolated", "sqlite", true}, {"sqlite-in-process", "sqlite", false},
		{"duckdb-isolated", "duckdb", true}, {"postgres", "postgres", false}, {"mariadb", "mariadb", false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			spec := domain.Spec{Engine: tc.dbms, Timeout: 2 * time.Second, Isolate: tc.isolate}
			if e, _ := sqldom.Domain.Engine(tc.dbms); e.Env != "" {
				if spec.DSN = os.Getenv(e.Env); spec.DSN == "" {
					b.Skipf("%s is not set; scripts/test.sh starts the servers", e.Env)
				}
			}
			s := setupOf(b, sqldom.Domain, &domain.Settings{Engines: []domain.Spec{spec}}, sqldom.Domain.DefaultOracles...)
			store, err := campaign.NewStore(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			cfg := campaign.Config{
				Domain: "sql", Gen: s.Gen, Oracles: s.Oracles, Store: store, Seed: 1, Workers: 1,
				Tests: int64(max(b.N, 200)), Open: numbered(s),
			}
			b.ResetTimer()
			sum, err := campaign.Run(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(sum.Totals.ChecksPerSec, "checks/s")
			b.ReportMetric(sum.Totals.Efficiency, "efficiency")
			b.ReportMetric(100*float64(sum.Totals.Valid)/float64(max(1, sum.Totals.Statements)), "valid%")
		})
	}
}

// BenchmarkSMTCampaign runs the whole SMT loop (STORM generation, z3, sat-by-construction, model
// validation and error oracles) on one worker over the project's seeds, with small instances
// (at most 8 assertions of depth 8), and reports instances per second and harness efficiency.
func BenchmarkSMTCampaign(b *testing.B) {
	testenv.NeedEngine(b, "z3")
	s := setupOf(b, smtdom.Domain, smtBenchSettings(b), "sat", "model")
	store, err := campaign.NewStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	cfg := campaign.Config{Domain: "smt", Gen: s.Gen, Oracles: s.Oracles, Store: store, Seed: 1, Workers: 1,
		Tests: int64(max(b.N, 200)), Open: numbered(s)}
	b.ResetTimer()
	sum, err := campaign.Run(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(sum.Totals.TestsPerSec, "instances/s")
	b.ReportMetric(sum.Totals.Efficiency, "efficiency")
}

// smtBenchSeeds copies the project's seeds whose instances z3 solves in about a millisecond
// (linear arithmetic and UF) into a folder for the SMT benchmarks.
func smtBenchSeeds(b *testing.B) string {
	dir := b.TempDir()
	for _, f := range []string{"lia_schedule.smt2", "lia_unsat_parity.smt2", "lra_mix.smt2", "uf_pigeons.smt2"} {
		text, err := os.ReadFile(filepath.Join("..", "..", "testdata", "smt", f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), text, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// smtBenchSettings runs z3 on the benchmark seeds, with small instances.
func smtBenchSettings(b *testing.B) *domain.Settings {
	return &domain.Settings{Engines: []domain.Spec{{Engine: "z3", Timeout: 10 * time.Second}}, Ref: "z3",
		Seeds: smtBenchSeeds(b), Gen: smtBenchOptions.String()}
}

// setupOf builds the setup of domain d for settings s with the given oracles.
func setupOf(tb testing.TB, d *domain.Domain, s *domain.Settings, oracles ...string) *domain.Setup {
	tb.Helper()
	var err error
	if s.Oracles, err = d.ResolveOracles(oracles, len(s.Engines)); err != nil {
		tb.Fatal(err)
	}
	st, err := d.Setup(context.Background(), s, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// smtBenchOptions are the small instances of the SMT benchmarks.
var smtBenchOptions = smtgen.Options{MaxDepth: 8, MaxAsserts: 8, Mutants: 100, Tactics: -1, Incremental: -1}

// BenchmarkSMTWarmVsSpawn checks the same mutants two ways on one worker: on a warm z3 process
// reset between instances (polyfuzz's way), and with a new z3 process per instance reading the
// mutant from a file (STORM's and yinyang's way). Both ask for the model and run the
// sat-by-construction and model-validation oracles.
func BenchmarkSMTWarmVsSpawn(b *testing.B) {
	testenv.NeedEngine(b, "z3")
	s := setupOf(b, smtdom.Domain, smtBenchSettings(b), "sat", "model")
	const n = 300
	var err error
	cases := make([]*fuzz.Case, n)
	for i := range cases {
		if cases[i], err = s.Gen.Generate(fuzz.CaseSeed(1, uint64(i), smtBenchOptions.Mutants)); err != nil {
			b.Fatal(err)
		}
	}
	check := func(c *fuzz.Case, runs []fuzz.Run) {
		for _, o := range s.Oracles {
			if v := o.Check(c, runs); v.Finding != nil {
				b.Fatalf("finding on z3: %s", v.Finding.Title)
			}
		}
	}
	ctx := context.Background()
	b.Run("warm", func(b *testing.B) {
		ts, err := s.Open(ctx, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer domain.CloseAll(ts)
		i := 0
		for b.Loop() {
			c := cases[i%n]
			i++
			ts[0].Reset(ctx)
			rs, err := fuzz.ExecAll(ctx, ts[0], c.Texts())
			if err != nil {
				b.Fatal(err)
			}
			check(c, []fuzz.Run{{Target: "z3", Results: rs}})
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "instances/s")
	})
	b.Run("spawn", func(b *testing.B) {
		dir := b.TempDir()
		i := 0
		for b.Loop() {
			c := cases[i%n]
			i++
			file := filepath.Join(dir, "mutant.smt2")
			if err := os.WriteFile(file, []byte(strings.Join(c.Texts(), "\n")+"\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			out, err := exec.Command("z3", "-smt2", "-t:10000", file).Output()
			if err != nil {
				b.Fatalf("z3: %v\n%s", err, out)
			}
			check(c, []fuzz.Run{{Target: "z3", Results: spawnResults(c, string(out))}})
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "instances/s")
	})
}

// spawnResults splits the output of a solver run on a whole case file into one result per query:
// the instance's check-sat answers, then the get-value pairs.
func spawnResults(c *fuzz.Case, out string) []*fuzz.Result {
	inst := &fuzz.Result{Status: fuzz.StatusOK}
	model := &fuzz.Result{Status: fuzz.StatusOK}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var rest []string
	for _, l := range lines {
		if l == "sat" || l == "unsat" || l == "unknown" {
			inst.Rows = append(inst.Rows, []string{l})
		} else {
			rest = append(rest, l)
		}
	}
	values, err := smtgen.GetValueAnswer(strings.Join(rest, " "))
	if err != nil {
		model.Status, model.Err = fuzz.StatusEngineError, err.Error()
	}
	for _, v := range values {
		model.Rows = append(model.Rows, []string{"", v}) // the model oracle reads values by position
	}
	rs := []*fuzz.Result{inst}
	if len(c.Queries) > 1 {
		rs = append(rs, model)
	}
	return rs
}
