package main

import (
	"database/sql"
	"runtime"
	"strings"
	"syscall"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/polyfuzz/polyfuzz/sqlgen"
)

// queryForms are ways to write the statements of NoREC and TLP-WHERE checks, for
// BenchmarkSQLiteQueryForms: each takes the checks of consecutive cases (the same database) and
// returns the statements to run for check i. A form that serves four checks with one statement
// runs it with the first of the four, with the first check's predicate four times, standing for
// four predicates over the same FROM clause.
var queryForms = []struct {
	name  string
	stmts func(i int, c formCase) []string
}{
	// The statements polyfuzz sends now: the optimized count (or rows) and the unoptimized SUM
	// over a subquery.
	{"norec", func(_ int, c formCase) []string { return []string{c.opt, c.unopt} }},
	// The unoptimized query without its subquery.
	{"norec-flat", func(_ int, c formCase) []string { return []string{c.opt, flatSum(c, 1)} }},
	// Four predicates' unoptimized sums in one scan.
	{"norec-sum4", func(i int, c formCase) []string {
		if i%4 == 0 {
			return []string{c.opt, flatSum(c, 4)}
		}
		return []string{c.opt}
	}},
	// Four optimized counts as scalar subqueries of one statement, and the sums in one scan.
	{"norec-count4-sum4", func(i int, c formCase) []string {
		if i%4 != 0 {
			return nil
		}
		o := "(SELECT COUNT(*) FROM " + c.from + " WHERE " + c.pred + ")"
		return []string{"SELECT " + strings.Repeat(o+", ", 3) + o, flatSum(c, 4)}
	}},
	// The statements polyfuzz sends now: the original query and the three partitions apart.
	{"tlp-where", func(_ int, c formCase) []string { return []string{c.orig, c.p, c.notp, c.null} }},
	// The three partitions in one UNION ALL.
	{"tlp-where-union", func(_ int, c formCase) []string {
		return []string{c.orig, c.p + " UNION ALL " + c.notp + " UNION ALL " + c.null}
	}},
	// One original query for four predicates over the same FROM clause.
	{"tlp-where-orig4", func(i int, c formCase) []string {
		if i%4 == 0 {
			return []string{c.orig, c.p, c.notp, c.null}
		}
		return []string{c.p, c.notp, c.null}
	}},
}

// formCase is one generated case's NoREC and TLP-WHERE statements and its pieces.
type formCase struct{ opt, unopt, orig, p, notp, null, pred, from string }

// flatSum is the unoptimized NoREC query of k copies of c's predicate without a subquery.
func flatSum(c formCase, k int) string {
	s := "SUM((" + c.pred + ") IS TRUE)"
	return "SELECT " + strings.Repeat(s+", ", k-1) + s + " FROM " + c.from
}

// threadCPU is the calling thread's CPU time in seconds.
func threadCPU() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkSQLiteQueryForms measures the CPU time per check of each query form on the generator's
// databases and predicates (SQLite in process, through database/sql, on the benchmark's thread),
// interleaving the forms database by database so that they see the same load. Run it with
// -benchtime 1x: each iteration is 40 databases of 100 cases, three times per form.
func BenchmarkSQLiteQueryForms(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := sqlgen.New(sqlgen.Options{Oracles: []string{sqlgen.OracleNoREC, sqlgen.OracleTLPWhere}})
	if err != nil {
		b.Fatal(err)
	}
	cpu := make([]float64, len(queryForms))
	checks := 0
	for it := 0; it < b.N; it++ {
		for db := range 40 {
			conn, err := sql.Open("sqlite3", ":memory:")
			if err != nil {
				b.Fatal(err)
			}
			conn.SetMaxOpenConns(1)
			var cases []formCase
			for i := range 100 {
				c, err := g.Generate(uint64(db*100 + i))
				if err != nil {
					b.Fatal(err)
				}
				if i == 0 {
					for _, s := range c.Setup {
						_, _ = conn.Exec(s) // a failing setup statement is skipped, as campaigns do
					}
				}
				q := map[string]string{}
				for _, x := range c.Queries {
					q[x.Role] = x.Text
				}
				opt := q[sqlgen.RoleNoRECOptCount]
				if opt == "" {
					opt = q[sqlgen.RoleNoRECOptRows]
				}
				cases = append(cases, formCase{opt, q[sqlgen.RoleNoRECUnopt], q[sqlgen.RoleTLPOrig],
					q[sqlgen.RoleTLPP], q[sqlgen.RoleTLPNotP], q[sqlgen.RoleTLPNull],
					c.Params[sqlgen.ParamPred], c.Params[sqlgen.ParamFrom]})
			}
			for range 3 {
				for fi, f := range queryForms {
					start := threadCPU()
					for i, c := range cases {
						for _, s := range f.stmts(i, c) {
							drain(conn, s)
						}
					}
					cpu[fi] += threadCPU() - start
				}
				checks += len(cases)
			}
			conn.Close()
		}
	}
	for fi, f := range queryForms {
		b.ReportMetric(1e6*cpu[fi]/float64(checks), f.name+"-µs/check")
	}
}

// drain runs a query and reads its rows; an error skips it, as a failed check is skipped.
func drain(conn *sql.DB, s string) {
	rows, err := conn.Query(s)
	if err != nil {
		return
	}
	for rows.Next() {
	}
	rows.Close()
}
