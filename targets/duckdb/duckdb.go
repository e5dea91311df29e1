// Package duckdb is the embedded DuckDB target: one in-memory database per target, driven through
// github.com/duckdb/duckdb-go/v2 (cgo, with DuckDB's prebuilt static library) without
// database/sql, so that the engine, not the driver, dominates each call.
//
// Reset leaves nothing behind. Opening a new DuckDB instance takes several milliseconds, so when
// the statements since the last reset cannot have changed the session (no SET, PRAGMA, ATTACH,
// temporary objects... judged by each statement's first keyword), Reset instead swaps the default
// database "memory" for a new, empty in-memory database of the same name, a fraction of a
// millisecond; otherwise, or when the swap fails, it opens a new instance. An empty database named
// polyfuzz_idle stays attached for the swap.
//
// Values print in the canonical forms of package fuzz: integer types of any width (HUGEINT too)
// as i:, DECIMAL as d: (exact, fuzz.Decimal), FLOAT as r: of the float32, DOUBLE as r:, BOOLEAN as
// B:, BLOB as b:, VARCHAR as t:, and other types as t: with a DuckDB-like text form (dates and
// timestamps as 2006-01-02 15:04:05.999999, lists as [1, 2], structs as {'a': 1}, maps as {k=v}).
// Engine errors carry DuckDB's error type as Result.Code ("Conversion", "Binder", "Out of Range",
// "Internal", ...). A statement over the timeout is interrupted and answered with
// fuzz.StatusTimeout. A FATAL error invalidates the database: it is a crash, and Exec answers crash
// until Reset opens a new database. A crash inside DuckDB takes its process down: run the target in
// an isolated child (package isolated) to survive one.
package duckdb

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/sqlexec"
)

// Options configure a DuckDB target. The zero value is an in-memory database with no timeout and
// DuckDB's default number of threads.
type Options struct {
	// Timeout bounds each statement; 0 means none.
	Timeout time.Duration
	// Threads sets DuckDB's worker threads; 0 keeps DuckDB's default (one per core).
	Threads int
}

// Target is an embedded in-memory DuckDB database.
type Target struct {
	opts      Options
	connector *duckdb.Connector
	conn      driver.Conn
	query     driver.QueryerContext
	version   string
	// crashed holds the message of a FATAL error; Exec answers crash until Reset.
	crashed string
	// dirty says a statement since the last reset may have changed the session, so that only a
	// new instance resets it.
	dirty  bool
	closed bool
	reader sqlexec.Reader
}

// Open opens a DuckDB target.
func Open(opts Options) (*Target, error) {
	t := &Target{opts: opts}
	if err := t.open(); err != nil {
		return nil, err
	}
	v, err := t.scalar("SELECT version()")
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("duckdb: read the version: %w", err)
	}
	t.version = v
	return t, nil
}

func (t *Target) open() error {
	dsn := ""
	if t.opts.Threads > 0 {
		dsn = "?threads=" + strconv.Itoa(t.opts.Threads)
	}
	c, err := duckdb.NewConnector(dsn, nil)
	if err != nil {
		return fmt.Errorf("duckdb: open an in-memory database: %w", err)
	}
	conn, err := c.Connect(context.Background())
	if err != nil {
		c.Close()
		return fmt.Errorf("duckdb: connect to the in-memory database: %w", err)
	}
	t.connector, t.conn, t.query = c, conn, conn.(driver.QueryerContext)
	if err := t.execInternal(AttachIdle); err != nil {
		t.shut()
		return fmt.Errorf("duckdb: attach %s: %w", idleDB, err)
	}
	t.dirty = false
	return nil
}

// idleDB is the empty database the session uses while Reset swaps the default database.
const idleDB = "polyfuzz_idle"

// AttachIdle attaches the empty database that Swap uses; a new instance runs it once.
const AttachIdle = "ATTACH ':memory:' AS " + idleDB

// Swap replaces the default database by an empty one of the same name, a fraction of a
// millisecond where a new instance takes milliseconds; it undoes what a statement that does not
// touch the session ([TouchesSession]) did.
const Swap = "USE " + idleDB + "; DETACH memory; ATTACH ':memory:' AS memory; USE memory"

func (t *Target) execInternal(q string) error {
	rs, err := t.query.QueryContext(context.Background(), q, nil)
	if err != nil {
		return err
	}
	return rs.Close()
}

func (t *Target) shut() error {
	var errs []error
	if t.conn != nil {
		errs = append(errs, t.conn.Close())
	}
	if t.connector != nil {
		errs = append(errs, t.connector.Close())
	}
	t.connector, t.conn, t.query = nil, nil, nil
	return errors.Join(errs...)
}

func (t *Target) scalar(q string) (string, error) {
	rs, err := t.query.QueryContext(context.Background(), q, nil)
	if err != nil {
		return "", err
	}
	defer rs.Close()
	v := make([]driver.Value, len(rs.Columns()))
	if err := rs.Next(v); err != nil || len(v) != 1 {
		return "", fmt.Errorf("%s answered no value: %v", q, err)
	}
	return fmt.Sprint(v[0]), nil
}

// Name returns "duckdb".
func (t *Target) Name() string { return "duckdb" }

// Version returns DuckDB's version as it prints it, e.g. "v1.3.2".
func (t *Target) Version() string { return t.version }

var errClosed = errors.New("duckdb: target is closed")

// Reset discards the database and opens an empty one.
func (t *Target) Reset(ctx context.Context) error {
	if t.closed {
		return errClosed
	}
	if t.crashed == "" && !t.dirty && t.conn != nil && t.execInternal(Swap) == nil {
		return nil
	}
	t.shut()
	t.crashed = ""
	return t.open()
}

// cleanFirstWords are the first keywords of statements that change only the default database
// (or nothing), which Reset's swap undoes.
var cleanFirstWords = map[string]bool{
	"SELECT": true, "WITH": true, "FROM": true, "VALUES": true, "TABLE": true, "INSERT": true, "UPDATE": true,
	"DELETE": true, "CREATE": true, "DROP": true, "ALTER": true, "TRUNCATE": true, "EXPLAIN": true,
	"DESCRIBE": true, "SHOW": true, "SUMMARIZE": true, "ANALYZE": true, "VACUUM": true, "PIVOT": true,
	"UNPIVOT": true, "COMMENT": true, "BEGIN": true, "START": true, "COMMIT": true, "END": true,
	"ROLLBACK": true, "ABORT": true, "MERGE": true, "UPSERT": true, "CHECKPOINT": true,
}

// TouchesSession reports whether stmt may change the session beyond the default database: a
// statement (of those separated by semicolons) whose first keyword is not in cleanFirstWords, or
// that mentions TEMP or TEMPORARY. It errs on the side of true.
func TouchesSession(stmt string) bool {
	for _, seg := range strings.Split(stmt, ";") {
		words := strings.FieldsFunc(seg, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '/' || r == '*')
		})
		first := ""
		for _, w := range words {
			if strings.HasPrefix(w, "--") || strings.HasPrefix(w, "/*") {
				return true // comments: do not guess
			}
			u := strings.ToUpper(w)
			if first == "" {
				first = u
			}
			if u == "TEMP" || u == "TEMPORARY" {
				return true
			}
		}
		if first != "" && !cleanFirstWords[first] {
			return true
		}
	}
	return false
}

// Close closes the database.
func (t *Target) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	return t.shut()
}

// Exec runs one statement (or several; the last one's rows are the answer) and reads all its rows.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.closed {
		return nil, errClosed
	}
	if t.crashed != "" {
		return &fuzz.Result{Status: fuzz.StatusCrash, Code: "Fatal", Err: t.crashed}, nil
	}
	if !t.dirty && TouchesSession(stmt) {
		t.dirty = true
	}
	qctx, cancel := sqlexec.Context(ctx, t.opts.Timeout, 0)
	defer cancel()
	res, err := t.run(qctx, stmt)
	if err != nil {
		return t.errResult(ctx, qctx, err)
	}
	return res, nil
}

func (t *Target) run(ctx context.Context, stmt string) (*fuzz.Result, error) {
	rs, err := t.query.QueryContext(ctx, stmt, nil)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	return t.reader.Read(rs, Canonical)
}

// errResult turns a failed statement into its result: an engine error, a timeout or a crash.
func (t *Target) errResult(ctx, qctx context.Context, err error) (*fuzz.Result, error) {
	var de *duckdb.Error
	isDuck := errors.As(err, &de)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case qctx.Err() != nil && (!isDuck || de.Type == duckdb.ErrorTypeInterrupt):
		return sqlexec.Timeout(t.opts.Timeout, ""), nil
	case isDuck && de.Type == duckdb.ErrorTypeFatal:
		t.crashed = de.Msg
		return &fuzz.Result{Status: fuzz.StatusCrash, Code: "Fatal", Err: de.Msg}, nil
	case isDuck:
		if de.Type == duckdb.ErrorTypeInternal {
			t.dirty = true // DuckDB may have invalidated the instance: only a new one resets it
		}
		code, msg := ErrorCode(de)
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: code, Err: msg}, nil
	}
	// The binding refused a value or type it cannot convert.
	return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "driver", Err: err.Error()}, nil
}

// ErrorCode returns the name of a DuckDB error's type ("Conversion", "Out of Range", "Internal")
// and its message without the "<type> Error: " prefix.
func ErrorCode(e *duckdb.Error) (code, msg string) {
	msg = e.Msg
	if prefix, rest, ok := strings.Cut(msg, " Error: "); ok && !strings.Contains(prefix, "\n") && len(prefix) < 40 {
		msg = rest
	}
	if n, ok := errorNames[e.Type]; ok {
		return n, msg
	}
	return "Type" + strconv.Itoa(int(e.Type)), msg
}

// ErrorOf reads an error message of DuckDB's C API ("Binder Error: ...") as the binding reads
// one: its type from the prefix before ": ", ErrorTypeInvalid when the prefix names no type. It
// is for targets that drive the C API another way (targets/duckdblib), so that their errors carry
// the codes of this target.
func ErrorOf(msg string) *duckdb.Error {
	t := duckdb.ErrorTypeInvalid
	if prefix, _, ok := strings.Cut(msg, ": "); ok {
		if pt, ok := prefixTypes[prefix]; ok {
			t = pt
		}
	}
	return &duckdb.Error{Type: t, Msg: msg}
}

// prefixTypes are the error types by the prefix of their messages: the type's name and " Error",
// except where DuckDB writes another name.
var prefixTypes = func() map[string]duckdb.ErrorType {
	m := map[string]duckdb.ErrorType{
		"Error": duckdb.ErrorTypeUnknownType, "Decimal Error": duckdb.ErrorTypeDecimal,
		"Invalid type Error": duckdb.ErrorTypeInvalidType, "TransactionContext Error": duckdb.ErrorTypeTransaction,
		"Not implemented Error": duckdb.ErrorTypeNotImplemented, "NullPointer Error": duckdb.ErrorTypeNullPointer,
		"INTERRUPT Error": duckdb.ErrorTypeInterrupt, "FATAL Error": duckdb.ErrorTypeFatal,
		"INTERNAL Error": duckdb.ErrorTypeInternal, "Extension Autoloading Error": duckdb.ErrorTypeAutoLoad,
	}
	renamed := map[duckdb.ErrorType]bool{}
	for _, t := range m {
		renamed[t] = true
	}
	for t, name := range errorNames {
		if !renamed[t] {
			m[name+" Error"] = t
		}
	}
	return m
}()

var errorNames = map[duckdb.ErrorType]string{
	duckdb.ErrorTypeInvalid: "Invalid", duckdb.ErrorTypeOutOfRange: "Out of Range",
	duckdb.ErrorTypeConversion: "Conversion", duckdb.ErrorTypeUnknownType: "Unknown Type",
	duckdb.ErrorTypeMismatchType: "Mismatch Type",
	duckdb.ErrorTypeDivideByZero: "Divide by Zero", duckdb.ErrorTypeObjectSize: "Object Size",
	duckdb.ErrorTypeInvalidType: "Invalid Type", duckdb.ErrorTypeSerialization: "Serialization",
	duckdb.ErrorTypeTransaction: "Transaction", duckdb.ErrorTypeNotImplemented: "Not Implemented",
	duckdb.ErrorTypeExpression: "Expression", duckdb.ErrorTypeCatalog: "Catalog",
	duckdb.ErrorTypeParser: "Parser", duckdb.ErrorTypePlanner: "Planner",
	duckdb.ErrorTypeScheduler: "Scheduler", duckdb.ErrorTypeExecutor: "Executor",
	duckdb.ErrorTypeConstraint: "Constraint", duckdb.ErrorTypeIndex: "Index", duckdb.ErrorTypeStat: "Stat",
	duckdb.ErrorTypeConnection: "Connection", duckdb.ErrorTypeSyntax: "Syntax",
	duckdb.ErrorTypeSettings: "Settings", duckdb.ErrorTypeBinder: "Binder", duckdb.ErrorTypeNetwork: "Network",
	duckdb.ErrorTypeOptimizer: "Optimizer", duckdb.ErrorTypeNullPointer: "Null Pointer",
	duckdb.ErrorTypeIO: "IO", duckdb.ErrorTypeInterrupt: "Interrupt", duckdb.ErrorTypeFatal: "Fatal",
	duckdb.ErrorTypeInternal: "Internal", duckdb.ErrorTypeInvalidInput: "Invalid Input",
	duckdb.ErrorTypeOutOfMemory: "Out of Memory", duckdb.ErrorTypePermission: "Permission",
	duckdb.ErrorTypeParameterNotResolved: "Parameter Not Resolved",
	duckdb.ErrorTypeParameterNotAllowed:  "Parameter Not Allowed", duckdb.ErrorTypeDependency: "Dependency",
	duckdb.ErrorTypeHTTP: "HTTP", duckdb.ErrorTypeMissingExtension: "Missing Extension",
	duckdb.ErrorTypeAutoLoad: "Autoload", duckdb.ErrorTypeSequence: "Sequence",
	duckdb.ErrorTypeInvalidConfiguration: "Invalid Configuration",
}

// Canonical prints a value the binding read, given its column's DuckDB type name ("INTEGER",
// "DECIMAL(18,3)", "DATE", "UUID", ...).
func Canonical(typeName string, v driver.Value) string {
	switch x := v.(type) {
	case nil:
		return fuzz.Null
	case bool:
		return fuzz.Bool(x)
	case int8:
		return fuzz.Int(int64(x))
	case int16:
		return fuzz.Int(int64(x))
	case int32:
		return fuzz.Int(int64(x))
	case int64:
		return fuzz.Int(x)
	case uint8:
		return "i:" + strconv.FormatUint(uint64(x), 10)
	case uint16:
		return "i:" + strconv.FormatUint(uint64(x), 10)
	case uint32:
		return "i:" + strconv.FormatUint(uint64(x), 10)
	case uint64:
		return "i:" + strconv.FormatUint(x, 10)
	case *big.Int:
		return "i:" + x.String()
	case float32:
		return fuzz.Float32(x)
	case float64:
		return fuzz.Float(x)
	case duckdb.Decimal:
		return fuzz.Decimal(decimalText(x))
	case string:
		return "t:" + x
	case []byte:
		if typeName == "UUID" && len(x) == 16 {
			var u duckdb.UUID
			copy(u[:], x)
			return "t:" + u.String()
		}
		return fuzz.Bytes(x)
	}
	return "t:" + Text(typeName, v)
}

// decimalText prints a DECIMAL exactly: its unscaled value with the point put back.
func decimalText(d duckdb.Decimal) string {
	if d.Value == nil {
		return "0"
	}
	s := new(big.Int).Abs(d.Value).String()
	scale := int(d.Scale)
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	if scale > 0 {
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if d.Value.Sign() < 0 {
		s = "-" + s
	}
	return s
}

// Text prints a value of a type without a canonical form of its own (dates, times, intervals,
// lists, structs, maps) in a DuckDB-like text form.
func Text(typeName string, v driver.Value) string {
	var b strings.Builder
	writeText(&b, typeName, v)
	return b.String()
}

func writeText(b *strings.Builder, typeName string, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("NULL")
	case string:
		b.WriteString(x)
	case []byte:
		b.WriteString(fuzz.Bytes(x)[2:])
	case duckdb.Decimal:
		b.WriteString(fuzz.Decimal(decimalText(x))[2:])
	case float32:
		b.WriteString(fuzz.Float32(x)[2:])
	case float64:
		b.WriteString(fuzz.Float(x)[2:])
	case time.Time:
		b.WriteString(timeText(typeName, x))
	case duckdb.Interval:
		fmt.Fprintf(b, "%d months %d days %d microseconds", x.Months, x.Days, x.Micros)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeText(b, "", e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "'%s': ", k)
			writeText(b, "", x[k])
		}
		b.WriteByte('}')
	case duckdb.OrderedMap:
		writeMap(b, &x)
	case *duckdb.OrderedMap:
		writeMap(b, x)
	case duckdb.Union:
		writeText(b, "", x.Value)
	default:
		fmt.Fprint(b, x)
	}
}

func writeMap(b *strings.Builder, m *duckdb.OrderedMap) {
	keys, vals := m.Keys(), m.Values()
	b.WriteByte('{')
	for i := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		writeText(b, "", keys[i])
		b.WriteByte('=')
		writeText(b, "", vals[i])
	}
	b.WriteByte('}')
}

func timeText(typeName string, x time.Time) string {
	switch typeName {
	case "DATE":
		return x.Format("2006-01-02")
	case "TIME", "TIME_NS":
		return x.Format("15:04:05.999999999")
	case "TIMETZ":
		return x.Format("15:04:05.999999999-07")
	case "TIMESTAMPTZ":
		return x.UTC().Format("2006-01-02 15:04:05.999999999") + "+00"
	}
	return x.Format("2006-01-02 15:04:05.999999999")
}
