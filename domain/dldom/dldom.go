// Package dldom is the Datalog domain of polyfuzz: random stratified programs and queryFuzz's
// metamorphic transformations (datalog) checked on μZ, SWI-Prolog, clingo, CozoDB, Ascent, Soufflé and SQL engines
// against each other and polyfuzz's reference engine.
package dldom

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/datalog/dlsmith"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/domain/smtdom"
	"github.com/polyfuzz/polyfuzz/domain/sqldom"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/targets/ascent"
	"github.com/polyfuzz/polyfuzz/targets/clingo"
	"github.com/polyfuzz/polyfuzz/targets/cozo"
	"github.com/polyfuzz/polyfuzz/targets/muz"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
	"github.com/polyfuzz/polyfuzz/targets/souffle"
	"github.com/polyfuzz/polyfuzz/targets/swipl"
)

const synopsis = `usage: polyfuzz datalog [flags]
       polyfuzz datalog run --engine NAME FILE.dl
       polyfuzz datalog translate --engine NAME FILE.dl
       polyfuzz datalog localize PROGRAM.dl --before OLD.facts --after NEW.facts --unwanted 'rel(a, b)' ...

Fuzzes Datalog engines with metamorphic transformations: generates random stratified programs,
transforms each with a sequence of transformations whose effect on the output is known (equal,
subset or superset), runs both programs on every engine and checks the relation on each engine
(metamorphic). Two styles (--style): queryfuzz (the default; queryFuzz's generator and its rule
transformations ADD, MOD, REM, NEG on one rule) and dlsmith (DLSmith's random precedence graph and
its graph rewrites in any stratum: new rules, facts, negation, inlined facts; 1-100 steps).
polyfuzz's own reference engine (semi-naive, stratified negation, provenance) runs beside the
engines under test (unless --ref=false), so that every engine is also compared with it and with
each other (diff). Crashes, timeouts and unexpected errors are findings too; a program an engine
cannot express is skipped for that engine, counted by reason. A DLSmith finding is first rolled
back to its culprit steps; findings are reduced along the reference's proof trees of a tuple the
engine gets wrong, then by ddmin, every step re-checked on the engine.

Engines: ref (built in), muz (z3), swipl (SWI-Prolog), clingo and cozo (CozoDB; both through their
Python modules in the project's .venv, POLYFUZZ_PYTHON), ascent (compiled with cargo per program),
souffle, and the SQL engines sqlite, duckdb (embedded) and postgres (--engine
postgres=postgres://USER:PASS@HOST/DB or POLYFUZZ_POSTGRES_DSN), which evaluate each stratum in SQL.

'polyfuzz datalog run' prints an engine's answer to one program in the canonical (Soufflé-like)
syntax; 'polyfuzz datalog translate' prints the engine's own text for it; 'polyfuzz datalog
localize' explains which facts of an update broke a program's output (fault localization and
rollback suggestion, from the reference engine's incremental provenance).`

// Domain is the Datalog domain.
var Domain = &domain.Domain{
	Name:     "datalog",
	Summary:  "fuzz Datalog engines: the reference, μZ, SWI-Prolog, clingo, CozoDB, Ascent, Soufflé, SQL",
	Synopsis: synopsis, Unit: "test cases", Owns: "its own engine processes",
	EngineFlag: "engine", DefaultEngine: "ref",
	Engines:        engineList(),
	Oracles:        table.Infos(),
	DefaultOracles: []string{"metamorphic", "diff"},
	Timeout:        10 * time.Second, TimeoutHelp: "a program over it is a skipped check (error: timeout)",
	FaultExample: "drop-row:transformed",
	Faults:       plantedFaults(),
	GenDefault:   func() string { return datalog.DefaultOptions().String() + "' or '" + dlsmith.DefaultOptions().String() },
	Styles: []domain.Style{
		{Name: "queryfuzz", Summary: "queryFuzz: rule transformations of one rule"},
		{Name: "dlsmith", Summary: "DLSmith: precedence-graph transformations in any stratum"},
	},
	Flags: flags,
	Build: build,
}

// init adds the subcommands, which name the domain's engines in their help.
func init() {
	Domain.Commands = []domain.Command{
		{Name: "run", Usage: "print an engine's answer to one program", Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			return run(ctx, "run", args, stdout, stderr)
		}},
		{Name: "translate", Usage: "print an engine's own text for one program", Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			return run(ctx, "translate", args, stdout, stderr)
		}},
		{Name: "localize", Usage: "localize and roll back the facts of an update that broke a program's output", Run: localizeCommand},
	}
}

// planted is the domain's own fault of that kind: a faulty rewrite of each program, at a negation
// plantedFaults are the domain's own faults: every planted fault of package datalog.
func plantedFaults() []domain.Fault {
	var out []domain.Fault
	for _, k := range datalog.PlantedKinds() {
		out = append(out, planted(k))
	}
	return out
}

// depth the fault's argument gives.
func planted(kind string) domain.Fault {
	return domain.Fault{Kind: kind, Help: datalog.PlantedHelp[kind], Wrap: func(inner fuzz.Target, arg string) (fuzz.Target, error) {
		return datalog.NewPlanted(inner, kind, arg)
	}}
}

// process is an engine that runs a program text of its own: its dialect, how its process
// starts, and which builds NAME@VERSION opens ("" for none). Its target runs canonical programs
// translated to that dialect.
type process struct {
	name     string
	dialect  func() datalog.Dialect
	open     func(s domain.Spec) (fuzz.Target, error)
	versions string
}

// processes is the table of engines with a language of their own: adding one is its target
// package, its dialect in datalog and one row here.
var processes = []process{
	{"muz", func() datalog.Dialect { return datalog.MuZ{} }, openMuZ, muzVersions},
	{"swipl", func() datalog.Dialect { return datalog.SWIProlog{} },
		func(s domain.Spec) (fuzz.Target, error) { return swipl.New(swipl.Options{Timeout: s.Timeout}) }, ""},
	{"clingo", func() datalog.Dialect { return datalog.Clingo{} },
		func(s domain.Spec) (fuzz.Target, error) { return clingo.New(clingo.Options{Timeout: s.Timeout}) }, ""},
	{"cozo", func() datalog.Dialect { return datalog.Cozo{} },
		func(s domain.Spec) (fuzz.Target, error) { return cozo.New(cozo.Options{Timeout: s.Timeout}) }, ""},
	{"ascent", func() datalog.Dialect { return datalog.Ascent{} },
		func(s domain.Spec) (fuzz.Target, error) {
			return ascent.New(ascent.Options{Timeout: s.Timeout, Worker: s.Worker})
		}, ""},
	{"souffle", func() datalog.Dialect { return datalog.Souffle{} },
		func(s domain.Spec) (fuzz.Target, error) { return souffle.New(souffle.Options{Timeout: s.Timeout}) }, ""},
}

// muzVersions is the help text of muz@VERSION.
const muzVersions = "the bin/z3 of a z3-solver wheel from PyPI (4.8.5 and later): " +
	"muz@4.8.9 is z3-solver==4.8.9.0 (a four-part version is the wheel's own), installed by polyfuzz bench install"

// openMuZ starts z3's μZ: the z3 on PATH, or for muz@VERSION the z3 binary of that z3-solver wheel
// (the wheels the SMT domain's z3@VERSION runs).
func openMuZ(s domain.Spec) (fuzz.Target, error) {
	o := muz.Options{Timeout: s.Timeout}
	if s.Version != "" {
		bin, err := pypi.Path(smtdom.Z3Package, smtdom.Z3Wheel(s.Version), "bin/z3")
		if err != nil {
			return nil, fmt.Errorf("muz@%s: %w", s.Version, err)
		}
		o.Path = bin
	}
	return muz.New(o)
}

// engineList returns the engines: the reference, the processes, and the SQL engines that
// evaluate each stratum in SQL.
func engineList() []domain.Engine {
	out := []domain.Engine{{Name: "ref", Open: func(context.Context, domain.Spec) (fuzz.Target, error) { return datalog.NewReference(0), nil }}}
	for _, p := range processes {
		out = append(out, domain.Engine{Name: p.name, Versions: p.versions, Open: func(_ context.Context, s domain.Spec) (fuzz.Target, error) {
			inner, err := p.open(s)
			if err != nil {
				return nil, err
			}
			return &datalog.Engine{Inner: inner, Dialect: p.dialect()}, nil
		}})
	}
	return append(out, inSQL("sqlite"), inSQL("duckdb"), inSQL("postgres"))
}

// dialectOf returns the dialect constructor of the engine of that name, nil for an engine
// without a language of its own.
func dialectOf(name string) func() datalog.Dialect {
	for _, p := range processes {
		if p.name == name {
			return p.dialect
		}
	}
	return nil
}

// inSQL is an engine that evaluates each stratum in a SQL engine of the SQL domain, in the builds
// that engine takes (duckdb@VERSION).
func inSQL(name string) domain.Engine {
	e, _ := sqldom.Domain.Engine(name)
	return domain.Engine{Name: name, Env: e.Env, Example: e.Example, Versions: e.Versions, Open: func(ctx context.Context, s domain.Spec) (fuzz.Target, error) {
		inner, err := sqldom.Domain.Open(ctx, domain.Spec{Engine: name, Version: s.Version, DSN: s.DSN, Timeout: s.Timeout, Isolate: true, Worker: s.Worker, Force: s.Force})
		if err != nil {
			return nil, err
		}
		return &datalog.SQLEngine{Inner: inner, Dialect: name}, nil
	}}
}

// show prints answers in findings as Datalog facts.
var show = oracles.Display{Value: datalog.ShowValue, Row: datalog.ShowRow}

// table is the Datalog oracle table: adding an oracle is its file and one row here.
var table = domain.OracleTable[struct{}]{
	{OracleInfo: domain.OracleInfo{Name: "metamorphic"}, New: func(struct{}) fuzz.Oracle {
		return oracles.Metamorphic{Orig: datalog.RoleOrig, Trans: datalog.RoleTrans, Param: datalog.ParamExpect, Show: show}
	}},
	{OracleInfo: domain.OracleInfo{Name: "diff", Multi: true}, New: func(struct{}) fuzz.Oracle {
		return oracles.Rows{Layouts: []*fuzz.Layout{datalog.Programs}, AnsweredOnly: true, Reference: "ref", Show: show}
	}},
	{OracleInfo: domain.OracleInfo{Name: "error", Always: true}, New: func(struct{}) fuzz.Oracle {
		return oracles.Errors{SkipTimeouts: true, Expect: func(_, code, _ string) bool { return code == datalog.CodeUnsupported }}
	}},
	{OracleInfo: domain.OracleInfo{Name: "guidance", Always: true}, New: func(struct{}) fuzz.Oracle {
		return oracles.Emptiness{Target: "ref", Layouts: []*fuzz.Layout{datalog.Programs.Sub("orig")}}
	}},
}

// flags registers --ref, which runs the reference engine beside the engines under test.
func flags(fs *flag.FlagSet) func(s *domain.Settings, base domain.Spec) error {
	withRef := fs.Bool("ref", true, "run the reference engine beside the engines under test, for the differential oracle")
	return func(s *domain.Settings, base domain.Spec) error {
		s.AddReference(base, *withRef)
		return nil
	}
}

// build makes the generator, oracles, reducer and format of a Datalog campaign.
func build(_ context.Context, s *domain.Settings, _ func(string)) (*domain.Setup, error) {
	gen, err := generator(s)
	if err != nil {
		return nil, err
	}
	f := datalog.Format{Dialects: map[string]datalog.Dialect{}}
	for _, n := range s.Names() {
		f.Engines = append(f.Engines, n)
		if mk := dialectOf(n); mk != nil {
			f.Dialects[n] = mk()
		}
	}
	stats := &datalog.ReduceStats{}
	red := datalog.NewReducer()
	red.Plain, red.Stats = s.Plain, stats
	st := &domain.Setup{Gen: gen, Reducer: red, Format: f, ReduceReport: func() string { return reduceReport(stats, s.Plain) }}
	if dg, ok := gen.(*dlsmith.Generator); ok && !s.Plain {
		// DLSmith findings are first rolled back to their culprit steps.
		runs := new(int)
		st.Reducer = &dlsmith.Reducer{Gen: dg, Inner: red, Runs: runs}
		st.ReduceReport = func() string {
			return fmt.Sprintf("culprit steps found in %d engine runs; then %s", *runs, reduceReport(stats, s.Plain))
		}
	}
	st.Oracles = table.Make(s.Oracles, struct{}{})
	return st, nil
}

// generator makes the case generator of the settings' style: queryFuzz's or DLSmith's, as --style
// says or, for stored options, as their name says ("queryfuzz{...}", "dlsmith{...}"). It sets
// s.Gen to the options in full.
func generator(s *domain.Settings) (fuzz.Generator, error) {
	style := s.Style
	if name, _, ok := strings.Cut(s.Gen, "{"); ok {
		if style != "" && style != name {
			return nil, fmt.Errorf("--gen gives %s options but --style is %s; leave one of them out", name, style)
		}
		style = name
	}
	switch style {
	case "", "queryfuzz":
		opts, err := domain.GenOptions(s.Gen, datalog.DefaultOptions(), datalog.ParseOptions)
		if err != nil {
			return nil, err
		}
		s.Gen = opts.String()
		return datalog.NewGenerator(opts)
	case "dlsmith":
		opts, err := domain.GenOptions(s.Gen, dlsmith.DefaultOptions(), dlsmith.ParseOptions)
		if err != nil {
			return nil, err
		}
		s.Gen = opts.String()
		return dlsmith.NewGenerator(opts)
	}
	return nil, fmt.Errorf("unknown generator options %q; they start with queryfuzz{ or dlsmith{", s.Gen)
}

// reduceReport describes a reduction's statistics.
func reduceReport(st *datalog.ReduceStats, plain bool) string {
	how := "ddmin alone"
	if st.Guided {
		how = "guided by the proof of " + st.Focus
	} else if !plain {
		how = "ddmin (no proof of a missed tuple helped)"
	}
	return fmt.Sprintf("clauses %d -> %d (%d body literals in the shared rules), %s; %d engine runs, %d reference evaluations",
		st.Before, st.After, st.Literals, how, st.EngineRuns, st.RefRuns)
}

// run runs one program file on one engine and prints its answer, or prints the engine's text.
func run(ctx context.Context, verb string, args []string, stdout, stderr io.Writer) int {
	fs, spec, src, code := Domain.FileCommand(verb, synopsis, "a program file (canonical syntax, like Soufflé's)", args, stdout, stderr)
	if code >= 0 {
		return code
	}
	p, err := datalog.Parse(fs.Arg(0), src)
	if err == nil {
		_, err = p.Strata()
	}
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	if verb == "translate" {
		mk := dialectOf(spec.Engine)
		if mk == nil {
			return fs.Fail(domain.ExitUsage, "%s has no program text of its own to print", spec.Engine)
		}
		tr, err := mk().Translate(p)
		if err != nil {
			return fs.Fail(domain.ExitFailure, "%v", err)
		}
		fmt.Fprint(stdout, tr.Text)
		return 0
	}
	t, err := Domain.Open(ctx, spec)
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	defer t.Close()
	res, err := t.Exec(ctx, src)
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	if res.Failed() {
		return fs.Fail(domain.ExitFailure, "%s: %s %s", res.Status, res.Code, res.Err)
	}
	for _, row := range res.Rows {
		fmt.Fprintln(stdout, fact(row))
	}
	return 0
}

// fact prints an answer row [rel, canonical values...] as a fact.
func fact(row []string) string {
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
