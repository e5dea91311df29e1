package sqlgen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// sqliteCodeNames maps SQLite (extended) result codes to their names, as the SQLite target reports
// them.
var sqliteCodeNames = map[int]string{
	1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT", 5: "SQLITE_BUSY",
	6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
	10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL",
	14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA",
	18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
	22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT", 25: "SQLITE_RANGE",
	26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE", 28: "SQLITE_WARNING",
	257: "SQLITE_ERROR_MISSING_COLLSEQ", 513: "SQLITE_ERROR_RETRY", 769: "SQLITE_ERROR_SNAPSHOT",
	516: "SQLITE_ABORT_ROLLBACK", 267: "SQLITE_CORRUPT_VTAB", 523: "SQLITE_CORRUPT_SEQUENCE",
	779: "SQLITE_CORRUPT_INDEX",
	275: "SQLITE_CONSTRAINT_CHECK", 531: "SQLITE_CONSTRAINT_COMMITHOOK",
	787: "SQLITE_CONSTRAINT_FOREIGNKEY", 1043: "SQLITE_CONSTRAINT_FUNCTION",
	1299: "SQLITE_CONSTRAINT_NOTNULL", 1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
	1811: "SQLITE_CONSTRAINT_TRIGGER", 2067: "SQLITE_CONSTRAINT_UNIQUE",
	2323: "SQLITE_CONSTRAINT_VTAB", 2579: "SQLITE_CONSTRAINT_ROWID",
	2835: "SQLITE_CONSTRAINT_PINNED", 3091: "SQLITE_CONSTRAINT_DATATYPE",
}

func sqliteCodeName(ext int) string {
	if n, ok := sqliteCodeNames[ext]; ok {
		return n
	}
	if n, ok := sqliteCodeNames[ext&0xff]; ok {
		return n
	}
	return "SQLITE_" + strconv.Itoa(ext)
}

// sqlResult is one statement's outcome on SQLite.
type sqlResult struct {
	rows      [][]string
	code, msg string // set on error
}

func (r *sqlResult) failed() bool { return r.code != "" }

func splitErr(err error) (string, string) {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return sqliteCodeName(int(se.ExtendedCode)), se.Error()
	}
	return "GO", err.Error()
}

func canon(v any) string {
	switch x := v.(type) {
	case nil:
		return fuzz.Null
	case int64:
		return fuzz.Int(x)
	case float64:
		return fuzz.Float(x)
	case string:
		return fuzz.Text(x)
	case []byte:
		return fuzz.Bytes(x)
	case bool:
		return fuzz.Bool(x)
	}
	return fmt.Sprintf("?%T:%v", v, v)
}

// sqliteDB is one in-memory database on one connection.
type sqliteDB struct {
	db   *sql.DB
	conn *sql.Conn
}

func openSQLite(t testing.TB) *sqliteDB {
	t.Helper()
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &sqliteDB{db: db, conn: conn}
}

func (s *sqliteDB) close() { s.conn.Close(); s.db.Close() }

func (s *sqliteDB) run(stmt string) *sqlResult {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rows, err := s.conn.QueryContext(ctx, stmt)
	if err != nil {
		code, msg := splitErr(err)
		return &sqlResult{code: code, msg: msg}
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	res := &sqlResult{}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			code, msg := splitErr(err)
			return &sqlResult{code: code, msg: msg}
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = canon(v)
		}
		res.rows = append(res.rows, row)
	}
	if err := rows.Err(); err != nil {
		code, msg := splitErr(err)
		return &sqlResult{code: code, msg: msg}
	}
	return res
}

// trialStats collects what a run of generated cases did on SQLite.
type trialStats struct {
	setupOK, setupN int
	queryOK, queryN int
	checks          int
	unexpected      map[string][]string // "scope code msg" -> example statements
	errors          map[string]int      // every error, by "scope code msg" with literals stripped
	mismatches      []string
}

func (st *trialStats) addErr(scope string, res *sqlResult, stmt string, expected func(string, string, string) bool) {
	key := scope + " " + res.code + " " + fuzz.StripLiterals(res.msg)
	st.errors[key]++
	if !expected(scope, res.code, res.msg) {
		if len(st.unexpected[key]) < 3 {
			st.unexpected[key] = append(st.unexpected[key], stmt)
		}
	}
}

// runTrial generates n cases from a campaign seed and runs them on SQLite, checking the NoREC and
// TLP relations on every case whose queries all answered.
func runTrial(t testing.TB, g *Generator, campaign uint64, n int) *trialStats {
	t.Helper()
	expected, err := Expected("sqlite")
	if err != nil {
		t.Fatal(err)
	}
	st := &trialStats{unexpected: map[string][]string{}, errors: map[string]int{}}
	per := g.CasesPerSetup()
	var db *sqliteDB
	defer func() {
		if db != nil {
			db.close()
		}
	}()
	for i := 0; i < n; i++ {
		seed := fuzz.CaseSeed(campaign, uint64(i), per)
		c, err := g.Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		if i%per == 0 {
			if db != nil {
				db.close()
			}
			db = openSQLite(t)
			for _, s := range c.Setup {
				res := db.run(s)
				st.setupN++
				if res.failed() {
					st.addErr(ScopeSetup, res, s, expected)
				} else {
					st.setupOK++
				}
			}
		}
		results := map[string]*sqlResult{}
		ok := true
		for _, q := range c.Queries {
			res := db.run(q.Text)
			st.queryN++
			results[q.Role] = res
			if res.failed() {
				ok = false
				st.addErr(ScopeQuery, res, q.Text, expected)
			} else {
				st.queryOK++
			}
		}
		if !ok {
			continue
		}
		if msg := checkRelations(results); msg != "" {
			st.mismatches = append(st.mismatches, fmt.Sprintf("seed %#x: %s\n%s", seed, msg, caseSQL(c)))
		}
		st.checks++
	}
	return st
}

func caseSQL(c *fuzz.Case) string {
	return string(Format{Dialect: "sqlite"}.CaseText(c, nil))
}

// checkRelations returns "" when the NoREC counts and TLP multisets of one case agree.
func checkRelations(res map[string]*sqlResult) string {
	var msgs []string
	if u, ok := res[RoleNoRECUnopt]; ok {
		want, ok := fuzz.Count(u.rows[0][0])
		if !ok {
			return "bad unopt count " + u.rows[0][0]
		}
		var got int64
		if r, ok := res[RoleNoRECOptCount]; ok {
			got, _ = fuzz.Count(r.rows[0][0])
		} else {
			got = int64(len(res[RoleNoRECOptRows].rows))
		}
		if got != want {
			msgs = append(msgs, fmt.Sprintf("norec: optimized %d, unoptimized %d", got, want))
		}
	}
	if o, ok := res[RoleTLPOrig]; ok {
		whole := multiset(o.rows)
		var parts []string
		for _, r := range []string{RoleTLPP, RoleTLPNotP, RoleTLPNull} {
			parts = append(parts, multiset(res[r].rows)...)
		}
		sort.Strings(parts)
		if !slices.Equal(whole, parts) {
			msgs = append(msgs, fmt.Sprintf("tlp: %d rows, partitions give %d", len(whole), len(parts)))
		}
	}
	return strings.Join(msgs, "; ")
}

func multiset(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, "\x1f")
	}
	sort.Strings(out)
	return out
}

func (st *trialStats) report(t testing.TB) {
	t.Logf("setup statements: %d/%d valid (%.3f)", st.setupOK, st.setupN, float64(st.setupOK)/float64(st.setupN))
	t.Logf("queries: %d/%d valid (%.3f); %d cases checked", st.queryOK, st.queryN, float64(st.queryOK)/float64(st.queryN), st.checks)
}

// TestSQLite runs generated cases on SQLite (mattn/go-sqlite3, in memory): the shares of setup
// statements and queries SQLite accepts must exceed 0.90, no error may be unexpected, and the
// NoREC counts and TLP multisets must agree (plain SQLite has no known bug they would show).
// POLYFUZZ_SQLGEN_SOAK=n runs n cases instead of 2,000, for hunting false positives.
func TestSQLite(t *testing.T) {
	n, per := 2000, 20
	if s := os.Getenv("POLYFUZZ_SQLGEN_SOAK"); s != "" {
		n, _ = strconv.Atoi(s)
		per = 5
	} else if testing.Short() {
		n = 300
	}
	for k, o := range []Options{{QueriesPerDB: per}, {QueriesPerDB: per, MaxDepth: 5, MaxFrom: 4, MaxTables: 4}} {
		t.Run(o.String(), func(t *testing.T) {
			g := mustNew(t, o)
			st := runTrial(t, g, 2026+uint64(k), n)
			st.report(t)
			if r := float64(st.setupOK) / float64(st.setupN); r <= 0.90 {
				t.Errorf("setup validity %.3f <= 0.90", r)
			}
			if r := float64(st.queryOK) / float64(st.queryN); r <= 0.90 {
				t.Errorf("query validity %.3f <= 0.90", r)
			}
			for k, ex := range st.unexpected {
				t.Errorf("unexpected error %s, e.g.\n  %s", k, strings.Join(ex, "\n  "))
			}
			for i, m := range st.mismatches {
				if i < 3 {
					t.Errorf("oracle mismatch on plain SQLite: %s", m)
				}
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

// runCaseSQLite runs a case on a fresh SQLite database and returns the query results by role, or
// nil when a query failed.
func runCaseSQLite(t testing.TB, c *fuzz.Case) map[string]*sqlResult {
	db := openSQLite(t)
	defer db.close()
	for _, s := range c.Setup {
		db.run(s)
	}
	res := map[string]*sqlResult{}
	for _, q := range c.Queries {
		r := db.run(q.Text)
		if r.failed() {
			return nil
		}
		res[q.Role] = r
	}
	return res
}

// TestReducerSQLite reduces cases against real SQLite with a keep that stands in for a bug: every
// query runs, tlp.p returns rows, and the predicate still holds a LIKE or GLOB. The reduced cases
// must still run and be small.
func TestReducerSQLite(t *testing.T) {
	g := mustNew(t, Options{QueriesPerDB: 1})
	keep := func(c *fuzz.Case) bool {
		if p := c.Params[ParamPred]; !strings.Contains(p, " LIKE ") && !strings.Contains(p, " GLOB ") {
			return false
		}
		res := runCaseSQLite(t, c)
		return res != nil && res[RoleTLPP] != nil && len(res[RoleTLPP].rows) > 0
	}
	done := 0
	for i := 0; done < 3 && i < 2000; i++ {
		c, _ := g.Generate(fuzz.CaseSeed(31, uint64(i), 1))
		if len(c.Setup) < 15 || !keep(c) {
			continue
		}
		done++
		calls := 0
		r, err := NewReducer().Reduce(context.Background(), c, func(_ context.Context, x *fuzz.Case) bool {
			calls++
			return keep(x)
		})
		if err != nil {
			t.Fatal(err)
		}
		if !keep(r) {
			t.Fatalf("the reduced case does not keep:\n%s", caseSQL(r))
		}
		if len(r.Setup) > 4 || len(r.Params[ParamPred]) > 60 {
			t.Errorf("case not reduced well (%d -> %d statements, %d keep calls):\n%s", len(c.Setup), len(r.Setup), calls, caseSQL(r))
		}
		t.Logf("%d -> %d statements in %d keep calls:\n%s", len(c.Setup), len(r.Setup), calls, caseSQL(r))
	}
	if done == 0 {
		t.Fatal("no case to reduce")
	}
}
