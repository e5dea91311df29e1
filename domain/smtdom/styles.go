package smtdom

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/smtgen"
)

// style is one SMT generator style: its name and summary, its default options' text, the flags it
// owns, how its flags set its options, and how it builds its generator from options' text.
type style struct {
	domain.Style
	Default func() string
	// Own lists the flags only this style takes; giving one with another style is an error.
	Own []string
	// Apply returns the options' text of gen (default options when empty) with the flags set
	// applied (every flag when all).
	Apply func(gen string, f *styleFlags, set func(string) bool, all bool, s *domain.Settings) (string, error)
	New   func(gen string, seeds []*smtgen.Seed, ref smtgen.RefFunc, s *domain.Settings) (fuzz.Generator, error)
}

// styles are the SMT generator styles, the default first: adding a style is a row here.
var styles = []style{
	{Style: domain.Style{Name: "storm", Summary: "STORM: recombined seed fragments, sat (or unsat) by construction"},
		Default: func() string { return smtgen.Options{}.String() },
		Own:     []string{"depth", "enrich", "incremental", "tactics", "connectives"},
		Apply:   applyStorm,
		New: func(gen string, seeds []*smtgen.Seed, ref smtgen.RefFunc, _ *domain.Settings) (fuzz.Generator, error) {
			o, err := domain.GenOptions(gen, smtgen.Options{}, smtgen.ParseOptions)
			if err != nil {
				return nil, err
			}
			return smtgen.New(o, seeds, ref)
		}},
	{Style: domain.Style{Name: "fusion", Summary: "semantic fusion: two STORM formulas of known status fused by fusion and inversion functions"},
		Default: func() string { return smtgen.DefaultFusionOptions().String() },
		Own:     []string{"pairs", "fusion-funcs"},
		Apply:   applyFusion,
		New: func(gen string, seeds []*smtgen.Seed, ref smtgen.RefFunc, _ *domain.Settings) (fuzz.Generator, error) {
			o, err := domain.GenOptions(gen, smtgen.DefaultFusionOptions(), smtgen.ParseFusionOptions)
			if err != nil {
				return nil, err
			}
			return smtgen.NewFusion(o, seeds, ref)
		}},
	mutationStyle(smtgen.StyleOpFuzz, "yinyang's opfuzz: operators replaced by others of their class, differential"),
	mutationStyle(smtgen.StyleTypeFuzz, "yinyang's typefuzz: subterms replaced by new well-sorted applications, differential"),
	{Style: domain.Style{Name: smtgen.StyleOptions, Summary: "option fuzzing: STORM instances under random solver options, against the defaults",
		Oracles: []string{smtgen.OracleSat, smtgen.OracleModel, smtgen.OracleOptions, "diff"}},
		Default: func() string { return smtgen.OptionOptions{}.String() },
		Own:     []string{"settings", "depth", "enrich", "incremental", "tactics", "connectives"},
		Apply:   applyOptions,
		New: func(gen string, seeds []*smtgen.Seed, ref smtgen.RefFunc, s *domain.Settings) (fuzz.Generator, error) {
			o, err := domain.GenOptions(gen, smtgen.OptionOptions{}, smtgen.ParseOptionOptions)
			if err != nil {
				return nil, err
			}
			defaults, err := optionDefaults(s, o.Solver)
			if err != nil {
				return nil, err
			}
			return smtgen.NewOptionFuzzer(o, seeds, ref, defaults)
		}},
}

// stylesHelp is the --help text of the mutation and option styles.
const stylesHelp = `

opfuzz (yinyang, OOPSLA'20) mutates the seeds themselves, replacing operators by others of their
class where sorts and arity allow (= distinct; and or => xor; < <= > >=; + - * /; div mod; the
bit-vector, string and regex classes); typefuzz (OOPSLA'21) replaces a random subterm by a new
application of an operator of the same sort whose arguments are the seed's own subterms or fresh
literals. A mutant's answer is unknown: give two or more --solver flags (diff compares them);
every sat model is still validated (model), and crashes and errors are findings. --mutations N
bounds the mutations per mutant, --mutants the mutants per seed (default 300). options prepends 1
to --settings random (set-option ...) commands from the first solver's option model (z3, cvc5,
bitwuzla) to STORM instances and solves each instance a second time with every option at its
default: the options oracle compares the two answers; the sat and model oracles check the
instance as for storm.`

// mutationStyle is the row of a yinyang mutation style (opfuzz, typefuzz): its answers are
// unknown, so its default oracles are the model validation and the differential.
func mutationStyle(name, summary string) style {
	parse := func(t string) (smtgen.MutationOptions, error) { return smtgen.ParseMutationOptions(name, t) }
	return style{Style: domain.Style{Name: name, Summary: summary, Oracles: []string{smtgen.OracleModel, "diff"}},
		Default: func() string { return smtgen.DefaultMutationOptions(name).String() },
		Own:     []string{"mutations"},
		Apply: func(gen string, f *styleFlags, set func(string) bool, all bool, _ *domain.Settings) (string, error) {
			o, err := domain.GenOptions(gen, smtgen.DefaultMutationOptions(name), parse)
			if err != nil {
				return "", err
			}
			if set("mutations") {
				o.Mutations = *f.mutations
			}
			if set("mutants") {
				o.Mutants = *f.mutants
			}
			n, err := parse(o.String()) // refuse a bad --mutations or --mutants like bad --gen keys
			if err != nil {
				return "", err
			}
			return n.String(), nil
		},
		New: func(gen string, seeds []*smtgen.Seed, _ smtgen.RefFunc, _ *domain.Settings) (fuzz.Generator, error) {
			o, err := domain.GenOptions(gen, smtgen.DefaultMutationOptions(name), parse)
			if err != nil {
				return nil, err
			}
			return smtgen.NewMutator(o, seeds)
		}}
}

// domainStyles lists the styles for the Domain.
func domainStyles() []domain.Style {
	out := make([]domain.Style, len(styles))
	for i, s := range styles {
		out[i] = s.Style
	}
	return out
}

// genDefaults prints every style's default options for --gen's help.
func genDefaults() string {
	var out []string
	for _, s := range styles {
		out = append(out, s.Default())
	}
	return strings.Join(out, "' or '")
}

// styleOf returns the style of settings: the one the options' text names, else --style, else
// the default. Options and --style that disagree are an error.
func styleOf(gen, name string) (style, error) {
	if n, _, ok := strings.Cut(gen, "{"); ok {
		if name != "" && name != n {
			return style{}, fmt.Errorf("--gen gives %s options but --style is %s; leave one of them out", n, name)
		}
		name = n
	}
	if name == "" {
		return styles[0], nil
	}
	for _, s := range styles {
		if s.Name == name {
			return s, nil
		}
	}
	var names []string
	for _, s := range styles {
		names = append(names, s.Name+"{")
	}
	return style{}, fmt.Errorf("unknown generator options %q; they start with %s", gen, strings.Join(names, " or "))
}

// styleFlags are the generator flags of every style.
type styleFlags struct {
	depth, asserts, enrich, mutants, incremental, tactics, unsat, pairs, mutations, settings *int
	models, conn, funcs                                                                      *string
}

// register adds the generator flags to fs.
func (f *styleFlags) register(fs *flag.FlagSet) {
	f.depth = fs.Int("depth", smtgen.DefaultMaxDepth, "storm: maximum Boolean depth of pool formulas (STORM's D_max)")
	f.asserts = fs.Int("asserts", smtgen.DefaultMaxAsserts, "maximum assertions per instance (STORM's A_max; fusion: per input formula, default 16)")
	f.enrich = fs.Int("enrich", smtgen.DefaultEnrichment, "storm: formula construction steps per pool (STORM's NC)")
	f.mutants = fs.Int("mutants", smtgen.DefaultMutants, "instances per seed pool (STORM's NM; fusion: per pool pair, default 100)")
	f.incremental = fs.Int("incremental", smtgen.DefaultIncremental, "storm: percent of pools in incremental push/pop mode")
	f.tactics = fs.Int("tactics", -1, "storm: percent of instances ending in Z3's check-sat-using a STORM tactic\n"+
		"      (default: 50 when every solver is z3, else 0)")
	f.unsat = fs.Int("unsat", -1, "percent of instances unsatisfiable by construction: storm pins a plain pool's\n"+
		"      instance to its model and asserts a false fragment (default 10); fusion: UNSAT fusions (default 50)")
	f.models = fs.String("models", smtgen.ModelsBoth, "model source: both, ref (reference solver) or random")
	f.conn = fs.String("connectives", smtgen.ConnRich, "storm: construction operators: rich (and, not, or, xor, =>, ite, =) or storm (and, not)")
	f.pairs = fs.Int("pairs", smtgen.DefaultFusionPairs, "fusion: variable pairs fused per instance")
	f.funcs = fs.String("fusion-funcs", strings.Join(smtgen.FusionFuncNames, ","), "fusion: fusion functions, comma-separated")
	f.mutations = fs.Int("mutations", smtgen.DefaultMutations, "opfuzz, typefuzz: at most this many mutations per mutant")
	f.settings = fs.Int("settings", smtgen.DefaultSettings, "options: at most this many random solver options per instance")
}

// DefaultStormUnsat is --unsat's default for the storm style.
const DefaultStormUnsat = 10

// applyStorm sets STORM's options from the flags.
func applyStorm(gen string, f *styleFlags, set func(string) bool, all bool, s *domain.Settings) (string, error) {
	o, err := domain.GenOptions(gen, smtgen.Options{}, smtgen.ParseOptions)
	if err != nil {
		return "", err
	}
	for _, fl := range []struct {
		name string
		v    int
		p    *int
	}{{"depth", *f.depth, &o.MaxDepth}, {"asserts", *f.asserts, &o.MaxAsserts}, {"enrich", *f.enrich, &o.Enrichment},
		{"mutants", *f.mutants, &o.Mutants}} {
		if all || set(fl.name) {
			*fl.p = fl.v
		}
	}
	pct := func(v int) int {
		if v == 0 {
			return -1
		}
		return v
	}
	if all || set("incremental") {
		o.Incremental = pct(*f.incremental)
	}
	if all || set("tactics") {
		o.Tactics = pct(*f.tactics)
		if *f.tactics < 0 {
			o.Tactics = -1
			if allZ3(s.Engines) {
				o.Tactics = smtgen.DefaultTactics
			}
		}
	}
	if all || set("unsat") {
		o.Unsat = pct(*f.unsat)
		if *f.unsat < 0 {
			o.Unsat = DefaultStormUnsat
		}
	}
	if all || set("models") {
		o.Models = *f.models
	}
	if all || set("connectives") {
		o.Connectives = *f.conn
	}
	return o.String(), nil
}

// applyFusion sets the fusion options from the flags; --asserts and --mutants keep the fusion
// defaults unless given.
func applyFusion(gen string, f *styleFlags, set func(string) bool, all bool, _ *domain.Settings) (string, error) {
	o, err := domain.GenOptions(gen, smtgen.DefaultFusionOptions(), smtgen.ParseFusionOptions)
	if err != nil {
		return "", err
	}
	for _, fl := range []struct {
		name string
		v    int
		p    *int
	}{{"asserts", *f.asserts, &o.Asserts}, {"mutants", *f.mutants, &o.Mutants}, {"pairs", *f.pairs, &o.Pairs}} {
		if set(fl.name) {
			*fl.p = fl.v
		}
	}
	if set("unsat") {
		o.Unsat = *f.unsat
		if o.Unsat <= 0 {
			o.Unsat = -1
		}
	}
	if all || set("models") {
		o.Models = *f.models
	}
	if set("fusion-funcs") {
		o.Funcs = strings.Split(*f.funcs, ",")
	}
	// Read the result back: a bad --fusion-funcs or --pairs is refused like bad --gen keys.
	n, err := smtgen.ParseFusionOptions(o.String())
	if err != nil {
		return "", err
	}
	return n.String(), nil
}

// applyOptions sets an options campaign's options: STORM's from the flags, the option model of
// the first solver (unless the stored options name one) and --settings.
func applyOptions(gen string, f *styleFlags, set func(string) bool, all bool, s *domain.Settings) (string, error) {
	o, err := domain.GenOptions(gen, smtgen.OptionOptions{}, smtgen.ParseOptionOptions)
	if err != nil {
		return "", err
	}
	stormGen := ""
	if gen != "" {
		stormGen = o.Storm.String()
	}
	st, err := applyStorm(stormGen, f, set, all, s)
	if err != nil {
		return "", err
	}
	if o.Storm, err = smtgen.ParseOptions(st); err != nil {
		return "", err
	}
	if gen == "" {
		engine := "z3"
		if len(s.Engines) > 0 {
			engine = s.Engines[0].Engine
		}
		if _, ok := smtgen.OptionModels[engine]; !ok {
			return "", fmt.Errorf("--style options: the first solver %s has no option model; put one of %s first",
				engine, strings.Join(smtgen.OptionModelNames(), ", "))
		}
		o.Solver = engine
	}
	if all || set("settings") {
		o.Settings = *f.settings
	}
	n, err := smtgen.ParseOptionOptions(o.String())
	if err != nil {
		return "", err
	}
	return n.String(), nil
}

// optionDefaults asks the first solver (without its fault) for the default of each option of
// the model: an option it does not know is left out.
func optionDefaults(s *domain.Settings, model string) (map[string]string, error) {
	sp := domain.Spec{Engine: model, Timeout: specTimeout(s)}
	if len(s.Engines) > 0 {
		sp = s.Engines[0]
		sp.Fault = ""
	}
	t, err := openSolver(context.Background(), sp)
	if err != nil {
		return nil, fmt.Errorf("--style options: %v", err)
	}
	defer t.Close()
	out := map[string]string{}
	for _, opt := range smtgen.OptionModels[model] {
		r, err := t.Exec(context.Background(), "(get-option :"+opt.Name+")")
		if err != nil {
			return nil, fmt.Errorf("--style options: %v", err)
		}
		if len(r.Rows) == 0 && opt.Default != "" { // no get-option (Bitwuzla's bridge)
			out[opt.Name] = opt.Default
			continue
		}
		if r.Failed() || len(r.Rows) != 1 || len(r.Rows[0]) != 1 {
			continue
		}
		v := r.Rows[0][0]
		if v == "unsupported" || strings.HasPrefix(v, "(error") {
			continue
		}
		out[opt.Name] = v
	}
	return out, nil
}
