package bolt

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/config"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/db"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/notifications"

	"github.com/polyfuzz/polyfuzz/cypherval"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/redact"
	"github.com/polyfuzz/polyfuzz/targets/unreachable"
)

// Options configure a Bolt target.
type Options struct {
	URL     string        // bolt://[user[:password]@]host:port[?database=NAME] or neo4j://...
	Timeout time.Duration // per statement (transaction timeout); 0 means none
	Force   bool          // work in (and empty) a database that holds nodes
	Worker  int           // worker number; "{worker}" in the URL's database is replaced by it
	Name    string        // engine name in titles: "neo4j" (default) or "memgraph"
}

// Timings.
const (
	connectTimeout = 5 * time.Second
	// backstop is how long past a statement's timeout the client waits for the server's answer.
	// Neo4j checks transaction timeouts every 2 s (db.transaction.monitor.check.interval).
	backstop = 5 * time.Second
	// recoveryWait bounds how long Reset waits for a server that went away.
	recoveryWait = 60 * time.Second
)

// Target is one Bolt session on a database polyfuzz owns.
type Target struct {
	o       Options
	u       *boltURL
	driver  neo4j.DriverWithContext
	sess    neo4j.SessionWithContext
	version string
	// keep holds the names of the indexes and constraints that existed at Open.
	keep map[string]bool
	// schemaDirty is set when a statement may have created an index or a constraint.
	schemaDirty bool
	// crashed holds the message of a lost connection; Exec answers crash until Reset.
	crashed string
	closed  bool
}

// boltURL is a parsed target URL.
type boltURL struct {
	scheme, user, password, host, port, database string
}

func (u *boltURL) addr() string { return net.JoinHostPort(u.host, u.port) }

// driverURL is the URL the driver gets: no credentials, no parameters.
func (u *boltURL) driverURL() string { return u.scheme + "://" + u.addr() }

var schemes = []string{"bolt", "neo4j", "bolt+s", "bolt+ssc", "neo4j+s", "neo4j+ssc"}

// parseURL parses a target URL for the engine name, replacing "{worker}" in its database.
func parseURL(name, raw string, worker int) (*boltURL, error) {
	scheme, _, _ := strings.Cut(raw, "://")
	scheme = strings.ToLower(scheme)
	ok := false
	for _, s := range schemes {
		ok = ok || s == scheme
	}
	if !ok {
		return nil, fmt.Errorf("%s wants a bolt:// or neo4j:// URL, got %q", name, Redact(raw))
	}
	pu, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s URL %q does not parse; give bolt://[USER[:PASSWORD]@]HOST:PORT[?database=NAME]", name, Redact(raw))
	}
	u := &boltURL{scheme: scheme, host: pu.Hostname(), port: pu.Port(), database: pu.Query().Get("database")}
	if pu.User != nil {
		u.user = pu.User.Username()
		u.password, _ = pu.User.Password()
	}
	if u.host == "" {
		u.host = "127.0.0.1"
	}
	if u.port == "" {
		u.port = "7687"
	}
	u.database = strings.ReplaceAll(u.database, "{worker}", strconv.Itoa(worker))
	return u, nil
}

// Redact returns the URL with its password masked.
func Redact(url string) string { return redact.Text(url) }

// Open connects, reads the server's version, checks that the database is polyfuzz's to use and
// empties it.
func Open(ctx context.Context, o Options) (*Target, error) {
	if o.Name == "" {
		o.Name = "neo4j"
	}
	u, err := parseURL(o.Name, o.URL, o.Worker)
	if err != nil {
		return nil, err
	}
	if o.Worker > 0 && u.database == "" {
		return nil, fmt.Errorf("%s at %s: worker %d cannot share the default database with worker 0 (Neo4j Community "+
			"has only one); run one worker per server, or give each worker a database of its own "+
			"(%s://%s?database=NAME{worker})", o.Name, u.addr(), o.Worker, u.scheme, u.addr())
	}
	auth := neo4j.NoAuth()
	if u.user != "" {
		auth = neo4j.BasicAuth(u.user, u.password, "")
	}
	drv, err := neo4j.NewDriverWithContext(u.driverURL(), auth, func(c *config.Config) {
		c.MaxConnectionPoolSize = 1
		c.SocketConnectTimeout = connectTimeout
		c.ConnectionAcquisitionTimeout = connectTimeout
		c.MaxTransactionRetryTime = 0
		c.FetchSize = neo4j.FetchAll
		c.UserAgent = "polyfuzz"
		c.TelemetryDisabled = true
		// Notification filtering is asked for per session, when the server takes it
		// (notificationFiltering): Neo4j 4.4 refuses the connection of a driver that asks.
	})
	if err != nil {
		return nil, fmt.Errorf("%s URL %s: %s", o.Name, Redact(o.URL), u.redact(err.Error()))
	}
	t := &Target{o: o, u: u, driver: drv}
	if err := t.open(ctx); err != nil {
		t.driver.Close(context.Background())
		return nil, err
	}
	return t, nil
}

func (t *Target) open(ctx context.Context) error {
	// A Redis server waits for the rest of a line after Bolt's handshake, so the driver would wait
	// for its timeout: ask first.
	if isRedis(ctx, t.u.addr()) {
		return t.wrongKind()
	}
	cctx, cancel := context.WithTimeout(ctx, 2*connectTimeout)
	defer cancel()
	info, err := t.driver.GetServerInfo(cctx)
	if err != nil {
		return t.connectError(ctx, err)
	}
	_, t.version, _ = strings.Cut(info.Agent(), "/")
	sc := neo4j.SessionConfig{DatabaseName: t.u.database, FetchSize: neo4j.FetchAll}
	if notificationFiltering(info.ProtocolVersion()) {
		sc.NotificationsMinSeverity = notifications.DisabledLevel
	}
	t.sess = t.driver.NewSession(ctx, sc)
	rows, err := t.query(ctx, "MATCH (n) WITH n LIMIT 1 RETURN count(n)")
	if err != nil {
		var ne *neo4j.Neo4jError
		if errors.As(err, &ne) && strings.Contains(ne.Code, "DatabaseNotFound") {
			return fmt.Errorf("%s at %s has no database %q; create it or fix the URL's database", t.o.Name, t.u.addr(), t.u.database)
		}
		return t.failed("look for nodes", err)
	}
	if len(rows) == 1 && rows[0][0] != int64(0) && !t.o.Force {
		return fmt.Errorf("%s database %s at %s is not empty (it holds nodes); polyfuzz deletes every node of the "+
			"database it works in: use an empty database, or pass --force to let it empty this one",
			t.o.Name, t.dbName(), t.u.addr())
	}
	t.keep = map[string]bool{}
	names, err := t.schemaNames(ctx)
	if err != nil {
		return t.failed("list indexes and constraints", err)
	}
	for _, n := range names {
		t.keep[n] = true
	}
	return t.Reset(ctx)
}

// notificationFiltering reports whether a server speaking Bolt protocol v takes notification
// filtering (Bolt 5.2, Neo4j 5.7): the driver refuses to open a session that asks for it on an
// older server, such as Neo4j 4.4 (Bolt 4.4).
func notificationFiltering(v db.ProtocolVersion) bool {
	return v.Major > 5 || v.Major == 5 && v.Minor >= 2
}

// dbName names the database for messages.
func (t *Target) dbName() string {
	if t.u.database == "" {
		return "(default)"
	}
	return strconv.Quote(t.u.database)
}

// redact removes the URL's password from s.
func (u *boltURL) redact(s string) string { return redact.Password(s, u.password) }

// failed returns a one-line error for a failed internal step.
func (t *Target) failed(what string, err error) error {
	return fmt.Errorf("%s at %s: %s: %s", t.o.Name, t.u.addr(), what, t.u.redact(oneLine(err.Error())))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// connectError turns a failed connect into one clear line.
func (t *Target) connectError(ctx context.Context, err error) error {
	addr := t.u.addr()
	var ce *neo4j.ConnectivityError
	if errors.As(err, &ce) && ce.Inner != nil {
		err = ce.Inner // the driver's wrapper does not unwrap
	}
	if reason, ok := unreachable.Reason(err, connectTimeout); ok {
		return fmt.Errorf("cannot reach %s at %s: %s; is the server running? start it or fix the URL (%s://HOST:PORT)",
			t.o.Name, addr, reason, t.u.scheme)
	}
	var ae *neo4j.InvalidAuthenticationError
	var ne *neo4j.Neo4jError
	if errors.As(err, &ae) || errors.As(err, &ne) && (ne.IsAuthenticationFailed() || strings.Contains(ne.Code, "Security.Unauthorized")) {
		return fmt.Errorf("%s at %s refused user %q: wrong password or no such user", t.o.Name, addr, t.u.user)
	}
	return t.failed("connect", err)
}

func (t *Target) wrongKind() error {
	return fmt.Errorf("%s at %s: the server speaks Redis's protocol (RESP), not Bolt; is it FalkorDB or Redis? fix the URL's port",
		t.o.Name, t.u.addr())
}

// isRedis reports whether the server at addr answers an inline PING the way Redis does.
func isRedis(ctx context.Context, addr string) bool {
	d := net.Dialer{Timeout: connectTimeout}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	buf := make([]byte, 64)
	n, _ := c.Read(buf)
	reply := string(buf[:n])
	return strings.HasPrefix(reply, "+PONG") || strings.HasPrefix(reply, "-NOAUTH") || strings.HasPrefix(reply, "-ERR")
}

// Name returns the engine's name, "neo4j" or "memgraph".
func (t *Target) Name() string { return t.o.Name }

// Version returns the server's version, e.g. "5.26.30".
func (t *Target) Version() string { return t.version }

// txConfig applies the statement timeout.
func (t *Target) txConfig(c *neo4j.TransactionConfig) {
	if t.o.Timeout > 0 {
		c.Timeout = t.o.Timeout
	}
}

// run runs one auto-commit statement and collects its columns and records.
func (t *Target) run(ctx context.Context, stmt string) ([]string, []*neo4j.Record, error) {
	res, err := t.sess.Run(ctx, stmt, nil, t.txConfig)
	return collect(ctx, res, err)
}

// collect returns the columns and records of a statement's result, or the error of running it.
func collect(ctx context.Context, res neo4j.ResultWithContext, err error) ([]string, []*neo4j.Record, error) {
	if err != nil {
		return nil, nil, err
	}
	recs, err := res.Collect(ctx)
	if err != nil {
		return nil, nil, err
	}
	keys, err := res.Keys()
	return keys, recs, err
}

// query runs an internal statement and returns its rows' raw values.
func (t *Target) query(ctx context.Context, stmt string) ([][]any, error) {
	_, recs, err := t.run(ctx, stmt)
	if err != nil {
		return nil, err
	}
	out := make([][]any, len(recs))
	for i, r := range recs {
		out[i] = r.Values
	}
	return out, nil
}

var errClosed = errors.New("bolt: target is closed")

// Exec runs one statement as an auto-commit query.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.closed {
		return nil, errClosed
	}
	if t.crashed != "" {
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
	}
	if s := strings.ToLower(stmt); strings.Contains(s, "index") || strings.Contains(s, "constraint") {
		t.schemaDirty = true
	}
	sctx, cancel := ctx, context.CancelFunc(func() {})
	if t.o.Timeout > 0 {
		sctx, cancel = context.WithTimeout(ctx, t.o.Timeout+backstop)
	}
	defer cancel()
	keys, recs, err := t.run(sctx, stmt)
	if err != nil {
		return t.failure(ctx, sctx, err)
	}
	return t.result(keys, recs), nil
}

// result makes the canonical result of a statement's columns and records.
func (t *Target) result(keys []string, recs []*neo4j.Record) *fuzz.Result {
	r := &fuzz.Result{Status: fuzz.StatusOK, Columns: keys, Rows: make([][]string, len(recs))}
	for i, rec := range recs {
		row := make([]string, len(rec.Values))
		for j, v := range rec.Values {
			row[j] = value(v).Canon()
		}
		r.Rows[i] = row
	}
	return r
}

// failure classifies a failed statement: an engine error, a timeout, a lost connection, or (when
// the caller's context ended) a Go error.
func (t *Target) failure(ctx, sctx context.Context, err error) (*fuzz.Result, error) {
	var ne *neo4j.Neo4jError
	switch {
	case errors.As(err, &ne):
		code := ne.Code
		if code == "" {
			code = ne.GqlStatus
		}
		msg := oneLine(ne.Msg)
		if t.o.Timeout > 0 && timedOut(code) {
			return &fuzz.Result{Status: fuzz.StatusTimeout, Code: code, Err: msg}, nil
		}
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: code, Err: msg}, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case sctx.Err() != nil:
		return &fuzz.Result{Status: fuzz.StatusTimeout,
			Err: fmt.Sprintf("no answer within %s (timeout %s)", t.o.Timeout+backstop, t.o.Timeout)}, nil
	case neo4j.IsUsageError(err):
		return nil, t.failed("run", err)
	}
	t.crashed = fmt.Sprintf("lost connection to %s at %s: %s", t.o.Name, t.u.addr(), t.u.redact(oneLine(err.Error())))
	return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
}

// timedOut reports whether an error code says that the server stopped the transaction: its
// timeout expired (TransactionTimedOut...), or the server terminated it meanwhile, which a write
// reports as LockClientStopped or Terminated.
func timedOut(code string) bool {
	return strings.Contains(code, "TransactionTimedOut") || strings.HasSuffix(code, "Transaction.Terminated") ||
		strings.HasSuffix(code, "Transaction.LockClientStopped")
}

// Reset deletes every node and relationship and drops the indexes and constraints made since Open;
// after a crash it first waits for the server to answer again.
func (t *Target) Reset(ctx context.Context) error {
	if t.closed {
		return errClosed
	}
	if t.crashed != "" {
		if err := t.await(ctx); err != nil {
			return err
		}
		t.crashed = ""
	}
	return t.clear(ctx)
}

// await waits up to recoveryWait for the server to answer.
func (t *Target) await(ctx context.Context) error {
	deadline := time.Now().Add(recoveryWait)
	for {
		cctx, cancel := context.WithTimeout(ctx, connectTimeout)
		err := t.driver.VerifyConnectivity(cctx)
		cancel()
		if err == nil || ctx.Err() != nil || time.Now().After(deadline) {
			if err != nil {
				return t.connectError(ctx, err)
			}
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Batched and plain forms of emptying the database; Memgraph knows only the plain one.
const (
	deleteBatched = "MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
	deletePlain   = "MATCH (n) DETACH DELETE n"
)

// clear empties the database and drops the indexes and constraints made since Open.
func (t *Target) clear(ctx context.Context) error {
	if _, err := t.query(ctx, deleteBatched); err != nil {
		var ne *neo4j.Neo4jError
		if !errors.As(err, &ne) || !strings.Contains(ne.Code, "Syntax") {
			return t.failed("delete the graph", err)
		}
		if _, err := t.query(ctx, deletePlain); err != nil {
			return t.failed("delete the graph", err)
		}
	}
	if !t.schemaDirty {
		return nil
	}
	for _, kind := range []string{"CONSTRAINT", "INDEX"} {
		names, err := t.names(ctx, "SHOW "+plural[kind]+" YIELD name")
		if err != nil {
			return t.failed("list "+strings.ToLower(plural[kind]), err)
		}
		for _, n := range names {
			if t.keep[n] {
				continue
			}
			if _, err := t.query(ctx, "DROP "+kind+" "+quoteName(n)+" IF EXISTS"); err != nil {
				return t.failed("drop "+strings.ToLower(kind)+" "+n, err)
			}
		}
	}
	t.schemaDirty = false
	return nil
}

var plural = map[string]string{"CONSTRAINT": "CONSTRAINTS", "INDEX": "INDEXES"}

// schemaNames lists the names of the database's constraints and indexes; a server that knows
// neither SHOW command (Memgraph) has none that polyfuzz tracks.
func (t *Target) schemaNames(ctx context.Context) ([]string, error) {
	var all []string
	for _, q := range []string{"SHOW CONSTRAINTS YIELD name", "SHOW INDEXES YIELD name"} {
		names, err := t.names(ctx, q)
		var ne *neo4j.Neo4jError
		if errors.As(err, &ne) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		all = append(all, names...)
	}
	return all, nil
}

// names runs a statement and returns its first column's strings.
func (t *Target) names(ctx context.Context, q string) ([]string, error) {
	rows, err := t.query(ctx, q)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rows {
		if s, ok := r[0].(string); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// quoteName quotes a name with backticks.
func quoteName(n string) string { return "`" + strings.ReplaceAll(n, "`", "``") + "`" }

// Close empties the database as Reset does and ends the session.
func (t *Target) Close() error {
	if t.closed {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	if t.crashed == "" {
		err = t.clear(ctx)
	}
	t.closed = true
	t.sess.Close(ctx)
	t.driver.Close(ctx)
	return err
}

// value converts a value the driver returns to a cypherval.Val.
func value(v any) cypherval.Val {
	switch x := v.(type) {
	case nil:
		return cypherval.NullVal
	case bool:
		return cypherval.BoolVal(x)
	case int64:
		return cypherval.IntVal(x)
	case float64:
		return cypherval.FloatVal(x)
	case string:
		return cypherval.StringVal(x)
	case []byte:
		return cypherval.StringVal("0x" + hex.EncodeToString(x))
	case []any:
		l := make([]cypherval.Val, len(x))
		for i, e := range x {
			l[i] = value(e)
		}
		return cypherval.ListVal(l...)
	case map[string]any:
		return cypherval.Val{Kind: cypherval.Map, M: props(x)}
	case dbtype.Node:
		return node(x)
	case dbtype.Relationship:
		return rel(x)
	case dbtype.Path:
		return path(x)
	}
	return cypherval.StringVal(fmt.Sprint(v))
}

// path converts a path. The driver's Nodes are the path's distinct nodes, its Relationships
// the sequence (with StartId and EndId): the walk from the first node follows them, so a path
// that visits a node twice (a self-loop) keeps every step.
func path(x dbtype.Path) cypherval.Val {
	p := cypherval.Val{Kind: cypherval.Path}
	if len(x.Nodes) == 0 {
		return p
	}
	byID := make(map[int64]dbtype.Node, len(x.Nodes))
	for _, n := range x.Nodes {
		byID[n.Id] = n //lint:ignore SA1019 ids are consistent within one result
	}
	cur := x.Nodes[0]
	p.L = append(p.L, node(cur))
	for _, r := range x.Relationships {
		next := r.EndId
		if r.StartId != cur.Id {
			next = r.StartId
		}
		cur = byID[next]
		p.L = append(p.L, rel(r), node(cur))
	}
	return p
}

func props(m map[string]any) map[string]cypherval.Val {
	out := make(map[string]cypherval.Val, len(m))
	for k, e := range m {
		out[k] = value(e)
	}
	return out
}

func node(n dbtype.Node) cypherval.Val {
	return cypherval.Val{Kind: cypherval.Node, Labels: n.Labels, M: props(n.Props), ID: n.Id}
}

func rel(r dbtype.Relationship) cypherval.Val {
	return cypherval.Val{Kind: cypherval.Rel, Labels: []string{r.Type}, M: props(r.Props),
		ID: r.Id, From: r.StartId, To: r.EndId}
}
