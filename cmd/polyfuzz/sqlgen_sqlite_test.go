package main

import (
	"context"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/sqlgen"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

// The tests in this file run the SQL generator's cases on real SQLite, through the SQLite target
// and the oracles a campaign uses. They live here because sqlgen may not import targets.

// openSQLiteTarget opens an in-memory SQLite target that the test closes when it ends.
func openSQLiteTarget(t testing.TB) *sqlite.Target {
	t.Helper()
	tg, err := sqlite.Open(sqlite.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

// execAll runs stmts on tg; the target failing as a whole ends the test.
func execAll(t testing.TB, tg fuzz.Target, stmts []string) []*fuzz.Result {
	t.Helper()
	res, err := fuzz.ExecAll(context.Background(), tg, stmts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// countOK returns how many of rs answered normally.
func countOK(rs []*fuzz.Result) int {
	n := 0
	for _, r := range rs {
		if !r.Failed() {
			n++
		}
	}
	return n
}

func caseSQL(c *fuzz.Case) string {
	return string(sqlgen.Format{Dialect: "sqlite"}.CaseText(c, nil))
}

// culprit returns the statement an error finding is about: the query of its role, or else the
// first failed setup statement whose message the finding quotes.
func culprit(f *fuzz.Finding, run fuzz.Run) string {
	if len(f.Roles) > 0 {
		text, _ := f.Case.Query(f.Roles[0])
		return text
	}
	for i, r := range run.Setup {
		if r.Failed() && strings.Contains(f.Actual, r.Err) {
			return f.Case.Setup[i]
		}
	}
	return "?"
}

// sqlgenTrial is what a run of generated cases did on SQLite.
type sqlgenTrial struct {
	setupOK, setupN int
	queryOK, queryN int
	checks          int                 // cases on which both NoREC and TLP made their check
	unexpected      map[string][]string // error finding title -> example statements
	mismatches      []string
}

// runSQLGenTrial generates n cases from a campaign seed and runs them on SQLite as a campaign
// would, running a setup once for the cases that share it, and checks every case with the error,
// NoREC and TLP oracles.
func runSQLGenTrial(t *testing.T, g *sqlgen.Generator, campaignSeed uint64, n int) *sqlgenTrial {
	t.Helper()
	expect, err := sqlgen.Expected("sqlite")
	if err != nil {
		t.Fatal(err)
	}
	errs := oracles.Errors{Expect: expect}
	relations := []fuzz.Oracle{oracles.NoREC{}, oracles.TLP{}}
	st := &sqlgenTrial{unexpected: map[string][]string{}}
	tg := openSQLiteTarget(t)
	per := g.CasesPerSetup()
	for i := range n {
		seed := fuzz.CaseSeed(campaignSeed, uint64(i), per)
		c, err := g.Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		run := fuzz.Run{Target: tg.Name()}
		if i%per == 0 {
			if err := tg.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			run.Setup = execAll(t, tg, c.Setup)
			st.setupN += len(run.Setup)
			st.setupOK += countOK(run.Setup)
		}
		run.Results = execAll(t, tg, c.Texts())
		st.queryN += len(run.Results)
		st.queryOK += countOK(run.Results)
		runs := []fuzz.Run{run}
		if f := errs.Check(c, runs).Finding; f != nil && len(st.unexpected[f.Title]) < 3 {
			st.unexpected[f.Title] = append(st.unexpected[f.Title], f.Actual+"\n    "+culprit(f, run))
		}
		checked := true
		for _, o := range relations {
			v := o.Check(c, runs)
			checked = checked && v.Checked
			if f := v.Finding; f != nil {
				st.mismatches = append(st.mismatches, "seed 0x"+strconv.FormatUint(seed, 16)+": "+f.Title+
					" (expected "+f.Expected+"; actual "+f.Actual+")\n"+caseSQL(c))
			}
		}
		if checked {
			st.checks++
		}
	}
	return st
}

// TestSQLGenSQLite runs generated cases on SQLite: the shares of setup statements and queries SQLite
// accepts must exceed 0.90, no error may be unexpected, and NoREC and TLP must agree (plain SQLite
// has no known bug they would show). POLYFUZZ_SQLGEN_SOAK=n runs n cases per option set instead of
// 2,000, five to a database, for hunting false positives.
func TestSQLGenSQLite(t *testing.T) {
	n, per := 2000, 20
	if s := os.Getenv("POLYFUZZ_SQLGEN_SOAK"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("POLYFUZZ_SQLGEN_SOAK=%q: want a positive number of cases", s)
		}
		per = 5
	} else if testing.Short() {
		n = 300
	}
	tests := []struct {
		name string
		opts sqlgen.Options
		seed uint64
	}{
		{"defaults", sqlgen.Options{QueriesPerDB: per}, 2026},
		{"deep", sqlgen.Options{QueriesPerDB: per, MaxDepth: 5, MaxFrom: 4, MaxTables: 4}, 2027},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := sqlgen.New(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			st := runSQLGenTrial(t, g, tc.seed, n)
			setupValid := float64(st.setupOK) / float64(st.setupN)
			queryValid := float64(st.queryOK) / float64(st.queryN)
			t.Logf("%s", tc.opts)
			t.Logf("setup statements: %d/%d valid (%.3f)", st.setupOK, st.setupN, setupValid)
			t.Logf("queries: %d/%d valid (%.3f); %d cases checked", st.queryOK, st.queryN, queryValid, st.checks)
			if setupValid <= 0.90 {
				t.Errorf("setup validity %.3f <= 0.90", setupValid)
			}
			if queryValid <= 0.90 {
				t.Errorf("query validity %.3f <= 0.90", queryValid)
			}
			for title, ex := range st.unexpected {
				t.Errorf("unexpected error %q, e.g.\n  %s", title, strings.Join(ex, "\n  "))
			}
			for _, m := range st.mismatches[:min(3, len(st.mismatches))] {
				t.Errorf("oracle mismatch on plain SQLite: %s", m)
			}
			if len(st.mismatches) > 0 {
				t.Errorf("%d mismatches", len(st.mismatches))
			}
			if st.checks < n*9/10 {
				t.Errorf("only %d of %d cases checked", st.checks, n)
			}
		})
	}
}

// TestSQLGenReducerSQLite reduces cases against real SQLite with a keep that stands in for a bug:
// every query runs, tlp.p returns rows, and the predicate still holds a LIKE or GLOB. The reduced
// cases must still keep, be small, and come out the same when reduced again.
func TestSQLGenReducerSQLite(t *testing.T) {
	g, err := sqlgen.New(sqlgen.Options{QueriesPerDB: 1})
	if err != nil {
		t.Fatal(err)
	}
	tg := openSQLiteTarget(t)
	keep := func(c *fuzz.Case) bool {
		if p := c.Params[sqlgen.ParamPred]; !strings.Contains(p, " LIKE ") && !strings.Contains(p, " GLOB ") {
			return false
		}
		if err := tg.Reset(context.Background()); err != nil {
			t.Fatal(err)
		}
		execAll(t, tg, c.Setup)
		res := execAll(t, tg, c.Texts())
		if countOK(res) < len(res) {
			return false
		}
		for i, q := range c.Queries {
			if q.Role == sqlgen.RoleTLPP {
				return len(res[i].Rows) > 0
			}
		}
		return false
	}
	reduce := func(c *fuzz.Case) (*fuzz.Case, int) {
		calls := 0
		r, err := sqlgen.NewReducer().Reduce(context.Background(), c, func(_ context.Context, x *fuzz.Case) bool {
			calls++
			return keep(x)
		})
		if err != nil {
			t.Fatal(err)
		}
		return r, calls
	}
	done := 0
	for i := 0; done < 3 && i < 2000; i++ {
		c, err := g.Generate(fuzz.CaseSeed(31, uint64(i), 1))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Setup) < 15 || !keep(c) {
			continue
		}
		done++
		r, calls := reduce(c)
		if !keep(r) {
			t.Fatalf("the reduced case does not keep:\n%s", caseSQL(r))
		}
		if len(r.Setup) > 4 || len(r.Params[sqlgen.ParamPred]) > 60 {
			t.Errorf("case not reduced well (%d -> %d statements, %d keep calls):\n%s",
				len(c.Setup), len(r.Setup), calls, caseSQL(r))
		}
		if again, _ := reduce(c); !reflect.DeepEqual(again, r) {
			t.Errorf("reducing the case again gives another case:\n%s\nfirst:\n%s", caseSQL(again), caseSQL(r))
		}
		t.Logf("%d -> %d statements in %d keep calls:\n%s", len(c.Setup), len(r.Setup), calls, caseSQL(r))
	}
	if done == 0 {
		t.Fatal("no case to reduce")
	}
}
