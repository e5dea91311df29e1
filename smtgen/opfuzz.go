package smtgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/genopts"
)

// Mutation styles of [MutationOptions.Style].
const (
	StyleOpFuzz   = "opfuzz"   // yinyang's type-aware operator mutation (OOPSLA'20)
	StyleTypeFuzz = "typefuzz" // yinyang's generative type-aware mutation (OOPSLA'21)
)

// Defaults of [MutationOptions].
const (
	DefaultMutations   = 3   // at most this many mutations per mutant
	DefaultSeedMutants = 300 // mutants per seed: yinyang's iterations
)

// MutationOptions configure the mutation generators, opfuzz and typefuzz. A zero field takes its
// default.
type MutationOptions struct {
	// Style is StyleOpFuzz or StyleTypeFuzz: the name of the options' text form.
	Style string
	// Mutations bounds the mutations of one mutant: each has 1 to Mutations (default 3).
	Mutations int
	// Mutants is how many consecutive cases mutate one seed (default 300).
	Mutants int
}

// DefaultMutationOptions returns style's options with every default spelled out.
func DefaultMutationOptions(style string) MutationOptions {
	return MutationOptions{Style: style}.normalized()
}

func (o MutationOptions) normalized() MutationOptions {
	if o.Mutations == 0 {
		o.Mutations = DefaultMutations
	}
	if o.Mutants == 0 {
		o.Mutants = DefaultSeedMutants
	}
	return o
}

func (o *MutationOptions) form() genopts.Form {
	return genopts.Form{Prefix: "smtgen: " + o.Style + " options", Name: o.Style, Fields: []genopts.Field{
		genopts.Int("mutations", &o.Mutations, 1, 100),
		genopts.Int("mutants", &o.Mutants, 1, 1<<fuzz.SetupBits),
	}}
}

// String returns the options in canonical one-line form, e.g. "opfuzz{mutations=3 mutants=300}".
func (o MutationOptions) String() string {
	n := o.normalized()
	return n.form().String()
}

// ParseMutationOptions reads style's options in the form [MutationOptions.String] writes.
func ParseMutationOptions(style, s string) (MutationOptions, error) {
	return genopts.Parse(s, DefaultMutationOptions(style), (*MutationOptions).form)
}

// opClasses are opfuzz's operator classes: an operator may be replaced by any other of its class
// when the checker accepts the result with the same sort (arity conditions, such as mod taking
// two arguments, are the checker's).
var opClasses = [][]string{
	{"=", "distinct"},
	{"and", "or", "=>", "xor"},
	{"<", "<=", ">", ">="},
	{"+", "-", "*", "/"},
	{"div", "mod"},
	{"abs", "-"},
	{"bvnot", "bvneg"},
	{"bvand", "bvor", "bvxor", "bvadd", "bvmul", "bvnand", "bvnor", "bvxnor", "bvsub", "bvudiv", "bvurem",
		"bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr"},
	{"bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge"},
	{"bvuaddo", "bvsaddo", "bvumulo", "bvsmulo", "bvusubo", "bvssubo", "bvsdivo"},
	{"bvredor", "bvredand"},
	{"str.<", "str.<=", "str.prefixof", "str.suffixof", "str.contains"},
	{"str.replace", "str.replace_all"},
	{"str.replace_re", "str.replace_re_all"},
	{"str.to_code", "str.to_int", "str.len"},
	{"str.from_code", "str.from_int"},
	{"re.++", "re.union", "re.inter", "re.diff"},
	{"re.*", "re.+", "re.opt", "re.comp"},
	{"re.none", "re.all", "re.allchar"},
	{"fp.add", "fp.sub", "fp.mul", "fp.div"},
	{"fp.abs", "fp.neg"},
	{"fp.min", "fp.max", "fp.rem"},
	{"fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq"},
	{"fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite", "fp.isNaN", "fp.isNegative", "fp.isPositive"},
	{"RNE", "RNA", "RTP", "RTN", "RTZ"},
}

// leftAssoc are the Boolean operators SMT-LIB declares :left-assoc (or :right-assoc): two
// arguments or more.
var leftAssoc = map[string]bool{"and": true, "or": true, "xor": true, "=>": true}

// opOneWay are replacements that go one way only (yinyang's not -> and, or).
var opOneWay = map[string][]string{"not": {"and", "or"}}

// opAlternatives maps an operator to the operators that may replace it.
var opAlternatives = func() map[string][]string {
	m := map[string][]string{}
	for _, c := range opClasses {
		for _, a := range c {
			for _, b := range c {
				if a != b {
					m[a] = append(m[a], b)
				}
			}
		}
	}
	for a, bs := range opOneWay {
		m[a] = append(m[a], bs...)
	}
	return m
}()

// Mutator is the generator of the mutation styles: each group of Mutants consecutive case seeds
// picks one seed script, and each case applies 1 to Mutations random mutations to its assertions:
// opfuzz replaces operators by others of their class, typefuzz replaces a random subterm by a new
// application of the same sort whose arguments come from the seed's own subterms. Mutants have no
// known answer: the solvers are compared (diff), sat models are validated (model), and crashes
// and errors are findings.
type Mutator struct {
	opts  MutationOptions
	gen   string
	seeds []*Seed
	pools []lazyPool // typefuzz's, by seed
}

// lazyPool is a seed's type pool, made when first needed.
type lazyPool struct {
	once sync.Once
	p    *typePool
}

// pool returns the type pool of seed i.
func (g *Mutator) pool(i int) *typePool {
	lp := &g.pools[i]
	lp.once.Do(func() { lp.p = newTypePool(g.seeds[i]) })
	return lp.p
}

// NewMutator returns the generator of o.Style over seeds (at least one).
func NewMutator(o MutationOptions, seeds []*Seed) (*Mutator, error) {
	n := o.normalized()
	if n.Style != StyleOpFuzz && n.Style != StyleTypeFuzz {
		return nil, fmt.Errorf("smtgen: unknown mutation style %q; use %s or %s", n.Style, StyleOpFuzz, StyleTypeFuzz)
	}
	if err := n.form().Check(); err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("smtgen: no usable seeds")
	}
	return &Mutator{opts: n, gen: n.String(), seeds: seeds, pools: make([]lazyPool, len(seeds))}, nil
}

// CasesPerSetup is Options.Mutants: consecutive cases mutate the same seed.
func (g *Mutator) CasesPerSetup() int { return g.opts.Mutants }

// Generate returns the mutant of case seed s.
func (g *Mutator) Generate(s uint64) (*fuzz.Case, error) {
	ss := fuzz.SetupSeed(s)
	start := rand.New(rand.NewPCG(ss, 0x0f0f)).IntN(len(g.seeds))
	r := rand.New(rand.NewPCG(s, 0x7f02))
	k := 1 + r.IntN(g.opts.Mutations)
	for i := range g.seeds {
		si := (start + i) % len(g.seeds)
		seed := g.seeds[si]
		asserts := append([]*Term(nil), seed.Asserts...)
		done := 0
		for range k {
			var ok bool
			if g.opts.Style == StyleOpFuzz {
				ok = opMutate(r, seed.Env, asserts)
			} else {
				ok = g.pool(si).mutate(r, asserts)
			}
			if ok {
				done++
			}
		}
		if done == 0 {
			continue
		}
		return mutantCase(g.gen, s, seed, asserts, g.opts.Style, done), nil
	}
	return nil, fmt.Errorf("smtgen: %s: no seed has a term it can mutate", g.opts.Style)
}

// mutantCase makes the case of a mutant: the seed's declarations, the mutated assertions and
// check-sat, and the model query; no construction model.
func mutantCase(gen string, s uint64, seed *Seed, asserts []*Term, style string, n int) *fuzz.Case {
	cmds := make([]string, 0, len(asserts)+1)
	for _, a := range asserts {
		cmds = append(cmds, "(assert "+a.String()+")")
	}
	withLogic := *seed
	withLogic.Logic = mutantLogic(seed.Logic, asserts)
	c := &fuzz.Case{Domain: "smt", Gen: gen, Seed: s}
	c.Queries = []fuzz.Query{{Role: RoleInstance, Text: instanceText(&withLogic, append(cmds, "(check-sat)"))}}
	vt := valueTerms(seed.Env, asserts)
	if len(vt) > 0 {
		c.Queries = append(c.Queries, fuzz.Query{Role: RoleModel, Text: strings.TrimSuffix(getValue(vt), "\n")})
	}
	c.Memo = &memo{queries: c.Queries, p: &parsed{env: seed.Env, checks: [][]*Term{asserts}, values: vt}}
	c.Params = map[string]string{ParamLogic: withLogic.Logic, ParamSeed: seed.Name + " " + seed.Hash,
		ParamMode: fmt.Sprintf("%s, %d mutations", style, n)}
	return c
}

// mutantLogic returns the logic a mutant needs: the seed's, with difference logic widened to
// linear arithmetic and linear to nonlinear when a mutation made a product or a division of two
// terms, and ALL when a mutation brought in a theory the seed's logic lacks (typefuzz's
// bit-vector operators in QF_FP, where bit-vector sorts appear as arguments of fp).
func mutantLogic(logic string, asserts []*Term) string {
	if !logicHasTerms(logic, asserts) {
		return "ALL"
	}
	l := strings.NewReplacer("IDL", "LIA", "RDL", "LRA").Replace(logic)
	if !strings.Contains(l, "LIA") && !strings.Contains(l, "LRA") && !strings.Contains(l, "LIRA") {
		return l
	}
	for _, a := range asserts {
		if nonlinear(a) {
			if strings.Contains(strings.TrimPrefix(l, "QF_"), "S") { // no S*NIA logic is standard
				return "ALL"
			}
			return strings.NewReplacer("LIRA", "NIRA", "LIA", "NIA", "LRA", "NRA").Replace(l)
		}
	}
	return l
}

// nonlinear reports whether t multiplies two non-constant terms or divides by a non-constant or
// by zero (cvc5 takes division by zero as nonlinear).
func nonlinear(t *Term) bool {
	if t.Kind == KindApp {
		switch t.Name {
		case "*":
			vars := 0
			for _, a := range t.Args {
				if !constNumber(a) {
					vars++
				}
			}
			if vars > 1 {
				return true
			}
		case "/", "div", "mod":
			for _, a := range t.Args[1:] {
				if !constNumber(a) || isZeroLiteral(a) {
					return true
				}
			}
		}
	}
	for _, a := range t.Args {
		if nonlinear(a) {
			return true
		}
	}
	return false
}

// constNumber reports whether t is a numeric literal, possibly negated or promoted.
func constNumber(t *Term) bool {
	switch t.Kind {
	case KindNumeral, KindDecimal:
		return true
	case KindApp:
		if (t.Name == "-" || t.Name == "to_real") && len(t.Args) == 1 {
			return constNumber(t.Args[0])
		}
		if t.Name == "/" && len(t.Args) == 2 {
			return constNumber(t.Args[0]) && constNumber(t.Args[1])
		}
	}
	return false
}

// opMutate replaces one operator of asserts by another of its class, in place; false when none
// can be.
func opMutate(r *rand.Rand, env *Env, asserts []*Term) bool {
	type site struct {
		root int
		t    *Term
	}
	var sites []site
	for i, a := range asserts {
		walkTerms(a, func(t *Term) {
			if (t.Kind == KindApp && len(opAlternatives[t.Name]) > 0 && len(t.Index) == 0) || t.Kind == KindForall || t.Kind == KindExists {
				sites = append(sites, site{i, t})
			}
		})
	}
	for len(sites) > 0 {
		j := r.IntN(len(sites))
		st := sites[j]
		sites[j] = sites[len(sites)-1]
		sites = sites[:len(sites)-1]
		if st.t.Kind != KindApp { // exists <-> forall
			cp := *st.t
			cp.Kind = KindForall + KindExists - st.t.Kind
			if t, ok := substitute(env, asserts[st.root], st.t, &cp); ok {
				asserts[st.root] = t
				return true
			}
			continue
		}
		alts := opAlternatives[st.t.Name]
		for _, k := range r.Perm(len(alts)) {
			cp := *st.t
			cp.Name = alts[k]
			cp.Args = append([]*Term(nil), st.t.Args...)
			if len(cp.Args) == 1 && leftAssoc[cp.Name] {
				// not -> and, or: SMT-LIB's left-associative operators take two arguments or more
				// (z3 accepts one, Bitwuzla does not), so the argument is given twice.
				cp.Args = append(cp.Args, cp.Args[0])
			}
			if s, err := env.appSort(&cp, nil); err == nil && s.Equal(st.t.Sort) {
				cp.Sort = s
				if t, ok := substitute(env, asserts[st.root], st.t, &cp); ok {
					asserts[st.root] = t
					return true
				}
			}
		}
	}
	return false
}

// walkTerms calls f on every node of t once, parents first.
func walkTerms(t *Term, f func(*Term)) {
	visitTerms(t, func(u *Term) bool { f(u); return true })
}

// visitTerms calls f on the nodes of t once each, parents first, and on the arguments of a node
// only when f returns true for it.
func visitTerms(t *Term, f func(*Term) bool) {
	seen := map[*Term]bool{}
	var walk func(t *Term)
	walk = func(t *Term) {
		if seen[t] {
			return
		}
		seen[t] = true
		if !f(t) {
			return
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	walk(t)
}

// substitute returns root with every occurrence of old replaced by new (whose sort is old's),
// copying the paths to it without descending into new; every copied application is checked
// again, and false says one no longer sort-checks (a z3-style re.loop bound that is no longer a
// numeral).
func substitute(env *Env, root, old, new *Term) (*Term, bool) {
	memo := map[*Term]*Term{}
	ok := true
	var walk func(t *Term) *Term
	walk = func(t *Term) *Term {
		if t == old {
			return new
		}
		if r, done := memo[t]; done {
			return r
		}
		res := t
		for i, a := range t.Args {
			if w := walk(a); w != a {
				if res == t {
					cp := *t
					cp.Args = append([]*Term(nil), t.Args...)
					res = &cp
				}
				res.Args[i] = w
			}
		}
		if res != t && res.Kind == KindApp {
			if s, err := env.appSort(res, nil); err != nil || !s.Equal(t.Sort) {
				ok = false
			}
		}
		memo[t] = res
		return res
	}
	out := walk(root)
	return out, ok
}
