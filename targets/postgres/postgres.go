// Package postgres is the PostgreSQL target: one session per target over github.com/jackc/pgx/v5,
// with statements sent in the simple query protocol through the underlying pgconn (one round trip,
// no prepare, results in text form converted by column type).
//
// Namespace and safety: polyfuzz works in the DSN's database, in a schema of its own per worker,
// polyfuzz_w<Worker>, which it creates with the comment 'created by polyfuzz' and makes the only
// schema on the search_path. The target's session claims the schema with a session-level advisory
// lock on the keys (hashtext('polyfuzz'), hashtext(schema)) and holds it until Close. When another
// live session holds that lock (a second polyfuzz process numbers its workers alike), Open moves on
// to polyfuzz_w<Worker>_2, _3, ... and works in the first schema whose lock it gets; a schema with
// the comment whose lock is free is a leftover of a dead run and is dropped and recreated. After a
// reconnect the new session takes the lock again, and Reset fails rather than touch a schema that
// another session took meanwhile. Open refuses a database that holds tables, views, materialized
// views, sequences or functions that polyfuzz did not create (outside pg_catalog,
// information_schema, the toast and temporary schemas, extension members and schemas carrying that
// comment), unless Force is set. When a schema of the worker's name exists without the comment,
// Open refuses it too; with Force it moves on to the next name. polyfuzz never drops anything but
// its own schema, also with Force.
//
// Values print in the canonical forms of package fuzz: int2/int4/int8/oid as i:, numeric as d:
// (fuzz.Decimal), float4 as r: of the float32 (fuzz.Float32), float8 as r:, bool as B:, bytea as
// b:, and every other type (text, dates, intervals, arrays...) as t: with PostgreSQL's text form.
// Engine errors carry their SQLSTATE as Result.Code. Each statement runs under statement_timeout
// (SQLSTATE 57014 is a timeout), with a client-side deadline of Timeout+2s as a backstop. A lost
// connection (or SQLSTATE 57P01/57P02/57P03) is a crash: Exec answers crash until Reset, which
// reconnects, waiting while the server recovers.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/redact"
	"github.com/polyfuzz/polyfuzz/targets/sqlexec"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
	"github.com/polyfuzz/polyfuzz/targets/unreachable"
)

// Options configure a PostgreSQL target.
type Options struct {
	// DSN is postgres://USER:PASS@HOST:PORT/DB?PARAMS (also postgresql://); the database defaults
	// to "polyfuzz".
	DSN string
	// Worker numbers the target among concurrent ones on the same database; it names the schema.
	Worker int
	// Timeout bounds each statement; 0 means none.
	Timeout time.Duration
	// Force lets polyfuzz work in a database that holds objects it did not create. It still
	// drops only its own schema.
	Force bool
}

// String prints the options with the DSN's password masked, so that %v never shows it.
func (o Options) String() string {
	return fmt.Sprintf("{DSN:%s Worker:%d Timeout:%s Force:%v}", redact.Text(o.DSN), o.Worker, o.Timeout, o.Force)
}

// Target is a PostgreSQL session in a schema polyfuzz owns.
type Target struct {
	opts    Options
	dsn     *sqlserver.DSN
	cfg     *pgx.ConnConfig
	conn    *pgx.Conn
	schema  string
	version string
	// crashed holds the message of a lost connection; Exec answers crash until Reset.
	crashed string
	closed  bool
}

// Open connects, checks that the database is polyfuzz's to use, claims the worker's schema and
// creates it.
func Open(ctx context.Context, opts Options) (*Target, error) {
	dsn, err := sqlserver.ParseDSN(sqlserver.Postgres, opts.DSN)
	if err != nil {
		return nil, err
	}
	cfg, err := pgx.ParseConfig(dsn.URL())
	if err != nil {
		return nil, fmt.Errorf("postgres DSN %s: %s", dsn, dsn.Redact(err.Error()))
	}
	cfg.ConnectTimeout = sqlserver.ConnectTimeout
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	cfg.StatementCacheCapacity = 0
	cfg.DescriptionCacheCapacity = 0
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		// Past the backstop deadline: ask the server to cancel, and drop the connection a second
		// later if it does not answer.
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: time.Second}
	}
	t := &Target{opts: opts, dsn: dsn, cfg: cfg, schema: sqlserver.WorkerName("polyfuzz", opts.Worker)}
	p := cfg.RuntimeParams
	p["application_name"] = "polyfuzz"
	p["search_path"] = t.schema
	p["statement_timeout"] = strconv.FormatInt(timeoutMillis(opts.Timeout), 10)
	p["bytea_output"] = "hex"
	p["extra_float_digits"] = "1"
	p["client_min_messages"] = "error"
	if err := t.connect(ctx, 0); err != nil {
		return nil, err
	}
	if err := t.claim(ctx); err != nil {
		t.release()
		return nil, err
	}
	if err := t.Reset(ctx); err != nil {
		t.release()
		return nil, err
	}
	return t, nil
}

func timeoutMillis(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	if ms := d.Milliseconds(); ms > 0 {
		return ms
	}
	return 1
}

// connect opens the session, retrying for up to wait while the server starts up or recovers.
func (t *Target) connect(ctx context.Context, wait time.Duration) error {
	start := time.Now()
	for {
		conn, err := pgx.ConnectConfig(ctx, t.cfg)
		if err == nil {
			t.conn = conn
			return nil
		}
		if ctx.Err() == nil && retryable(err, time.Since(start), wait) {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		return t.connectError(ctx, err)
	}
}

// retryable reports whether a failed connect, elapsed into a wait, may succeed soon: the server
// is starting up or recovering after a crash (for up to wait), or it refuses connections while it
// restarts (for a few seconds at most).
func retryable(err error, elapsed, wait time.Duration) bool {
	if elapsed >= wait {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "57P03" || pe.Code == "57P01" || pe.Code == "57P02"
	}
	_, unreachable := unreachable.Reason(err, sqlserver.ConnectTimeout)
	return unreachable && elapsed < 3*time.Second
}

func (t *Target) connectError(ctx context.Context, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01":
			return t.dsn.AuthFailed("")
		case "28000":
			return t.dsn.AuthFailed(pe.Message)
		case "3D000":
			return fmt.Errorf("postgres at %s has no database %q; create it (CREATE DATABASE %s OWNER %s) or fix %s",
				t.dsn.Addr(), t.dsn.Database, t.dsn.Database, t.dsn.User, sqlserver.FlagHint(sqlserver.Postgres))
		}
		return fmt.Errorf("postgres at %s: %s (SQLSTATE %s)", t.dsn.Addr(), t.dsn.Redact(pe.Message), pe.Code)
	}
	return t.dsn.ConnectError(ctx, err, nil)
}

// foreignObjects lists what the database holds that polyfuzz did not create.
const foreignObjects = `
SELECT CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'S' THEN 'sequence'
         WHEN 'f' THEN 'foreign table' ELSE 'table' END || ' ' || quote_ident(n.nspname) || '.' || quote_ident(c.relname)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%'
  AND n.nspname NOT LIKE 'pg\_temp\_%'
  AND coalesce(obj_description(n.oid, 'pg_namespace'), '') <> 'created by polyfuzz'
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
UNION ALL
SELECT CASE p.prokind WHEN 'p' THEN 'procedure' WHEN 'a' THEN 'aggregate' ELSE 'function' END || ' ' ||
         quote_ident(n.nspname) || '.' || quote_ident(p.proname)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%'
  AND n.nspname NOT LIKE 'pg\_temp\_%'
  AND coalesce(obj_description(n.oid, 'pg_namespace'), '') <> 'created by polyfuzz'
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`

// claim reads the server version, refuses a database holding objects polyfuzz did not create
// (unless Force) and claims the worker's schema: the first of its names whose lock the session
// gets and that polyfuzz created or that does not exist.
func (t *Target) claim(ctx context.Context) error {
	v, err := t.column(ctx, "SHOW server_version")
	if err != nil || len(v) != 1 {
		return t.dsn.Failed("read the server version", errOr(err, "no answer"))
	}
	t.version, _, _ = strings.Cut(v[0], " ")
	foreign, err := t.column(ctx, foreignObjects)
	if err != nil {
		return t.dsn.Failed("list the database's objects", err)
	}
	if len(foreign) > 0 && !t.opts.Force {
		return fmt.Errorf("postgres database %q holds objects polyfuzz did not create (%s); polyfuzz works only "+
			"in an empty database or its own schemas; use another database or pass --force",
			t.dsn.Database, sqlserver.ObjectList(foreign, 5))
	}
	t.schema, err = t.dsn.Claim("schema", t.schema, func(name string) (bool, error) { return t.try(ctx, name) })
	return err
}

// try tries to claim the schema name: it takes the schema's lock, checks that polyfuzz may work
// there, and moves the session there. It reports false when another session holds the lock, or,
// with Force, when the schema is someone else's.
func (t *Target) try(ctx context.Context, name string) (bool, error) {
	if ok, err := t.lock(ctx, name); !ok || err != nil {
		return false, err
	}
	owner, err := t.column(ctx, "SELECT coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace WHERE nspname = '"+name+"'")
	if err != nil {
		return false, t.dsn.Failed("look for schema "+name, err)
	}
	if len(owner) > 0 && owner[0] != sqlserver.OwnerComment {
		if !t.opts.Force {
			return false, fmt.Errorf("postgres database %q has a schema %s that polyfuzz did not create (it lacks the comment %q); "+
				"use another database or pass --force, and polyfuzz works in a schema of its own beside it",
				t.dsn.Database, name, sqlserver.OwnerComment)
		}
		return false, t.unlock(ctx, name)
	}
	// The schema is free, or left over by a polyfuzz session that has ended.
	if t.cfg.RuntimeParams["search_path"] == name {
		return true, nil
	}
	// Move to a new session whose default search_path (which RESET restores) is the schema polyfuzz
	// works in, not one it must not touch, and take the lock there. Should another session take
	// it in between, the next name follows.
	if err := t.unlock(ctx, name); err != nil {
		return false, err
	}
	t.cfg.RuntimeParams["search_path"] = name
	t.drop()
	if err := t.connect(ctx, 0); err != nil {
		return false, err
	}
	return t.lock(ctx, name)
}

// lockKeys are the keys of the advisory lock that claims the schema name.
func lockKeys(name string) string { return "hashtext('polyfuzz'), hashtext('" + name + "')" }

// lock tries to take the lock on the schema name without waiting, and reports whether it did.
func (t *Target) lock(ctx context.Context, name string) (bool, error) {
	r, err := t.column(ctx, "SELECT pg_try_advisory_lock("+lockKeys(name)+")")
	if err != nil || len(r) != 1 {
		return false, t.dsn.Failed("lock schema "+name, errOr(err, "no answer"))
	}
	return r[0] == "t", nil
}

// unlock releases the lock on the schema name.
func (t *Target) unlock(ctx context.Context, name string) error {
	if _, err := t.column(ctx, "SELECT pg_advisory_unlock("+lockKeys(name)+")"); err != nil {
		return t.dsn.Failed("unlock schema "+name, err)
	}
	return nil
}

// reconnect opens a new session, waiting up to wait while the server recovers, and takes the lock
// on the schema again, waiting while the server ends the old session that held it. It fails when
// another session holds the lock.
func (t *Target) reconnect(ctx context.Context, wait time.Duration) error {
	t.drop()
	if err := t.connect(ctx, wait); err != nil {
		return err
	}
	err := t.dsn.Reclaim(ctx, "schema", t.schema, t.lock)
	if err != nil {
		t.drop()
	}
	return err
}

func errOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}

// column runs an internal query and returns its first column as text.
func (t *Target) column(ctx context.Context, q string) ([]string, error) {
	rs, err := t.conn.PgConn().Exec(ctx, q).ReadAll()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rs {
		if r.Err != nil {
			return nil, r.Err
		}
		for _, row := range r.Rows {
			out = append(out, string(row[0]))
		}
	}
	return out, nil
}

// Name returns "postgres".
func (t *Target) Name() string { return "postgres" }

// Version returns the server's version number, e.g. "15.18".
func (t *Target) Version() string { return t.version }

// Schema returns the schema the target works in.
func (t *Target) Schema() string { return t.schema }

// Reset drops and recreates the worker's schema and restores the session's settings (with
// polyfuzz's own jit = off); after a crash it reconnects first, waiting while the server recovers,
// and takes the schema's lock again (it fails if another session took it meanwhile).
func (t *Target) Reset(ctx context.Context) error {
	if t.closed {
		return errClosed
	}
	if t.crashed != "" || t.conn == nil || t.conn.IsClosed() {
		if err := t.reconnect(ctx, sqlserver.RecoveryWait); err != nil {
			return err
		}
		t.crashed = ""
	}
	pg := t.conn.PgConn()
	if pg.TxStatus() != 'I' {
		if err := pg.Exec(ctx, "ROLLBACK").Close(); err != nil {
			return t.dsn.Failed("roll back", err)
		}
	}
	s := t.schema
	// jit = off is the session default polyfuzz owns: the planner, without statistics on the small
	// fresh tables, estimates each at about a thousand rows and a join of three at a cost far
	// above jit_above_cost, so that every such query paid tens of milliseconds of JIT compilation
	// for a few rows. A setup may turn JIT on again (sqlgen's PostgreSQL settings).
	q := "RESET ALL; SET jit = off; DISCARD TEMP; DEALLOCATE ALL; DROP SCHEMA IF EXISTS " + s + " CASCADE; CREATE SCHEMA " + s +
		"; COMMENT ON SCHEMA " + s + " IS '" + sqlserver.OwnerComment + "'; SET search_path = " + s
	if _, err := pg.Exec(ctx, q).ReadAll(); err != nil {
		return t.dsn.Failed("reset schema "+s, err)
	}
	return nil
}

var errClosed = errors.New("postgres: target is closed")

// release releases the session's locks, so that the next session that tries them gets them at
// once rather than once the server has ended this one, and closes the session.
func (t *Target) release() {
	if t.conn != nil && !t.conn.IsClosed() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		t.conn.PgConn().Exec(ctx, "SELECT pg_advisory_unlock_all()").Close()
		cancel()
	}
	t.drop()
}

// drop forgets the current connection.
func (t *Target) drop() {
	if t.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		t.conn.Close(ctx)
		cancel()
		t.conn = nil
	}
}

// Close drops the worker's schema, releases its lock and closes the session. After a lost session
// it drops the schema only if it gets the lock again.
func (t *Target) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if t.conn == nil || t.conn.IsClosed() || t.crashed != "" {
		if err := t.reconnect(ctx, 0); err != nil {
			return err
		}
	}
	pg := t.conn.PgConn()
	if pg.TxStatus() != 'I' {
		pg.Exec(ctx, "ROLLBACK").Close()
	}
	_, err := pg.Exec(ctx, "DROP SCHEMA IF EXISTS "+t.schema+" CASCADE").ReadAll()
	t.release()
	if err != nil {
		return t.dsn.Failed("drop schema "+t.schema, err)
	}
	return nil
}

// Exec runs one statement and reads all its rows. A string of several statements runs as one
// implicit transaction and answers with the last statement's rows.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.closed {
		return nil, errClosed
	}
	if t.crashed != "" {
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
	}
	if t.conn == nil || t.conn.IsClosed() {
		// The backstop closed the connection; the schema survives on the server.
		if err := t.reconnect(ctx, 0); err != nil {
			t.crashed = err.Error()
			return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
		}
	}
	qctx, cancel := sqlexec.Context(ctx, t.opts.Timeout, sqlserver.Backstop)
	defer cancel()
	pg := t.conn.PgConn()
	res, err := read(pg.Exec(qctx, stmt))
	if err != nil {
		return t.errResult(ctx, qctx, err)
	}
	if pg.TxStatus() == 'E' {
		pg.Exec(ctx, "ROLLBACK").Close()
	}
	return res, nil
}

// read reads every result of a simple-protocol exchange and keeps the last.
func read(mrr *pgconn.MultiResultReader) (*fuzz.Result, error) {
	res := &fuzz.Result{Status: fuzz.StatusOK}
	var err error
	for mrr.NextResult() {
		rr := mrr.ResultReader()
		fds := rr.FieldDescriptions()
		r := &fuzz.Result{Status: fuzz.StatusOK}
		if len(fds) > 0 {
			r.Columns = make([]string, len(fds))
			for i := range fds {
				r.Columns[i] = fds[i].Name
			}
		}
		for rr.NextRow() {
			vals := rr.Values()
			row := make([]string, len(vals))
			for i, v := range vals {
				row[i] = Canonical(fds[i].DataTypeOID, v)
			}
			r.Rows = append(r.Rows, row)
		}
		if _, err = rr.Close(); err != nil {
			break
		}
		res = r
	}
	if cerr := mrr.Close(); err == nil {
		err = cerr
	}
	return res, err
}

// errResult turns a failed statement into its result: an engine error, a timeout or a crash.
func (t *Target) errResult(ctx, qctx context.Context, err error) (*fuzz.Result, error) {
	pg := t.conn.PgConn()
	var pe *pgconn.PgError
	isPg := errors.As(err, &pe)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case isPg && pe.Code == "57014" || qctx.Err() != nil:
		detail := ""
		if isPg {
			detail = pe.Message
		}
		if !pg.IsClosed() && pg.TxStatus() == 'E' {
			pg.Exec(ctx, "ROLLBACK").Close()
		}
		return sqlexec.Timeout(t.opts.Timeout, detail), nil
	case isPg && (pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Severity == "FATAL" ||
		pe.Severity == "PANIC"):
		t.crashed = pe.Code + ": " + t.dsn.Redact(pe.Message)
		t.drop()
		return &fuzz.Result{Status: fuzz.StatusCrash, Code: pe.Code, Err: t.crashed}, nil
	case isPg:
		if !pg.IsClosed() && pg.TxStatus() == 'E' {
			pg.Exec(ctx, "ROLLBACK").Close()
		}
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: pe.Code, Err: pe.Message}, nil
	case pg.IsClosed():
		t.crashed = "lost the connection to the server: " + t.dsn.Redact(err.Error())
		t.drop()
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
	}
	// The driver refused the statement without asking the server (e.g. COPY FROM STDIN).
	return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "driver", Err: t.dsn.Redact(err.Error())}, nil
}

// Canonical prints a value PostgreSQL sent in text form, given its column type's OID.
func Canonical(oid uint32, v []byte) string {
	if v == nil {
		return fuzz.Null
	}
	switch oid {
	case pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID, pgtype.OIDOID, pgtype.XIDOID, pgtype.CIDOID:
		return "i:" + string(v)
	case pgtype.NumericOID:
		return fuzz.Decimal(string(v))
	case pgtype.Float4OID:
		if f, err := strconv.ParseFloat(string(v), 32); err == nil {
			return fuzz.Float32(float32(f))
		}
	case pgtype.Float8OID:
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			return fuzz.Float(f)
		}
	case pgtype.BoolOID:
		return fuzz.Bool(len(v) > 0 && v[0] == 't')
	case pgtype.ByteaOID:
		if b, ok := bytea(v); ok {
			return b
		}
	}
	return "t:" + string(v)
}

// bytea converts bytea text output (hex, or the escape format if a statement chose it) to b:.
func bytea(v []byte) (string, bool) {
	if len(v) >= 2 && v[0] == '\\' && v[1] == 'x' {
		return "b:" + strings.ToLower(string(v[2:])), true
	}
	var out []byte
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] != '\\':
			out = append(out, v[i])
		case i+1 < len(v) && v[i+1] == '\\':
			out = append(out, '\\')
			i++
		case i+3 < len(v):
			n, err := strconv.ParseUint(string(v[i+1:i+4]), 8, 8)
			if err != nil {
				return "", false
			}
			out = append(out, byte(n))
			i += 3
		default:
			return "", false
		}
	}
	return fuzz.Bytes(out), true
}
