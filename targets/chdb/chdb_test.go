package chdb

import (
	"context"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
	"github.com/polyfuzz/polyfuzz/targets/rowserver/rowservertest"
)

// testSettings are owned settings the tests check are applied at start and after Reset.
var testSettings = []string{"SET join_use_nulls = 1", "SET default_table_engine = 'MergeTree'", "SET create_table_empty_primary_key_by_default = 1"}

// open opens a target, skipping t (failing it in CI) when chdb is missing.
func open(t *testing.T, timeout time.Duration) *Target {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "chdb")
	return sqltest.Open(t, func(context.Context) (*Target, error) {
		return Open(Options{Timeout: timeout, Settings: testSettings})
	})
}

// TestValues checks the canonical form of each type ClickHouse answers with.
func TestValues(t *testing.T) {
	tg := open(t, 10*time.Second)
	if !strings.HasPrefix(tg.Version(), "26.") || tg.ChdbVersion() == "" {
		t.Errorf("Version, ChdbVersion = %q, %q; want ClickHouse 26.x and chdb's version", tg.Version(), tg.ChdbVersion())
	}
	rowservertest.CheckValues(t, tg, []rowservertest.ValueCase{
		{"NULL", "NULL"}, {"CAST(NULL AS Nullable(Int32))", "NULL"}, {"TRUE", "B:true"}, {"CAST(0 AS Bool)", "B:false"},
		{"1 = 1", "i:1"}, {"toInt8(-128)", "i:-128"}, {"toUInt64(18446744073709551615)", "i:18446744073709551615"},
		{"toInt128('-170141183460469231731687303715884105728')", "i:-170141183460469231731687303715884105728"},
		{"toInt32(2147483647) + toInt32(1)", "i:2147483648"},           // Int32 + Int32 is Int64
		{"toInt64(9223372036854775807) + 1", "i:-9223372036854775808"}, // wraps
		{"CAST('1.50' AS Decimal(10,2))", "d:1.5"}, {"CAST('-0.0001' AS Decimal(18,4))", "d:-0.0001"},
		{"CAST('0' AS Nullable(Decimal(18,4)))", "d:0"}, {"CAST('99999999.99' AS Decimal(10,2)) * 2", "d:199999999.98"},
		{"0.1", "r:0.1"}, {"toFloat32(0.1)", "r:0.1"}, {"toFloat32(16777217)", "r:1.6777216e+07"},
		{"1e300 * 10", "r:1e+301"}, {"-0.0", "r:-0"}, {"toFloat32(-0.0)", "r:-0"}, {"CAST('nan' AS Float64)", "r:NaN"},
		{"-CAST('nan' AS Float64)", "r:NaN"}, {"CAST('inf' AS Float64)", "r:+Inf"}, {"-CAST('inf' AS Float32)", "r:-Inf"},
		{"5e-324", "r:5e-324"}, {"1 / 3", "r:0.3333333333333333"},
		{"''", "t:"}, {"'a'", "t:a"}, {"'tab\\there'", "t:tab\there"}, {"'line\\nbreak\\\\'", "t:line\nbreak\\"},
		{"'\\\\N'", "t:\\N"}, {"'a\\0b'", "t:a\x00b"}, {"'é'", "t:é"}, {"toFixedString('ab', 3)", "t:ab\x00"},
		{"'a' || NULL", "NULL"}, {"toDate('2020-01-31')", "t:2020-01-31"}, {"[1, 2, NULL]", "t:[1,2,NULL]"},
	})
}

func TestStatementsAndErrors(t *testing.T) {
	tg := open(t, 10*time.Second)
	ok := sqltest.OK(nil)
	rowservertest.CheckStatements(t, tg, []rowservertest.StmtCase{
		{"CREATE TABLE t0 (c0 Nullable(Int32), c1 Nullable(Float64), c2 Nullable(String))", ok}, // MergeTree (owned setting)
		{"INSERT INTO t0 (c0, c1, c2) VALUES (1, 0.5, 'a'), (NULL, 0.1, NULL)", ok},
		{"SELECT engine FROM system.tables WHERE database = currentDatabase()", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"t:MergeTree"}}}},
		{"SELECT c0, c1, c2 FROM t0 ORDER BY c0 NULLS FIRST", &fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"NULL", "r:0.1", "NULL"}, {"i:1", "r:0.5", "t:a"}}}},
		{"SELECT c0 FROM t0 WHERE 0", ok},
		// join_use_nulls = 1 (owned): the unmatched side is NULL, not the type's default.
		{"SELECT a.c0, b.c0 FROM t0 AS a LEFT JOIN t0 AS b ON a.c0 = b.c0 + 1 ORDER BY a.c0", &fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"i:1", "NULL"}, {"NULL", "NULL"}}}},
		{"ALTER TABLE t0 UPDATE c2 = 'b' WHERE c0 = 1", ok},
		{"ALTER TABLE t0 DELETE WHERE c0 IS NULL", ok},
		{"SELECT c2 FROM t0", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"t:b"}}}},
		{"SET join_use_nulls = 0", ok},
		{"SELECT x FROM t0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "UNKNOWN_IDENTIFIER"}},
		{"SELECT intDiv(c0, 0) FROM t0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "ILLEGAL_DIVISION"}},
		{"SELECT c2 + 1 FROM t0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "ILLEGAL_TYPE_OF_ARGUMENT"}},
		{"SELECT intDiv(c0, 0) FROM t0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "ILLEGAL_DIVISION"}},
		// A statement after one that failed while it ran gets its own rows only.
		{"SELECT 5", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:5"}}}},
		{"SELECT CAST('x' AS Int32)", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "CANNOT_PARSE_TEXT"}},
		{"SET mutations_sync = 0", ok},
		{"SELEC 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SYNTAX_ERROR"}},
		// The message loses its "Code: N. DB::Exception: " prefix and its "(NAME)" suffix.
		{"SELECT * FROM nosuch", sqltest.EngineErr("UNKNOWN_TABLE", "Unknown table expression identifier 'nosuch'. In scope SELECT * FROM nosuch.")},
	})
	// Reset drops the database and restores the settings in the running process.
	rowservertest.CheckReset(t, tg, "SELECT * FROM t0", "UNKNOWN_TABLE")
	res, _ := tg.Exec(context.Background(), "SELECT getSetting('join_use_nulls'), getSetting('mutations_sync')")
	if want := sqltest.OK(nil, []string{"B:true", "i:1"}); !reflect.DeepEqual(res, want) {
		t.Errorf("after Reset the settings are %+v; want %+v (owned setting back, others default)", res, want)
	}
}

// TestTimeout runs a statement past the timeout: it is a timeout, and the target goes on in a new
// process.
func TestTimeout(t *testing.T) {
	tg := open(t, time.Second)
	rowservertest.CheckTimeout(t, tg, "SELECT 42", sqltest.TimeoutCase{Name: "numbers",
		Stmt: "SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) = 1", Max: 10 * time.Second}, true)
}

// TestCrashIsAResult kills the Python process in the middle of a statement, as an abort in
// ClickHouse would: the statement is a crash, and the target goes on after Reset, with its owned
// settings applied in the new process. (SIGKILL, not SIGSEGV: ClickHouse's own handler catches
// SIGSEGV and the process then hangs, which the timeout turns into a hang finding.)
func TestCrashIsAResult(t *testing.T) {
	tg := open(t, 20*time.Second)
	rowservertest.CheckCrash(t, tg, rowservertest.Crash{Signal: syscall.SIGKILL, Setup: []string{"CREATE TABLE t0 (c0 Int32)"},
		Slow: "SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) = 1"})
	if res, _ := tg.Exec(context.Background(), "SELECT getSetting('join_use_nulls')"); !reflect.DeepEqual(res, sqltest.OK(nil, []string{"B:true"})) {
		t.Errorf("the new process did not apply the owned settings: %+v", res)
	}
}

// TestMissingModule opens the target with an interpreter that lacks chdb: the error names the
// fix.
func TestMissingModule(t *testing.T) {
	rowservertest.CheckMissingModule(t, func(python string) error {
		tg, err := Open(Options{Python: python})
		if err == nil {
			tg.Close()
		}
		return err
	}, "chdb", Fix)
}
