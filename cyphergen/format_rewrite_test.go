package cyphergen

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// TestRewriteRepro runs repro.sh of rewriting findings on the reference evaluator: it reproduces
// (exit 0) when the rewrite's rows break its relation, and does not (exit 1) when they keep it.
func TestRewriteRepro(t *testing.T) {
	pf := testenv.PolyfuzzBinary(t)
	setup := []string{"CREATE (:A {id: 1})", "CREATE ({id: 2})", "MATCH (a {id: 1}), (b {id: 2}) CREATE (a)-[:T {id: 3}]->(b)"}
	const q = "MATCH (a:A)-[r]->(b) RETURN a.id AS c0"
	tests := []struct {
		name, role, rewrite string
		status              int
	}{
		{"equivalent holds", Genie.Role("eq"), "MATCH (b)<-[r]-(a:A) RETURN a.id AS c0", 1},
		{"equivalent broken", GRev.Role("eq"), "MATCH (a)-[r]-(b) RETURN a.id AS c0", 0},
		{"relaxing holds", Genie.Role("super"), "MATCH (a)-[r]-(b) RETURN a.id AS c0", 1},
		{"relaxing broken", Genie.Role("super"), "MATCH (a:A)-[r]->(b:A) RETURN a.id AS c0", 0},
		{"restricting holds", Genie.Role("sub"), "MATCH (a:A)-[r]->(b:A) RETURN a.id AS c0", 1},
		{"restricting broken", Genie.Role("sub"), "MATCH (a)-[r]-(b) RETURN a.id AS c0", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fuzz.Case{Domain: "graph", Setup: setup, Queries: []fuzz.Query{{Role: RoleQuery, Text: q}, {Role: tc.role, Text: tc.rewrite}}}
			oracle := "genie"
			if tc.role == GRev.Role("eq") {
				oracle = "grev"
			}
			in := fuzz.ReproInfo{Header: tc.name, Oracle: oracle, Kind: fuzz.KindWrongResult, Roles: []string{RoleQuery, tc.role}, Blamed: []string{"ref"}}
			status, out := testenv.RunRepro(t, Format{Engines: []string{"ref"}}.Repro(c, in), "POLYFUZZ="+pf)
			if status != tc.status {
				t.Errorf("exit status %d, want %d\n%s", status, tc.status, out)
			}
		})
	}
}
