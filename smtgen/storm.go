package smtgen

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// InstanceModel is the layout of an SMT case: the instance ("smt.instance") and the query of
// its model ("smt.model").
var InstanceModel = fuzz.NewLayout("smt", "instance", "model")

// Roles of an SMT case's queries.
var (
	RoleInstance = InstanceModel.Role("instance") // the script: options, logic, declarations, assertions, check-sat(s)
	RoleModel    = InstanceModel.Role("model")    // get-value of the declared constants and partial applications
)

// Params keys of an SMT case.
const (
	ParamModel = "model" // the model the instance is true under, as SMT-LIB define-funs
	ParamLogic = "logic" // the seed's logic
	ParamSeed  = "seed"  // the seed file's name and hash
	ParamMode  = "mode"  // "plain", "incremental" or "check-sat-using <tactic>"
)

// Generator is the STORM generator: each group of Options.Mutants consecutive case seeds picks one
// seed script and one model, cuts the seed's assertions into Boolean fragments, evaluates them
// under the model, builds a pool of new formulas from them, and each case asserts a random
// selection of pool formulas, negated where they are false, so that the model satisfies every
// instance. The evaluator checks every instance before it is returned.
type Generator struct {
	opts  Options
	gen   string // opts.String(), the Gen of every case
	seeds []*Seed
	ref   RefFunc
	pools *fuzz.SetupCache[*pool]
}

// New returns a generator over seeds (at least one); ref gives reference models (nil: random
// models only).
func New(o Options, seeds []*Seed, ref RefFunc) (*Generator, error) {
	n := o.normalized()
	if err := n.validate(); err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("smtgen: no usable seeds")
	}
	return &Generator{opts: n, gen: n.String(), seeds: seeds, ref: ref, pools: fuzz.NewSetupCache[*pool](poolCache)}, nil
}

// Options returns the generator's options with defaults applied.
func (g *Generator) Options() Options { return g.opts }

// CasesPerSetup is Options.Mutants: consecutive cases share a seed and pool. Cases do not share
// solver state: each instance script starts with its own declarations after a reset.
func (g *Generator) CasesPerSetup() int { return g.opts.Mutants }

// formula is a pool member: a Boolean term, its truth value under the pool's model and its depth.
type formula struct {
	t     *Term
	v     bool
	depth int
	size  int // printed length, about
}

// pool is the fragment pool of one seed under one model.
type pool struct {
	seed        *Seed
	model       *Model
	modelText   string
	modelSource string
	incremental bool
	init        [2][]formula // by truth value: [0] false, [1] true
	constr      [2][]formula
}

// poolCache is how many pools a Generator keeps; each worker walks one pool at a time.
const poolCache = 16

// Generate returns the case of seed s.
func (g *Generator) Generate(s uint64) (*fuzz.Case, error) {
	p, err := g.pool(fuzz.SetupSeed(s))
	if err != nil {
		return nil, err
	}
	if c := g.unsatCase(p, s); c != nil {
		return c, nil
	}
	r := rand.New(rand.NewPCG(s, 0x5703))
	c := &fuzz.Case{Domain: "smt", Gen: g.gen, Seed: s}
	k := 1 + r.IntN(g.opts.MaxAsserts)
	asserts := make([]*Term, 0, k)
	for range k {
		f := p.pick(r)
		t := f.t
		if !f.v {
			t = notTerm(t)
		}
		if v, ok := p.model.Truth(t); !ok || !v {
			return nil, fmt.Errorf("smtgen: polyfuzz bug: assertion %s is not true under its model (seed %s)", t, p.seed.Name)
		}
		asserts = append(asserts, t)
	}
	mode := "plain"
	var script string
	checks := [][]*Term{asserts}
	if p.incremental {
		mode = "incremental"
		var cmds []string
		cmds, checks = incrementalCommands(r, asserts)
		script = instanceText(p.seed, cmds)
	} else {
		check := "(check-sat)"
		if g.opts.Tactics > 0 && r.IntN(100) < g.opts.Tactics {
			tac := tactics[r.IntN(len(tactics))]
			check = "(check-sat-using " + tac + ")"
			mode = "check-sat-using " + tac
		}
		cmds := make([]string, 0, len(asserts)+1)
		for _, a := range asserts {
			cmds = append(cmds, "(assert "+a.String()+")")
		}
		script = instanceText(p.seed, append(cmds, check))
	}
	p.finish(c, script, asserts, checks, mode)
	return c, nil
}

// finish sets c's queries (the instance script and the model query of asserts), its parsed
// memo and its Params.
func (p *pool) finish(c *fuzz.Case, script string, asserts []*Term, checks [][]*Term, mode string) {
	c.Queries = []fuzz.Query{{Role: RoleInstance, Text: script}}
	vt := valueTerms(p.seed.Env, asserts)
	if len(vt) > 0 {
		c.Queries = append(c.Queries, fuzz.Query{Role: RoleModel, Text: strings.TrimSuffix(getValue(vt), "\n")})
	}
	c.Memo = &memo{queries: c.Queries, p: &parsed{env: p.seed.Env, checks: checks, values: vt}}
	c.Params = map[string]string{ParamModel: p.modelText, ParamLogic: p.seed.Logic,
		ParamSeed: p.seed.Name + " " + p.seed.Hash + " (" + p.modelSource + " model)", ParamMode: mode}
}

// instanceText prints an instance: produce-models, the seed's logic and declarations, then cmds.
func instanceText(s *Seed, cmds []string) string {
	var b strings.Builder
	b.WriteString("(set-option :produce-models true)\n")
	if s.Logic != "" {
		b.WriteString("(set-logic " + s.Logic + ")\n")
	}
	for _, d := range s.Decls {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	for i, c := range cmds {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c)
	}
	return b.String()
}

// incrementalCommands splits asserts into blocks, each opened by push and closed by check-sat,
// with random pops in between (STORM's incremental mode). Every prefix of assertions stays true
// under the model, so every check-sat must answer sat. It also returns the assertions in scope
// at each check-sat.
func incrementalCommands(r *rand.Rand, asserts []*Term) (cmds []string, checks [][]*Term) {
	var scopes []int // number of assertions in scope when each open push began
	var cur []*Term
	for i := 0; i < len(asserts); {
		n := 1 + r.IntN(min(len(asserts)-i, 8))
		if len(scopes) > 0 && r.IntN(3) == 0 {
			k := 1 + r.IntN(len(scopes))
			cmds = append(cmds, fmt.Sprintf("(pop %d)", k))
			cur = cur[:scopes[len(scopes)-k]:scopes[len(scopes)-k]]
			scopes = scopes[:len(scopes)-k]
		}
		cmds = append(cmds, "(push 1)")
		scopes = append(scopes, len(cur))
		for _, a := range asserts[i : i+n] {
			cmds = append(cmds, "(assert "+a.String()+")")
			cur = append(cur, a)
		}
		cmds = append(cmds, "(check-sat)")
		checks = append(checks, append([]*Term(nil), cur...))
		i += n
	}
	return cmds, checks
}

// pick draws a pool formula: initial 30%, constructed 70% (STORM), true or false 50/50, falling
// back to whatever list is not empty.
func (p *pool) pick(r *rand.Rand) formula {
	lists := [2]*[2][]formula{&p.init, &p.constr}
	first := 1
	if r.IntN(10) < 3 {
		first = 0
	}
	v := r.IntN(2)
	for _, li := range []int{first, 1 - first} {
		for _, vi := range []int{v, 1 - v} {
			if l := lists[li][vi]; len(l) > 0 {
				return l[r.IntN(len(l))]
			}
		}
	}
	panic("smtgen: empty pool") // pool() never returns an empty pool
}

// pool returns the pool of setup seed ss, from the cache or built once.
func (g *Generator) pool(ss uint64) (*pool, error) {
	return g.pools.Get(ss, func() (*pool, error) { return g.buildPool(ss) })
}

// buildPool picks the seed and model of setup seed ss and fills the pool. A seed whose fragments
// are all undecided under the chosen model is passed over for the next one.
func (g *Generator) buildPool(ss uint64) (*pool, error) {
	r := rand.New(rand.NewPCG(ss, 0x9001))
	start := r.IntN(len(g.seeds))
	for i := range g.seeds {
		s := g.seeds[(start+i)%len(g.seeds)]
		p := &pool{seed: s, incremental: r.IntN(100) < g.opts.Incremental}
		var ref *Model
		negated := false
		if g.ref != nil && (g.opts.Models == ModelsRef || (g.opts.Models == ModelsBoth && r.IntN(2) == 0)) {
			ref, negated = g.ref(s)
		}
		if ref != nil {
			p.model, p.modelSource = ref, "reference"
			if negated {
				p.modelSource = "reference (of the negation)"
			}
		} else {
			p.model, p.modelSource = RandomModel(r, s.Env), "random"
		}
		p.collect(g.opts.MaxDepth)
		if len(p.init[0])+len(p.init[1]) == 0 {
			continue
		}
		p.enrich(r, g.opts)
		p.modelText = ModelText(p.model, s.Env)
		return p, nil
	}
	return nil, fmt.Errorf("smtgen: no seed has a fragment that the evaluator can decide")
}

// connective reports whether t is a Boolean connective the fragmenter descends through.
func connective(t *Term) bool {
	if t.Kind != KindApp || len(t.Args) == 0 {
		return false
	}
	switch t.Name {
	case "and", "or", "not", "=>", "xor":
		return true
	case "ite":
		return t.Sort.Equal(BoolSort)
	case "=", "distinct":
		return t.Args[0].Sort.Equal(BoolSort)
	}
	return false
}

// maxFragmentText bounds the printed size of a fragment; larger ones are not used.
const maxFragmentText = 4000

// maxFormulaText bounds the printed size of a constructed formula.
const maxFormulaText = 4000

// maxFragments bounds the initial pool.
const maxFragments = 5000

// collect cuts the seed's assertions into fragments: every Boolean connective node (and, or, not,
// =>, xor, Boolean ite and =) of Boolean depth at most maxDepth and every atom below them, each
// with its truth value; undecided fragments and fragments under quantifiers are left out.
func (p *pool) collect(maxDepth int) {
	depth := map[*Term]int{}
	seen := map[*Term]bool{}
	var walk func(t *Term) int
	walk = func(t *Term) int {
		if d, ok := depth[t]; ok {
			return d
		}
		d := 0
		inner := t
		if t.Kind == KindAnnot {
			inner = t.Args[0]
		}
		if connective(inner) {
			for _, a := range inner.Args {
				if a.Sort.Equal(BoolSort) {
					d = max(d, walk(a)+1)
				}
			}
		}
		depth[t] = d
		if d <= maxDepth && !seen[inner] && len(p.init[0])+len(p.init[1]) < maxFragments {
			seen[inner] = true
			if v, ok := p.model.Truth(inner); ok {
				if n := len(inner.String()); n <= maxFragmentText {
					p.init[b2i(v)] = append(p.init[b2i(v)], formula{t: inner, v: v, depth: d, size: n})
				}
			}
		}
		return d
	}
	for _, a := range p.seed.Asserts {
		walk(a)
	}
}

// enrich runs Options.Enrichment construction steps over both pools.
func (p *pool) enrich(r *rand.Rand, o Options) {
	any := func(v int) (formula, bool) {
		n0, n1 := len(p.init[v]), len(p.constr[v])
		if n0+n1 == 0 {
			return formula{}, false
		}
		if i := r.IntN(n0 + n1); i < n0 {
			return p.init[v][i], true
		} else {
			return p.constr[v][i-n0], true
		}
	}
	operand := func() (formula, bool) {
		v := r.IntN(2)
		if f, ok := any(v); ok {
			return f, true
		}
		return any(1 - v)
	}
	ops := []string{"and", "not"}
	if o.Connectives == ConnRich {
		ops = []string{"and", "not", "or", "xor", "=>", "ite", "="}
	}
	for range o.Enrichment {
		op := ops[r.IntN(len(ops))]
		a, ok := operand()
		if !ok {
			return
		}
		var f formula
		switch op {
		case "not":
			f = formula{t: notTerm(a.t), v: !a.v, depth: a.depth + 1, size: a.size + 6}
		case "ite":
			b, _ := operand()
			c, _ := operand()
			v := c.v
			if a.v {
				v = b.v
			}
			f = formula{t: &Term{Kind: KindApp, Name: "ite", Args: []*Term{a.t, b.t, c.t}, Sort: BoolSort}, v: v,
				depth: 1 + max(a.depth, b.depth, c.depth), size: a.size + b.size + c.size + 8}
		default:
			b, _ := operand()
			var v bool
			switch op {
			case "and":
				v = a.v && b.v
			case "or":
				v = a.v || b.v
			case "xor":
				v = a.v != b.v
			case "=>":
				v = !a.v || b.v
			case "=":
				v = a.v == b.v
			}
			f = formula{t: &Term{Kind: KindApp, Name: op, Args: []*Term{a.t, b.t}, Sort: BoolSort}, v: v,
				depth: 1 + max(a.depth, b.depth), size: a.size + b.size + len(op) + 4}
		}
		if f.depth <= o.MaxDepth && f.size <= maxFormulaText {
			p.constr[b2i(f.v)] = append(p.constr[b2i(f.v)], f)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
