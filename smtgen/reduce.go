package smtgen

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/reduce"
)

// Reducer shrinks SMT cases while the oracle still fires, keeping the case's model a certificate
// at every step: ddmin over the commands after the declarations (assertions, push, pop,
// check-sat; any subset of by-construction assertions stays satisfiable), then, inside each
// assertion, top-down replacement of a subterm by one of its children with the same value under
// the model or by the literal of its value. Every candidate is evaluated under the model before it
// is run; finally declarations no assertion uses are dropped. A mutant (opfuzz, typefuzz) has no
// model: any subterm may take the place of its parent of the same sort. An option-fuzzing case
// also loses the fuzzed options it does not need, and its default query is rebuilt from every
// candidate ([RebuildOptionCase]).
type Reducer struct{}

// NewReducer returns the SMT reducer.
func NewReducer() *Reducer { return &Reducer{} }

// reduction is the state of one reduction: the instance split into header and body commands.
type reduction struct {
	c      *fuzz.Case
	header []*Command // set-option, set-logic, declarations
	body   []*Command // assert, push, pop, check-sat...
	model  *Model
	env    *Env
	values bool // the case has a model query, rebuilt for every candidate
}

// Reduce returns a smaller case for which keep holds, or c itself.
func (rd *Reducer) Reduce(ctx context.Context, c *fuzz.Case, keep func(context.Context, *fuzz.Case) bool) (*fuzz.Case, error) {
	p, err := readCase(c)
	if err != nil {
		return c, err
	}
	r := &reduction{c: c, env: p.env}
	_, r.values = c.Query(RoleModel)
	if text, ok := c.Params[ParamModel]; ok { // mutants have none
		if m, err := ParseModelText(text, p.env); err == nil {
			r.model = m
		}
	}
	inBody := false
	for _, cmd := range p.script.Commands {
		switch {
		case cmd.Name == "get-value":
		case cmd.Name == "assert" || cmd.Name == "push":
			inBody = true
			r.body = append(r.body, cmd)
		case inBody:
			r.body = append(r.body, cmd)
		default:
			r.header = append(r.header, cmd)
		}
	}
	if len(r.body) == 0 {
		return c, errors.New("the instance asserts nothing")
	}
	best := c
	try := func(body []*Command) bool {
		if !r.valid(body) {
			return false
		}
		cand := r.build(r.header, body)
		if keep(ctx, cand) {
			r.body, best = body, cand
			return true
		}
		return false
	}
	// A flat instance first: the assertions in scope at the last check-sat, and that check-sat.
	if flat := r.flatten(); len(flat) < len(r.body) {
		try(flat)
	}
	reduce.DDMin(ctx, r.body, func(body []*Command) bool { return try(body) })
	r.shrinkTerms(ctx, try)
	// Declarations no assertion uses.
	if h := r.usedHeader(); len(h) < len(r.header) {
		if cand := r.build(h, r.body); keep(ctx, cand) {
			r.header, best = h, cand
		}
	}
	// Fuzzed options the finding does not need (option fuzzing), one at a time.
	for i := 0; i < len(r.header) && ctx.Err() == nil; i++ {
		if !fuzzedOption(c, r.header[i]) {
			continue
		}
		h := slices.Delete(slices.Clone(r.header), i, i+1)
		if cand := r.build(h, r.body); keep(ctx, cand) {
			r.header, best = h, cand
			i--
		}
	}
	return best, nil
}

// valid reports whether body pops no more than it pushed, checks at least once, and (when there is
// a model) asserts only formulas true under it.
func (r *reduction) valid(body []*Command) bool {
	level, checks := 0, 0
	for _, c := range body {
		switch c.Name {
		case "push":
			level += max(c.Arity, 1)
		case "pop":
			level -= max(c.Arity, 1)
			if level < 0 {
				return false
			}
		case "check-sat", "check-sat-using":
			checks++
		case "assert":
			if r.model != nil && r.c.Params[ParamExpect] != ExpectUnsat { // unsat: the oracle's certificate decides
				if v, ok := r.model.Truth(ExpandLets(c.Terms[0])); !ok || !v {
					return false
				}
			}
		}
	}
	return checks > 0
}

// flatten returns the assertions in scope at the last check-sat followed by that check-sat.
func (r *reduction) flatten() []*Command {
	var stack [][]*Command
	var cur, out []*Command
	for _, c := range r.body {
		switch c.Name {
		case "assert":
			cur = append(cur, c)
		case "push":
			for range max(c.Arity, 1) {
				stack = append(stack, cur)
				cur = append([]*Command(nil), cur...)
			}
		case "pop":
			for range max(c.Arity, 1) {
				if len(stack) > 0 {
					cur, stack = stack[len(stack)-1], stack[:len(stack)-1]
				}
			}
		case "check-sat", "check-sat-using":
			out = append(append([]*Command(nil), cur...), c)
		}
	}
	return out
}

// build prints a candidate case from header and body commands.
func (r *reduction) build(header, body []*Command) *fuzz.Case {
	var b strings.Builder
	for _, c := range header {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	var asserts []*Term
	for i, c := range body {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c.String())
		if c.Name == "assert" {
			asserts = append(asserts, ExpandLets(c.Terms[0]))
		}
	}
	d := r.c.Clone()
	d.Queries = []fuzz.Query{{Role: RoleInstance, Text: b.String()}}
	if r.values {
		declared := map[string]bool{}
		for _, c := range header {
			declared[c.Symbol] = true
		}
		vt := valueTerms(r.env, asserts)
		vt = slices.DeleteFunc(vt, func(t *Term) bool { return len(t.Args) == 0 && !declared[t.Name] })
		if len(vt) > 0 {
			d.Queries = append(d.Queries, fuzz.Query{Role: RoleModel, Text: strings.TrimSuffix(getValue(vt), "\n")})
		}
	}
	RebuildOptionCase(d)
	return d
}

// shrinkTerms replaces subterms of each assertion, top-down, by a child of the same sort and the
// same value under the model, or by the literal of their value, while try accepts.
func (r *reduction) shrinkTerms(ctx context.Context, try func([]*Command) bool) {
	if _, ok := r.c.Params[ParamModel]; ok && r.model == nil {
		return
	}
	for progress := true; progress && ctx.Err() == nil; {
		progress = false
		for i := 0; i < len(r.body) && ctx.Err() == nil; i++ {
			if r.body[i].Name != "assert" {
				continue
			}
			for _, cand := range r.candidates(ExpandLets(r.body[i].Terms[0])) {
				if ctx.Err() != nil {
					return
				}
				body := append([]*Command(nil), r.body...)
				body[i] = &Command{Name: "assert", Terms: []*Term{cand}}
				if try(body) {
					progress = true
					break
				}
			}
		}
	}
}

// candidates lists replacements of root: for each node in breadth-first order, the term with
// that node replaced by a child of equal sort and value, or by its value's literal.
func (r *reduction) candidates(root *Term) []*Term {
	var out []*Term
	seen := map[*Term]bool{}
	queue := []*Term{root}
	for len(queue) > 0 && len(out) < 2000 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		if n.Kind == KindForall || n.Kind == KindExists {
			continue
		}
		// Children, then grandchildren ((not (not x)) becomes x), of the same sort (and value,
		// when the case has a model: without one, a mutant's, any).
		var below []*Term
		for _, a := range n.Args {
			below = append(below, a)
		}
		for _, a := range n.Args {
			below = append(below, a.Args...)
		}
		if r.model == nil {
			for _, a := range below {
				if a.Sort.Equal(n.Sort) && a.Kind != KindLet && a.Kind != KindForall && a.Kind != KindExists {
					out = append(out, replace(root, n, a))
				}
			}
			queue = append(queue, n.Args...)
			continue
		}
		v, err := r.model.Eval(n)
		if err == nil {
			for _, a := range below {
				if a.Sort.Equal(n.Sort) && a.Kind != KindLet && a.Kind != KindForall && a.Kind != KindExists {
					if w, err := r.model.Eval(a); err == nil && Equal(v, w) {
						out = append(out, replace(root, n, a))
					}
				}
			}
			if !isLiteral(n) && literalSort(n.Sort) {
				if lit, err := ParseTerm(v.String()); err == nil {
					setSorts(lit, n.Sort)
					out = append(out, replace(root, n, lit))
				}
			}
		}
		queue = append(queue, n.Args...)
	}
	return out
}

// isLiteral reports whether t is a constant literal (or true/false, or a negated numeral).
func isLiteral(t *Term) bool {
	switch t.Kind {
	case KindNumeral, KindDecimal, KindHex, KindBinary, KindString:
		return true
	case KindApp:
		if len(t.Args) == 0 {
			return t.Name == "true" || t.Name == "false" || strings.HasPrefix(t.Name, "bv") && len(t.Index) == 1
		}
		return (t.Name == "-" || t.Name == "/") && allLiterals(t.Args)
	}
	return false
}

func allLiterals(ts []*Term) bool {
	for _, t := range ts {
		if !isLiteral(t) {
			return false
		}
	}
	return true
}

// literalSort reports whether values of s print as literals the reducer can put in a term.
func literalSort(s *Sort) bool {
	switch s.Name {
	case "Bool", "Int", "Real", "BitVec", "String":
		return true
	}
	return false
}

// setSorts gives a parsed literal of sort s (5, (- 5), (/ 1 3), #b101, "a") its sorts.
func setSorts(t *Term, s *Sort) {
	t.Sort = s
	for _, a := range t.Args {
		setSorts(a, s)
	}
}

// replace returns root with every occurrence of old replaced by new, copying only the paths to it.
func replace(root, old, new *Term) *Term {
	return rewrite(root, func(t *Term) *Term {
		if t == old {
			return new
		}
		return t
	})
}

// usedHeader returns the header without declarations and definitions that no body command uses
// (directly or through a kept definition).
func (r *reduction) usedHeader() []*Command {
	used := map[string]bool{}
	var mark func(t *Term)
	mark = func(t *Term) {
		if t.Kind == KindApp {
			used[t.Name] = true
		}
		for _, a := range t.Args {
			mark(a)
		}
		for _, b := range t.Binds {
			if b.Term != nil {
				mark(b.Term)
			}
		}
	}
	for _, c := range r.body {
		for _, t := range c.Terms {
			mark(t)
		}
	}
	for i := len(r.header) - 1; i >= 0; i-- {
		if c := r.header[i]; c.Name == "define-fun" && used[c.Symbol] {
			for _, t := range c.Terms {
				mark(t)
			}
		}
	}
	var out []*Command
	for _, c := range r.header {
		switch c.Name {
		case "declare-fun", "declare-const", "define-fun":
			if !used[c.Symbol] {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}
