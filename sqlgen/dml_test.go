package sqlgen

import (
	"context"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestDMLLayouts checks the DQE and EET cases of every dialect: the layouts' roles in order, the
// tracking column in the setup when DQE is on, every query rendered again from the case's Params
// (so that the reducer can substitute shrunk pieces), and the rewritten queries differing from
// the originals.
func TestDMLLayouts(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres", "mysql", "duckdb"} {
		for _, oracles := range [][]string{{OracleDQE}, {OracleEET}, {OracleDQE, OracleEET}} {
			t.Run(dialect+"/"+strings.Join(oracles, ","), func(t *testing.T) {
				g := mustNew(t, Options{Dialect: dialect, Oracles: oracles})
				sawDQE, sawEET, sawDML, sawUpdate, sawDelete := false, false, false, false, false
				for i := 0; i < 200; i++ {
					c, _ := g.Generate(fuzz.CaseSeed(5, uint64(i), 20))
					tracked := strings.Contains(strings.Join(c.Setup, "\n"), TrackColumn+" INT DEFAULT 0")
					if tracked != (oracles[0] == OracleDQE) {
						t.Fatalf("case %d: tracking column in the setup %v with oracles %v", i, tracked, oracles)
					}
					d := dialects[dialect]
					p := piecesOf(c.Params)
					for _, q := range c.Queries {
						if got := d.render(q.Role, p); got != q.Text {
							t.Fatalf("case %d: %s renders as\n%s\nwant\n%s", i, q.Role, got, q.Text)
						}
					}
					_, dqe := c.Query(RoleDQEUpdate)
					orig, eet := c.Query(RoleEETOrig)
					dml, eetdml := c.Query(RoleEETDMLDML)
					sawDQE, sawEET, sawDML = sawDQE || dqe, sawEET || eet, sawDML || eetdml
					if eet {
						if trans, _ := c.Query(RoleEETTrans); trans == orig || !strings.Contains(trans, "CASE WHEN") {
							t.Fatalf("case %d: eet.trans is not rewritten: %s", i, trans)
						}
					}
					if eetdml {
						sawUpdate = sawUpdate || strings.HasPrefix(dml, "UPDATE")
						sawDelete = sawDelete || strings.HasPrefix(dml, "DELETE")
						if tdml, _ := c.Query(RoleEETDMLTDML); tdml == dml {
							t.Fatalf("case %d: eetdml.tdml is not rewritten: %s", i, tdml)
						}
					}
				}
				wantDQE := oracles[0] == OracleDQE
				wantEET := oracles[len(oracles)-1] == OracleEET
				if sawDQE != wantDQE || sawEET != wantEET || wantEET && !(sawDML && sawUpdate && sawDelete) {
					t.Errorf("saw dqe %v eet %v eetdml %v (update %v, delete %v)", sawDQE, sawEET, sawDML, sawUpdate, sawDelete)
				}
			})
		}
	}
}

// TestEETRewrite checks where the rewrite may put a CASE: in SQLite never around a comparison
// operand (a CASE drops the operand's affinity and collation), in a typed dialect anywhere; and
// that it is a deterministic function of the text, the seed and p.
func TestEETRewrite(t *testing.T) {
	const p = "(t0.c0 > 1)"
	tests := []struct {
		dialect, text string
		ctx           eetCtx
		never         []string // text that no rewrite may contain
		some          []string // text that some seed's rewrite contains
	}{
		{"sqlite", "((t0.c0 + 1) = t0.c1)", ctxBool,
			[]string{"THEN (t0.c0 + 1)", "ELSE (t0.c0 + 1)"}, []string{"THEN ((t0.c0 + 1) = t0.c1)", " OR ((t0.c0 + 1) = t0.c1))"}},
		{"sqlite", "(((t0.c0 * 2) + 1) = 3)", ctxBool,
			[]string{"ELSE ((t0.c0 * 2) + 1) END) = 3"}, []string{"THEN (t0.c0 * 2)"}},
		{"sqlite", "((t0.c0 = 1) AND (NOT (t0.c1 < 2)))", ctxBool,
			[]string{"CASE WHEN TRUE THEN t0.c0"}, []string{" OR (t0.c0 = 1))", "THEN (t0.c1 < 2) ELSE"}},
		{"sqlite", "(t0.c0 IN ((t0.c1 + 1), 2))", ctxBool,
			[]string{"THEN (t0.c1 + 1)"}, nil},
		{"postgres", "((t0.c0 + 1) = t0.c1)", ctxBool,
			nil, []string{"THEN (t0.c0 + 1) ELSE (t0.c0 + 1) END) = t0.c1"}},
		{"postgres", "NULLIF(t0.c1, ('' COLLATE \"C\"))", ctxValue,
			[]string{"THEN ('' COLLATE"}, []string{"THEN NULLIF(t0.c1, ('' COLLATE"}},
		{"postgres", "lower(CAST((t0.c0 + 1) AS TEXT))", ctxValue,
			[]string{"lower((CASE"}, []string{"CAST((CASE WHEN"}},
	}
	for _, tc := range tests {
		t.Run(tc.dialect+" "+tc.text, func(t *testing.T) {
			d := dialects[tc.dialect]
			seen := map[string]bool{}
			for seed := uint64(0); seed < 300; seed++ {
				got := d.eetRewrite(tc.text, tc.ctx, seed, p, true)
				if got != d.eetRewrite(tc.text, tc.ctx, seed, p, true) {
					t.Fatalf("seed %d: two rewrites differ", seed)
				}
				if _, ok := matchParens(tokenize(got)); !ok || !strings.Contains(got, "CASE WHEN") && !strings.Contains(got, p+" OR") && !strings.Contains(got, p+" AND") {
					t.Fatalf("seed %d: bad rewrite %s", seed, got)
				}
				for _, n := range tc.never {
					if strings.Contains(got, n) {
						t.Fatalf("seed %d: rewrite holds %q: %s", seed, n, got)
					}
				}
				for _, s := range tc.some {
					if strings.Contains(got, s) {
						seen[s] = true
					}
				}
			}
			for _, s := range tc.some {
				if !seen[s] {
					t.Errorf("no rewrite holds %q", s)
				}
			}
		})
	}
}

// TestReducerRerendersEET checks that the reducer shrinks the predicate of an EET case, turns off
// the rewrite of sub-expressions, and that the rewritten query follows: it is the rewrite of the
// shrunk predicate with the same seed.
func TestReducerRerendersEET(t *testing.T) {
	g := mustNew(t, Options{Oracles: []string{OracleEET}, MaxDepth: 4})
	for i := 0; i < 50; i++ {
		c, _ := g.Generate(fuzz.CaseSeed(11, uint64(i), 1))
		if len(c.Params[ParamPred]) < 60 {
			continue
		}
		keep := func(_ context.Context, x *fuzz.Case) bool {
			orig, _ := x.Query(RoleEETOrig)
			trans, _ := x.Query(RoleEETTrans)
			return trans != orig && len(x.Setup) > 0
		}
		r, err := NewReducer().Reduce(context.Background(), c, keep)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Params[ParamPred]) >= len(c.Params[ParamPred]) {
			t.Fatalf("predicate not shrunk: %q", r.Params[ParamPred])
		}
		if r.Params[ParamEETInner] != "off" {
			t.Errorf("the rewrite of sub-expressions was not turned off: %v", r.Params)
		}
		trans, _ := r.Query(RoleEETTrans)
		if want := sqliteDialect.render(RoleEETTrans, piecesOf(r.Params)); trans != want {
			t.Fatalf("eet.trans not rendered from the shrunk pieces:\n%s\nwant\n%s", trans, want)
		}
		return
	}
	t.Fatal("no case with a long predicate")
}
