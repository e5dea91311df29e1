package cyphergen

import (
	"context"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestWriteCases generates cases over a few graphs with the default options and runs them on the
// reference: about Options.Writes percent of them write, the same seed gives the same case, a
// write case leaves the reference's graph as its setup built it (ExecIsolated), and nearly every
// write query returns rows; its figures are in docs/graph.md.
func TestWriteCases(t *testing.T) {
	o := DefaultOptions()
	o.Queries = 100
	g := NewGenerator(o, nil, true, true).WithWrites(true)
	ref := NewReference()
	ctx := context.Background()
	const n = 500
	writes, rows, failed := 0, 0, map[string]int{}
	var lastSetup []string
	var before []*fuzz.Result
	features := map[string]int{}
	for i := range n {
		seed := fuzz.CaseSeed(7, uint64(i), o.Queries)
		c, err := g.Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		if !c.Writes {
			continue
		}
		if again, _ := g.Generate(seed); again.Queries[0].Text != c.Queries[0].Text {
			t.Fatalf("seed %d gives two cases", seed)
		}
		writes++
		if len(lastSetup) != len(c.Setup) || lastSetup[0] != c.Setup[0] {
			ref.Reset(ctx)
			if _, err := fuzz.ExecAll(ctx, ref, c.Setup); err != nil {
				t.Fatal(err)
			}
			lastSetup = c.Setup
			nodes, rels := StateQueries()
			before, _ = fuzz.ExecAll(ctx, ref, []string{nodes, rels})
		}
		rs, err := ref.ExecIsolated(ctx, c.Texts())
		if err != nil {
			t.Fatal(err)
		}
		q, err := ParseQuery(c.Queries[0].Text)
		if err != nil {
			t.Fatalf("%s: %v", c.Queries[0].Text, err)
		}
		for _, f := range Features(q) {
			features[f]++
		}
		switch w := rs[0]; {
		case w.Failed():
			failed[w.Code+": "+w.Err]++
		case len(w.Rows) > 0:
			rows++
		}
		nodes, rels := StateQueries()
		after, _ := fuzz.ExecAll(ctx, ref, []string{nodes, rels})
		for i := range after {
			if len(after[i].Rows) != len(before[i].Rows) {
				t.Fatalf("%s left the graph changed: %d rows of %s, %d before", c.Queries[0].Text, len(after[i].Rows), after[i].Columns, len(before[i].Rows))
			}
		}
	}
	t.Logf("%d of %d cases write; %d of them return rows on the reference; failures: %v", writes, n, rows, failed)
	t.Logf("features: %v", features)
	if writes < n/6 || writes > n/4 {
		t.Errorf("%d of %d cases write, want about %d%%", writes, n, o.Writes)
	}
	if rows*100 < writes*90 {
		t.Errorf("only %d of %d write queries return rows on the reference", rows, writes)
	}
	for f := range failed {
		if !strings.HasPrefix(f, CodeUnsupported) {
			t.Errorf("write queries fail on the reference: %v", failed)
			break
		}
	}
}
