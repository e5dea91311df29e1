package cyphergen

import (
	"slices"
	"testing"
)

func TestFeatures(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"MATCH (n0) RETURN n0", []string{}},
		{"MATCH (n0:L1)-[r:T1|T2]-(m {k1: 1}) WHERE ((n0:L2) AND (n0.k2 IS NULL)) RETURN DISTINCT count(DISTINCT n0) AS c, toUpper('a') AS d ORDER BY c SKIP 1 LIMIT 2",
			[]string{"agg-distinct", "agg:count", "aggregate", "fn:toupper", "is-null", "label-test", "limit", "match-where",
				"multi-type", "op:and", "order-by", "prop-map", "return-distinct", "skip", "undirected"}},
		{"MATCH (n0) OPTIONAL MATCH (n0)<-[r]-(m) WITH DISTINCT n0, size(collect(m)) AS s WHERE (s > 1) UNWIND [1, 2] AS u RETURN u",
			[]string{"agg:collect", "aggregate", "fn:size", "list", "op:>", "optional-match", "unwind", "with", "with-distinct", "with-where"}},
		{"MATCH (n0) RETURN CASE WHEN (NOT (n0.k1 STARTS WITH 'a')) THEN (-n0.k2) ELSE ([1][0] % 2) END AS c UNION ALL MATCH (n0) RETURN 1 AS c UNION MATCH (n0) RETURN (1 IN [2]) AS c",
			[]string{"case", "index", "list", "op:%", "op:in", "op:neg", "op:not", "op:starts with", "union", "union-all"}},
		{"MATCH (n0) WITH n0, true AS b RETURN CASE WHEN b THEN 1 WHEN (n0.k1 = 2) THEN 2 END AS c, CASE WHEN n0.k3 THEN 1 END AS d",
			[]string{"case", "case-when-ref", "op:=", "with"}},
		{"MATCH (n0) RETURN CASE WHEN (n0.k1 OR n0.k2) THEN 1 END AS c", []string{"case", "op:or"}},
		{"MATCH (n0) RETURN CASE WHEN CASE WHEN (n0.k1 = 1) THEN true END THEN 1 END AS c", []string{"case", "case-when-ref", "op:="}},
	} {
		q, err := ParseQuery(tc.q)
		if err != nil {
			t.Fatalf("ParseQuery(%s): %v", tc.q, err)
		}
		if got := Features(q); !slices.Equal(got, tc.want) {
			t.Errorf("Features(%s)\n got %q\nwant %q", tc.q, got, tc.want)
		}
	}
}
