package cyphergen

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestCatalogueAvoid(t *testing.T) {
	tests := []struct {
		engines []string
		want    []string // features that must be avoided
		not     []string // features that must not be
	}{
		{[]string{"neo4j", "ref"}, nil, []string{"rel-rebound", "fn:tofloat"}},
		{[]string{"neo4j", "falkordb"}, []string{"rel-rebound", "fn:tofloat", "op:=~", "neg-literal-operand"}, nil},
		{[]string{"memgraph"}, []string{"agg:stdev", "agg:percentiledisc"}, []string{"rel-rebound"}},
	}
	for _, tc := range tests {
		got := Avoid(tc.engines)
		for _, f := range tc.want {
			if !got[f] {
				t.Errorf("Avoid(%v) lacks %s", tc.engines, f)
			}
		}
		for _, f := range tc.not {
			if got[f] {
				t.Errorf("Avoid(%v) has %s", tc.engines, f)
			}
		}
	}
}

// TestExplain checks the catalogue's classification of findings: by feature, by the model of
// FalkorDB's relationship matching (as sets), and not at all for other differences.
func TestExplain(t *testing.T) {
	parallel := []string{"CREATE ({id: 1})", "CREATE ({id: 2})",
		"MATCH (a {id: 1}), (b {id: 2}) CREATE (a)-[:T {id: 3}]->(b)",
		"MATCH (a {id: 1}), (b {id: 2}) CREATE (a)-[:T {id: 4}]->(b)"}
	oneEdge := []string{"CREATE ({id: 1})", "CREATE ({id: 2})", "MATCH (a {id: 1}), (b {id: 2}) CREATE (a)-[:T {id: 3}]->(b)"}
	rows := func(vals ...string) *fuzz.Result {
		r := &fuzz.Result{Status: fuzz.StatusOK}
		for _, v := range vals {
			r.Rows = append(r.Rows, []string{v})
		}
		return r
	}
	tests := []struct {
		name, title string
		setup       []string
		query       string
		falkordb    *fuzz.Result
		want        string
	}{
		{"parallel relationships merged", "diff: falkordb: returns different rows than neo4j,ref", parallel,
			"MATCH (a)-[]->(b) RETURN b.id AS c", rows("i:2"), "falkordb-rel-uniqueness"},
		{"one relationship matched twice", "diff: falkordb: returns different rows than neo4j,ref", oneEdge,
			"MATCH (a)<-[]-(b)-[]->(c) RETURN a.id AS c", rows("i:2"), "falkordb-rel-uniqueness"},
		{"partition finding", "tlp-where: falkordb: partitions add rows", parallel,
			"MATCH (a)-[]->(b) RETURN b.id AS c", rows("i:2"), "falkordb-rel-uniqueness"},
		{"a wrong value", "diff: falkordb: returns different rows than neo4j,ref", parallel,
			"MATCH (a)-[]->(b) RETURN b.id AS c", rows("i:3"), ""},
		{"a count is not a set difference", "diff: falkordb: returns different rows than neo4j,ref", parallel,
			"MATCH (a)-[]->(b) RETURN count(*) AS c", rows("i:1"), ""},
		{"catalogued feature", "diff: falkordb: returns different rows than neo4j,ref", nil,
			"RETURN toFloat(1) AS c", rows("i:1"), "tofloat-integer"},
		{"negative literal before IS NULL", "diff: falkordb: returns different rows than neo4j,ref", nil,
			"RETURN (-1 IS NULL) AS c", rows("B:true"), "falkordb-neg-literal"},
		{"parenthesized negation before IS NULL", "diff: falkordb: returns different rows than neo4j,ref", nil,
			"RETURN ((-1) IS NULL) AS c", rows("B:true"), ""},
		{"engine without the entry", "diff: neo4j: returns different rows than ref", parallel,
			"MATCH (a)-[]->(b) RETURN b.id AS c", rows("i:2"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fuzz.Case{Setup: tc.setup, Queries: []fuzz.Query{{Role: "graph.q", Text: tc.query}}}
			engine := enginesOfTitle(tc.title)[0]
			f := &fuzz.Finding{Title: tc.title, Case: c, Roles: []string{"graph.q"},
				Runs: []fuzz.Run{{Target: engine, Results: []*fuzz.Result{tc.falkordb}}}}
			if got := Explain(f); got != tc.want {
				t.Errorf("Explain = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExpectedError(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"Cannot use the same relationship variable 'r1' for multiple patterns.", "falkordb-rel-rebound"},
		{"Function 'STDEV' doesn't exist.", "memgraph-functions"},
		{"Division by zero", ""},
	}
	for _, tc := range tests {
		if got := ExpectedError(tc.msg); got != tc.want {
			t.Errorf("ExpectedError(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}

// TestExplainFloatAccumulation checks that rows equal to the reference's up to 12 significant
// digits are a known difference, and that a larger difference is not.
func TestExplainFloatAccumulation(t *testing.T) {
	c := &fuzz.Case{Queries: []fuzz.Query{{Role: "graph.q", Text: "MATCH (n) RETURN avg(n.k) AS a"}}}
	run := func(target, v string) fuzz.Run {
		return fuzz.Run{Target: target, Results: []*fuzz.Result{{Status: fuzz.StatusOK, Rows: [][]string{{v}}}}}
	}
	tests := []struct{ neo4j, want string }{
		{"r:9.06705033333331e+06", "float-accumulation"},
		{"r:9.0670503334e+06", ""},
		{"i:9067050", ""},
	}
	for _, tc := range tests {
		f := &fuzz.Finding{Title: "diff: neo4j: returns different rows than ref", Case: c, Roles: []string{"graph.q"},
			Runs: []fuzz.Run{run("neo4j", tc.neo4j), run("ref", "r:9.06705033333333e+06")}}
		if got := Explain(f); got != tc.want {
			t.Errorf("neo4j %s: Explain = %q, want %q", tc.neo4j, got, tc.want)
		}
	}
}
