package smtgen

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/genopts"
)

// StyleOptions is the option-fuzzing style: STORM instances solved under random solver options.
const StyleOptions = "options"

// SolverOption is one option of a solver's option model: its SMT-LIB name (without the colon)
// and the values it may take, and its documented default for a solver that does not answer
// get-option (Bitwuzla's bridge).
type SolverOption struct {
	Name    string
	Values  []string
	Default string
}

// OptionModels are the option models of the solvers, keyed by engine name: options that change
// how a solver searches, rewrites and preprocesses, never what an answer or a model means (no
// incomplete-by-design settings such as z3's smt.arith.solver 0, no division-by-zero semantics).
// Values come from each solver's documented options (z3 -p, cvc5 --help, bitwuzla's option list).
// An option the running solver does not know (get-option fails) is left out.
var OptionModels = map[string][]SolverOption{
	"z3": {
		{"smt.arith.solver", []string{"2", "6"}, ""},
		{"smt.relevancy", []string{"0", "1", "2"}, ""},
		{"smt.phase_selection", []string{"0", "1", "2", "3", "4", "5"}, ""},
		{"smt.restart_strategy", []string{"0", "1", "2", "3", "4"}, ""},
		{"smt.random_seed", []string{"0", "1", "7", "42", "1000"}, ""},
		{"sat.random_seed", []string{"0", "3", "99"}, ""},
		{"smt.arith.random_initial_value", []string{"true", "false"}, ""},
		{"smt.arith.eager_eq_axioms", []string{"true", "false"}, ""},
		{"smt.arith.propagation_mode", []string{"0", "1", "2"}, ""},
		{"smt.bv.eq_axioms", []string{"true", "false"}, ""},
		{"sat.euf", []string{"true", "false"}, ""},
		{"rewriter.flat", []string{"true", "false"}, ""},
		{"rewriter.som", []string{"true", "false"}, ""},
		{"rewriter.hoist_mul", []string{"true", "false"}, ""},
		{"rewriter.arith_lhs", []string{"true", "false"}, ""},
		{"rewriter.push_ite_arith", []string{"true", "false"}, ""},
		{"rewriter.pull_cheap_ite", []string{"true", "false"}, ""},
		{"rewriter.elim_and", []string{"true", "false"}, ""},
		{"rewriter.blast_distinct", []string{"true", "false"}, ""},
		{"rewriter.expand_select_store", []string{"true", "false"}, ""},
		{"rewriter.sort_sums", []string{"true", "false"}, ""},
		{"rewriter.bv_sort_ac", []string{"true", "false"}, ""},
		{"rewriter.mul2concat", []string{"true", "false"}, ""},
		{"rewriter.ite_extra_rules", []string{"true", "false"}, ""},
	},
	"cvc5": {
		{"simplification", []string{"none", "batch"}, ""},
		{"decision", []string{"internal", "justification", "stoponly"}, ""},
		{"nl-ext", []string{"none", "light", "full"}, ""},
		{"nl-ext-tplanes", []string{"true", "false"}, ""},
		{"arith-rewrite-equalities", []string{"true", "false"}, ""},
		{"arith-brab", []string{"true", "false"}, ""},
		{"ite-simp", []string{"true", "false"}, ""},
		{"repeat-simp", []string{"true", "false"}, ""},
		{"learned-rewrite", []string{"true", "false"}, ""},
		{"ext-rew-prep", []string{"off", "use", "agg"}, ""},
		{"pb-rewrites", []string{"true", "false"}, ""},
		{"strings-eager-eval", []string{"true", "false"}, ""},
		{"sat-random-seed", []string{"0", "5", "77"}, ""},
		{"seed", []string{"0", "3", "1234"}, ""},
	},
	"bitwuzla": { // defaults of Bitwuzla 0.10's Options
		{"rewrite-level", []string{"0", "1", "2"}, "2"},
		{"bv-solver", []string{"bitblast", "preprop"}, "bitblast"},
		{"abstraction", []string{"true", "false"}, "true"},
		{"abstraction-bvadd", []string{"true", "false"}, "false"},
		{"pp-elim-bvudiv", []string{"true", "false"}, "false"},
		{"pp-embedded", []string{"true", "false"}, "true"},
		{"pp-flatten-and", []string{"true", "false"}, "true"},
		{"pp-normalize", []string{"true", "false"}, "true"},
		{"pp-skeleton-preproc", []string{"true", "false"}, "true"},
		{"pp-variable-subst", []string{"true", "false"}, "true"},
		{"pp-variable-subst-norm-eq", []string{"true", "false"}, "true"},
		{"pp-variable-subst-norm-diseq", []string{"true", "false"}, "false"},
		{"pp-variable-subst-norm-bv-ineq", []string{"true", "false"}, "false"},
		{"seed", []string{"1", "11", "4242"}, "27644437"},
	},
}

// OptionModelNames lists the solvers that have an option model, sorted.
func OptionModelNames() []string { return slices.Sorted(maps.Keys(OptionModels)) }

// OptionLayout holds the query an option-fuzzing case adds: the instance again, every option of
// the model at its default, after a reset ("smtopt.default").
var OptionLayout = fuzz.NewLayout("smtopt", "default")

// RoleDefault is the role of that query.
var RoleDefault = OptionLayout.Role("default")

// Params keys of an option-fuzzing case.
const (
	ParamOptions        = "options"         // the set-option lines the instance starts with
	ParamOptionDefaults = "option-defaults" // the set-option lines that restore every option of the model
)

// DefaultSettings is how many options an instance sets at most.
const DefaultSettings = 3

// OptionOptions configure the option fuzzer: the solver whose option model is used, how many
// options an instance sets at most, and the STORM options of the instances.
type OptionOptions struct {
	Solver   string
	Settings int
	Storm    Options
}

func (o OptionOptions) normalized() OptionOptions {
	if o.Solver == "" {
		o.Solver = "z3"
	}
	if o.Settings == 0 {
		o.Settings = DefaultSettings
	}
	o.Storm = o.Storm.normalized()
	return o
}

func (o *OptionOptions) form() genopts.Form {
	sf := o.Storm.form()
	return genopts.Form{Prefix: "smtgen: options", Name: StyleOptions, Fields: append([]genopts.Field{
		genopts.Choice("solver", "option model", &o.Solver, OptionModelNames()),
		genopts.Int("settings", &o.Settings, 1, 50),
	}, sf.Fields...)}
}

// String returns the options in canonical one-line form, e.g. "options{solver=z3 settings=3
// depth=64 ...}", STORM's keys after the option fuzzer's.
func (o OptionOptions) String() string {
	n := o.normalized()
	return n.form().String()
}

// ParseOptionOptions reads options in the form [OptionOptions.String] writes.
func ParseOptionOptions(s string) (OptionOptions, error) {
	return genopts.Parse(s, OptionOptions{}.normalized(), (*OptionOptions).form)
}

// OptionFuzzer is the option-fuzzing generator: each case is a STORM instance that starts with 1
// to Settings random (set-option ...) commands from the solver's option model, followed by a
// query that solves the same instance again after a reset with every option of the model at its
// default. The STORM model keeps the sat and model oracles; the options oracle compares the two
// answers of one solver.
type OptionFuzzer struct {
	opts     OptionOptions
	gen      string
	storm    *Generator
	options  []SolverOption // the model's options the solver knows, each with its default
	defaults map[string]string
	restore  string
}

// NewOptionFuzzer returns the option fuzzer of o over seeds; defaults holds the solver's default
// value of each option of its model that it knows (its get-option answers): the others are left
// out.
func NewOptionFuzzer(o OptionOptions, seeds []*Seed, ref RefFunc, defaults map[string]string) (*OptionFuzzer, error) {
	n := o.normalized()
	if err := n.form().Check(); err != nil {
		return nil, err
	}
	g, err := New(n.Storm, seeds, ref)
	if err != nil {
		return nil, err
	}
	f := &OptionFuzzer{opts: n, gen: n.String(), storm: g, defaults: defaults}
	var restore []string
	for _, opt := range OptionModels[n.Solver] {
		d, ok := defaults[opt.Name]
		if !ok {
			continue
		}
		f.options = append(f.options, opt)
		restore = append(restore, setOption(opt.Name, d))
	}
	if len(f.options) == 0 {
		return nil, fmt.Errorf("smtgen: options: the solver knows none of the %d options of the %s option model", len(OptionModels[n.Solver]), n.Solver)
	}
	f.restore = strings.Join(restore, "\n")
	return f, nil
}

// Options returns the generator's options with defaults applied.
func (f *OptionFuzzer) Options() OptionOptions { return f.opts }

// CasesPerSetup is STORM's: consecutive cases share a seed pool.
func (f *OptionFuzzer) CasesPerSetup() int { return f.storm.CasesPerSetup() }

func setOption(name, value string) string { return "(set-option :" + name + " " + value + ")" }

// Generate returns the case of seed s.
func (f *OptionFuzzer) Generate(s uint64) (*fuzz.Case, error) {
	c, err := f.storm.Generate(s)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(s, 0x0971))
	k := 1 + r.IntN(f.opts.Settings)
	var lines []string
	for _, i := range r.Perm(len(f.options))[:min(k, len(f.options))] {
		opt := f.options[i]
		var vs []string
		for _, v := range opt.Values {
			if v != f.defaults[opt.Name] {
				vs = append(vs, v)
			}
		}
		if len(vs) > 0 {
			lines = append(lines, setOption(opt.Name, vs[r.IntN(len(vs))]))
		}
	}
	inst := c.Queries[0].Text
	c.Gen = f.gen
	c.Queries[0].Text = strings.Join(lines, "\n") + "\n" + inst
	c.Params[ParamOptions] = strings.Join(lines, "\n")
	c.Params[ParamOptionDefaults] = f.restore
	c.Queries = append(c.Queries, defaultQuery(c.Params, inst))
	if m, ok := c.Memo.(*memo); ok {
		c.Memo = &memo{queries: c.Queries, p: m.p}
	}
	return c, nil
}

// defaultQuery is the query that solves inst again with every option of the model at its default.
func defaultQuery(params map[string]string, inst string) fuzz.Query {
	return fuzz.Query{Role: RoleDefault, Text: "(reset)\n" + params[ParamOptionDefaults] + "\n" + inst}
}

// RebuildOptionCase makes a candidate of the reducer a whole option-fuzzing case again: its
// options are the fuzzed ones its instance still sets, and its default query solves that instance
// without them. Cases of other styles are left as they are.
func RebuildOptionCase(c *fuzz.Case) {
	if _, ok := c.Params[ParamOptionDefaults]; !ok {
		return
	}
	inst, _ := c.Query(RoleInstance)
	keys := map[string]bool{}
	for _, l := range strings.Split(c.Params[ParamOptions], "\n") {
		if f := strings.Fields(l); len(f) == 3 {
			keys[f[1]] = true
		}
	}
	var kept, opts []string
	for _, l := range strings.Split(inst, "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "(set-option" && keys[f[1]] {
			opts = append(opts, l)
			continue
		}
		kept = append(kept, l)
	}
	c.Params[ParamOptions] = strings.Join(opts, "\n")
	c.Queries = append(slices.DeleteFunc(c.Queries, func(q fuzz.Query) bool { return q.Role == RoleDefault }),
		defaultQuery(c.Params, strings.Join(kept, "\n")))
}

// fuzzedOption reports whether cmd sets one of the options c's generator chose.
func fuzzedOption(c *fuzz.Case, cmd *Command) bool {
	if cmd.Name != "set-option" {
		return false
	}
	for _, l := range strings.Split(c.Params[ParamOptions], "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[1] == cmd.Attr.Key {
			return true
		}
	}
	return false
}
