package cyphergen

import "testing"

// TestReadRoundTrip checks that the read constructs parse and print back to the same text.
func TestReadRoundTrip(t *testing.T) {
	for _, q := range []string{
		"MATCH (a)-[r:T1*1..3]->(b) RETURN size(r) AS c0",
		"MATCH (a)-[*2]-(b) RETURN a",
		"MATCH (a)<-[:T1|T2*0..1]-(b) RETURN a",
		"MATCH (a)-[*]->(b), (b)-[*2..]->(c) RETURN a",
		"MATCH p = (a)-[]->(b) RETURN length(p) AS c0, nodes(p) AS c1, relationships(p) AS c2",
		"RETURN {a: 1, b: 'x'} AS c0, {a: 1}.a AS c1, {} AS c2",
		"MATCH (n) RETURN n{.k1, .k2} AS c0, n{.*} AS c1, n{.id, x: (1 + 2)} AS c2",
		"RETURN [x IN [1, 2, 3] WHERE (x > 1) | (x * 2)] AS c0, [x IN [1] | x] AS c1, [x IN [1] WHERE (x = 1)] AS c2",
		"MATCH (n) WHERE EXISTS { MATCH (n)-[]->(m) WHERE (m.id > 1) } RETURN n",
		"MATCH (n) RETURN COUNT { MATCH (n)-[:T1]->(), (n)<-[]-() } AS c0",
		"MATCH (n) CALL { WITH n MATCH (n)-[]->(m) RETURN count(*) AS c } RETURN n, c",
		"UNWIND [1] AS i CALL { MATCH (m) CALL { WITH m RETURN m.id AS x } RETURN x } RETURN i, x",
	} {
		parsed, err := ParseQuery(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if got := parsed.String(); got != q {
			t.Errorf("round trip:\n got %s\nwant %s", got, q)
		}
	}
	for _, short := range [][2]string{
		{"MATCH (n) WHERE EXISTS { (n)-->() } RETURN n", "MATCH (n) WHERE EXISTS { MATCH (n)-[]->() } RETURN n"},
		{"MATCH (a)-[*..2]->(b) RETURN a", "MATCH (a)-[*1..2]->(b) RETURN a"},
	} {
		parsed, err := ParseQuery(short[0])
		if err != nil {
			t.Errorf("%s: %v", short[0], err)
			continue
		}
		if got := parsed.String(); got != short[1] {
			t.Errorf("%s printed as\n%s, want\n%s", short[0], got, short[1])
		}
	}
}
