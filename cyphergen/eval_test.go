package cyphergen

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// testGraph is:
//
//	node 0 :A {id: 0, v: 1}     rel 0: 0 -[:T {id: 4}]-> 1
//	node 1 :A:B {id: 1, v: 2}   rel 1: 1 -[:T {id: 5}]-> 2
//	node 2 :B {id: 2}           rel 2: 2 -[:U {id: 6}]-> 0
//	node 3 {id: 3, v: 1.0}      rel 3: 3 -[:U {id: 7}]-> 3 (a self-loop)
//	                            rel 4: 0 -[:T {id: 8}]-> 1 (parallel to rel 0)
func testGraph() *Graph {
	node := func(id int, labels []string, ps ...Prop) Node {
		return Node{ID: id, Labels: labels, Props: append(Props{{"id", IntValue(int64(id))}}, ps...)}
	}
	rel := func(id int, t string, from, to int) Rel {
		return Rel{ID: id, Type: t, From: from, To: to, Props: Props{{"id", IntValue(int64(id))}}}
	}
	return &Graph{
		Nodes: []Node{
			node(0, []string{"A"}, Prop{"v", IntValue(1)}),
			node(1, []string{"A", "B"}, Prop{"v", IntValue(2)}),
			node(2, []string{"B"}),
			node(3, nil, Prop{"v", FloatValue(1)}),
		},
		Rels: []Rel{rel(4, "T", 0, 1), rel(5, "T", 1, 2), rel(6, "U", 2, 0), rel(7, "U", 3, 3), rel(8, "T", 0, 1)},
	}
}

// runText parses and runs a query; it returns the columns and the canonical rows joined by
// " | ", or the error code as "!code".
func runText(t *testing.T, g *Graph, text string) (cols, rows []string) {
	t.Helper()
	q, err := ParseQuery(text)
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	c, rs, err := g.Run(q)
	if err != nil {
		return nil, []string{"!" + errCode(err)}
	}
	for _, r := range rs {
		if len(r) != len(c) {
			t.Fatalf("%s: row %v has %d values for columns %v", text, r, len(r), c)
		}
		rows = append(rows, strings.Join(cypherval.CanonRow(r), " | "))
	}
	return c, rows
}

func TestRun(t *testing.T) {
	g := testGraph()
	for _, c := range []struct {
		query   string
		want    []string // rows; compared as a bag unless ordered
		ordered bool
	}{
		// Patterns, directions, types, labels, property maps.
		{query: "MATCH (a:A)-[:T]->(b) RETURN a.id, b.id", want: []string{"i:0 | i:1", "i:0 | i:1", "i:1 | i:2"}},
		{query: "MATCH (b)<-[:T]-(a:A) RETURN a.id, b.id", want: []string{"i:0 | i:1", "i:0 | i:1", "i:1 | i:2"}},
		{query: "MATCH (a:A:B) RETURN a.id", want: []string{"i:1"}},
		{query: "MATCH ()-[r:T|U]->() RETURN count(r)", want: []string{"i:5"}},
		{query: "MATCH (a)-[r {id: 6}]-(b) RETURN a.id, b.id", want: []string{"i:2 | i:0", "i:0 | i:2"}},
		{query: "MATCH (a {v: 1}) RETURN a.id", want: []string{"i:0", "i:3"}},
		{query: "MATCH (a {v: null}) RETURN a.id", want: nil},
		// A self-loop matches an undirected pattern once.
		{query: "MATCH (a)-[r]-(a) RETURN a.id, r.id", want: []string{"i:3 | i:7"}},
		{query: "MATCH (a)-[r]-(b) WHERE a.id = 3 RETURN b.id", want: []string{"i:3"}},
		{query: "MATCH (a)-[r]->(b) WHERE a = b RETURN r.id", want: []string{"i:7"}},
		// Relationship uniqueness within one MATCH, across its patterns, anonymous ones too.
		{query: "MATCH (a)-[r]->(b)<-[s]-(c) RETURN a.id, c.id", want: []string{"i:0 | i:0", "i:0 | i:0"}},
		{query: "MATCH (a)-[:T]->(b), (c)-[:T]->(d) RETURN count(*)", want: []string{"i:6"}},
		{query: "MATCH (a)-->(b) MATCH (c)-->(d) RETURN count(*)", want: []string{"i:25"}},
		{query: "MATCH (x)-[]-(y)-[]-(x) RETURN x.id, y.id", want: []string{"i:0 | i:1", "i:0 | i:1", "i:1 | i:0", "i:1 | i:0"}},
		// Variables bound by earlier clauses, and null bindings.
		{query: "MATCH (a:B) MATCH (a)-[r]->(b) RETURN a.id, b.id", want: []string{"i:1 | i:2", "i:2 | i:0"}},
		{query: "MATCH ()-[r:U]->() MATCH (a)-[r]->(b) RETURN a.id, b.id", want: []string{"i:2 | i:0", "i:3 | i:3"}},
		{query: "MATCH (a {id: 0}) MATCH (b {v: a.v}) RETURN b.id", want: []string{"i:0", "i:3"}},
		{query: "OPTIONAL MATCH (x:Nope) MATCH (x)-->(y) RETURN count(*)", want: []string{"i:0"}},
		{query: "WITH 1 AS x MATCH (x) RETURN x", want: []string{"!semantic"}},
		// OPTIONAL MATCH.
		{query: "MATCH (a) OPTIONAL MATCH (a)-[r:U]->(b) RETURN a.id, b.id, r.id",
			want: []string{"i:0 | NULL | NULL", "i:1 | NULL | NULL", "i:2 | i:0 | i:6", "i:3 | i:3 | i:7"}},
		{query: "MATCH (a) OPTIONAL MATCH (a)-[:T]->(b) WHERE b.id = 2 RETURN a.id, b.id",
			want: []string{"i:0 | NULL", "i:1 | i:2", "i:2 | NULL", "i:3 | NULL"}},
		{query: "OPTIONAL MATCH (n:Nope) RETURN n", want: []string{"NULL"}},
		// Aggregation.
		{query: "MATCH (a:Nope) RETURN count(*), count(a), sum(a.v), avg(a.v), min(a.v), max(a.v), collect(a.v)",
			want: []string{"i:0 | i:0 | i:0 | NULL | NULL | NULL | l:[]"}},
		{query: "MATCH (a:Nope) RETURN a.v, count(*)", want: nil},
		{query: "MATCH (a:A) RETURN count(*) + 1 AS c, size(collect(a.id)) AS s", want: []string{"i:3 | i:2"}},
		{query: "MATCH (a)-[:T]->(b) RETURN a.id, a.id * 10 + count(*)", want: []string{"i:0 | i:2", "i:1 | i:11"}},
		{query: "MATCH (a)-[:T]->(b) RETURN count(DISTINCT a), collect(DISTINCT b.id)", want: []string{"i:2 | l:[i:1, i:2]"}},
		{query: "MATCH (a) RETURN a:A AS x, count(*) AS c", want: []string{"B:true | i:2", "B:false | i:2"}},
		{query: "MATCH (a) RETURN a.v AS v, count(*) AS c", want: []string{"!unsupported"}}, // 1 and 1.0 in one group
		{query: "UNWIND [1, 2.5, null] AS x RETURN sum(x), avg(x), min(x), max(x), count(x)", want: []string{"r:3.5 | r:1.75 | i:1 | r:2.5 | i:2"}},
		{query: "UNWIND [1, 'a', true] AS x RETURN min(x), max(x)", want: []string{"t:a | i:1"}},
		{query: "UNWIND [9223372036854775807, 1] AS x RETURN sum(x)", want: []string{"!overflow"}},
		{query: "UNWIND ['a'] AS x RETURN sum(x)", want: []string{"!type"}},
		{query: "MATCH (a) RETURN a.id + count(*)", want: []string{"!unsupported"}},
		{query: "RETURN count(count(*))", want: []string{"!semantic"}},
		// DISTINCT.
		{query: "MATCH (a)-[:T]->(b) RETURN DISTINCT a.id, b.id", want: []string{"i:0 | i:1", "i:1 | i:2"}},
		{query: "UNWIND [[1, null], [1, null], null, null] AS x RETURN DISTINCT x", want: []string{"l:[i:1, NULL]", "NULL"}},
		// ORDER BY, SKIP, LIMIT.
		{query: "MATCH (a) RETURN a.id AS i ORDER BY a.v DESC, i", want: []string{"i:2", "i:1", "i:0", "i:3"}, ordered: true},
		{query: "MATCH (a) RETURN a.id AS i ORDER BY a.v DESC, i SKIP 1 LIMIT 2", want: []string{"i:1", "i:0"}, ordered: true},
		{query: "MATCH (a) RETURN a.id AS i ORDER BY a.v, i DESC", want: []string{"i:3", "i:0", "i:1", "i:2"}, ordered: true},
		{query: "UNWIND [1, 'a', true, null, [1], 2.5, false, 'B'] AS x RETURN x ORDER BY x",
			want: []string{"l:[i:1]", "t:B", "t:a", "B:false", "B:true", "i:1", "r:2.5", "NULL"}, ordered: true},
		{query: "UNWIND [2, 1, 3] AS x WITH x ORDER BY x LIMIT 2 RETURN collect(x)", want: []string{"l:[i:1, i:2]"}},
		{query: "MATCH (a)-[:T]->(b) RETURN a.id AS i, count(*) AS c ORDER BY c DESC", want: []string{"i:0 | i:2", "i:1 | i:1"}, ordered: true},
		{query: "MATCH (a)-[:T]->(b) RETURN a.id, count(*) ORDER BY count(*)", want: []string{"i:1 | i:1", "i:0 | i:2"}, ordered: true},
		{query: "MATCH (a)-[:T]->(b) RETURN DISTINCT a.id ORDER BY a.id DESC", want: []string{"i:1", "i:0"}, ordered: true},
		{query: "MATCH (a) RETURN count(*) AS c ORDER BY a.id", want: []string{"!semantic"}},
		{query: "UNWIND [1, 2] AS a WITH a AS b, -a AS a RETURN b ORDER BY a", want: []string{"i:2", "i:1"}, ordered: true},
		{query: "UNWIND [1, 0] AS x RETURN 1 / x LIMIT 1", want: []string{"!unsupported"}},
		{query: "UNWIND [1, 0] AS x RETURN 1 / x", want: []string{"!division-by-zero"}},
		// UNWIND.
		{query: "UNWIND null AS x RETURN x", want: nil},
		{query: "UNWIND [] AS x RETURN x", want: nil},
		{query: "UNWIND 5 AS x RETURN x", want: []string{"i:5"}},
		{query: "UNWIND [[1, 2], [3]] AS x UNWIND x AS y RETURN y", want: []string{"i:1", "i:2", "i:3"}},
		// UNION.
		{query: "UNWIND [1, 1, 2] AS x RETURN x UNION ALL RETURN 1 AS x", want: []string{"i:1", "i:1", "i:2", "i:1"}},
		{query: "UNWIND [1, 1, 2] AS x RETURN x UNION RETURN 1 AS x", want: []string{"i:1", "i:2"}},
		{query: "RETURN 1 AS x UNION RETURN 1 AS y", want: []string{"!semantic"}},
		// WITH scoping.
		{query: "MATCH (a) WITH a.id AS i RETURN a", want: []string{"!semantic"}},
		{query: "WITH 1 AS x WITH x + 1 AS y WHERE y > 1 RETURN y", want: []string{"i:2"}},
		{query: "UNWIND [1, 2, 3] AS x WITH x WHERE x <> 2 RETURN x", want: []string{"i:1", "i:3"}},
		{query: "MATCH (a:A) WITH a MATCH (a)-[:U]-(b) RETURN b.id", want: []string{"i:2"}},
		{query: "MATCH (a) WHERE a.v > 1 RETURN a.id", want: []string{"i:1"}},
		{query: "MATCH (a) WHERE a.v RETURN a.id", want: []string{"!type"}},
	} {
		_, got := runText(t, g, c.query)
		want := slices.Clone(c.want)
		if !c.ordered {
			slices.Sort(got)
			slices.Sort(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s\n got %q\nwant %q", c.query, got, want)
		}
	}
}

// TestRunGDsmithUniqueness is GDsmith's relationship-uniqueness case: the one relationship
// cannot be both r4 and r5.
func TestRunGDsmithUniqueness(t *testing.T) {
	g := &Graph{
		Nodes: []Node{{ID: 0, Props: Props{{"id", IntValue(1)}}}, {ID: 1, Props: Props{{"id", IntValue(3)}}}},
		Rels:  []Rel{{ID: 2, Type: "T0", From: 1, To: 0, Props: Props{{"id", IntValue(2)}}}},
	}
	// MATCH (n6)<-[r4]-(n7)-[r5]->(n8) RETURN n6, r4, n7, r5, n8, built without the parser.
	pat := Pattern{
		Nodes: []NodePat{{Var: "n6"}, {Var: "n7"}, {Var: "n8"}},
		Rels:  []RelPat{{Var: "r4", Dir: In}, {Var: "r5", Dir: Out}},
	}
	var items []Item
	for _, v := range []string{"n6", "r4", "n7", "r5", "n8"} {
		items = append(items, Item{Expr: &Var{Name: v}})
	}
	q := &Query{Parts: []*SingleQuery{{Clauses: []Clause{
		&Match{Patterns: []Pattern{pat}}, &Return{Projection: Projection{Items: items}},
	}}}}
	cols, rows, err := g.Run(q)
	if err != nil || len(rows) != 0 || !slices.Equal(cols, []string{"n6", "r4", "n7", "r5", "n8"}) {
		t.Errorf("got %v %v %v, want no rows", cols, rows, err)
	}
	// One relationship pattern matches it, printed with its properties.
	_, got := runText(t, g, "MATCH (a)-[r]->(b) RETURN a, r, b")
	if want := []string{"n:({id: i:3}) | e:[:T0 {id: i:2}] | n:({id: i:1})"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRunSpeed checks that a three-pattern MATCH on a generated graph takes well under a
// millisecond.
func TestRunSpeed(t *testing.T) {
	g, err := Generate(DefaultOptions(), 7)
	if err != nil {
		t.Fatal(err)
	}
	q, err := ParseQuery("MATCH (a:L0)-[r]->(b), (b)-[s]->(c:L1), (c)-[u]-(d) RETURN count(*)")
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	start := time.Now()
	for range n {
		if _, _, err := g.Run(q); err != nil {
			t.Fatal(err)
		}
	}
	if per := time.Since(start) / n; per > 5*time.Millisecond {
		t.Errorf("one run takes %v", per)
	}
}
