package smtgen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/genopts"
)

// Defaults of [FusionOptions].
const (
	DefaultFusionPairs   = 2
	DefaultFusionUnsat   = 50
	DefaultFusionAsserts = 16
	DefaultFusionMutants = 100
)

// fusionFunc is a fusion function z = f(x, y) with its inversions x = rx(y, z) and y = ry(x, z),
// as templates over X, Y, Z and a random constant C.
type fusionFunc struct {
	name      string
	sort      string // the sort's name: Int, Real, BitVec, String
	f, rx, ry string
	nonzero   bool // the inversions divide by y and x: SAT fusion needs both nonzero under the model
}

// fusionFuncs are the fusion functions of semantic fusion (PLDI'20) for each sort.
var fusionFuncs = []fusionFunc{
	{"add", "Int", "(+ X Y)", "(- Z Y)", "(- Z X)", false},
	{"add", "Real", "(+ X Y)", "(- Z Y)", "(- Z X)", false},
	{"addc", "Int", "(+ X Y C)", "(- Z Y C)", "(- Z X C)", false},
	{"addc", "Real", "(+ X Y C)", "(- Z Y C)", "(- Z X C)", false},
	{"mul", "Int", "(* X Y)", "(div Z Y)", "(div Z X)", true},
	{"mul", "Real", "(* X Y)", "(/ Z Y)", "(/ Z X)", true},
	{"xor", "BitVec", "(bvxor X Y)", "(bvxor Y Z)", "(bvxor X Z)", false},
	{"bvadd", "BitVec", "(bvadd X Y)", "(bvsub Z Y)", "(bvsub Z X)", false},
	{"bvsub", "BitVec", "(bvsub X Y)", "(bvadd Z Y)", "(bvsub X Z)", false},
	{"concat", "String", "(str.++ X Y)", "(str.substr Z 0 (- (str.len Z) (str.len Y)))", "(str.substr Z (str.len X) (str.len Y))", false},
}

// FusionFuncNames are the names FusionOptions.Funcs takes.
var FusionFuncNames = []string{"add", "addc", "mul", "xor", "bvadd", "bvsub", "concat"}

// FusionOptions configure the semantic fusion generator. A zero field takes its default.
type FusionOptions struct {
	// Pairs bounds the variable pairs fused per instance (default 2).
	Pairs int
	// Unsat is the percentage of UNSAT fusions (default 50; negative: SAT fusion only).
	Unsat int
	// Funcs are the fusion functions used (default all of FusionFuncNames).
	Funcs []string
	// Asserts bounds the assertions of each input formula (default 16).
	Asserts int
	// Mutants is how many consecutive cases fuse formulas of one pair of pools (default 100).
	Mutants int
	// Models selects the input pools' model source: "both" (default), "ref" or "random".
	Models string
}

// DefaultFusionOptions returns the options a zero FusionOptions stands for.
func DefaultFusionOptions() FusionOptions { return FusionOptions{}.normalized() }

func (o FusionOptions) normalized() FusionOptions {
	def := func(v, d int) int {
		if v == 0 {
			return d
		}
		return v
	}
	n := o
	n.Pairs = def(o.Pairs, DefaultFusionPairs)
	n.Unsat = def(o.Unsat, DefaultFusionUnsat)
	n.Asserts = def(o.Asserts, DefaultFusionAsserts)
	n.Mutants = def(o.Mutants, DefaultFusionMutants)
	if len(n.Funcs) == 0 {
		n.Funcs = slices.Clone(FusionFuncNames)
	}
	if n.Models == "" {
		n.Models = ModelsBoth
	}
	return n
}

func (o *FusionOptions) form() genopts.Form {
	return genopts.Form{Prefix: "smtgen: fusion options", Name: "fusion", Fields: []genopts.Field{
		genopts.Int("pairs", &o.Pairs, 1, 16),
		genopts.IntOrNone("unsat", &o.Unsat, 100),
		genopts.List("funcs", "fusion function", &o.Funcs, FusionFuncNames, func(s string) string { return s }),
		genopts.Int("asserts", &o.Asserts, 1, 1000),
		genopts.Int("mutants", &o.Mutants, 1, 1<<fuzz.SetupBits),
		genopts.Choice("models", "model source", &o.Models, modelChoices),
	}}
}

// String returns the options in canonical one-line form with defaults applied, e.g.
// "fusion{pairs=2 unsat=50 funcs=add,addc,mul,xor,bvadd,bvsub,concat asserts=16 mutants=100
// models=both}". [ParseFusionOptions] reads it back.
func (o FusionOptions) String() string {
	n := o.normalized()
	return n.form().String()
}

// ParseFusionOptions reads options in the form [FusionOptions.String] writes; keys left out take
// their defaults.
func ParseFusionOptions(s string) (FusionOptions, error) {
	return genopts.Parse(s, DefaultFusionOptions(), (*FusionOptions).form)
}

// Fusion is the semantic fusion generator (PLDI'20). Its inputs are STORM formulas from two seed
// pools, each of a status known by construction with its model: sat formulas true under the pool's
// model, or unsat ones pinned to it (see unsat.go). SAT fusion asserts φ1 ∧ φ2 with random
// occurrences of x (of φ1) replaced by rx(y, z) and of y (of φ2) by ry(x, z), z fresh: the union of
// the models with z := f(x, y) satisfies it, which the evaluator checks before the case is
// returned. UNSAT fusion asserts (φ1 ∨ φ2) ∧ z = f(x, y) ∧ x = rx(y, z) ∧ y = ry(x, z) and expects
// unsat; its certificate is checked by the sat oracle ([checkFusedUnsat]).
type Fusion struct {
	opts  FusionOptions
	gen   string
	storm *Generator
	funcs []fusionFunc
}

// NewFusion returns a fusion generator over seeds; ref gives reference models (nil: random
// models only).
func NewFusion(o FusionOptions, seeds []*Seed, ref RefFunc) (*Fusion, error) {
	n := o.normalized()
	if err := n.form().Check(); err != nil {
		return nil, err
	}
	st, err := New(Options{MaxAsserts: n.Asserts, Mutants: n.Mutants, Models: n.Models, Incremental: -1, Tactics: -1}, seeds, ref)
	if err != nil {
		return nil, err
	}
	g := &Fusion{opts: n, gen: n.String(), storm: st}
	for _, f := range fusionFuncs {
		if slices.Contains(n.Funcs, f.name) {
			g.funcs = append(g.funcs, f)
		}
	}
	return g, nil
}

// Options returns the generator's options with defaults applied.
func (g *Fusion) Options() FusionOptions { return g.opts }

// CasesPerSetup is Options.Mutants: consecutive cases share their first pool.
func (g *Fusion) CasesPerSetup() int { return g.opts.Mutants }

// fusionAttempts bounds the second pools tried for one case before it falls back to a plain
// STORM instance.
const fusionAttempts = 12

// ParamFusion is the Params key describing a fusion: its mode and its variable pairs.
const ParamFusion = "fusion"

// Generate returns the case of seed s: a fusion of formulas from the setup's pool and another
// pool, or, when no pool pair fuses, the setup pool's STORM instance.
func (g *Fusion) Generate(s uint64) (*fuzz.Case, error) {
	ss := fuzz.SetupSeed(s)
	p1, err := g.storm.pool(ss)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(s, 0xf051))
	unsat := g.opts.Unsat > 0 && r.IntN(100) < g.opts.Unsat
	for i := range fusionAttempts {
		// The setup's pool first, with other second pools; after half the attempts, other
		// first pools too.
		if i >= fusionAttempts/2 {
			if p1, err = g.storm.pool(fuzz.Mix(ss^uint64(2*i)) >> fuzz.SetupBits); err != nil {
				return nil, err
			}
		}
		p2, err := g.storm.pool(fuzz.Mix(ss^uint64(2*i+1)) >> fuzz.SetupBits)
		if err != nil {
			return nil, err
		}
		if c := g.fuse(r, s, p1, p2, unsat); c != nil {
			return c, nil
		}
	}
	c, err := g.storm.Generate(s)
	if err != nil {
		return nil, err
	}
	c.Gen = g.gen
	c.Params[ParamFusion] = "none: no pool pair fused"
	return c, nil
}

// fusable reports whether a seed's declarations can be renamed apart: constants, functions and
// definitions only.
func fusable(s *Seed) bool {
	for _, d := range s.Decls {
		switch d.Name {
		case "declare-const", "declare-fun", "define-fun":
		default:
			return false
		}
	}
	return true
}

// input draws a formula of p: sat (true under p's model) or pinned unsat.
func input(r *rand.Rand, p *pool, k int, unsat bool) ([]*Term, bool) {
	if unsat {
		return p.unsatAsserts(r, k)
	}
	out := make([]*Term, 0, k)
	for range k {
		f := p.pick(r)
		t := f.t
		if !f.v {
			t = notTerm(t)
		}
		out = append(out, t)
	}
	return out, true
}

// side is one renamed input of a fusion.
type side struct {
	p       *pool
	prefix  string
	asserts []*Term
	names   map[string]string // seed symbol -> renamed symbol
}

// fuse builds the fusion of formulas of p1 and p2, nil when they do not fuse.
func (g *Fusion) fuse(r *rand.Rand, s uint64, p1, p2 *pool, unsat bool) *fuzz.Case {
	if !fusable(p1.seed) || !fusable(p2.seed) {
		return nil
	}
	sides := [2]*side{{p: p1, prefix: "a!"}, {p: p2, prefix: "b!"}}
	for _, sd := range sides {
		var ok bool
		if sd.asserts, ok = input(r, sd.p, 1+r.IntN(g.opts.Asserts), unsat); !ok {
			return nil
		}
		sd.names = map[string]string{}
		for _, d := range sd.p.seed.Decls {
			sd.names[d.Symbol] = sd.prefix + d.Symbol
		}
	}
	// Variable pairs: constants of the same sort, one from each input.
	c1, c2 := constsOf(p1.seed.Env, sides[0].asserts), constsOf(p2.seed.Env, sides[1].asserts)
	type pair struct {
		x, y  *Term
		f     fusionFunc
		z, fx string // fx: the fusion term f(x, y), renamed
	}
	var pairs []pair
	usedY := map[string]bool{}
	for _, i := range r.Perm(len(c1)) {
		if len(pairs) == g.opts.Pairs {
			break
		}
		x := c1[i]
		var fs []fusionFunc
		for _, f := range g.funcs {
			if f.sort == x.Sort.Name {
				fs = append(fs, f)
			}
		}
		if len(fs) == 0 {
			continue
		}
		var ys []*Term
		for _, y := range c2 {
			if y.Sort.Equal(x.Sort) && !usedY[y.Name] {
				ys = append(ys, y)
			}
		}
		if len(ys) == 0 {
			continue
		}
		y := ys[r.IntN(len(ys))]
		f := fs[r.IntN(len(fs))]
		if f.nonzero && !unsat && (isZero(p1.model.Consts[x.Name]) || isZero(p2.model.Consts[y.Name])) {
			continue
		}
		usedY[y.Name] = true
		pairs = append(pairs, pair{x: x, y: y, f: f, z: fmt.Sprintf("z!%d", len(pairs))})
	}
	if len(pairs) == 0 {
		return nil
	}
	// Substitution: each occurrence of x in φ1 is replaced by rx(y, z) with a probability drawn
	// per variable, and of y in φ2 by ry(x, z).
	subst := [2]map[string]func() *Term{{}, {}}
	var constraints []string
	var desc []string
	for k := range pairs {
		pr := &pairs[k]
		x, y := quoteSymbol("a!"+pr.x.Name), quoteSymbol("b!"+pr.y.Name)
		c := "0"
		if pr.f.sort == "Real" || pr.f.sort == "Int" {
			n := r.IntN(21) - 10
			c = strconv.Itoa(max(n, -n))
			if pr.f.sort == "Real" {
				c += ".0"
			}
			if n < 0 {
				c = "(- " + c + ")"
			}
		}
		rep := strings.NewReplacer("X", x, "Y", y, "Z", pr.z, "C", c)
		fx, rx, ry := rep.Replace(pr.f.f), rep.Replace(pr.f.rx), rep.Replace(pr.f.ry)
		pr.fx = fx
		constraints = append(constraints, "(= "+pr.z+" "+fx+")", "(= "+x+" "+rx+")", "(= "+y+" "+ry+")")
		desc = append(desc, fmt.Sprintf("%s=%s", pr.z, fx))
		for i, tmpl := range []string{rx, ry} {
			t, err := ParseTerm(tmpl)
			if err != nil {
				return nil
			}
			q := r.Float64()
			name := pr.x.Name
			if i == 1 {
				name = pr.y.Name
			}
			subst[i][name] = func() *Term {
				if r.Float64() < q {
					return t
				}
				return nil
			}
		}
	}
	var body [2]*Term
	var decls []string
	for i, sd := range sides {
		ts := make([]*Term, len(sd.asserts))
		for j, a := range sd.asserts {
			ts[j] = renameTerm(a, sd.names, subst[i], nil)
		}
		body[i] = andTerm(ts...)
		for _, d := range sd.p.seed.Decls {
			decls = append(decls, renameDecl(d, sd.names))
		}
	}
	for _, pr := range pairs {
		decls = append(decls, fmt.Sprintf("(declare-const %s %s)", pr.z, pr.x.Sort))
	}
	var cmds []string
	mode := "SAT fusion"
	if unsat {
		mode = "UNSAT fusion"
		cmds = append(cmds, "(assert (or "+body[0].String()+" "+body[1].String()+"))")
		for _, c := range constraints {
			cmds = append(cmds, "(assert "+c+")")
		}
	} else {
		cmds = append(cmds, "(assert "+body[0].String()+")", "(assert "+body[1].String()+")")
	}
	logic := fusedLogic(p1.seed.Logic, p2.seed.Logic, slices.ContainsFunc(pairs, func(p pair) bool { return p.f.nonzero }))
	var b strings.Builder
	b.WriteString("(set-option :produce-models true)\n")
	if logic != "" {
		b.WriteString("(set-logic " + logic + ")\n")
	}
	for _, d := range decls {
		b.WriteString(d + "\n")
	}
	b.WriteString(strings.Join(append(cmds, "(check-sat)"), "\n"))
	c := &fuzz.Case{Domain: "smt", Gen: g.gen, Seed: s, Queries: []fuzz.Query{{Role: RoleInstance, Text: b.String()}}}
	p, err := readCase(c)
	if err != nil || len(p.checks) != 1 {
		return nil
	}
	m, err := mergeModels(p.env, sides[0], sides[1])
	if err != nil {
		return nil
	}
	for _, pr := range pairs {
		t, err := ParseTerm(pr.fx)
		if err != nil || p.env.CheckTerm(t) != nil {
			return nil
		}
		v, err := m.Eval(t)
		if err != nil {
			return nil
		}
		m.Consts[pr.z] = v
	}
	text := ModelText(m, p.env)
	if m, err = ParseModelText(text, p.env); err != nil {
		return nil
	}
	if unsat {
		if _, err := checkFusedUnsat(p.env, m, p.checks[0]); err != nil {
			return nil
		}
	} else if _, err := p.certify(m, 0); err != nil {
		return nil
	}
	p.values = valueTerms(p.env, p.checks[0])
	if len(p.values) > 0 {
		c.Queries = append(c.Queries, fuzz.Query{Role: RoleModel, Text: strings.TrimSuffix(getValue(p.values), "\n")})
	}
	c.Memo = &memo{queries: c.Queries, p: p}
	c.Params = map[string]string{ParamModel: text, ParamLogic: logic, ParamMode: "plain",
		ParamSeed: p1.seed.Name + " " + p1.seed.Hash + " (" + p1.modelSource + " model) + " +
			p2.seed.Name + " " + p2.seed.Hash + " (" + p2.modelSource + " model)",
		ParamFusion: mode + ": " + strings.Join(desc, ", ")}
	if unsat {
		c.Params[ParamExpect] = ExpectUnsat
	}
	return c
}

// fusedLogic is the logic of a fusion: the inputs' logic when they agree (made nonlinear when a
// multiplication fuses), else ALL.
func fusedLogic(l1, l2 string, mul bool) string {
	if l1 != l2 || l1 == "" {
		return "ALL"
	}
	if mul {
		for _, lin := range []string{"LIA", "LRA", "LIRA"} {
			if strings.HasSuffix(l1, lin) {
				return strings.TrimSuffix(l1, lin) + "N" + lin[1:]
			}
		}
	}
	return l1
}

// mergeModels returns the union of both sides' models, renamed, in env; two different values of
// one partial-operation table at the same point are an error.
func mergeModels(env *Env, a, b *side) (*Model, error) {
	m := NewModel(env)
	for _, sd := range []*side{a, b} {
		for name, v := range sd.p.model.Consts {
			m.Consts[sd.prefix+name] = v
		}
		for name, t := range sd.p.model.Funcs {
			if _, ok := partialFuncs[name]; !ok {
				m.Funcs[sd.prefix+name] = t
				continue
			}
			old := m.Funcs[name]
			if old == nil {
				m.Funcs[name] = &FuncTable{Entries: slices.Clone(t.Entries), Default: t.Default}
				continue
			}
			for _, e := range t.Entries {
				if v, ok := old.Lookup(e.Args); ok {
					if !Equal(v, e.Val) {
						return nil, errors.New("the models interpret an unspecified operation differently")
					}
					continue
				}
				old.Entries = append(old.Entries, e)
			}
		}
	}
	return m, nil
}

// constsOf returns the declared constants ts use, in declaration order.
func constsOf(env *Env, ts []*Term) []*Term {
	used := map[string]*Term{}
	for _, t := range ts {
		walkTerms(t, func(u *Term) {
			if u.Kind == KindApp && len(u.Args) == 0 && len(u.Index) == 0 {
				if d, ok := env.Decls[u.Name]; ok && len(d.ArgSorts) == 0 {
					used[u.Name] = u
				}
			}
		})
	}
	var out []*Term
	for _, name := range env.Order {
		if t := used[name]; t != nil {
			out = append(out, t)
		}
	}
	return out
}

// renameTerm returns t with the free symbols of names renamed and each free occurrence of a
// constant of subst replaced by what its function returns (nil: kept); bound lists the names
// bound where t occurs.
func renameTerm(t *Term, names map[string]string, subst map[string]func() *Term, bound []string) *Term {
	switch t.Kind {
	case KindApp:
		free := !slices.Contains(bound, t.Name)
		if free && len(t.Args) == 0 {
			if f := subst[t.Name]; f != nil {
				if r := f(); r != nil {
					return r
				}
			}
		}
		cp := *t
		if n, ok := names[t.Name]; ok && free {
			cp.Name = n
		}
		cp.Args = make([]*Term, len(t.Args))
		for i, a := range t.Args {
			cp.Args[i] = renameTerm(a, names, subst, bound)
		}
		return &cp
	case KindLet:
		cp := *t
		cp.Binds = slices.Clone(t.Binds)
		inner := slices.Clone(bound)
		for i, bd := range t.Binds {
			cp.Binds[i].Term = renameTerm(bd.Term, names, subst, bound)
			inner = append(inner, bd.Name)
		}
		cp.Args = []*Term{renameTerm(t.Args[0], names, subst, inner)}
		return &cp
	case KindForall, KindExists:
		cp := *t
		inner := slices.Clone(bound)
		for _, bd := range t.Binds {
			inner = append(inner, bd.Name)
		}
		cp.Args = []*Term{renameTerm(t.Args[0], names, subst, inner)}
		return &cp
	case KindAnnot:
		cp := *t
		cp.Args = []*Term{renameTerm(t.Args[0], names, subst, bound)}
		return &cp
	}
	return t
}

// renameDecl prints a declaration or definition with its symbol and body renamed.
func renameDecl(d *Command, names map[string]string) string {
	cp := *d
	cp.Symbol = names[d.Symbol]
	if d.Name == "define-fun" && len(d.Terms) == 1 {
		var bound []string
		for _, p := range d.Params {
			bound = append(bound, p.Name)
		}
		cp.Terms = []*Term{renameTerm(d.Terms[0], names, nil, bound)}
	}
	return cp.String()
}
