package cyphergen

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	a := Node{ID: 0, Labels: []string{"L1", "L2"}, Props: Props{{"id", IntValue(0)}, {"k1", StringValue("x")}}}
	b := Node{ID: 1, Props: Props{{"id", IntValue(1)}, {"k2", FloatValue(-1.5)}, {"k3", BoolValue(true)}}}
	c := Node{ID: 2, Labels: []string{"L1"}, Props: Props{{"id", IntValue(1)}}}
	setup := []string{
		"CREATE (:L1:L2 {id: 0, k1: 'x'})",
		"create (n {id: 1, k2: -1.5, k3: true, k4: null});",
		"CREATE (:L1 {id: 1})",
	}
	tests := []struct {
		name  string
		stmts []string
		nodes []Node
		rels  []Rel
	}{
		{"nodes", setup, []Node{a, b, c}, nil},
		{"relationship", append(setup, "MATCH (a {id: 0}), (b {id: 1}) CREATE (a)-[:T2 {id: 128, k5: 'y'}]->(b)"),
			[]Node{a, b, c}, []Rel{
				{ID: 128, Type: "T2", From: 0, To: 1, Props: Props{{"id", IntValue(128)}, {"k5", StringValue("y")}}},
				{ID: 128, Type: "T2", From: 0, To: 2, Props: Props{{"id", IntValue(128)}, {"k5", StringValue("y")}}}}},
		{"incoming, label filter, no id", append(setup, "MATCH (a {id: 0}), (b:L1 {id: 1.0}) CREATE (a)<-[r:`T 1`]-(b)"),
			[]Node{a, b, c}, []Rel{{ID: 3, Type: "T 1", From: 2, To: 0}}},
		{"self-loop", append(setup, "MATCH (a {id: 0}) CREATE (a)-[:T0 {id: 7}]->(a)"),
			[]Node{a, b, c}, []Rel{{ID: 7, Type: "T0", From: 0, To: 0, Props: Props{{"id", IntValue(7)}}}}},
		{"no match", append(setup, "MATCH (a {id: 0}), (b {id: 9}) CREATE (a)-[:T0]->(b)",
			"MATCH (a {k4: null}) CREATE (a)-[:T0]->(a)", "MATCH (a:L3) CREATE (a)-[:T0]->(a)"), []Node{a, b, c}, nil},
		{"repeated variable", append(setup, "MATCH (a {id: 1}), (a:L1) CREATE (a)-[:T0]->(a)"),
			[]Node{a, b, c}, []Rel{{ID: 3, Type: "T0", From: 2, To: 2}}},
		{"path with new nodes", []string{"CREATE (x:A {id: (-9223372036854775807 - 1)})-[:T {w: 1}]->(y)<-[:U]-(x), (y)-[:V]->(:B)"},
			[]Node{{ID: 0, Labels: []string{"A"}, Props: Props{{"id", IntValue(math.MinInt64)}}}, {ID: 1}, {ID: 2, Labels: []string{"B"}}},
			// ids count the nodes that exist when the relationship is created
			[]Rel{{ID: 2, Type: "T", From: 0, To: 1, Props: Props{{"w", IntValue(1)}}}, {ID: 3, Type: "U", From: 0, To: 1},
				{ID: 5, Type: "V", From: 1, To: 2}}},
		{"created per match", append(setup, "MATCH (a:L1) CREATE (a)-[:T]->(:N {k: 'z'})"),
			[]Node{a, b, c, {ID: 3, Labels: []string{"N"}, Props: Props{{"k", StringValue("z")}}},
				{ID: 4, Labels: []string{"N"}, Props: Props{{"k", StringValue("z")}}}},
			[]Rel{{ID: 4, Type: "T", From: 0, To: 3}, {ID: 6, Type: "T", From: 2, To: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &Graph{}
			for _, s := range tt.stmts {
				if err := g.Apply(s); err != nil {
					t.Fatalf("Apply(%s): %v", s, err)
				}
			}
			if !reflect.DeepEqual(g.Nodes, tt.nodes) {
				t.Errorf("nodes\n got %+v\nwant %+v", g.Nodes, tt.nodes)
			}
			if !reflect.DeepEqual(g.Rels, tt.rels) {
				t.Errorf("relationships\n got %+v\nwant %+v", g.Rels, tt.rels)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct{ stmt, want string }{
		{"MATCH (a {id: 0}) RETURN a", "1:19: unsupported: 'RETURN' in a setup statement (expected CREATE or MATCH ... CREATE)"},
		{"MERGE (a {id: 0})", "1:1: unsupported: 'MERGE' in a setup statement"},
		{"MATCH (a) SET a.k = 1", "1:11: unsupported: 'SET' in a setup statement"},
		{"MATCH (a) WHERE a.id = 0 CREATE (a)-[:T]->(a)", "1:11: unsupported: WHERE in a setup statement"},
		{"CREATE (a) RETURN a", "1:12: expected end of input after CREATE, found 'RETURN'"},
		{"CREATE (a {id: 0)", "1:17: expected '}' after property map, found ')'"},
		{"MATCH (a)-[:T]->(b) CREATE (a)-[:T]->(b)", "unsupported: relationship pattern in the MATCH of a setup statement: (a)-[:T]->(b)"},
		{"MATCH (a {id: 0}) CREATE (a)-[:T]-(a)", "a created relationship needs a direction"},
		{"MATCH (a {id: 0}) CREATE (a)-[]->(a)", "a created relationship needs exactly one type, not 0"},
		{"MATCH (a {id: 0}) CREATE (a)-[:T|U]->(a)", "a created relationship needs exactly one type, not 2"},
		{"MATCH (a {id: 0}) CREATE (a:L)", "variable a is already bound"},
		{"MATCH (a {id: 0}) CREATE (a)-[a:T]->(a)", "variable a is already bound"},
		{"CREATE (a)-[r:T]->(b)-[r:T]->(c)", "variable r is already bound"},
		{"CREATE ({k: [1, 2]})", "property k: unsupported: property value [1, 2] (use a literal)"},
		{"CREATE ({k: x})", "property k: unsupported: property value x (use a literal)"},
		{"CREATE ({k: 9223372036854775807 + 1})", "property k: unsupported: property value (9223372036854775807 + 1)"},
		{"CREATE ({k: 1, k: 2})", "property k given twice"},
	}
	for _, tt := range tests {
		g, err := Generate(applyOptions(), 1)
		if err != nil {
			t.Fatal(err)
		}
		before := g.String()
		err = g.Apply(tt.stmt)
		switch {
		case err == nil:
			t.Errorf("Apply(%s) succeeded, want error %q", tt.stmt, tt.want)
		case !strings.HasPrefix(err.Error(), tt.want):
			t.Errorf("Apply(%s):\n got error %s\nwant error %s...", tt.stmt, err, tt.want)
		}
		if g.String() != before {
			t.Errorf("Apply(%s) failed but changed the graph", tt.stmt)
		}
	}
}

func TestApplyConstants(t *testing.T) {
	tests := []struct {
		lit  string
		want Value
	}{
		{"-3", IntValue(-3)},
		{"(-3)", IntValue(-3)},
		{"(-(-3))", IntValue(3)},
		{"(-9223372036854775807 - 1)", IntValue(math.MinInt64)},
		{"(9223372036854775806 + 1)", IntValue(math.MaxInt64)},
		{"(-1 - -9223372036854775807)", IntValue(math.MaxInt64 - 1)},
		{"(-0.0)", FloatValue(math.Copysign(0, -1))},
		{"(1.0/0.0)", FloatValue(math.Inf(1))},
		{"(-1.0/0.0)", FloatValue(math.Inf(-1))},
		{"\"a\\u0001\"", StringValue("a\x01")},
		{"false", BoolValue(false)},
	}
	for _, tt := range tests {
		g := &Graph{}
		if err := g.Apply("CREATE ({k: " + tt.lit + "})"); err != nil {
			t.Errorf("%s: %v", tt.lit, err)
			continue
		}
		if got := g.Nodes[0].Props; len(got) != 1 || got[0].Val != tt.want || Literal(got[0].Val) != Literal(tt.want) {
			t.Errorf("%s: got %v, want %s", tt.lit, got, Literal(tt.want))
		}
	}
	for _, bad := range []string{"(-9223372036854775807 - 2)", "(9223372036854775807 + 1)", "(-(-9223372036854775807 - 1))"} {
		if err := (&Graph{}).Apply("CREATE ({k: " + bad + "})"); err == nil {
			t.Errorf("%s: overflow not reported", bad)
		}
	}
}

// applyOptions are options for small graphs with every property type, long strings and few
// labels, so that nodes share labels and values.
func applyOptions() Options {
	o := DefaultOptions()
	o.Nodes = 12
	o.Labels, o.RelTypes, o.Keys = Range{Min: 1, Max: 3}, Range{Min: 1, Max: 2}, Range{Min: 0, Max: 4}
	o.PropTypes = []Type{Integer, Float, String, Boolean}
	o.Presence, o.Pool = 70, 3
	o.StrLen = Range{Min: 0, Max: 40}
	return o
}

// TestApplyGenerated rebuilds generated graphs from their setup statements.
func TestApplyGenerated(t *testing.T) {
	floats := DefaultOptions()
	floats.PropTypes = []Type{Integer, Float, String, Boolean}
	floats.Ints = Range{Min: -1 << 62, Max: 1 << 62}
	tests := []struct {
		name  string
		o     Options
		seeds uint64
	}{
		{"default", DefaultOptions(), 4},
		{"floats", floats, 2},
		{"small", applyOptions(), 200},
	}
	for _, tt := range tests {
		for seed := range tt.seeds {
			g, err := Generate(tt.o, seed)
			if err != nil {
				t.Fatal(err)
			}
			h := &Graph{Schema: g.Schema}
			for _, s := range g.Statements() {
				if err := h.Apply(s); err != nil {
					t.Fatalf("%s seed %d: Apply(%s): %v", tt.name, seed, s, err)
				}
			}
			if !reflect.DeepEqual(h, g) {
				t.Fatalf("%s seed %d: rebuilt graph differs:\n got %s\nwant %s", tt.name, seed, h, g)
			}
		}
	}
}
