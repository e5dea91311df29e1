// Package mysql is the MySQL and MariaDB target: one session per target over
// github.com/go-sql-driver/mysql, driven through the driver's connection directly (text protocol,
// one round trip per statement, no prepare).
//
// Flavors: "mariadb" and "mysql" speak the same protocol; the flavor names the target in titles.
// The mysql flavor may be pointed at a MariaDB server (MySQL itself is not packaged by Debian); its
// Version then shows MariaDB. The statement timeout follows the server, not the flavor: MariaDB's
// max_statement_time (all statements), MySQL's max_execution_time (SELECT only), and for both a
// client-side deadline of Timeout+2s after which the session is dropped, the query killed and a
// new session opened.
//
// Namespace and safety: MySQL has no schemas inside a database, so each worker works in a database
// of its own, <D>_w<Worker>, next to the DSN's database D (default "polyfuzz"), created with
// CHARACTER SET utf8mb4 COLLATE utf8mb4_bin so that text compares by bytes (the session's
// collation is utf8mb4_bin too) and, on MariaDB, with the comment 'created by polyfuzz'. The
// target's session claims the database with GET_LOCK('<database>', 0) and holds the lock until
// Close. When another live session holds it (a second polyfuzz process numbers its workers alike),
// Open moves on to <D>_w<Worker>_2, _3, ... and works in the first database whose lock it gets.
// After a reconnect the new session takes the lock again, and Reset fails rather than touch a
// database that another session took meanwhile. Open refuses a worker database polyfuzz did not
// create that holds tables or views, unless Force; with Force it records what is there and never
// drops it: Reset and Close drop only the tables, views and sequences that appeared since. A
// database polyfuzz created (or one carrying its comment whose lock is free, left over by an
// earlier run) is dropped and recreated by Reset and dropped by Close.
//
// Every session runs with sql_mode = SQLMode. Values print in the canonical forms of package fuzz:
// integer types as i:, DECIMAL as d: (fuzz.Decimal), DOUBLE as r:, FLOAT as r: of the float32,
// binary strings (BINARY, VARBINARY, BLOBs, BIT) as b:, other strings and every other type as t:
// with the server's text. Engine errors carry the error number as Result.Code ("1062"). A lost
// connection (or error 1053, 1927, 2006, 2013) is a crash: Exec answers crash until Reset, which
// reconnects, waiting up to a minute while the server restarts and recovers (a supervisor such as
// mysqld_safe or systemd restarts a crashed mariadbd, which then runs InnoDB's crash recovery
// before it accepts connections).
package mysql

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/redact"
	"github.com/polyfuzz/polyfuzz/targets/sqlexec"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
	"github.com/polyfuzz/polyfuzz/targets/unreachable"
)

// SQLMode is the sql_mode of every session: strict for all tables (bad values are errors, not
// warnings) and no silent change of storage engine. The SQL generator relies on it.
const SQLMode = "STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION"

// Options configure a MySQL or MariaDB target.
type Options struct {
	// DSN is mysql://USER:PASS@HOST:PORT/DB, mariadb://..., or go-sql-driver's own
	// USER:PASS@tcp(HOST:PORT)/DB; DB (default "polyfuzz") names the worker databases
	// DB_w<Worker> (DB_w<Worker>_2, ... when another session holds that one). The user needs
	// CREATE and DROP on them.
	DSN string
	// Flavor is "mysql" or "mariadb"; empty takes it from the DSN's scheme (mysql for
	// go-sql-driver's form).
	Flavor string
	// Worker numbers the target among concurrent ones on the same server; it names the database.
	Worker int
	// Timeout bounds each statement; 0 means none.
	Timeout time.Duration
	// Force lets polyfuzz work in a worker database that holds tables it did not create; it still
	// drops only what it created.
	Force bool
}

// Target is a MySQL or MariaDB session in a database polyfuzz owns.
type Target struct {
	opts      Options
	dsn       *sqlserver.DSN
	connector driver.Connector
	conn      driver.Conn
	query     driver.QueryerContext
	connID    uint64
	version   string
	mariadb   bool
	db        string
	// owned says polyfuzz created db (or an earlier polyfuzz run did): Reset recreates it.
	owned bool
	// keep holds the objects db held at Open, which polyfuzz never drops.
	keep map[string]bool
	// crashed holds the message of a lost connection; Exec answers crash until Reset.
	crashed string
	closed  bool
	reader  sqlexec.Reader
}

// Open connects, claims the worker database and empties it.
func Open(ctx context.Context, opts Options) (*Target, error) {
	t, err := newTarget(opts)
	if err != nil {
		return nil, err
	}
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

// newTarget checks the options and sets up the connector, without connecting.
func newTarget(opts Options) (*Target, error) {
	flavor := opts.Flavor
	if flavor == "" {
		flavor = sqlserver.MySQL
		if strings.HasPrefix(strings.ToLower(opts.DSN), "mariadb:") {
			flavor = sqlserver.MariaDB
		}
	}
	if flavor != sqlserver.MySQL && flavor != sqlserver.MariaDB {
		return nil, fmt.Errorf("unknown MySQL flavor %q (want mysql or mariadb)", flavor)
	}
	opts.Flavor = flavor
	dsn, err := parseDSN(flavor, opts.DSN)
	if err != nil {
		return nil, err
	}
	db := sqlserver.WorkerName(dsn.Database, opts.Worker)
	if err := sqlserver.CheckIdent(flavor, "database", db, 64); err != nil {
		return nil, err
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = dsn.User, dsn.Password, "tcp", dsn.Addr()
	if len(dsn.Params) > 0 {
		q := url.Values{}
		for k, v := range dsn.Params {
			q.Set(k, v)
		}
		if cfg, err = mysql.ParseDSN("/?" + q.Encode()); err != nil {
			return nil, fmt.Errorf("%s DSN %s: %s", flavor, dsn, dsn.Redact(err.Error()))
		}
		cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = dsn.User, dsn.Password, "tcp", dsn.Addr()
	}
	cfg.DBName = ""
	cfg.Timeout = sqlserver.ConnectTimeout
	cfg.Collation = "utf8mb4_bin"
	cfg.Logger = &mysql.NopLogger{}
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dial(ctx, dsn, network, addr)
	}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s DSN %s: %s", flavor, dsn, dsn.Redact(err.Error()))
	}
	return &Target{opts: opts, dsn: dsn, connector: connector, db: db}, nil
}

// parseDSN reads a URL DSN (see sqlserver.ParseDSN) or go-sql-driver's own form,
// USER:PASS@tcp(HOST:PORT)/DB?PARAMS (also tcp4 and tcp6, or USER:PASS@/DB for 127.0.0.1:3306).
// Errors never hold the password.
func parseDSN(flavor, s string) (*sqlserver.DSN, error) {
	if strings.Contains(s, "://") {
		return sqlserver.ParseDSN(flavor, s)
	}
	fix := "give " + sqlserver.Example(flavor) + " or USER:PASS@tcp(HOST:PORT)/DB"
	cfg, err := mysql.ParseDSN(s)
	if err != nil {
		return nil, fmt.Errorf("--dbms %s got a DSN that is neither a URL nor USER:PASS@tcp(HOST:PORT)/DB (%s: %s); %s",
			flavor, redact.Text(s), redact.Text(err.Error()), fix)
	}
	d := &sqlserver.DSN{Engine: flavor, Scheme: flavor, User: cfg.User, Password: cfg.Passwd, Database: cfg.DBName,
		Params: map[string]string{}}
	switch cfg.Net {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, fmt.Errorf("--dbms %s got a DSN over %s (%s); polyfuzz connects over TCP: %s", flavor, cfg.Net, d.Redact(s), fix)
	}
	if d.User == "" {
		return nil, fmt.Errorf("--dbms %s got a DSN without a user (%s); %s", flavor, d.Redact(s), fix)
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err == nil {
		d.Port, err = strconv.Atoi(port)
	}
	if err != nil || d.Port <= 0 || d.Port > 65535 {
		return nil, fmt.Errorf("--dbms %s got a DSN with address %q; %s", flavor, cfg.Addr, fix)
	}
	d.Host = host
	if d.Database == "" {
		d.Database = sqlserver.DefaultDatabase
	}
	if _, query, ok := strings.Cut(s[strings.LastIndexByte(s, '/')+1:], "?"); ok {
		q, err := url.ParseQuery(query)
		if err != nil {
			return nil, fmt.Errorf("--dbms %s got a DSN whose parameters do not parse (%s); %s", flavor, d.Redact(s), fix)
		}
		for k, vs := range q {
			d.Params[k] = vs[len(vs)-1]
		}
	}
	return d, nil
}

// String prints the options with the DSN's password masked, so that %v never shows it.
func (o Options) String() string {
	return fmt.Sprintf("{DSN:%s Flavor:%s Worker:%d Timeout:%s Force:%v}", redact.Text(o.DSN), o.Flavor, o.Worker, o.Timeout, o.Force)
}

// dial connects and waits for the server's greeting, so that a server of another engine (which
// waits for the client to speak first) is named at once instead of after a long timeout.
func dial(ctx context.Context, dsn *sqlserver.DSN, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	p, greeting := sqlserver.Sniff(c, sqlserver.GreetingWait)
	switch {
	case p == sqlserver.ProtocolMySQL:
		return &greetedConn{Conn: c, greeting: greeting}, nil
	case p == sqlserver.ProtocolUnknown && len(greeting) == 0:
		c.Close()
		return nil, dsn.Unreachable(fmt.Sprintf("the server sent no greeting within %s", sqlserver.GreetingWait))
	}
	c.Close()
	return nil, dsn.WrongProtocol(p)
}

// greetedConn hands the driver the greeting dial already read, then reads the connection.
type greetedConn struct {
	net.Conn
	greeting []byte
}

// Read returns the greeting's bytes first, then what the connection reads.
func (c *greetedConn) Read(b []byte) (int, error) {
	if len(c.greeting) > 0 {
		n := copy(b, c.greeting)
		c.greeting = c.greeting[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}

// connect opens a session and sets it up, retrying for up to wait while the server restarts or
// recovers.
func (t *Target) connect(ctx context.Context, wait time.Duration) error {
	start := time.Now()
	for retried := false; ; retried = true {
		cctx, cancel := context.WithTimeout(ctx, sqlserver.ConnectTimeout+sqlserver.GreetingWait)
		c, err := t.connector.Connect(cctx)
		cancel()
		if err == nil {
			t.conn, t.query = c, c.(driver.QueryerContext)
			break
		}
		if ctx.Err() == nil && retryable(err, time.Since(start), wait) {
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		if reason, ok := unreachable.Reason(err, sqlserver.ConnectTimeout); ok && retried {
			return t.dsn.Unreachable(fmt.Sprintf("%s (retried for %s)", reason, time.Since(start).Round(time.Second)))
		}
		return t.connectError(ctx, err)
	}
	row, err := t.row(ctx, "SELECT CONNECTION_ID(), VERSION()")
	if err != nil {
		t.drop()
		return t.dsn.Failed("read the server version", err)
	}
	t.connID, _ = strconv.ParseUint(row[0], 10, 64)
	t.version = row[1]
	t.mariadb = strings.Contains(row[1], "MariaDB")
	if i := strings.Index(row[1], "-MariaDB"); i >= 0 {
		t.version = row[1][:i+len("-MariaDB")]
	} else if v, _, ok := strings.Cut(row[1], "-"); ok {
		t.version = v
	}
	if err := t.exec(ctx, t.sessionSettings()); err != nil {
		t.drop()
		return t.dsn.Failed("set up the session", err)
	}
	return nil
}

// sessionSettings is the SET statement that gives a session its fixed settings.
func (t *Target) sessionSettings() string {
	// optimizer_switch goes back to the server's default: a setup may change it.
	s := "SET SESSION sql_mode = '" + SQLMode + "', SESSION foreign_key_checks = 1, SESSION optimizer_switch = DEFAULT"
	if t.mariadb {
		sec := 0.0
		if t.opts.Timeout > 0 {
			sec = max(t.opts.Timeout.Seconds(), 0.001)
		}
		s += ", SESSION max_statement_time = " + strconv.FormatFloat(sec, 'f', -1, 64)
	} else {
		ms := int64(0)
		if t.opts.Timeout > 0 {
			ms = max(t.opts.Timeout.Milliseconds(), 1)
		}
		s += ", SESSION max_execution_time = " + strconv.FormatInt(ms, 10)
	}
	return s
}

// retryable reports whether a failed connect, elapsed into a wait, may succeed soon: the server
// refuses connections while it restarts after a crash and runs InnoDB's recovery, or drops them
// while it goes down again or shuts down. A name that does not resolve, a refused login or a
// server of another engine is not retried.
func retryable(err error, elapsed, wait time.Duration) bool {
	if elapsed >= wait {
		return false
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return lostErrno(me.Number)
	}
	var dnsErr *net.DNSError
	var wrong *sqlserver.WrongProtocolError
	var failure *sqlserver.ConnectFailure
	switch {
	case errors.As(err, &dnsErr), errors.As(err, &wrong):
		return false
	case errors.As(err, &failure):
		return true // the server accepted the connection but sent no greeting
	}
	return isLost(err)
}

// lostErrno reports whether a MySQL error number means the session is gone: the server is
// shutting down (1053), killed the connection (1927), or the client lost it (2006, 2013).
func lostErrno(n uint16) bool {
	return n == 1053 || n == 1927 || n == 2006 || n == 2013
}

func (t *Target) connectError(ctx context.Context, err error) error {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1045:
			return t.dsn.AuthFailed("")
		case 1130:
			return t.dsn.AuthFailed("the server does not let this host connect")
		}
		return fmt.Errorf("%s at %s: %s (error %d)", t.dsn.Engine, t.dsn.Addr(), t.dsn.Redact(me.Message), me.Number)
	}
	return t.dsn.ConnectError(ctx, err, nil)
}

// claim takes the lock of the first of the worker database's names that no other session holds,
// then finds or creates that database and refuses one that holds tables polyfuzz did not create,
// unless Force.
func (t *Target) claim(ctx context.Context) error {
	db, err := t.dsn.Claim("database", t.db, func(name string) (bool, error) {
		if err := sqlserver.CheckIdent(t.opts.Flavor, "database", name, 64); err != nil {
			return false, err
		}
		return t.lock(ctx, name)
	})
	if err != nil {
		return err
	}
	t.db = db
	q := "SELECT 'exists'"
	if t.mariadb {
		q = "SELECT SCHEMA_COMMENT"
	}
	rows, err := t.rows(ctx, q+" FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '"+t.db+"'")
	if err != nil {
		return t.dsn.Failed("look for database "+t.db, err)
	}
	if len(rows) == 0 {
		if err := t.exec(ctx, t.createDB()); err != nil {
			return t.dsn.Failed("create database "+t.db, err)
		}
		t.owned = true
		return nil
	}
	if t.mariadb && rows[0][0] == sqlserver.OwnerComment {
		t.owned = true // left over by an earlier polyfuzz run
		return nil
	}
	objs, err := t.objects(ctx)
	if err != nil {
		return err
	}
	if len(objs) > 0 && !t.opts.Force {
		names := make([]string, 0, len(objs))
		for name := range objs {
			names = append(names, name)
		}
		return fmt.Errorf("%s database %q already holds tables polyfuzz did not create (%s); polyfuzz works only in "+
			"a database of its own (named after the DSN's database); use another database or pass --force",
			t.dsn.Engine, t.db, sqlserver.ObjectList(names, 5))
	}
	t.keep = make(map[string]bool, len(objs))
	for name := range objs {
		t.keep[name] = true
	}
	return nil
}

// lock tries to take the lock on the database name without waiting, and reports whether it did.
func (t *Target) lock(ctx context.Context, name string) (bool, error) {
	row, err := t.row(ctx, "SELECT GET_LOCK('"+name+"', 0)")
	if err == nil && row[0] != "0" && row[0] != "1" {
		err = fmt.Errorf("GET_LOCK answered %q", row[0])
	}
	if err != nil {
		return false, t.dsn.Failed("lock database "+name, err)
	}
	return row[0] == "1", nil
}

// relock takes the lock on the database again in a new session (see sqlserver.Reclaim).
func (t *Target) relock(ctx context.Context) error {
	err := t.dsn.Reclaim(ctx, "database", t.db, t.lock)
	if err != nil {
		t.drop()
	}
	return err
}

// reconnect opens a new session after a crash, waiting up to wait while the server restarts and
// recovers, and takes the database's lock again.
func (t *Target) reconnect(ctx context.Context, wait time.Duration) error {
	t.drop()
	if err := t.connect(ctx, wait); err != nil {
		return err
	}
	return t.relock(ctx)
}

func (t *Target) createDB() string {
	s := "CREATE DATABASE " + t.db + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
	if t.mariadb {
		s += " COMMENT '" + sqlserver.OwnerComment + "'"
	}
	return s
}

// objects returns the tables, views and sequences of the worker database with their types.
func (t *Target) objects(ctx context.Context) (map[string]string, error) {
	rows, err := t.rows(ctx, "SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"+t.db+"'")
	if err != nil {
		return nil, t.dsn.Failed("list the tables of "+t.db, err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r[0]] = r[1]
	}
	return out, nil
}

// Name returns the flavor, "mysql" or "mariadb".
func (t *Target) Name() string { return t.opts.Flavor }

// Version returns the server's version, e.g. "10.11.14-MariaDB" or "8.0.36".
func (t *Target) Version() string { return t.version }

// Database returns the database the target works in.
func (t *Target) Database() string { return t.db }

var errClosed = errors.New("mysql: target is closed")

// Reset empties the worker database (recreating it when polyfuzz owns it) and restores the
// session's settings; after a crash it reconnects first, waiting while the server restarts and
// recovers, and takes the database's lock again (it fails if another session took it meanwhile).
func (t *Target) Reset(ctx context.Context) error {
	start := time.Now()
	for {
		err, lost := t.reset(ctx)
		if err == nil || !lost || ctx.Err() != nil || time.Since(start) >= sqlserver.RecoveryWait {
			return err
		}
		// The server died during the reset (a statement of another session crashed it): wait
		// for it to come back and start again.
		t.crashed = err.Error()
		t.drop()
	}
}

// reset is one attempt of Reset; lost reports that the connection was lost on the way.
func (t *Target) reset(ctx context.Context) (err error, lost bool) {
	if t.closed {
		return errClosed, false
	}
	if t.crashed != "" {
		if err := t.reconnect(ctx, sqlserver.RecoveryWait); err != nil {
			return err, false
		}
		t.crashed = ""
	} else if t.conn == nil {
		// The backstop dropped the session: its query may still run, holding the lock.
		if err := t.reopen(ctx); err != nil {
			return err, false
		}
	}
	if err := t.empty(ctx); err != nil {
		return err, t.lostErr(err) // Failed keeps the driver's error to unwrap
	}
	stmts := []string{"ROLLBACK", "USE " + t.db, t.sessionSettings()}
	for _, s := range stmts {
		if err := t.exec(ctx, s); err != nil {
			return t.dsn.Failed("reset the session", err), t.lostErr(err)
		}
	}
	return nil, false
}

// lostErr reports whether err says the connection to the server was lost.
func (t *Target) lostErr(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return lostErrno(me.Number)
	}
	return isLost(err)
}

// empty drops what polyfuzz created in the worker database.
func (t *Target) empty(ctx context.Context) error {
	if t.owned {
		for _, s := range []string{"DROP DATABASE IF EXISTS " + t.db, t.createDB()} {
			if err := t.exec(ctx, s); err != nil {
				return t.dsn.Failed("recreate database "+t.db, err)
			}
		}
		return nil
	}
	objs, err := t.objects(ctx)
	if err != nil {
		return err
	}
	var tables, views, seqs []string
	for name, typ := range objs {
		if t.keep[name] {
			continue
		}
		q := t.db + ".`" + strings.ReplaceAll(name, "`", "``") + "`"
		switch typ {
		case "VIEW", "SYSTEM VIEW":
			views = append(views, q)
		case "SEQUENCE":
			seqs = append(seqs, q)
		default:
			tables = append(tables, q)
		}
	}
	var stmts []string
	if len(views) > 0 {
		stmts = append(stmts, "DROP VIEW IF EXISTS "+strings.Join(views, ", "))
	}
	if len(tables) > 0 {
		stmts = append(stmts, "SET SESSION foreign_key_checks = 0", "DROP TABLE IF EXISTS "+strings.Join(tables, ", "))
	}
	if len(seqs) > 0 {
		stmts = append(stmts, "DROP SEQUENCE IF EXISTS "+strings.Join(seqs, ", "))
	}
	for _, s := range stmts {
		if err := t.exec(ctx, s); err != nil {
			return t.dsn.Failed("drop polyfuzz's tables in "+t.db, err)
		}
	}
	return nil
}

// release releases the database's lock, so that the next session that tries it gets it at once
// rather than once the server has ended this one, and closes the session.
func (t *Target) release() {
	if t.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		t.exec(ctx, "DO RELEASE_LOCK('"+t.db+"')")
		cancel()
	}
	t.drop()
}

// drop forgets the current connection.
func (t *Target) drop() {
	if t.conn != nil {
		t.conn.Close()
		t.conn, t.query = nil, nil
	}
}

// Close drops what polyfuzz created (the whole worker database when it owns it), releases the
// database's lock and closes the session. After a lost session it drops nothing unless it gets the
// lock again.
func (t *Target) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	switch {
	case t.crashed != "":
		if err := t.reconnect(ctx, 0); err != nil {
			return err
		}
	case t.conn == nil:
		if err := t.reopen(ctx); err != nil {
			return err
		}
	}
	defer t.release()
	t.exec(ctx, "ROLLBACK")
	if t.owned {
		if err := t.exec(ctx, "DROP DATABASE IF EXISTS "+t.db); err != nil {
			return t.dsn.Failed("drop database "+t.db, err)
		}
		return nil
	}
	return t.empty(ctx)
}

// exec runs an internal statement and discards its rows.
func (t *Target) exec(ctx context.Context, q string) error {
	_, err := t.rows(ctx, q)
	return err
}

// row runs an internal query that answers one row.
func (t *Target) row(ctx context.Context, q string) ([]string, error) {
	rows, err := t.rows(ctx, q)
	if err == nil && len(rows) != 1 {
		err = fmt.Errorf("%s answered %d rows", q, len(rows))
	}
	if err != nil {
		return nil, err
	}
	return rows[0], nil
}

// rows runs an internal query and returns its rows as text.
func (t *Target) rows(ctx context.Context, q string) ([][]string, error) {
	if t.query == nil {
		return nil, errors.New("not connected")
	}
	rs, err := t.query.QueryContext(ctx, q, nil)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	res, err := t.reader.Read(rs, plainText)
	if err != nil {
		return nil, err
	}
	return res.Rows, nil
}

// plainText prints a value of an internal query as the server's text, NULL as "".
func plainText(_ string, v driver.Value) string {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// Exec runs one statement and reads all its rows.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.closed {
		return nil, errClosed
	}
	if t.crashed != "" {
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
	}
	if t.conn == nil {
		// The backstop dropped the session; the database survives on the server.
		if err := t.reopen(ctx); err != nil {
			t.crashed = err.Error()
			return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
		}
	}
	qctx, cancel := sqlexec.Context(ctx, t.opts.Timeout, sqlserver.Backstop)
	defer cancel()
	start := time.Now()
	res, err := t.run(qctx, stmt)
	if err != nil {
		return t.errResult(ctx, qctx, err)
	}
	if t.opts.Timeout > 0 && time.Since(start) >= t.opts.Timeout {
		// The server interrupts some work quietly (BENCHMARK, for one, just returns): an answer
		// that took the whole timeout may have been cut short.
		return sqlexec.Timeout(t.opts.Timeout, "answered after the timeout, possibly cut short"), nil
	}
	return res, nil
}

// reopen opens a new session in the worker database after the old one was dropped, kills what
// the old one was running and takes the database's lock again once the old session has ended.
func (t *Target) reopen(ctx context.Context) error {
	old := t.connID
	if err := t.connect(ctx, 0); err != nil {
		return err
	}
	if old != 0 {
		t.exec(ctx, "KILL "+strconv.FormatUint(old, 10)) // it may be gone already
	}
	if err := t.relock(ctx); err != nil {
		return err
	}
	if err := t.exec(ctx, "USE "+t.db); err != nil {
		return t.dsn.Failed("use database "+t.db, err)
	}
	return nil
}

func (t *Target) run(ctx context.Context, stmt string) (*fuzz.Result, error) {
	rs, err := t.query.QueryContext(ctx, stmt, nil)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	res, err := t.reader.Read(rs, Canonical)
	if err != nil {
		return nil, err
	}
	return res, rs.Close()
}

// errResult turns a failed statement into its result: an engine error, a timeout or a crash.
func (t *Target) errResult(ctx, qctx context.Context, err error) (*fuzz.Result, error) {
	var me *mysql.MySQLError
	isMy := errors.As(err, &me)
	switch {
	case isMy && (me.Number == 1969 || me.Number == 3024):
		return sqlexec.Timeout(t.opts.Timeout, me.Message), nil
	case isMy && lostErrno(me.Number):
		t.crashed = fmt.Sprintf("error %d: %s", me.Number, me.Message)
		t.drop()
		return &fuzz.Result{Status: fuzz.StatusCrash, Code: strconv.Itoa(int(me.Number)), Err: t.crashed}, nil
	case isMy && qctx.Err() == nil:
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: strconv.Itoa(int(me.Number)), Err: me.Message}, nil
	case ctx.Err() != nil:
		// The caller gave up: drop the session, whose query may still run, and say why.
		t.drop()
		return nil, ctx.Err()
	case qctx.Err() != nil:
		// The backstop fired: the driver dropped the session. Exec reconnects next time.
		t.drop()
		return sqlexec.Timeout(t.opts.Timeout, "the server did not stop it; the session was dropped"), nil
	}
	if v, ok := t.conn.(driver.Validator); ok && !v.IsValid() || isLost(err) {
		t.crashed = "lost the connection to the server: " + t.dsn.Redact(err.Error())
		t.drop()
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
	}
	return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "driver", Err: t.dsn.Redact(err.Error())}, nil
}

// isLost reports whether err says the connection to the server is gone.
func isLost(err error) bool {
	var ne net.Error
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &ne)
}

// Canonical prints a value the driver read, given its column's database type name (as
// ColumnTypeDatabaseTypeName reports it: "INT", "DECIMAL", "VARBINARY", ...).
func Canonical(typeName string, v driver.Value) string {
	switch x := v.(type) {
	case nil:
		return fuzz.Null
	case int64:
		return fuzz.Int(x)
	case uint64:
		return "i:" + strconv.FormatUint(x, 10)
	case float32:
		return fuzz.Float32(x)
	case float64:
		return fuzz.Float(x)
	case []byte:
		switch typeName {
		case "DECIMAL":
			return fuzz.Decimal(string(x))
		case "BINARY", "VARBINARY", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "BIT", "GEOMETRY":
			return fuzz.Bytes(x)
		}
		return "t:" + string(x)
	case time.Time:
		return "t:" + x.Format("2006-01-02 15:04:05.999999")
	}
	return "t:" + fmt.Sprint(v)
}
