package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/cyphergen"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/targets/bolt"
	"github.com/polyfuzz/polyfuzz/targets/falkordb"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

const graphSynopsis = `usage: polyfuzz graph [flags]
       polyfuzz graph run --engine NAME[=URL] FILE.cypher

Fuzzes graph databases the GDsmith way: builds a random property graph, then writes Cypher queries
whose patterns are cut from regions of the graph and whose WHERE conditions are built from the values
there, so that most queries return rows. Every query runs on every engine and on polyfuzz's own
reference evaluator (unless --ref=false), and the answers are compared as multisets (diff). The
partition oracle (GDBMeter's query partitioning) checks each engine against itself: a query's rows
are the rows of the same query restricted to p, NOT p and p IS NULL. Crashes, timeouts and errors the
reference does not share are findings too. Known semantic differences between engines (docs/graph.md)
steer generation and classify a discrepancy they explain as known rather than as a finding.
Findings are reduced (queries: clauses, patterns, expressions; graph: relationships, nodes, labels,
properties), every step re-checked on the engines.

Engines: ref (built in), neo4j and memgraph over Bolt (--engine neo4j=bolt://HOST:PORT, or
POLYFUZZ_NEO4J_URL), falkordb over RESP (--engine falkordb=redis://HOST:PORT, or
POLYFUZZ_FALKORDB_URL). Each worker owns a graph of its own: FalkorDB a key polyfuzz_w<N>, Neo4j
the database the URL names: Community has one, so a Neo4j campaign runs one worker per server,
unless the URL names a database per worker (bolt://HOST:PORT?database=fuzz{worker}, databases
made beforehand on Neo4j Enterprise).

'polyfuzz graph run' runs a case script (a finding's case.cypher) on one engine and prints the rows.`

// graphEngine is one entry of the registry of graph engines.
type graphEngine struct {
	// env names the environment variable that holds a server's default URL ("" for ref);
	// example is a URL to show in help and errors.
	env, example string
	// oneWorker says that the engine offers one graph per server, so a campaign on it runs one
	// worker.
	oneWorker bool
	open      func(ctx context.Context, s graphSpec) (fuzz.Target, error)
}

// graphEngines is the one registry of graph engines polyfuzz can test.
var graphEngines = map[string]graphEngine{
	"ref": {open: func(context.Context, graphSpec) (fuzz.Target, error) { return cyphergen.NewReference(), nil }},
	"neo4j": {env: "POLYFUZZ_NEO4J_URL", example: "bolt://127.0.0.1:7687", oneWorker: true,
		open: func(ctx context.Context, s graphSpec) (fuzz.Target, error) {
			return bolt.Open(ctx, bolt.Options{URL: s.URL, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker, Name: "neo4j"})
		}},
	"memgraph": {env: "POLYFUZZ_MEMGRAPH_URL", example: "bolt://127.0.0.1:7687", oneWorker: true,
		open: func(ctx context.Context, s graphSpec) (fuzz.Target, error) {
			return bolt.Open(ctx, bolt.Options{URL: s.URL, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker, Name: "memgraph"})
		}},
	"falkordb": {env: "POLYFUZZ_FALKORDB_URL", example: "redis://127.0.0.1:6379",
		open: func(ctx context.Context, s graphSpec) (fuzz.Target, error) {
			return falkordb.Open(ctx, falkordb.Options{URL: s.URL, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker})
		}},
}

// graphSpec says how to open one graph engine; it is stored with findings (without the URL's
// password) so that replay opens the same engine.
type graphSpec struct {
	Engine  string
	URL     string
	Timeout time.Duration
	Fault   string
	Force   bool
	Worker  int
}

// open opens the engine of s, with its fault if any.
func (s graphSpec) open(ctx context.Context) (fuzz.Target, error) {
	e, ok := graphEngines[s.Engine]
	if !ok {
		return nil, fmt.Errorf("unknown --engine %q (known: %s)", s.Engine, names(graphEngines))
	}
	return withFault(e.open(ctx, s))(s.Fault)
}

// graphSpecs are the engines of one graph campaign; the fault, if any, is planted in the first.
type graphSpecs []graphSpec

func (ss graphSpecs) names() []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Engine)
	}
	return out
}

// oneWorker returns the first engine that allows only one worker, or "": a Bolt server whose
// URL does not name a database per worker (?database=NAME{worker}).
func (ss graphSpecs) oneWorker() string {
	for _, s := range ss {
		if graphEngines[s.Engine].oneWorker && !strings.Contains(s.URL, "{worker}") {
			return s.Engine
		}
	}
	return ""
}

// open opens one worker's engines, numbering the worker with next.
func (ss graphSpecs) open(next func() int) func(ctx context.Context) ([]fuzz.Target, error) {
	return openWorker(ss, next, func(ctx context.Context, s graphSpec, w int) (fuzz.Target, error) {
		s.Worker = w
		return s.open(ctx)
	})
}

func (ss graphSpecs) options() map[string]string {
	m := map[string]string{"engines": strings.Join(ss.names(), ","), "timeout": ss[0].Timeout.String()}
	for _, s := range ss {
		if s.URL != "" {
			m["url."+s.Engine] = sqlserver.Redact(s.URL)
		}
	}
	if ss[0].Fault != "" {
		m["fault"] = ss[0].Fault
	}
	if ss[0].Force {
		m["force"] = "true"
	}
	return m
}

// graphSpecsFromOptions rebuilds the specs of a stored finding. A server's URL comes from its
// environment variable when set (the stored one has no password), else from the finding.
func graphSpecsFromOptions(m map[string]string) (graphSpecs, error) {
	timeout, err := time.ParseDuration(m["timeout"])
	if err != nil {
		return nil, fmt.Errorf("bad timeout %q in finding: %w", m["timeout"], err)
	}
	var ss graphSpecs
	for i, name := range strings.Split(m["engines"], ",") {
		s := graphSpec{Engine: name, Timeout: timeout, Worker: 0, URL: m["url."+name], Force: m["force"] == "true"}
		if env := graphEngines[name].env; env != "" {
			if v := os.Getenv(env); v != "" {
				s.URL = v
			}
		}
		if i == 0 {
			s.Fault = m["fault"]
		}
		ss = append(ss, s)
	}
	return ss, nil
}

// graphOracles maps each graph oracle's name to its constructor; known says whether the
// catalogue of known differences explains discrepancies.
var graphOracles = map[string]func(known bool) fuzz.Oracle{
	"diff": func(known bool) fuzz.Oracle {
		o := oracles.Rows{Prefixes: []string{"graph.", "tlp."}, AnsweredOnly: true, Reference: "ref"}
		if !known {
			return o
		}
		return oracles.Known{Oracle: o, Explain: cyphergen.Explain}
	},
	"tlp-where": func(known bool) fuzz.Oracle {
		if !known {
			return oracles.TLP{}
		}
		return oracles.Known{Oracle: oracles.TLP{}, Explain: cyphergen.Explain}
	},
	"error": func(known bool) fuzz.Oracle {
		return oracles.Errors{SkipTimeouts: true, Reference: "ref", Expect: func(_, code, msg string) bool {
			return code == cyphergen.CodeUnsupported || known && cyphergen.ExpectedError(msg) != ""
		}}
	},
	"guidance": func(bool) fuzz.Oracle {
		return oracles.Emptiness{Target: "ref", Prefixes: []string{"graph.", "tlp.orig"}}
	},
}

// graphOracleAliases are other names --oracle takes.
var graphOracleAliases = map[string]string{"partition": "tlp-where"}

// graphSetup is everything a graph campaign, replay or reduction needs.
type graphSetup struct {
	gen     *cyphergen.Generator
	oracles []fuzz.Oracle
	specs   graphSpecs
	format  campaign.Format
}

// newGraphSetup builds the generator and oracles of a campaign. variants names the logic oracles
// whose queries each case carries ("diff", "tlp-where"): the campaign's, also when a replay checks
// one oracle, so that a stored case regenerates identically. steer keeps generation away from the
// catalogued differences of the engines, explain lets the catalogue explain findings.
func newGraphSetup(opts cyphergen.Options, oracleNames, variants []string, specs graphSpecs, steer, explain bool) (*graphSetup, error) {
	s := &graphSetup{specs: specs}
	f := cyphergen.Format{Env: map[string]string{}}
	for _, n := range specs.names() {
		f.Engines = append(f.Engines, n)
		if env := graphEngines[n].env; env != "" {
			f.Env[n] = env
		}
	}
	s.format = f
	for _, n := range oracleNames {
		mk, ok := graphOracles[n]
		if !ok {
			return nil, fmt.Errorf("unknown --oracle %q (known: diff, partition, error, guidance)", n)
		}
		s.oracles = append(s.oracles, mk(explain))
	}
	avoid := cyphergen.Avoid(specs.names())
	if !steer {
		avoid = cyphergen.Avoid(nil)
	}
	s.gen = cyphergen.NewGenerator(opts, avoid, slices.Contains(variants, "diff"), slices.Contains(variants, "tlp-where"))
	return s, nil
}

// rebuildGraph rebuilds what produced a stored graph finding.
func rebuildGraph(rec *campaign.Record) (*rebuilt, error) {
	opts, err := cyphergen.ParseOptions(rec.Gen)
	if err != nil {
		return nil, fmt.Errorf("finding's generator options: %w", err)
	}
	specs, err := graphSpecsFromOptions(rec.Options)
	if err != nil {
		return nil, err
	}
	// Replay and reduction judge the engines' answers as the oracle sees them, without the
	// catalogue: a finding recorded before its difference was catalogued still reproduces.
	steer := rec.Options["known"] != "false"
	s, err := newGraphSetup(opts, []string{rec.Oracle}, strings.Split(rec.Options["variants"], ","), specs, steer, false)
	if err != nil {
		return nil, err
	}
	o, err := oracleNamed(s.oracles, rec.Oracle)
	if err != nil {
		return nil, err
	}
	return &rebuilt{gen: s.gen, oracle: o, open: specs.open(func() int { return 0 }),
		reducer: cyphergen.NewReducer(), format: s.format}, nil
}

// newGraphEngineList returns the --engine flag of the graph engines.
func newGraphEngineList(vals ...string) *engineList {
	return &engineList{flag: "--engine", vals: vals, known: func(n string) bool { _, ok := graphEngines[n]; return ok },
		names: func() string { return names(graphEngines) }}
}

// graphSpecsOf returns one spec per engine of l (ref when none was given), with the reference
// added when withRef and it is not there yet; the fault goes to the first engine.
func graphSpecsOf(l *engineList, base graphSpec, withRef bool) (graphSpecs, error) {
	args, err := l.args("ref", func(n string) engine {
		e := graphEngines[n]
		return engine{env: e.env, example: e.example}
	})
	if err != nil {
		return nil, err
	}
	var ss graphSpecs
	hasRef := false
	for i, a := range args {
		s := base
		s.Engine, s.URL = a.name, a.dsn
		if i > 0 {
			s.Fault = ""
		}
		hasRef = hasRef || a.name == "ref"
		ss = append(ss, s)
	}
	if withRef && !hasRef {
		s := base
		s.Engine, s.Fault, s.URL = "ref", "", ""
		ss = append(ss, s)
	}
	return ss, nil
}

func cmdGraph(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "run" {
		return cmdGraphRun(ctx, args[1:], stdout, stderr)
	}
	fs := newFlags("graph", graphSynopsis, stderr)
	engs := newGraphEngineList()
	fs.Var(engs, "engine", "engine to test, NAME or NAME=URL, repeatable: "+names(graphEngines)+" (default ref)")
	withRef := fs.Bool("ref", true, "run the reference evaluator beside the engines under test, for the differential oracle")
	var cf campaignFlags
	cf.register(fs, "test cases", "its own graph (Neo4j: one worker per server)")
	oracleList := fs.String("oracle", "diff,partition", "comma-separated oracles: diff (across engines and the reference), partition\n"+
		"      (each engine against itself) (error is always on, and guidance, the share of non-empty answers on ref)")
	timeout := fs.Duration("timeout", 10*time.Second, "per-statement timeout; a query over it is a skipped check (error: timeout)")
	known := fs.Bool("known", true, "steer generation away from the catalogued differences of the engines tested, and\n"+
		"      count a discrepancy the catalogue explains as known instead of storing it (docs/graph.md)")
	force := fs.Bool("force", false, "work in a Neo4j database that holds data polyfuzz did not create (it will be deleted)")
	genText := fs.String("gen", "", "generator options in the form polyfuzz prints in campaign.json, e.g.\n"+
		"      '"+cyphergen.DefaultOptions().String()+"' (keys may be left out)")
	faultSpec := fs.String("fault", "", "inject a known fault KIND:REGEXP into the first engine to prove the oracles fire,\n"+
		"      e.g. 'drop-row:MATCH' (kinds: drop-row, add-row, change-value, new-row, error, hang)")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "polyfuzz graph: "+format+"\n", a...)
		return code
	}
	campaignSeed, err := cf.checkCommand(fs, *timeout)
	if err != nil {
		return fail(2, "%v", err)
	}
	opts := cyphergen.DefaultOptions()
	if *genText != "" {
		if opts, err = cyphergen.ParseOptions(*genText); err != nil {
			return fail(2, "--gen: %v", err)
		}
	}
	specs, err := graphSpecsOf(engs, graphSpec{Timeout: *timeout, Fault: *faultSpec, Force: *force}, *withRef)
	if err != nil {
		return fail(2, "%v", err)
	}
	if e := specs.oneWorker(); e != "" {
		if cf.workers > 1 {
			return fail(2, "%s offers one graph per server, so a campaign on it runs one worker (got -j %d); "+
				"give a database per worker with ?database=NAME{worker} in the URL", e, cf.workers)
		}
		cf.workers = 1
	}
	var oracleNames []string
	for _, n := range strings.Split(*oracleList, ",") {
		n = strings.TrimSpace(n)
		if a, ok := graphOracleAliases[n]; ok {
			n = a
		}
		if n == "" || n == "error" || n == "guidance" || (n == "diff" && len(specs) < 2) {
			continue
		}
		oracleNames = append(oracleNames, n)
	}
	variants := slices.Clone(oracleNames)
	oracleNames = append(oracleNames, "error")
	if slices.Contains(specs.names(), "ref") {
		oracleNames = append(oracleNames, "guidance")
	}
	s, err := newGraphSetup(opts, oracleNames, variants, specs, *known, *known)
	if err != nil {
		return fail(2, "%v", err)
	}
	if !slices.ContainsFunc(s.oracles, func(o fuzz.Oracle) bool { return o.Name() == "diff" || o.Name() == "tlp-where" }) {
		return fail(2, "no logic oracle to run: diff needs two engines (or the reference), and partition was not asked for")
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
	names := make([]string, len(s.oracles))
	for i, o := range s.oracles {
		names[i] = o.Name()
	}
	fmt.Fprintf(stderr, "polyfuzz graph: engines %s, oracles %s, seed %d, out %s\n", versions,
		strings.Join(names, ","), campaignSeed, cf.out)
	var worker atomic.Int64
	cfg := cf.config(campaignSeed, store, cyphergen.NewReducer(), stderr)
	cfg.Command = sqlserver.Redact("polyfuzz graph " + strings.Join(args, " "))
	cfg.Domain, cfg.Gen, cfg.Oracles, cfg.Format = "graph", s.gen, s.oracles, s.format
	cfg.Options = specs.options()
	cfg.Options["variants"] = strings.Join(variants, ",")
	if !*known {
		cfg.Options["known"] = "false"
	}
	cfg.Open = specs.open(func() int { return int(worker.Add(1) - 1) })
	return cf.run(ctx, cfg, "graph", stdout, stderr)
}

// cmdGraphRun runs a case script on one engine and prints each query's rows.
func cmdGraphRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("graph run", graphSynopsis, stderr)
	engs := newGraphEngineList()
	fs.Var(engs, "engine", "the engine, NAME or NAME=URL: "+names(graphEngines)+" (default ref)")
	timeout := fs.Duration("timeout", 10*time.Second, "per-statement timeout")
	force := fs.Bool("force", false, "work in a Neo4j database that holds data polyfuzz did not create (it will be deleted)")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "polyfuzz graph run: "+format+"\n", a...)
		return code
	}
	if fs.NArg() != 1 {
		return fail(2, "want one argument, a case script (a finding's case.cypher)")
	}
	src, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return fail(2, "%v", err)
	}
	setup, queries := cyphergen.ParseScript(string(src))
	if len(queries) == 0 {
		return fail(2, "%s holds no query: queries follow a line '// ---- ROLE' after the setup", fs.Arg(0))
	}
	specs, err := graphSpecsOf(engs, graphSpec{Timeout: *timeout, Force: *force}, false)
	if err != nil {
		return fail(2, "%v", err)
	}
	if len(specs) != 1 {
		return fail(2, "give one --engine")
	}
	t, err := specs[0].open(ctx)
	if err != nil {
		return fail(1, "%v", err)
	}
	defer t.Close()
	if err := t.Reset(ctx); err != nil {
		return fail(1, "%v", err)
	}
	defer t.Reset(context.WithoutCancel(ctx))
	for i, stmt := range setup {
		res, err := t.Exec(ctx, stmt)
		if err != nil {
			return fail(1, "%v", err)
		}
		if res.Failed() {
			return fail(1, "setup statement %d: %s %s %s", i+1, res.Status, res.Code, res.Err)
		}
	}
	code := 0
	for _, q := range queries {
		res, err := t.Exec(ctx, q.Text)
		if err != nil {
			return fail(1, "%v", err)
		}
		fmt.Fprintf(stdout, "== %s\n", q.Role)
		if res.Failed() {
			fmt.Fprintf(stdout, "%s: %s %s\n", res.Status, res.Code, res.Err)
			code = 1
			continue
		}
		fmt.Fprintln(stdout, strings.Join(res.Columns, " | "))
		for _, row := range res.Rows {
			fmt.Fprintln(stdout, strings.Join(row, " | "))
		}
		fmt.Fprintf(stdout, "(%d rows)\n", len(res.Rows))
	}
	return code
}
