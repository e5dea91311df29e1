package smtdom

import (
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
	New   func(gen string, seeds []*smtgen.Seed, ref smtgen.RefFunc) (fuzz.Generator, error)
}

// styles are the SMT generator styles, the default first: adding a style is a row here.
var styles = []style{
	{Style: domain.Style{Name: "storm", Summary: "STORM: recombined seed fragments, sat (or unsat) by construction"},
		Default: func() string { return smtgen.Options{}.String() },
		Own:     []string{"depth", "enrich", "incremental", "tactics", "connectives"},
		Apply:   applyStorm,
		New: func(gen string, seeds []*smtgen.Seed, ref smtgen.RefFunc) (fuzz.Generator, error) {
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
		New: func(gen string, seeds []*smtgen.Seed, ref smtgen.RefFunc) (fuzz.Generator, error) {
			o, err := domain.GenOptions(gen, smtgen.DefaultFusionOptions(), smtgen.ParseFusionOptions)
			if err != nil {
				return nil, err
			}
			return smtgen.NewFusion(o, seeds, ref)
		}},
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
	depth, asserts, enrich, mutants, incremental, tactics, unsat, pairs *int
	models, conn, funcs                                                 *string
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
