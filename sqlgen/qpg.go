package sqlgen

import (
	"strconv"
	"strings"
	"sync"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Query plan guidance (Ba and Rigger, ICSE'23), Options.QPG: every case carries the plan of its
// query (RoleQPGPlan); the campaign hands each case's runs to [Generator.Observe], which keeps the
// signatures of the plans seen (Plan.Sig). When qpgStall cases of a row bring no new plan, the
// database of the setup they ran on is mutated: a statement is appended to the setup of its later
// cases (an index, a statistics refresh, a planner switch, or a DELETE), chosen at random with
// probability qpgRandom and otherwise the mutator with the best average reward. A mutator's reward
// is the share of new plans among the qpgWindow cases after it, averaged with weight qpgWeight.
//
// The queries themselves are generated as without guidance: guidance acts on the database, as in
// the paper. A guided case still holds every statement it ran (its setup includes the mutations),
// so it replays by its stored statements; but which mutations a setup received depends on the
// plans the engine chose for earlier cases, so that a guided campaign's case sequence is not a
// function of its seed alone, and a replay does not regenerate it.
const (
	qpgStall  = 10   // cases in a row without a new plan before the database is mutated
	qpgWindow = 10   // cases after a mutation that count for its reward
	qpgRandom = 0.7  // probability of a random mutator rather than the best one
	qpgWeight = 0.25 // weight of a new reward in a mutator's average
	qpgKeep   = 64   // setups whose mutations are kept (each worker is on one at a time)
	qpgMax    = 40   // mutations at most per setup
)

// Mutators of the database.
const (
	qpgIndex   = iota // CREATE INDEX on one or two columns of a table
	qpgAnalyze        // one of the dialect's maintenance statements (ANALYZE, VACUUM, ...)
	qpgKnob           // one of the planner switches a setup may run
	qpgDelete         // DELETE the rows of a table that a random predicate holds for
	qpgMutators
)

// guide is the state of query plan guidance; it is safe for concurrent use.
type guide struct {
	d     *dialect
	mu    sync.Mutex
	seen  map[string]bool
	stall int
	extra map[uint64][]string // setup seed: the mutations appended to its setup
	order []uint64            // the setup seeds of extra, oldest first
	// cur is the mutator being rewarded (-1: none), since the cases observed after it and fresh
	// the new plans among them.
	cur, since, fresh int
	reward            [qpgMutators]float64
	indexes           int // indexes created, for their names
}

func newGuide(d *dialect) *guide {
	return &guide{d: d, seen: map[string]bool{}, extra: map[uint64][]string{}, cur: -1}
}

// mutations returns the statements appended to the setup of setup seed ss.
func (q *guide) mutations(ss uint64) []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.extra[ss]
}

// Observe takes the runs of a case the generator made; with query plan guidance on
// (Options.QPG) it reads the plan of the case's query and mutates the database of its setup when
// plans stall. It implements fuzz.Guided.
func (g *Generator) Observe(c *fuzz.Case, runs []fuzz.Run) {
	q := g.guide
	if q == nil || c == nil {
		return
	}
	i := -1
	for k, qu := range c.Queries {
		if qu.Role == RoleQPGPlan {
			i = k
		}
	}
	if i < 0 {
		return
	}
	var sigs []string
	for _, run := range runs {
		if i < len(run.Results) && !run.Results[i].Failed() {
			if p, ok := g.d.readPlan(run.Results[i]); ok {
				sigs = append(sigs, p.Sig)
			}
		}
	}
	if len(sigs) == 0 {
		return
	}
	ss := fuzz.SetupSeed(c.Seed)
	st := g.setup(ss)
	q.mu.Lock()
	defer q.mu.Unlock()
	fresh := false
	for _, s := range sigs {
		if !q.seen[s] {
			q.seen[s], fresh = true, true
		}
	}
	if fresh {
		q.stall = 0
	} else {
		q.stall++
	}
	if q.cur >= 0 {
		q.since++
		if fresh {
			q.fresh++
		}
		if q.since >= qpgWindow {
			q.reward[q.cur] += qpgWeight * (float64(q.fresh)/float64(q.since) - q.reward[q.cur])
			q.cur = -1
		}
	}
	if q.stall < qpgStall || q.cur >= 0 || len(q.extra[ss]) >= qpgMax {
		return
	}
	r := newRNG(fuzz.Mix(ss^uint64(len(q.extra[ss]))^0x51c3_a7e9_0d2b_6f48), ss)
	m := r.intn(qpgMutators)
	if !r.prob(qpgRandom) {
		for k := range q.reward {
			if q.reward[k] > q.reward[m] {
				m = k
			}
		}
	}
	stmt := g.mutation(r, st, m, &q.indexes)
	if stmt == "" {
		return
	}
	if _, ok := q.extra[ss]; !ok {
		q.order = append(q.order, ss)
		if len(q.order) > qpgKeep {
			delete(q.extra, q.order[0])
			q.order = q.order[1:]
		}
	}
	q.extra[ss] = append(q.extra[ss], stmt)
	q.stall, q.cur, q.since, q.fresh = 0, m, 0, 0
}

// mutation returns a statement of mutator m over setup st, "" when the setup offers none.
func (g *Generator) mutation(r *rng, st *setup, m int, indexes *int) string {
	var tables []*rel
	for i := range st.rels {
		if st.rels[i].arms == nil {
			tables = append(tables, &st.rels[i])
		}
	}
	if len(tables) == 0 {
		return ""
	}
	t := pick(r, tables)
	switch m {
	case qpgIndex:
		perm := r.perm(len(t.cols))
		n := 1 + r.intn(min(2, len(t.cols)))
		cols := make([]string, n)
		for i := range cols {
			c := t.cols[perm[i]]
			cols[i] = c[strings.LastIndexByte(c, '.')+1:]
		}
		*indexes++
		return "CREATE INDEX qpg" + strconv.Itoa(*indexes) + " ON " + t.name + "(" + strings.Join(cols, ", ") + ")"
	case qpgAnalyze:
		if g.d.typed != nil {
			if len(g.d.typed.maintenance) == 0 {
				return ""
			}
			return strings.ReplaceAll(pick(r, g.d.typed.maintenance), "%t", t.name)
		}
		return pick(r, g.d.maintenance)
	case qpgKnob:
		var ks []string
		for _, k := range g.d.knobs {
			if k.setup || g.d.typed == nil {
				ks = append(ks, k.on, k.off)
			}
		}
		if len(ks) == 0 {
			return ""
		}
		return pick(r, ks)
	case qpgDelete:
		var b strings.Builder
		b.WriteString("DELETE FROM " + t.name + " WHERE ")
		g.predInto(r, &b, t.cols, t.types, 2)
		return b.String()
	}
	return ""
}
