package datalog_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/muz"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

// BenchmarkEngines times the transitive closure of a random graph and the points-to program of
// the provenance paper at several sizes on the reference engine, μZ and SQLite side by side,
// through the same canonical text. Every engine's answer is checked against the reference's.
func BenchmarkEngines(b *testing.B) {
	engines := []struct {
		name string
		open func(b *testing.B) fuzz.Target
	}{
		{"ref", func(*testing.B) fuzz.Target { return datalog.NewReference(0) }},
		{"muz", func(b *testing.B) fuzz.Target { return newMuZ(b, muz.Options{Timeout: 5 * time.Minute}) }},
		{"sqlite", func(b *testing.B) fuzz.Target {
			tg, err := sqlite.Open(sqlite.Options{Timeout: 5 * time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { tg.Close() })
			return &datalog.SQLEngine{Inner: tg, Dialect: "sqlite"}
		}},
	}
	progs := []struct {
		name string
		p    *datalog.Program
	}{
		{"tc/nodes=50", datalog.TransitiveClosure(50, 100, 1)},
		{"tc/nodes=100", datalog.TransitiveClosure(100, 200, 1)},
		{"tc/nodes=200", datalog.TransitiveClosure(200, 400, 1)},
		{"pointsto/vars=100", datalog.PointsTo(100, 1)},
		{"pointsto/vars=250", datalog.PointsTo(250, 1)},
		{"pointsto/vars=500", datalog.PointsTo(500, 1)},
	}
	for _, pr := range progs {
		text := pr.p.String()
		m, err := datalog.Eval(pr.p)
		if err != nil {
			b.Fatal(err)
		}
		want := m.Output()
		for _, e := range engines {
			b.Run(pr.name+"/"+e.name, func(b *testing.B) {
				tg := e.open(b)
				ctx := context.Background()
				for b.Loop() {
					res, err := tg.Exec(ctx, text)
					if err != nil || res.Failed() {
						b.Fatalf("%v %+v", err, res)
					}
					if fmt.Sprint(res.Rows) != fmt.Sprint(want) {
						b.Fatalf("%s answers %d rows, the reference %d", e.name, len(res.Rows), len(want))
					}
				}
				b.ReportMetric(float64(m.Size()), "tuples")
			})
		}
	}
}
