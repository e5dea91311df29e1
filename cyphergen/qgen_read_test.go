package cyphergen

import (
	"math/rand/v2"
	"testing"
)

// readFeatures are the read constructs' features the generator produces with default options.
var readFeatures = []string{"var-length", "var-length-var", "named-path", "map-literal", "map-projection",
	"map-projection-all", "list-comprehension", "exists-subquery", "count-subquery", "fn:length", "call-subquery", "map-projection-null-test"}

func init() { allFeatures = append(allFeatures, readFeatures...) }

// TestReadGeneration checks that queries with the read constructs are deterministic, that the
// reference evaluates them without errors, and that most return rows.
func TestReadGeneration(t *testing.T) {
	o := DefaultOptions()
	g := testGraphs(t, o, 1)[0]
	a := NewQueryGen(o, g, nil, rand.New(rand.NewPCG(3, 1)))
	b := NewQueryGen(o, g, nil, rand.New(rand.NewPCG(3, 1)))
	found, nonEmpty := map[string]int{}, map[string]int{}
	for range 600 {
		q := a.Query()
		if qb := b.Query(); q.String() != qb.String() {
			t.Fatalf("two generators gave\n%s\n%s", q, qb)
		}
		_, rows, err := g.Run(q)
		if err != nil {
			t.Fatalf("%v: %s", err, q)
		}
		for _, f := range Features(q) {
			found[f]++
			if len(rows) > 0 {
				nonEmpty[f]++
			}
		}
	}
	for _, f := range readFeatures {
		found, nonEmpty := found[f], nonEmpty[f]
		t.Logf("%s: %d queries, %d with rows", f, found, nonEmpty)
		if found == 0 || float64(nonEmpty) < 0.8*float64(found) {
			t.Errorf("%s: %d queries, %d with rows", f, found, nonEmpty)
		}
	}
}
