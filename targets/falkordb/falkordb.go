package falkordb

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/polyfuzz/polyfuzz/cypherval"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/redact"
	"github.com/polyfuzz/polyfuzz/targets/unreachable"
)

// Options configure a FalkorDB target.
type Options struct {
	URL     string        // redis://[user:password@]host:port[/db]
	Timeout time.Duration // per statement (the TIMEOUT argument); 0 means none
	Force   bool          // delete a non-graph key of the graph's name; share it with a live connection
	Worker  int           // the graph key is "polyfuzz_w<Worker>"
}

// Timings.
const (
	connectTimeout = 5 * time.Second
	// backstop is how long past a statement's timeout the client waits for the server's answer.
	backstop = 2 * time.Second
	// recoveryWait bounds how long Reset waits for a server that went away.
	recoveryWait = 60 * time.Second
)

// Target is one connection working in the graph key polyfuzz_w<Worker>.
type Target struct {
	o        Options
	addr     string
	user     string
	password string
	key      string
	c        *redis.Client
	version  string
	// The names that label, property-key and relationship-type ids index.
	labels, keys, types []string
	// crashed holds the message of a lost connection; Exec answers crash until Reset.
	crashed string
	// overran says that the last statement got no answer within its backstop: the server may
	// still be running it, so the next statement first waits for the graph to answer.
	overran bool
	closed  bool
}

// Redact returns the URL with its password masked.
func Redact(url string) string { return redact.Text(url) }

// Open connects, checks that the server runs FalkorDB and that the worker's graph key is
// polyfuzz's to use, and deletes it.
func Open(ctx context.Context, o Options) (*Target, error) {
	quietClient.Do(func() { redis.SetLogger(silent{}) })
	scheme, _, _ := strings.Cut(o.URL, "://")
	if s := strings.ToLower(scheme); s != "redis" && s != "rediss" {
		return nil, fmt.Errorf("falkordb wants a redis:// URL, got %q", Redact(o.URL))
	}
	ro, err := redis.ParseURL(o.URL)
	if err != nil {
		return nil, fmt.Errorf("falkordb URL %q does not parse (%s); give redis://[USER:PASSWORD@]HOST:PORT[/DB]",
			Redact(o.URL), redact.Text(err.Error()))
	}
	t := &Target{o: o, addr: ro.Addr, user: ro.Username, password: ro.Password, key: "polyfuzz_w" + strconv.Itoa(o.Worker)}
	if t.user == "" {
		t.user = "default"
	}
	ro.ClientName = t.key
	ro.Protocol = 2
	ro.DisableIdentity = true
	ro.PoolSize = 1
	ro.MaxRetries = -1
	ro.DialTimeout = connectTimeout
	ro.DialerRetries = 1
	ro.ReadTimeout = -1
	ro.WriteTimeout = connectTimeout
	ro.ContextTimeoutEnabled = true
	t.c = redis.NewClient(ro)
	if err := t.open(ctx); err != nil {
		t.c.Close()
		return nil, err
	}
	return t, nil
}

func (t *Target) open(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 2*connectTimeout)
	defer cancel()
	if err := t.c.Ping(cctx).Err(); err != nil {
		return t.connectError(ctx, err)
	}
	// Every step below is bounded: a server whose graph threads are stuck must not hang the caller.
	ctx, cancel = context.WithTimeout(ctx, recoveryWait)
	defer cancel()
	t.version = t.moduleVersion(ctx)
	if err := t.c.Do(ctx, "GRAPH.QUERY", t.key, "RETURN 1", "--compact").Err(); err != nil {
		if strings.Contains(strings.ToLower(err.Error()), "unknown command") {
			return fmt.Errorf("falkordb at %s: no GRAPH.QUERY command: is the FalkorDB module loaded? "+
				"(start redis-server with --loadmodule falkordb.so)", t.addr)
		}
		var re redis.Error
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "WRONGTYPE") {
			return t.failed("run a query", err)
		}
		// The key holds something else; the check below says so.
	}
	typ, err := t.c.Type(ctx, t.key).Result()
	if err != nil {
		return t.failed("read the type of key "+t.key, err)
	}
	if typ != "none" && typ != "graphdata" {
		if !t.o.Force {
			return fmt.Errorf("falkordb at %s: key %s holds a %s, not a graph; polyfuzz works in the graph of that "+
				"name: delete the key, use another database (redis://HOST:PORT/DB), or pass --force to let polyfuzz delete it",
				t.addr, t.key, typ)
		}
		if err := t.c.Del(ctx, t.key).Err(); err != nil {
			return t.failed("delete key "+t.key, err)
		}
	}
	if other := t.otherClient(ctx); other != "" && !t.o.Force {
		return fmt.Errorf("falkordb at %s: graph %s is in use by another polyfuzz connection (%s); give this run "+
			"other worker numbers or another database, or pass --force if that connection is not polyfuzz's",
			t.addr, t.key, other)
	}
	return t.Reset(ctx)
}

// moduleVersion reads the graph module's version from MODULE LIST ("4.16.3"), or "" when the
// server does not say.
func (t *Target) moduleVersion(ctx context.Context) string {
	mods, err := t.c.Do(ctx, "MODULE", "LIST").Slice()
	if err != nil {
		return ""
	}
	for _, m := range mods {
		fields, _ := m.([]any)
		info := map[string]any{}
		for i := 0; i+1 < len(fields); i += 2 {
			if k, ok := fields[i].(string); ok {
				info[k] = fields[i+1]
			}
		}
		if info["name"] == "graph" {
			if v, ok := info["ver"].(int64); ok {
				return fmt.Sprintf("%d.%d.%d", v/10000, v/100%100, v%100)
			}
		}
	}
	return ""
}

// otherClient describes another live connection named after the graph key, or returns "".
func (t *Target) otherClient(ctx context.Context) string {
	id, err := t.c.ClientID(ctx).Result()
	if err != nil {
		return ""
	}
	list, err := t.c.ClientList(ctx).Result()
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(strings.NewReader(list))
	for sc.Scan() {
		f := map[string]string{}
		for _, kv := range strings.Fields(sc.Text()) {
			k, v, _ := strings.Cut(kv, "=")
			f[k] = v
		}
		if f["name"] == t.key && f["id"] != strconv.FormatInt(id, 10) {
			return "client " + f["id"] + " from " + f["addr"]
		}
	}
	return ""
}

// failed returns a one-line error for a failed internal step.
func (t *Target) failed(what string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("falkordb at %s: %s: no answer within %s: the server is busy (a statement still running "+
			"past its timeout?); restart it", t.addr, what, recoveryWait)
	}
	return fmt.Errorf("falkordb at %s: %s: %s", t.addr, what, t.redact(oneLine(err.Error())))
}

func (t *Target) redact(s string) string { return redact.Password(s, t.password) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// connectError turns a failed connect into one clear line.
func (t *Target) connectError(ctx context.Context, err error) error {
	if reason, ok := unreachable.Reason(err, connectTimeout); ok {
		return fmt.Errorf("cannot reach falkordb at %s: %s; is the server running? start it or fix the URL (redis://HOST:PORT)",
			t.addr, reason)
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "WRONGPASS") || strings.HasPrefix(msg, "NOAUTH") || strings.Contains(msg, "invalid password") ||
		strings.Contains(msg, "invalid username-password") {
		return fmt.Errorf("falkordb at %s refused user %q: wrong password or no such user", t.addr, t.user)
	}
	if isBolt(ctx, t.addr) {
		return fmt.Errorf("falkordb at %s: the server speaks Bolt (Neo4j or Memgraph), not Redis's protocol; fix the URL's port", t.addr)
	}
	return t.failed("connect", err)
}

// boltHandshake is Bolt's magic preamble and four protocol versions (5.0-5.8, 4.4, 4.0-4.3, 3.0).
var boltHandshake = []byte{0x60, 0x60, 0xb0, 0x17, 0, 8, 8, 5, 0, 0, 4, 4, 0, 3, 3, 4, 0, 0, 0, 3}

// isBolt reports whether the server at addr answers Bolt's handshake with a version.
func isBolt(ctx context.Context, addr string) bool {
	d := net.Dialer{Timeout: connectTimeout}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write(boltHandshake); err != nil {
		return false
	}
	buf := make([]byte, 4)
	n, _ := c.Read(buf)
	return n == 4 && buf[0] == 0 && buf[3] >= 1 && buf[3] <= 5
}

// Name returns "falkordb".
func (t *Target) Name() string { return "falkordb" }

// Version returns the FalkorDB module's version, e.g. "4.16.3".
func (t *Target) Version() string { return t.version }

var errClosed = errors.New("falkordb: target is closed")

// query sends one GRAPH.QUERY in compact form, with the statement timeout.
func (t *Target) query(ctx context.Context, stmt string) ([]any, error) {
	args := []any{"GRAPH.QUERY", t.key, stmt, "--compact"}
	if t.o.Timeout > 0 {
		args = append(args, "TIMEOUT", max(t.o.Timeout.Milliseconds(), 1))
	}
	return t.c.Do(ctx, args...).Slice()
}

// Exec runs one statement on the worker's graph.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.closed {
		return nil, errClosed
	}
	if t.crashed != "" {
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
	}
	if t.overran {
		if err := t.settle(ctx); err != nil {
			return nil, err
		}
	}
	sctx, cancel := ctx, context.CancelFunc(func() {})
	if t.o.Timeout > 0 {
		sctx, cancel = context.WithTimeout(ctx, t.o.Timeout+backstop)
	}
	defer cancel()
	reply, err := t.query(sctx, stmt)
	if err != nil {
		return t.failure(ctx, sctx, err)
	}
	r, err := t.decodeReply(reply)
	if errors.Is(err, errUnknownID) {
		if err = t.readNames(sctx); err == nil {
			r, err = t.decodeReply(reply)
		}
	}
	if err != nil {
		return nil, t.failed("decode the reply to "+strconv.Quote(stmt), err)
	}
	return r, nil
}

// failure classifies a failed statement: an engine error, a timeout, a lost connection, or (when
// the caller's context ended) a Go error.
func (t *Target) failure(ctx, sctx context.Context, err error) (*fuzz.Result, error) {
	var re redis.Error
	switch {
	case errors.As(err, &re):
		msg := oneLine(re.Error())
		if strings.HasPrefix(msg, "Query timed out") {
			return &fuzz.Result{Status: fuzz.StatusTimeout, Code: "timeout", Err: msg}, nil
		}
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: errorCode(msg), Err: msg}, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case sctx.Err() != nil || isNetTimeout(err):
		// The connection's deadline is the statement's; it may fire before the context says so.
		t.overran = true
		return &fuzz.Result{Status: fuzz.StatusTimeout,
			Err: fmt.Sprintf("no answer within %s (timeout %s)", t.o.Timeout+backstop, t.o.Timeout)}, nil
	}
	t.crashed = fmt.Sprintf("lost connection to falkordb at %s: %s", t.addr, t.redact(oneLine(err.Error())))
	return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.crashed}, nil
}

// errorClasses map a message's words to a short error class; the first match wins.
var errorClasses = []struct{ word, class string }{
	{"Invalid input", "syntax"},
	{"errMsg:", "syntax"},
	{"Type mismatch", "type"},
	{"Division by zero", "division-by-zero"},
	{"Unknown function", "unknown-function"},
	{"not defined", "undefined"},
	{"arguments to function", "argument"},
	{" must be ", "argument"},
}

// errorCode derives a short class from a FalkorDB error message, "error" when none fits.
func errorCode(msg string) string {
	for _, c := range errorClasses {
		if strings.Contains(msg, c.word) {
			return c.class
		}
	}
	return "error"
}

// Reset deletes the worker's graph and forgets its ids; after a crash it first waits for the
// server to answer again.
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
	return t.deleteGraph(ctx)
}

func (t *Target) deleteGraph(ctx context.Context) error {
	t.labels, t.keys, t.types = nil, nil, nil
	ctx, cancel := context.WithTimeout(ctx, recoveryWait)
	defer cancel()
	err := t.c.Do(ctx, "GRAPH.DELETE", t.key).Err()
	if err != nil && !strings.Contains(err.Error(), "empty key") {
		return t.failed("delete graph "+t.key, err)
	}
	return nil
}

// await waits up to recoveryWait for the server to answer.
func (t *Target) await(ctx context.Context) error {
	deadline := time.Now().Add(recoveryWait)
	for {
		cctx, cancel := context.WithTimeout(ctx, connectTimeout)
		err := t.c.Ping(cctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return t.connectError(ctx, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// settle waits, up to recoveryWait, until the worker's graph answers a trivial query again after
// a statement overran its backstop (one slow built-in call keeps running on the server).
func (t *Target) settle(ctx context.Context) error {
	deadline := time.Now().Add(recoveryWait)
	for {
		cctx, cancel := context.WithTimeout(ctx, connectTimeout)
		err := t.c.Do(cctx, "GRAPH.QUERY", t.key, "RETURN 1", "--compact").Err()
		cancel()
		var re redis.Error
		if err == nil || errors.As(err, &re) { // the server answers again
			t.overran = false
			return nil
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return fmt.Errorf("falkordb at %s did not answer for %s after a statement overran its timeout: %s",
				t.addr, recoveryWait, t.redact(oneLine(err.Error())))
		}
	}
}

// Close deletes the worker's graph and closes the connection.
func (t *Target) Close() error {
	if t.closed {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	if t.crashed == "" {
		err = t.deleteGraph(ctx)
	}
	t.closed = true
	t.c.Close()
	return err
}

// readNames reads the labels, property keys and relationship types that ids index.
func (t *Target) readNames(ctx context.Context) error {
	for _, n := range []struct {
		proc string
		dst  *[]string
	}{{"db.labels", &t.labels}, {"db.propertyKeys", &t.keys}, {"db.relationshipTypes", &t.types}} {
		reply, err := t.query(ctx, "CALL "+n.proc+"()")
		if err != nil {
			return err
		}
		r, err := t.decodeReply(reply)
		if err != nil {
			return err
		}
		names := make([]string, len(r.Rows))
		for i, row := range r.Rows {
			names[i] = strings.TrimPrefix(row[0], "t:")
		}
		*n.dst = names
	}
	return nil
}

// errUnknownID says that a reply holds a label, key or type id past the names known.
var errUnknownID = errors.New("unknown id")

// decodeReply decodes a compact reply: [header, rows, stats], or [stats] for a statement without
// RETURN.
func (t *Target) decodeReply(reply []any) (*fuzz.Result, error) {
	r := &fuzz.Result{Status: fuzz.StatusOK}
	if len(reply) < 3 {
		return r, nil
	}
	header, ok1 := reply[0].([]any)
	rows, ok2 := reply[1].([]any)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("malformed reply %v", reply)
	}
	for _, h := range header {
		p, ok := h.([]any)
		if !ok || len(p) != 2 {
			return nil, fmt.Errorf("malformed header %v", header)
		}
		name, _ := p[1].(string)
		r.Columns = append(r.Columns, name)
	}
	r.Rows = make([][]string, len(rows))
	for i, row := range rows {
		cells, ok := row.([]any)
		if !ok {
			return nil, fmt.Errorf("malformed row %v", row)
		}
		out := make([]string, len(cells))
		for j, c := range cells {
			v, err := t.typed(c)
			if err != nil {
				return nil, err
			}
			out[j] = v.Canon()
		}
		r.Rows[i] = out
	}
	return r, nil
}

// typed decodes a [type, value] pair.
func (t *Target) typed(x any) (cypherval.Val, error) {
	p, ok := x.([]any)
	if !ok || len(p) != 2 {
		return cypherval.Val{}, fmt.Errorf("malformed value %v", x)
	}
	typ, _ := p[0].(int64)
	return t.value(typ, p[1])
}

// Compact value types.
const (
	typeNull    = 1
	typeString  = 2
	typeInteger = 3
	typeBoolean = 4
	typeDouble  = 5
	typeList    = 6
	typeEdge    = 7
	typeNode    = 8
	typePath    = 9
	typeMap     = 10
	typePoint   = 11
	typeVector  = 12
)

// value decodes a value of a compact type.
func (t *Target) value(typ int64, v any) (cypherval.Val, error) {
	bad := func() (cypherval.Val, error) {
		return cypherval.Val{}, fmt.Errorf("malformed value of type %d: %v", typ, v)
	}
	switch typ {
	case typeNull:
		return cypherval.NullVal, nil
	case typeString:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		return cypherval.StringVal(s), nil
	case typeInteger:
		i, ok := v.(int64)
		if !ok {
			return bad()
		}
		return cypherval.IntVal(i), nil
	case typeBoolean:
		s, _ := v.(string)
		if s != "true" && s != "false" {
			return bad()
		}
		return cypherval.BoolVal(s == "true"), nil
	case typeDouble:
		s, _ := v.(string)
		f, err := parseDouble(s)
		if err != nil {
			return bad()
		}
		return cypherval.FloatVal(f), nil
	case typeList, typeVector:
		elems, ok := v.([]any)
		if !ok {
			return bad()
		}
		l := make([]cypherval.Val, len(elems))
		for i, e := range elems {
			var err error
			if typ == typeVector {
				l[i], err = t.value(typeDouble, e)
			} else {
				l[i], err = t.typed(e)
			}
			if err != nil {
				return cypherval.Val{}, err
			}
		}
		return cypherval.ListVal(l...), nil
	case typeMap:
		kv, ok := v.([]any)
		if !ok || len(kv)%2 != 0 {
			return bad()
		}
		m := make(map[string]cypherval.Val, len(kv)/2)
		for i := 0; i < len(kv); i += 2 {
			k, _ := kv[i].(string)
			e, err := t.typed(kv[i+1])
			if err != nil {
				return cypherval.Val{}, err
			}
			m[k] = e
		}
		return cypherval.Val{Kind: cypherval.Map, M: m}, nil
	case typeNode:
		return t.node(v)
	case typeEdge:
		return t.edge(v)
	case typePath:
		return t.path(v)
	case typePoint:
		ll, ok := v.([]any)
		if !ok || len(ll) != 2 {
			return bad()
		}
		return cypherval.StringVal(fmt.Sprintf("point({latitude: %v, longitude: %v})", ll[0], ll[1])), nil
	}
	return cypherval.StringVal(fmt.Sprint(v)), nil
}

// parseDouble parses FalkorDB's text of a double ("1.5", "1e+20", "inf", "-nan").
func parseDouble(s string) (float64, error) {
	switch strings.TrimPrefix(s, "-") {
	case "nan":
		return math.NaN(), nil
	case "inf":
		if s[0] == '-' {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	}
	return strconv.ParseFloat(s, 64)
}

// name looks up an id in names.
func name(names []string, id any) (string, error) {
	i, ok := id.(int64)
	if !ok || i < 0 {
		return "", fmt.Errorf("malformed id %v", id)
	}
	if i >= int64(len(names)) {
		return "", errUnknownID
	}
	return names[i], nil
}

// props decodes [[keyId, type, value]...].
func (t *Target) props(v any) (map[string]cypherval.Val, error) {
	ps, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("malformed properties %v", v)
	}
	m := make(map[string]cypherval.Val, len(ps))
	for _, p := range ps {
		kv, ok := p.([]any)
		if !ok || len(kv) != 3 {
			return nil, fmt.Errorf("malformed property %v", p)
		}
		k, err := name(t.keys, kv[0])
		if err != nil {
			return nil, err
		}
		typ, _ := kv[1].(int64)
		if m[k], err = t.value(typ, kv[2]); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// node decodes [id, [labelId...], props].
func (t *Target) node(v any) (cypherval.Val, error) {
	f, ok := v.([]any)
	if !ok || len(f) != 3 {
		return cypherval.Val{}, fmt.Errorf("malformed node %v", v)
	}
	ids, ok := f[1].([]any)
	if !ok {
		return cypherval.Val{}, fmt.Errorf("malformed node %v", v)
	}
	n := cypherval.Val{Kind: cypherval.Node, Labels: make([]string, len(ids))}
	n.ID, _ = f[0].(int64)
	var err error
	for i, id := range ids {
		if n.Labels[i], err = name(t.labels, id); err != nil {
			return cypherval.Val{}, err
		}
	}
	n.M, err = t.props(f[2])
	return n, err
}

// edge decodes [id, typeId, srcId, dstId, props].
func (t *Target) edge(v any) (cypherval.Val, error) {
	f, ok := v.([]any)
	if !ok || len(f) != 5 {
		return cypherval.Val{}, fmt.Errorf("malformed relationship %v", v)
	}
	typ, err := name(t.types, f[1])
	if err != nil {
		return cypherval.Val{}, err
	}
	r := cypherval.Val{Kind: cypherval.Rel, Labels: []string{typ}}
	r.ID, _ = f[0].(int64)
	r.From, _ = f[2].(int64)
	r.To, _ = f[3].(int64)
	r.M, err = t.props(f[4])
	return r, err
}

// path decodes [[list, nodes], [list, relationships]] into alternating nodes and relationships.
func (t *Target) path(v any) (cypherval.Val, error) {
	f, ok := v.([]any)
	if !ok || len(f) != 2 {
		return cypherval.Val{}, fmt.Errorf("malformed path %v", v)
	}
	nodes, err := t.typed(f[0])
	if err != nil {
		return cypherval.Val{}, err
	}
	rels, err := t.typed(f[1])
	if err != nil {
		return cypherval.Val{}, err
	}
	if len(nodes.L) != len(rels.L)+1 {
		return cypherval.Val{}, fmt.Errorf("malformed path %v", v)
	}
	p := cypherval.Val{Kind: cypherval.Path}
	for i, n := range nodes.L {
		if i > 0 {
			p.L = append(p.L, rels.L[i-1])
		}
		p.L = append(p.L, n)
	}
	return p, nil
}

// quietClient silences the Redis client's own log lines (a failed dial), which Open already
// turns into one error message.
var quietClient sync.Once

// silent is a Redis client logger that drops everything.
type silent struct{}

// Printf drops the line.
func (silent) Printf(context.Context, string, ...any) {}

// isNetTimeout reports whether err is a network deadline that passed.
func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
