package sqlgen

import (
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/sqlgen/sqleval"
)

// pqsSalt separates the PQS random stream from the other streams of a case.
const pqsSalt = 0x70_9a_5e_11_c3_d2_b4_07

// pqsTries bounds how many expressions Derive draws for one slot before it gives up on a case:
// an expression the evaluator is unsure of is drawn again, never guessed.
const pqsTries = 12

// Roles of the PQS layout.
var (
	RolePQSFetch    = fuzz.PQS.Role("fetch")    // SELECT <columns> FROM <tables>: the pivot's candidates
	RolePQSPivot    = fuzz.PQS.Role("pivot")    // SELECT <pivot> INTERSECT SELECT <columns> FROM <tables>
	RolePQSContains = fuzz.PQS.Role("contains") // SELECT <expected> INTERSECT SELECT * FROM (<rectified query>)
)

// pqsScope is what a PQS case knows of its tables: chosen from the seed alone, so that Derive
// finds it again.
type pqsScope struct {
	tables []*rel
	cols   []string // qualified column references, in the fetch query's order
	model  []column // the columns' schema, in the same order (SQLite)
	// types and decls are the columns' static and declared types (typed dialects).
	types []sqlType
	decls []string
	// caseSensitiveLike is set when the setup turns LIKE case-sensitive.
	caseSensitiveLike bool
	dialect           string // the generator's dialect, which picks the evaluator
}

// pqsRNG returns the PQS stream of a case seed.
func pqsRNG(seed uint64) *rng { return newRNG(fuzz.Mix(seed^pqsSalt), seed) }

// pqsScopeOf picks one to Options.MaxFrom tables (never views: their columns' affinities are
// those of expressions) whose row bounds multiply to at most maxFromRows.
func (g *Generator) pqsScopeOf(r *rng, st *setup) *pqsScope {
	sc := &pqsScope{caseSensitiveLike: g.d.likePragma != "" && slices.Contains(st.stmts, g.d.likePragma), dialect: g.d.name}
	n := 1
	for n < g.o.MaxFrom && r.prob(0.4) {
		n++
	}
	rows := 1.0
	for _, i := range r.perm(len(st.rels)) {
		rl := &st.rels[i]
		if rl.model == nil && rl.decls == nil || len(sc.tables) > 0 && rows*max(rl.rows, 1) > maxFromRows {
			continue
		}
		rows *= max(rl.rows, 1)
		sc.tables = append(sc.tables, rl)
		sc.cols = append(sc.cols, rl.cols...)
		sc.model = append(sc.model, rl.model...)
		sc.types, sc.decls = append(sc.types, rl.types...), append(sc.decls, rl.decls...)
		if len(sc.tables) == n {
			break
		}
	}
	return sc
}

// pqsFetch returns the first-stage query of a PQS case: every column of the scope's tables over
// their plain product.
func pqsFetch(sc *pqsScope) string {
	return "SELECT " + strings.Join(sc.cols, ", ") + " FROM " + sc.product()
}

func (sc *pqsScope) product() string {
	names := make([]string, len(sc.tables))
	for i, t := range sc.tables {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}

// evalAffinity maps a column's affinity to the evaluator's (a column without a type, or ANY in a
// STRICT table, has BLOB affinity).
func evalAffinity(a affinity) sqleval.Affinity {
	switch a {
	case affInteger:
		return sqleval.AffInteger
	case affText:
		return sqleval.AffText
	case affReal:
		return sqleval.AffReal
	case affNumeric:
		return sqleval.AffNumeric
	}
	return sqleval.AffBlob
}

// pqsEvaluator returns the expression evaluator of a dialect, nil when it has none.
func pqsEvaluator(dialect string, caseSensitiveLike bool) sqleval.Evaluator {
	switch dialect {
	case "sqlite":
		return sqleval.SQLite{CaseSensitiveLike: caseSensitiveLike}
	case "postgres":
		return sqleval.Postgres{}
	case "duckdb":
		return sqleval.DuckDB{}
	}
	return nil
}

// pqsEnv is the evaluator and the pivot row of a case.
type pqsEnv struct {
	ev     sqleval.Evaluator
	row    sqleval.Row
	noLike bool // LIKE is case-sensitive, which the SQLite evaluator does not model
}

func (sc *pqsScope) env(pivot []string) (*pqsEnv, bool) {
	if len(pivot) != len(sc.cols) {
		return nil, false
	}
	row := make(sqleval.Row, len(sc.cols))
	for i, s := range pivot {
		v, err := sqleval.ParseCanonical(s)
		if err != nil {
			return nil, false
		}
		if sc.decls != nil {
			v.Single = v.C == sqleval.Real && sc.types[i] == tFloat && strings.EqualFold(sc.decls[i], "REAL")
			row[sc.cols[i]] = sqleval.Column{V: v, Type: sc.decls[i]}
			continue
		}
		row[sc.cols[i]] = sqleval.Column{V: v, Aff: evalAffinity(sc.model[i].typ.aff), Coll: sc.model[i].coll}
	}
	ev := pqsEvaluator(sc.dialect, sc.caseSensitiveLike)
	return &pqsEnv{ev: ev, row: row, noLike: sc.caseSensitiveLike}, ev != nil
}

// pqsExpr writes a random expression over cols of the scope, a predicate when pred.
func (g *Generator) pqsExpr(r *rng, sc *pqsScope, cols []string, depth int, pred, noLike bool) string {
	var b strings.Builder
	if g.d.typed != nil {
		types := make([]sqlType, len(cols))
		for i, c := range cols {
			types[i] = sc.types[slices.Index(sc.cols, c)]
		}
		tg := typedGen{r: r, d: g.d, t: g.d.typed, b: &b, cols: cols, types: types, maxDepth: depth}
		if pred {
			tg.predicate()
		} else {
			tg.expr(tg.anyType(), 0)
		}
		return b.String()
	}
	eg := exprGen{r: r, d: g.d, b: &b, cols: cols, maxDepth: depth, noLike: noLike}
	if pred {
		eg.predicate()
	} else {
		eg.expr(0)
	}
	return b.String()
}

// eval parses and evaluates an expression of the generator on the pivot.
func (e *pqsEnv) eval(text string) (sqleval.Value, bool) {
	n, err := sqleval.Parse(text)
	if err != nil {
		return sqleval.Value{}, false
	}
	v, err := e.ev.Eval(n, e.row)
	return v, err == nil
}

// known draws an expression (a predicate when pred) over cols that the evaluator is sure of,
// and returns it, when pred, rectified to hold on the pivot (p, NOT p or (p) IS NULL), with its
// value; ok is false after pqsTries draws.
func (g *Generator) known(r *rng, e *pqsEnv, sc *pqsScope, cols []string, depth int, pred bool) (string, sqleval.Value, bool) {
	for try := 0; try < pqsTries; try++ {
		x := g.pqsExpr(r, sc, cols, depth, pred, e.noLike)
		v, ok := e.eval(x)
		if !ok {
			continue
		}
		if !pred {
			return x, v, true
		}
		t, null, ok := e.ev.Truth(v)
		switch {
		case !ok:
			continue
		case null:
			return "(" + x + ") IS NULL", v, true
		case t:
			return x, v, true
		}
		return "NOT " + x, v, true
	}
	return "", sqleval.Value{}, false
}

// pqsJoins are the ways a PQS query joins the next table: each keeps the pivot's pair when its
// ON condition holds for it (NATURAL joins, which cannot be rectified, are left out).
var pqsJoins = []joinKind{
	{",", false}, {"JOIN", true}, {"INNER JOIN", true}, {"LEFT JOIN", true}, {"RIGHT JOIN", true},
	{"FULL JOIN", true}, {"CROSS JOIN", false}, {"LEFT JOIN", true}, {"JOIN", true},
}

// pgCollationC holds in a PostgreSQL database whose collation and character classes are C, the
// only ones the evaluator models.
const pgCollationC = "(SELECT datcollate IN ('C', 'POSIX') AND datctype IN ('C', 'POSIX') FROM pg_database WHERE datname = current_database())"

// derivePQS builds the second stage of a PQS case from the rows of its fetch query: a pivot, a
// query whose WHERE and ON conditions are rectified to hold for it, and the containment check,
// once per check (Options.Checks). It returns nil when the case has no rows or an expression
// could not be made known.
func (g *Generator) derivePQS(c *fuzz.Case, fetch *fuzz.Result) []fuzz.Query {
	if fetch.Failed() || len(fetch.Rows) == 0 {
		return nil
	}
	r := pqsRNG(c.Seed)
	sc := g.pqsScopeOf(r, g.setup(fuzz.SetupSeed(c.Seed)))
	pivot := fetch.Rows[r.intn(len(fetch.Rows))]
	e, ok := sc.env(pivot)
	if !ok {
		return nil
	}
	depth := g.o.MaxDepth
	// FROM with rectified ON conditions.
	var from strings.Builder
	var scope []string
	onStart := 0 // PostgreSQL's ON sees the tables joined since the last comma only
	for i, t := range sc.tables {
		scope = append(scope, t.cols...)
		if i == 0 {
			from.WriteString(t.name)
			continue
		}
		j := pick(r, pqsJoins)
		if j.kw == "FULL JOIN" && g.d.typed != nil {
			j.kw = "LEFT JOIN" // PostgreSQL's FULL JOIN takes only merge- or hash-joinable conditions
		}
		writeJoin(&from, j, t.name)
		if j.kw == "," && g.d.typed != nil {
			onStart = len(scope) - len(t.cols)
		}
		if j.on {
			p, _, ok := g.known(r, e, sc, scope[onStart:], min(2, depth), true)
			if !ok {
				return nil
			}
			from.WriteString(" ON ")
			from.WriteString(p)
		}
	}
	var pivotLits []string
	for _, c := range sc.cols {
		lit, ok := e.ev.Literal(e.row[c].V)
		if !ok {
			return nil
		}
		pivotLits = append(pivotLits, lit)
	}
	pivotQ := "SELECT " + strings.Join(pivotLits, ", ") + " INTERSECT " + pqsFetch(sc)
	if g.d.name == "postgres" {
		// The evaluator knows the C collation only: elsewhere the pivot is not found, and the case
		// skipped.
		pivotQ += " WHERE " + pgCollationC
	}
	out := []fuzz.Query{{Role: RolePQSPivot, Text: pivotQ}}
	// One containment query per check (Options.Checks), each with its own rectified WHERE and
	// fetch list over the same FROM clause and pivot; a check whose expressions the evaluator
	// could not be sure of is left out, and the checks made are numbered in order.
	for range g.o.Checks {
		if q, ok := g.pqsContains(r, e, sc, scope, from.String()); ok {
			out = append(out, fuzz.Query{Role: fuzz.CheckRole(RolePQSContains, len(out)-1), Text: q})
		}
	}
	if len(out) == 1 {
		return nil
	}
	return out
}

// pqsContains draws a rectified WHERE condition and a fetch list over from and returns the
// containment query: the expected values INTERSECT the rectified query.
func (g *Generator) pqsContains(r *rng, e *pqsEnv, sc *pqsScope, scope []string, from string) (string, bool) {
	depth := g.o.MaxDepth
	where, _, ok := g.known(r, e, sc, scope, depth, true)
	if !ok {
		return "", false
	}
	// The fetch list: some columns and some expressions, each with its expected value.
	var items, want []string
	for _, k := range r.perm(len(sc.cols))[:1+r.intn(len(sc.cols))] {
		if lit, ok := e.ev.Literal(e.row[sc.cols[k]].V); ok {
			items, want = append(items, sc.cols[k]), append(want, lit)
		}
	}
	for n := r.intn(3); n > 0; n-- {
		x, v, ok := g.known(r, e, sc, scope, min(2, depth), false)
		if !ok {
			return "", false
		}
		if lit, ok := e.ev.Literal(v); ok {
			items, want = append(items, x), append(want, lit)
		}
	}
	if len(items) == 0 {
		return "", false
	}
	q := "SELECT " + strings.Join(items, ", ") + " FROM " + from + " WHERE " + where
	alias := ""
	if g.d.name == "postgres" {
		alias = " AS pqs" // a subquery in FROM needs an alias before PostgreSQL 16
	}
	return "SELECT " + strings.Join(want, ", ") + " INTERSECT SELECT * FROM (" + q + ")" + alias, true
}

// Derive returns the second stage of a case (see fuzz.Deriver), built from the first target's
// answers: for PQS the pivot check and the containment query, for CODDTest the result map and
// the original and folded queries.
func (g *Generator) Derive(c *fuzz.Case, runs []fuzz.Run) []fuzz.Query {
	if c.Derived > 0 || len(runs) == 0 {
		return nil
	}
	var out []fuzz.Query
	for i, q := range c.Queries {
		if i >= len(runs[0].Results) {
			break
		}
		switch q.Role {
		case RolePQSFetch:
			out = append(out, g.derivePQS(c, runs[0].Results[i])...)
		case RoleCODDFetch:
			out = append(out, g.deriveCODD(c, runs[0].Results[i])...)
		}
	}
	return out
}

// EvalSample is for checking the evaluator against an engine: for case c of a generator with
// the pqs oracle, it draws n expressions of the case's scope (from its own stream) and returns
// them with a function that evaluates one on a row of the fetch query (canonical values); ok is
// false when the evaluator is unsure.
func (g *Generator) EvalSample(c *fuzz.Case, n int) (exprs []string, eval func(expr string, row []string) (string, bool)) {
	r := pqsRNG(c.Seed)
	sc := g.pqsScopeOf(r, g.setup(fuzz.SetupSeed(c.Seed)))
	r = newRNG(fuzz.Mix(c.Seed^pqsSalt^0xe7a1), c.Seed)
	for i := 0; i < n; i++ {
		exprs = append(exprs, g.pqsExpr(r, sc, sc.cols, g.o.MaxDepth, r.prob(0.5), false))
	}
	return exprs, func(expr string, row []string) (string, bool) {
		e, ok := sc.env(row)
		if !ok {
			return "", false
		}
		v, ok := e.eval(expr)
		return v.Canonical(), ok
	}
}

// stagedCase returns a case with the staged layouts alone (PQS, CODDTest): their fetch queries;
// Derive adds the rest.
func (g *Generator) stagedCase(seed uint64, st *setup) *fuzz.Case {
	c := &fuzz.Case{
		Domain: "sql",
		Gen:    g.gen,
		Seed:   seed,
		Setup:  append([]string(nil), st.stmts...),
	}
	g.addFetches(c, st)
	return c
}

// addFetches appends the first-stage queries of the staged layouts the generator's oracles ask
// for, each drawn from its own stream of the case seed.
func (g *Generator) addFetches(c *fuzz.Case, st *setup) {
	if g.pqs {
		c.Queries = append(c.Queries, fuzz.Query{Role: RolePQSFetch, Text: pqsFetch(g.pqsScopeOf(pqsRNG(c.Seed), st))})
	}
	if g.codd {
		c.Queries = append(c.Queries, fuzz.Query{Role: RoleCODDFetch, Text: coddFetch(g.coddScopeOf(coddRNG(c.Seed), st))})
	}
}
