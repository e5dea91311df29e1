package cyphergen

import (
	"slices"
	"testing"
)

// TestRunWrites checks the reference's writing clauses on testGraph: the rows of the write
// query, and the rows of a read query run after it on the graph it left ("!code" for an error,
// after which the graph must be unchanged).
func TestRunWrites(t *testing.T) {
	for _, c := range []struct {
		write     string
		rows      []string
		after     string
		afterRows []string
	}{
		{"MATCH (n:A {id: 0}) SET n.v = 5 RETURN n.v", []string{"i:5"}, "MATCH (n {id: 0}) RETURN n.v", []string{"i:5"}},
		{"MATCH (n {id: 0}) SET n.v = null RETURN n.v", []string{"NULL"}, "MATCH (n) WHERE n.v IS NULL RETURN n.id", []string{"i:0", "i:2"}},
		{"MATCH (n {id: 2}) SET n += {v: 7, w: 'x'} RETURN n", []string{"n:(:B {id: i:2, v: i:7, w: t:x})"}, "MATCH (n {w: 'x'}) RETURN n.v", []string{"i:7"}},
		{"MATCH (n {id: 3}) SET n:C:A RETURN n", []string{"n:(:A:C {id: i:3, v: r:1})"}, "MATCH (n:A) RETURN n.id", []string{"i:0", "i:1", "i:3"}},
		{"MATCH (n {id: 1}) REMOVE n.v, n:A RETURN n", []string{"n:(:B {id: i:1})"}, "MATCH (n:A) RETURN n.id", []string{"i:0"}},
		{"MATCH (n {id: 2}) SET n.v = 1 REMOVE n:B RETURN n.v", []string{"i:1"}, "MATCH (n:B) RETURN n.id", []string{"i:1"}},
		{"CREATE (n:C {id: 10, v: 1, w: null}) RETURN n", []string{"n:(:C {id: i:10, v: i:1})"}, "MATCH (n) RETURN count(*)", []string{"i:5"}},
		{"MATCH (a {id: 0}), (b {id: 3}) CREATE (a)-[r:V {id: 11}]->(b) RETURN r", []string{"e:[:V {id: i:11}]"},
			"MATCH (a)-[:V]->(b) RETURN a.id, b.id", []string{"i:0 | i:3"}},
		{"MATCH (a {id: 0}) CREATE (a)<-[:V]-(b:C {id: 12}) RETURN b.id", []string{"i:12"},
			"MATCH (a)-[:V]->(b) RETURN a.id, b.id", []string{"i:12 | i:0"}},
		{"MATCH (n:A) CREATE (m:C {id: 20, v: n.v}) RETURN m.v", []string{"i:1", "i:2"}, "MATCH (m:C) RETURN m.v", []string{"i:1", "i:2"}},
		{"MERGE (n:A {v: 1}) RETURN n.id", []string{"i:0"}, "MATCH (n) RETURN count(*)", []string{"i:4"}},
		{"MATCH (n:A) MERGE (m:C {id: 30}) RETURN n.id, m.id", []string{"i:0 | i:30", "i:1 | i:30"}, "MATCH (m:C) RETURN count(*)", []string{"i:1"}},
		{"MATCH (n:A) MERGE (m:C {id: n.v}) RETURN m.id", []string{"i:1", "i:2"}, "MATCH (m:C) RETURN count(*)", []string{"i:2"}},
		{"MATCH (a {id: 0}), (b {id: 1}) MERGE (a)-[r:T]->(b) RETURN r.id", []string{"i:4", "i:8"}, "MATCH ()-[r]->() RETURN count(r)", []string{"i:5"}},
		{"MATCH (a {id: 1}), (b {id: 0}) MERGE (a)-[r:T]->(b) RETURN count(*)", []string{"i:1"}, "MATCH ()-[r]->() RETURN count(r)", []string{"i:6"}},
		{"MATCH (a {id: 1}), (b {id: 0}) MERGE (a)-[r:T]-(b) RETURN r.id", []string{"i:4", "i:8"}, "MATCH ()-[r]->() RETURN count(r)", []string{"i:5"}},
		{"MATCH (a {id: 2}), (b {id: 2}) MERGE (a)-[r:W]-(b) RETURN count(*)", []string{"i:1"}, "MATCH (a)-[r:W]->(b) RETURN a.id, b.id", []string{"i:2 | i:2"}},
		{"MATCH ()-[r:U]->() DELETE r RETURN count(*)", []string{"i:2"}, "MATCH ()-[r]->() RETURN r.id", []string{"i:4", "i:5", "i:8"}},
		{"MATCH (n {id: 0}) DELETE n RETURN count(*)", []string{"!unsupported"}, "MATCH (n) RETURN count(*)", []string{"i:4"}},
		{"MATCH (n {id: 0})-[r]-() DELETE r, n RETURN count(*)", []string{"i:3"}, "MATCH (a)-[r]->(b) RETURN a.id, r.id, b.id", []string{"i:1 | i:5 | i:2", "i:3 | i:7 | i:3"}},
		{"MATCH (n {id: 0}) DETACH DELETE n RETURN count(*)", []string{"i:1"}, "MATCH (a)-[r]->(b) RETURN a.id, r.id, b.id", []string{"i:1 | i:5 | i:2", "i:3 | i:7 | i:3"}},
		{"MATCH (n {id: 3}) DETACH DELETE n RETURN n.id", []string{"!unsupported"}, "MATCH (n) RETURN count(*)", []string{"i:4"}},
		{"MATCH (n:A), (m:B) SET n.v = m.id RETURN count(*)", []string{"!unsupported"}, "MATCH (n {id: 0}) RETURN n.v", []string{"i:1"}},
		{"MATCH (n:A), (m:B) SET n.v = 9 RETURN count(*)", []string{"i:4"}, "MATCH (n:A) RETURN n.v", []string{"i:9", "i:9"}},
		{"MATCH (n:A), (m:B) SET n.v = n.v + 1 RETURN count(*)", []string{"!unsupported"}, "MATCH (n:A) RETURN n.v", []string{"i:1", "i:2"}},
		{"OPTIONAL MATCH (n:Z) SET n.v = 1, n:A REMOVE n.v DELETE n RETURN n", []string{"NULL"}, "MATCH (n) RETURN count(*)", []string{"i:4"}},
		{"MATCH (n {id: 2}) SET n:A WITH n MATCH (m:A) RETURN count(m)", []string{"i:3"}, "MATCH (n:A) RETURN count(*)", []string{"i:3"}},
		{"MATCH (n {id: 0}) SET n.v = 3", nil, "MATCH (n {id: 0}) RETURN n.v", []string{"i:3"}},
		{"MERGE (n:C {v: null}) RETURN n", []string{"!unsupported"}, "MATCH (n) RETURN count(*)", []string{"i:4"}},
		{"CREATE (n:C {id: 1}) RETURN n.id UNION CREATE (n:C {id: 2}) RETURN n.id", []string{"!unsupported"}, "MATCH (n) RETURN count(*)", []string{"i:4"}},
		{"CREATE (a:C {id: 40})-[:T]-(b:C {id: 41}) RETURN a", []string{"!semantic"}, "MATCH (n) RETURN count(*)", []string{"i:4"}},
		{"MATCH (a {id: 0}) CREATE (a:C) RETURN a", []string{"!unsupported"}, "MATCH (n) RETURN count(*)", []string{"i:4"}},
		{"MATCH (a {id: 0}) SET a.v = 1 MATCH (b {id: 1}) RETURN b", []string{"!semantic"}, "MATCH (n {id: 0}) RETURN n.v", []string{"i:1"}},
		{"MATCH (a {id: 0}) SET a.v = 7 WITH a MATCH (b {v: 7}) RETURN b.id", []string{"i:0"}, "MATCH (n {id: 0}) RETURN n.v", []string{"i:7"}},
	} {
		g := testGraph()
		_, rows := runText(t, g, c.write)
		slices.Sort(rows)
		if !slices.Equal(rows, c.rows) {
			t.Errorf("%s\n got %q\nwant %q", c.write, rows, c.rows)
			continue
		}
		_, after := runText(t, g, c.after)
		slices.Sort(after)
		if !slices.Equal(after, c.afterRows) {
			t.Errorf("%s; then %s\n got %q\nwant %q", c.write, c.after, after, c.afterRows)
		}
	}
}

// TestWriteRoundTrip checks that writing clauses print back as they parse.
func TestWriteRoundTrip(t *testing.T) {
	for _, q := range []string{
		"CREATE (n0:L1 {id: 300, k1: 'x'}), (n1)",
		"MATCH (n0) CREATE (n0)-[r1:T1 {id: 301}]->(n2:L2 {id: 302}) RETURN r1",
		"MATCH (n0)-[r1]-(n2) MERGE (n0)<-[:T2 {k3: (n2.k3 + 1)}]-(n2) RETURN count(*) AS c0",
		"MATCH (n0) SET n0.k1 = 1, n0 += {k2: 'a', k3: null}, n0:L1:L2, n0 += {} RETURN n0",
		"MATCH (n0)-[r1]->() REMOVE n0.k1, n0:L1, r1.k2 DELETE r1 RETURN count(*) AS c0",
		"MATCH (n0) DETACH DELETE n0",
	} {
		p, err := ParseQuery(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if got := p.String(); got != q {
			t.Errorf("round trip\n got %s\nwant %s", got, q)
		}
	}
}
