package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Options configure a SQLite target. The zero value is an in-memory database with no timeout.
type Options struct {
	// Path is the database file; empty means a private in-memory database.
	Path string
	// Timeout bounds each statement; 0 means none. A statement over it is interrupted and
	// answered with fuzz.StatusTimeout.
	Timeout time.Duration
}

// Target is an embedded SQLite database.
type Target struct {
	opts Options
	conn *sqlite3.SQLiteConn
	vals []driver.Value
}

// Open opens a SQLite target.
func Open(opts Options) (*Target, error) {
	t := &Target{opts: opts}
	if err := t.open(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Target) open() error {
	dsn := t.opts.Path
	if dsn == "" {
		dsn = ":memory:"
	}
	c, err := (&sqlite3.SQLiteDriver{}).Open(dsn)
	if err != nil {
		return fmt.Errorf("open sqlite database %q: %w", dsn, err)
	}
	t.conn = c.(*sqlite3.SQLiteConn)
	return nil
}

// Name returns "sqlite".
func (t *Target) Name() string { return "sqlite" }

// Version returns the SQLite library version.
func (t *Target) Version() string { return Version() }

// Version returns the version of the SQLite library linked into polyfuzz.
func Version() string {
	v, _, _ := sqlite3.Version()
	return v
}

// Reset discards the database and opens an empty one.
func (t *Target) Reset(ctx context.Context) error {
	if t.conn != nil {
		t.conn.Close()
		t.conn = nil
	}
	if t.opts.Path != "" {
		return errors.New("sqlite: reset of a file database is not supported; use an in-memory target")
	}
	return t.open()
}

// Close closes the database.
func (t *Target) Close() error {
	if t.conn == nil {
		return nil
	}
	err := t.conn.Close()
	t.conn = nil
	return err
}

// Exec runs one statement and reads all its rows.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.conn == nil {
		return nil, errors.New("sqlite: target is closed")
	}
	qctx := context.Background()
	if t.opts.Timeout > 0 {
		var cancel context.CancelFunc
		qctx, cancel = context.WithTimeout(ctx, t.opts.Timeout)
		defer cancel()
	}
	rows, err := t.conn.QueryContext(qctx, stmt, nil)
	if err != nil {
		return t.errResult(qctx, err), nil
	}
	defer rows.Close()
	cols := rows.Columns()
	if cap(t.vals) < len(cols) {
		t.vals = make([]driver.Value, len(cols))
	}
	vals := t.vals[:len(cols)]
	res := &fuzz.Result{Status: fuzz.StatusOK, Columns: cols}
	for {
		if err := rows.Next(vals); err != nil {
			if err == io.EOF {
				return res, nil
			}
			return t.errResult(qctx, err), nil
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = Canonical(v)
		}
		res.Rows = append(res.Rows, row)
	}
}

func (t *Target) errResult(ctx context.Context, err error) *fuzz.Result {
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("statement ran over %s", t.opts.Timeout)}
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeName(int(se.ExtendedCode)), Err: se.Error()}
	}
	return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "DRIVER", Err: err.Error()}
}

// Canonical prints a driver value in its canonical typed form.
func Canonical(v driver.Value) string {
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
	case bool: // only for BOOLEAN-declared columns, which the driver converts
		if x {
			return fuzz.Int(1)
		}
		return fuzz.Int(0)
	case time.Time: // only for DATE/DATETIME/TIMESTAMP-declared columns
		return fuzz.Text(x.Format(time.RFC3339Nano))
	}
	return fuzz.Text(fmt.Sprint(v))
}

// CodeName returns the name of a SQLite extended result code, e.g. "SQLITE_CONSTRAINT_UNIQUE".
func CodeName(code int) string {
	if n, ok := extendedNames[code]; ok {
		return n
	}
	if n, ok := primaryNames[code&0xff]; ok {
		return n
	}
	return "SQLITE_" + strconv.Itoa(code)
}

var primaryNames = map[int]string{
	1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT", 5: "SQLITE_BUSY",
	6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
	10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL",
	14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA",
	18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
	22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT", 25: "SQLITE_RANGE",
	26: "SQLITE_NOTADB",
}

var extendedNames = map[int]string{
	1 | 1<<8: "SQLITE_ERROR_MISSING_COLLSEQ", 1 | 2<<8: "SQLITE_ERROR_RETRY", 1 | 3<<8: "SQLITE_ERROR_SNAPSHOT",
	11 | 1<<8: "SQLITE_CORRUPT_VTAB", 11 | 2<<8: "SQLITE_CORRUPT_SEQUENCE", 11 | 3<<8: "SQLITE_CORRUPT_INDEX",
	19 | 1<<8: "SQLITE_CONSTRAINT_CHECK", 19 | 2<<8: "SQLITE_CONSTRAINT_COMMITHOOK",
	19 | 3<<8: "SQLITE_CONSTRAINT_FOREIGNKEY", 19 | 4<<8: "SQLITE_CONSTRAINT_FUNCTION",
	19 | 5<<8: "SQLITE_CONSTRAINT_NOTNULL", 19 | 6<<8: "SQLITE_CONSTRAINT_PRIMARYKEY",
	19 | 7<<8: "SQLITE_CONSTRAINT_TRIGGER", 19 | 8<<8: "SQLITE_CONSTRAINT_UNIQUE",
	19 | 9<<8: "SQLITE_CONSTRAINT_VTAB", 19 | 10<<8: "SQLITE_CONSTRAINT_ROWID",
	19 | 11<<8: "SQLITE_CONSTRAINT_PINNED", 19 | 12<<8: "SQLITE_CONSTRAINT_DATATYPE",
	4 | 2<<8: "SQLITE_ABORT_ROLLBACK", 6 | 1<<8: "SQLITE_LOCKED_SHAREDCACHE", 6 | 2<<8: "SQLITE_LOCKED_VTAB",
	5 | 1<<8: "SQLITE_BUSY_RECOVERY", 5 | 2<<8: "SQLITE_BUSY_SNAPSHOT", 5 | 3<<8: "SQLITE_BUSY_TIMEOUT",
}
