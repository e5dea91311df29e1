// Package sqlexec holds what the SQL targets share in running one statement: the context it runs
// under, the result of a statement that ran over its timeout, and reading the rows of a
// database/sql/driver result into canonical values (for the targets that drive their driver's
// connection directly, duckdb and mysql). It imports only fuzz and the standard library.
package sqlexec

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Context returns the context a statement runs under: ctx with a deadline timeout+slack from now,
// or, when timeout is 0 (no timeout), ctx itself with a cancel that does nothing.
func Context(ctx context.Context, timeout, slack time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, timeout+slack)
}

// Timeout is the result of a statement that ran over timeout; detail, when not empty, says more.
func Timeout(timeout time.Duration, detail string) *fuzz.Result {
	msg := fmt.Sprintf("statement ran over %s", timeout)
	if detail != "" {
		msg += ": " + detail
	}
	return &fuzz.Result{Status: fuzz.StatusTimeout, Err: msg}
}

// Reader reads driver rows into results, keeping its buffers from one statement to the next. The
// zero value is ready to use; a Reader is used by one goroutine.
type Reader struct {
	vals  []driver.Value
	types []string
}

// Read reads all of rs's rows into a result with status OK and rs's columns (nil when it has
// none), printing each value with canonical, which gets the column's database type name (empty
// when the driver does not tell it). It does not close rs.
func (r *Reader) Read(rs driver.Rows, canonical func(typeName string, v driver.Value) string) (*fuzz.Result, error) {
	cols := rs.Columns()
	res := &fuzz.Result{Status: fuzz.StatusOK}
	if len(cols) > 0 {
		res.Columns = append([]string(nil), cols...)
	}
	r.types = r.types[:0]
	tn, _ := rs.(driver.RowsColumnTypeDatabaseTypeName)
	for i := range cols {
		name := ""
		if tn != nil {
			name = tn.ColumnTypeDatabaseTypeName(i)
		}
		r.types = append(r.types, name)
	}
	if cap(r.vals) < len(cols) {
		r.vals = make([]driver.Value, len(cols))
	}
	vals := r.vals[:len(cols)]
	for {
		if err := rs.Next(vals); err != nil {
			if err == io.EOF {
				return res, nil
			}
			return nil, err
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = canonical(r.types[i], v)
		}
		res.Rows = append(res.Rows, row)
	}
}
