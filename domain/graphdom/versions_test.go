package graphdom

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/graphtest"
)

// TestVersionedCatalogue runs a simple CASE over missing properties on Neo4j 4.4 and the
// default Neo4j (5.26) beside the reference: the campaign's diff oracle counts 4.4's answer as
// the catalogued neo4j4-simple-case-null, since it reads the server's version when it opens it,
// and reports the same answer as a finding on Neo4j 5 (planted there in place of its own answer,
// which agrees with the reference), where it would be a bug.
func TestVersionedCatalogue(t *testing.T) {
	c := &fuzz.Case{Setup: []string{"CREATE ({id: 1})", "CREATE ({id: 2, k: 5})"},
		Queries: []fuzz.Query{{Role: "graph.q", Text: "MATCH (n) RETURN n.id AS i, CASE n.k WHEN n.j THEN 1 ELSE 2 END AS c"}}}
	v44 := graphtest.Neo4jServer{Version: "4.4.48", Env: graphtest.Neo4jEnv + "_4_4_48"}
	// 4.4's answer: node 1's missing k matches its missing j.
	rows44 := [][]string{{"i:1", "i:1"}, {"i:2", "i:2"}}
	tests := []struct {
		name  string
		spec  func(t *testing.T) domain.Spec
		known bool // else the 4.4 answer, planted, is a finding
	}{
		{"4.4", func(t *testing.T) domain.Spec {
			return domain.Spec{Engine: "neo4j", Version: v44.Version, DSN: v44.Need(t), Timeout: 10 * time.Second}
		}, true},
		{"default", func(t *testing.T) domain.Spec {
			return domain.Spec{Engine: "neo4j", DSN: graphtest.NeedNeo4j(t), Timeout: 10 * time.Second}
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := &domain.Settings{Engines: []domain.Spec{tc.spec(t), {Engine: "ref"}}, Oracles: []string{"diff"}}
			st, err := Domain.Setup(ctx, s, func(string) {})
			if err != nil {
				t.Fatal(err)
			}
			ts, err := st.Open(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer domain.CloseAll(ts)
			var runs []fuzz.Run
			for _, tg := range ts {
				if err := tg.Reset(ctx); err != nil {
					t.Fatal(err)
				}
				run := fuzz.Run{Target: tg.Name()}
				for _, stmt := range append(slices.Clone(c.Setup), c.Queries[0].Text) {
					r, err := tg.Exec(ctx, stmt)
					if err != nil || r.Failed() {
						t.Fatalf("%s: %s: %v %+v", tg.Name(), stmt, err, r)
					}
					run.Results = append(run.Results, r)
				}
				run.Setup, run.Results = run.Results[:len(c.Setup)], run.Results[len(c.Setup):]
				if tg.Name() == "neo4j" && !tc.known {
					run.Results[0] = &fuzz.Result{Status: fuzz.StatusOK, Columns: run.Results[0].Columns, Rows: rows44}
				}
				runs = append(runs, run)
			}
			o, err := st.Oracle("diff")
			if err != nil {
				t.Fatal(err)
			}
			v := o.Check(c, runs)
			const known = "known: neo4j4-simple-case-null"
			switch {
			case tc.known && (v.Skip != known || v.Finding != nil):
				t.Errorf("Neo4j %s: want the known difference, got %+v", ts[0].Version(), v)
			case !tc.known && (v.Finding == nil || v.Finding.Title != "diff: neo4j: returns different rows than ref"):
				t.Errorf("Neo4j %s: want a finding, got %+v", ts[0].Version(), v)
			}
		})
	}
}
