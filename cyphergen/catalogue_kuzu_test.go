package cyphergen

import "testing"

// TestKuzuCatalogue checks that Kùzu's error messages met in campaigns are catalogued, and that
// a campaign on kuzu avoids what its profile and steered entries name.
func TestKuzuCatalogue(t *testing.T) {
	for _, tc := range []struct{ msg, id string }{
		{"Binder exception: c1 has data type NODE but INT64 was expected.", "kuzu-union-types"},
		{"Binder exception: c0 has data type NODE but STRING[] was expected.", "kuzu-union-types"},
		{"Binder exception: Table T5 does not exist.", "kuzu-schema"},
		{"Binder exception: Cannot find property k56 for r5.", "kuzu-schema"},
		{"Runtime exception: List extract takes 1-based position.", "kuzu-list-index"},
		{"Binder exception: Expression a has data type STRING but expected INT64. Implicit cast is not supported.", ""},
	} {
		if got := ExpectedError(tc.msg); got != tc.id {
			t.Errorf("ExpectedError(%q) = %q, want %q", tc.msg, got, tc.id)
		}
	}
	avoid := Avoid([]string{"kuzu"})
	for _, f := range []string{FeatureNodeLabels, "label-test", "case-when-ref", "case-simple", "index", "undirected", "op:in"} {
		if !avoid[f] {
			t.Errorf("a kuzu campaign does not avoid %s", f)
		}
	}
	if avoid["op:+"] || avoid["agg:sum"] {
		t.Errorf("a kuzu campaign avoids + or sum, which its entries only explain")
	}
	if Avoid([]string{"neo4j"})[FeatureNodeLabels] {
		t.Errorf("a neo4j campaign gives every node one label")
	}
}

// TestOneLabelPerNode checks that a generator avoiding node-labels gives every node exactly one
// label, and one that does not gives some nodes none or several.
func TestOneLabelPerNode(t *testing.T) {
	o := DefaultOptions()
	for _, tc := range []struct {
		avoid map[string]bool
		one   bool
	}{{map[string]bool{FeatureNodeLabels: true}, true}, {nil, false}} {
		g, err := NewGenerator(o, tc.avoid, true, false).graph(7)
		if err != nil {
			t.Fatal(err)
		}
		all := true
		for _, n := range g.gi.g.Nodes {
			all = all && len(n.Labels) == 1
		}
		if all != tc.one {
			t.Errorf("avoid %v: every node has one label: %v, want %v", tc.avoid, all, tc.one)
		}
	}
}

// TestKuzuQueriesAvoid generates queries for a kuzu campaign: none uses a feature it avoids.
func TestKuzuQueriesAvoid(t *testing.T) {
	avoid := Avoid([]string{"kuzu"})
	g := NewGenerator(DefaultOptions(), avoid, true, true)
	for seed := range uint64(300) {
		c, err := g.Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range c.Queries {
			pq, err := ParseQuery(q.Text)
			if err != nil {
				t.Fatalf("%s: %v", q.Text, err)
			}
			for _, f := range Features(pq) {
				if avoid[f] {
					t.Fatalf("seed %d uses %s, which a kuzu campaign avoids:\n%s", seed, f, q.Text)
				}
			}
		}
	}
}
