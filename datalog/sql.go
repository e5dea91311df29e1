package datalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// SQLEngine is a fuzz.Target that evaluates canonical programs on a SQL engine. Inner is a SQL
// target that answers with canonical values and runs a string of statements separated by
// semicolons as the targets sqlite, duckdb and postgres do: up to the first failure, answering
// with the last statement's rows. Dialect is its SQL dialect: "sqlite", "duckdb" or "postgres".
//
// Each Exec parses its program, resets Inner and creates one table per relation, named
// r<index>_<name> with columns c0, c1, ... (BIGINT for numbers; TEXT compared byte-wise for
// symbols, with COLLATE "C" on PostgreSQL). A 0-ary relation has one column c0 that holds 1 when
// the relation is true. The facts are inserted, then the strata are evaluated in order: a
// non-recursive relation by one INSERT ... SELECT over the union of its rules; a recursive
// stratum of one relation whose rules each hold at most one atom of it by one INSERT ... WITH
// RECURSIVE (several recursive rules are chained with UNION on SQLite and joined in a LATERAL
// subquery on PostgreSQL and DuckDB); any other recursive stratum by semi-naive rounds of
// INSERT ... SELECT, its tables holding the round that derived each tuple in a column rnd, until
// a round adds nothing. Last, one SELECT per output relation answers with rows [relation name,
// values...], as Answer expects. The statements go to Inner in as few Execs as that allows: one
// per fixpoint round and per output relation.
//
// A statement that fails (an engine error, a timeout, a crash) ends the program: Exec answers with
// its Result. A program that is not valid is answered with an engine error of code
// CodeBadProgram, and one whose symbols the dialect cannot store with code CodeUnsupported.
type SQLEngine struct {
	Inner   fuzz.Target
	Dialect string
}

// Name returns the inner target's name.
func (e *SQLEngine) Name() string { return e.Inner.Name() }

// Version returns the inner target's version.
func (e *SQLEngine) Version() string { return e.Inner.Version() }

// Reset resets the inner target.
func (e *SQLEngine) Reset(ctx context.Context) error { return e.Inner.Reset(ctx) }

// Close closes the inner target.
func (e *SQLEngine) Close() error { return e.Inner.Close() }

// maxSQLRounds bounds the rounds of one fixpoint loop, whatever the size of the program's model.
const maxSQLRounds = 100000

// Exec evaluates one canonical program.
func (e *SQLEngine) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	d := sqlDialects[e.Dialect]
	if d == nil {
		return nil, fmt.Errorf("datalog: unknown SQL dialect %q; use sqlite, duckdb or postgres", e.Dialect)
	}
	p, err := Parse("program.dl", stmt)
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeBadProgram, Err: err.Error()}, nil
	}
	plan, err := translateSQL(p, d)
	if err != nil {
		var u *Unsupported
		if errors.As(err, &u) {
			return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeUnsupported, Err: u.Feature}, nil
		}
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeBadProgram, Err: err.Error()}, nil
	}
	if err := e.Inner.Reset(ctx); err != nil {
		return nil, err
	}
	// Statements are sent in batches, one Exec each, which the SQL targets answer with the last
	// statement's rows or the first failure: everything up to a fixpoint round's check or an
	// output query runs in one round trip.
	var pending []string
	run := func(last ...string) (*fuzz.Result, error) {
		stmts := append(pending, last...)
		pending = nil
		return e.Inner.Exec(ctx, strings.Join(stmts, ";\n"))
	}
	pending = plan.setup
	for _, s := range plan.strata {
		pending = append(pending, s.stmts...)
		for k := 1; s.round != nil; k++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if k > s.maxRounds {
				if s.maxRounds < maxSQLRounds {
					return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "no-fixpoint", Err: fmt.Sprintf(
						"round %d of %s added tuples, but the model has at most %d", k-1, strings.Join(s.rels, ", "), s.maxRounds-1)}, nil
				}
				return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("fixpoint loop ran over %d rounds", maxSQLRounds)}, nil
			}
			res, err := run(s.round(k)...)
			if err != nil || res.Failed() {
				return res, err
			}
			if len(res.Rows) == 0 {
				break
			}
		}
	}
	if len(plan.outputs) == 0 && len(pending) > 0 {
		if res, err := run(); err != nil || res.Failed() {
			return res, err
		}
	}
	var raw [][]string
	for _, q := range plan.outputs {
		res, err := run(q)
		if err != nil || res.Failed() {
			return res, err
		}
		for _, row := range res.Rows {
			if len(row) == 0 || !strings.HasPrefix(row[0], "t:") {
				return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "bad-answer",
					Err: fmt.Sprintf("answer row %v does not start with the relation's name", row)}, nil
			}
			row[0] = row[0][2:]
			raw = append(raw, row)
		}
	}
	rows, err := Answer(p, raw, decodeSQL)
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "bad-answer", Err: err.Error()}, nil
	}
	return &fuzz.Result{Status: fuzz.StatusOK, Rows: rows}, nil
}

// decodeSQL checks that a value a SQL target answered is canonical for typ.
func decodeSQL(typ Type, raw string) (string, error) {
	switch typ {
	case Number:
		if n, ok := strings.CutPrefix(raw, "i:"); ok {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil {
				return "i:" + strconv.FormatInt(v, 10), nil
			}
		}
		return "", fmt.Errorf("%q is not a 64-bit integer", raw)
	case Symbol:
		if strings.HasPrefix(raw, "t:") {
			return raw, nil
		}
		return "", fmt.Errorf("%q is not a string", raw)
	}
	return "", fmt.Errorf("unknown type %v", typ)
}

// sqlDialect is what the translation needs to know about a SQL dialect.
type sqlDialect struct {
	name string
	// symbol is the column type of symbols, compared byte-wise.
	symbol string
	// collate, when not empty, is the clause that makes a symbol literal compare byte-wise.
	collate string
	// typed says that literals in select lists need explicit types, so that the terms of a
	// recursive query agree on their columns' types.
	typed bool
	// utf8 says that symbols must be valid UTF-8.
	utf8 bool
	// lateral says that a recursive query admits one recursive term only, so that several
	// recursive rules are joined in a LATERAL subquery; otherwise they are chained with UNION.
	lateral bool
}

var sqlDialects = map[string]*sqlDialect{
	"sqlite":   {name: "sqlite", symbol: "TEXT"},
	"duckdb":   {name: "duckdb", symbol: "TEXT", typed: true, utf8: true, lateral: true},
	"postgres": {name: "postgres", symbol: `TEXT COLLATE "C"`, collate: ` COLLATE "C"`, typed: true, utf8: true, lateral: true},
}

// sqlPlan is the SQL that evaluates a program.
type sqlPlan struct {
	setup   []string // CREATE TABLE per relation, then the facts' INSERTs
	strata  []sqlStratum
	outputs []string // one SELECT per output relation
}

// How a stratum is evaluated.
const (
	sqlInsert    = "insert"         // by one INSERT ... SELECT per relation
	sqlRecursive = "with-recursive" // by one INSERT ... WITH RECURSIVE
	sqlFixpoint  = "fixpoint"       // by semi-naive rounds
)

// sqlStratum is the SQL that evaluates one stratum.
type sqlStratum struct {
	rels  []string
	how   string
	stmts []string // run once
	// round, for a fixpoint, returns the statements of round k = 1, 2, ...: INSERTs and, last,
	// a query that answers with a row when the round added a tuple.
	round     func(k int) []string
	maxRounds int
}

// sqlGen translates one program.
type sqlGen struct {
	p     *Program
	d     *sqlDialect
	table map[string]string // relation name → table name
	facts map[string]bool   // relations with facts
	// rounds holds the relations evaluated by a fixpoint loop, whose tables have a rnd column.
	rounds map[string]bool
}

// translateSQL returns the SQL that evaluates p on dialect d, or an *Unsupported error.
func translateSQL(p *Program, d *sqlDialect) (*sqlPlan, error) {
	if err := checkSymbols(p, d); err != nil {
		return nil, err
	}
	strata, err := p.Strata()
	if err != nil {
		return nil, err
	}
	g := &sqlGen{p: p, d: d, table: map[string]string{}, facts: map[string]bool{}, rounds: map[string]bool{}}
	for i, r := range p.Relations {
		name := strings.ToLower(r.Name)
		if len(name) > 40 {
			name = name[:40]
		}
		g.table[r.Name] = "r" + strconv.Itoa(i+1) + "_" + name
	}
	for _, r := range p.Rules {
		if r.IsFact() {
			g.facts[r.Head.Rel] = true
		}
	}
	hows := make([]string, len(strata))
	for i, s := range strata {
		hows[i] = g.how(s)
		if hows[i] == sqlFixpoint {
			for _, r := range s {
				g.rounds[r] = true
			}
		}
	}
	plan := &sqlPlan{}
	for _, r := range p.Relations {
		plan.setup = append(plan.setup, g.create(&r))
	}
	plan.setup = append(plan.setup, g.insertFacts()...)
	for i, s := range strata {
		if st, ok := g.stratum(s, hows[i]); ok {
			plan.strata = append(plan.strata, st)
		}
	}
	for _, r := range p.outputs() {
		cols := ""
		if len(r.Attrs) > 0 {
			cols = ", " + strings.Join(g.cols(r.Name), ", ")
		}
		plan.outputs = append(plan.outputs, "SELECT '"+r.Name+"'"+cols+" FROM "+g.table[r.Name])
	}
	return plan, nil
}

// checkSymbols returns an *Unsupported error for a symbol of p that d cannot store.
func checkSymbols(p *Program, d *sqlDialect) error {
	check := func(t Term) error {
		switch {
		case t.Kind != Sym:
		case strings.IndexByte(t.Sym, 0) >= 0:
			return &Unsupported{Engine: d.name, Feature: "nul-in-symbol", Detail: "SQL text cannot hold a NUL byte"}
		case d.utf8 && !utf8.ValidString(t.Sym):
			return &Unsupported{Engine: d.name, Feature: "non-utf8-symbol", Detail: "strings must be valid UTF-8"}
		}
		return nil
	}
	for t := range p.Terms() {
		if err := check(t); err != nil {
			return err
		}
	}
	return nil
}

// arity returns the number of columns of rel's table: its arity, or 1 for a 0-ary relation.
func (g *sqlGen) arity(rel string) int { return max(1, len(g.p.Relation(rel).Attrs)) }

// cols returns the column names of rel's tuples.
func (g *sqlGen) cols(rel string) []string {
	cols := make([]string, g.arity(rel))
	for i := range cols {
		cols[i] = "c" + strconv.Itoa(i)
	}
	return cols
}

func (g *sqlGen) create(r *Relation) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + g.table[r.Name] + " (")
	for i := range g.arity(r.Name) {
		if i > 0 {
			b.WriteString(", ")
		}
		typ := "BIGINT"
		if i < len(r.Attrs) && r.Attrs[i].Type == Symbol {
			typ = g.d.symbol
		}
		b.WriteString("c" + strconv.Itoa(i) + " " + typ + " NOT NULL")
	}
	if g.rounds[r.Name] {
		b.WriteString(", rnd BIGINT NOT NULL DEFAULT 0")
	}
	b.WriteByte(')')
	return b.String()
}

// factsPerInsert bounds the rows of one INSERT of facts.
const factsPerInsert = 256

// insertFacts returns the INSERTs of p's facts, without duplicates, per relation in declaration
// order.
func (g *sqlGen) insertFacts() []string {
	rows := map[string][]string{}
	seen := map[string]bool{}
	for _, r := range g.p.Rules {
		if !r.IsFact() {
			continue
		}
		vals := make([]string, len(r.Head.Args))
		for i, t := range r.Head.Args {
			vals[i] = g.lit(t)
		}
		row := "(" + strings.Join(vals, ", ") + ")"
		if len(vals) == 0 {
			row = "(1)"
		}
		if key := r.Head.Rel + row; !seen[key] {
			seen[key] = true
			rows[r.Head.Rel] = append(rows[r.Head.Rel], row)
		}
	}
	var out []string
	for _, rel := range g.p.Relations {
		rs := rows[rel.Name]
		for len(rs) > 0 {
			n := min(len(rs), factsPerInsert)
			out = append(out, "INSERT INTO "+g.table[rel.Name]+" ("+strings.Join(g.cols(rel.Name), ", ")+") VALUES "+
				strings.Join(rs[:n], ", "))
			rs = rs[n:]
		}
	}
	return out
}

// rulesOf returns the rules of rel that are not facts.
func (g *sqlGen) rulesOf(rel string) []*Rule {
	var out []*Rule
	for i := range g.p.Rules {
		if r := &g.p.Rules[i]; r.Head.Rel == rel && !r.IsFact() {
			out = append(out, r)
		}
	}
	return out
}

// recursiveAtoms returns the indexes of r's positive body atoms whose relations are in stratum.
func recursiveAtoms(r *Rule, stratum []string) []int {
	var out []int
	for i, a := range r.Body {
		if !a.Negated && slices.Contains(stratum, a.Rel) {
			out = append(out, i)
		}
	}
	return out
}

// how decides how a stratum is evaluated: a single relation without recursion by INSERT, a
// single relation whose rules are linear by WITH RECURSIVE, anything else by a fixpoint loop.
func (g *sqlGen) how(stratum []string) string {
	if len(stratum) > 1 {
		return sqlFixpoint
	}
	how := sqlInsert
	for _, r := range g.rulesOf(stratum[0]) {
		switch len(recursiveAtoms(r, stratum)) {
		case 0:
		case 1:
			how = sqlRecursive
		default:
			return sqlFixpoint
		}
	}
	return how
}

// stratum returns the SQL of one stratum, or false when it has nothing to evaluate.
func (g *sqlGen) stratum(stratum []string, how string) (sqlStratum, bool) {
	st := sqlStratum{rels: stratum, how: how}
	switch how {
	case sqlInsert:
		rules := g.rulesOf(stratum[0])
		if len(rules) == 0 {
			return st, false
		}
		sels := make([]string, len(rules))
		for i, r := range rules {
			sels[i] = g.selectRule(r, nil)
		}
		st.stmts = []string{g.insert(stratum[0], sels)}
	case sqlRecursive:
		st.stmts = []string{g.recursive(stratum[0])}
	case sqlFixpoint:
		for _, rel := range stratum {
			var sels []string
			for _, r := range g.rulesOf(rel) {
				if len(recursiveAtoms(r, stratum)) == 0 {
					sels = append(sels, g.selectRule(r, nil))
				}
			}
			if len(sels) > 0 {
				st.stmts = append(st.stmts, g.insert(rel, sels))
			}
		}
		st.round = g.round(stratum)
		st.maxRounds = g.maxRounds(stratum)
	}
	return st, true
}

// insert returns the INSERT into rel of the union of sels, less the tuples rel already holds.
func (g *sqlGen) insert(rel string, sels []string) string {
	cols := strings.Join(g.cols(rel), ", ")
	q := strings.Join(sels, " UNION ")
	switch {
	case g.facts[rel]:
		q += " EXCEPT SELECT " + cols + " FROM " + g.table[rel]
	case len(sels) == 1:
		q = "SELECT DISTINCT" + strings.TrimPrefix(q, "SELECT")
	}
	return "INSERT INTO " + g.table[rel] + " (" + cols + ") " + q
}

// recursive returns the INSERT ... WITH RECURSIVE that evaluates rel, whose recursive rules
// each hold one atom of rel. The recursive query w starts from rel's facts and exit rules.
func (g *sqlGen) recursive(rel string) string {
	cols := strings.Join(g.cols(rel), ", ")
	stratum := []string{rel}
	var base, recs []string
	var recRules []*Rule
	for _, r := range g.rulesOf(rel) {
		if len(recursiveAtoms(r, stratum)) == 0 {
			base = append(base, g.selectRule(r, nil))
		} else {
			recRules = append(recRules, r)
		}
	}
	if g.facts[rel] || len(base) == 0 {
		base = append([]string{"SELECT " + cols + " FROM " + g.table[rel]}, base...)
	}
	if len(recRules) == 1 || !g.d.lateral {
		for _, r := range recRules {
			i := recursiveAtoms(r, stratum)[0]
			a := "a" + strconv.Itoa(i)
			recs = append(recs, g.selectRule(r, map[int]atomSrc{i: {from: "w AS " + a, alias: a}}))
		}
	} else {
		var terms []string
		for _, r := range recRules {
			i := recursiveAtoms(r, stratum)[0]
			terms = append(terms, g.selectRule(r, map[int]atomSrc{i: {alias: "w"}}))
		}
		var xs []string
		for _, c := range g.cols(rel) {
			xs = append(xs, "x."+c)
		}
		recs = []string{"SELECT " + strings.Join(xs, ", ") + " FROM w, LATERAL (" + strings.Join(terms, " UNION ALL ") + ") AS x"}
	}
	q := "INSERT INTO " + g.table[rel] + " (" + cols + ") WITH RECURSIVE w(" + cols + ") AS (" +
		strings.Join(append(base, recs...), " UNION ") + ") SELECT " + cols + " FROM w"
	if g.facts[rel] {
		q += " EXCEPT SELECT " + cols + " FROM " + g.table[rel]
	}
	return q
}

// round returns the statements of round k of the semi-naive evaluation of stratum: for each
// relation, the union of its recursive rules, once for each atom of the stratum in their bodies
// with that atom restricted to the tuples of round k-1, less the tuples the relation holds, is
// inserted with rnd = k. Tuples that an earlier INSERT of the round added are seen too, which
// only speeds the fixpoint up. The last statement answers with a row when the round added one.
func (g *sqlGen) round(stratum []string) func(k int) []string {
	type variant struct {
		rule *Rule
		atom int
	}
	variants := map[string][]variant{}
	for _, rel := range stratum {
		for _, r := range g.rulesOf(rel) {
			for _, i := range recursiveAtoms(r, stratum) {
				variants[rel] = append(variants[rel], variant{r, i})
			}
		}
	}
	return func(k int) []string {
		prev := strconv.Itoa(k - 1)
		var stmts, checks []string
		for _, rel := range stratum {
			var sels []string
			for _, v := range variants[rel] {
				a := "a" + strconv.Itoa(v.atom)
				src := atomSrc{from: g.table[v.rule.Body[v.atom].Rel] + " AS " + a, alias: a, cond: a + ".rnd = " + prev}
				sels = append(sels, g.selectRule(v.rule, map[int]atomSrc{v.atom: src}))
			}
			if len(sels) == 0 {
				continue
			}
			cols := strings.Join(g.cols(rel), ", ")
			stmts = append(stmts, "INSERT INTO "+g.table[rel]+" ("+cols+", rnd) SELECT "+cols+", "+strconv.Itoa(k)+
				" FROM ("+strings.Join(sels, " UNION ")+" EXCEPT SELECT "+cols+" FROM "+g.table[rel]+") AS n")
			checks = append(checks, "SELECT 1 FROM "+g.table[rel]+" WHERE rnd = "+strconv.Itoa(k))
		}
		return append(stmts, strings.Join(checks, " UNION ALL ")+" LIMIT 1")
	}
}

// maxRounds bounds the rounds of the fixpoint loop of stratum: every round but the last adds a
// tuple, and a tuple's values are constants of the program.
func (g *sqlGen) maxRounds(stratum []string) int {
	consts := map[Type]map[Term]bool{Number: {}, Symbol: {}}
	for _, r := range g.p.Rules {
		for _, t := range r.Head.Args {
			if t.IsConst() {
				t.Pos = Pos{}
				consts[constType(t)][t] = true
			}
		}
	}
	tuples := 0
	for _, rel := range stratum {
		n := 1
		for _, a := range g.p.Relation(rel).Attrs {
			n = min(n*len(consts[a.Type]), maxSQLRounds)
		}
		tuples = min(tuples+n, maxSQLRounds)
	}
	return min(tuples+1, maxSQLRounds)
}

// atomSrc says where the tuples of a positive body atom come from.
type atomSrc struct {
	from  string // the FROM item; empty for the row of an enclosing query
	alias string // the name its columns are qualified with
	cond  string // an extra condition, if any
}

// selectRule returns the SELECT of the head tuples that rule r derives: its positive atoms
// joined (each from table AS a<index>, unless src says otherwise), with constants and repeated
// variables as equalities, its negated atoms as NOT EXISTS and its constraints as conditions.
// The columns are named c0, c1, ...
func (g *sqlGen) selectRule(r *Rule, src map[int]atomSrc) string {
	var from, where []string
	bound := map[string]string{}
	for i, a := range r.Body {
		if a.Negated {
			continue
		}
		s, ok := src[i]
		if !ok {
			s.alias = "a" + strconv.Itoa(i)
			s.from = g.table[a.Rel] + " AS " + s.alias
		}
		if s.from != "" {
			from = append(from, s.from)
		}
		if s.cond != "" {
			where = append(where, s.cond)
		}
		for j, t := range a.Args {
			col := s.alias + ".c" + strconv.Itoa(j)
			switch t.Kind {
			case Num, Sym:
				where = append(where, col+" = "+g.lit(t))
			case Var:
				if v, ok := bound[t.Name]; ok {
					where = append(where, col+" = "+v)
				} else {
					bound[t.Name] = col
				}
			}
		}
	}
	for i, a := range r.Body {
		if !a.Negated {
			continue
		}
		alias := "n" + strconv.Itoa(i)
		var conds []string
		for j, t := range a.Args {
			col := alias + ".c" + strconv.Itoa(j)
			switch t.Kind {
			case Num, Sym:
				conds = append(conds, col+" = "+g.lit(t))
			case Var:
				conds = append(conds, col+" = "+bound[t.Name])
			}
		}
		q := "SELECT 1 FROM " + g.table[a.Rel] + " AS " + alias
		if len(conds) > 0 {
			q += " WHERE " + strings.Join(conds, " AND ")
		}
		where = append(where, "NOT EXISTS ("+q+")")
	}
	for _, c := range r.Constraints {
		operand := func(t Term) string {
			if t.Kind == Var {
				return bound[t.Name]
			}
			return g.lit(t)
		}
		left := operand(c.Left)
		if c.Left.Kind == Sym && c.Right.Kind == Sym {
			left += g.d.collate
		}
		op := string(c.Op)
		if c.Op == Ne {
			op = "<>"
		}
		where = append(where, left+" "+op+" "+operand(c.Right))
	}
	var b strings.Builder
	b.WriteString("SELECT ")
	if len(r.Head.Args) == 0 {
		b.WriteString(g.selectLit(N(1)) + " AS c0")
	}
	for j, t := range r.Head.Args {
		if j > 0 {
			b.WriteString(", ")
		}
		if t.Kind == Var {
			b.WriteString(bound[t.Name])
		} else {
			b.WriteString(g.selectLit(t))
		}
		b.WriteString(" AS c" + strconv.Itoa(j))
	}
	if len(from) > 0 {
		b.WriteString(" FROM " + strings.Join(from, ", "))
	}
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	return b.String()
}

// lit returns the SQL literal of a constant.
func (g *sqlGen) lit(t Term) string {
	if t.Kind == Sym {
		return "'" + strings.ReplaceAll(t.Sym, "'", "''") + "'"
	}
	if t.Num == -1<<63 {
		return "(-9223372036854775807-1)"
	}
	return strconv.FormatInt(t.Num, 10)
}

// selectLit returns the literal of a constant in a select list, typed as the columns are.
func (g *sqlGen) selectLit(t Term) string {
	switch {
	case t.Kind == Sym:
		return g.lit(t) + g.d.collate
	case g.d.typed:
		return "CAST(" + g.lit(t) + " AS BIGINT)"
	}
	return g.lit(t)
}
