package sqlgen

import (
	"slices"
	"strings"
	"sync"

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
	tlp   bool

	mu    sync.Mutex
	cache map[uint64]*setup
	ring  [cacheSize]uint64 // insertion order, for eviction
	used  int
}

// New returns a generator for the options, or an error naming the valid choices when the dialect
// or an oracle is unknown or a bound is out of range.
func New(o Options) (*Generator, error) {
	n := o.normalized()
	if err := n.validate(); err != nil {
		return nil, err
	}
	return &Generator{
		o:     n,
		d:     dialects[n.Dialect],
		gen:   n.String(),
		norec: slices.Contains(n.Oracles, OracleNoREC),
		tlp:   slices.Contains(n.Oracles, OracleTLPWhere),
		cache: make(map[uint64]*setup, cacheSize),
	}, nil
}

// Options returns the generator's options with defaults applied.
func (g *Generator) Options() Options {
	o := g.o
	o.Oracles = append([]string(nil), g.o.Oracles...)
	return o
}

// CasesPerSetup returns Options.QueriesPerDB: how many consecutive cases share one setup.
func (g *Generator) CasesPerSetup() int { return g.o.QueriesPerDB }

// Generate returns the case for seed. The setup depends only on fuzz.SetupSeed(seed), the queries
// on the whole seed; the same seed always gives the same case.
func (g *Generator) Generate(seed uint64) (*fuzz.Case, error) {
	st := g.setup(fuzz.SetupSeed(seed))
	r := newRNG(fuzz.Mix(seed^querySalt), seed)
	from, scope := g.from(r, st)
	var b strings.Builder
	b.Grow(256)
	eg := exprGen{r: r, d: g.d, b: &b, cols: scope, maxDepth: g.o.MaxDepth}
	eg.predicate()
	pred := b.String()

	c := &fuzz.Case{
		Domain: "sql",
		Gen:    g.gen,
		Seed:   seed,
		Setup:  append([]string(nil), st.stmts...),
		Params: make(map[string]string, 3),
	}
	c.Params[ParamPred] = pred
	c.Params[ParamFrom] = from
	n := 0
	if g.norec {
		n += 2
	}
	if g.tlp {
		n += 4
	}
	c.Queries = make([]fuzz.Query, 0, n)
	if g.norec {
		role := RoleNoRECOptCount
		if r.prob(0.5) {
			role = RoleNoRECOptRows
			if r.prob(0.5) {
				order := g.orderBy(r, scope)
				c.Params[ParamOrder] = order
			}
		}
		c.Queries = append(c.Queries,
			fuzz.Query{Role: role, Text: g.d.render(role, from, pred, c.Params[ParamOrder])},
			fuzz.Query{Role: RoleNoRECUnopt, Text: g.d.render(RoleNoRECUnopt, from, pred, "")})
	}
	if g.tlp {
		for _, role := range tlpRoles {
			c.Queries = append(c.Queries, fuzz.Query{Role: role, Text: g.d.render(role, from, pred, "")})
		}
	}
	return c, nil
}

// setup returns the cached setup for a setup seed, generating it on a miss.
func (g *Generator) setup(ss uint64) *setup {
	g.mu.Lock()
	st, ok := g.cache[ss]
	g.mu.Unlock()
	if ok {
		return st
	}
	st = buildSetup(g.d, &g.o, newRNG(fuzz.Mix(ss^setupSalt), ss))
	g.mu.Lock()
	if _, ok := g.cache[ss]; !ok {
		slot := g.used % cacheSize
		if g.used >= cacheSize {
			delete(g.cache, g.ring[slot])
		}
		g.ring[slot] = ss
		g.used++
		g.cache[ss] = st
	}
	g.mu.Unlock()
	return st
}

// maxFromRows bounds the product of the row bounds of a FROM clause's relations, so that no
// query runs long enough to look like a hang.
const maxFromRows = 100

// from writes a FROM clause over at most Options.MaxFrom distinct relations of the setup whose
// row bounds multiply to at most maxFromRows (a single relation may exceed it), and returns it
// with the column references in scope.
func (g *Generator) from(r *rng, st *setup) (string, []string) {
	n := 1
	for n < g.o.MaxFrom && n < len(st.rels) && r.prob(0.35) {
		n++
	}
	var b strings.Builder
	b.Grow(128)
	var scope []string
	k, rows := 0, 1.0
	for _, i := range r.perm(len(st.rels)) {
		rl := &st.rels[i]
		if k > 0 && rows*max(rl.rows, 1) > maxFromRows {
			continue
		}
		rows *= max(rl.rows, 1)
		if k == 0 {
			scope = rl.cols
		} else {
			if k == 1 {
				scope = append([]string(nil), scope...)
			}
			scope = append(scope, rl.cols...)
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
				eg := exprGen{r: r, d: g.d, b: &b, cols: scope, maxDepth: min(2, g.o.MaxDepth)}
				eg.predicate()
			}
		}
		k++
		if k == n {
			break
		}
	}
	return b.String(), scope
}

// orderBy returns an "ORDER BY ..." clause whose terms each refer to a column (a bare integer
// would select a result column by position).
func (g *Generator) orderBy(r *rng, scope []string) string {
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
			eg := exprGen{r: r, d: g.d, b: &e, cols: scope, maxDepth: min(2, g.o.MaxDepth)}
			eg.expr(0)
			if !strings.Contains(e.String(), ".c") {
				b.WriteString(pick(r, scope))
			} else {
				b.WriteString(e.String())
			}
		}
		if r.oneIn(5) {
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
