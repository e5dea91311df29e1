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
	open    func(s dlSpec) (fuzz.Target, error)
}

// dlEngines is the one registry of Datalog engines polyfuzz can test.
var dlEngines = map[string]dlEngine{
	"ref": {open: func(s dlSpec) (fuzz.Target, error) { return datalog.NewReference(0), nil }},
	"muz": {dialect: func() datalog.Dialect { return datalog.MuZ{} }, open: func(s dlSpec) (fuzz.Target, error) {
		return muz.New(muz.Options{Timeout: s.Timeout})
	}},
	"swipl": {dialect: func() datalog.Dialect { return datalog.SWIProlog{} }, open: func(s dlSpec) (fuzz.Target, error) {
		return swipl.New(swipl.Options{Timeout: s.Timeout})
	}},
	"clingo": {dialect: func() datalog.Dialect { return datalog.Clingo{} }, open: func(s dlSpec) (fuzz.Target, error) {
		return clingo.New(clingo.Options{Timeout: s.Timeout})
	}},
	"souffle": {dialect: func() datalog.Dialect { return datalog.Souffle{} }, open: func(s dlSpec) (fuzz.Target, error) {
		return souffle.New(souffle.Options{Timeout: s.Timeout})
	}},
	"sqlite":   {sql: "sqlite"},
	"duckdb":   {sql: "duckdb"},
	"postgres": {sql: "postgres"},
}

// dlSpec says how to open one Datalog engine; it is stored with findings (without a DSN's
// password) so that replay opens the same engine.
type dlSpec struct {
	Engine  string
	DSN     string
	Timeout time.Duration
	Fault   string
	Worker  int
}

// open opens the engine of s as a target that runs canonical programs, with its fault if any.
func (s dlSpec) open(ctx context.Context) (fuzz.Target, error) {
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

// dlSpecs are the engines of one Datalog campaign; the fault, if any, is planted in the first.
type dlSpecs []dlSpec

func (ss dlSpecs) names() []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Engine)
	}
	return out
}

// open opens one worker's engines, numbering the worker with next.
func (ss dlSpecs) open(next func() int) func(ctx context.Context) ([]fuzz.Target, error) {
	return openWorker(ss, next, func(ctx context.Context, s dlSpec, w int) (fuzz.Target, error) {
		s.Worker = w
		return s.open(ctx)
	})
}

func (ss dlSpecs) options() map[string]string {
	m := map[string]string{"engines": strings.Join(ss.names(), ","), "timeout": ss[0].Timeout.String()}
	for _, s := range ss {
		if s.DSN != "" {
			m["dsn."+s.Engine] = sqlserver.Redact(s.DSN)
		}
	}
	if ss[0].Fault != "" {
		m["fault"] = ss[0].Fault
	}
	return m
}

func dlSpecsFromOptions(m map[string]string) (dlSpecs, error) {
	timeout, err := time.ParseDuration(m["timeout"])
	if err != nil {
		return nil, fmt.Errorf("bad timeout %q in finding: %w", m["timeout"], err)
	}
	var ss dlSpecs
	for i, name := range strings.Split(m["engines"], ",") {
		s := dlSpec{Engine: name, Timeout: timeout, Worker: replayWorker, DSN: m["dsn."+name]}
		if e, ok := engines[dlEngines[name].sql]; ok && e.env != "" {
			if v := os.Getenv(e.env); v != "" {
				s.DSN = v
			}
		}
		if i == 0 {
			s.Fault = m["fault"]
		}
		ss = append(ss, s)
	}
	return ss, nil
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
	specs   dlSpecs
	format  campaign.Format
}

func newDatalogSetup(opts datalog.Options, oracleNames []string, specs dlSpecs) (*dlSetup, error) {
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
	specs, err := dlSpecsFromOptions(rec.Options)
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
	return &rebuilt{gen: s.gen, oracle: o, open: specs.open(func() int { return replayWorker }),
		reducer: datalog.NewReducer(), format: s.format}, nil
}

// newEngineList returns the --engine flag of the Datalog engines.
func newEngineList(vals ...string) *engineList {
	return &engineList{flag: "--engine", vals: vals, known: func(n string) bool { _, ok := dlEngines[n]; return ok },
		names: func() string { return names(dlEngines) }}
}

// dlSpecsOf returns one spec per engine of l (ref when none was given), with the reference added
// when withRef and it is not there yet; the fault goes to the first engine.
func dlSpecsOf(l *engineList, base dlSpec, withRef bool) (dlSpecs, error) {
	args, err := l.args("ref", func(n string) engine { return engines[dlEngines[n].sql] })
	if err != nil {
		return nil, err
	}
	var ss dlSpecs
	hasRef := false
	for i, a := range args {
		s := base
		s.Engine, s.DSN = a.name, a.dsn
		if i > 0 {
			s.Fault = ""
		}
		hasRef = hasRef || a.name == "ref"
		ss = append(ss, s)
	}
	if withRef && !hasRef {
		s := base
		s.Engine, s.Fault = "ref", ""
		ss = append(ss, s)
	}
	return ss, nil
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
	genText := fs.String("gen", "", "generator options in the form polyfuzz prints in campaign.json, e.g.\n"+
		"      '"+datalog.DefaultOptions().String()+"' (keys may be left out)")
	faultSpec := fs.String("fault", "", "inject a known fault KIND:REGEXP into the first engine to prove the oracles fire,\n"+
		"      e.g. 'drop-row:transformed' (kinds: drop-row, new-row, add-row, change-value, error, hang)")
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
	opts := datalog.DefaultOptions()
	if *genText != "" {
		if opts, err = datalog.ParseOptions(*genText); err != nil {
			return fail(2, "--gen: %v", err)
		}
	}
	specs, err := dlSpecsOf(engs, dlSpec{Timeout: *timeout, Fault: *faultSpec}, *withRef)
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
	ts, err := specs.open(func() int { return 0 })(ctx) // fail fast on a missing engine or a bad fault
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
	cfg.Open = specs.open(func() int { return int(worker.Add(1) - 1) })
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
	specs, err := dlSpecsOf(newEngineList(*engine), dlSpec{Timeout: *timeout}, false)
	if err != nil {
		return fail(2, "%v", err)
	}
	t, err := specs[0].open(ctx)
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
