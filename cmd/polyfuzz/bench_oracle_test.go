package main

import (
	"context"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/domain/sqldom"
)

// BenchmarkSQLOracle runs the whole loop on one worker with one oracle at a time on SQLite in
// process, the way scripts/sqlancer.sh measures polyfuzz against SQLancer (there in an isolated
// child), so that a CPU profile (-cpuprofile) shows where each oracle's time goes.
func BenchmarkSQLOracle(b *testing.B) {
	for _, oracle := range []string{"norec", "tlp-where"} {
		b.Run(oracle, func(b *testing.B) {
			spec := domain.Spec{Engine: "sqlite", Timeout: 2 * time.Second}
			s := setupOf(b, sqldom.Domain, &domain.Settings{Engines: []domain.Spec{spec}}, oracle)
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
			b.ReportMetric(100*float64(sum.Totals.Valid)/float64(max(1, sum.Totals.Statements)), "valid%")
			b.ReportMetric(float64(sum.Totals.Statements)/float64(max(1, sum.Totals.Checks)), "statements/check")
		})
	}
}
