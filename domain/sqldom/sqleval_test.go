package sqldom

import (
	"context"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/sqlgen"
	"github.com/polyfuzz/polyfuzz/targets/duckdb"
	"github.com/polyfuzz/polyfuzz/targets/postgres"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

var evalExprs = flag.Int("sqleval.exprs", 600, "generated expressions TestEvaluatorAgrees checks per engine (each on every row of its tables)")

// TestEvaluatorAgrees checks PQS's expression evaluators against their engines (SQLite, DuckDB,
// and PostgreSQL when POLYFUZZ_POSTGRES_DSN is set): generated expressions over the tables of
// generated setups, evaluated by the engine on every row of their product and by the evaluator on
// the same rows; an evaluator must agree on at least half the rows, so that one that answers
// unknown to everything fails. Run with -sqleval.exprs=10000 -v for the figures in docs/sql.md.
func TestEvaluatorAgrees(t *testing.T) {
	for _, tc := range []struct {
		dialect string
		open    func(t *testing.T) (fuzz.Target, string)
	}{
		{"sqlite", func(t *testing.T) (fuzz.Target, string) {
			tg, err := sqlite.Open(sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return tg, "sqlite " + sqlite.Version()
		}},
		{"duckdb", func(t *testing.T) (fuzz.Target, string) {
			tg, err := duckdb.Open(duckdb.Options{Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			return tg, "duckdb"
		}},
		{"postgres", func(t *testing.T) (fuzz.Target, string) {
			dsn := testenv.NeedDSN(t, "POLYFUZZ_POSTGRES_DSN")
			tg, err := postgres.Open(context.Background(), postgres.Options{DSN: dsn, Worker: 71, Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			return tg, "postgres"
		}},
	} {
		t.Run(tc.dialect, func(t *testing.T) {
			tg, name := tc.open(t)
			defer tg.Close()
			evaluatorAgrees(t, tc.dialect, tg, name)
		})
	}
}

func evaluatorAgrees(t *testing.T, dialect string, tg fuzz.Target, name string) {
	gen, err := sqlgen.New(sqlgen.Options{Dialect: dialect, Oracles: []string{sqlgen.OraclePQS}, QueriesPerDB: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const perCase = 20
	var exprs, evals, agree, unknown, exprsUnknown, engineErr int
	var shown int
	for seed := uint64(1); exprs < *evalExprs; seed++ {
		c, err := gen.Generate(fuzz.CaseSeed(7, seed, 1))
		if err != nil {
			t.Fatal(err)
		}
		if err := tg.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Setup {
			if _, err := tg.Exec(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		fetch, _ := c.Query(sqlgen.RolePQSFetch)
		cols, from, _ := strings.Cut(strings.TrimPrefix(fetch, "SELECT "), " FROM ")
		ncols := len(strings.Split(cols, ", "))
		list, eval := gen.EvalSample(c, perCase)
		for _, e := range list {
			exprs++
			res, err := tg.Exec(ctx, "SELECT "+cols+", "+e+" FROM "+from)
			if err != nil {
				t.Fatal(err)
			}
			if res.Failed() {
				engineErr++
				continue
			}
			sure := true
			for _, row := range res.Rows {
				evals++
				got, ok := eval(e, row[:ncols])
				switch {
				case !ok:
					unknown++
					sure = false
				case got == row[ncols]:
					agree++
				default:
					if shown < 30 {
						t.Errorf("%s\n  on %v: evaluator %s, engine %s", e, row[:ncols], got, row[ncols])
					}
					shown++
				}
			}
			if !sure {
				exprsUnknown++
			}
		}
	}
	t.Logf("%s: %d expressions (%d engine errors), %d evaluations on rows: %d agree, %d disagree, %d unknown (%.1f%%); expressions with an unknown row: %d (%.1f%%)",
		name, exprs, engineErr, evals, agree, shown, unknown, 100*float64(unknown)/float64(max(evals, 1)),
		exprsUnknown, 100*float64(exprsUnknown)/float64(max(exprs, 1)))
	if 2*agree < evals {
		t.Errorf("%s: the evaluator agrees on %d of %d evaluations, want at least half", name, agree, evals)
	}
}
