package main

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/domain/sqldom"
)

// BenchmarkSQLOracle runs the whole loop on one worker with one oracle at a time on SQLite in
// process, the way scripts/sqlancer.sh measures polyfuzz against SQLancer (there in an isolated
// child), so that a CPU profile (-cpuprofile) shows where each oracle's time goes. Each oracle
// runs with the generator's default checks per case (ORACLE) and with other counts
// (ORACLE-checks=K). It reports the process's CPU time per check (user and system, from
// getrusage), which the machine's load does not change as it does the wall-clock rate; run it
// with GOMAXPROCS=1. b.N is the number of cases.
func BenchmarkSQLOracle(b *testing.B) {
	type bench struct {
		name, oracle, gen string
	}
	var benches []bench
	for _, oracle := range []string{"norec", "tlp-where", "pqs"} {
		benches = append(benches, bench{oracle, oracle, ""})
		for _, k := range []int{1, 2, 8} {
			benches = append(benches, bench{fmt.Sprintf("%s-checks=%d", oracle, k), oracle, fmt.Sprintf("sqlgen{checks=%d}", k)})
		}
	}
	for _, bc := range benches {
		b.Run(bc.name, func(b *testing.B) {
			spec := domain.Spec{Engine: "sqlite", Timeout: 2 * time.Second}
			s := setupOf(b, sqldom.Domain, &domain.Settings{Engines: []domain.Spec{spec}, Gen: bc.gen}, bc.oracle)
			store, err := campaign.NewStore(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			cfg := campaign.Config{
				Domain: "sql", Gen: s.Gen, Oracles: s.Oracles, Store: store, Seed: 1, Workers: 1,
				Tests: int64(max(b.N, 200)), Open: numbered(s),
			}
			cpu0 := cpuTime(b)
			b.ResetTimer()
			sum, err := campaign.Run(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			cpu := cpuTime(b) - cpu0
			checks := float64(max(1, sum.Totals.Checks))
			b.ReportMetric(sum.Totals.ChecksPerSec, "checks/s")
			b.ReportMetric(checks/cpu.Seconds(), "checks/cpu-s")
			b.ReportMetric(float64(cpu.Microseconds())/checks, "cpu-µs/check")
			b.ReportMetric(100*float64(sum.Totals.Valid)/float64(max(1, sum.Totals.Statements)), "valid%")
			b.ReportMetric(float64(sum.Totals.Statements)/checks, "statements/check")
		})
	}
}

// cpuTime returns the user and system CPU time the process has used.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
