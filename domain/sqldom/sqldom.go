// Package sqldom is the SQL domain of polyfuzz: random databases and predicates (sqlgen) checked
// by NoREC, the TLP family and the cross-engine differential on SQLite, DuckDB, PostgreSQL,
// MariaDB, MySQL and Turso.
package sqldom

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"time"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/sqlgen"
	"github.com/polyfuzz/polyfuzz/targets/chdb"
	"github.com/polyfuzz/polyfuzz/targets/datafusion"
	"github.com/polyfuzz/polyfuzz/targets/duckdb"
	"github.com/polyfuzz/polyfuzz/targets/duckdblib"
	"github.com/polyfuzz/polyfuzz/targets/duckdbpy"
	"github.com/polyfuzz/polyfuzz/targets/mysql"
	"github.com/polyfuzz/polyfuzz/targets/postgres"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
	"github.com/polyfuzz/polyfuzz/targets/sqlitelib"
	"github.com/polyfuzz/polyfuzz/targets/turso"
)

const synopsis = `usage: polyfuzz sql [flags]

Generates random databases and queries for a SQL engine and checks the answers with test oracles:
NoREC (an optimized query's row count against an unoptimizable rewrite), the TLP family (a query's
rows, groups, distinct rows or aggregate against its partitions by p, NOT p and p IS NULL), and
crash, hang and unexpected-error detection. Several --dbms flags run each case, written in the SQL
the engines share, on every engine, and add the cross-engine differential oracle (diff).

Engines: sqlite and duckdb are embedded (no setup); turso (Turso, the Rust rewrite of SQLite),
datafusion (Apache DataFusion) and clickhouse (ClickHouse through chDB) run in a Python process of
the project's environment (source scripts/python.sh && python_env), and with sqlite turso's cases
are written in the SQL both read.
postgres, mariadb and mysql are servers: give
--dbms postgres=postgres://USER:PASS@HOST:PORT/DB or set POLYFUZZ_POSTGRES_DSN (POLYFUZZ_MARIADB_DSN,
POLYFUZZ_MYSQL_DSN; MySQL's own USER:PASS@tcp(HOST:PORT)/DB works too). Each worker works in a
schema (PostgreSQL) or database (MySQL, MariaDB) of its own that polyfuzz creates and drops; a
database that holds objects polyfuzz did not create is refused unless --force.

Findings are written to OUT/findings/ as they are found, then confirmed, reduced and replayed; OUT
also gets campaign.json, stats.jsonl and report.html. Ctrl-C stops cleanly.`

// Domain is the SQL domain.
var Domain = &domain.Domain{
	Name:     "sql",
	Summary:  "fuzz SQL engines: SQLite (default), DuckDB, DataFusion, ClickHouse, PostgreSQL, MariaDB, MySQL, Turso",
	Synopsis: synopsis, Unit: "test cases", Owns: "its own database",
	EngineFlag: "dbms", DefaultEngine: "sqlite",
	Engines:        engineList(),
	Oracles:        table.Infos(),
	DefaultOracles: []string{"norec", "tlp-where", "tlp-having", "tlp-distinct", "tlp-groupby", "tlp-agg", "diff"},
	Timeout:        2 * time.Second, TimeoutHelp: "a statement over it is a hang finding",
	FaultExample: "drop-row:WHERE.*LIKE",
	GenDefault:   func() string { return sqlgen.Options{}.String() },
	Flags:        flags,
	Build:        build,
}

// engine is one row of the SQL engine table: the engine and the dialect its cases are written in.
type engine struct {
	domain.Engine
	dialect string
	// noDiff, when set, says why the engine cannot answer the common dialect alike with the
	// others, so that it joins no cross-engine differential.
	noDiff string
}

// engines is the SQL engine table: adding an engine is its target package and one row here.
var engines = []engine{
	{dialect: "sqlite", Engine: domain.Engine{Name: "sqlite", InProcess: true, Open: func(_ context.Context, s domain.Spec) (fuzz.Target, error) {
		if s.Lib != "" {
			return sqlitelib.Open(sqlitelib.Options{Lib: s.Lib, Timeout: s.Timeout})
		}
		return sqlite.Open(sqlite.Options{Timeout: s.Timeout})
	}, Lib: "a SQLite library of any build (a distribution's libsqlite3.so.0, a trunk build's .so), run through " +
		"its C API by python3 (--dbms sqlite=lib:/lib/x86_64-linux-gnu/libsqlite3.so.0)"}},
	{dialect: "duckdb", Engine: domain.Engine{Name: "duckdb", InProcess: true, Open: func(_ context.Context, s domain.Spec) (fuzz.Target, error) {
		if s.Lib != "" {
			return duckdblib.Open(duckdblib.Options{Lib: s.Lib, Timeout: s.Timeout})
		}
		if s.Version != "" {
			return duckdbpy.Open(duckdbpy.Options{Version: s.Version, Timeout: s.Timeout})
		}
		return duckdb.Open(duckdb.Options{Timeout: s.Timeout})
	}, Versions: "any duckdb wheel on PyPI from " + duckdbpy.Oldest + " (duckdb@0.8.1 is duckdb==0.8.1), run by python3 " +
		"after polyfuzz bench install duckdb==0.8.1",
		Lib: "a DuckDB library of any build (a release's or a developer's libduckdb.so), run through its C API by python3 " +
			"(--dbms duckdb=lib:/path/libduckdb.so)"}},
	// Turso runs in a Python process of its own: a panic there is a crash finding.
	{dialect: "turso", Engine: domain.Engine{Name: "turso", Open: func(_ context.Context, s domain.Spec) (fuzz.Target, error) {
		return turso.Open(turso.Options{Timeout: s.Timeout})
	}}},
	// DataFusion runs in a Python process of its own (targets/datafusion): a crash there is a finding.
	{dialect: "datafusion", Engine: domain.Engine{Name: "datafusion", Open: func(_ context.Context, s domain.Spec) (fuzz.Target, error) {
		return datafusion.Open(datafusion.Options{Timeout: s.Timeout})
	}}},
	{dialect: "postgres", Engine: domain.Engine{Name: "postgres", Env: "POLYFUZZ_POSTGRES_DSN", Example: "postgres://USER:PASS@127.0.0.1:5432/DB",
		Open: func(ctx context.Context, s domain.Spec) (fuzz.Target, error) {
			return postgres.Open(ctx, postgres.Options{DSN: s.DSN, Worker: s.Worker, Timeout: s.Timeout, Force: s.Force})
		}}},
	{dialect: "mysql", Engine: domain.Engine{Name: "mariadb", Env: "POLYFUZZ_MARIADB_DSN", Example: "mariadb://USER:PASS@127.0.0.1:3306/DB",
		Open: func(ctx context.Context, s domain.Spec) (fuzz.Target, error) {
			return mysql.Open(ctx, mysql.Options{DSN: s.DSN, Flavor: "mariadb", Worker: s.Worker, Timeout: s.Timeout, Force: s.Force})
		}}},
	{dialect: "mysql", Engine: domain.Engine{Name: "mysql", Env: "POLYFUZZ_MYSQL_DSN", Example: "mysql://USER:PASS@127.0.0.1:3306/DB",
		Open: func(ctx context.Context, s domain.Spec) (fuzz.Target, error) {
			return mysql.Open(ctx, mysql.Options{DSN: s.DSN, Flavor: "mysql", Worker: s.Worker, Timeout: s.Timeout, Force: s.Force})
		}}},
	{dialect: "clickhouse", Engine: domain.Engine{Name: chdb.Name, Open: func(_ context.Context, s domain.Spec) (fuzz.Target, error) {
		return chdb.Open(chdb.Options{Timeout: s.Timeout, Settings: sqlgen.SessionSettings("clickhouse")})
	}}, noDiff: "its x IN (..., NULL) is 0 where standard SQL has NULL, and its LEFT JOIN needs an equality in ON (docs/sql.md)"},
}

// engineList returns the engines of the table as the commands see them.
func engineList() []domain.Engine {
	out := make([]domain.Engine, len(engines))
	for i, e := range engines {
		out[i] = e.Engine
	}
	return out
}

// dialectOf returns the dialect of the engine of that name.
func dialectOf(name string) string {
	for _, e := range engines {
		if e.Name == name {
			return e.dialect
		}
	}
	return ""
}

// env is what the oracles of one campaign are built from.
type env struct {
	expect  oracles.Expect
	dialect string
}

// plan reads an engine's answer to an EXPLAIN of the campaign's dialect.
func (e *env) plan(r *fuzz.Result) (sqlgen.Plan, bool) { return sqlgen.ReadPlan(e.dialect, r) }

// certQError is the factor by which two estimates must contradict each other for the cert oracle
// to report them: two (docs/sql.md, "cert").
const certQError = 2

// known wraps an oracle whose findings the dialect's catalogue of known differences may explain
// (sqlgen.Known).
func (e *env) known(o fuzz.Oracle) fuzz.Oracle {
	return oracles.Known{Oracle: o, Explain: sqlgen.Known(e.dialect)}
}

// show prints values in findings as SQL literals: the oracles' default notation.
var show = oracles.Display{}

// table is the SQL oracle table: adding an oracle is its file and one row here.
var table = domain.OracleTable[*env]{
	{OracleInfo: domain.OracleInfo{Name: "norec"}, New: func(*env) fuzz.Oracle { return oracles.NoREC{} }},
	{OracleInfo: domain.OracleInfo{Name: "tlp-where"}, New: func(*env) fuzz.Oracle { return oracles.TLP{Show: show} }},
	{OracleInfo: domain.OracleInfo{Name: "tlp-having"}, New: func(*env) fuzz.Oracle { return oracles.TLP{Variant: "having", Show: show} }},
	{OracleInfo: domain.OracleInfo{Name: "tlp-distinct"}, New: func(e *env) fuzz.Oracle { return e.known(oracles.TLP{Variant: "distinct", Show: show}) }},
	{OracleInfo: domain.OracleInfo{Name: "tlp-groupby"}, New: func(e *env) fuzz.Oracle { return e.known(oracles.TLP{Variant: "groupby", Show: show}) }},
	{OracleInfo: domain.OracleInfo{Name: "tlp-agg"}, New: func(*env) fuzz.Oracle { return oracles.TLPAgg{Show: show} }},
	{OracleInfo: domain.OracleInfo{Name: "pqs"}, New: func(*env) fuzz.Oracle { return oracles.PQS{} }},
	{OracleInfo: domain.OracleInfo{Name: "dqe"}, New: func(e *env) fuzz.Oracle { return oracles.DQE{Expect: e.expect, Show: show} }},
	{OracleInfo: domain.OracleInfo{Name: "eet"}, New: func(e *env) fuzz.Oracle { return oracles.EET{Expect: e.expect, Show: show} }},
	{OracleInfo: domain.OracleInfo{Name: "codd"}, New: func(*env) fuzz.Oracle { return oracles.CODD{Show: show} }},
	{OracleInfo: domain.OracleInfo{Name: "diff", Multi: true, Auto: true}, New: func(*env) fuzz.Oracle {
		return oracles.Rows{Layouts: []*fuzz.Layout{fuzz.NoREC, fuzz.TLPWhere, fuzz.TLPHaving, fuzz.TLPDistinct, fuzz.TLPGroupBy}, Show: show}
	}},
	{OracleInfo: domain.OracleInfo{Name: "dqp"}, New: func(*env) fuzz.Oracle { return oracles.DQP{Param: sqlgen.ParamPlan, Show: show} }},
	{OracleInfo: domain.OracleInfo{Name: "cert"}, New: func(e *env) fuzz.Oracle {
		return e.known(oracles.CERT{DirParam: sqlgen.ParamCERTDir, MutParam: sqlgen.ParamMut, QError: certQError,
			Estimate: func(r *fuzz.Result) (float64, []string, bool) {
				p, ok := e.plan(r)
				return p.Rows, p.Ops, ok && p.HasRows
			}})
	}},
	{OracleInfo: domain.OracleInfo{Name: "qpg"}, New: func(e *env) fuzz.Oracle {
		return oracles.NewPlans(func(r *fuzz.Result) (string, bool) { p, ok := e.plan(r); return p.Sig, ok })
	}},
	{OracleInfo: domain.OracleInfo{Name: "error", Always: true}, New: func(e *env) fuzz.Oracle { return oracles.Errors{Expect: e.expect} }},
}

// flags registers the SQL generator's flags and --isolate.
func flags(fs *flag.FlagSet) func(s *domain.Settings, base domain.Spec) error {
	perDB := fs.Int("queries-per-db", sqlgen.DefaultQueriesPerDB, "test cases that share one generated database")
	depth := fs.Int("max-depth", 0, "maximum expression depth (0: generator default)")
	tables := fs.Int("max-tables", 0, "maximum tables per database (0: generator default)")
	inserts := fs.Int("max-inserts", 0, "maximum INSERT statements per database (0: generator default)")
	distinctViews := fs.Bool("distinct-views", false, "allow SELECT DISTINCT in views (a known false-positive source)")
	qpg := fs.Bool("qpg", false, "query plan guidance: mutate the database when queries stop getting new plans (cases then depend on the engine's plans)")
	isolate := fs.Bool("isolate", true, "run embedded engines in a child process, so that an engine crash becomes a finding")
	return func(s *domain.Settings, base domain.Spec) error {
		if *perDB < 1 || *perDB > 1<<fuzz.SetupBits {
			return fmt.Errorf("--queries-per-db must be between 1 and %d (got %d)", 1<<fuzz.SetupBits, *perDB)
		}
		o, err := domain.GenOptions(s.Gen, sqlgen.Options{}, sqlgen.ParseOptions)
		if err != nil {
			return err
		}
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if set["queries-per-db"] || s.Gen == "" {
			o.QueriesPerDB = *perDB
		}
		if set["max-depth"] {
			o.MaxDepth = *depth
		}
		if set["max-tables"] {
			o.MaxTables = *tables
		}
		if set["max-inserts"] {
			o.MaxInserts = *inserts
		}
		if set["distinct-views"] {
			o.DistinctViews = *distinctViews
		}
		if set["qpg"] {
			o.QPG = *qpg
		}
		o.Oracles = nil // build sets them from the campaign's oracles
		s.Gen = o.String()
		if len(s.Engines) == 0 {
			base.Engine = "sqlite"
			s.Engines = []domain.Spec{base}
		}
		for i := range s.Engines {
			// A release from a wheel or a library file runs in a Python process of its own: a crash
			// there is a finding.
			s.Engines[i].Isolate = *isolate && s.Engines[i].Version == "" && s.Engines[i].Lib == ""
		}
		return nil
	}
}

// caseDialect returns the dialect cases for the engines are written in: the engine's own for one
// engine; for several, a variant dialect (sqlgen.Base) that each engine reads as its own or as
// the variant's base (turso for sqlite and turso), else the common subset.
func caseDialect(engines []string) string {
	if len(engines) == 1 {
		return dialectOf(engines[0])
	}
	for _, e := range engines {
		c := dialectOf(e)
		if sqlgen.Base(c) == "" {
			continue
		}
		reads := func(e string) bool { d := dialectOf(e); return d == c || d == sqlgen.Base(c) }
		if !slices.ContainsFunc(engines, func(e string) bool { return !reads(e) }) {
			return c
		}
	}
	return "common"
}

// build makes the generator and oracles for the engines of s, in the dialect of caseDialect. A
// dialect that adapts to the engine's build is written for the build the engine is (probed once
// here), unless --gen names one or a stored case is replayed.
func build(ctx context.Context, s *domain.Settings, log func(string)) (*domain.Setup, error) {
	names := make([]string, len(s.Engines))
	for i, e := range s.Engines {
		names[i] = e.Engine
	}
	if len(names) > 1 {
		for _, e := range engines {
			if e.noDiff != "" && slices.Contains(names, e.Name) {
				return nil, fmt.Errorf("%s cannot join the cross-engine differential: %s; run it alone", e.Name, e.noDiff)
			}
		}
	}
	dialect := caseDialect(names)
	opts, err := domain.GenOptions(s.Gen, sqlgen.Options{}, sqlgen.ParseOptions)
	if err != nil {
		return nil, err
	}
	opts.Dialect = dialect
	if len(s.Engines) == 1 && !s.Replay && opts.Engine == "" && sqlgen.Adapts(dialect) {
		if opts.Engine, err = probe(ctx, s.Engines[0], dialect); err != nil {
			return nil, err
		}
		if log != nil {
			log("generating for " + s.Engines[0].Engine + " " + opts.Engine)
		}
	}
	// A stored case's generator options are kept as they are, so that it regenerates identically.
	if layouts := layoutOracles(s.Oracles); len(layouts) > 0 && !s.Replay {
		opts.Oracles = layouts
	}
	gen, err := sqlgen.New(opts)
	if err != nil {
		return nil, err
	}
	expect, err := sqlgen.Expected(dialect)
	if err != nil {
		return nil, err
	}
	e := &env{expect: expect, dialect: dialect}
	st := &domain.Setup{Gen: gen, Reducer: sqlgen.NewReducer(),
		Format: sqlgen.Format{Dialect: dialect, Engines: s.Names()}}
	ons := s.Oracles
	if opts.QPG && !slices.Contains(ons, "qpg") {
		ons = append(slices.Clone(ons), "qpg") // guidance is measured by the plans it finds
	}
	st.Oracles = table.Make(ons, e)
	return st, nil
}

// layoutOracles returns the oracles of names whose query layouts the generator writes.
func layoutOracles(names []string) []string {
	var out []string
	for _, n := range names {
		if n != "diff" && n != "error" {
			out = append(out, n)
		}
	}
	return out
}

// probe opens the engine of sp as it is, without its fault and in this process, and returns the
// generator's engine option for the build it is (sqlgen.Probe).
func probe(ctx context.Context, sp domain.Spec, dialect string) (string, error) {
	var open func(context.Context, domain.Spec) (fuzz.Target, error)
	for _, e := range engines {
		if e.Name == sp.Engine {
			open = e.Open
		}
	}
	if open == nil {
		return "", fmt.Errorf("unknown --dbms %q", sp.Engine)
	}
	sp.Fault, sp.Isolate = "", false
	t, err := open(ctx, sp)
	if err != nil {
		return "", err
	}
	defer t.Close()
	return sqlgen.Probe(ctx, dialect, t)
}
