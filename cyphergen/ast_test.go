package cyphergen

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

func TestPrintQuery(t *testing.T) {
	one := int64(1)
	q := &Query{
		Parts: []*SingleQuery{{Clauses: []Clause{
			&Match{Patterns: []Pattern{{
				Nodes: []NodePat{{Var: "n0", Labels: []string{"L1", "L2"}}, {Labels: []string{"L0"}, Props: []PropEq{{"k1", &Lit{cypherval.IntVal(-3)}}}}, {Var: "n2"}},
				Rels:  []RelPat{{Var: "r0", Types: []string{"T1", "T2"}, Dir: Out}, {Dir: In}},
			}}, Where: &Binary{Op: "AND", L: &IsNull{X: &Property{&Var{"n0"}, "k2"}, Not: true}, R: &Unary{Op: "NOT", X: &HasLabels{&Var{"n2"}, []string{"L3"}}}}},
			&Match{Optional: true, Patterns: []Pattern{{Nodes: []NodePat{{Var: "n2"}, {Var: "n3"}}, Rels: []RelPat{{Var: "r1", Dir: Both}}}}},
			&With{Projection: Projection{Distinct: true, Items: []Item{{Expr: &Var{"n0"}, Alias: "n0"}, {Expr: &Call{Name: "count", Star: true}, Alias: "a0"}}, Order: []SortItem{{&Property{&Var{"n0"}, "id"}, true}}, Limit: &one}},
			&Unwind{List: &ListExpr{[]Expr{&Lit{cypherval.StringVal("it's")}, &Lit{cypherval.NullVal}, &Lit{cypherval.FloatVal(2)}}}, Var: "u0"},
			&Return{Projection: Projection{Items: []Item{{Expr: &Case{Whens: []When{{&Binary{Op: ">", L: &Var{"a0"}, R: &Lit{cypherval.IntVal(1)}}, &Var{"u0"}}}, Else: &Call{Name: "toUpper", Args: []Expr{&Lit{cypherval.StringVal("x")}}}}, Alias: "c0"}}}},
		}}, {Clauses: []Clause{&Return{Projection: Projection{Items: []Item{{Expr: &Index{&ListExpr{[]Expr{&Lit{cypherval.BoolVal(true)}}}, &Lit{cypherval.IntVal(0)}}, Alias: "c0"}}}}}}},
		All: []bool{true},
	}
	want := "MATCH (n0:L1:L2)-[r0:T1|T2]->(:L0 {k1: -3})<-[]-(n2) WHERE ((n0.k2 IS NOT NULL) AND (NOT (n2:L3))) " +
		"OPTIONAL MATCH (n2)-[r1]-(n3) WITH DISTINCT n0, count(*) AS a0 ORDER BY n0.id DESC LIMIT 1 " +
		"UNWIND ['it\\'s', null, 2.0] AS u0 RETURN CASE WHEN (a0 > 1) THEN u0 ELSE toUpper('x') END AS c0 " +
		"UNION ALL RETURN [true][0] AS c0"
	if got := q.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
