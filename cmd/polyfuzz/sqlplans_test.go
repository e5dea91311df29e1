package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/domain/sqldom"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// The planted faults of these tests, registered as the SQL domain's own so that campaigns plant
// them with --fault and replays plant them again.
func init() {
	sqldom.Domain.Faults = append(sqldom.Domain.Faults,
		domain.Fault{Kind: "plan-row", Help: "drop the first row of the query that runs under a plan variant matching REGEXP",
			Wrap: func(inner fuzz.Target, arg string) (fuzz.Target, error) {
				re, err := regexp.Compile(arg)
				if err != nil || inner == nil {
					return nil, err
				}
				return &planRow{Target: inner, re: re}, nil
			}},
		domain.Fault{Kind: "estimate-up", Help: "multiply the row estimates of the EXPLAIN statements matching REGEXP by 1000",
			Wrap: func(inner fuzz.Target, arg string) (fuzz.Target, error) {
				re, err := regexp.Compile(arg)
				if err != nil || inner == nil {
					return nil, err
				}
				return &estimateUp{Target: inner, re: re}, nil
			}})
}

// planRow is a planner bug that depends on the plan: a SELECT that matches re (a plan hint in its
// text), or the first SELECT after a statement that matches re (a planner setting), loses its
// first row.
type planRow struct {
	fuzz.Target
	re    *regexp.Regexp
	armed bool
}

func (t *planRow) Reset(ctx context.Context) error {
	t.armed = false
	return t.Target.Reset(ctx)
}

func (t *planRow) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	r, err := t.Target.Exec(ctx, stmt)
	isSelect := strings.HasPrefix(stmt, "SELECT * FROM ")
	hit := isSelect && (t.armed || t.re.MatchString(stmt))
	t.armed = !isSelect && t.re.MatchString(stmt)
	if err == nil && hit && r.Status == fuzz.StatusOK && len(r.Rows) > 0 {
		r.Rows = r.Rows[1:]
	}
	return r, err
}

// estimateUp is a cardinality estimator that overestimates the queries matching re a
// thousandfold: PostgreSQL's rows=N, MariaDB's rows column, DuckDB's Estimated Cardinality.
type estimateUp struct {
	fuzz.Target
	re *regexp.Regexp
}

var estimates = regexp.MustCompile(`(rows=|"Estimated Cardinality": ")(\d+)`)

func (t *estimateUp) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	r, err := t.Target.Exec(ctx, stmt)
	if err != nil || r.Status != fuzz.StatusOK || !strings.HasPrefix(stmt, "EXPLAIN") || !t.re.MatchString(stmt) {
		return r, err
	}
	rowsCol := -1
	for i, c := range r.Columns {
		if c == "rows" {
			rowsCol = i
		}
	}
	for _, row := range r.Rows {
		for i, v := range row {
			if i == rowsCol {
				if n, err := strconv.Atoi(strings.TrimPrefix(v, "t:")); err == nil {
					row[i] = "t:" + strconv.Itoa(1000*n+1000)
				}
				continue
			}
			row[i] = estimates.ReplaceAllStringFunc(v, func(m string) string {
				k := strings.LastIndexAny(m, "=\"") + 1
				n, _ := strconv.Atoi(m[k:])
				return m[:k] + strconv.Itoa(1000*n+1000)
			})
		}
	}
	return r, nil
}

// TestDQPFires plants, on each engine, a bug that drops a row only under one plan variant (a
// planner setting, or a hint in SQLite): the dqp oracle reports it as a wrong result under that
// variant, reduced, and its replay regenerates the case and reproduces.
func TestDQPFires(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	for _, tc := range []struct {
		engine, fault, variant string
		tests                  int
	}{
		{"sqlite", `NOT INDEXED`, "not-indexed", 1500},
		{"duckdb", `^SET disabled_optimizers = 'in_clause'`, "disabled_optimizers=in_clause", 1000},
		{"postgres", `^SET enable_memoize = off`, "enable_memoize", 1000},
		{"mariadb", `^SET SESSION optimizer_switch = 'mrr=on'`, "mrr", 1000},
		{"mysql", `^SET SESSION optimizer_switch = 'mrr=on'`, "mrr", 1000},
		{"turso", `NOT INDEXED`, "not-indexed", 1500},
	} {
		t.Run(tc.engine, func(t *testing.T) {
			arg := engineArg(t, tc.engine)
			out := t.TempDir()
			stdout := runCampaign(t, tc.tests, "sql", "--dbms", arg, "--seed", seed, "-j", "1", "--quiet", "--out", out,
				"--oracle", "dqp", "--fault", "plan-row:"+tc.fault, "--reduce-time", "1m")
			prefix := "dqp: " + tc.engine + ": the query under " + tc.variant + " "
			found := false
			for title, rec := range records(t, out) {
				if !strings.HasPrefix(title, prefix) {
					t.Errorf("finding %q, want only %q...", title, prefix)
					continue
				}
				found = true
				_, red := checkFired(t, out, rec, "wrong-result")
				if len(red.Setup) > 4 || len(red.Queries) > 4 {
					t.Errorf("%s: reduced case has %d setup statements and %d queries, want a handful",
						title, len(red.Setup), len(red.Queries))
				}
			}
			if !found {
				t.Fatalf("no finding %q...:\n%s", prefix, stdout)
			}
		})
	}
}

// TestCERTFires plants, on each engine with row estimates, an estimator that overestimates
// queries with a LIMIT: the cert oracle reports the restricting LIMIT mutant as a performance
// issue, reduced, and its replay regenerates the case and reproduces.
func TestCERTFires(t *testing.T) {
	seed := fmt.Sprint(testenv.Seed(t))
	for _, tc := range []struct {
		engine string
		tests  int
	}{{"postgres", 600}, {"mariadb", 600}, {"mysql", 600}, {"duckdb", 1000}} {
		t.Run(tc.engine, func(t *testing.T) {
			arg := engineArg(t, tc.engine)
			out := t.TempDir()
			stdout := runCampaign(t, tc.tests, "sql", "--dbms", arg, "--seed", seed, "-j", "1", "--quiet", "--out", out,
				"--oracle", "cert", "--fault", "estimate-up: LIMIT ", "--reduce-time", "1m")
			title := "cert: " + tc.engine + ": the limit mutant (restrict) is estimated to return more rows"
			rec := records(t, out)[title]
			if rec == nil {
				t.Fatalf("no finding %q:\n%s", title, stdout)
			}
			_, red := checkFired(t, out, rec, "performance")
			if len(red.Setup) > 4 || len(red.Queries) != 2 {
				t.Errorf("reduced case has %d setup statements and %d queries, want a handful and the two plans",
					len(red.Setup), len(red.Queries))
			}
		})
	}
}

// TestCERTRefusesSQLite checks that cert is refused where EXPLAIN gives no row estimates.
func TestCERTRefusesSQLite(t *testing.T) {
	code, _, stderr := polyfuzz(t, "sql", "--oracle", "cert", "--tests", "10", "--out", t.TempDir())
	if code == 0 || !strings.Contains(stderr, "row estimates") {
		t.Fatalf("exit %d, stderr %q; want a refusal naming the row estimates", code, stderr)
	}
}

// TestQPGFindsMorePlans runs the same budget of cases on SQLite with and without query plan
// guidance: guidance must reach more distinct plans (the qpg notes count them).
func TestQPGFindsMorePlans(t *testing.T) {
	newPlans := func(extra ...string) int {
		out := t.TempDir()
		stdout := runCampaign(t, 3000, append([]string{"sql", "--seed", "7", "-j", "1", "--out", out, "--oracle", "norec,qpg"}, extra...)...)
		m := regexp.MustCompile(`\[qpg: new plan\] (\d+)`).FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("no new-plan count:\n%s", stdout)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	plain, guided := newPlans(), newPlans("--qpg")
	t.Logf("distinct plans over 3000 cases: %d without guidance, %d with", plain, guided)
	if guided <= plain {
		t.Fatalf("query plan guidance found %d distinct plans, no more than the %d without it", guided, plain)
	}
}
