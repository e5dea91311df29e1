package sqlgen

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// reproCase builds a case of one oracle's layout: the queries of roles, in order, over setup.
func reproCase(setup []string, params map[string]string, roleTexts ...string) *fuzz.Case {
	c := &fuzz.Case{Domain: "sql", Setup: setup, Params: params}
	for i := 0; i+1 < len(roleTexts); i += 2 {
		c.Queries = append(c.Queries, fuzz.Query{Role: roleTexts[i], Text: roleTexts[i+1]})
	}
	return c
}

// TestReproJudgesSQLite runs reproducers with the sqlite3 shell: a case whose answers break the
// oracle's relation reproduces (exit 0), one whose answers keep it does not (exit 1), and what
// cannot be judged exits 2.
func TestReproJudgesSQLite(t *testing.T) {
	testenv.NeedEngine(t, "sqlite3")
	setup := []string{
		"CREATE TABLE t0 (c0, c1)",
		"INSERT INTO t0 VALUES (1, 'a'), (2, 'b'), (NULL, 'c'), (2, 'b'), (5, 'A')",
		"INSERT INTO t0 VALUES (1, 'x', 'too many values')", // a setup error, as generated setups have
	}
	pred := "(t0.c0 > 1)"
	tlp := func(orig, p, notp, null string) *fuzz.Case {
		return reproCase(setup, map[string]string{"pred": pred}, "tlp.orig", orig, "tlp.p", p, "tlp.notp", notp, "tlp.null", null)
	}
	where := tlp("SELECT * FROM t0", "SELECT * FROM t0 WHERE "+pred, "SELECT * FROM t0 WHERE NOT "+pred,
		"SELECT * FROM t0 WHERE ("+pred+") IS NULL")
	dropRow := tlp("SELECT * FROM t0", "SELECT * FROM t0 WHERE "+pred+" AND t0.c0 <> 5", "SELECT * FROM t0 WHERE NOT "+pred,
		"SELECT * FROM t0 WHERE ("+pred+") IS NULL")
	distinct := reproCase(setup, nil, "distinct.orig", "SELECT DISTINCT c1 FROM t0", "distinct.p", "SELECT DISTINCT c1 FROM t0 WHERE "+pred,
		"distinct.notp", "SELECT DISTINCT c1 FROM t0 WHERE NOT "+pred, "distinct.null", "SELECT DISTINCT c1 FROM t0 WHERE ("+pred+") IS NULL")
	repeated := reproCase(setup, nil, "distinct.orig", "SELECT c1 FROM t0", "distinct.p", "SELECT DISTINCT c1 FROM t0 WHERE "+pred,
		"distinct.notp", "SELECT DISTINCT c1 FROM t0 WHERE NOT "+pred, "distinct.null", "SELECT DISTINCT c1 FROM t0 WHERE ("+pred+") IS NULL")
	norec := func(opt string) *fuzz.Case {
		return reproCase(setup, nil, "norec.opt-count", opt, "norec.unopt", "SELECT SUM(count) FROM (SELECT ("+pred+") IS TRUE AS count FROM t0)")
	}
	norecRows := reproCase(setup, nil, "norec.opt-rows", "SELECT * FROM t0 WHERE "+pred,
		"norec.unopt", "SELECT SUM(count) FROM (SELECT ("+pred+") IS TRUE AS count FROM t0)")
	agg := func(fn, expr, orig, extra string) *fuzz.Case {
		sel := fn + "(" + expr + ")"
		part := sel
		switch fn {
		case "SUM":
			sel = "SUM(" + expr + "), COUNT(" + expr + ")"
			part = sel
		case "AVG":
			part = "SUM(" + expr + "), COUNT(" + expr + ")"
		}
		if orig == "" {
			orig = "SELECT " + sel + " FROM t0"
		}
		return reproCase(setup, map[string]string{"agg": fn, "pred": pred}, "agg.orig", orig,
			"agg.p", "SELECT "+part+" FROM t0 WHERE "+pred+extra, "agg.notp", "SELECT "+part+" FROM t0 WHERE NOT "+pred,
			"agg.null", "SELECT "+part+" FROM t0 WHERE ("+pred+") IS NULL")
	}
	missingColumn := reproCase(setup, nil, "tlp.orig", "SELECT c9 FROM t0")
	eet := func(a, b, c, d string) *fuzz.Case {
		return reproCase(setup, nil, a, "SELECT c0, c1 FROM t0 WHERE "+pred, b, c+" "+d)
	}
	dqeSetup := []string{"CREATE TABLE t0 (c0, c1, mark DEFAULT 0)", "INSERT INTO t0(c0, c1) VALUES (1, 'a'), (2, 'b'), (NULL, 'c'), (2, 'b'), (5, 'A')"}
	dqe := func(update, del string) *fuzz.Case {
		return reproCase(dqeSetup, nil, RoleDQESelect, "SELECT c0, c1 FROM t0 WHERE "+pred, RoleDQEAll, "SELECT c0, c1 FROM t0",
			RoleDQEUBegin, "BEGIN", RoleDQEUpdate, "UPDATE t0 SET mark = 1 WHERE "+update, RoleDQEUpdated, "SELECT c0, c1 FROM t0 WHERE mark = 1",
			RoleDQEURollback, "ROLLBACK", RoleDQEDBegin, "BEGIN", RoleDQEDelete, "DELETE FROM t0 WHERE "+del,
			RoleDQERemaining, "SELECT c0, c1 FROM t0", RoleDQEDRollback, "ROLLBACK")
	}
	// A trigger makes the DELETE add a row besides removing the selected ones.
	dqeAdds := dqe(pred, pred)
	dqeAdds.Setup = append(slices.Clip(dqeSetup), "CREATE TRIGGER tr AFTER DELETE ON t0 BEGIN INSERT INTO t0(c0, c1) VALUES (7, 'x'); END")
	pqs := func(pivot, where string) *fuzz.Case {
		return reproCase(setup, nil, RolePQSFetch, "SELECT c0, c1 FROM t0", RolePQSPivot, "SELECT "+pivot+" INTERSECT SELECT c0, c1 FROM t0",
			RolePQSContains, "SELECT "+pivot+" INTERSECT SELECT * FROM (SELECT c0, c1 FROM t0 WHERE "+where+")")
	}
	tests := []struct {
		name   string
		c      *fuzz.Case
		in     fuzz.ReproInfo
		env    []string
		status int
		output string // a line the script prints
	}{
		{"tlp-where holds", where, fuzz.ReproInfo{Oracle: "tlp-where", Kind: fuzz.KindWrongResult}, nil, 1,
			"the partitions give the 5 rows of the original query"},
		{"tlp-where: a partition drops a row", dropRow, fuzz.ReproInfo{Oracle: "tlp-where", Kind: fuzz.KindWrongResult}, nil, 0,
			"< 5|'A'"},
		{"tlp-where: a failed query cannot be judged", tlp("SELECT * FROM t0", "SELECT c9 FROM t0", "SELECT 1", "SELECT 1"),
			fuzz.ReproInfo{Oracle: "tlp-where", Kind: fuzz.KindWrongResult}, nil, 2, "did not answer every query"},
		{"tlp-distinct holds", distinct, fuzz.ReproInfo{Oracle: "tlp-distinct", Kind: fuzz.KindWrongResult}, nil, 1, ""},
		{"tlp-distinct: repeated rows", repeated, fuzz.ReproInfo{Oracle: "tlp-distinct", Kind: fuzz.KindWrongResult}, nil, 0,
			"returns repeated rows"},
		{"norec holds", norec("SELECT COUNT(*) FROM t0 WHERE " + pred), fuzz.ReproInfo{Oracle: "norec", Kind: fuzz.KindWrongResult},
			nil, 1, "counts 3 rows, the unoptimized query 3"},
		{"norec: the count differs", norec("SELECT COUNT(*) FROM t0 WHERE " + pred + " AND c1 <> 'A'"),
			fuzz.ReproInfo{Oracle: "norec", Kind: fuzz.KindWrongResult}, nil, 0, "counts 2 rows, the unoptimized query 3"},
		{"norec: fetched rows", norecRows, fuzz.ReproInfo{Oracle: "norec", Kind: fuzz.KindWrongResult}, nil, 1, ""},
		{"tlp-agg min holds", agg("MIN", "c1", "", ""), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult}, nil, 1, ""},
		{"tlp-agg max of text differs", agg("MAX", "c1", "SELECT 'z'", ""), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult},
			nil, 0, "is none of the partition values"},
		{"tlp-agg max of numbers holds", agg("MAX", "c0", "", ""), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult}, nil, 1, ""},
		{"tlp-agg sum holds", agg("SUM", "c0", "", ""), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult}, nil, 1,
			"together 10"},
		{"tlp-agg sum differs", agg("SUM", "c0", "", " AND c0 < 5"), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult},
			nil, 0, "together 5"},
		{"tlp-agg sum of floats is not judged", agg("SUM", "c0 / 4.0", "", ""), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult},
			nil, 2, "not whole"},
		{"tlp-agg count holds", agg("COUNT", "c0", "", ""), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult}, nil, 1, ""},
		{"tlp-agg avg holds", agg("AVG", "c0", "", ""), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult}, nil, 1, ""},
		{"tlp-agg avg differs", agg("AVG", "c0", "SELECT 7", ""), fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult}, nil, 0, ""},
		{"tlp-agg: a partition returns no row", agg("COUNT", "c0", "", " GROUP BY c1 HAVING 0"),
			fuzz.ReproInfo{Oracle: "tlp-agg", Kind: fuzz.KindWrongResult}, nil, 0, "agg.p returned 0 rows"},
		{"eet holds", eet(RoleEETOrig, RoleEETTrans, "SELECT c0, c1 FROM t0 WHERE", "NOT NOT "+pred),
			fuzz.ReproInfo{Oracle: "eet", Kind: fuzz.KindWrongResult}, nil, 1, "both return the same 3 rows"},
		{"eet: the rewritten query drops a row", eet(RoleEETOrig, RoleEETTrans, "SELECT c0, c1 FROM t0 WHERE", pred+" AND c1 <> 'A'"),
			fuzz.ReproInfo{Oracle: "eet", Kind: fuzz.KindWrongResult}, nil, 0, "< 5|'A'"},
		{"eet dml: the post-states differ", eet(RoleEETDMLPost, RoleEETDMLTPost, "SELECT c0, c1 FROM t0 WHERE", "c0 > 2"),
			fuzz.ReproInfo{Oracle: "eet", Kind: fuzz.KindWrongResult}, nil, 0, "the rewritten form returns other rows"},
		{"dqe holds", dqe(pred, pred), fuzz.ReproInfo{Oracle: "dqe", Kind: fuzz.KindWrongResult}, nil, 1,
			"the SELECT, the UPDATE and the DELETE touch the same 3 rows"},
		{"dqe: the UPDATE touches a row too few", dqe(pred+" AND c0 <> 5", pred), fuzz.ReproInfo{Oracle: "dqe", Kind: fuzz.KindWrongResult},
			nil, 0, "the UPDATE marked other rows"},
		{"dqe: the DELETE removes a row too many", dqe(pred, pred+" OR c0 IS NULL"), fuzz.ReproInfo{Oracle: "dqe", Kind: fuzz.KindWrongResult},
			nil, 0, "> NULL|'c'"},
		{"dqe: the DELETE adds a row", dqeAdds, fuzz.ReproInfo{Oracle: "dqe", Kind: fuzz.KindWrongResult}, nil, 0,
			"the DELETE added rows"},
		{"pqs holds", pqs("2, 'b'", "c0 > 1"), fuzz.ReproInfo{Oracle: "pqs", Kind: fuzz.KindWrongResult}, nil, 1, "fetches the pivot row"},
		{"pqs: the pivot row is missed", pqs("2, 'b'", "c0 > 2"), fuzz.ReproInfo{Oracle: "pqs", Kind: fuzz.KindWrongResult}, nil, 0,
			"misses the pivot row"},
		{"pqs: no pivot row", pqs("9, 'z'", "c0 > 1"), fuzz.ReproInfo{Oracle: "pqs", Kind: fuzz.KindWrongResult}, nil, 2,
			"the pivot row is not in the tables"},
		{"error message is back", missingColumn, fuzz.ReproInfo{Oracle: "error", Kind: fuzz.KindUnexpectedError,
			Actual: "SQLITE_ERROR: no such column: c9 (in the query)"}, nil, 0, "the error is back"},
		{"error message is gone", reproCase(setup, nil, "tlp.orig", "SELECT c0 FROM t0"), fuzz.ReproInfo{Oracle: "error",
			Kind: fuzz.KindUnexpectedError, Actual: "SQLITE_ERROR: no such column: c9 (in the query)"}, nil, 1, "no error"},
		{"hang", reproCase(nil, nil, "tlp.orig", "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r"),
			fuzz.ReproInfo{Oracle: "error", Kind: fuzz.KindHang, Timeout: time.Second}, nil, 0, "still running after its time limit"},
		{"no hang", where, fuzz.ReproInfo{Oracle: "error", Kind: fuzz.KindHang, Timeout: time.Second}, nil, 1, "finished in time"},
		{"a planted fault", where, fuzz.ReproInfo{Oracle: "tlp-where", Kind: fuzz.KindWrongResult, Fault: "drop-row:WHERE"}, nil, 2,
			"planted in sqlite (drop-row:WHERE)"},
		{"no sqlite3 shell", where, fuzz.ReproInfo{Oracle: "tlp-where", Kind: fuzz.KindWrongResult}, []string{"SQLITE3=/nonexistent/sqlite3"}, 2,
			"/nonexistent/sqlite3 not found"},
		{"an oracle without a judge", where, fuzz.ReproInfo{Oracle: "mystery", Kind: fuzz.KindWrongResult}, nil, 2, "no shell judge"},
		{"another version", where, fuzz.ReproInfo{Oracle: "tlp-where", Kind: fuzz.KindWrongResult,
			Targets: []fuzz.ReproTarget{{Name: "sqlite", Version: "0.0.1-none"}}}, nil, 1, "the finding was recorded on sqlite 0.0.1-none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Header = "title\nreplay: polyfuzz replay DIR"
			if tc.in.Targets == nil {
				tc.in.Targets = []fuzz.ReproTarget{{Name: "sqlite", Version: "3"}}
			}
			script := Format{Dialect: "sqlite"}.Repro(tc.c, tc.in)
			status, out := testenv.RunRepro(t, script, tc.env...)
			if status != tc.status || !strings.Contains(out, tc.output) || strings.Contains(out, "awk:") {
				t.Errorf("exit status %d, want %d, and output lacking %q?\n%s\n---- script:\n%s", status, tc.status, tc.output, out, script)
			}
		})
	}
	if strings.Contains(aggJudge, "'") {
		t.Error("the awk judge of aggregates holds a single quote, which ends it in the script")
	}
}

// TestReproDiffSQLite runs a cross-engine reproducer on two engines that are both the sqlite3
// shell, the second with LIKE made case-sensitive: they agree on a query without LIKE and
// disagree on one with it.
func TestReproDiffSQLite(t *testing.T) {
	testenv.NeedEngine(t, "sqlite3")
	sqlite, _ := exec.LookPath("sqlite3")
	wrapper := filepath.Join(t.TempDir(), "sqlite3-case-sensitive-like")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+sqlite+" -cmd 'PRAGMA case_sensitive_like = ON' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	setup := []string{"CREATE TABLE t0 (c0)", "INSERT INTO t0 VALUES ('a'), ('A'), (1.5), (NULL)"}
	tests := []struct {
		name   string
		query  string
		status int
	}{
		{"same rows", "SELECT * FROM t0 WHERE c0 IS NOT NULL", 1},
		{"other rows", "SELECT * FROM t0 WHERE c0 LIKE 'a'", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := reproCase(setup, nil, "tlp.orig", tc.query)
			in := fuzz.ReproInfo{Oracle: "diff", Kind: fuzz.KindWrongResult, Roles: []string{"tlp.orig"}, Blamed: []string{"duckdb"}}
			script := Format{Dialect: "sqlite", Engines: []string{"sqlite", "duckdb"}}.Repro(c, in)
			status, out := testenv.RunRepro(t, script, "DUCKDB="+wrapper)
			if status != tc.status {
				t.Errorf("exit status %d, want %d\n%s\n---- script:\n%s", status, tc.status, out, script)
			}
		})
	}
}

// recorded is what a reproducer needs of a recorded finding.json.
type recorded struct {
	Title   string    `json:"title"`
	Kind    fuzz.Kind `json:"kind"`
	Oracle  string    `json:"oracle"`
	Actual  string    `json:"actual"`
	Roles   []string  `json:"roles"`
	Gen     string    `json:"gen"`
	Targets []struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"targets"`
}

// loadRecorded reads a recorded finding directory: the reproducer's facts, its format and its
// reduced case.
func loadRecorded(t *testing.T, dir string) (fuzz.ReproInfo, Format, *fuzz.Case) {
	t.Helper()
	var r recorded
	c := &fuzz.Case{}
	for name, v := range map[string]any{"finding.json": &r, "reduced.json": c} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s/%s: %v", dir, name, err)
		}
	}
	in := fuzz.ReproInfo{Header: r.Title, Roles: r.Roles, Kind: r.Kind, Oracle: r.Oracle, Actual: r.Actual}
	f := Format{}
	if _, rest, ok := strings.Cut(r.Gen, "dialect="); ok {
		f.Dialect, _, _ = strings.Cut(rest, " ")
	}
	for _, tg := range r.Targets {
		in.Targets = append(in.Targets, fuzz.ReproTarget{Name: tg.Name, Version: tg.Version})
		f.Engines = append(f.Engines, tg.Name)
	}
	if fields := strings.Split(r.Title, ": "); len(fields) > 2 {
		in.Blamed = []string{fields[1]}
	}
	return in, f, c
}

// TestReproRecordedFindings runs the reproducers of the MariaDB wrong results recorded in
// testdata/sql-findings whose oracle repro.sh can judge against the test MariaDB server (10.11, where they were found): each must
// reproduce (exit 0), and, with the predicate the finding is about replaced by one the engine
// gets right, must not (exit 1).
func TestReproRecordedFindings(t *testing.T) {
	dsn := testenv.NeedDSN(t, "POLYFUZZ_MARIADB_DSN")
	testenv.NeedEngine(t, "mariadb")
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "sql-findings", "*"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, dir := range dirs {
		in, f, c := loadRecorded(t, dir)
		if in.Kind != fuzz.KindWrongResult || in.Oracle == "diff" || f.Dialect != "mysql" {
			continue // another engine, or a crash of the shared server
		}
		if j := sqlJudgeFor(c, in); j.why != "" {
			continue // repro.sh cannot judge it: polyfuzz replay does
		}
		ran++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			env := []string{"POLYFUZZ_MARIADB_DSN=" + dsn, "POLYFUZZ_MYSQL_DSN=" + strings.Replace(dsn, "mariadb://", "mysql://", 1)}
			status, out := testenv.RunRepro(t, f.Repro(c, in), env...)
			if status != 0 {
				t.Fatalf("the recorded finding does not reproduce: exit status %d\n%s", status, out)
			}
			// The same case with the predicate made constant: every partition and count agrees.
			fixed := c.Clone()
			pred := c.Params["pred"]
			if in.Oracle == OracleDQE {
				pred = c.Params[ParamDMLPred] // the predicate of the SELECT, the UPDATE and the DELETE
			}
			if pred == "" {
				t.Fatal("the case has no predicate")
			}
			for i, q := range fixed.Queries {
				fixed.Queries[i].Text = strings.ReplaceAll(q.Text, pred, "(1 = 1)")
			}
			status, out = testenv.RunRepro(t, f.Repro(fixed, in), env...)
			if status != 1 {
				t.Errorf("with the predicate made constant the reproducer exits %d, want 1\n%s", status, out)
			}
		})
	}
	if ran == 0 {
		t.Fatal("no recorded MariaDB wrong result found in testdata/sql-findings")
	}
}
