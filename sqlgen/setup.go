package sqlgen

import (
	"slices"
	"strconv"
	"strings"
)

// column is the schema model of one table column.
type column struct {
	name      string
	typ       colType
	notNull   bool
	unique    bool // UNIQUE or part of a PRIMARY KEY: values should rarely repeat
	generated bool
	rowid     bool   // an INTEGER PRIMARY KEY, which takes only integers
	coll      string // the declared collation, "" when none
}

// table is the schema model of one table.
type table struct {
	name        string
	cols        []column
	rows        float64 // rows inserted, an upper bound of the table's size
	temp        bool
	strict      bool
	hasCheck    bool // a CHECK constraint: plain inserts fail often
	constrained bool // NOT NULL, UNIQUE, PRIMARY KEY or CHECK constraints
}

// rel is a table or view as the query generator sees it: a name and qualified column references.
type rel struct {
	name string
	cols []string
	// types are the columns' static types in a typed dialect (nil in SQLite).
	types []sqlType
	// model holds a table's columns (nil for a view), for the expression evaluator.
	model []column
	// decls are a typed table's declared column types (nil for a view), for the evaluator.
	decls []string
	// dml says the relation is a table whose changes a transaction rolls back (DQE and EET DML
	// change it), and sets lists the indexes of the columns an UPDATE may assign.
	dml  bool
	sets []int
	temp bool
	// weight is 1 for a table and the sum of its inputs' weights for a view over a join; a view
	// reads relations of total weight at most 2.
	weight int
	// arms lists, for a view, the relations (indexes in setup.rels) each of its SELECTs joins.
	arms [][]int
	// rows bounds the relation's row count from above, as far as the generator can tell: the rows
	// inserted into a table, the product over a view's join (summed over UNION ALL arms).
	rows float64
}

// index is the model of one index (for sqlite_stat1 rows).
type index struct {
	name, table string
	ncols       int
}

// setup is a generated schema and data: its statements and the model the queries need.
type setup struct {
	stmts []string
	rels  []rel
	// knobs maps each planner switch the setup sets (knob.key) to its last statement setting it.
	knobs map[string]string
}

// setupBuilder generates one setup.
type setupBuilder struct {
	r       *rng
	d       *dialect
	o       *Options
	b       strings.Builder
	stmts   []string
	tables  []*table
	rels    []rel
	indexes []index
	nviews  int
	analyze bool
	noLike  bool // LIKE is non-deterministic (see dialect.likePragma)
}

func (s *setupBuilder) emit() {
	s.stmts = append(s.stmts, s.b.String())
	s.b.Reset()
}

func (s *setupBuilder) ws(parts ...string) {
	for _, p := range parts {
		s.b.WriteString(p)
	}
}

func (s *setupBuilder) expr(cols []string, depth int) { s.exprInto(&s.b, cols, depth) }

func (s *setupBuilder) pred(cols []string, depth int) { s.predInto(&s.b, cols, depth) }

// ddlExpr writes an expression stored in the schema (index expression, partial-index WHERE,
// generated column), which must be deterministic.
func (s *setupBuilder) ddlExpr(b *strings.Builder, cols []string, depth int, pred bool) {
	g := exprGen{r: s.r, d: s.d, b: b, cols: cols, maxDepth: min(depth, s.o.MaxDepth), noLike: s.noLike}
	if pred {
		g.predicate()
	} else {
		g.expr(0)
	}
}

// Action kinds of the interleaved part of a setup.
const (
	actInsert = iota
	actIndex
	actView
	actUpdate
	actDelete
	actPragma
	actMaint
	actStat1
)

// tableCount returns how many tables a setup creates: one, a second half the time, and more
// while a coin keeps landing, at most Options.MaxTables.
func tableCount(r *rng, o *Options) int {
	n := 1
	if r.prob(0.5) {
		n++
	}
	for n < o.MaxTables && r.prob(0.25) {
		n++
	}
	return min(n, o.MaxTables)
}

// actions is the interleaved part of a setup: action kinds, each repeated its count, to be
// shuffled.
type actions []int

func (a *actions) add(kind, n int) {
	for ; n > 0; n-- {
		*a = append(*a, kind)
	}
}

// startData adds the inserts and indexes every setup has.
func (a *actions) startData(r *rng, o *Options) {
	if o.MaxInserts > 0 {
		a.add(actInsert, o.MaxInserts/3+r.intn(o.MaxInserts-o.MaxInserts/3+1))
	}
	a.add(actIndex, r.intn(o.MaxIndexes+1))
}

// shuffle puts the actions in random order.
func (a actions) shuffle(r *rng) {
	for i := len(a) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

func buildSetup(d *dialect, o *Options, r *rng) *setup {
	s := &setupBuilder{r: r, d: d, o: o}
	if len(d.startPragma) > 0 && r.oneIn(8) {
		s.stmts = append(s.stmts, pick(r, d.startPragma))
	}
	if d.likePragma != "" && r.oneIn(6) {
		s.stmts = append(s.stmts, d.likePragma)
		s.noLike = true
	}
	for n := r.intn(3); n > 0; n-- {
		s.stmts = append(s.stmts, pick(r, d.pragmas))
	}
	for i, n := 0, tableCount(r, o); i < n; i++ {
		s.createTable(i)
	}
	var acts actions
	acts.startData(r, o)
	acts.add(actView, r.intn(o.MaxViews+1))
	acts.add(actUpdate, r.intn(4))
	if r.oneIn(3) {
		acts.add(actDelete, 1)
	}
	acts.add(actPragma, r.intn(3))
	acts.add(actMaint, r.intn(3))
	if d.stat1 && r.oneIn(6) {
		acts.add(actStat1, 1)
	}
	acts.shuffle(r)
	for _, a := range acts {
		switch a {
		case actInsert:
			s.insert(s.tables[r.intn(len(s.tables))])
		case actIndex:
			s.createIndex(s.tables[r.intn(len(s.tables))])
		case actView:
			s.createView()
		case actUpdate:
			s.update(s.tables[r.intn(len(s.tables))])
		case actDelete:
			t := s.tables[r.intn(len(s.tables))]
			s.ws("DELETE FROM ", t.name, " WHERE ")
			s.pred(s.qualified(t, false), 2)
			s.emit()
		case actPragma:
			s.stmts = append(s.stmts, pick(r, d.pragmas))
		case actMaint:
			s.maintenance()
		case actStat1:
			s.stat1()
		}
	}
	// Row bounds, now that every insert is known; a view only reads relations before it.
	for i := range s.rels {
		rl := &s.rels[i]
		if rl.arms == nil {
			rl.rows = s.tables[i].rows // tables come first, in order
			continue
		}
		rl.rows = 0
		for _, arm := range rl.arms {
			p := 1.0
			for _, k := range arm {
				p *= s.rels[k].rows
			}
			rl.rows += p
		}
	}
	for i, t := range s.tables {
		rl := &s.rels[i]
		rl.dml = true
		for j, c := range t.cols {
			if !c.generated {
				rl.sets = append(rl.sets, j)
			}
		}
		if o.tracks() {
			// Added last, so that INSERTs without a column list fill the generated columns.
			s.stmts = append(s.stmts, "ALTER TABLE "+t.name+" ADD COLUMN "+TrackColumn+" INT DEFAULT 0")
		}
	}
	return &setup{stmts: s.stmts, rels: s.rels}
}

// names returns the column names of t (unqualified), leaving out generated columns if asked.
func (s *setupBuilder) names(t *table, skipGenerated bool) []string {
	out := make([]string, 0, len(t.cols))
	for _, c := range t.cols {
		if !skipGenerated || !c.generated {
			out = append(out, c.name)
		}
	}
	return out
}

func (s *setupBuilder) qualified(t *table, skipGenerated bool) []string {
	out := s.names(t, skipGenerated)
	for i, c := range out {
		out[i] = t.name + "." + c
	}
	return out
}

func (s *setupBuilder) createTable(i int) {
	r, d := s.r, s.d
	t := &table{name: "t" + strconv.Itoa(i)}
	t.temp = d.tempTables && r.oneIn(10)
	t.strict = d.strictTypes != nil && r.oneIn(10)
	withoutRowid := d.withoutRow && r.oneIn(5)
	ncols := 1 + r.intn(s.o.MaxColumns)
	types := d.colTypes
	if t.strict {
		types = d.strictTypes
	}
	for j := 0; j < ncols; j++ {
		c := column{name: "c" + strconv.Itoa(j), typ: pick(r, types)}
		c.generated = d.generated && j > 0 && r.oneIn(8)
		t.cols = append(t.cols, c)
	}
	// Primary key: none, on one column, or a table constraint.
	pkMode := r.intn(10) // 0-4 none, 5-7 column, 8-9 table
	if withoutRowid && pkMode < 5 {
		pkMode = 5 + r.intn(5)
	}
	pkCol := -1
	var pkCols []int
	var plain []int // non-generated columns
	for j, c := range t.cols {
		if !c.generated {
			plain = append(plain, j)
		}
	}
	switch {
	case pkMode >= 8 && len(plain) > 1:
		perm := r.perm(len(plain))
		for _, k := range perm[:1+r.intn(len(plain))] {
			pkCols = append(pkCols, plain[k])
		}
	case pkMode >= 5:
		pkCol = plain[r.intn(len(plain))]
	}
	if t.temp {
		s.ws("CREATE TEMP TABLE ", t.name, " (")
	} else {
		s.ws("CREATE TABLE ", t.name, " (")
	}
	all := s.names(t, false)
	plainNames := s.names(t, true)
	// At most one ON CONFLICT clause per table: two that differ on one index are an error.
	conflictUsed := false
	onConflict := func(n int) string {
		if conflictUsed || !r.oneIn(n) {
			return ""
		}
		conflictUsed = true
		return " ON CONFLICT " + pick(r, d.conflicts)
	}
	var cons []string
	for j := range t.cols {
		c := &t.cols[j]
		if j > 0 {
			s.ws(", ")
		}
		s.ws(c.name)
		if c.typ.name != "" {
			s.ws(" ", c.typ.name)
		}
		cons = cons[:0]
		if c.generated {
			var g strings.Builder
			if r.prob(0.5) {
				g.WriteString("GENERATED ALWAYS ")
			}
			g.WriteString("AS (")
			s.ddlExpr(&g, plainNames, 2, false)
			g.WriteString(")")
			switch r.intn(3) {
			case 0:
				g.WriteString(" VIRTUAL")
			case 1:
				g.WriteString(" STORED")
			}
			cons = append(cons, g.String())
		}
		if j == pkCol {
			c.notNull = withoutRowid || t.strict
			c.unique = true
			p := "PRIMARY KEY"
			desc := false
			switch r.intn(4) {
			case 0:
				p += " ASC"
			case 1:
				p += " DESC"
				desc = true
			}
			p += onConflict(4)
			if c.typ.name == d.rowidType && !desc && !withoutRowid {
				c.rowid = true
				if r.oneIn(5) {
					p += " AUTOINCREMENT"
				}
			}
			cons = append(cons, p)
		}
		if r.oneIn(6) {
			c.unique = true
			p := "UNIQUE"
			p += onConflict(3)
			cons = append(cons, p)
		}
		if !c.generated && r.oneIn(6) {
			c.notNull = true
			p := "NOT NULL"
			p += onConflict(3)
			cons = append(cons, p)
		}
		if r.oneIn(10) && !(t.strict && d.noStrictCheck) {
			t.hasCheck = true
			var g strings.Builder
			g.WriteString("CHECK (")
			s.predInto(&g, all, 2)
			g.WriteString(")")
			cons = append(cons, g.String())
		}
		if !c.generated && r.oneIn(6) {
			cons = append(cons, "DEFAULT "+randLiteral(r, d, c.typ.aff))
		}
		if r.oneIn(6) {
			c.coll = pick(r, d.collations)
			cons = append(cons, "COLLATE "+c.coll)
		}
		for k := len(cons) - 1; k > 0; k-- {
			m := r.intn(k + 1)
			cons[k], cons[m] = cons[m], cons[k]
		}
		for _, p := range cons {
			s.ws(" ", p)
		}
	}
	if len(pkCols) > 0 {
		s.ws(", PRIMARY KEY (")
		s.indexedCols(t, pkCols, false)
		s.ws(")")
		s.ws(onConflict(4))
		for _, j := range pkCols {
			c := &t.cols[j]
			c.unique = len(pkCols) == 1
			c.notNull = c.notNull || withoutRowid || t.strict
			c.rowid = len(pkCols) == 1 && c.typ.name == d.rowidType && !withoutRowid
		}
	}
	if r.oneIn(8) {
		perm := r.perm(len(t.cols))
		cols := perm[:1+r.intn(min(2, len(t.cols)))]
		s.ws(", UNIQUE (")
		s.indexedCols(t, cols, false)
		if len(cols) == 1 {
			t.cols[cols[0]].unique = true
		}
		s.ws(")")
		s.ws(onConflict(3))
	}
	if r.oneIn(10) && !(t.strict && d.noStrictCheck) {
		t.hasCheck = true
		s.ws(", CHECK (")
		s.pred(all, 2)
		s.ws(")")
	}
	s.ws(")")
	switch {
	case t.strict && withoutRowid:
		s.ws(" STRICT, WITHOUT ROWID")
	case t.strict:
		s.ws(" STRICT")
	case withoutRowid:
		s.ws(" WITHOUT ROWID")
	}
	s.emit()
	for _, c := range t.cols {
		t.constrained = t.constrained || c.notNull || c.unique
	}
	t.constrained = t.constrained || t.hasCheck || len(pkCols) > 0
	s.tables = append(s.tables, t)
	s.rels = append(s.rels, rel{name: t.name, cols: s.qualified(t, false), temp: t.temp, weight: 1, model: t.cols})
}

// indexedCols writes "c1 DESC, c0 COLLATE NOCASE" for the given column indexes.
func (s *setupBuilder) indexedCols(t *table, cols []int, allowExpr bool) {
	r := s.r
	for k, j := range cols {
		if k > 0 {
			s.ws(", ")
		}
		var e strings.Builder
		if allowExpr && r.oneIn(4) {
			s.ddlExpr(&e, s.names(t, false), 2, false)
		}
		if e.Len() > 0 && hasPlainColumn(e.String()) {
			// Only terms with a column: a string literal there would name a column (SQLite).
			s.ws("(", e.String(), ")")
		} else {
			s.ws(t.cols[j].name)
		}
		if r.oneIn(5) {
			s.ws(" COLLATE ", pick(r, s.d.collations))
		}
		switch r.intn(5) {
		case 0:
			s.ws(" ASC")
		case 1:
			s.ws(" DESC")
		}
	}
}

func (s *setupBuilder) exprInto(b *strings.Builder, cols []string, depth int) {
	g := exprGen{r: s.r, d: s.d, b: b, cols: cols, maxDepth: min(depth, s.o.MaxDepth)}
	g.expr(0)
}

func (s *setupBuilder) predInto(b *strings.Builder, cols []string, depth int) {
	g := exprGen{r: s.r, d: s.d, b: b, cols: cols, maxDepth: min(depth, s.o.MaxDepth)}
	g.predicate()
}

func (s *setupBuilder) insert(t *table) {
	r, d := s.r, s.d
	fromSelect := len(s.tables) > 1 && r.oneIn(15)
	prefix := pick(r, d.insertOr)
	if fromSelect || t.hasCheck && r.prob(0.8) {
		prefix = d.insertIgnore
	}
	plain := make([]int, 0, len(t.cols))
	notNull := false
	for j, c := range t.cols {
		if !c.generated {
			plain = append(plain, j)
			notNull = notNull || c.notNull
		}
	}
	s.ws(prefix, " INTO ", t.name)
	if !notNull && r.oneIn(40) {
		t.rows++
		s.ws(" DEFAULT VALUES")
		s.emit()
		return
	}
	cols := plain
	subset := r.prob(0.4)
	if subset {
		// A random subset in random order, keeping the NOT NULL columns.
		perm := r.perm(len(plain))
		cols = nil
		for _, k := range perm {
			j := plain[k]
			if t.cols[j].notNull || r.prob(0.6) {
				cols = append(cols, j)
			}
		}
		if len(cols) == 0 {
			cols = append(cols, plain[perm[0]])
		}
	}
	explicit := subset || r.prob(0.7)
	if explicit {
		s.ws("(")
		for k, j := range cols {
			if k > 0 {
				s.ws(", ")
			}
			s.ws(t.cols[j].name)
		}
		s.ws(")")
	}
	if fromSelect {
		// Another table, so that repeated INSERT ... SELECT cannot double a table's rows.
		k := r.intn(len(s.tables) - 1)
		if s.tables[k] == t {
			k = len(s.tables) - 1
		}
		src := s.rels[k] // tables come first in s.rels
		t.rows += s.tables[k].rows
		s.ws(" SELECT ")
		for k := range cols {
			if k > 0 {
				s.ws(", ")
			}
			s.expr(src.cols, 1)
		}
		s.ws(" FROM ", src.name)
		if r.prob(0.5) {
			s.ws(" WHERE ")
			s.pred(src.cols, 2)
		}
		s.emit()
		return
	}
	s.ws(" VALUES ")
	nrows := 1 + r.intn(2)
	if r.oneIn(8) {
		nrows += 1 + r.intn(3)
	}
	t.rows += float64(nrows)
	for i := 0; i < nrows; i++ {
		if i > 0 {
			s.ws(", ")
		}
		s.ws("(")
		for k, j := range cols {
			if k > 0 {
				s.ws(", ")
			}
			s.value(t, &t.cols[j])
		}
		s.ws(")")
	}
	if d.upsert && prefix == "INSERT" && r.oneIn(8) {
		s.ws(" ON CONFLICT DO NOTHING")
	}
	s.emit()
}

// value writes a value for column c of t, mostly of its affinity (always in a STRICT table, an
// integer for a rowid alias), rarely NULL when it must not be, rarely repeated when it must be
// unique.
func (s *setupBuilder) value(t *table, c *column) {
	r, d := s.r, s.d
	switch {
	case c.rowid:
		if r.oneIn(8) {
			s.ws("NULL")
		} else {
			s.ws(r.smallInt(1000, 100000))
		}
	case c.notNull && r.oneIn(100), !c.notNull && r.oneIn(10):
		s.ws("NULL")
	case r.oneIn(30) && !t.strict && !c.notNull:
		s.expr(nil, 2)
	case c.unique && r.prob(0.9):
		switch c.typ.aff {
		case affText:
			s.ws("'", r.smallInt(0, 100000), "'")
		case affBlob:
			b := randBlob(r, d)
			for len(b) < 8 {
				b = randBlob(r, d)
			}
			s.ws(b)
		case affReal:
			s.ws(r.smallInt(1000, 100000), ".", r.smallInt(0, 10))
		default:
			s.ws(r.smallInt(1000, 100000))
		}
	case t.strict:
		switch c.typ.aff {
		case affInteger:
			s.ws(randInt(r, d))
		case affReal:
			s.ws(randReal(r, d))
		case affText:
			s.ws(pick(r, d.texts))
		case affBlob:
			s.ws(randBlob(r, d))
		default:
			s.ws(randLiteral(r, d, affNone))
		}
	default:
		v := randLiteral(r, d, c.typ.aff)
		for c.notNull && v == "NULL" {
			v = randLiteral(r, d, c.typ.aff)
		}
		s.ws(v)
	}
}

func (s *setupBuilder) update(t *table) {
	r, d := s.r, s.d
	prefix := pick(r, d.updateOr)
	if t.constrained && r.prob(0.6) {
		prefix = d.updateIgnore
	}
	s.ws(prefix, " ", t.name, " SET ")
	var plain []int
	for j, c := range t.cols {
		if !c.generated {
			plain = append(plain, j)
		}
	}
	scope := s.qualified(t, false)
	perm := r.perm(len(plain))
	n := 1 + r.intn(min(2, len(plain)))
	for k, p := range perm[:n] {
		if k > 0 {
			s.ws(", ")
		}
		c := &t.cols[plain[p]]
		s.ws(c.name, " = ")
		if c.rowid {
			s.ws(r.smallInt(1000, 100000)) // NULL is no rowid
		} else if c.unique || c.notNull || r.prob(0.3) {
			s.value(t, c)
		} else {
			s.expr(scope, 2)
		}
	}
	if r.prob(0.7) {
		s.ws(" WHERE ")
		s.pred(scope, 2)
	}
	s.emit()
}

func (s *setupBuilder) createIndex(t *table) {
	r, d := s.r, s.d
	name := "i" + strconv.Itoa(len(s.indexes))
	unique := r.oneIn(4)
	if unique {
		s.ws("CREATE UNIQUE INDEX ")
	} else {
		s.ws("CREATE INDEX ")
	}
	if r.oneIn(5) {
		s.ws("IF NOT EXISTS ")
	}
	s.ws(name, " ON ", t.name, " (")
	perm := r.perm(len(t.cols))
	n := 1 + r.intn(min(3, len(t.cols)))
	s.indexedCols(t, perm[:n], d.exprIdx)
	s.ws(")")
	if d.partialIdx && r.oneIn(4) {
		s.ws(" WHERE ")
		s.ddlExpr(&s.b, s.names(t, false), 2, true)
	}
	s.emit()
	s.indexes = append(s.indexes, index{name: name, table: t.name, ncols: n})
	if unique && n == 1 {
		t.cols[perm[0]].unique = true // later values should rarely repeat (an approximation)
	}
}

func (s *setupBuilder) createView() {
	r := s.r
	name := "v" + strconv.Itoa(s.nviews)
	s.nviews++
	ncols := 1 + r.intn(3)
	// Write the body first: it decides whether the view must be TEMP.
	var body strings.Builder
	compound := len(s.d.compoundWrap[0]) > 0 && r.oneIn(6)
	items, temp, weight := s.viewSelect(&body, ncols, compound)
	arms := [][]int{items}
	if compound {
		body.WriteString(" UNION ALL ")
		items2, t2, w2 := s.viewSelect(&body, ncols, true)
		temp, weight = temp || t2, max(weight, w2)
		arms = append(arms, items2)
	}
	if temp {
		s.ws("CREATE TEMP VIEW ", name, " (")
	} else {
		s.ws("CREATE VIEW ", name, " (")
	}
	cols := make([]string, ncols)
	for i := range cols {
		if i > 0 {
			s.ws(", ")
		}
		c := "c" + strconv.Itoa(i)
		s.ws(c)
		cols[i] = name + "." + c
	}
	s.ws(") AS ", body.String())
	s.emit()
	s.rels = append(s.rels, rel{name: name, cols: cols, temp: temp, weight: weight, arms: arms})
}

// viewSelect writes one SELECT of a view body and returns the relations it reads, whether any is
// temp, and their weight. In an arm of a compound view, every column is wrapped
// (dialect.compoundWrap).
func (s *setupBuilder) viewSelect(b *strings.Builder, ncols int, compound bool) ([]int, bool, int) {
	r := s.r
	var fb strings.Builder
	items, temp, weight := s.fromItems(&fb)
	from := fb.String()
	var scope []string
	for _, it := range items {
		scope = append(scope, s.rels[it].cols...)
	}
	b.WriteString("SELECT ")
	if s.o.DistinctViews && r.oneIn(4) {
		b.WriteString("DISTINCT ")
	}
	for i := 0; i < ncols; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		if compound {
			b.WriteString(s.d.compoundWrap[0])
		}
		if r.prob(0.5) {
			b.WriteString(pick(r, scope))
		} else {
			s.exprInto(b, scope, 2)
		}
		if compound {
			b.WriteString(s.d.compoundWrap[1])
		}
	}
	b.WriteString(" FROM ")
	b.WriteString(from)
	if r.prob(0.4) {
		b.WriteString(" WHERE ")
		s.predInto(b, scope, 2)
	}
	return items, temp, weight
}

// fromItems writes the FROM clause of a view: one or two existing relations of total weight at
// most 2. It returns their indexes in s.rels, whether any is temp, and the total weight.
func (s *setupBuilder) fromItems(b *strings.Builder) ([]int, bool, int) {
	items, weight := viewFrom(s.r, s.d, s.rels, b, func(scope []string, _ []sqlType) { s.predInto(b, scope, 2) })
	temp := false
	for _, i := range items {
		temp = temp || s.rels[i].temp
	}
	return items, temp, weight
}

// viewFrom writes the FROM clause of a view: one relation of rels, or two joined, of total weight
// at most 2; on writes a join's ON condition over the columns in scope. It returns the relations'
// indexes and their total weight.
func viewFrom(r *rng, d *dialect, rels []rel, b *strings.Builder, on func(scope []string, types []sqlType)) ([]int, int) {
	var items []int
	var scope []string
	var types []sqlType
	weight := 0
	for _, i := range r.perm(len(rels)) {
		rl := rels[i]
		if weight+rl.weight > 2 {
			continue
		}
		if len(items) == 0 {
			b.WriteString(rl.name)
		} else {
			j := pick(r, d.joins)
			writeJoin(b, j, rl.name)
			if j.on {
				b.WriteString(" ON ")
				on(append(slices.Clone(scope), rl.cols...), append(slices.Clone(types), rl.types...))
			}
		}
		items = append(items, i)
		scope = append(scope, rl.cols...)
		types = append(types, rl.types...)
		weight += rl.weight
		if len(items) == 2 || !r.prob(0.3) {
			break
		}
	}
	return items, weight
}

func (s *setupBuilder) maintenance() {
	r := s.r
	m := pick(r, s.d.maintenance)
	if m == "ANALYZE" {
		s.analyze = true
	}
	if (m == "ANALYZE" || m == "REINDEX") && r.prob(0.3) {
		// Tables only: an index may have failed to be created.
		t := s.tables[r.intn(len(s.tables))]
		if m == "REINDEX" && t.temp && !s.d.reindexTemp {
			m += " temp."
		} else {
			m += " "
		}
		m += t.name
	}
	s.stmts = append(s.stmts, m)
}

// stat1 rewrites planner statistics (SQLite's sqlite_stat1), then reloads them.
func (s *setupBuilder) stat1() {
	r := s.r
	if !s.analyze {
		s.stmts = append(s.stmts, "ANALYZE")
		s.analyze = true
	}
	s.ws("INSERT INTO sqlite_stat1 VALUES ")
	n := 1 + r.intn(2)
	for i := 0; i < n; i++ {
		if i > 0 {
			s.ws(", ")
		}
		if len(s.indexes) > 0 && r.prob(0.7) {
			ix := s.indexes[r.intn(len(s.indexes))]
			s.ws("('", ix.table, "', '", ix.name, "', '", r.smallInt(0, 10000))
			for k := 0; k < ix.ncols; k++ {
				s.ws(" ", r.smallInt(0, 100))
			}
			if r.oneIn(4) {
				s.ws(" unordered")
			}
			s.ws("')")
		} else {
			t := s.tables[r.intn(len(s.tables))]
			s.ws("('", t.name, "', NULL, '", r.smallInt(0, 100000), "')")
		}
	}
	s.emit()
	s.stmts = append(s.stmts, "ANALYZE "+s.d.schemaTable)
}

// perm returns a random permutation of [0, n).
func (r *rng) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		j := r.intn(i + 1)
		p[i] = p[j]
		p[j] = i
	}
	return p
}

// hasPlainColumn reports whether an expression refers to an unqualified column.
func hasPlainColumn(expr string) bool {
	for _, t := range tokenize(expr) {
		if t.kind == tkWord && isPlainColumn(expr[t.s:t.e]) {
			return true
		}
	}
	return false
}
