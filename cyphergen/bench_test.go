package cyphergen

import (
	"context"
	"testing"
)

// BenchmarkGenerate measures the case generator: one case (a general query and a partitioned
// one) over a default GDsmith graph, the graph drawn once per 100 cases as in a campaign.
func BenchmarkGenerate(b *testing.B) {
	g := NewGenerator(DefaultOptions(), nil, true, true)
	for i := 0; b.Loop(); i++ {
		if _, err := g.Generate(uint64(1<<16 + i%100)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReference measures the reference target on generated queries over a default graph:
// parse, evaluate, print canonical rows.
func BenchmarkReference(b *testing.B) {
	g := NewGenerator(DefaultOptions(), nil, true, true)
	ctx := context.Background()
	ref := NewReference()
	c, err := g.Generate(1 << 16)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range c.Setup {
		if r, _ := ref.Exec(ctx, s); r.Failed() {
			b.Fatalf("setup %q: %s", s, r.Err)
		}
	}
	var queries []string
	for i := range 100 {
		c, _ := g.Generate(uint64(1<<16 + i))
		queries = append(queries, c.Texts()...)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := ref.Exec(ctx, queries[i%len(queries)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}
