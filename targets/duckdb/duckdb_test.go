package duckdb

import (
	"context"
	"database/sql/driver"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
)

func TestCanonical(t *testing.T) {
	sqltest.CheckCanonical(t, Canonical, []sqltest.CanonicalCase[string, driver.Value]{
		{"INTEGER", int32(-5), "i:-5"},
		{"UBIGINT", uint64(18446744073709551615), "i:18446744073709551615"},
		{"HUGEINT", new(big.Int).Lsh(big.NewInt(1), 100), "i:1267650600228229401496703205376"},
		{"DECIMAL(4,3)", duckdb.Decimal{Width: 4, Scale: 3, Value: big.NewInt(1500)}, "d:1.5"},
		{"DECIMAL(4,3)", duckdb.Decimal{Width: 4, Scale: 3, Value: big.NewInt(-5)}, "d:-0.005"},
		{"DECIMAL(4,0)", duckdb.Decimal{Width: 4, Scale: 0, Value: big.NewInt(120)}, "d:120"},
		{"FLOAT", float32(0.1), "r:0.1"},
		{"DOUBLE", 0.1, "r:0.1"},
		{"BOOLEAN", true, "B:true"},
		{"VARCHAR", "héllo", "t:héllo"},
		{"BLOB", []byte{0, 255}, "b:00ff"},
		{"DATE", time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), "t:2024-01-02"},
		{"TIMESTAMP", time.Date(2024, 1, 2, 3, 4, 5, 6000, time.UTC), "t:2024-01-02 03:04:05.000006"},
		{"INTEGER[]", []any{int32(1), nil}, "t:[1, NULL]"},
		{"STRUCT(a INTEGER)", map[string]any{"a": int32(1)}, "t:{'a': 1}"},
		{"INTEGER", nil, "NULL"},
	})
}

// open opens a target and closes it when t ends.
func open(t testing.TB, opts Options) *Target {
	t.Helper()
	return sqltest.Open(t, func(context.Context) (*Target, error) { return Open(opts) })
}

func TestExec(t *testing.T) {
	tg := open(t, Options{})
	if v := tg.Version(); !strings.HasPrefix(v, "v1.") {
		t.Errorf("Version() = %q", v)
	}
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT PRIMARY KEY, c1 VARCHAR)", "INSERT INTO t0 VALUES (1, 'a'), (2, NULL)")
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{
		{"literals", `SELECT 1 AS a, 1.50 AS b, 0.1::DOUBLE AS c, 0.1::FLOAT AS d, 'a' AS e, true AS f, NULL AS g,
			'\x00\xFF'::BLOB AS h, 2.000 AS i, 170141183460469231731687303715884105727::HUGEINT AS j, DATE '2024-01-02' AS k,
			[1, 2] AS l, -0.0::DOUBLE AS m, 'NaN'::DOUBLE AS n, 255::UTINYINT AS o`,
			sqltest.OK([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o"},
				[]string{"i:1", "d:1.5", "r:0.1", "r:0.1", "t:a", "B:true", "NULL", "b:00ff", "d:2",
					"i:170141183460469231731687303715884105727", "t:2024-01-02", "t:[1, 2]", "r:-0", "r:NaN", "i:255"})},
		{"rows", "SELECT * FROM t0 ORDER BY c0", sqltest.OK([]string{"c0", "c1"}, []string{"i:1", "t:a"}, []string{"i:2", "NULL"})},
		{"no rows", "SELECT c0 FROM t0 WHERE false", sqltest.OK([]string{"c0"})},
		{"out of range", "SELECT 127::TINYINT + 1::TINYINT", sqltest.EngineErr("Out of Range", "Overflow in addition of INT8 (127 + 1)!")},
		{"constraint", "INSERT INTO t0 VALUES (1, 'b')", sqltest.EngineErr("Constraint",
			`Duplicate key "c0: 1" violates primary key constraint.`)},
		{"after error", "SELECT count(*) AS n FROM t0", sqltest.OK([]string{"n"}, []string{"i:2"})},
	})
	// Binder, catalog and conversion errors carry more lines of context; the code and the first line are stable.
	codes := []struct{ stmt, code, first string }{
		{"SELECT * FROM nope", "Catalog", "Table with name nope does not exist!"},
		{"SELECT nope FROM t0", "Binder", `Referenced column "nope" not found in FROM clause!`},
		{"SELEC 1", "Parser", `syntax error at or near "SELEC"`},
		{"SELECT 'abc'::INT", "Conversion", `Could not convert string 'abc' to INT32`},
	}
	for _, c := range codes {
		got, err := tg.Exec(context.Background(), c.stmt)
		if err != nil || got.Status != fuzz.StatusEngineError || got.Code != c.code || !strings.HasPrefix(got.Err, c.first) {
			t.Errorf("Exec(%q) = %+v %v, want a %s error starting %q", c.stmt, got, err, c.code, c.first)
		}
	}
}

func TestTimeout(t *testing.T) {
	sqltest.CheckTimeouts(t, open(t, Options{Timeout: 200 * time.Millisecond}), "SELECT 1", []sqltest.TimeoutCase{
		{"endless", "", "SELECT count(*) FROM range(100000000) a, range(100000000) b WHERE a.range + b.range = -1", 2 * time.Second},
	})
}

func TestTouchesSession(t *testing.T) {
	tests := []struct {
		stmt string
		want bool
	}{
		{"SELECT 1", false},
		{"  (SELECT 1) UNION (SELECT 2)", false},
		{"CREATE TABLE t0(c0 INT)", false},
		{"create view v0 as select 1", false},
		{"INSERT INTO t0 VALUES (1); UPDATE t0 SET c0 = 2", false},
		{"", false},
		{"SET threads = 1", true},
		{"select 1; pragma enable_profiling", true},
		{"CREATE TEMP TABLE t(c0 INT)", true},
		{"CREATE TEMPORARY MACRO m(x) AS x", true},
		{"ATTACH ':memory:' AS x", true},
		{"USE x", true},
		{"-- comment\nSELECT 1", true},
		{"RESET threads", true},
		{"LOAD icu", true},
	}
	for _, tc := range tests {
		if got := TouchesSession(tc.stmt); got != tc.want {
			t.Errorf("TouchesSession(%q) = %v, want %v", tc.stmt, got, tc.want)
		}
	}
}

func TestReset(t *testing.T) {
	tests := []struct {
		name  string
		setup []string
		after []string // statements that must fail with a Catalog error after Reset
		same  string   // a query that must answer as on a new target
	}{
		{"swap", []string{"CREATE TABLE t0(c0 INT)", "CREATE VIEW v0 AS SELECT 1", "CREATE SEQUENCE s0",
			"CREATE MACRO m0(x) AS x + 1", "CREATE TYPE e0 AS ENUM ('a')", "INSERT INTO t0 VALUES (1)"},
			[]string{"SELECT * FROM t0", "SELECT * FROM v0", "SELECT nextval('s0')", "SELECT m0(1)", "SELECT 'a'::e0"},
			"SELECT current_database() AS d, (SELECT count(*) FROM duckdb_tables()) AS n"},
		{"new instance", []string{"CREATE TABLE t0(c0 INT)", "CREATE TEMP TABLE tmp(c0 INT)", "SET threads = 2",
			"CREATE TEMP MACRO m1(x) AS x"},
			[]string{"SELECT * FROM t0", "SELECT * FROM tmp", "SELECT m1(1)"},
			"SELECT current_setting('threads') AS t"},
		{"open transaction", []string{"BEGIN", "CREATE TABLE t0(c0 INT)"}, []string{"SELECT * FROM t0"},
			"SELECT current_database() AS d"},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fresh := open(t, Options{Threads: 1})
			want, err := fresh.Exec(ctx, tc.same)
			if err != nil || want.Status != fuzz.StatusOK {
				t.Fatal(want, err)
			}
			tg := open(t, Options{Threads: 1})
			sqltest.MustExec(t, tg, tc.setup...)
			if err := tg.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.after {
				if r, err := tg.Exec(ctx, s); err != nil || r.Status != fuzz.StatusEngineError || r.Code != "Catalog" {
					t.Errorf("after Reset, %s: %+v %v, want a Catalog error", s, r, err)
				}
			}
			if got, err := tg.Exec(ctx, tc.same); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("after Reset, %s = %+v %v, want %+v", tc.same, got, err, want)
			}
		})
	}
}

func TestClosed(t *testing.T) {
	sqltest.CheckClosed(t, open(t, Options{}), errClosed)
}

func BenchmarkExec(b *testing.B) {
	sqltest.BenchExec(b, open(b, Options{Threads: 1}),
		"CREATE TABLE t0(c0 INT, c1 VARCHAR)", "INSERT INTO t0 SELECT range, 'v' || range FROM range(1, 11)")
}

// BenchmarkReset compares Reset's two ways: swapping the default database (after statements that
// leave the session alone) and opening a new instance.
func BenchmarkReset(b *testing.B) {
	for _, c := range []struct{ name, extra string }{
		{"swap-database", "SELECT 1"},
		{"new-instance", "SET threads = 1"},
	} {
		b.Run(c.name, func(b *testing.B) {
			sqltest.BenchReset(b, open(b, Options{Threads: 1}), "CREATE TABLE t0(c0 INT)", "CREATE TABLE t1(c0 INT)", c.extra)
		})
	}
}

// TestErrorOf reads messages of DuckDB's C API as the Go binding does: the type the prefix names,
// under its own name or another one, and Invalid when the prefix names none.
func TestErrorOf(t *testing.T) {
	tests := []struct{ msg, code, rest string }{
		{"Binder Error: column x", "Binder", "column x"},
		{"Out of Range Error: Overflow", "Out of Range", "Overflow"},
		{"Invalid Input Error: boom", "Invalid Input", "boom"},
		{"Not implemented Error: x", "Not Implemented", "x"},
		{"INTERNAL Error: x", "Internal", "x"},
		{"FATAL Error: x", "Fatal", "x"},
		{"TransactionContext Error: x", "Transaction", "x"},
		{"Error: x", "Unknown Type", "Error: x"}, // ErrorCode strips "<type> Error: " only
		{"no prefix: x", "Invalid", "no prefix: x"},
	}
	for _, tc := range tests {
		code, rest := ErrorCode(ErrorOf(tc.msg))
		if code != tc.code || rest != tc.rest {
			t.Errorf("ErrorCode(ErrorOf(%q)) = %q, %q; want %q, %q", tc.msg, code, rest, tc.code, tc.rest)
		}
	}
}
