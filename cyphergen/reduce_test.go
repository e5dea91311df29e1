package cyphergen

import (
	"context"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/cypherval"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestReduceKeepsPartitions checks the parallel editing of a case's queries: every query edit
// the reducer would try on a partitioned case keeps the partition relation on the reference, so
// a reduced TLP finding is never an artefact of the reduction.
func TestReduceKeepsPartitions(t *testing.T) {
	gen := NewGenerator(DefaultOptions(), nil, false, true)
	tried := 0
	for i := range 30 {
		c, err := gen.Generate(uint64(7<<16 + i))
		if err != nil {
			t.Fatal(err)
		}
		g := &Graph{}
		for _, s := range c.Setup {
			if err := g.Apply(s); err != nil {
				t.Fatal(err)
			}
		}
		cur := c
		reduceQueries(context.Background(), &cur, func(cand *fuzz.Case) bool {
			tried++
			if ok, why := partitionHolds(g, cand); !ok {
				t.Fatalf("an edit breaks the partition relation (%s):\n%s", why, strings.Join(cand.Texts(), "\n"))
			}
			return false
		})
	}
	if tried < 300 {
		t.Errorf("only %d candidate edits over 30 cases", tried)
	}
}

// partitionHolds reports whether orig's rows are the multiset union of the partitions' rows on
// g, or some query errors (a candidate the engines would reject alike).
func partitionHolds(g *Graph, c *fuzz.Case) (bool, string) {
	var bags []map[string]int
	for _, q := range c.Queries {
		pq, err := ParseQuery(q.Text)
		if err != nil {
			return false, err.Error()
		}
		_, rows, err := g.Run(pq)
		if err != nil {
			return true, ""
		}
		b := map[string]int{}
		for _, r := range rows {
			b[strings.Join(cypherval.CanonRow(r), "|")]++
		}
		bags = append(bags, b)
	}
	for _, b := range bags[1:] {
		for k, n := range b {
			bags[0][k] -= n
		}
	}
	for k, n := range bags[0] {
		if n != 0 {
			return false, k
		}
	}
	return true, ""
}

// TestReduceKeepsOrderBeforeSkip checks that ORDER BY is dropped only where no SKIP or LIMIT
// follows it: without it, which rows they keep depends on each engine's order.
func TestReduceKeepsOrderBeforeSkip(t *testing.T) {
	tests := []struct {
		query     string
		dropOrder bool
	}{
		{"MATCH (n) WITH n ORDER BY n.id SKIP 2 RETURN n", false},
		{"MATCH (n) RETURN n ORDER BY n.id LIMIT 3", false},
		{"MATCH (n) RETURN n ORDER BY n.id", true},
	}
	for _, tc := range tests {
		edits, err := queryEdits(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		dropped := false
		for _, e := range edits {
			dropped = dropped || strings.Contains(e.key, "drop order by")
		}
		if dropped != tc.dropOrder {
			t.Errorf("%s: an edit drops ORDER BY: %v, want %v", tc.query, dropped, tc.dropOrder)
		}
	}
}
