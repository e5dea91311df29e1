package cyphergen

import (
	"reflect"
	"slices"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestGenerator(t *testing.T) {
	o := DefaultOptions()
	o.Nodes, o.Queries = 30, 5
	g := NewGenerator(o, Profiles["falkordb"].AvoidSet(), true, true)
	if g.CasesPerSetup() != 5 {
		t.Fatalf("CasesPerSetup = %d, want 5", g.CasesPerSetup())
	}
	var cases []*fuzz.Case
	for i := range uint64(10) {
		c, err := g.Generate(fuzz.CaseSeed(42, i, g.CasesPerSetup()))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	for i, c := range cases {
		if c.Domain != "graph" || c.Gen != o.String() {
			t.Errorf("case %d: domain %q, gen %q", i, c.Domain, c.Gen)
		}
		var roles []string
		for _, q := range c.Queries {
			roles = append(roles, q.Role)
		}
		if want := []string{"graph.q", "tlp.orig", "tlp.p", "tlp.notp", "tlp.null"}; !slices.Equal(roles, want) {
			t.Errorf("case %d roles %v, want %v", i, roles, want)
		}
		again, _ := NewGenerator(o, Profiles["falkordb"].AvoidSet(), true, true).Generate(c.Seed)
		if !reflect.DeepEqual(again, c) {
			t.Errorf("case %d: seed %d gave two different cases", i, c.Seed)
		}
		same := reflect.DeepEqual(c.Setup, cases[i/5*5].Setup)
		if !same {
			t.Errorf("case %d does not share the graph of case %d", i, i/5*5)
		}
	}
	if reflect.DeepEqual(cases[0].Setup, cases[5].Setup) {
		t.Errorf("cases 0 and 5 share a graph across setups")
	}
	if cases[0].Queries[0].Text == cases[1].Queries[0].Text {
		t.Errorf("cases 0 and 1 have the same query")
	}
	g2 := NewGenerator(o, nil, false, true)
	c, _ := g2.Generate(cases[0].Seed)
	if len(c.Queries) != 4 || c.Queries[0].Role != fuzz.TLPWhere.Role("orig") {
		t.Errorf("partition-only case has queries %v", c.Queries)
	}
	// The setup builds the graph the queries were drawn from: the reference evaluator's graph
	// built from it gives the same rows as the generated graph.
	gr, _ := Generate(o, fuzz.SetupSeed(cases[0].Seed))
	ref := &Graph{}
	for _, s := range cases[0].Setup {
		if err := ref.Apply(s); err != nil {
			t.Fatalf("Apply(%s): %v", s, err)
		}
	}
	q, err := ParseQuery(cases[0].Queries[0].Text)
	if err != nil {
		t.Fatal(err)
	}
	_, want, err1 := gr.Run(q)
	_, got, err2 := ref.Run(q)
	if err1 != nil || err2 != nil || len(got) != len(want) {
		t.Errorf("query on the setup's graph: %d rows (%v), on the generated graph %d (%v)", len(got), err2, len(want), err1)
	}
}
