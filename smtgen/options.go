package smtgen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
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
}

// tactics are STORM's check-sat-using variants for Z3.
var tactics = []string{"horn", "(then horn-simplify default)", "dom-simplify", "(then dom-simplify smt)"}

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
	n.Incremental = def(o.Incremental, DefaultIncremental) // negative: none (kept, so normalizing twice is stable)
	n.Tactics = o.Tactics
	if n.Models == "" {
		n.Models = ModelsBoth
	}
	if n.Connectives == "" {
		n.Connectives = ConnRich
	}
	return n
}

func (o Options) validate() error {
	switch o.Models {
	case ModelsBoth, ModelsRef, ModelsRandom:
	default:
		return fmt.Errorf("smtgen: unknown model source %q (valid: both, ref, random)", o.Models)
	}
	switch o.Connectives {
	case ConnStorm, ConnRich:
	default:
		return fmt.Errorf("smtgen: unknown connectives %q (valid: rich, storm)", o.Connectives)
	}
	for _, b := range []struct {
		name   string
		v, max int
	}{{"depth", o.MaxDepth, 1000}, {"asserts", o.MaxAsserts, 10000}, {"enrich", o.Enrichment, 1000000},
		{"mutants", o.Mutants, 1 << fuzz.SetupBits}, {"incremental", o.Incremental, 100}, {"tactics", o.Tactics, 100}} {
		pct := b.name == "incremental" || b.name == "tactics"
		if (b.v < 0 && !pct) || b.v > b.max || (b.v == 0 && !pct) {
			return fmt.Errorf("smtgen: %s=%d out of range [1, %d]", b.name, b.v, b.max)
		}
	}
	return nil
}

// String returns the options in canonical one-line form with defaults applied, e.g.
// "storm{depth=64 asserts=64 enrich=1000 mutants=1000 incremental=50 tactics=0 models=both
// connectives=rich}". [ParseOptions] reads it back.
func (o Options) String() string {
	n := o.normalized()
	var b strings.Builder
	b.WriteString("storm{")
	for i, f := range n.intFields() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.key + "=" + strconv.Itoa(max(*f.p, 0)))
	}
	b.WriteString(" models=" + n.Models + " connectives=" + n.Connectives + "}")
	return b.String()
}

type optField struct {
	key string
	p   *int
}

func (o *Options) intFields() []optField {
	return []optField{{"depth", &o.MaxDepth}, {"asserts", &o.MaxAsserts}, {"enrich", &o.Enrichment},
		{"mutants", &o.Mutants}, {"incremental", &o.Incremental}, {"tactics", &o.Tactics}}
}

// ParseOptions reads options in the form [Options.String] writes; keys may be left out.
func ParseOptions(s string) (Options, error) {
	var o Options
	body, ok := strings.CutPrefix(strings.TrimSpace(s), "storm{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return o, fmt.Errorf("smtgen: options %q: want storm{key=value ...}", s)
	}
	seen := map[string]bool{}
	for _, kv := range strings.Fields(body) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || seen[k] {
			return o, fmt.Errorf("smtgen: options: bad or repeated %q", kv)
		}
		seen[k] = true
		switch k {
		case "models":
			o.Models = v
			continue
		case "connectives":
			o.Connectives = v
			continue
		}
		found := false
		for _, f := range o.intFields() {
			if f.key == k {
				n, err := strconv.Atoi(v)
				if err != nil {
					return o, fmt.Errorf("smtgen: options: %s: %w", kv, err)
				}
				if n == 0 && (k == "incremental" || k == "tactics") {
					n = -1 // stored zero means none
				}
				*f.p, found = n, true
			}
		}
		if !found {
			return o, fmt.Errorf("smtgen: options: unknown key %q", k)
		}
	}
	return o, o.normalized().validate()
}
