package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/sqlgen"
	"github.com/polyfuzz/polyfuzz/targets/duckdb"
	"github.com/polyfuzz/polyfuzz/targets/fault"
	"github.com/polyfuzz/polyfuzz/targets/isolated"
	"github.com/polyfuzz/polyfuzz/targets/mysql"
	"github.com/polyfuzz/polyfuzz/targets/postgres"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

// targetSpec says how to open one engine; it travels to an isolated child as JSON and is stored
// with findings (without the DSN's password) so that replay opens the same target.
type targetSpec struct {
	DBMS string `json:"dbms"`
	// DSN locates a server engine; empty for an embedded one.
	DSN     string        `json:"dsn,omitempty"`
	Fault   string        `json:"fault,omitempty"`
	Timeout time.Duration `json:"timeout"`
	Isolate bool          `json:"isolate"`
	// Force lets polyfuzz work in a database that holds objects it did not create.
	Force bool `json:"force,omitempty"`
	// Worker numbers the worker whose namespace (schema or database) the target owns.
	Worker int `json:"worker,omitempty"`
}

// sqlSpecs are the engines of one SQL campaign: one, or several for the cross-engine differential.
// The fault, if any, is planted in the first.
type sqlSpecs []targetSpec

// options returns the specs as campaign options: the engine names, each server's DSN without its
// password, and the shared settings.
func (ss sqlSpecs) options() map[string]string {
	s := ss[0]
	var dbms []string
	m := map[string]string{"timeout": s.Timeout.String(), "isolate": fmt.Sprint(s.Isolate)}
	for _, t := range ss {
		dbms = append(dbms, t.DBMS)
		if t.DSN != "" {
			m["dsn."+t.DBMS] = sqlserver.Redact(t.DSN)
		}
	}
	m["dbms"] = strings.Join(dbms, ",")
	if s.Fault != "" {
		m["fault"] = s.Fault
	}
	if s.Force {
		m["force"] = "true"
	}
	return m
}

// specsFromOptions rebuilds the specs of a stored finding. A server's DSN comes from its
// environment variable when set (the stored one has no password), else from the finding.
func specsFromOptions(m map[string]string) (sqlSpecs, error) {
	var timeout time.Duration
	if t := m["timeout"]; t != "" {
		d, err := time.ParseDuration(t)
		if err != nil {
			return nil, fmt.Errorf("bad timeout %q in finding: %w", t, err)
		}
		timeout = d
	}
	var ss sqlSpecs
	for i, name := range strings.Split(m["dbms"], ",") {
		s := targetSpec{DBMS: name, Timeout: timeout, Isolate: m["isolate"] != "false", Force: m["force"] == "true",
			Worker: replayWorker}
		if i == 0 {
			s.Fault = m["fault"]
		}
		if e, ok := engines[name]; ok && e.env != "" {
			s.DSN = m["dsn."+name]
			if v := os.Getenv(e.env); v != "" {
				s.DSN = v
			}
		}
		ss = append(ss, s)
	}
	return ss, nil
}

// replayWorker is the worker number of targets opened by replay and reduce, apart from the
// numbers a campaign's workers use.
var replayWorker = 900 + os.Getpid()%100

// engine is one entry of the registry of SQL engines.
type engine struct {
	dialect string
	// inProcess engines can run in an isolated child; open opens one in this process.
	inProcess bool
	// env names the environment variable that holds a server's default DSN ("" for embedded
	// engines); example is a DSN to show in help and errors.
	env, example string
	open         func(ctx context.Context, s targetSpec) (fuzz.Target, error)
}

// engines is the one registry of SQL engines polyfuzz can test.
var engines = map[string]engine{
	"sqlite": {dialect: "sqlite", inProcess: true, open: func(_ context.Context, s targetSpec) (fuzz.Target, error) {
		return sqlite.Open(sqlite.Options{Timeout: s.Timeout})
	}},
	"duckdb": {dialect: "duckdb", inProcess: true, open: func(_ context.Context, s targetSpec) (fuzz.Target, error) {
		return duckdb.Open(duckdb.Options{Timeout: s.Timeout})
	}},
	"postgres": {dialect: "postgres", env: "POLYFUZZ_POSTGRES_DSN", example: "postgres://USER:PASS@127.0.0.1:5432/DB",
		open: func(ctx context.Context, s targetSpec) (fuzz.Target, error) {
			return postgres.Open(ctx, postgres.Options{DSN: s.DSN, Worker: s.Worker, Timeout: s.Timeout, Force: s.Force})
		}},
	"mariadb": {dialect: "mysql", env: "POLYFUZZ_MARIADB_DSN", example: "mariadb://USER:PASS@127.0.0.1:3306/DB",
		open: func(ctx context.Context, s targetSpec) (fuzz.Target, error) {
			return mysql.Open(ctx, mysql.Options{DSN: s.DSN, Flavor: "mariadb", Worker: s.Worker, Timeout: s.Timeout, Force: s.Force})
		}},
	"mysql": {dialect: "mysql", env: "POLYFUZZ_MYSQL_DSN", example: "mysql://USER:PASS@127.0.0.1:3306/DB",
		open: func(ctx context.Context, s targetSpec) (fuzz.Target, error) {
			return mysql.Open(ctx, mysql.Options{DSN: s.DSN, Flavor: "mysql", Worker: s.Worker, Timeout: s.Timeout, Force: s.Force})
		}},
}

// sqlOracles maps each SQL oracle's name to its constructor.
var sqlOracles = map[string]func(expect oracles.Expect) fuzz.Oracle{
	"norec":        func(oracles.Expect) fuzz.Oracle { return oracles.NoREC{} },
	"tlp-where":    func(oracles.Expect) fuzz.Oracle { return oracles.TLP{} },
	"tlp-having":   func(oracles.Expect) fuzz.Oracle { return oracles.TLP{Variant: "having"} },
	"tlp-distinct": func(oracles.Expect) fuzz.Oracle { return oracles.TLP{Variant: "distinct"} },
	"tlp-groupby":  func(oracles.Expect) fuzz.Oracle { return oracles.TLP{Variant: "groupby"} },
	"tlp-agg":      func(oracles.Expect) fuzz.Oracle { return oracles.TLPAgg{} },
	"diff": func(oracles.Expect) fuzz.Oracle {
		return oracles.Rows{Prefixes: []string{"norec.", "tlp.", "having.", "distinct.", "groupby."}}
	},
	"error": func(e oracles.Expect) fuzz.Oracle { return oracles.Errors{Expect: e} },
}

// defaultSQLOracles is the --oracle default: every logic oracle a single engine can check.
const defaultSQLOracles = "norec,tlp-where,tlp-having,tlp-distinct,tlp-groupby,tlp-agg"

func names[V any](m map[string]V) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// openLocal opens a target in this process, with its fault if any.
func openLocal(ctx context.Context, s targetSpec) (fuzz.Target, error) {
	e, ok := engines[s.DBMS]
	if !ok {
		return nil, fmt.Errorf("unknown --dbms %q (known: %s)", s.DBMS, names(engines))
	}
	return withFault(e.open(ctx, s))(s.Fault)
}

// withFault returns a function that wraps a just-opened target in the fault spec, if any:
// withFault(open(...))(spec).
func withFault(t fuzz.Target, err error) func(spec string) (fuzz.Target, error) {
	return func(spec string) (fuzz.Target, error) {
		if err != nil || spec == "" {
			return t, err
		}
		f, err := fault.Parse(spec)
		if err != nil {
			t.Close()
			return nil, err
		}
		return fault.Wrap(t, f), nil
	}
}

// openWorker returns a campaign's Open for a list of engine specs: each call numbers a worker
// with next and opens every spec for it, closing what it opened when one fails.
func openWorker[S any](specs []S, next func() int, open func(ctx context.Context, s S, worker int) (fuzz.Target, error)) func(ctx context.Context) ([]fuzz.Target, error) {
	return func(ctx context.Context) ([]fuzz.Target, error) {
		w := next()
		var ts []fuzz.Target
		for _, s := range specs {
			t, err := open(ctx, s, w)
			if err != nil {
				closeAll(ts)
				return nil, err
			}
			ts = append(ts, t)
		}
		return ts, nil
	}
}

// openTarget opens a target, in an isolated child when the spec asks for it and the engine
// runs in process.
func openTarget(ctx context.Context, s targetSpec) (fuzz.Target, error) {
	e, ok := engines[s.DBMS]
	if !ok {
		return nil, fmt.Errorf("unknown --dbms %q (known: %s)", s.DBMS, names(engines))
	}
	if s.Fault != "" {
		if _, err := fault.Parse(s.Fault); err != nil {
			return nil, err
		}
	}
	if e.env != "" && s.DSN == "" {
		return nil, fmt.Errorf("--dbms %s needs a server: give --dbms %s=%s or set %s", s.DBMS, s.DBMS, e.example, e.env)
	}
	if s.Isolate && e.inProcess {
		b, _ := json.Marshal(s)
		timeout := s.Timeout
		if timeout <= 0 {
			timeout = 10 * time.Second
		}
		return isolated.Open(ctx, isolated.Options{Spec: string(b), Timeout: timeout})
	}
	return openLocal(ctx, s)
}

// open opens one worker's targets, numbering the worker with next.
func (ss sqlSpecs) open(next func() int) func(ctx context.Context) ([]fuzz.Target, error) {
	return openWorker(ss, next, func(ctx context.Context, s targetSpec, w int) (fuzz.Target, error) {
		s.Worker = w
		return openTarget(ctx, s)
	})
}

// serveChild is the main of an isolated child.
func serveChild() {
	isolated.Serve(func(spec string) (fuzz.Target, error) {
		var s targetSpec
		if err := json.Unmarshal([]byte(spec), &s); err != nil {
			return nil, fmt.Errorf("bad isolated target spec %q: %w", spec, err)
		}
		s.Timeout = 0 // the parent kills a child whose batch runs over the timeout
		return openLocal(context.Background(), s)
	})
}

// sqlSetup is everything a SQL campaign, replay or reduction needs, built from options.
type sqlSetup struct {
	gen     *sqlgen.Generator
	oracles []fuzz.Oracle
	specs   sqlSpecs
	format  campaign.Format
}

// newSQLSetup builds the generator and oracles for the engines of specs: the engine's own dialect
// for one engine, the common subset and the differential oracle for several.
func newSQLSetup(genOpts sqlgen.Options, oracleNames []string, specs sqlSpecs) (*sqlSetup, error) {
	dialect := ""
	for _, spec := range specs {
		e, ok := engines[spec.DBMS]
		if !ok {
			return nil, fmt.Errorf("unknown --dbms %q (known: %s)", spec.DBMS, names(engines))
		}
		dialect = e.dialect
	}
	if len(specs) > 1 {
		dialect = "common"
		if !slices.Contains(oracleNames, "diff") {
			oracleNames = append(oracleNames, "diff")
		}
	}
	genOpts.Dialect = dialect
	for _, n := range oracleNames {
		if _, ok := sqlOracles[n]; !ok {
			return nil, fmt.Errorf("unknown --oracle %q (known: %s)", n, names(sqlOracles))
		}
	}
	gen, err := sqlgen.New(genOpts)
	if err != nil {
		return nil, err
	}
	expect, err := sqlgen.Expected(dialect)
	if err != nil {
		return nil, err
	}
	s := &sqlSetup{gen: gen, specs: specs, format: sqlgen.Format{Dialect: dialect, Engines: specs.names()}}
	if !slices.Contains(oracleNames, "error") {
		oracleNames = append(oracleNames, "error")
	}
	for _, n := range oracleNames {
		s.oracles = append(s.oracles, sqlOracles[n](expect))
	}
	return s, nil
}

// names returns the engine names of the specs.
func (ss sqlSpecs) names() []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.DBMS)
	}
	return out
}

// rebuilt is what replaying or reducing a stored finding needs, whatever its domain.
type rebuilt struct {
	gen     fuzz.Generator // nil when the case cannot be regenerated here
	oracle  fuzz.Oracle
	open    func(ctx context.Context) ([]fuzz.Target, error)
	reducer fuzz.Reducer
	format  campaign.Format
}

// rebuild reconstructs from a stored finding's record what produced it.
func rebuild(ctx context.Context, rec *campaign.Record) (*rebuilt, error) {
	switch rec.Domain {
	case "sql":
		return rebuildSQL(rec)
	case "smt":
		return rebuildSMT(ctx, rec)
	case "datalog":
		return rebuildDatalog(rec)
	case "graph":
		return rebuildGraph(rec)
	}
	return nil, fmt.Errorf("finding of domain %q: this polyfuzz replays sql, smt, datalog and graph findings", rec.Domain)
}

// rebuildSQL rebuilds what produced a stored SQL finding.
func rebuildSQL(rec *campaign.Record) (*rebuilt, error) {
	opts, err := sqlgen.ParseOptions(rec.Gen)
	if err != nil {
		return nil, fmt.Errorf("finding's generator options: %w", err)
	}
	specs, err := specsFromOptions(rec.Options)
	if err != nil {
		return nil, err
	}
	s, err := newSQLSetup(opts, []string{rec.Oracle}, specs)
	if err != nil {
		return nil, err
	}
	o, err := oracleNamed(s.oracles, rec.Oracle)
	if err != nil {
		return nil, err
	}
	open := specs.open(func() int { return replayWorker })
	return &rebuilt{gen: s.gen, oracle: o, open: open, reducer: sqlgen.NewReducer(), format: s.format}, nil
}

// engineList is a repeatable --dbms or --engine flag: NAME, or NAME=DSN for a server.
type engineList struct {
	flag  string // "--dbms", "--engine"
	known func(name string) bool
	names func() string // the known names, for messages
	vals  []string
}

// String returns the engines given, comma-separated.
func (l *engineList) String() string { return strings.Join(l.vals, ",") }

// Set adds one engine.
func (l *engineList) Set(v string) error {
	name, _, _ := strings.Cut(v, "=")
	if !l.known(name) {
		return fmt.Errorf("unknown engine %q (known: %s)", name, l.names())
	}
	l.vals = append(l.vals, v)
	return nil
}

// engineGiven is one engine of an engineList with its DSN.
type engineGiven struct{ name, dsn string }

// args returns the engines given (def when none was), each with its DSN from NAME=DSN or, for a
// server (server returns its SQL engine entry), from the server's environment variable. An engine
// given twice, a DSN for an embedded engine and a server without a DSN are errors.
func (l *engineList) args(def string, server func(name string) engine) ([]engineGiven, error) {
	vals := l.vals
	if len(vals) == 0 {
		vals = []string{def}
	}
	var out []engineGiven
	seen := map[string]bool{}
	for _, v := range vals {
		name, dsn, hasDSN := strings.Cut(v, "=")
		if seen[name] {
			return nil, fmt.Errorf("%s %s is given twice; each engine may run once", l.flag, name)
		}
		seen[name] = true
		e := server(name)
		if hasDSN && e.env == "" {
			return nil, fmt.Errorf("%s %s is embedded and takes no DSN (got %q)", l.flag, name, sqlserver.Redact(dsn))
		}
		if !hasDSN && e.env != "" {
			if dsn = os.Getenv(e.env); dsn == "" {
				return nil, fmt.Errorf("%s %s needs a server: give %s %s=%s or set %s", l.flag, name, l.flag, name, e.example, e.env)
			}
		}
		out = append(out, engineGiven{name, dsn})
	}
	return out, nil
}

// newDBMSList returns the --dbms flag of the SQL engines.
func newDBMSList(vals ...string) *engineList {
	return &engineList{flag: "--dbms", vals: vals, known: func(n string) bool { _, ok := engines[n]; return ok },
		names: func() string { return names(engines) }}
}

// oracleNamed returns the oracle of os with the given name.
func oracleNamed(os []fuzz.Oracle, name string) (fuzz.Oracle, error) {
	for _, o := range os {
		if o.Name() == name {
			return o, nil
		}
	}
	return nil, fmt.Errorf("unknown oracle %q", name)
}
