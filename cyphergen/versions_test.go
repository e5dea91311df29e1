package cyphergen

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"4.4.48", "5.0", -1},
		{"5.0", "5.0.0", 0},
		{"5.26.30", "5.7.0", 1},
		{"2026.08.1", "5.26.30", 1},
		{"4.16.3", "4.16.3", 0},
	}
	for _, tc := range tests {
		if got := CompareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareVersions(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestInVersions(t *testing.T) {
	tests := []struct {
		ranges          []string
		engine, version string
		want            bool
	}{
		{[]string{"neo4j<5.0"}, "neo4j", "4.4.48", true},
		{[]string{"neo4j<5.0"}, "neo4j", "5.26.30", false},
		{[]string{"neo4j<5.0"}, "neo4j", "2026.08.1", false},
		{[]string{"neo4j<5.0"}, "neo4j", "", true},
		{[]string{"neo4j<5.0"}, "falkordb", "4.16.3", true},
		{[]string{"falkordb>=4.16,<4.18"}, "falkordb", "4.16.3", true},
		{[]string{"falkordb>=4.16,<4.18"}, "falkordb", "4.18.3", false},
		{[]string{"falkordb>=4.16,<4.18"}, "falkordb", "4.14.2", false},
		{[]string{"falkordb=4.16.3"}, "falkordb", "4.16.3", true},
		{[]string{"neo4j<5.0"}, "neo4jx", "6.0", true},
	}
	for _, tc := range tests {
		if got := InVersions(tc.ranges, tc.engine, tc.version); got != tc.want {
			t.Errorf("InVersions(%v, %s, %s) = %v, want %v", tc.ranges, tc.engine, tc.version, got, tc.want)
		}
	}
}

// TestExplainVersions checks that a versioned entry (Neo4j 4.4's simple CASE matching null to
// null, modelled by the reference) explains Neo4j 4.4's rows, and not the same rows from a
// Neo4j 5 or a Neo4j 4.4 answer the model does not give.
func TestExplainVersions(t *testing.T) {
	c := &fuzz.Case{Setup: []string{"CREATE ({id: 1})", "CREATE ({id: 2, k: 5})"},
		Queries: []fuzz.Query{{Role: "graph.q", Text: "MATCH (n) RETURN n.id AS i, CASE n.k WHEN n.j THEN 1 ELSE 2 END AS c"}}}
	run := func(target string, rows ...[]string) fuzz.Run {
		return fuzz.Run{Target: target, Results: []*fuzz.Result{{Status: fuzz.StatusOK, Rows: rows}}}
	}
	ref := run("ref", []string{"i:1", "i:2"}, []string{"i:2", "i:2"})
	v4 := run("neo4j", []string{"i:1", "i:1"}, []string{"i:2", "i:2"})
	wrong := run("neo4j", []string{"i:1", "i:1"}, []string{"i:2", "i:1"})
	tests := []struct {
		name, version string
		neo4j         fuzz.Run
		want          string
	}{
		{"4.4 matches null to null", "4.4.48", v4, "neo4j4-simple-case-null"},
		{"5.26 does not", "5.26.30", v4, ""},
		{"newest does not", "2026.08.1", v4, ""},
		{"4.4 with other rows", "4.4.48", wrong, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fuzz.Finding{Title: "diff: neo4j: returns different rows than ref", Case: c, Roles: []string{"graph.q"},
				Runs: []fuzz.Run{tc.neo4j, ref}}
			got := ExplainVersions(func(e string) string { return map[string]string{"neo4j": tc.version}[e] })(f)
			if got != tc.want {
				t.Errorf("Explain on neo4j %s = %q, want %q", tc.version, got, tc.want)
			}
		})
	}
	// The reference gives Neo4j 5's rows under its own semantics, 4.4's under the model.
	g := &Graph{}
	for _, s := range c.Setup {
		if err := g.Apply(s); err != nil {
			t.Fatal(err)
		}
	}
	q, err := ParseQuery(c.Queries[0].Text)
	if err != nil {
		t.Fatal(err)
	}
	for _, sem := range []Semantics{{}, {SimpleCaseNullMatches: true}} {
		_, rows, err := g.RunSemantics(q, sem)
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{false: "i:2", true: "i:1"}[sem.SimpleCaseNullMatches]
		for _, r := range rows {
			if r[0].Canon() == "i:1" && r[1].Canon() != want {
				t.Errorf("%+v: node 1 gives %s, want %s", sem, r[1].Canon(), want)
			}
		}
	}
}

func TestAvoidVersions(t *testing.T) {
	saved := Catalogue
	t.Cleanup(func() { Catalogue = saved })
	Catalogue = append(Catalogue, Divergence{ID: "test-old", Engines: []string{"neo4j"}, Versions: []string{"neo4j<5.0"},
		Features: []string{"fn:test"}, Steer: true})
	tests := []struct {
		engine string
		want   bool
	}{
		{"neo4j@4.4.48", true},
		{"neo4j@5.26.30", false},
		{"neo4j", true}, // unknown version: every entry of the engine
		{"falkordb@4.16.3", false},
	}
	for _, tc := range tests {
		if got := Avoid([]string{tc.engine})["fn:test"]; got != tc.want {
			t.Errorf("Avoid(%s) avoids fn:test: %v, want %v", tc.engine, got, tc.want)
		}
	}
}
