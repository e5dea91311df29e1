package smtgen

import (
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/genopts"
)

// Defaults of [Options], STORM's published evaluation parameters (thesis §2.10: D_max = A_max = 64,
// NC and NM about 1000, 30/70 initial/constructed, 50/50 AND/NOT, incremental for half the seeds).
const (
	DefaultMaxDepth    = 64
	DefaultMaxAsserts  = 64
	DefaultEnrichment  = 1000
	DefaultMutants     = 1000
	DefaultIncremental = 50 // percent of seed pools in push/pop mode
	DefaultTactics     = 50 // percent of mutants that end in check-sat-using, when tactics are on
)

// Model sources of [Options.Models].
const (
	ModelsBoth   = "both"   // the seed's certified reference model for half the pools, a random one for the rest
	ModelsRef    = "ref"    // the certified reference model (a random one when a seed has none)
	ModelsRandom = "random" // polyfuzz's own random assignment
)

// Connective sets of [Options.Connectives].
const (
	ConnStorm = "storm" // AND and NOT, as STORM
	ConnRich  = "rich"  // AND, NOT, OR, XOR, =>, ITE and Boolean =
)

// The valid values of Options.Models and Options.Connectives.
var (
	modelChoices = []string{ModelsBoth, ModelsRef, ModelsRandom}
	connChoices  = []string{ConnRich, ConnStorm}
)

// Options configure the STORM [Generator]. A zero field takes its default.
type Options struct {
	// MaxDepth bounds the Boolean nesting of pool formulas (D_max, default 64).
	MaxDepth int
	// MaxAsserts bounds the assertions of an instance (A_max, default 64).
	MaxAsserts int
	// Enrichment is the number of construction steps per pool (NC, default 1000).
	Enrichment int
	// Mutants is how many consecutive cases draw from one pool (NM, default 1000, at most 65536).
	Mutants int
	// Incremental is the percentage of pools whose instances use push/pop and several check-sat
	// (default 50; negative: none).
	Incremental int
	// Tactics is the percentage of non-incremental mutants that end in Z3's check-sat-using with one
	// of STORM's tactics (negative: none, the default unless set: only Z3 knows them).
	Tactics int
	// Models selects the model source: "both" (default), "ref" or "random".
	Models string
	// Connectives selects the construction operators: "rich" (default) or "storm".
	Connectives string
	// Unsat is the percentage of instances of non-incremental pools made unsatisfiable by
	// construction (see unsat.go; negative: none, the default unless set, so that options stored
	// before it existed regenerate the same cases).
	Unsat int
}

// tactics are STORM's check-sat-using variants for Z3.
var tactics = []string{"horn", "(then horn-simplify default)", "dom-simplify", "(then dom-simplify smt)"}

// DefaultOptions returns the options a zero Options stands for, every default spelled out
// (Tactics: none). [ParseOptions] starts from them.
func DefaultOptions() Options { return Options{}.normalized() }

// normalized returns o with its zero fields set to their defaults; Tactics, whose default is
// none, becomes -1. Negative percentages stay (none), so normalizing twice changes nothing.
func (o Options) normalized() Options {
	def := func(v, d int) int {
		if v == 0 {
			return d
		}
		return v
	}
	n := o
	n.MaxDepth = def(o.MaxDepth, DefaultMaxDepth)
	n.MaxAsserts = def(o.MaxAsserts, DefaultMaxAsserts)
	n.Enrichment = def(o.Enrichment, DefaultEnrichment)
	n.Mutants = def(o.Mutants, DefaultMutants)
	n.Incremental = def(o.Incremental, DefaultIncremental)
	n.Tactics = def(o.Tactics, -1)
	n.Unsat = def(o.Unsat, -1)
	if n.Models == "" {
		n.Models = ModelsBoth
	}
	if n.Connectives == "" {
		n.Connectives = ConnRich
	}
	return n
}

// form describes the fields of normalized options for genopts, which prints, parses and checks
// them.
func (o *Options) form() genopts.Form {
	return genopts.Form{Prefix: "smtgen: options", Name: "storm", Fields: []genopts.Field{
		genopts.Int("depth", &o.MaxDepth, 1, 1000),
		genopts.Int("asserts", &o.MaxAsserts, 1, 10000),
		genopts.Int("enrich", &o.Enrichment, 1, 1000000),
		genopts.Int("mutants", &o.Mutants, 1, 1<<fuzz.SetupBits),
		genopts.IntOrNone("incremental", &o.Incremental, 100),
		genopts.IntOrNone("tactics", &o.Tactics, 100),
		genopts.Choice("models", "model source", &o.Models, modelChoices),
		genopts.Choice("connectives", "connectives", &o.Connectives, connChoices),
		genopts.IntOrNone("unsat", &o.Unsat, 100),
	}}
}

// validate reports the first option, defaults applied, that is out of its bounds or not among
// the choices.
func (o Options) validate() error {
	n := o.normalized()
	return n.form().Check()
}

// String returns the options in canonical one-line form with defaults applied, e.g.
// "storm{depth=64 asserts=64 enrich=1000 mutants=1000 incremental=50 tactics=0 models=both
// connectives=rich}". [ParseOptions] reads it back.
// The unsat key is printed only when set, so that options written before it existed keep their
// text.
func (o Options) String() string {
	n := o.normalized()
	f := n.form()
	if n.Unsat < 0 {
		f.Fields = f.Fields[:len(f.Fields)-1]
	}
	return f.String()
}

// ParseOptions reads options in the form [Options.String] writes. Keys may be left out (they take
// their defaults) but not repeated or unknown; a percentage written 0 is none (-1). The result
// has every default spelled out.
func ParseOptions(s string) (Options, error) {
	return genopts.Parse(s, DefaultOptions(), (*Options).form)
}
