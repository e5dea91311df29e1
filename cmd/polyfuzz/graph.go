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
	open      func(ctx context.Context, s engineSpec) (fuzz.Target, error)
}

// graphEngines is the one registry of graph engines polyfuzz can test.
var graphEngines = map[string]graphEngine{
	"ref": {open: func(context.Context, engineSpec) (fuzz.Target, error) { return cyphergen.NewReference(), nil }},
	"neo4j": {env: "POLYFUZZ_NEO4J_URL", example: "bolt://127.0.0.1:7687", oneWorker: true,
		open: func(ctx context.Context, s engineSpec) (fuzz.Target, error) {
			return bolt.Open(ctx, bolt.Options{URL: s.DSN, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker, Name: "neo4j"})
		}},
	"memgraph": {env: "POLYFUZZ_MEMGRAPH_URL", example: "bolt://127.0.0.1:7687", oneWorker: true,
		open: func(ctx context.Context, s engineSpec) (fuzz.Target, error) {
			return bolt.Open(ctx, bolt.Options{URL: s.DSN, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker, Name: "memgraph"})
		}},
	"falkordb": {env: "POLYFUZZ_FALKORDB_URL", example: "redis://127.0.0.1:6379",
		open: func(ctx context.Context, s engineSpec) (fuzz.Target, error) {
			return falkordb.Open(ctx, falkordb.Options{URL: s.DSN, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker})
		}},
}

// openGraph opens the engine of s, with its fault if any.
func openGraph(ctx context.Context, s engineSpec) (fuzz.Target, error) {
	e, ok := graphEngines[s.Engine]
	if !ok {
		return nil, fmt.Errorf("unknown --engine %q (known: %s)", s.Engine, names(graphEngines))
	}
	return withFault(e.open(ctx, s))(s.Fault)
}

// oneWorker returns the first engine that allows only one worker, or "": a Bolt server whose
// URL does not name a database per worker (?database=NAME{worker}).
func graphOneWorker(ss engineSpecs) string {
	for _, s := range ss {
		if graphEngines[s.Engine].oneWorker && !strings.Contains(s.DSN, "{worker}") {
			return s.Engine
		}
	}
	return ""
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
	specs   engineSpecs
	format  campaign.Format
}

// newGraphSetup builds the generator and oracles of a campaign. variants names the logic oracles
// whose queries each case carries ("diff", "tlp-where"): the campaign's, also when a replay checks
// one oracle, so that a stored case regenerates identically. steer keeps generation away from the
// catalogued differences of the engines, explain lets the catalogue explain findings.
func newGraphSetup(opts cyphergen.Options, oracleNames, variants []string, specs engineSpecs, steer, explain bool) (*graphSetup, error) {
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
	specs, err := engineSpecsFromOptions(rec.Options, func(n string) string { return graphEngines[n].env }, 0)
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
	return &rebuilt{gen: s.gen, oracle: o, open: specs.openWith(func() int { return 0 }, openGraph),
		reducer: cyphergen.NewReducer(), format: s.format}, nil
}

// graphServer returns a graph engine's server entry: its URL's environment variable and example.
func graphServer(name string) engine {
	e := graphEngines[name]
	return engine{env: e.env, example: e.example}
}

// newGraphEngineList returns the --engine flag of the graph engines.
func newGraphEngineList(vals ...string) *engineList {
	return &engineList{flag: "--engine", vals: vals, known: func(n string) bool { _, ok := graphEngines[n]; return ok },
		names: func() string { return names(graphEngines) }}
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
	genText := genFlag(fs, cyphergen.DefaultOptions())
	faultSpec := faultFlag(fs, "drop-row:MATCH")
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
	opts, err := genOptions(*genText, cyphergen.DefaultOptions(), cyphergen.ParseOptions)
	if err != nil {
		return fail(2, "--gen: %v", err)
	}
	specs, err := engineSpecsOf(engs, engineSpec{Timeout: *timeout, Fault: *faultSpec, Force: *force}, *withRef, graphServer)
	if err != nil {
		return fail(2, "%v", err)
	}
	if e := graphOneWorker(specs); e != "" {
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
	ts, err := specs.openWith(func() int { return 0 }, openGraph)(ctx) // fail fast on a missing engine or a bad fault
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
	cfg.Open = specs.openWith(func() int { return int(worker.Add(1) - 1) }, openGraph)
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
	specs, err := engineSpecsOf(engs, engineSpec{Timeout: *timeout, Force: *force}, false, graphServer)
	if err != nil {
		return fail(2, "%v", err)
	}
	if len(specs) != 1 {
		return fail(2, "give one --engine")
	}
	t, err := openGraph(ctx, specs[0])
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
