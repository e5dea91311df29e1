package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/sqlgen"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

const sqlSynopsis = `usage: polyfuzz sql [flags]

Generates random databases and queries for a SQL engine and checks the answers with test oracles:
NoREC (an optimized query's row count against an unoptimizable rewrite), the TLP family (a query's
rows, groups, distinct rows or aggregate against its partitions by p, NOT p and p IS NULL), and
crash, hang and unexpected-error detection. Several --dbms flags run each case, written in the SQL
the engines share, on every engine, and add the cross-engine differential oracle (diff).

Engines: sqlite and duckdb are embedded (no setup). postgres, mariadb and mysql are servers: give
--dbms postgres=postgres://USER:PASS@HOST:PORT/DB or set POLYFUZZ_POSTGRES_DSN (POLYFUZZ_MARIADB_DSN,
POLYFUZZ_MYSQL_DSN). Each worker works in a schema (PostgreSQL) or database (MySQL, MariaDB) of its
own that polyfuzz creates and drops; a database that holds objects polyfuzz did not create is
refused unless --force.

Findings are written to OUT/findings/ as they are found, then confirmed, reduced and replayed; OUT
also gets campaign.json, stats.jsonl and report.html. Ctrl-C stops cleanly.`

func cmdSQL(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("sql", sqlSynopsis, stderr)
	dbms := newDBMSList()
	fs.Var(dbms, "dbms", "engine to test, NAME or NAME=DSN, repeatable: "+names(engines)+" (default sqlite)")
	force := fs.Bool("force", false, "work in a server database that holds objects polyfuzz did not create (they are left alone)")
	var cf campaignFlags
	cf.register(fs, "test cases", "its own database")
	oracleList := fs.String("oracle", defaultSQLOracles, "comma-separated oracles: "+names(sqlOracles)+
		" (error is always on; diff is added with several --dbms)")
	perDB := fs.Int("queries-per-db", sqlgen.DefaultQueriesPerDB, "test cases that share one generated database")
	depth := fs.Int("max-depth", 0, "maximum expression depth (0: generator default)")
	tables := fs.Int("max-tables", 0, "maximum tables per database (0: generator default)")
	inserts := fs.Int("max-inserts", 0, "maximum INSERT statements per database (0: generator default)")
	distinctViews := fs.Bool("distinct-views", false, "allow SELECT DISTINCT in views (a known false-positive source)")
	timeout := fs.Duration("timeout", 2*time.Second, "per-statement timeout; a statement over it is a hang finding")
	isolate := fs.Bool("isolate", true, "run embedded engines in a child process, so that an engine crash becomes a finding")
	faultSpec := fs.String("fault", "", "inject a known fault KIND:REGEXP to prove the oracles fire, e.g. 'drop-row:WHERE.*LIKE'\n"+
		"      (kinds: drop-row, add-row, change-value, error, panic, exit, hang)")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "polyfuzz sql: "+format+"\n", a...)
		return 2
	}
	campaignSeed, err := cf.checkCommand(fs, *timeout)
	if err != nil {
		return fail("%v", err)
	}
	if *perDB < 1 || *perDB > 1<<fuzz.SetupBits {
		return fail("--queries-per-db must be between 1 and %d (got %d)", 1<<fuzz.SetupBits, *perDB)
	}
	var oracleNames []string
	for _, n := range strings.Split(*oracleList, ",") {
		if n = strings.TrimSpace(n); n != "" {
			oracleNames = append(oracleNames, n)
		}
	}
	genOpts := sqlgen.Options{QueriesPerDB: *perDB, MaxDepth: *depth, MaxTables: *tables,
		MaxInserts: *inserts, DistinctViews: *distinctViews}
	for _, n := range oracleNames {
		if n != "error" {
			genOpts.Oracles = append(genOpts.Oracles, n)
		}
	}
	specs, err := sqlSpecsOf(dbms, targetSpec{Fault: *faultSpec, Timeout: *timeout, Isolate: *isolate, Force: *force})
	if err != nil {
		return fail("%v", err)
	}
	s, err := newSQLSetup(genOpts, oracleNames, specs)
	if err != nil {
		return fail("%v", err)
	}
	var worker atomic.Int64
	next := func() int { return int(worker.Add(1) - 1) }
	if ts, err := specs.open(func() int { return 0 })(ctx); err != nil { // fail fast on a bad engine or fault
		return fail("%v", err)
	} else {
		closeAll(ts)
	}
	store, err := campaign.NewStore(cf.out)
	if err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stderr, "polyfuzz sql: dbms %s, oracles %s, seed %d, out %s\n", strings.Join(specs.names(), ","),
		strings.Join(oracleNames, ","), campaignSeed, cf.out)
	cfg := cf.config(campaignSeed, store, sqlgen.NewReducer(), stderr)
	cfg.Command, cfg.Domain, cfg.Gen, cfg.Oracles, cfg.Format = sqlserver.Redact("polyfuzz sql "+strings.Join(args, " ")), "sql", s.gen, s.oracles, s.format
	cfg.Options = specs.options()
	cfg.Open = specs.open(next)
	return cf.run(ctx, cfg, "sql", stdout, stderr)
}

// sqlSpecsOf returns one spec per engine of l (sqlite when none was given), each with its DSN and
// the shared settings of base; the fault goes to the first engine.
func sqlSpecsOf(l *engineList, base targetSpec) (sqlSpecs, error) {
	args, err := l.args("sqlite", func(n string) engine { return engines[n] })
	if err != nil {
		return nil, err
	}
	var ss sqlSpecs
	for i, a := range args {
		s := base
		s.DBMS, s.DSN = a.name, a.dsn
		if i > 0 {
			s.Fault = ""
		}
		ss = append(ss, s)
	}
	return ss, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func writeReport(dir string) error { return campaign.WriteReport(dir) }

const replaySynopsis = `usage: polyfuzz replay [flags] DIR

Re-runs the finding stored in DIR (a directory under OUT/findings/): regenerates its case from the
seed and checks that it equals the stored case, then runs the original and the reduced case on a
fresh engine and checks that the oracle reports the same finding. Exits 0 when it reproduces, 1
when it does not.`

func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", replaySynopsis, stderr)
	noFault := fs.Bool("no-fault", false, "replay without the fault the finding was injected with")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "polyfuzz replay: want one argument, a finding directory (OUT/findings/HASH)")
		return 2
	}
	dir := fs.Arg(0)
	rec, _, _, err := campaign.LoadFinding(dir)
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz replay: %v\n", err)
		return 2
	}
	if *noFault {
		delete(rec.Options, "fault")
	}
	s, err := rebuild(ctx, rec)
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz replay: %v\n", err)
		return 1
	}
	ts, err := s.open(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz replay: %v\n", err)
		return 1
	}
	defer closeAll(ts)
	res, err := campaign.Replay(ctx, dir, s.gen, s.oracle, ts)
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz replay: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "finding: %s\n  kind %s, oracle %s, seed %d, on %s\n", rec.Title, rec.Kind, rec.Oracle,
		rec.Seed, targetVersions(ts))
	if res.RegenChecked {
		fmt.Fprintf(stdout, "  case regenerated from seed: %s\n", yesNo(res.Regenerated, "identical to the stored case",
			"DIFFERS from the stored case (generator changed since)"))
	}
	fmt.Fprintf(stdout, "  original case: %s\n", replayed(res.Original, rec.Title))
	if res.HasReduced {
		fmt.Fprintf(stdout, "  reduced case:  %s\n", replayed(res.Reduced, rec.Title))
	}
	if res.Finding != nil {
		fmt.Fprintf(stdout, "  expected: %s\n  actual:   %s\n", res.Finding.Expected, res.Finding.Actual)
	}
	if !res.Reproduced() {
		fmt.Fprintln(stdout, "does not reproduce")
		return 1
	}
	fmt.Fprintln(stdout, "reproduces")
	return 0
}

// caseBytes is the length of a case's statements.
func caseBytes(c *fuzz.Case) int {
	n := 0
	for _, st := range c.Setup {
		n += len(st)
	}
	for _, q := range c.Queries {
		n += len(q.Text)
	}
	return n
}

// closeAll closes every target.
func closeAll(ts []fuzz.Target) {
	for _, t := range ts {
		t.Close()
	}
}

// targetVersions prints "name version" of every target, comma-separated.
func targetVersions(ts []fuzz.Target) string {
	var parts []string
	for _, t := range ts {
		parts = append(parts, t.Name()+" "+t.Version())
	}
	return strings.Join(parts, ", ")
}

func yesNo(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}

func replayed(got, want string) string {
	switch got {
	case want:
		return "reproduces"
	case "":
		return "no finding"
	}
	return "different finding: " + got
}

const reduceSynopsis = `usage: polyfuzz reduce [flags] DIR

Reduces the finding stored in DIR again, from its original case, on a fresh engine; the reduced
case is replayed before it replaces DIR/reduced.* and DIR/repro.sh.`

func cmdReduce(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("reduce", reduceSynopsis, stderr)
	limit := fs.Duration("reduce-time", 5*time.Minute, "time limit for the reduction")
	plain := fs.Bool("plain", false, "Datalog: reduce with ddmin alone, without the guidance of the reference engine's proof trees")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "polyfuzz reduce: want one argument, a finding directory (OUT/findings/HASH)")
		return 2
	}
	dir := filepath.Clean(fs.Arg(0))
	rec, orig, _, err := campaign.LoadFinding(dir)
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz reduce: %v\n", err)
		return 2
	}
	s, err := rebuild(ctx, rec)
	if err == nil && filepath.Base(filepath.Dir(dir)) != "findings" {
		err = errors.New("the finding directory must sit in OUT/findings/")
	}
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz reduce: %v\n", err)
		return 1
	}
	var dlStats *datalog.ReduceStats
	if r, ok := s.reducer.(*datalog.Reducer); ok {
		dlStats = &datalog.ReduceStats{}
		r.Plain, r.Stats = *plain, dlStats
	}
	ts, err := s.open(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz reduce: %v\n", err)
		return 1
	}
	defer closeAll(ts)
	store, err := campaign.NewStore(filepath.Dir(filepath.Dir(dir)))
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz reduce: %v\n", err)
		return 1
	}
	red, err := campaign.ReduceFinding(ctx, store, dir, s.oracle, ts, s.reducer, s.format, *limit)
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz reduce: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "reduced %s from %d statements (%d bytes) to %d (%d bytes); replayed\n  %s\n", rec.Title,
		len(orig.Setup)+len(orig.Queries), caseBytes(orig), len(red.Setup)+len(red.Queries), caseBytes(red),
		filepath.Join(dir, "reduced"+s.format.Ext()))
	if st := dlStats; st != nil {
		how := "ddmin alone"
		if st.Guided {
			how = "guided by the proof of " + st.Focus
		} else if !*plain {
			how = "ddmin (no proof of a missed tuple helped)"
		}
		fmt.Fprintf(stdout, "  clauses %d -> %d (%d body literals in the shared rules), %s; %d engine runs, %d reference evaluations\n", st.Before, st.After, st.Literals, how,
			st.EngineRuns, st.RefRuns)
	}
	return 0
}
