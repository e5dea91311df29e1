package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/targets/clingo"
	"github.com/polyfuzz/polyfuzz/targets/muz"
	"github.com/polyfuzz/polyfuzz/targets/souffle"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
	"github.com/polyfuzz/polyfuzz/targets/swipl"
)

const datalogSynopsis = `usage: polyfuzz datalog [flags]
       polyfuzz datalog run --engine NAME FILE.dl
       polyfuzz datalog translate --engine NAME FILE.dl

Fuzzes Datalog engines the queryFuzz way: generates random stratified programs, transforms each
with a sequence of the queryFuzz rule transformations (ADD, MOD, REM, NEG) whose effect on the
output is known (equal, subset or superset), runs both programs on every engine and checks the
relation on each engine (metamorphic). polyfuzz's own reference engine (semi-naive, stratified
negation, provenance) runs beside the engines under test (unless --ref=false), so that every engine
is also compared with it and with each other (diff). Crashes, timeouts and unexpected errors are
findings too; a program an engine cannot express is skipped for that engine, counted by reason.
Findings are reduced along the reference's proof trees of a tuple the engine gets wrong, then by
ddmin, every step re-checked on the engine.

Engines: ref (built in), muz (z3), swipl (SWI-Prolog), clingo (through its Python module), souffle, and the
SQL engines sqlite, duckdb (embedded) and postgres (--engine postgres=postgres://USER:PASS@HOST/DB
or POLYFUZZ_POSTGRES_DSN), which evaluate each stratum in SQL.

'polyfuzz datalog run' prints an engine's answer to one program in the canonical (Soufflé-like)
syntax; 'polyfuzz datalog translate' prints the engine's own text for it.`

// dlEngine is one entry of the registry of Datalog engines.
type dlEngine struct {
	// sql names the SQL engine (of the sql registry) that evaluates the program, if any.
	sql     string
	dialect func() datalog.Dialect
	open    func(s engineSpec) (fuzz.Target, error)
}

// dlEngines is the one registry of Datalog engines polyfuzz can test.
var dlEngines = map[string]dlEngine{
	"ref": {open: func(s engineSpec) (fuzz.Target, error) { return datalog.NewReference(0), nil }},
	"muz": {dialect: func() datalog.Dialect { return datalog.MuZ{} }, open: func(s engineSpec) (fuzz.Target, error) {
		return muz.New(muz.Options{Timeout: s.Timeout})
	}},
	"swipl": {dialect: func() datalog.Dialect { return datalog.SWIProlog{} }, open: func(s engineSpec) (fuzz.Target, error) {
		return swipl.New(swipl.Options{Timeout: s.Timeout})
	}},
	"clingo": {dialect: func() datalog.Dialect { return datalog.Clingo{} }, open: func(s engineSpec) (fuzz.Target, error) {
		return clingo.New(clingo.Options{Timeout: s.Timeout})
	}},
	"souffle": {dialect: func() datalog.Dialect { return datalog.Souffle{} }, open: func(s engineSpec) (fuzz.Target, error) {
		return souffle.New(souffle.Options{Timeout: s.Timeout})
	}},
	"sqlite":   {sql: "sqlite"},
	"duckdb":   {sql: "duckdb"},
	"postgres": {sql: "postgres"},
}

// openDatalog opens the engine of s as a target that runs canonical programs, with its fault if
// any.
func openDatalog(ctx context.Context, s engineSpec) (fuzz.Target, error) {
	e, ok := dlEngines[s.Engine]
	if !ok {
		return nil, fmt.Errorf("unknown --engine %q (known: %s)", s.Engine, names(dlEngines))
	}
	var t fuzz.Target
	var err error
	switch {
	case e.sql != "":
		var inner fuzz.Target
		inner, err = openTarget(ctx, targetSpec{DBMS: e.sql, DSN: s.DSN, Timeout: s.Timeout, Isolate: true, Worker: s.Worker})
		if err == nil {
			t = &datalog.SQLEngine{Inner: inner, Dialect: e.sql}
		}
	case e.dialect != nil:
		var inner fuzz.Target
		if inner, err = e.open(s); err == nil {
			t = &datalog.Engine{Inner: inner, Dialect: e.dialect()}
		}
	default:
		t, err = e.open(s)
	}
	return withFault(t, err)(s.Fault)
}

// dlOracles maps each Datalog oracle's name to its constructor.
var dlOracles = map[string]func() fuzz.Oracle{
	"metamorphic": func() fuzz.Oracle {
		return oracles.Metamorphic{Orig: datalog.RoleOrig, Trans: datalog.RoleTrans, Param: datalog.ParamExpect}
	},
	"diff": func() fuzz.Oracle {
		return oracles.Rows{Prefixes: []string{"datalog."}, AnsweredOnly: true, Reference: "ref"}
	},
	"error": func() fuzz.Oracle {
		return oracles.Errors{SkipTimeouts: true, Expect: func(_, code, _ string) bool { return code == datalog.CodeUnsupported }}
	},
}

// dlSetup is everything a Datalog campaign, replay or reduction needs.
type dlSetup struct {
	gen     *datalog.Generator
	oracles []fuzz.Oracle
	specs   engineSpecs
	format  campaign.Format
}

func newDatalogSetup(opts datalog.Options, oracleNames []string, specs engineSpecs) (*dlSetup, error) {
	gen, err := datalog.NewGenerator(opts)
	if err != nil {
		return nil, err
	}
	f := datalog.Format{Dialects: map[string]datalog.Dialect{}}
	for _, n := range specs.names() {
		f.Engines = append(f.Engines, n)
		if mk := dlEngines[n].dialect; mk != nil {
			f.Dialects[n] = mk()
		}
	}
	s := &dlSetup{gen: gen, specs: specs, format: f}
	for _, n := range oracleNames {
		mk, ok := dlOracles[n]
		if !ok {
			return nil, fmt.Errorf("unknown --oracle %q (known: %s)", n, names(dlOracles))
		}
		s.oracles = append(s.oracles, mk())
	}
	return s, nil
}

// rebuildDatalog rebuilds what produced a stored Datalog finding.
func rebuildDatalog(rec *campaign.Record) (*rebuilt, error) {
	opts, err := datalog.ParseOptions(rec.Gen)
	if err != nil {
		return nil, fmt.Errorf("finding's generator options: %w", err)
	}
	specs, err := engineSpecsFromOptions(rec.Options, dlEnv, replayWorker)
	if err != nil {
		return nil, err
	}
	s, err := newDatalogSetup(opts, []string{rec.Oracle}, specs)
	if err != nil {
		return nil, err
	}
	o, err := oracleNamed(s.oracles, rec.Oracle)
	if err != nil {
		return nil, err
	}
	return &rebuilt{gen: s.gen, oracle: o, open: specs.openWith(func() int { return replayWorker }, openDatalog),
		reducer: datalog.NewReducer(), format: s.format}, nil
}

// dlServer returns the SQL engine entry of a Datalog engine evaluated by a SQL server, for its
// DSN's environment variable and example; the zero entry for the others.
func dlServer(name string) engine { return engines[dlEngines[name].sql] }

// dlEnv names the environment variable of a Datalog engine's server DSN, "" for none.
func dlEnv(name string) string { return dlServer(name).env }

// newEngineList returns the --engine flag of the Datalog engines.
func newEngineList(vals ...string) *engineList {
	return &engineList{flag: "--engine", vals: vals, known: func(n string) bool { _, ok := dlEngines[n]; return ok },
		names: func() string { return names(dlEngines) }}
}

func cmdDatalog(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "run" || args[0] == "translate") {
		return cmdDatalogRun(ctx, args[0], args[1:], stdout, stderr)
	}
	fs := newFlags("datalog", datalogSynopsis, stderr)
	engs := newEngineList()
	fs.Var(engs, "engine", "engine to test, NAME or NAME=DSN, repeatable: "+names(dlEngines)+" (default ref)")
	withRef := fs.Bool("ref", true, "run the reference engine beside the engines under test, for the differential oracle")
	var cf campaignFlags
	cf.register(fs, "test cases", "its own engine processes")
	oracleList := fs.String("oracle", "metamorphic,diff", "comma-separated oracles: "+names(dlOracles)+
		" (error is always on; diff needs two engines)")
	timeout := fs.Duration("timeout", 10*time.Second, "per-program timeout; a program over it is a skipped check (error: timeout)")
	genText := genFlag(fs, datalog.DefaultOptions())
	faultSpec := faultFlag(fs, "drop-row:transformed")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "polyfuzz datalog: "+format+"\n", a...)
		return code
	}
	campaignSeed, err := cf.checkCommand(fs, *timeout)
	if err != nil {
		return fail(2, "%v", err)
	}
	opts, err := genOptions(*genText, datalog.DefaultOptions(), datalog.ParseOptions)
	if err != nil {
		return fail(2, "--gen: %v", err)
	}
	specs, err := engineSpecsOf(engs, engineSpec{Timeout: *timeout, Fault: *faultSpec}, *withRef, dlServer)
	if err != nil {
		return fail(2, "%v", err)
	}
	var oracleNames []string
	for _, n := range strings.Split(*oracleList, ",") {
		if n = strings.TrimSpace(n); n == "" || n == "error" || (n == "diff" && len(specs) < 2) {
			continue
		}
		oracleNames = append(oracleNames, n)
	}
	oracleNames = append(oracleNames, "error")
	s, err := newDatalogSetup(opts, oracleNames, specs)
	if err != nil {
		return fail(2, "%v", err)
	}
	ts, err := specs.openWith(func() int { return 0 }, openDatalog)(ctx) // fail fast on a missing engine or a bad fault
	if err != nil {
		return fail(1, "%v", err)
	}
	versions := targetVersions(ts)
	closeAll(ts)
	store, err := campaign.NewStore(cf.out)
	if err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintf(stderr, "polyfuzz datalog: engines %s, oracles %s, seed %d, out %s\n", versions,
		strings.Join(oracleNames, ","), campaignSeed, cf.out)
	var worker atomic.Int64
	cfg := cf.config(campaignSeed, store, datalog.NewReducer(), stderr)
	cfg.Command = sqlserver.Redact("polyfuzz datalog " + strings.Join(args, " "))
	cfg.Domain, cfg.Gen, cfg.Oracles, cfg.Format = "datalog", s.gen, s.oracles, s.format
	cfg.Options = specs.options()
	cfg.Open = specs.openWith(func() int { return int(worker.Add(1) - 1) }, openDatalog)
	return cf.run(ctx, cfg, "datalog", stdout, stderr)
}

// cmdDatalogRun runs one program file on one engine and prints its answer, or prints the
// engine's text for it.
func cmdDatalogRun(ctx context.Context, verb string, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("datalog "+verb, datalogSynopsis, stderr)
	engine := fs.String("engine", "ref", "the engine: "+names(dlEngines))
	timeout := fs.Duration("timeout", 10*time.Second, "time limit for the program")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "polyfuzz datalog %s: "+format+"\n", append([]any{verb}, a...)...)
		return code
	}
	if fs.NArg() != 1 {
		return fail(2, "want one argument, a program file (canonical syntax, like Soufflé's)")
	}
	src, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return fail(2, "%v", err)
	}
	p, err := datalog.Parse(fs.Arg(0), string(src))
	if err == nil {
		_, err = p.Strata()
	}
	if err != nil {
		return fail(2, "%v", err)
	}
	e, ok := dlEngines[*engine]
	if !ok {
		return fail(2, "unknown --engine %q (known: %s)", *engine, names(dlEngines))
	}
	if verb == "translate" {
		if e.dialect == nil {
			return fail(2, "%s has no program text of its own to print", *engine)
		}
		tr, err := e.dialect().Translate(p)
		if err != nil {
			return fail(1, "%v", err)
		}
		fmt.Fprint(stdout, tr.Text)
		return 0
	}
	specs, err := engineSpecsOf(newEngineList(*engine), engineSpec{Timeout: *timeout}, false, dlServer)
	if err != nil {
		return fail(2, "%v", err)
	}
	t, err := openDatalog(ctx, specs[0])
	if err != nil {
		return fail(1, "%v", err)
	}
	defer t.Close()
	res, err := t.Exec(ctx, string(src))
	if err != nil {
		return fail(1, "%v", err)
	}
	if res.Failed() {
		return fail(1, "%s: %s %s", res.Status, res.Code, res.Err)
	}
	for _, row := range res.Rows {
		fmt.Fprintln(stdout, datalogFact(row))
	}
	return 0
}

// datalogFact prints an answer row [rel, canonical values...] as a fact.
func datalogFact(row []string) string {
	var args []string
	for _, v := range row[1:] {
		if s, ok := strings.CutPrefix(v, "t:"); ok {
			args = append(args, fmt.Sprintf("%q", s))
		} else {
			args = append(args, strings.TrimPrefix(v, "i:"))
		}
	}
	return row[0] + "(" + strings.Join(args, ", ") + ")."
}
