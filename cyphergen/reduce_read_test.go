package cyphergen

import (
	"context"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestReduceRead checks that the reducer shrinks the read constructs: a variable-length
// relationship to its fixed lower length, a path variable away, a comprehension's WHERE and mapping, a
// map's extra entries and a subquery's WHERE, while the property kept (rows on the reference,
// and the construct still there) holds.
func TestReduceRead(t *testing.T) {
	g := testGraph()
	tests := []struct {
		query, keepText, want string
	}{
		{"MATCH p = (a)-[*1..3]->(b:B) RETURN a.id AS c0", "*", "MATCH (a)-[*1]->(b) RETURN a AS c0"},
		{"MATCH (a)-[:T*1..2]->(b) RETURN length(p) AS c0", "", "RETURN p AS c0"},
		{"RETURN [x IN [1, 2, 3] WHERE (x > 1) | (x * 2)] AS c0", "x IN", "RETURN [x IN []] AS c0"},
		{"RETURN {a: 1, b: 2}.a AS c0", "{", "RETURN {b: 2} AS c0"},
		{"MATCH (n) WHERE EXISTS { MATCH (n)-[:T*1..2]->(m:B) WHERE (m.id > 1) } RETURN n.id AS c0", "EXISTS",
			"MATCH (n) WHERE EXISTS { MATCH (m) } RETURN n AS c0"},
		{"MATCH (n {id: 1}) RETURN n{.v, .id}.id AS c0", "{", "MATCH (n) RETURN n{.id} AS c0"},
	}
	for _, tt := range tests {
		c := &fuzz.Case{Domain: "graph", Setup: g.Statements(), Queries: []fuzz.Query{{Role: "graph.q", Text: tt.query}}}
		// Keep a candidate that still holds keepText and gives rows, or (for the second query,
		// whose path variable is unbound) one that still fails to evaluate.
		keep := func(_ context.Context, cand *fuzz.Case) bool {
			text := cand.Queries[0].Text
			if !strings.Contains(text, tt.keepText) {
				return false
			}
			q, err := ParseQuery(text)
			if err != nil {
				return false
			}
			_, rows, err := g.Run(q)
			if tt.keepText == "" {
				return err != nil
			}
			return err == nil && len(rows) > 0
		}
		out, err := NewReducer().Reduce(context.Background(), c, keep)
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Queries[0].Text; got != tt.want {
			t.Errorf("%s reduced to\n%s, want\n%s", tt.query, got, tt.want)
		}
	}
}
