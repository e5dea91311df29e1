package cyphergen

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// testGraphs returns a few generated graphs with default options.
func testGraphs(t *testing.T, o Options, n int) []*Graph {
	t.Helper()
	var gs []*Graph
	for seed := range uint64(n) {
		g, err := Generate(o, seed+1)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	return gs
}

// runStats generates per queries on each graph, runs them on the evaluator and returns the
// shares that return rows and that fail, and the first failures.
func runStats(t *testing.T, o Options, graphs []*Graph, per int) (nonEmpty, failed float64, errs []string) {
	t.Helper()
	total, rows, fails := 0, 0, 0
	for gi, g := range graphs {
		qg := NewQueryGen(o, g, nil, rand.New(rand.NewPCG(uint64(gi), 99)))
		for range per {
			q := qg.Query()
			_, rs, err := g.Run(q)
			total++
			if err != nil {
				fails++
				var ee *EvalError
				if len(errs) < 10 && (!errors.As(err, &ee) || ee.Code != "unsupported") {
					errs = append(errs, err.Error()+": "+q.String())
				}
				continue
			}
			if len(rs) > 0 {
				rows++
			}
		}
	}
	return float64(rows) / float64(total), float64(fails) / float64(total), errs
}

func TestGuidance(t *testing.T) {
	o := DefaultOptions()
	graphs := testGraphs(t, o, 5)
	nonEmpty, failed, errs := runStats(t, o, graphs, 400)
	for _, e := range errs {
		t.Log(e)
	}
	o.Guided = 0
	ne0, f0, _ := runStats(t, o, graphs, 400)
	t.Logf("guided: %.1f%% non-empty, %.2f%% errors; random conditions: %.1f%% non-empty, %.2f%% errors",
		100*nonEmpty, 100*failed, 100*ne0, 100*f0)
	if nonEmpty < 0.8 || failed > 0.02 {
		t.Errorf("guided queries: %.1f%% non-empty (want >= 80%%), %.2f%% errors (want < 2%%)", 100*nonEmpty, 100*failed)
	}
}

// queries returns n queries over each of a few graphs, with the given avoid set.
func queries(t *testing.T, o Options, avoid map[string]bool, n int) ([]*Query, []*Graph) {
	t.Helper()
	var qs []*Query
	var gs []*Graph
	for gi, g := range testGraphs(t, o, 3) {
		qg := NewQueryGen(o, g, avoid, rand.New(rand.NewPCG(uint64(gi), 7)))
		for range n {
			qs = append(qs, qg.Query())
			gs = append(gs, g)
		}
	}
	return qs, gs
}

func TestQueryDeterministic(t *testing.T) {
	o := DefaultOptions()
	g := testGraphs(t, o, 1)[0]
	for seed := range uint64(50) {
		a := NewQueryGen(o, g, nil, rand.New(rand.NewPCG(seed, 1)))
		b := NewQueryGen(o, g, nil, rand.New(rand.NewPCG(seed, 1)))
		if qa, qb := a.Query().String(), b.Query().String(); qa != qb {
			t.Fatalf("seed %d: two generators gave\n%s\n%s", seed, qa, qb)
		}
		pa, _, _, _ := a.Partition()
		pb, _, _, _ := b.Partition()
		if pa.String() != pb.String() {
			t.Fatalf("seed %d: two partitions differ", seed)
		}
	}
}

// allFeatures are the features the generator produces with default options.
var allFeatures = []string{"agg-distinct", "agg:avg", "agg:collect", "agg:count", "agg:max", "agg:min", "agg:sum",
	"aggregate", "case", "fn:abs", "fn:coalesce", "fn:head", "fn:last", "fn:left", "fn:ltrim", "fn:range",
	"fn:replace", "fn:reverse", "fn:right", "fn:rtrim", "fn:sign", "fn:size", "fn:substring", "fn:tail",
	"fn:tofloat", "fn:tointeger", "fn:tolower", "fn:tostring", "fn:toupper", "fn:trim", "index", "is-null",
	"label-test", "limit", "list", "match-where", "multi-type", "op:%", "op:*", "op:+", "op:-", "op:/", "op:<",
	"op:<=", "op:<>", "op:=", "op:>", "op:>=", "op:and", "op:contains", "op:ends with", "op:in", "op:neg",
	"op:not", "op:or", "op:starts with", "op:xor", "optional-match", "order-by", "prop-map", "return-distinct",
	"skip", "undirected", "union", "union-all", "unwind", "with", "with-distinct", "with-where",
	"rel-rebound", "neg-literal-operand", "case-simple", "rematch-bound"}

func TestAvoid(t *testing.T) {
	o := DefaultOptions()
	qs, _ := queries(t, o, nil, 300)
	seen := map[string]bool{}
	for _, q := range qs {
		for _, f := range Features(q) {
			seen[f] = true
		}
	}
	for _, f := range allFeatures {
		if !seen[f] {
			t.Errorf("feature %s never generated", f)
		}
	}
	all := map[string]bool{}
	for _, f := range allFeatures {
		all[f] = true
	}
	for _, avoid := range []map[string]bool{
		{"optional-match": true, "xor": true},
		{"with": true, "unwind": true, "union": true},
		{"list": true, "case": true, "fn:range": true, "is-null": true},
		{"op:=": true, "op:<": true, "label-test": true, "agg:sum": true, "aggregate": true},
		{"order-by": true, "skip": true, "prop-map": true, "undirected": true, "multi-type": true},
		Profiles["falkordb"].AvoidSet(), Profiles["memgraph"].AvoidSet(),
		Avoid([]string{"falkordb"}), Avoid([]string{"neo4j", "falkordb", "memgraph"}),
		all,
	} {
		qs, gs := queries(t, o, avoid, 150)
		nonEmpty := 0
		for i, q := range qs {
			for _, f := range Features(q) {
				if avoid[f] {
					t.Fatalf("avoid %v: query uses %s: %s", avoid, f, q)
				}
			}
			if _, rows, err := gs[i].Run(q); err != nil {
				t.Fatalf("avoid %v: %v: %s", avoid, err, q)
			} else if len(rows) > 0 {
				nonEmpty++
			}
		}
		t.Logf("avoid %d features: %d of %d queries return rows", len(avoid), nonEmpty, len(qs))
	}
}

// sortKeyCovers reports whether some ORDER BY key is the item's column or its id property.
func sortKeyCovers(p *Projection, name string) bool {
	for _, s := range p.Order {
		switch e := s.Expr.(type) {
		case *Var:
			if e.Name == name {
				return true
			}
		case *Property:
			if v, ok := e.X.(*Var); ok && v.Name == name && e.Key == "id" {
				return true
			}
		}
	}
	return false
}

func TestQueryRules(t *testing.T) {
	o := DefaultOptions()
	o.Order, o.Union, o.Optional = 60, 30, 50
	qs, _ := queries(t, o, nil, 300)
	ordered := 0
	for _, q := range qs {
		if len(q.Parts) > 1 {
			for _, p := range q.Parts[1:] {
				a, b := q.Parts[0].Clauses, p.Clauses
				ra, rb := a[len(a)-1].(*Return), b[len(b)-1].(*Return)
				if len(ra.Items) != len(rb.Items) {
					t.Fatalf("UNION parts return %d and %d columns: %s", len(ra.Items), len(rb.Items), q)
				}
				for i := range ra.Items {
					if ra.Items[i].Name() != rb.Items[i].Name() {
						t.Fatalf("UNION column %d named %s and %s: %s", i, ra.Items[i].Name(), rb.Items[i].Name(), q)
					}
				}
			}
		}
		for _, p := range q.Parts {
			afterOpt := false
			for _, c := range p.Clauses {
				var proj *Projection
				switch c := c.(type) {
				case *Match:
					if !c.Optional && afterOpt {
						t.Fatalf("MATCH after OPTIONAL MATCH without WITH between: %s", q)
					}
					afterOpt = afterOpt || c.Optional
				case *With:
					afterOpt = false
					proj = &c.Projection
				case *Return:
					proj = &c.Projection
				}
				if proj == nil || len(proj.Order) == 0 {
					continue
				}
				ordered++
				if _, ret := c.(*Return); ret && len(q.Parts) > 1 {
					t.Fatalf("ORDER BY on a RETURN of a UNION: %s", q)
				}
				if proj.Skip == nil && proj.Limit == nil {
					t.Fatalf("ORDER BY without SKIP or LIMIT: %s", q)
				}
				for _, it := range proj.Items {
					if !sortKeyCovers(proj, it.Name()) {
						t.Fatalf("ORDER BY does not cover %s: %s", it.Name(), q)
					}
				}
			}
		}
	}
	if ordered == 0 {
		t.Errorf("no ORDER BY generated")
	}
}

func TestIntegerBound(t *testing.T) {
	o := DefaultOptions()
	for gi, g := range testGraphs(t, o, 3) {
		qg := NewQueryGen(o, g, nil, rand.New(rand.NewPCG(uint64(gi), 3)))
		for range 100 {
			qg.reset()
			qg.match(false)
			for range 20 {
				x := qg.gen(gInt, 4)
				if x.bound > maxBound {
					t.Fatalf("bound %g above 2^62: %s", x.bound, Print(x.e))
				}
				if x.opaque {
					continue
				}
				v, err := EvalExpr(x.e, qg.row)
				if err != nil {
					t.Fatalf("%s on the witness: %v", Print(x.e), err)
				}
				if !v.IsNull() && absF(float64(v.I)) > x.bound {
					t.Fatalf("%s = %d, above its bound %g", Print(x.e), v.I, x.bound)
				}
			}
		}
	}
}

// multiset counts canonical rows.
func multiset(rows [][]cypherval.Val) map[string]int {
	m := map[string]int{}
	for _, r := range rows {
		m[strings.Join(cypherval.CanonRow(r), "|")]++
	}
	return m
}

func TestPartition(t *testing.T) {
	o := DefaultOptions()
	checked, split := 0, 0
	for gi, g := range testGraphs(t, o, 3) {
		qg := NewQueryGen(o, g, nil, rand.New(rand.NewPCG(uint64(gi), 5)))
		for range 150 {
			qs := make([]*Query, 4)
			qs[0], qs[1], qs[2], qs[3] = qg.Partition()
			sum := map[string]int{}
			var want map[string]int
			parts := 0
			for i, q := range qs {
				_, rows, err := g.Run(q)
				if err != nil {
					t.Fatalf("%v: %s", err, q)
				}
				if i == 0 {
					want = multiset(rows)
					continue
				}
				if len(rows) > 0 {
					parts++
				}
				for k, n := range multiset(rows) {
					sum[k] += n
				}
			}
			if !reflect.DeepEqual(want, sum) && (len(want) > 0 || len(sum) > 0) {
				t.Fatalf("partitions of %s do not add up: %d distinct rows, partitions %d", qs[0], len(want), len(sum))
			}
			checked++
			if parts > 1 {
				split++
			}
		}
	}
	t.Logf("%d partitioned queries, %d with rows in more than one partition", checked, split)
	if split == 0 {
		t.Errorf("no predicate split the rows")
	}
}

func TestGeneratedParseRoundTrip(t *testing.T) {
	o := DefaultOptions()
	qs, _ := queries(t, o, nil, 200)
	for _, q := range qs {
		s := q.String()
		p, err := ParseQuery(s)
		if err != nil {
			t.Fatalf("ParseQuery(%s): %v", s, err)
		}
		if p.String() != s {
			t.Fatalf("round trip changed\n%s\nto\n%s", s, p.String())
		}
	}
}
