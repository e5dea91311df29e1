package sqlgen

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestReadPlan reads EXPLAIN answers as the engines print them (captured from PostgreSQL 15,
// MariaDB 10.11, DuckDB 1.5 and SQLite 3.5x).
func TestReadPlan(t *testing.T) {
	tests := []struct {
		dialect string
		r       fuzz.Result
		ops     []string
		rows    float64
		hasRows bool
		sig     string
	}{
		{"postgres", fuzz.Result{Rows: [][]string{
			{"t:Limit  (cost=0.00..1.47 rows=2 width=72)"},
			{"t:  ->  Nested Loop  (cost=0.00..2.20 rows=3 width=72)"},
			{"t:        Join Filter: (a.c0 = b.c0)"},
			{"t:        ->  Seq Scan on t0 a  (cost=0.00..1.03 rows=3 width=36)"},
		}}, []string{"Limit", "Nested Loop", "Seq Scan on t0 a"}, 2, true, "Limit;Nested Loop;Seq Scan on t a"},
		{"mysql", fuzz.Result{Columns: []string{"id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"},
			Rows: [][]string{
				{"i:1", "t:SIMPLE", "t:a", "t:ALL", "t:i0", "NULL", "NULL", "NULL", "t:4", "t:"},
				{"i:1", "t:SIMPLE", "t:b", "t:range", "t:i0", "t:i0", "NULL", "NULL", "t:2", "t:Using where"},
			}}, []string{"SIMPLE a ALL", "SIMPLE b range"}, 4, true, "SIMPLE a ALL  ;SIMPLE b range i Using where"},
		{"mysql", fuzz.Result{Columns: []string{"id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"},
			Rows: [][]string{{"i:1", "t:SIMPLE", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "t:Impossible WHERE"}}},
			[]string{"SIMPLE  "}, 0, false, "SIMPLE    Impossible WHERE"},
		{"duckdb", fuzz.Result{Rows: [][]string{{"t:physical_plan", `t:[{"name": "PROJECTION", "children": [{"name": "SEQ_SCAN",
			"children": [], "extra_info": {"Table": "memory.main.t0", "Estimated Cardinality": "3"}}],
			"extra_info": {"Estimated Cardinality": "1"}}]`}}},
			[]string{"PROJECTION", "SEQ_SCAN"}, 1, true, "PROJECTION;SEQ_SCAN memory.main.t"},
		{"sqlite", fuzz.Result{Rows: [][]string{{"i:5", "i:0", "i:216", "t:SCAN a"}, {"i:9", "i:0", "i:61", "t:SEARCH b USING INDEX i0 (c0=?)"}}},
			[]string{"SCAN a", "SEARCH b USING INDEX i0 (c0=?)"}, 0, false, "SCAN a;SEARCH b USING INDEX i (c=?)"},
	}
	for _, tc := range tests {
		p, ok := ReadPlan(tc.dialect, &fuzz.Result{Status: fuzz.StatusOK, Columns: tc.r.Columns, Rows: tc.r.Rows})
		if !ok || !slices.Equal(p.Ops, tc.ops) || p.Rows != tc.rows || p.HasRows != tc.hasRows || p.Sig != tc.sig {
			t.Errorf("%s: ReadPlan = %+v, %v; want ops %q, rows %v (%v), sig %q", tc.dialect, p, ok, tc.ops, tc.rows, tc.hasRows, tc.sig)
		}
	}
	if _, ok := ReadPlan("postgres", &fuzz.Result{Status: fuzz.StatusEngineError}); ok {
		t.Error("ReadPlan read a failed answer")
	}
}

// TestPlanHints checks the FROM-clause rewrites of the SQLite hints and of CERT's inner mutation.
func TestPlanHints(t *testing.T) {
	tests := []struct {
		f         func(string) string
		from, out string
	}{
		{notIndexed, "t0, v0 LEFT JOIN t1 ON (t1.c0 = 't2')", "t0 NOT INDEXED, v0 LEFT JOIN t1 NOT INDEXED ON (t1.c0 = 't2')"},
		{crossJoins, "t0, t1 JOIN t2 ON (t2.c0 > 1) LEFT JOIN v0 ON TRUE", "t0 CROSS JOIN t1 CROSS JOIN t2 ON (t2.c0 > 1) LEFT JOIN v0 ON TRUE"},
		{crossJoins, "t0 INNER JOIN t1 ON t1.c0 NATURAL JOIN t2", "t0 CROSS JOIN t1 ON t1.c0 NATURAL JOIN t2"},
		{innerJoin, "t0 LEFT OUTER JOIN t1 ON t1.c0 LEFT JOIN t2 ON t2.c0", "t0 JOIN t1 ON t1.c0 LEFT JOIN t2 ON t2.c0"},
		{innerJoin, "t0 RIGHT JOIN t1 ON t1.c0", "t0 RIGHT JOIN t1 ON t1.c0"},
	}
	for _, tc := range tests {
		if got := tc.f(tc.from); got != tc.out {
			t.Errorf("%q: got %q, want %q", tc.from, got, tc.out)
		}
	}
}

// TestDQPCases checks the DQP queries of every dialect with plan variants: the plan query is the
// base query under a knob of the dialect (set, then reset to the setup's own value) or with a hint
// that changes its text, and the cases are deterministic.
func TestDQPCases(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres", "mysql", "duckdb"} {
		g := mustNew(t, Options{Dialect: dialect, Oracles: []string{OracleDQP}})
		d := dialects[dialect]
		variants := map[string]bool{}
		for i := uint64(0); i < 400; i++ {
			seed := fuzz.CaseSeed(3, i, 20)
			c, _ := g.Generate(seed)
			if again, _ := g.Generate(seed); caseJSON(t, c) != caseJSON(t, again) {
				t.Fatalf("%s: seed %d gives two cases", dialect, seed)
			}
			base, _ := c.Query(RoleDQPBase)
			plan, _ := c.Query(RoleDQPPlan)
			set, hasSet := c.Query(RoleDQPSet)
			reset, _ := c.Query(RoleDQPReset)
			name := c.Params[ParamPlan]
			variants[name] = true
			if !hasSet {
				if plan == base || !slices.Contains(d.hints, name) {
					t.Fatalf("%s: hint %q leaves %q as it is", dialect, name, base)
				}
				continue
			}
			if plan != base {
				t.Fatalf("%s: under a setting the plan query %q is not the base query %q", dialect, plan, base)
			}
			i := slices.IndexFunc(d.knobs, func(k knob) bool { return set == k.on || set == k.off })
			if i < 0 {
				t.Fatalf("%s: setting %q is no knob", dialect, set)
			}
			k := d.knobs[i]
			want := k.off
			if cur, ok := knobState(d, c.Setup)[k.key]; ok {
				want = cur
			}
			if reset != want {
				t.Fatalf("%s: %q is reset by %q, want %q (setup %q)", dialect, set, reset, want, c.Setup)
			}
		}
		if len(variants) < len(d.knobs)/2 {
			t.Errorf("%s: %d plan variants in 400 cases", dialect, len(variants))
		}
	}
}

// TestCERTCases checks that each CERT mutant differs from its query as its mutation says.
func TestCERTCases(t *testing.T) {
	g := mustNew(t, Options{Dialect: "postgres", Oracles: []string{OracleCERT}})
	muts := map[string]int{}
	for i := uint64(0); i < 300; i++ {
		c, _ := g.Generate(fuzz.CaseSeed(5, i, 50))
		orig, _ := c.Query(RoleCERTOrig)
		mut, _ := c.Query(RoleCERTMut)
		m, dir := c.Params[ParamMut], c.Params[ParamCERTDir]
		muts[m]++
		if !strings.HasPrefix(orig, "EXPLAIN SELECT * FROM ") || orig == mut {
			t.Fatalf("%s: %q and %q", m, orig, mut)
		}
		wantDir := map[string]string{mutAnd: CERTRestrict, mutLimit: CERTRestrict, mutInner: CERTRestrict,
			mutOr: CERTRelax, mutNoWhere: CERTRelax}[m]
		if dir != wantDir {
			t.Fatalf("mutation %q has direction %q, want %q", m, dir, wantDir)
		}
		if m == mutLimit && !strings.HasSuffix(mut, " LIMIT "+c.Params[ParamLimit]) || m == mutNoWhere && strings.Contains(mut, "WHERE") {
			t.Fatalf("mutation %q: %q", m, mut)
		}
	}
	if len(muts) != 5 {
		t.Errorf("mutations made: %v, want all five", muts)
	}
	if _, err := New(Options{Dialect: "sqlite", Oracles: []string{OracleCERT}}); err == nil {
		t.Error("a SQLite generator with cert was made, but its plans have no estimates")
	}
}

// TestGuideMutates feeds the guide the same plan again and again: after qpgStall cases the setup
// of the stalled cases grows by a mutation, and a new plan resets the stall.
func TestGuideMutates(t *testing.T) {
	g := mustNew(t, Options{Oracles: []string{OracleNoREC}, QPG: true})
	seed := fuzz.CaseSeed(9, 0, 100)
	c, _ := g.Generate(seed)
	n := len(c.Setup)
	if _, ok := c.Query(RoleQPGPlan); !ok {
		t.Fatal("a guided case carries no plan query")
	}
	plan := func(detail string) []fuzz.Run {
		r := &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:2", "i:0", "i:0", "t:" + detail}}}
		res := make([]*fuzz.Result, len(c.Queries))
		for i := range res {
			res[i] = r
		}
		return []fuzz.Run{{Target: "sqlite", Results: res}}
	}
	for i := 0; i < qpgStall; i++ {
		g.Observe(c, plan("SCAN t0"))
	}
	if c2, _ := g.Generate(seed + 1); len(c2.Setup) != n {
		t.Fatalf("the setup changed before the plans stalled: %q", c2.Setup[n:])
	}
	g.Observe(c, plan("SCAN t0"))
	c2, _ := g.Generate(seed + 1)
	if len(c2.Setup) != n+1 {
		t.Fatalf("after %d cases of one plan the setup has %d statements, want %d", qpgStall+1, len(c2.Setup), n+1)
	}
	if other, _ := g.Generate(fuzz.CaseSeed(9, 100, 100)); slices.Contains(other.Setup, c2.Setup[n]) {
		t.Errorf("another setup got the mutation %q", c2.Setup[n])
	}
}
