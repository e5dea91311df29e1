package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	root "github.com/polyfuzz/polyfuzz"
	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/smtgen"
	"github.com/polyfuzz/polyfuzz/targets/smtproc"
)

const smtSynopsis = `usage: polyfuzz smt [flags]
       polyfuzz smt selfcheck [flags]

Fuzzes SMT solvers the STORM way: cuts the assertions of seed SMT-LIB scripts into Boolean
fragments, evaluates them under a model (a reference solver's, certified by polyfuzz's own exact
evaluator, or a random assignment), and recombines them into instances that the model satisfies,
so that unsat is a soundness bug. Every sat answer's model is validated by the evaluator, several
--solver flags compare the solvers' answers, and crashes, timeouts and errors are findings too.
Solvers run as long-lived processes reset between instances.

Seeds come from --seeds DIR (any folder of .smt2 files, searched recursively, e.g. an SMT-LIB
benchmark folder or ../shared/corpus/smt/QF_LIA); without it, the project's own seed set is used.

'polyfuzz smt selfcheck' evaluates random ground terms of every theory with polyfuzz's evaluator and
with each --solver, and prints where they disagree.`

// smtOracles maps oracle names to constructors.
var smtOracles = map[string]func() fuzz.Oracle{
	smtgen.OracleSat:   func() fuzz.Oracle { return smtgen.SatOracle{} },
	smtgen.OracleModel: func() fuzz.Oracle { return smtgen.ModelOracle{} },
	"diff": func() fuzz.Oracle {
		return oracles.Answers{Role: smtgen.RoleInstance, Values: []string{"sat", "unsat", "unknown"}, Wildcards: []string{"unknown"}}
	},
	"error": func() fuzz.Oracle {
		return oracles.Errors{Expect: smtgen.ExpectError, SkipTimeouts: true, Chained: true}
	},
}

// smtSpec says which solvers a campaign runs; it is stored with findings so that replay opens the
// same solvers.
type smtSpec struct {
	Solvers []string // preset names, or "cmd:" and a command line
	Timeout time.Duration
	Seeds   string // the seed folder; "" for the project's own seeds
	Ref     string // the reference solver for seed models; "none" for random models only
}

func (s smtSpec) options() map[string]string {
	return map[string]string{"solvers": strings.Join(s.Solvers, ";"), "timeout": s.Timeout.String(),
		"seeds": s.Seeds, "ref": s.Ref}
}

func smtSpecFromOptions(m map[string]string) (smtSpec, error) {
	s := smtSpec{Solvers: strings.Split(m["solvers"], ";"), Seeds: m["seeds"], Ref: m["ref"]}
	d, err := time.ParseDuration(m["timeout"])
	if err != nil {
		return s, fmt.Errorf("bad timeout %q in finding: %w", m["timeout"], err)
	}
	s.Timeout = d
	return s, nil
}

// solverOptions returns the process options of one solver of the spec.
func (s smtSpec) solverOptions(name string) (smtproc.Options, error) {
	var o smtproc.Options
	var err error
	if cmd, ok := strings.CutPrefix(name, "cmd:"); ok {
		o, err = smtproc.Custom(cmd)
	} else {
		o, err = smtproc.Preset(name)
	}
	o.Timeout = s.Timeout
	return o, err
}

// openSolvers starts one process of every solver of the spec.
func (s smtSpec) openSolvers(ctx context.Context) ([]fuzz.Target, error) {
	var ts []fuzz.Target
	for _, name := range s.Solvers {
		o, err := s.solverOptions(name)
		if err == nil {
			var t *smtproc.Target
			if t, err = smtproc.New(o); err == nil {
				ts = append(ts, t)
				continue
			}
		}
		closeAll(ts)
		return nil, err
	}
	return ts, nil
}

// loadSMTSeeds reads the seed folder of the spec, or the project's own seeds.
func loadSMTSeeds(dir string) ([]*smtgen.Seed, []*smtgen.SkipError, error) {
	var fsys fs.FS
	if dir == "" {
		sub, err := fs.Sub(root.SMTSeeds, "testdata/smt")
		if err != nil {
			return nil, nil, err
		}
		fsys = sub
	} else {
		st, err := os.Stat(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("--seeds: %w", err)
		}
		if !st.IsDir() {
			fsys, dir = os.DirFS(filepath.Dir(dir)), filepath.Base(dir)
			return smtgen.LoadSeeds(fsys, dir)
		}
		fsys = os.DirFS(dir)
	}
	return smtgen.LoadSeeds(fsys, ".")
}

// refModels gets seed models from a reference solver, once per seed, and certifies them. Each
// seed gets a fresh solver process, so that its model does not depend on what the process solved
// before (z3 keeps state across reset), and replay regenerates the same case.
type refModels struct {
	spec smtSpec
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

func (r *refModels) compute(s *smtgen.Seed) (*smtgen.Model, bool) {
	o, err := r.spec.solverOptions(r.spec.Ref)
	if err != nil {
		return nil, false
	}
	for _, negated := range []bool{false, true} {
		t, err := smtproc.New(o)
		if err != nil {
			r.log(fmt.Sprintf("reference solver %s: %v", r.spec.Ref, err))
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
			r.log(fmt.Sprintf("reference model of %s not certified: %v", s.Name, err))
			return nil, false
		}
		return m, negated
	}
	return nil, false
}

// smtSetup is everything an SMT campaign, replay or reduction needs.
type smtSetup struct {
	spec    smtSpec
	gen     *smtgen.Generator
	oracles []fuzz.Oracle
	format  smtgen.Format
	skips   []*smtgen.SkipError
	seeds   int
}

func newSMTSetup(spec smtSpec, opts smtgen.Options, oracleNames []string, log func(string)) (*smtSetup, error) {
	for _, n := range oracleNames {
		if _, ok := smtOracles[n]; !ok {
			return nil, fmt.Errorf("unknown --oracle %q (known: %s)", n, names(smtOracles))
		}
	}
	seeds, skips, err := loadSMTSeeds(spec.Seeds)
	if err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("no usable seed among %d files in %s (%s)", len(skips), seedsName(spec.Seeds), skipSummary(skips))
	}
	s := &smtSetup{spec: spec, skips: skips, seeds: len(seeds)}
	var ref smtgen.RefFunc
	if spec.Ref != "none" && spec.Ref != "" {
		ref = (&refModels{spec: spec, done: map[*smtgen.Seed]*refModel{}, log: log}).model
	}
	if s.gen, err = smtgen.New(opts, seeds, ref); err != nil {
		return nil, err
	}
	for _, n := range oracleNames {
		s.oracles = append(s.oracles, smtOracles[n]())
	}
	for _, name := range spec.Solvers {
		o, err := spec.solverOptions(name)
		if err != nil {
			return nil, err
		}
		s.format.Solvers = append(s.format.Solvers, smtgen.Solver{Name: o.Name, Cmd: shellJoin(o.Command)})
	}
	return s, nil
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
	return topReasons(n, 0)
}

// shellJoin quotes a command line for a shell.
func shellJoin(args []string) string {
	var parts []string
	for _, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+") == "" {
			parts = append(parts, a)
		} else {
			parts = append(parts, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
		}
	}
	return strings.Join(parts, " ")
}

// rebuildSMT rebuilds what produced a stored SMT finding.
func rebuildSMT(ctx context.Context, rec *campaign.Record) (*rebuilt, error) {
	opts, err := smtgen.ParseOptions(rec.Gen)
	if err != nil {
		return nil, fmt.Errorf("finding's generator options: %w", err)
	}
	spec, err := smtSpecFromOptions(rec.Options)
	if err != nil {
		return nil, err
	}
	s, err := newSMTSetup(spec, opts, []string{rec.Oracle}, func(string) {})
	var gen fuzz.Generator
	if err != nil {
		// The seeds are gone or changed: replay the stored case without regenerating it.
		if s, err = newSMTSetup(smtSpec{Solvers: spec.Solvers, Timeout: spec.Timeout, Ref: "none"}, opts, []string{rec.Oracle}, func(string) {}); err != nil {
			return nil, err
		}
	} else {
		gen = s.gen
	}
	o, err := oracleNamed(s.oracles, rec.Oracle)
	if err != nil {
		return nil, err
	}
	return &rebuilt{gen: gen, oracle: o, open: spec.openSolvers, reducer: smtgen.NewReducer(), format: s.format}, nil
}

func cmdSMT(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "selfcheck" {
		return cmdSMTSelfcheck(ctx, args[1:], stdout, stderr)
	}
	fs := newFlags("smt", smtSynopsis, stderr)
	var solvers, solverCmds listFlag
	fs.Var(&solvers, "solver", "solver to test, repeatable: "+strings.Join(smtproc.Presets(), ", ")+
		"\n      (several add the differential oracle; default z3)")
	fs.Var(&solverCmds, "solver-cmd", "another solver: a command line that reads SMT-LIB on stdin, repeatable,\n"+
		"      e.g. --solver-cmd '/opt/z3-4.13/bin/z3 -in -smt2'")
	var cf campaignFlags
	cf.register(fs, "instances", "its own solver processes")
	seedsDir := fs.String("seeds", "", "folder of .smt2 seed files, searched recursively (default: the project's own seeds)")
	ref := fs.String("ref", "z3", "reference solver whose certified models seed the pools ('none': random models only)")
	oracleList := fs.String("oracle", "sat,model,diff", "comma-separated oracles: "+names(smtOracles)+" (error is always on;\n"+
		"      diff needs two solvers)")
	timeout := fs.Duration("timeout", 10*time.Second, "per-instance timeout; an instance over it is counted as a skipped\n"+
		"      check (error: timeout), not a finding: hard instances may rightly take longer")
	depth := fs.Int("depth", smtgen.DefaultMaxDepth, "maximum Boolean depth of pool formulas (STORM's D_max)")
	asserts := fs.Int("asserts", smtgen.DefaultMaxAsserts, "maximum assertions per instance (STORM's A_max)")
	enrich := fs.Int("enrich", smtgen.DefaultEnrichment, "formula construction steps per pool (STORM's NC)")
	mutants := fs.Int("mutants", smtgen.DefaultMutants, "instances per seed pool (STORM's NM)")
	incremental := fs.Int("incremental", smtgen.DefaultIncremental, "percent of pools in incremental push/pop mode")
	tacticsPct := fs.Int("tactics", -1, "percent of instances ending in Z3's check-sat-using a STORM tactic\n"+
		"      (default: 50 when every solver is z3, else 0)")
	models := fs.String("models", smtgen.ModelsBoth, "model source: both, ref (reference solver) or random")
	conn := fs.String("connectives", smtgen.ConnRich, "construction operators: rich (and, not, or, xor, =>, ite, =) or storm (and, not)")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "polyfuzz smt: "+format+"\n", a...)
		return code
	}
	campaignSeed, err := cf.checkCommand(fs, *timeout)
	if err != nil {
		return fail(2, "%v", err)
	}
	spec := smtSpec{Solvers: solvers, Timeout: *timeout, Seeds: *seedsDir, Ref: *ref}
	for _, c := range solverCmds {
		spec.Solvers = append(spec.Solvers, "cmd:"+c)
	}
	if len(spec.Solvers) == 0 {
		spec.Solvers = []string{"z3"}
	}
	if spec.Seeds != "" {
		if abs, err := filepath.Abs(spec.Seeds); err == nil {
			spec.Seeds = abs
		}
	}
	var oracleNames []string
	for _, n := range strings.Split(*oracleList, ",") {
		n = strings.TrimSpace(n)
		if n == "" || n == "error" || (n == "diff" && len(spec.Solvers) < 2) {
			continue
		}
		oracleNames = append(oracleNames, n)
	}
	oracleNames = append(oracleNames, "error")
	opts := smtgen.Options{MaxDepth: *depth, MaxAsserts: *asserts, Enrichment: *enrich, Mutants: *mutants,
		Incremental: *incremental, Tactics: *tacticsPct, Models: *models, Connectives: *conn}
	if *incremental == 0 {
		opts.Incremental = -1
	}
	if *tacticsPct < 0 {
		opts.Tactics = -1
		if allZ3(spec.Solvers) {
			opts.Tactics = smtgen.DefaultTactics
		}
	} else if *tacticsPct == 0 {
		opts.Tactics = -1
	}
	// Fail fast on a solver that is missing or does not speak SMT-LIB.
	ts, err := spec.openSolvers(ctx)
	if err != nil {
		return fail(1, "%v", err)
	}
	versions := targetVersions(ts)
	closeAll(ts)
	if spec.Ref != "none" {
		o, err := spec.solverOptions(spec.Ref)
		if err == nil {
			var t *smtproc.Target
			if t, err = smtproc.New(o); err == nil {
				t.Close()
			}
		}
		if err != nil {
			return fail(1, "reference solver: %v (use --ref none for random models only)", err)
		}
	}
	log := func(s string) {
		if !cf.quiet {
			fmt.Fprintln(stderr, "polyfuzz smt: "+s)
		}
	}
	s, err := newSMTSetup(spec, opts, oracleNames, log)
	if err != nil {
		return fail(1, "%v", err)
	}
	store, err := campaign.NewStore(cf.out)
	if err != nil {
		return fail(1, "%v", err)
	}
	if err := writeSkips(cf.out, s.skips); err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintf(stderr, "polyfuzz smt: solvers %s, oracles %s, seed %d, out %s\n", versions,
		strings.Join(oracleNames, ","), campaignSeed, cf.out)
	fmt.Fprintf(stderr, "polyfuzz smt: %d usable seeds of %d in %s; skipped: %s\n", s.seeds, s.seeds+len(s.skips),
		seedsName(spec.Seeds), skipSummary(s.skips))
	for i, sk := range s.skips {
		if i == 5 {
			fmt.Fprintf(stderr, "  ... and %d more, listed in %s\n", len(s.skips)-5, filepath.Join(cf.out, "seeds-skipped.txt"))
			break
		}
		fmt.Fprintf(stderr, "  skipped %s\n", sk.Error())
	}
	cfg := cf.config(campaignSeed, store, smtgen.NewReducer(), stderr)
	cfg.Command, cfg.Domain, cfg.Gen, cfg.Oracles, cfg.Format = "polyfuzz smt "+strings.Join(args, " "), "smt", s.gen, s.oracles, s.format
	cfg.Options, cfg.Open = spec.options(), spec.openSolvers
	return cf.run(ctx, cfg, "smt", stdout, stderr)
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

func allZ3(solvers []string) bool {
	for _, s := range solvers {
		if s != "z3" {
			return false
		}
	}
	return true
}

// listFlag is a repeatable string flag.
type listFlag []string

// String joins the values with commas.
func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set adds one value.
func (l *listFlag) Set(v string) error {
	if v == "" {
		return errors.New("empty value")
	}
	*l = append(*l, v)
	return nil
}

const selfcheckSynopsis = `usage: polyfuzz smt selfcheck [flags]

Generates random ground terms of every theory (or of --theory), evaluates each with polyfuzz's own
evaluator and asks every --solver for its value with get-value, and prints the counts of agreement
and the disagreements. Exits 1 when a solver and the evaluator disagree.`

func cmdSMTSelfcheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("smt selfcheck", selfcheckSynopsis, stderr)
	var solvers listFlag
	fs.Var(&solvers, "solver", "solver to compare with, repeatable: "+strings.Join(smtproc.Presets(), ", ")+" (default z3 and cvc5)")
	theory := fs.String("theory", "", "one theory of "+strings.Join(smtgen.Theories, ", ")+" (default: all)")
	n := fs.Int("terms", 10000, "random ground terms per theory and solver")
	seed := fs.Int64("seed", 1, "random seed of the terms")
	timeout := fs.Duration("timeout", time.Minute, "time limit for one batch of terms on a solver")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "polyfuzz smt selfcheck: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if len(solvers) == 0 {
		solvers = []string{"z3", "cvc5"}
	}
	theories := smtgen.Theories
	if *theory != "" {
		theories = []string{*theory}
	}
	spec := smtSpec{Solvers: solvers, Timeout: *timeout}
	code := 0
	for _, name := range spec.Solvers {
		o, err := spec.solverOptions(name)
		if err == nil {
			var t *smtproc.Target // start one to check the binary and learn its version
			if t, err = smtproc.New(o); err == nil {
				o.Name += " " + t.Version()
				t.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "polyfuzz smt selfcheck: %v\n", err)
			return 1
		}
		// The solver reads each batch as a whole script in a process of its own, which keeps the
		// answers to the get-values after an error in place.
		ask := func(ctx context.Context, script string) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, *timeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, o.Command[0], o.Command[1:]...)
			cmd.Stdin = strings.NewReader(script)
			out, err := cmd.Output()
			if ctx.Err() != nil {
				return "", fmt.Errorf("%s ran over %s on a batch of terms", o.Name, *timeout)
			}
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				return "", err
			}
			return string(out), nil // cvc5 exits non-zero after an error; its output still counts
		}
		for _, th := range theories {
			rep, err := smtgen.SelfCheck(ctx, th, *n, *seed, ask)
			if err != nil {
				fmt.Fprintf(stderr, "polyfuzz smt selfcheck: %s %s: %v\n", o.Name, th, err)
				return 1
			}
			fmt.Fprintf(stdout, "%s: %s\n", o.Name, rep)
			if rep.Disagreed > 0 {
				code = 1
			}
		}
	}
	return code
}
