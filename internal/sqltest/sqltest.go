// Package sqltest holds what the SQL targets' tests share: opening a target for a test, running
// statements that must succeed, the expected results, table-driven checks of canonical values, of
// Exec's results, of timeouts and of a closed target, and the benchmarks of Exec and Reset. Each
// target's test calls them with its own tables. It imports only fuzz and the standard library.
package sqltest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Open opens a target with open, given 30 seconds, fails t if it cannot, and closes the target
// when t ends.
func Open[T fuzz.Target](t testing.TB, open func(ctx context.Context) (T, error)) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tg, err := open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

// MustExec runs stmts on tg in order and fails t at the first that does not answer OK.
func MustExec(t testing.TB, tg fuzz.Target, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		r, err := tg.Exec(context.Background(), s)
		if err != nil || r.Status != fuzz.StatusOK {
			t.Fatalf("%s: %v %+v", s, err, r)
		}
	}
}

// OK is the result of a statement that answers the columns cols (nil for none) and rows.
func OK(cols []string, rows ...[]string) *fuzz.Result {
	return &fuzz.Result{Status: fuzz.StatusOK, Columns: cols, Rows: rows}
}

// EngineErr is the result of a statement the engine rejects with code and msg.
func EngineErr(code, msg string) *fuzz.Result {
	return &fuzz.Result{Status: fuzz.StatusEngineError, Code: code, Err: msg}
}

// The case types are aliases of unnamed structs, so that a target's table may list their fields
// in order, as tables do.

// CanonicalCase is a value as a driver hands it over (In), the type of its column (Type) and its
// canonical form (Want).
type CanonicalCase[T, V any] = struct {
	Type T
	In   V
	Want string
}

// CheckCanonical checks that canonical prints each case's value as it wants.
func CheckCanonical[T, V any](t *testing.T, canonical func(T, V) string, tests []CanonicalCase[T, V]) {
	t.Helper()
	for _, tc := range tests {
		if got := canonical(tc.Type, tc.In); got != tc.Want {
			t.Errorf("Canonical(%v, %s) = %q, want %q", tc.Type, show(tc.In), got, tc.Want)
		}
	}
}

// show prints a driver's value for a message, bytes as a quoted string.
func show(v any) string {
	if b, ok := v.([]byte); ok {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%v", v)
}

// ExecCase is a statement and the result it must give.
type ExecCase = struct {
	Name string
	Stmt string
	Want *fuzz.Result
}

// CheckExec runs each case's statement on tg in order, in a subtest named after it, and checks
// its result.
func CheckExec(t *testing.T, tg fuzz.Target, tests []ExecCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.Name, func(t *testing.T) {
			got, err := tg.Exec(context.Background(), tc.Stmt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.Want) {
				t.Fatalf("Exec(%q)\n got %+v\nwant %+v", tc.Stmt, got, tc.Want)
			}
		})
	}
}

// TimeoutCase is a statement that runs over the target's timeout, after the statement Setup (if
// any), and how long the target may take to answer it with a timeout.
type TimeoutCase = struct {
	Name  string
	Setup string
	Stmt  string
	Max   time.Duration
}

// CheckTimeouts runs each case on tg, which has a timeout, in a subtest named after it: the
// statement must answer fuzz.StatusTimeout within Max, and then the statement then must succeed.
func CheckTimeouts(t *testing.T, tg fuzz.Target, then string, tests []TimeoutCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Setup != "" {
				MustExec(t, tg, tc.Setup)
			}
			start := time.Now()
			r, err := tg.Exec(context.Background(), tc.Stmt)
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); r.Status != fuzz.StatusTimeout || took > tc.Max {
				t.Fatalf("%s gave %+v after %s, want a timeout within %s", tc.Stmt, r, took, tc.Max)
			}
			t.Log(r.Err)
			MustExec(t, tg, then)
		})
	}
}

// CheckClosed closes tg and checks that Exec then fails with errClosed.
func CheckClosed(t *testing.T, tg fuzz.Target, errClosed error) {
	t.Helper()
	tg.Close()
	if _, err := tg.Exec(context.Background(), "SELECT 1"); !errors.Is(err, errClosed) {
		t.Fatalf("Exec after Close: %v", err)
	}
}

// BenchExec measures Exec of a query that answers five of the ten rows of t0(c0 INT, c1 text),
// which setup creates and fills with 1..10.
func BenchExec(b *testing.B, tg fuzz.Target, setup ...string) {
	MustExec(b, tg, setup...)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := tg.Exec(ctx, "SELECT c0, c1 FROM t0 WHERE c0 > 5")
		if err != nil || len(r.Rows) != 5 {
			b.Fatal(err, r)
		}
	}
}

// BenchReset measures running stmts and resetting tg.
func BenchReset(b *testing.B, tg fuzz.Target, stmts ...string) {
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		MustExec(b, tg, stmts...)
		if err := tg.Reset(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
