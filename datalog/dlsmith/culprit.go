package dlsmith

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/reduce"
)

// Culprits rolls a transformation sequence that breaks its relation on an engine back to the
// steps responsible. Localization is a small set of steps that alone, replayed on the original
// graph, still breaks the relation; rollback the smallest set of steps whose removal from the
// whole sequence makes the break vanish. Both are confirmed on the engine: Breaks is one engine
// run, and Runs counts them.
type Culprits struct {
	Orig  *Graph
	Steps []Step
	// Breaks runs the engine on prog and reports whether its answer breaks expect, the relation
	// the replayed steps promise, against the engine's answer to the original program.
	Breaks func(ctx context.Context, prog *datalog.Program, expect datalog.Expect) bool
	// Runs counts the calls of Breaks; Ref the reference evaluations of the guided search.
	Runs, Ref int
	// replayed, when set, learns the indexes of the steps of each program before Breaks runs it.
	replayed func(idx []int)
}

// try replays the steps of keep and runs the engine on the result. A subset whose steps do not
// all apply, or that applies none, costs no engine run and is not a reproduction.
func (c *Culprits) try(ctx context.Context, keep []int) bool {
	if len(keep) == 0 || ctx.Err() != nil {
		return false
	}
	broken, ok := c.run(ctx, keep, true)
	return ok && broken
}

// run replays the steps of keep and runs the engine on the result: whether its answer breaks the
// relation, and false when there was nothing to run (the replayed graph makes no program, or,
// with all, a step of keep did not apply).
func (c *Culprits) run(ctx context.Context, keep []int, all bool) (broken, ok bool) {
	g, expect, applied := Replay(c.Orig, c.Steps, keep)
	if all && len(applied) != len(dedup(keep)) {
		return false, false
	}
	p, err := g.Program()
	if err != nil {
		return false, false
	}
	c.Runs++
	if c.replayed != nil {
		c.replayed(applied)
	}
	return c.Breaks(ctx, p, expect), true
}

// all returns the indexes of every step.
func (c *Culprits) all() []int {
	out := make([]int, len(c.Steps))
	for i := range out {
		out[i] = i
	}
	return out
}

// DDMin is the baseline: ddmin over the steps, each subset replayed and run on the engine. It
// returns a 1-minimal subset of steps that still breaks the relation, nil when the whole
// sequence does not.
func (c *Culprits) DDMin(ctx context.Context) []int {
	if !c.try(ctx, c.all()) {
		return nil
	}
	return reduce.DDMin(ctx, c.all(), func(sub []int) bool { return c.try(ctx, sub) })
}

// Guided localizes with the reference engine's provenance of the witnesses, the tuples on which
// the engine's two answers disagree: the relations on the proof trees of each witness, in the
// original and in the transformed program (and the relations each witness depends on, for a
// witness that neither derives), rank the steps by the relations they touch; each step, with the
// steps that made the nodes it needs, is then tried alone on the engine in rank order. The
// first of the best maxSingles that breaks the relation is the localization; when none does,
// ddmin runs over the ranked steps if they break it together, else over all. It returns nil when the whole sequence does not break the
// relation.
func (c *Culprits) Guided(ctx context.Context, witnesses []datalog.Tuple) []int {
	if !c.try(ctx, c.all()) {
		return nil
	}
	ranked := c.rank(witnesses)
	for _, cand := range ranked[:min(len(ranked), maxSingles)] {
		if ctx.Err() != nil {
			return nil
		}
		keep := c.needs(cand)
		if c.try(ctx, keep) {
			return keep
		}
	}
	test := func(sub []int) bool { return c.try(ctx, sub) }
	if len(ranked) < len(c.Steps) && c.try(ctx, ranked) {
		return reduce.DDMin(ctx, dedup(ranked), test)
	}
	return reduce.DDMin(ctx, c.all(), test)
}

// maxSingles bounds the steps the guided search tries alone before it falls back to ddmin.
const maxSingles = 12

// Rollback returns the smallest set of steps of loc whose removal from the whole sequence makes
// the break vanish on the engine: each step of loc alone, then loc whole; nil when removing loc
// is not enough (the break needs steps outside it as well, or a different combination).
func (c *Culprits) Rollback(ctx context.Context, loc []int) []int {
	for _, i := range loc {
		if c.vanishes(ctx, []int{i}) {
			return []int{i}
		}
	}
	if len(loc) > 1 && c.vanishes(ctx, loc) {
		return slices.Clone(loc)
	}
	return nil
}

// vanishes replays the sequence without the steps of drop (a later step that needed one of them
// is skipped with it) and reports whether the engine then keeps the relation.
func (c *Culprits) vanishes(ctx context.Context, drop []int) bool {
	if ctx.Err() != nil {
		return false
	}
	keep := slices.DeleteFunc(c.all(), func(i int) bool { return slices.Contains(drop, i) })
	broken, ok := c.run(ctx, keep, false)
	return ok && !broken
}

// rank returns the indexes of the steps relevant to a witness, most relevant first (later steps
// first among equals: they act on the graph the engine last saw). The reference's proof trees of
// each witness, in the transformed program and in the original, are read as incremental
// provenance over the sequence's update (the clauses the sequence added or removed): a step that
// last added a clause of a proof tree in the transformed program, or last removed one of a proof
// tree in the original, ranks first; then steps touching a relation of a proof tree (transformed,
// then original); then steps touching a relation a witness's relation depends on.
func (c *Culprits) rank(witnesses []datalog.Tuple) []int {
	score := make([]int, len(c.Steps))
	rel := c.relevance(witnesses, score)
	for i, s := range c.Steps {
		for _, r := range touched(s) {
			score[i] = max(score[i], rel[r])
		}
	}
	type cand struct{ i, s int }
	var cs []cand
	for i, s := range score {
		if s > 0 {
			cs = append(cs, cand{i, s})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].s != cs[b].s {
			return cs[a].s > cs[b].s
		}
		return cs[a].i > cs[b].i
	})
	out := make([]int, len(cs))
	for i, x := range cs {
		out[i] = x.i
	}
	return out
}

// Relevance scores.
const (
	scoreChanged = 4 // the step last changed a clause of a witness's proof tree
	scoreProof   = 3 // a relation of a proof tree in the transformed program
	scoreOrig    = 2 // a relation of a proof tree in the original program
	scoreCone    = 1 // a relation a witness's relation depends on
)

// relevance scores relations for the witnesses on the reference engine and raises in step the
// scores of the steps that changed a clause of a witness's proof tree (see rank).
func (c *Culprits) relevance(witnesses []datalog.Tuple, step []int) map[string]int {
	score := map[string]int{}
	note := func(rel string, s int) { score[rel] = max(score[rel], s) }
	added, removed := c.changes()
	trans, _, _ := Replay(c.Orig, c.Steps, c.all())
	for _, it := range []struct {
		g       *Graph
		s       int
		changed map[string]int
	}{{trans, scoreProof, added}, {c.Orig, scoreOrig, removed}} {
		p, err := it.g.Program()
		if err != nil {
			continue
		}
		c.Ref++
		m, err := datalog.Eval(p)
		if err != nil {
			continue
		}
		// A witness the reference does not derive is explained by its blockers: the tuples under
		// the negated atoms of its rules' instances whose positive atoms hold.
		explain := slices.Clone(witnesses)
		for _, t := range witnesses {
			if !m.Contains(t) {
				explain = append(explain, blockers(p, t)...)
			}
		}
		for _, t := range explain {
			for _, proof := range m.ExplainAll(t, 4) {
				walkProof(proof, func(rel string) { note(rel, it.s) })
				for _, r := range proof.Rules() {
					if i, ok := it.changed[p.Rules[r].String()]; ok {
						step[i] = scoreChanged
					}
				}
			}
		}
		for _, t := range witnesses {
			note(t.Rel, scoreCone)
			for rel := range it.g.Ancestors(t.Rel) {
				note(rel, scoreCone)
			}
		}
	}
	return score
}

// blockers returns the tuples that keep t out of p's model through one rule instance: for each
// rule of t's relation whose head matches t and each of its negated atoms, the tuples of that
// atom's relation that hold together with the rule's positive atoms and comparisons. It asks the
// reference engine once, with one rule per negated atom added to p.
func blockers(p *datalog.Program, t datalog.Tuple) []datalog.Tuple {
	q := p.Clone()
	var made []string // the added relations, each standing for a negated atom's relation
	var of []string
	for _, r := range p.Rules {
		if r.Head.Rel != t.Rel || len(r.Head.Args) != len(t.Args) {
			continue
		}
		sub, ok := unify(r.Head.Args, t.Args)
		if !ok {
			continue
		}
		for _, n := range r.Body {
			if !n.Negated {
				continue
			}
			rel := p.Relation(n.Rel)
			name := freshRelName(q, "whynot")
			q.Relations = append(q.Relations, datalog.Relation{Name: name, Attrs: slices.Clone(rel.Attrs)})
			w := datalog.Rule{Head: datalog.Atom{Rel: name}, Constraints: substConstraints(r.Constraints, sub)}
			fresh := 0
			for _, a := range n.Args {
				a = subst(a, sub)
				if a.Kind == datalog.Anon {
					a = datalog.V("Whynot" + strconv.Itoa(fresh))
					fresh++
				}
				w.Head.Args = append(w.Head.Args, a)
			}
			for _, b := range r.Body {
				if !b.Negated {
					w.Body = append(w.Body, datalog.Atom{Rel: b.Rel, Args: substAll(b.Args, sub)})
				}
			}
			w.Body = append(w.Body, datalog.Atom{Rel: n.Rel, Args: w.Head.Args})
			q.Rules = append(q.Rules, w)
			made, of = append(made, name), append(of, n.Rel)
		}
	}
	if len(made) == 0 || q.Check() != nil {
		return nil
	}
	m, err := datalog.EvalContext(context.Background(), q, 100000)
	if err != nil {
		return nil
	}
	var out []datalog.Tuple
	for i, name := range made {
		for _, tu := range m.Tuples(name) {
			out = append(out, datalog.Tuple{Rel: of[i], Args: tu.Args})
		}
	}
	return out
}

// unify binds the variables of head to the constants of t; false when a constant or a repeated
// variable disagrees.
func unify(head, t []datalog.Term) (map[string]datalog.Term, bool) {
	sub := map[string]datalog.Term{}
	for i, a := range head {
		switch a.Kind {
		case datalog.Var:
			if b, ok := sub[a.Name]; ok && !termsEqual([]datalog.Term{b}, []datalog.Term{t[i]}) {
				return nil, false
			}
			sub[a.Name] = t[i]
		default:
			if !termsEqual([]datalog.Term{a}, []datalog.Term{t[i]}) {
				return nil, false
			}
		}
	}
	return sub, true
}

// subst replaces a bound variable by its constant.
func subst(a datalog.Term, sub map[string]datalog.Term) datalog.Term {
	if a.Kind == datalog.Var {
		if c, ok := sub[a.Name]; ok {
			return c
		}
	}
	return a
}

// substAll substitutes every term of ts.
func substAll(ts []datalog.Term, sub map[string]datalog.Term) []datalog.Term {
	out := make([]datalog.Term, len(ts))
	for i, a := range ts {
		out[i] = subst(a, sub)
	}
	return out
}

// substConstraints substitutes the operands of cs.
func substConstraints(cs []datalog.Constraint, sub map[string]datalog.Term) []datalog.Constraint {
	out := slices.Clone(cs)
	for i := range out {
		out[i].Left, out[i].Right = subst(out[i].Left, sub), subst(out[i].Right, sub)
	}
	return out
}

// freshRelName returns prefix followed by the smallest number that names no relation of p.
func freshRelName(p *datalog.Program, prefix string) string {
	for i := 0; ; i++ {
		if n := prefix + strconv.Itoa(i); p.Relation(n) == nil {
			return n
		}
	}
}

// changes returns the sequence's update as clauses: each clause (rule or fact, printed) of the
// transformed program that the original lacks, with the step that last added it, and each clause
// of the original that the transformed program lacks, with the step that last removed it.
func (c *Culprits) changes() (added, removed map[string]int) {
	clauses := func(g *Graph) map[string]bool {
		out := map[string]bool{}
		if p, err := g.Program(); err == nil {
			for _, r := range p.Rules {
				out[r.String()] = true
			}
		}
		return out
	}
	first := clauses(c.Orig)
	added, removed = map[string]int{}, map[string]int{}
	g, prev := c.Orig, first
	for i := range c.Steps {
		g, _, _ = Replay(g, c.Steps, []int{i})
		cur := clauses(g)
		for k := range cur {
			if !prev[k] {
				added[k] = i
			}
		}
		for k := range prev {
			if !cur[k] {
				removed[k] = i
			}
		}
		prev = cur
	}
	for k := range added {
		if !prev[k] || first[k] {
			delete(added, k)
		}
	}
	for k := range removed {
		if prev[k] || !first[k] {
			delete(removed, k)
		}
	}
	return added, removed
}

// walkProof calls f with the relation of every tuple of the proof tree, negated ones included.
func walkProof(p *datalog.Proof, f func(string)) {
	f(p.Tuple.Rel)
	for _, n := range p.Negated {
		f(n.Rel)
	}
	for _, b := range p.Body {
		walkProof(b, f)
	}
}

// touched returns the relations step s changes or reads: its node, the node it creates, and the
// relations of the edges it adds or deletes.
func touched(s Step) []string {
	out := []string{s.Node}
	if s.Created != "" {
		out = append(out, s.Created)
	}
	for _, e := range append(slices.Clone(s.Add), s.Del...) {
		out = append(out, e.From, e.To)
	}
	return out
}

// needs returns step i with the earlier steps that made the nodes it refers to, transitively, in
// order.
func (c *Culprits) needs(i int) []int {
	made := map[string]int{}
	for j, s := range c.Steps {
		if j >= i {
			break
		}
		if s.Created != "" {
			made[s.Created] = j
		}
		if s.Attrs != nil && s.Created == "" {
			made[s.Node] = j
		}
	}
	keep := map[int]bool{}
	var visit func(int)
	visit = func(k int) {
		if keep[k] {
			return
		}
		keep[k] = true
		for _, rel := range touched(c.Steps[k]) {
			if j, ok := made[rel]; ok && j < k {
				visit(j)
			}
		}
	}
	visit(i)
	var out []int
	for k := range keep {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// dedup returns the distinct indexes of keep.
func dedup(keep []int) []int {
	out := slices.Clone(keep)
	slices.Sort(out)
	return slices.Compact(out)
}

// symmetricDiff returns the rows in exactly one of a and b.
func symmetricDiff(a, b [][]string) [][]string {
	key := func(r []string) string { return strings.Join(r, "\x1f") }
	in := func(rows [][]string) map[string]bool {
		m := map[string]bool{}
		for _, r := range rows {
			m[key(r)] = true
		}
		return m
	}
	ina, inb := in(a), in(b)
	var out [][]string
	for _, r := range a {
		if !inb[key(r)] {
			out = append(out, r)
		}
	}
	for _, r := range b {
		if !ina[key(r)] {
			out = append(out, r)
		}
	}
	return out
}
