package datalog

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/reduce"
)

// Reducer shrinks a Datalog case, its original and transformed programs together, while the
// finding persists. Its unit is a clause (a fact or a rule): a clause both programs share is kept
// or dropped in both, and the clauses only one program has (the transformed rule and its helper
// relation) are kept, so the pair stays a transformation of one program. A candidate pair whose
// reference answers break the case's expected relation is never run on the engine.
//
// Guided by a finding's runs, it first looks for a tuple the engine misses and the reference
// derives and keeps only the clauses of the reference's proof trees of that tuple (the
// provenance-guided step); then ddmin removes what is left to remove, each step re-checked on
// the engine; last, body literals of the kept shared rules go one at a time while the finding
// stays. With Plain set it skips the provenance step, for comparison. Stats counts the work.
type Reducer struct {
	Plain bool
	// Stats, when set, receives the engine runs (keep calls) and the sizes before and after.
	Stats *ReduceStats
}

// ReduceStats is what a reduction cost and achieved.
type ReduceStats struct {
	EngineRuns int // candidates run on the engine (keep calls)
	RefRuns    int // candidates evaluated by the reference engine
	Before     int // clauses of the case's programs before
	After      int // clauses after
	Literals   int // body literals (atoms and comparisons) of the kept shared rules after
	Guided     bool
	// Focus is the tuple whose proof trees guided the reduction, if any.
	Focus string
}

// NewReducer returns a provenance-guided reducer.
func NewReducer() *Reducer { return &Reducer{} }

// Reduce shrinks c without evidence: ddmin over the shared clauses.
func (r *Reducer) Reduce(ctx context.Context, c *fuzz.Case, keep func(context.Context, *fuzz.Case) bool) (*fuzz.Case, error) {
	return r.ReduceGuided(ctx, c, nil, keep)
}

// ReduceGuided shrinks c using the finding's runs to pick a discrepant tuple.
func (r *Reducer) ReduceGuided(ctx context.Context, c *fuzz.Case, evidence *fuzz.Finding,
	keep func(context.Context, *fuzz.Case) bool) (*fuzz.Case, error) {
	st := r.Stats
	if st == nil {
		st = &ReduceStats{}
	}
	ps, err := newPairSet(c)
	if err != nil {
		return c, nil // not a case of canonical programs: nothing to do
	}
	st.Before = ps.size(ps.all())
	try := func(kept []int) bool {
		cand, ok := ps.build(kept)
		if !ok {
			return false
		}
		st.RefRuns++
		if !ps.relationHolds(cand) {
			return false
		}
		st.EngineRuns++
		return keep(ctx, ps.toCase(cand))
	}
	cur := ps.all()
	if !r.Plain && evidence != nil {
		for _, focus := range ps.foci(evidence) {
			if ctx.Err() != nil {
				break
			}
			if !slices.ContainsFunc(cur, func(i int) bool { return !slices.Contains(focus.clauses, i) }) {
				continue // the proof keeps everything: no help
			}
			if try(focus.clauses) {
				cur, st.Guided, st.Focus = focus.clauses, true, focus.tuple
				break
			}
			// The engine needs more than the proof: keep the proof, ddmin the rest.
			rest := subtract(cur, focus.clauses)
			if len(rest) > 0 {
				extra := reduce.DDMin(ctx, rest, func(sub []int) bool { return try(union(focus.clauses, sub)) })
				if next := union(focus.clauses, extra); len(next) < len(cur) && try(next) {
					cur, st.Guided, st.Focus = next, true, focus.tuple
					break
				}
			}
		}
	}
	cur = reduce.DDMin(ctx, cur, try)
	ps.shrinkLiterals(ctx, cur, try)
	st.After = ps.size(cur)
	st.Literals = ps.literals(cur)
	cand, ok := ps.build(cur)
	if !ok {
		return c, nil
	}
	return ps.toCase(cand), nil
}

// pairSet is a case's programs cut into clauses: clause i is shared by every program, or owned
// by one program only (fixed: never dropped).
type pairSet struct {
	c       *fuzz.Case
	headers []string   // each program's leading comment lines, kept verbatim
	progs   []*Program // the parsed programs, in query order
	texts   []string   // clause texts; shared ones first
	shared  int        // texts[:shared] are in every program
	// rules[i] is shared clause i as it stands now: the literal pass shrinks it in every program.
	rules []Rule
	// owner[q][j] is the clause index of rule j of program q.
	owner [][]int
}

func newPairSet(c *fuzz.Case) (*pairSet, error) {
	ps := &pairSet{c: c}
	count := map[string]int{}
	for _, q := range c.Queries {
		p, err := Parse(q.Role, q.Text)
		if err != nil {
			return nil, err
		}
		ps.progs = append(ps.progs, p)
		ps.headers = append(ps.headers, leadingComments(q.Text))
		seen := map[string]bool{}
		for _, r := range p.Rules {
			if t := r.String(); !seen[t] {
				seen[t] = true
				count[t]++
			}
		}
	}
	index := map[string]int{}
	add := func(t string) {
		if _, ok := index[t]; !ok {
			index[t] = len(ps.texts)
			ps.texts = append(ps.texts, t)
		}
	}
	for _, p := range ps.progs { // shared clauses first, in the first program's order
		for _, r := range p.Rules {
			if t := r.String(); count[t] == len(ps.progs) {
				add(t)
			}
		}
	}
	ps.shared = len(ps.texts)
	for _, t := range ps.texts {
		for _, r := range ps.progs[0].Rules {
			if r.String() == t {
				ps.rules = append(ps.rules, r)
				break
			}
		}
	}
	for _, p := range ps.progs {
		for _, r := range p.Rules {
			add(r.String())
		}
	}
	for _, p := range ps.progs {
		own := make([]int, len(p.Rules))
		for j, r := range p.Rules {
			own[j] = index[r.String()]
		}
		ps.owner = append(ps.owner, own)
	}
	return ps, nil
}

// all returns the indexes of the shared clauses: the reducible ones.
func (ps *pairSet) all() []int {
	out := make([]int, ps.shared)
	for i := range out {
		out[i] = i
	}
	return out
}

// size is the number of clauses of all programs when the shared ones in kept stay.
func (ps *pairSet) size(kept []int) int {
	n := len(kept) * len(ps.progs)
	for _, own := range ps.owner {
		for _, i := range own {
			if i >= ps.shared {
				n++
			}
		}
	}
	return n
}

// build returns the programs with only the shared clauses in kept (and every fixed clause), with
// unused relations dropped; false if a program no longer parses.
func (ps *pairSet) build(kept []int) ([]*Program, bool) {
	keepSet := make([]bool, len(ps.texts))
	for _, i := range kept {
		keepSet[i] = true
	}
	out := make([]*Program, len(ps.progs))
	for q, p := range ps.progs {
		np := &Program{File: p.File}
		used := map[string]bool{}
		for j, r := range p.Rules {
			if i := ps.owner[q][j]; i >= ps.shared || keepSet[i] {
				if i < ps.shared {
					r = ps.rules[i]
				}
				np.Rules = append(np.Rules, r)
				used[r.Head.Rel] = true
				for _, a := range r.Body {
					used[a.Rel] = true
				}
			}
		}
		for _, rel := range p.Relations {
			if rel.Output || used[rel.Name] {
				np.Relations = append(np.Relations, rel)
			}
		}
		if _, err := Parse(p.File, np.String()); err != nil {
			return nil, false
		}
		out[q] = np
	}
	return out, true
}

// shrinkLiterals drops body literals (atoms, negated atoms, comparisons) of the kept shared rules,
// one at a time and in every program at once, while try accepts the result, until none can go.
func (ps *pairSet) shrinkLiterals(ctx context.Context, kept []int, try func([]int) bool) {
	for progress := true; progress && ctx.Err() == nil; {
		progress = false
		for _, i := range kept {
			for k := 0; k < bodyLen(ps.rules[i]) && ctx.Err() == nil; {
				old := ps.rules[i]
				ps.rules[i] = withoutLiteral(old, k)
				if try(kept) {
					progress = true
					continue // the next literal now has index k
				}
				ps.rules[i] = old
				k++
			}
		}
	}
}

// literals counts the body literals of the kept shared rules.
func (ps *pairSet) literals(kept []int) int {
	n := 0
	for _, i := range kept {
		n += bodyLen(ps.rules[i])
	}
	return n
}

func bodyLen(r Rule) int { return len(r.Body) + len(r.Constraints) }

// withoutLiteral returns r without its k-th body literal (atoms first, then comparisons).
func withoutLiteral(r Rule, k int) Rule {
	if k < len(r.Body) {
		r.Body = slices.Delete(slices.Clone(r.Body), k, k+1)
	} else {
		r.Constraints = slices.Delete(slices.Clone(r.Constraints), k-len(r.Body), k-len(r.Body)+1)
	}
	return r
}

// relationHolds reports whether the reference answers of a candidate pair stand in the case's
// expected relation (always true for a case that is not a transformation pair).
func (ps *pairSet) relationHolds(progs []*Program) bool {
	oi, ti := -1, -1
	for i, q := range ps.c.Queries {
		switch q.Role {
		case RoleOrig:
			oi = i
		case RoleTrans:
			ti = i
		}
	}
	rel := ps.c.Params[ParamExpect]
	if oi < 0 || ti < 0 || rel == "" {
		return true
	}
	a, err1 := Eval(progs[oi])
	b, err2 := Eval(progs[ti])
	if err1 != nil || err2 != nil {
		return false
	}
	orig, trans := rowSet(a.Output()), rowSet(b.Output())
	sub := func(x, y map[string]bool) bool {
		for k := range x {
			if !y[k] {
				return false
			}
		}
		return true
	}
	switch rel {
	case "subset":
		return sub(orig, trans)
	case "superset":
		return sub(trans, orig)
	}
	return sub(orig, trans) && sub(trans, orig)
}

func (ps *pairSet) toCase(progs []*Program) *fuzz.Case {
	d := ps.c.Clone()
	for i, p := range progs {
		d.Queries[i].Text = ps.headers[i] + p.String()
	}
	return d
}

// focus is a tuple an engine gets wrong and the clauses of one of the reference's proofs of it.
type focus struct {
	tuple   string
	clauses []int // shared clause indexes
}

// maxFoci bounds the proof trees tried, as the provenance paper bounds its search.
const maxFoci = 4

// foci returns, for the tuples the engines of evidence miss and the reference derives, the shared
// clauses of the reference's proof trees, smallest first.
func (ps *pairSet) foci(evidence *fuzz.Finding) []focus {
	ec := evidence.Case
	if ec == nil {
		return nil
	}
	var out []focus
	for qi, q := range ec.Queries {
		pi := slices.IndexFunc(ps.c.Queries, func(x fuzz.Query) bool { return x.Role == q.Role })
		if pi < 0 {
			continue
		}
		p, err := Parse(q.Role, q.Text)
		if err != nil {
			continue
		}
		m, err := Eval(p)
		if err != nil {
			continue
		}
		for _, run := range evidence.Runs {
			if qi >= len(run.Results) || run.Results[qi].Failed() {
				continue
			}
			got := rowSet(run.Results[qi].Rows)
			for _, row := range m.Output() {
				if got[strings.Join(row, "\x1f")] {
					continue
				}
				t, ok := rowTuple(row)
				if !ok {
					continue
				}
				for _, proof := range m.ExplainAll(t, 2) {
					out = append(out, ps.focusOf(pi, p, proof, t))
				}
				if len(out) >= maxFoci {
					break
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b focus) int { return len(a.clauses) - len(b.clauses) })
	return slices.CompactFunc(out, func(a, b focus) bool { return slices.Equal(a.clauses, b.clauses) })
}

// focusOf maps the rules of proof, over program p (query pi of the reduced case), to shared
// clause indexes.
func (ps *pairSet) focusOf(pi int, p *Program, proof *Proof, t Tuple) focus {
	f := focus{tuple: t.String()}
	for _, j := range proof.Rules() {
		text := p.Rules[j].String()
		if i := slices.Index(ps.texts, text); i >= 0 && i < ps.shared {
			f.clauses = append(f.clauses, i)
		}
	}
	slices.Sort(f.clauses)
	f.clauses = slices.Compact(f.clauses)
	return f
}

// rowTuple turns an answer row [rel, canonical values...] back into a tuple.
func rowTuple(row []string) (Tuple, bool) {
	if len(row) == 0 {
		return Tuple{}, false
	}
	t := Tuple{Rel: row[0]}
	for _, v := range row[1:] {
		switch {
		case strings.HasPrefix(v, "i:"):
			n, err := strconv.ParseInt(v[2:], 10, 64)
			if err != nil {
				return Tuple{}, false
			}
			t.Args = append(t.Args, N(n))
		case strings.HasPrefix(v, "t:"):
			t.Args = append(t.Args, S(v[2:]))
		default:
			return Tuple{}, false
		}
	}
	return t, true
}

func rowSet(rows [][]string) map[string]bool {
	m := make(map[string]bool, len(rows))
	for _, r := range rows {
		m[strings.Join(r, "\x1f")] = true
	}
	return m
}

// leadingComments returns the comment lines at the top of a program's text, each with its
// newline.
func leadingComments(text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

func subtract(a, b []int) []int {
	var out []int
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func union(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
