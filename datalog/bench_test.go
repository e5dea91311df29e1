package datalog

import (
	"fmt"
	"testing"
	"time"
)

// benchEval evaluates p b.N times and reports the tuples derived per second.
func benchEval(b *testing.B, p *Program) {
	b.Helper()
	size := 0
	for b.Loop() {
		m, err := Eval(p)
		if err != nil {
			b.Fatal(err)
		}
		size = m.Size()
	}
	b.ReportMetric(float64(size), "tuples")
	b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds(), "tuples/s")
}

func BenchmarkRefTransitiveClosure(b *testing.B) {
	for _, n := range []int{100, 200, 400} {
		p := TransitiveClosure(n, 2*n, 1)
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) { benchEval(b, p) })
	}
}

func BenchmarkRefPointsTo(b *testing.B) {
	for _, n := range []int{250, 500, 1000} {
		p := PointsTo(n, 1)
		b.Run(fmt.Sprintf("vars=%d", n), func(b *testing.B) { benchEval(b, p) })
	}
}

// BenchmarkRefUpdate measures two epochs of Update, one that deletes some facts and one that
// inserts them again, and reports the time of one evaluation from scratch for comparison.
func BenchmarkRefUpdate(b *testing.B) {
	for _, c := range []struct {
		name  string
		p     *Program
		every int // every how many facts one is changed
	}{
		{"tc-one-edge", TransitiveClosure(200, 400, 1), 400},
		{"pointsto-1%", PointsTo(1000, 1), 100},
	} {
		b.Run(c.name, func(b *testing.B) {
			start := time.Now()
			m, err := Eval(c.p)
			if err != nil {
				b.Fatal(err)
			}
			scratch := time.Since(start)
			var facts []Tuple
			for i, r := range c.p.Rules {
				if r.IsFact() && i%c.every == 0 {
					facts = append(facts, Tuple{Rel: r.Head.Rel, Args: r.Head.Args})
				}
			}
			changed := 0
			for b.Loop() {
				d, err := m.Update(nil, facts)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Update(facts, nil); err != nil {
					b.Fatal(err)
				}
				changed = len(d.Deleted)
			}
			b.ReportMetric(float64(changed), "tuples-deleted")
			b.ReportMetric(float64(scratch.Nanoseconds()), "scratch-ns")
		})
	}
}
