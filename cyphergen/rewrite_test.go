package cyphergen

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// rowBag counts a result's rows.
func rowBag(r *fuzz.Result) map[string]int {
	b := map[string]int{}
	for _, row := range r.Rows {
		b[strings.Join(row, "\x1f")]++
	}
	return b
}

// holds reports whether rewrite rows b stand in the relation of role to original rows a.
func holds(role string, a, b map[string]int) bool {
	for k, n := range a {
		if (role == Genie.Role("super") || role == Genie.Role("eq") || role == GRev.Role("eq")) && b[k] < n {
			return false
		}
	}
	for k, n := range b {
		if (role == Genie.Role("sub") || role == Genie.Role("eq") || role == GRev.Role("eq")) && a[k] < n {
			return false
		}
	}
	return true
}

// TestRewritesHoldOnReference generates cases with both rewrites over several graphs and checks
// on the reference evaluator that every rewrite stands in its relation to the query, that every
// relation and most mutations occur, and that a case regenerates identically.
func TestRewritesHoldOnReference(t *testing.T) {
	o := DefaultOptions()
	o.Nodes, o.Queries = 40, 100
	for _, engine := range []string{"neo4j", "falkordb"} {
		g := NewGenerator(o, Avoid([]string{engine}), false, false).WithRewrites(true, true)
		ref := NewReference()
		ctx := context.Background()
		roles := map[string]int{}
		checked, setup := 0, ""
		for i := range uint64(300) {
			c, err := g.Generate(fuzz.CaseSeed(7, i, g.CasesPerSetup()))
			if err != nil {
				t.Fatal(err)
			}
			if s := strings.Join(c.Setup, ";"); s != setup {
				setup = s
				ref.Reset(ctx)
				for _, st := range c.Setup {
					if r, err := ref.Exec(ctx, st); err != nil || r.Failed() {
						t.Fatalf("setup %s: %v %+v", st, err, r)
					}
				}
			}
			if c.Queries[0].Role != RoleQuery {
				t.Fatalf("case %d starts with %s", i, c.Queries[0].Role)
			}
			orig, _ := ref.Exec(ctx, c.Queries[0].Text)
			for _, q := range c.Queries[1:] {
				roles[q.Role]++
				if engine == "falkordb" && !steered(t, c.Queries[0].Text, q.Text) {
					t.Errorf("falkordb: a rewrite of a counting query or an OPTIONAL MATCH:\n%s\n%s", c.Queries[0].Text, q.Text)
				}
				res, _ := ref.Exec(ctx, q.Text)
				if orig.Failed() || res.Failed() {
					continue
				}
				checked++
				if !holds(q.Role, rowBag(orig), rowBag(res)) {
					t.Errorf("%s: %s\nquery:   %s (%d rows)\nrewrite: %s (%d rows)", engine, q.Role, c.Queries[0].Text,
						len(orig.Rows), q.Text, len(res.Rows))
				}
			}
			if i%50 == 0 {
				again, _ := NewGenerator(o, Avoid([]string{engine}), false, false).WithRewrites(true, true).Generate(c.Seed)
				if !reflect.DeepEqual(again, c) {
					t.Errorf("seed %d gave two different cases", c.Seed)
				}
			}
		}
		t.Logf("%s: %d rewrites checked; roles %v", engine, checked, roles)
		for _, r := range append(Genie.Roles(), GRev.Roles()...) {
			if roles[r] < 20 {
				t.Errorf("%s: %d rewrites of role %s in 300 cases", engine, roles[r], r)
			}
		}
	}
}

// TestMutations applies each GraphGenie mutation and the GRev cover to hand-written queries.
func TestMutations(t *testing.T) {
	s := Schema{Labels: []Label{{Name: "L9"}}, RelTypes: []RelType{{Name: "T9"}}}
	tests := []struct {
		name, query string
		want        []string // texts any of which the mutation may give
	}{
		{"reverse", "MATCH (a:L1)-[r:T1]->(b)<-[s]-(c) RETURN a", []string{"MATCH (c)-[s]->(b)<-[r:T1]-(a:L1) RETURN a"}},
		{"split-path", "MATCH (a)-[r]->()-[s]->(c) RETURN a", []string{"MATCH (a)-[r]->(m0), (m0)-[s]->(c) RETURN a"}},
		{"reorder", "MATCH (a), (b) RETURN a", []string{"MATCH (b), (a) RETURN a"}},
		{"to-where", "MATCH (a:L1)-[:T1]->(b) RETURN a", []string{"MATCH (a)-[:T1]->(b) WHERE (a:L1) RETURN a",
			"MATCH (a:L1)-[m0]->(b) WHERE (type(m0) IN ['T1']) RETURN a"}},
		{"drop-label", "MATCH (a:L1) RETURN a", []string{"MATCH (a) RETURN a"}},
		{"drop-label", "OPTIONAL MATCH (a:L1) RETURN a", nil},
		{"drop-label", "MATCH (a:L1) RETURN count(a)", nil},
		{"drop-types", "MATCH (a)-[r:T1]->(b) RETURN a", []string{"MATCH (a)-[r]->(b) RETURN a", "MATCH (a)-[r:T1|T9]->(b) RETURN a"}},
		{"drop-prop", "MATCH (a {k: 1}) RETURN a", []string{"MATCH (a) RETURN a"}},
		{"undirect", "MATCH (a)-[r]->(b) RETURN a", []string{"MATCH (a)-[r]-(b) RETURN a"}},
		{"split-match", "MATCH (a), (b) WHERE (a.id < b.id) RETURN a", []string{"MATCH (a) MATCH (b) WHERE (a.id < b.id) RETURN a"}},
		{"drop-where", "MATCH (a) WHERE (a.id < 3) RETURN a", []string{"MATCH (a) RETURN a"}},
		{"drop-where", "MATCH (a) WHERE (a.id < 3) RETURN a LIMIT 1", nil},
		{"add-label", "MATCH (a) RETURN a", []string{"MATCH (a:L9) RETURN a"}},
		{"add-type", "MATCH (a)-[r:T1|T2]->(b) RETURN a", []string{"MATCH (a)-[r:T2]->(b) RETURN a", "MATCH (a)-[r:T1]->(b) RETURN a"}},
		{"direct", "MATCH (a)-[r]-(b) RETURN a", []string{"MATCH (a)-[r]->(b) RETURN a", "MATCH (a)<-[r]-(b) RETURN a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m mutation
			for _, x := range mutations {
				if x.name == tc.name {
					m = x
				}
			}
			for seed := range uint64(20) {
				rw := newRewriter(rand.New(rand.NewPCG(seed, 1)), nil, s)
				q := rw.parse(tc.query)
				ok := m.apply(rw, q)
				if ok != (tc.want != nil) {
					t.Fatalf("%s applies: %v", tc.query, ok)
				}
				if got := q.String(); ok && !contains(tc.want, got) {
					t.Errorf("%s gave %s", tc.query, got)
				}
			}
		})
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// TestCover checks GRev's path covers of a hand-written MATCH: every cover keeps the
// relationship patterns (each once, in either direction) and the constraints of every node.
func TestCover(t *testing.T) {
	const query = "MATCH (a:L1)-[r:T1]->()<-[s]-(c {k: 1}), (c)-[u]-(a), ()-[v]->(:L2) RETURN a"
	seen := map[string]bool{}
	for seed := range uint64(40) {
		rw := newRewriter(rand.New(rand.NewPCG(seed, 2)), nil, Schema{})
		out, ok := rw.grev(query)
		if !ok {
			t.Fatalf("seed %d: no cover", seed)
		}
		seen[out] = true
		for _, part := range []string{":L1", "r:T1", "{k: 1}", ":L2"} {
			if strings.Count(out, part) != 1 {
				t.Errorf("%s: %q %d times", out, part, strings.Count(out, part))
			}
		}
		for _, rel := range []string{"[r:T1]", "[s]", "[u]", "[v]"} {
			if strings.Count(out, rel) != 1 {
				t.Errorf("%s: %s %d times", out, rel, strings.Count(out, rel))
			}
		}
	}
	if len(seen) < 10 {
		t.Errorf("only %d covers in 40 seeds", len(seen))
	}
}

// steered reports whether a rewrite keeps FalkorDB's steered entries: the query has no aggregate,
// SKIP or LIMIT, and its OPTIONAL MATCH clauses are the rewrite's.
func steered(t *testing.T, orig, rewrite string) bool {
	optionals := func(text string) []string {
		q, err := ParseQuery(text)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, sq := range q.Parts {
			for _, c := range sq.Clauses {
				if m, ok := c.(*Match); ok && m.Optional {
					out = append(out, clauseText(m))
				}
			}
		}
		return out
	}
	q, _ := ParseQuery(orig)
	return rowwise(&SingleQuery{Clauses: allClauses(q)}) && reflect.DeepEqual(optionals(orig), optionals(rewrite))
}
