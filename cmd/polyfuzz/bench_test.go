package main

import (
	"context"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/sqlgen"
)

// BenchmarkSQLiteCampaign runs the whole loop (generate, execute, NoREC + TLP + error oracles) on
// one worker and reports oracle checks per second and harness efficiency, for SQLite in an
// isolated child and in process.
func BenchmarkSQLiteCampaign(b *testing.B) {
	for _, isolate := range []bool{true, false} {
		name := "in-process"
		if isolate {
			name = "isolated"
		}
		b.Run(name, func(b *testing.B) {
			spec := targetSpec{DBMS: "sqlite", Timeout: 2 * time.Second, Isolate: isolate}
			s, err := newSQLSetup(sqlgen.Options{}, []string{"norec", "tlp-where"}, spec)
			if err != nil {
				b.Fatal(err)
			}
			store, err := campaign.NewStore(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			cfg := campaign.Config{
				Domain: "sql", Gen: s.gen, Oracles: s.oracles, Store: store, Seed: 1, Workers: 1,
				Tests: int64(max(b.N, 200)),
				Open: func(ctx context.Context) ([]fuzz.Target, error) {
					t, err := openTarget(ctx, spec)
					return []fuzz.Target{t}, err
				},
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
