package smtgen

import (
	"math/rand/v2"
	"slices"
)

// typeOps are the operators typefuzz may put in a hole, with the arities it tries. Their
// signatures are not written here: [newTypePool] asks the sort checker which argument sorts each
// accepts and what it returns. A floating-point row goes here when the checker knows FP.
var typeOps = []struct {
	names   []string
	arities []int
}{
	{[]string{"not", "-", "abs", "to_real", "to_int", "is_int", "bvnot", "bvneg", "bv2nat",
		"str.len", "str.to_code", "str.to_int", "str.from_code", "str.from_int", "str.is_digit", "str.to_re",
		"re.*", "re.+", "re.opt", "re.comp"}, []int{1}},
	{[]string{"and", "or", "xor", "=>", "=", "distinct", "+", "-", "*", "/", "div", "mod", "<", "<=", ">", ">=",
		"bvand", "bvor", "bvxor", "bvadd", "bvmul", "bvnand", "bvnor", "bvxnor", "bvcomp", "bvsub", "bvudiv",
		"bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr", "bvult", "bvule", "bvugt", "bvuge",
		"bvslt", "bvsle", "bvsgt", "bvsge", "concat", "select",
		"str.++", "str.<", "str.<=", "str.prefixof", "str.suffixof", "str.contains", "str.at", "str.in_re",
		"re.++", "re.union", "re.inter", "re.diff", "re.range"}, []int{2}},
	{[]string{"and", "or", "+", "*", "distinct", "ite", "store", "str.++", "str.substr", "str.indexof",
		"str.replace", "str.replace_all", "str.replace_re", "str.replace_re_all"}, []int{3}},
}

// signature is one way to apply an operator: its name and argument sorts.
type signature struct {
	name string
	args []*Sort
}

// typePool is what typefuzz knows of one seed: its ground subterms by sort, and the operator
// signatures over those sorts by result sort.
type typePool struct {
	seed  *Seed
	sorts []*Sort
	terms map[string][]*Term     // by Sort.String(): unique subterms outside binders
	sigs  map[string][]signature // by result Sort.String()
}

// Bounds of a type pool.
const (
	maxPoolTermText = 200 // printed size of a pool term
	maxPoolTerms    = 400 // terms of one sort
	maxPoolSorts    = 8
)

// newTypePool collects seed's subterms and derives the operator signatures over their sorts
// from the sort checker.
func newTypePool(seed *Seed) *typePool {
	p := &typePool{seed: seed, terms: map[string][]*Term{}, sigs: map[string][]signature{}}
	printed := map[string]bool{}
	for _, a := range seed.Asserts {
		groundSubterms(a, func(t *Term) {
			if t.Sort == nil {
				return
			}
			k := t.Sort.String()
			if _, ok := p.terms[k]; !ok {
				if len(p.sorts) == maxPoolSorts {
					return
				}
				p.sorts = append(p.sorts, t.Sort)
				p.terms[k] = nil
			}
			s := t.String()
			if len(s) > maxPoolTermText || printed[s] || len(p.terms[k]) == maxPoolTerms {
				return
			}
			printed[s] = true
			p.terms[k] = append(p.terms[k], t)
		})
	}
	ops := slices.Clone(typeOps)
	for _, name := range seed.Env.Order {
		if d := seed.Env.Decls[name]; d != nil && len(d.ArgSorts) > 0 {
			ops = append(ops, struct {
				names   []string
				arities []int
			}{[]string{name}, []int{len(d.ArgSorts)}})
		}
	}
	for _, op := range ops {
		for _, name := range op.names {
			for _, n := range op.arities {
				p.signatures(name, n)
			}
		}
	}
	return p
}

// signatures records every tuple of n pool sorts that the checker accepts as arguments of name.
func (p *typePool) signatures(name string, n int) {
	if n > 3 || len(p.sorts) == 0 { // no ground subterm outside binders: nothing to build from
		return
	}
	switch name {
	case "to_real", "to_int", "is_int": // mixed arithmetic: only where the seed mixes Int and Real
		_, i := p.terms[IntSort.String()]
		_, r := p.terms[RealSort.String()]
		if !i || !r {
			return
		}
	}
	idx := make([]int, n)
	for {
		args := make([]*Term, n)
		sorts := make([]*Sort, n)
		for i, j := range idx {
			sorts[i] = p.sorts[j]
			args[i] = &Term{Kind: KindApp, Name: "|hole|", Sort: sorts[i]}
		}
		t := &Term{Kind: KindApp, Name: name, Args: args}
		if s, err := p.seed.Env.appSort(t, nil); err == nil {
			k := s.String()
			if _, ok := p.terms[k]; ok {
				p.sigs[k] = append(p.sigs[k], signature{name, sorts})
			}
		}
		i := n - 1
		for ; i >= 0; i-- {
			if idx[i]++; idx[i] < len(p.sorts) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// groundSubterms calls f on every node of t outside quantifiers and lets, once.
func groundSubterms(t *Term, f func(*Term)) {
	visitTerms(t, func(u *Term) bool {
		if u.Kind == KindForall || u.Kind == KindExists || u.Kind == KindLet || u.Kind == KindAnnot {
			return false
		}
		f(u)
		return true
	})
}

// mutate replaces a random ground subterm of asserts (a hole) by an application of an operator
// whose result has the hole's sort, with arguments from the pool or fresh literals; false when
// no hole can be filled.
func (p *typePool) mutate(r *rand.Rand, asserts []*Term) bool {
	type site struct {
		root int
		t    *Term
	}
	var holes []site
	fixed := map[*Term]bool{} // the bounds of re.range stay constant strings
	for i, a := range asserts {
		groundSubterms(a, func(t *Term) {
			if t.Kind == KindApp && t.Name == "re.range" {
				for _, b := range t.Args {
					fixed[b] = true
				}
			}
			if t.Sort != nil && len(p.sigs[t.Sort.String()]) > 0 && !fixed[t] {
				holes = append(holes, site{i, t})
			}
		})
	}
	for range 8 {
		if len(holes) == 0 {
			return false
		}
		h := holes[r.IntN(len(holes))]
		sigs := p.sigs[h.t.Sort.String()]
		sig := sigs[r.IntN(len(sigs))]
		args := make([]*Term, len(sig.args))
		for i, s := range sig.args {
			args[i] = p.argument(r, s)
			if sig.name == "re.range" { // solvers take constant bounds only
				args[i] = &Term{Kind: KindString, Lit: string(rune('0' + r.IntN(75))), Sort: StringSort}
			}
		}
		t := &Term{Kind: KindApp, Name: sig.name, Args: args}
		s, err := p.seed.Env.appSort(t, nil)
		if err != nil || !s.Equal(h.t.Sort) {
			continue
		}
		t.Sort = s
		if nt, ok := substitute(p.seed.Env, asserts[h.root], h.t, t); ok {
			asserts[h.root] = nt
			return true
		}
	}
	return false
}

// argument returns a pool term of sort s (a fresh literal one time in five, where the sort has
// literals).
func (p *typePool) argument(r *rand.Rand, s *Sort) *Term {
	ts := p.terms[s.String()]
	if r.IntN(5) == 0 || len(ts) == 0 {
		if literalSort(s) {
			if lit, err := ParseTerm(RandomValue(r, s).String()); err == nil {
				setSorts(lit, s)
				return lit
			}
		}
	}
	if len(ts) == 0 {
		return &Term{Kind: KindApp, Name: "false", Sort: BoolSort} // not reached: pool sorts have terms
	}
	return ts[r.IntN(len(ts))]
}
