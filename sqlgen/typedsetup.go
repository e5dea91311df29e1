package sqlgen

import (
	"strconv"
	"strings"
)

// tcol is a column of a typed table.
type tcol struct {
	name    string
	t       sqlType
	notNull bool
	unique  bool
}

// typedSetup generates one setup of a typed dialect: tables with declared types and constraints,
// typed rows, indexes, views, updates, deletes and maintenance statements.
type typedSetup struct {
	r       *rng
	d       *dialect
	td      *typedData
	o       *Options
	b       strings.Builder
	stmts   []string
	tables  [][]tcol
	rels    []rel
	nindex  int
	nviews  int
	ntables int
}

func (s *typedSetup) ws(parts ...string) {
	for _, p := range parts {
		s.b.WriteString(p)
	}
}

func (s *typedSetup) emit() {
	s.stmts = append(s.stmts, s.b.String())
	s.b.Reset()
}

func (s *typedSetup) gen(b *strings.Builder, cols []string, types []sqlType, depth int) *typedGen {
	return &typedGen{r: s.r, d: s.d, t: s.td, b: b, cols: cols, types: types, maxDepth: min(depth, s.o.MaxDepth)}
}

// buildTypedSetup generates a setup for a typed dialect.
func buildTypedSetup(d *dialect, o *Options, r *rng) *setup {
	s := &typedSetup{r: r, d: d, td: d.typed, o: o}
	for i, n := 0, tableCount(r, o); i < n; i++ {
		s.createTable(i)
	}
	var acts actions
	acts.startData(r, o)
	if s.td.views {
		acts.add(actView, r.intn(o.MaxViews+1))
	}
	if s.td.updates {
		acts.add(actUpdate, r.intn(3))
	}
	if s.td.deletes && r.oneIn(3) {
		acts.add(actDelete, 1)
	}
	if len(s.td.maintenance) > 0 {
		acts.add(actMaint, r.intn(3))
	}
	if len(s.td.settings) > 0 {
		acts.add(actPragma, r.intn(3))
	}
	acts.shuffle(r)
	rows := make([]float64, len(s.tables))
	for _, a := range acts {
		ti := r.intn(len(s.tables))
		switch a {
		case actInsert:
			rows[ti] += s.insert(ti)
		case actIndex:
			if !s.td.noIndexes {
				s.createIndex(ti)
			}
		case actView:
			s.createView()
		case actUpdate:
			s.update(ti)
		case actDelete:
			if s.td.alterDML {
				s.ws("ALTER TABLE t", strconv.Itoa(ti), " DELETE WHERE ")
			} else {
				s.ws("DELETE FROM t", strconv.Itoa(ti), " WHERE ")
			}
			cols, types := s.scope(ti)
			s.gen(&s.b, cols, types, 2).predicate()
			s.emit()
		case actPragma:
			s.stmts = append(s.stmts, pick(r, s.td.settings))
		case actMaint:
			m := pick(r, s.td.maintenance)
			s.stmts = append(s.stmts, strings.ReplaceAll(m, "%t", "t"+strconv.Itoa(ti)))
		}
	}
	for i := range s.rels {
		rl := &s.rels[i]
		if rl.arms == nil {
			rl.rows = rows[i]
			continue
		}
		p := 1.0
		for _, k := range rl.arms[0] {
			p *= s.rels[k].rows
		}
		rl.rows = p
	}
	return &setup{stmts: s.stmts, rels: s.rels}
}

// scope returns the qualified columns of table i and their types.
func (s *typedSetup) scope(i int) ([]string, []sqlType) {
	return s.rels[i].cols, s.rels[i].types
}

func (s *typedSetup) createTable(i int) {
	r, td := s.r, s.td
	name := "t" + strconv.Itoa(i)
	var cols []tcol
	for j, n := 0, 1+r.intn(s.o.MaxColumns); j < n; j++ {
		var t sqlType
		for t == tNone || len(td.colTypes[t]) == 0 {
			t = sqlType(1 + r.intn(int(tCount)-1))
			if t == tFloat && r.prob(0.5) { // floats make fewer interesting comparisons
				t = tInt
			}
		}
		cols = append(cols, tcol{name: "c" + strconv.Itoa(j), t: t})
	}
	s.ws("CREATE ")
	if len(td.tablePrefixes) > 0 && r.oneIn(6) {
		s.ws(pick(r, td.tablePrefixes))
	}
	s.ws("TABLE ", name, " (")
	pk := -1
	if td.constraints && r.prob(0.4) {
		pk = r.intn(len(cols))
	}
	var names, decls []string
	var types []sqlType
	for _, c := range cols {
		names = append(names, c.name)
		types = append(types, c.t)
	}
	for j := range cols {
		c := &cols[j]
		if j > 0 {
			s.ws(", ")
		}
		decl := pick(r, td.colTypes[c.t])
		decls = append(decls, decl)
		s.ws(c.name, " ", decl)
		if j == pk {
			s.ws(" PRIMARY KEY")
			c.unique, c.notNull = true, true
		} else if td.constraints || td.notNull {
			if td.constraints && r.oneIn(8) {
				s.ws(" UNIQUE")
				c.unique = true
			}
			if r.oneIn(8) {
				s.ws(" NOT NULL")
				c.notNull = true
			}
		}
		if td.defaults && r.oneIn(8) {
			v := typedValue(r, td, c.t)
			if c.t == tInt {
				v = strconv.Itoa(r.intn(100)) // fits every integer type
			}
			s.ws(" DEFAULT ", v)
		}
	}
	if td.checks && r.oneIn(10) {
		s.ws(", CHECK (")
		s.gen(&s.b, names, types, 2).predicate()
		s.ws(")")
	}
	if s.o.tracks() {
		s.ws(", ", TrackColumn, " INT DEFAULT 0")
	}
	s.ws(")")
	suffix := ""
	if len(td.tableSuffixes) > 0 && r.oneIn(3) {
		suffix = pick(r, td.tableSuffixes)
		s.ws(suffix)
	}
	s.emit()
	s.tables = append(s.tables, cols)
	q := make([]string, len(names))
	for k, n := range names {
		q[k] = name + "." + n
	}
	sets := make([]int, len(names))
	for k := range sets {
		sets[k] = k
	}
	// A storage engine other than InnoDB (MyISAM, Aria) does not roll back.
	dml := !td.noRollback && (!strings.Contains(suffix, "ENGINE=") || strings.Contains(suffix, "InnoDB"))
	s.rels = append(s.rels, rel{name: name, cols: q, types: types, decls: decls, weight: 1, dml: dml, sets: sets})
}

// insert writes an INSERT of one to four rows into table ti and returns the rows it adds at most.
func (s *typedSetup) insert(ti int) float64 {
	r, td := s.r, s.td
	cols := s.tables[ti]
	ignore := td.insertIgnore != "" && r.oneIn(4)
	if ignore {
		s.ws(td.insertIgnore)
	} else {
		s.ws("INSERT")
	}
	s.ws(" INTO t", strconv.Itoa(ti), " (")
	for j, c := range cols {
		if j > 0 {
			s.ws(", ")
		}
		s.ws(c.name)
	}
	s.ws(") VALUES ")
	n := 1 + r.intn(2)
	if r.oneIn(6) {
		n += 1 + r.intn(2)
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			s.ws(", ")
		}
		s.ws("(")
		for j, c := range cols {
			if j > 0 {
				s.ws(", ")
			}
			switch {
			case !c.notNull && r.oneIn(8), c.notNull && r.oneIn(60):
				s.ws("NULL")
			case c.unique && r.prob(0.8):
				s.ws(uniqueValue(r, td, c.t))
			default:
				s.ws(typedValue(r, td, c.t))
			}
		}
		s.ws(")")
	}
	if !ignore && td.onConflict && r.oneIn(5) {
		s.ws(" ON CONFLICT DO NOTHING")
	}
	s.emit()
	return float64(n)
}

// uniqueValue returns a value of type t that rarely repeats.
func uniqueValue(r *rng, td *typedData, t sqlType) string {
	switch t {
	case tInt:
		return r.smallInt(0, 30000)
	case tNum:
		return td.numWrap[0] + r.smallInt(0, 30000) + "." + strconv.Itoa(r.intn(10)) + td.numWrap[1]
	case tFloat:
		return "CAST(" + r.smallInt(0, 30000) + ".5 AS " + td.castTypes[tFloat] + ")"
	case tText:
		return "'u" + r.smallInt(0, 30000) + "'"
	}
	return typedValue(r, td, t)
}

func (s *typedSetup) update(ti int) {
	r := s.r
	cols, types := s.scope(ti)
	tc := s.tables[ti]
	if s.td.alterDML {
		s.ws("ALTER TABLE t", strconv.Itoa(ti), " UPDATE ")
	} else {
		s.ws("UPDATE t", strconv.Itoa(ti), " SET ")
	}
	j := r.intn(len(tc))
	s.ws(tc[j].name, " = ")
	if tc[j].unique || tc[j].notNull || r.prob(0.4) {
		s.ws(typedValue(r, s.td, tc[j].t))
	} else {
		s.gen(&s.b, cols, types, 2).expr(tc[j].t, 0)
	}
	if r.prob(0.7) {
		s.ws(" WHERE ")
		s.gen(&s.b, cols, types, 2).predicate()
	} else if s.td.alterDML {
		s.ws(" WHERE ", s.td.trueLit) // a mutation's WHERE is not optional
	}
	s.emit()
}

func (s *typedSetup) createIndex(ti int) {
	r, td := s.r, s.td
	tc := s.tables[ti]
	if len(td.indexTypes) > 0 {
		s.ws("CREATE INDEX i", strconv.Itoa(s.nindex), " ON t", strconv.Itoa(ti), " (")
		s.nindex++
		// A column only: ClickHouse rejects an index expression with a constant part
		// ("Secondary index cannot contain constants").
		s.ws(tc[r.intn(len(tc))].name)
		s.ws(") TYPE ", pick(r, td.indexTypes))
		s.emit()
		return
	}
	s.ws("CREATE ")
	if td.uniqueIdx && r.oneIn(4) {
		s.ws("UNIQUE ")
	}
	s.ws("INDEX i", strconv.Itoa(s.nindex), " ON t", strconv.Itoa(ti), " (")
	s.nindex++
	perm := r.perm(len(tc))
	for k, j := range perm[:1+r.intn(min(3, len(tc)))] {
		if k > 0 {
			s.ws(", ")
		}
		if td.exprIdx && r.oneIn(4) {
			names := make([]string, len(tc))
			types := make([]sqlType, len(tc))
			for i, c := range tc {
				names[i], types[i] = c.name, c.t
			}
			var e strings.Builder
			s.gen(&e, names, types, 2).expr(tc[j].t, 0)
			if hasPlainColumn(e.String()) { // a constant index term has no type in PostgreSQL
				s.ws("(", e.String(), ")")
			} else {
				s.ws(tc[j].name)
			}
		} else {
			s.ws(tc[j].name)
		}
		switch r.intn(4) {
		case 0:
			s.ws(" DESC")
		case 1:
			s.ws(" ASC")
		}
	}
	s.ws(")")
	if td.partialIdx && r.oneIn(4) {
		names := make([]string, len(tc))
		types := make([]sqlType, len(tc))
		for i, c := range tc {
			names[i], types[i] = c.name, c.t
		}
		s.ws(" WHERE ")
		s.gen(&s.b, names, types, 2).predicate()
	}
	s.emit()
}

// createView writes a view over one relation or a join of two (total weight at most 2).
func (s *typedSetup) createView() {
	r := s.r
	name := "v" + strconv.Itoa(s.nviews)
	s.nviews++
	var from strings.Builder
	items, weight := viewFrom(r, s.d, s.rels, &from, func(scope []string, types []sqlType) {
		s.gen(&from, scope, types, 2).predicate()
	})
	var scope []string
	var stypes []sqlType
	for _, i := range items {
		scope = append(scope, s.rels[i].cols...)
		stypes = append(stypes, s.rels[i].types...)
	}
	ncols := 1 + r.intn(3)
	var body strings.Builder
	body.WriteString("SELECT ")
	cols := make([]string, ncols)
	types := make([]sqlType, ncols)
	for i := range cols {
		if i > 0 {
			body.WriteString(", ")
		}
		k := r.intn(len(scope))
		types[i] = stypes[k]
		if r.prob(0.5) {
			body.WriteString(scope[k])
		} else {
			s.gen(&body, scope, stypes, 2).expr(types[i], 0)
		}
		body.WriteString(" AS c" + strconv.Itoa(i))
		cols[i] = name + ".c" + strconv.Itoa(i)
	}
	body.WriteString(" FROM ")
	body.WriteString(from.String())
	if r.prob(0.4) {
		body.WriteString(" WHERE ")
		s.gen(&body, scope, stypes, 2).predicate()
	}
	s.ws("CREATE VIEW ", name, " AS ", body.String())
	s.emit()
	s.rels = append(s.rels, rel{name: name, cols: cols, types: types, weight: weight, arms: [][]int{items}})
}
