package smtdom

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/smtgen"
)

// styleStorm is the default generator style.
const styleStorm = "storm"

// styles are the SMT generator styles, the first the default.
var styles = []domain.Style{
	{Name: styleStorm, Summary: "STORM: satisfiable-by-construction recombinations of seed fragments"},
	{Name: smtgen.StyleOpFuzz, Summary: "yinyang's opfuzz: operators replaced by others of their class, differential"},
	{Name: smtgen.StyleTypeFuzz, Summary: "yinyang's typefuzz: subterms replaced by new well-sorted applications, differential"},
	{Name: smtgen.StyleOptions, Summary: "option fuzzing: STORM instances under random solver options, against the defaults"},
}

const stylesHelp = `

Styles (--style): storm (the default) as above. opfuzz (yinyang, OOPSLA'20) mutates the seeds
themselves, replacing operators by others of their class where sorts and arity allow (= distinct;
and or => xor; < <= > >=; + - * /; div mod; the bit-vector, string and regex classes);
typefuzz (OOPSLA'21) replaces a random subterm by a new application of an operator of the same
sort whose arguments are the seed's own subterms or fresh literals. A mutant's answer is unknown:
give two or more --solver flags (diff compares them); every sat model is still validated (model),
and crashes and errors are findings. --mutations N bounds the mutations per mutant, --mutants the
mutants per seed (default 300). options prepends 1 to --settings random (set-option ...) commands
from the first solver's option model (z3, cvc5, bitwuzla) to STORM instances and solves each
instance a second time with every option at its default: the options oracle compares the two
answers; the sat and model oracles check the instance as for storm.`

// styleOf returns the campaign's style: --style, or the name of the stored options.
func styleOf(s *domain.Settings) (string, error) {
	style := s.Style
	if name, _, ok := strings.Cut(s.Gen, "{"); ok {
		if style != "" && style != name {
			return "", fmt.Errorf("--gen gives %s options but --style is %s; leave one of them out", name, style)
		}
		style = name
	}
	if style == "" {
		style = styleStorm
	}
	return style, nil
}

// mutationGen applies --mutations and --mutants to the mutation style's options.
func mutationGen(s *domain.Settings, style string, set map[string]bool, mutations, mutants int) error {
	o, err := domain.GenOptions(s.Gen, smtgen.DefaultMutationOptions(style), func(t string) (smtgen.MutationOptions, error) {
		return smtgen.ParseMutationOptions(style, t)
	})
	if err != nil {
		return err
	}
	if set["mutations"] {
		o.Mutations = mutations
	}
	if set["mutants"] {
		o.Mutants = mutants
	}
	s.Gen = o.String()
	_, err = smtgen.ParseMutationOptions(style, s.Gen)
	return err
}

// stormOptions returns the STORM options of a storm or options campaign.
func stormOptions(s *domain.Settings, style string) (smtgen.Options, error) {
	if style != smtgen.StyleOptions {
		return domain.GenOptions(s.Gen, smtgen.Options{}, smtgen.ParseOptions)
	}
	o, err := domain.GenOptions(s.Gen, smtgen.OptionOptions{}, smtgen.ParseOptionOptions)
	return o.Storm, err
}

// optionsGen wraps the STORM options of an options campaign: the option model is the first
// solver's, unless the stored options name one.
func optionsGen(s *domain.Settings, storm smtgen.Options, set map[string]bool, settings int) error {
	o, err := domain.GenOptions(s.Gen, smtgen.OptionOptions{}, smtgen.ParseOptionOptions)
	if err != nil {
		return err
	}
	if s.Gen == "" {
		engine := "z3"
		if len(s.Engines) > 0 {
			engine = s.Engines[0].Engine
		}
		if _, ok := smtgen.OptionModels[engine]; !ok {
			return fmt.Errorf("--style options: the first solver %s has no option model; put one of %s first",
				engine, strings.Join(smtgen.OptionModelNames(), ", "))
		}
		o.Solver = engine
	}
	if s.Gen == "" || set["settings"] {
		o.Settings = settings
	}
	o.Storm = storm
	s.Gen = o.String()
	_, err = smtgen.ParseOptionOptions(s.Gen)
	return err
}

// styleGenerator returns the generator of the campaign's style.
func styleGenerator(s *domain.Settings, seeds []*smtgen.Seed, ref smtgen.RefFunc) (fuzz.Generator, error) {
	style, err := styleOf(s)
	if err != nil {
		return nil, err
	}
	switch style {
	case styleStorm:
		opts, err := domain.GenOptions(s.Gen, smtgen.Options{}, smtgen.ParseOptions)
		if err != nil {
			return nil, err
		}
		return smtgen.New(opts, seeds, ref)
	case smtgen.StyleOpFuzz, smtgen.StyleTypeFuzz:
		o, err := domain.GenOptions(s.Gen, smtgen.DefaultMutationOptions(style), func(t string) (smtgen.MutationOptions, error) {
			return smtgen.ParseMutationOptions(style, t)
		})
		if err != nil {
			return nil, err
		}
		return smtgen.NewMutator(o, seeds)
	case smtgen.StyleOptions:
		o, err := domain.GenOptions(s.Gen, smtgen.OptionOptions{}, smtgen.ParseOptionOptions)
		if err != nil {
			return nil, err
		}
		defaults, err := optionDefaults(s, o.Solver)
		if err != nil {
			return nil, err
		}
		return smtgen.NewOptionFuzzer(o, seeds, ref, defaults)
	}
	return nil, fmt.Errorf("unknown generator options %q; they start with storm{, opfuzz{, typefuzz{ or options{", s.Gen)
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

// withOptionsOracle adds the options oracle to an options campaign's oracles (and its name to
// the settings', which the banner and stored findings show).
func withOptionsOracle(s *domain.Settings, os []fuzz.Oracle) []fuzz.Oracle {
	if style, _ := styleOf(s); style != smtgen.StyleOptions {
		return os
	}
	for _, o := range os {
		if o.Name() == smtgen.OracleOptions {
			return os
		}
	}
	if !slices.Contains(s.Oracles, smtgen.OracleOptions) {
		s.Oracles = append(s.Oracles, smtgen.OracleOptions)
	}
	return append(os, smtgen.OptionsOracle{})
}
