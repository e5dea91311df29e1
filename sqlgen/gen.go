package sqlgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Salts that separate the setup and query random streams.
const (
	setupSalt = 0x5e7b_9d1c_a3f0_4e21
	querySalt = 0x9a71_c0de_2b4f_6e83
)

// cacheSize is how many setups the generator keeps; each worker walks one setup at a time.
const cacheSize = 64

// Generator makes SQL cases: a setup (schema and data) shared by consecutive seeds, and the
// queries of the chosen oracles' layouts around one random predicate. It is safe for concurrent
// use.
type Generator struct {
	o     Options // normalized
	d     *dialect
	gen   string
	norec bool
	pqs   bool
	// dqe and eet say whether cases carry the DQE and EET layouts.
	dqe, eet bool
	// fams are the TLP layouts each case carries (of tlpLayouts), in the order of the oracles.
	fams   []*fuzz.Layout
	setups *fuzz.SetupCache[*setup]
	// dqp, cert and plans say whether cases carry the DQP, CERT and QPG layouts (plans.go);
	// guide is the query plan guidance of Options.QPG (qpg.go), nil without it.
	dqp, cert, plans bool
	guide            *guide
	// codd says whether cases carry the CODDTest layout (codd.go); staged whether they carry
	// nothing else but the first stages of PQS and CODDTest.
	codd, staged bool
}

// New returns a generator for the options, or an error naming the valid choices when the dialect
// or an oracle is unknown or a bound is out of range.
func New(o Options) (*Generator, error) {
	n := o.normalized()
	if err := n.validate(); err != nil {
		return nil, err
	}
	if slices.Contains(n.Oracles, OraclePQS) && pqsEvaluator(n.Dialect, false) == nil {
		return nil, fmt.Errorf("sqlgen: the pqs oracle has an expression evaluator for the sqlite, postgres and duckdb dialects only, not %s", n.Dialect)
	}
	base := dialects[n.Dialect]
	e, err := parseEngine(base, n.Engine)
	if err != nil {
		return nil, fmt.Errorf("sqlgen: options: engine=%s: %w", n.Engine, err)
	}
	d := base.forEngine(e)
	if slices.Contains(n.Oracles, OracleDQE) && d.typed != nil && d.typed.noRollback {
		return nil, fmt.Errorf("sqlgen: the dqe oracle runs UPDATE and DELETE in transactions it rolls back, which the %s dialect's engine cannot: use another oracle there (eet checks its queries)", n.Dialect)
	}
	if slices.Contains(n.Oracles, OracleCERT) && !HasEstimates(n.Dialect) {
		var with []string
		for _, name := range dialectNames() {
			if HasEstimates(name) {
				with = append(with, name)
			}
		}
		why := "the " + n.Dialect + " dialect's engines give none"
		if n.Dialect == "common" {
			why = "several engines share no EXPLAIN"
		}
		return nil, fmt.Errorf("sqlgen: the cert oracle needs the row estimates of an engine's EXPLAIN, and %s: use one engine of the %s dialect alone", why, strings.Join(with, ", "))
	}
	if slices.Contains(n.Oracles, OracleDQP) && len(d.knobs)+len(d.hints) == 0 {
		return nil, fmt.Errorf("sqlgen: the dqp oracle needs plan variants (hints or planner settings), and the %s dialect has none: use another oracle there", n.Dialect)
	}
	g := &Generator{
		o:      n,
		d:      d,
		gen:    n.String(),
		norec:  slices.Contains(n.Oracles, OracleNoREC),
		pqs:    slices.Contains(n.Oracles, OraclePQS),
		dqe:    slices.Contains(n.Oracles, OracleDQE),
		eet:    slices.Contains(n.Oracles, OracleEET),
		fams:   tlpFamilies(n.Oracles),
		setups: fuzz.NewSetupCache[*setup](cacheSize),
		dqp:    slices.Contains(n.Oracles, OracleDQP) && len(d.knobs)+len(d.hints) > 0,
		cert:   slices.Contains(n.Oracles, OracleCERT), // refused above where plans have no estimates
		plans:  (slices.Contains(n.Oracles, OracleQPG) || n.QPG) && d.readPlan != nil,
		codd:   slices.Contains(n.Oracles, OracleCODD),
		staged: !slices.ContainsFunc(n.Oracles, func(o string) bool { return o != OraclePQS && o != OracleCODD }),
	}
	if n.QPG && g.plans {
		g.guide = newGuide(d)
	}
	return g, nil
}

// Options returns the generator's options with defaults applied.
func (g *Generator) Options() Options {
	o := g.o
	o.Oracles = append([]string(nil), g.o.Oracles...)
	return o
}

// CasesPerSetup returns Options.QueriesPerDB: how many consecutive cases share one setup.
func (g *Generator) CasesPerSetup() int { return g.o.QueriesPerDB }

// tlpFamilies returns the TLP layouts of the oracles, in order.
func tlpFamilies(oracles []string) []*fuzz.Layout {
	var out []*fuzz.Layout
	for _, o := range oracles {
		if l := oracleLayouts[o]; slices.Contains(tlpLayouts, l) {
			out = append(out, l)
		}
	}
	return out
}

// Generate returns the case for seed. The setup depends only on fuzz.SetupSeed(seed), the queries
// on the whole seed; the same seed always gives the same case.
func (g *Generator) Generate(seed uint64) (*fuzz.Case, error) {
	st := g.setup(fuzz.SetupSeed(seed))
	if g.staged {
		return g.stagedCase(seed, st), nil
	}
	r := newRNG(fuzz.Mix(seed^querySalt), seed)
	from, scope, types := g.from(r, st)
	var b strings.Builder
	b.Grow(256)
	g.predInto(r, &b, scope, types, g.o.MaxDepth)
	p := pieces{pred: b.String(), from: from}
	checks := 1
	if g.norec || slices.Contains(g.fams, fuzz.TLPWhere) {
		checks = g.o.Checks
	}
	for k := 1; k < checks; k++ {
		b.Reset()
		g.predInto(r, &b, scope, types, g.o.MaxDepth)
		p.more = append(p.more, b.String())
	}

	c := &fuzz.Case{
		Domain: "sql",
		Gen:    g.gen,
		Seed:   seed,
		Setup:  append([]string(nil), st.stmts...),
		Params: make(map[string]string, 6),
	}
	knobs := st.knobs
	if g.guide != nil {
		if extra := g.guide.mutations(fuzz.SetupSeed(seed)); len(extra) > 0 {
			c.Setup = append(c.Setup, extra...)
			knobs = knobState(g.d, c.Setup)
		}
	}
	n := 4*len(g.fams) + 3*(checks-1)
	if g.norec {
		n += 1 + checks
	}
	c.Queries = make([]fuzz.Query, 0, n)
	add := func(role string) { c.Queries = append(c.Queries, fuzz.Query{Role: role, Text: g.d.render(role, p)}) }
	if g.norec {
		for k := range checks {
			role := RoleNoRECOptCount
			if r.prob(0.5) {
				role = RoleNoRECOptRows
				if k == 0 && r.prob(0.5) {
					p.order = g.orderBy(r, scope, types) // check 0's alone: Params holds one
				}
			}
			add(fuzz.CheckRole(role, k))
		}
		add(RoleNoRECUnopt)
		if p.order != "" {
			c.Params[ParamOrder] = p.order
			p.order = "" // only norec.opt-rows has it
		}
	}
	for _, fam := range g.fams {
		switch fam {
		case fuzz.TLPHaving, fuzz.TLPDistinct, fuzz.TLPGroupBy:
			if p.cols == "" {
				p.cols = g.someCols(r, scope)
				p.group = strings.Join(scope, ", ") // HAVING's predicate may read any column
			}
		case fuzz.TLPAgg:
			p.agg, p.aggExpr = g.aggregate(r, scope, types)
		}
		for i, role := range fam.All() {
			if fam != fuzz.TLPWhere || i == 0 {
				add(role)
				continue
			}
			// TLP-WHERE: one original query, and each check's partition in turn.
			if i == 1 {
				for k := range checks {
					for _, part := range fam.Roles()[1:] {
						add(fuzz.CheckRole(part, k))
					}
				}
			}
		}
	}
	g.dmlCases(r, st, c, &p, scope, types)
	g.planQueries(r, c, &p, scope, types, knobs)
	c.Params[ParamPred], c.Params[ParamFrom] = p.pred, p.from
	for k, pred := range p.more {
		c.Params[fuzz.CheckRole(ParamPred, k+1)] = pred
	}
	if p.cols != "" {
		c.Params[ParamCols], c.Params[ParamGroup] = p.cols, p.group
	}
	if p.agg != "" {
		c.Params[ParamAgg], c.Params[ParamAggExpr] = p.agg, p.aggExpr
	}
	g.addFetches(c, st)
	return c, nil
}

// setup returns the setup of a setup seed, from the cache or built once.
func (g *Generator) setup(ss uint64) *setup {
	st, _ := g.setups.Get(ss, func() (*setup, error) {
		r := newRNG(fuzz.Mix(ss^setupSalt), ss)
		var st *setup
		if g.d.typed != nil {
			st = buildTypedSetup(g.d, &g.o, r)
		} else {
			st = buildSetup(g.d, &g.o, r)
		}
		st.knobs = knobState(g.d, st.stmts)
		return st, nil
	})
	return st
}

// maxFromRows bounds the product of the row bounds of a FROM clause's relations, so that no
// query runs long enough to look like a hang.
const maxFromRows = 100

// from writes a FROM clause over at most Options.MaxFrom distinct relations of the setup whose
// row bounds multiply to at most maxFromRows (a single relation may exceed it), and returns it
// with the column references in scope and, in a typed dialect, their types.
func (g *Generator) from(r *rng, st *setup) (string, []string, []sqlType) {
	n := 1
	for n < g.o.MaxFrom && n < len(st.rels) && r.prob(0.35) {
		n++
	}
	var b strings.Builder
	b.Grow(128)
	var scope []string
	var types []sqlType
	onStart := 0
	k, rows := 0, 1.0
	for _, i := range r.perm(len(st.rels)) {
		rl := &st.rels[i]
		if k > 0 && rows*max(rl.rows, 1) > maxFromRows {
			continue
		}
		rows *= max(rl.rows, 1)
		if k == 0 {
			scope, types = rl.cols, rl.types
		} else {
			if k == 1 {
				scope = append([]string(nil), scope...)
				types = append([]sqlType(nil), types...)
			}
			scope = append(scope, rl.cols...)
			types = append(types, rl.types...)
		}
		if k == 0 {
			b.WriteString(rl.name)
		} else {
			j := pick(r, g.d.joins)
			if n > 2 && strings.HasPrefix(j.kw, "NATURAL") {
				j = joinKind{kw: "CROSS JOIN"} // a NATURAL join among three makes c0 ambiguous
			}
			writeJoin(&b, j, rl.name)
			if j.on {
				b.WriteString(" ON ")
				if g.d.typed != nil {
					// An ON condition sees only the relations joined since the last comma.
					g.predInto(r, &b, scope[onStart:], types[onStart:], min(2, g.o.MaxDepth))
				} else {
					g.predInto(r, &b, scope, types, min(2, g.o.MaxDepth))
				}
			}
			if j.kw == "," {
				onStart = len(scope) - len(rl.cols)
			}
		}
		k++
		if k == n {
			break
		}
	}
	return b.String(), scope, types
}

// predInto writes a predicate over the columns in scope, typed in a typed dialect.
func (g *Generator) predInto(r *rng, b *strings.Builder, scope []string, types []sqlType, depth int) {
	if g.d.typed != nil {
		tg := typedGen{r: r, d: g.d, t: g.d.typed, b: b, cols: scope, types: types, maxDepth: depth}
		tg.predicate()
		return
	}
	eg := exprGen{r: r, d: g.d, b: b, cols: scope, maxDepth: depth}
	eg.predicate()
}

// someCols returns one to three distinct columns of scope, comma-separated.
func (g *Generator) someCols(r *rng, scope []string) string {
	perm := r.perm(len(scope))
	n := 1 + r.intn(min(3, len(scope)))
	cols := make([]string, n)
	for i := range cols {
		cols[i] = scope[perm[i]]
	}
	return strings.Join(cols, ", ")
}

var aggregates = []string{"MIN", "MAX", "SUM", "COUNT", "AVG"}

// aggs returns the aggregates of TLP-agg in d.
func (d *dialect) aggs() []string {
	if d.aggregates != nil {
		return d.aggregates
	}
	return aggregates
}

// aggregate picks an aggregate function and its argument: a column or an expression of the
// column's type. In a typed dialect SUM and AVG take numbers and MIN and MAX no Booleans.
func (g *Generator) aggregate(r *rng, scope []string, types []sqlType) (agg, arg string) {
	agg = pick(r, g.d.aggs())
	k := r.intn(len(scope))
	if g.d.typed == nil {
		if r.prob(0.7) {
			return agg, scope[k]
		}
		var b strings.Builder
		eg := exprGen{r: r, d: g.d, b: &b, cols: scope, maxDepth: min(2, g.o.MaxDepth)}
		eg.expr(0)
		return agg, b.String()
	}
	t := types[k]
	switch {
	case (agg == "SUM" || agg == "AVG") && !t.numeric():
		agg = "COUNT"
	case (agg == "MIN" || agg == "MAX") && t == tBool:
		agg = "COUNT"
	}
	if r.prob(0.7) {
		return agg, scope[k]
	}
	var b strings.Builder
	tg := typedGen{r: r, d: g.d, t: g.d.typed, b: &b, cols: scope, types: types, maxDepth: min(2, g.o.MaxDepth)}
	tg.expr(t, 1)
	return agg, b.String()
}

// orderBy returns an "ORDER BY ..." clause whose terms each refer to a column (a bare integer
// would select a result column by position).
func (g *Generator) orderBy(r *rng, scope []string, types []sqlType) string {
	var b strings.Builder
	b.WriteString("ORDER BY ")
	for k := 1 + r.intn(2); k > 0; k-- {
		if b.Len() > len("ORDER BY ") {
			b.WriteString(", ")
		}
		if r.prob(0.6) {
			b.WriteString(pick(r, scope))
		} else {
			var e strings.Builder
			if g.d.typed != nil {
				tg := typedGen{r: r, d: g.d, t: g.d.typed, b: &e, cols: scope, types: types, maxDepth: min(2, g.o.MaxDepth)}
				tg.expr(tg.anyType(), 1)
			} else {
				eg := exprGen{r: r, d: g.d, b: &e, cols: scope, maxDepth: min(2, g.o.MaxDepth)}
				eg.expr(0)
			}
			if !strings.Contains(e.String(), ".c") {
				b.WriteString(pick(r, scope))
			} else {
				b.WriteString(e.String())
			}
		}
		if len(g.d.collations) > 0 && r.oneIn(5) {
			b.WriteString(" COLLATE ")
			b.WriteString(pick(r, g.d.collations))
		}
		switch r.intn(3) {
		case 0:
			b.WriteString(" ASC")
		case 1:
			b.WriteString(" DESC")
		}
		if g.d.nullsOrder && r.oneIn(5) {
			if r.prob(0.5) {
				b.WriteString(" NULLS FIRST")
			} else {
				b.WriteString(" NULLS LAST")
			}
		}
	}
	return b.String()
}

// writeJoin writes a join keyword (or a comma) and the name of the joined relation.
func writeJoin(b *strings.Builder, j joinKind, name string) {
	if j.kw == "," {
		b.WriteString(", ")
	} else {
		b.WriteByte(' ')
		b.WriteString(j.kw)
		b.WriteByte(' ')
	}
	b.WriteString(name)
}
