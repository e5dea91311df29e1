package sqlgen

import (
	"strconv"
	"strings"
)

// sqlType is the static type of an expression in a typed dialect.
type sqlType uint8

const (
	tNone  sqlType = iota // untyped (SQLite's dynamic typing)
	tBool                 // BOOLEAN (MySQL: an integer 0/1)
	tInt                  // an integer type
	tNum                  // an exact decimal (NUMERIC, DECIMAL)
	tFloat                // a binary float (DOUBLE PRECISION, REAL)
	tText                 // a string (TEXT, VARCHAR)
	tCount
)

func (t sqlType) numeric() bool { return t == tInt || t == tNum || t == tFloat }

// tfunc is a deterministic function of a typed dialect: its result type and argument types.
type tfunc struct {
	name string
	ret  sqlType
	args []sqlType
}

// typedData is what a typed dialect (PostgreSQL, MySQL, DuckDB, the common subset) adds to the
// shared dialect data: types, literals and the operators and functions per type. Every expression
// the typed generator writes has one static type the engine agrees with, so that type errors stay
// rare.
type typedData struct {
	// colTypes are the declared column types per type (empty: no columns of that type).
	colTypes [tCount][]string
	// castTypes are the names CAST takes per type ("" : no cast to that type).
	castTypes [tCount]string
	// nulls are NULLs of each type where CAST cannot write them (NULLIF(0, 0)).
	nulls [tCount]string
	// Value pools per type, as literals; floats are written CAST(v AS castTypes[tFloat]).
	ints, nums, floats, texts []string
	// numWrap, when set, surrounds every decimal literal (ClickHouse reads 0.5 as a Float64).
	numWrap           [2]string
	trueLit, falseLit string
	concat            string // string concatenation operator ("": the concat function)
	noConcat          bool   // no concatenation at all
	intDiv, mod       string // integer division and remainder operators ("": none)
	bitwise           []string
	// coerce lets comparisons mix text and numbers, which MySQL and MariaDB coerce (a rich
	// source of bugs there, an error elsewhere).
	coerce         bool
	distinctFrom   bool   // IS [NOT] DISTINCT FROM
	nullSafeEq     string // a null-safe equality operator (MySQL's <=>), "" none
	like           []string
	isUnknown      bool // IS [NOT] UNKNOWN
	symmetric      bool // BETWEEN SYMMETRIC
	noNotBetween   bool // no NOT BETWEEN (written BETWEEN: the random draws stay those of the others)
	greatest       bool // GREATEST and LEAST
	funcs          []tfunc
	textCollations []string // COLLATE names for text expressions
	// DDL and DML.
	uniqueIdx, partialIdx, exprIdx bool
	constraints                    bool     // PRIMARY KEY, UNIQUE and NOT NULL columns
	checks                         bool     // CHECK constraints
	defaults                       bool     // DEFAULT values
	insertIgnore                   string   // INSERT prefix that skips bad rows ("": none)
	onConflict                     bool     // INSERT ... ON CONFLICT DO NOTHING
	tableSuffixes                  []string // table options written after the column list
	tablePrefixes                  []string // words between CREATE and TABLE ("UNLOGGED ")
	maintenance                    []string // statements; %t is replaced by a table name
	// settings are session settings a setup may change (planner switches); the target's Reset
	// restores them.
	settings         []string
	updates, deletes bool
	views            bool
	// noRollback says the engine cannot UPDATE or DELETE inside a transaction it rolls back, so
	// cases carry no DQE and no EET DML queries.
	noRollback bool

	// notNull allows NOT NULL columns where constraints is false: the engine enforces NOT NULL
	// but takes keys on trust (unenforced keys the optimizer believes give wrong answers).
	notNull bool
	// noIndexes says the engine has no CREATE INDEX.
	noIndexes bool
	// floatDecimalApart keeps DECIMAL and float operands out of one comparison: DataFusion
	// compares them as decimals, which cannot hold every float (apache/datafusion#14272).
	floatDecimalApart bool

	// alterDML writes updates and deletes as ClickHouse's mutations: ALTER TABLE t UPDATE c = v
	// WHERE p, and ALTER TABLE t DELETE WHERE p.
	alterDML bool
	// indexTypes, when set, makes indexes ClickHouse's data-skipping indexes: CREATE INDEX i ON t
	// (c) TYPE <one of them>, one column, no order, no UNIQUE, no WHERE.
	indexTypes []string
	// session are the SET statements the target applies at start and after every reset: the
	// session settings polyfuzz owns, under which the oracles' relations hold (see SessionSettings).
	session []string
}

// typedGen writes random typed expressions into b. Like exprGen it parenthesizes every compound
// expression.
type typedGen struct {
	r        *rng
	d        *dialect
	t        *typedData
	b        *strings.Builder
	cols     []string
	types    []sqlType
	maxDepth int
}

func (g *typedGen) ws(s string) { g.b.WriteString(s) }

// predicate writes a Boolean expression.
func (g *typedGen) predicate() { g.expr(tBool, 0) }

// colOf returns a random column of type t in scope, or "".
func (g *typedGen) colOf(t sqlType) string {
	n := 0
	for _, ct := range g.types {
		if ct == t {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	k := g.r.intn(n)
	for i, ct := range g.types {
		if ct == t {
			if k == 0 {
				return g.cols[i]
			}
			k--
		}
	}
	return ""
}

// anyType returns a type to compare or combine, biased towards the types of the scope's columns.
func (g *typedGen) anyType() sqlType {
	if len(g.types) > 0 && g.r.prob(0.7) {
		return g.types[g.r.intn(len(g.types))]
	}
	for {
		t := sqlType(1 + g.r.intn(int(tCount)-1))
		if t == tBool && (len(g.t.colTypes[tBool]) > 0 || g.r.prob(0.3)) || t != tBool && len(g.t.colTypes[t]) > 0 {
			return t
		}
	}
}

// leaf writes a column of type t or a literal.
func (g *typedGen) leaf(t sqlType) {
	if c := g.colOf(t); c != "" && g.r.prob(0.6) {
		g.ws(c)
		return
	}
	g.ws(g.literal(t))
}

// literal returns a literal of type t (NULL one time in twelve).
func (g *typedGen) literal(t sqlType) string {
	if g.r.oneIn(12) {
		return typedNull(g.t, t)
	}
	return typedValue(g.r, g.t, t)
}

// typedNull returns a NULL of type t: CAST(NULL AS type) where the dialect can cast to t, so that
// engines that resolve types (PostgreSQL) never meet an unknown-typed NULL.
func typedNull(td *typedData, t sqlType) string {
	if td.nulls[t] != "" {
		return td.nulls[t]
	}
	if td.castTypes[t] != "" {
		return "CAST(NULL AS " + td.castTypes[t] + ")"
	}
	return "NULL"
}

// typedValue returns a non-NULL literal of type t.
func typedValue(r *rng, td *typedData, t sqlType) string {
	switch t {
	case tBool:
		if r.prob(0.5) {
			return td.trueLit
		}
		return td.falseLit
	case tInt:
		if r.prob(0.3) {
			return pick(r, td.ints)
		}
		return r.smallInt(20, 100)
	case tNum:
		v := pick(r, td.nums)
		if r.prob(0.5) {
			v = r.smallInt(100, 1000) + "." + strconv.Itoa(r.intn(100))
		}
		return td.numWrap[0] + v + td.numWrap[1]
	case tFloat:
		v := pick(r, td.floats)
		if r.prob(0.3) {
			v = r.smallInt(100, 1000) + "." + strconv.Itoa(r.intn(10))
		}
		return "CAST(" + v + " AS " + td.castTypes[tFloat] + ")"
	case tText:
		return pick(r, td.texts)
	}
	return "NULL"
}

// expr writes an expression of type t.
func (g *typedGen) expr(t sqlType, depth int) {
	if depth >= g.maxDepth || (depth > 0 && g.r.prob(0.15+0.1*float64(depth))) {
		g.leaf(t)
		return
	}
	switch t {
	case tBool:
		g.boolExpr(depth)
	case tText:
		g.textExpr(depth)
	default:
		g.numExpr(t, depth)
	}
}

// list writes n comma-separated expressions of type t.
func (g *typedGen) list(t sqlType, n, depth int) {
	for i := 0; i < n; i++ {
		if i > 0 {
			g.ws(", ")
		}
		g.expr(t, depth+1)
	}
}

func (g *typedGen) bin(op string, lt, rt sqlType, depth int) {
	g.ws("(")
	g.expr(lt, depth+1)
	g.ws(" ")
	g.ws(op)
	g.ws(" ")
	g.expr(rt, depth+1)
	g.ws(")")
}

// cmpType returns a type for the operands of a comparison and a partner type for the right side
// (numeric types mix).
func (g *typedGen) cmpType() (sqlType, sqlType) {
	t := g.anyType()
	switch {
	case g.t.coerce && (t.numeric() || t == tText) && g.r.oneIn(6):
		if t == tText {
			return t, pickNumeric(g.r, g.t)
		}
		return t, tText
	case t.numeric() && g.r.oneIn(4):
		u := pickNumeric(g.r, g.t)
		if g.t.floatDecimalApart && (t == tNum && u == tFloat || t == tFloat && u == tNum) {
			u = t
		}
		return t, u
	}
	return t, t
}

func pickNumeric(r *rng, td *typedData) sqlType {
	for {
		t := []sqlType{tInt, tInt, tNum, tFloat}[r.intn(4)]
		if len(td.colTypes[t]) > 0 {
			return t
		}
	}
}

var compareOps = []string{"=", "<>", "<", "<=", ">", ">="}

func (g *typedGen) boolExpr(depth int) {
	r, td := g.r, g.t
	switch k := r.intn(100); {
	case k < 30:
		a, b := g.cmpType()
		g.bin(pick(r, compareOps), a, b, depth)
	case k < 45:
		g.bin(pick(r, []string{"AND", "OR"}), tBool, tBool, depth)
	case k < 52:
		g.ws("(NOT ")
		g.expr(tBool, depth+1)
		g.ws(")")
	case k < 60:
		g.ws("(")
		g.expr(g.anyType(), depth+1)
		g.ws(pick(r, []string{" IS NULL)", " IS NOT NULL)"}))
	case k < 65:
		g.ws("(")
		g.expr(tBool, depth+1)
		post := []string{" IS TRUE)", " IS FALSE)", " IS NOT TRUE)", " IS NOT FALSE)"}
		if td.isUnknown {
			post = append(post, " IS UNKNOWN)", " IS NOT UNKNOWN)")
		}
		g.ws(pick(r, post))
	case k < 72:
		a, b := g.cmpType()
		g.ws("(")
		g.expr(a, depth+1)
		kw := pick(r, []string{" BETWEEN ", " NOT BETWEEN ", " BETWEEN "})
		if td.noNotBetween {
			kw = " BETWEEN "
		}
		g.ws(kw)
		if td.symmetric && r.oneIn(4) {
			g.ws("SYMMETRIC ")
		}
		g.expr(b, depth+1)
		g.ws(" AND ")
		g.expr(b, depth+1)
		g.ws(")")
	case k < 79:
		a, _ := g.cmpType()
		g.ws("(")
		g.expr(a, depth+1)
		g.ws(pick(r, []string{" IN (", " NOT IN (", " IN ("}))
		g.list(a, 1+r.intn(3), depth)
		g.ws("))")
	case k < 85 && len(td.like) > 0:
		g.ws("(")
		g.expr(tText, depth+1)
		g.ws(" ")
		g.ws(pick(r, td.like))
		g.ws(" ")
		if r.prob(0.6) {
			g.ws(pick(r, likePatterns))
		} else {
			g.expr(tText, depth+1)
		}
		g.ws(")")
	case k < 90 && (td.distinctFrom || td.nullSafeEq != ""):
		a, b := g.cmpType()
		if td.distinctFrom {
			g.bin(pick(r, []string{"IS DISTINCT FROM", "IS NOT DISTINCT FROM"}), a, b, depth)
		} else if r.prob(0.5) {
			g.bin(td.nullSafeEq, a, b, depth)
		} else {
			g.ws("(NOT ")
			g.bin(td.nullSafeEq, a, b, depth)
			g.ws(")")
		}
	default:
		g.generic(tBool, depth)
	}
}

var likePatterns = []string{"'%'", "'a%'", "'%a'", "'_'", "'%b%'", "'A%'", "'%1%'", "''", "'a_c'", "'%\\%%'"}

// generic writes the constructs every type has: CASE, COALESCE, NULLIF, a function returning
// the type, a cast, or a leaf.
func (g *typedGen) generic(t sqlType, depth int) {
	r := g.r
	switch k := r.intn(10); {
	case k < 2:
		g.ws("(CASE")
		simple := r.prob(0.3)
		var st sqlType
		if simple {
			st = g.anyType()
			g.ws(" ")
			g.expr(st, depth+1)
		}
		for n := 1 + r.intn(2); n > 0; n-- {
			g.ws(" WHEN ")
			if simple {
				g.expr(st, depth+1)
			} else {
				g.expr(tBool, depth+1)
			}
			g.ws(" THEN ")
			g.expr(t, depth+1)
		}
		if r.prob(0.7) {
			g.ws(" ELSE ")
			g.expr(t, depth+1)
		}
		g.ws(" END)")
	case k < 4:
		g.ws("COALESCE(")
		g.list(t, 2+r.intn(2), depth)
		g.ws(")")
	case k < 5:
		g.ws("NULLIF(")
		g.expr(t, depth+1)
		g.ws(", ")
		g.expr(t, depth+1)
		g.ws(")")
	case k < 6 && g.t.greatest && t != tBool:
		g.ws(pick(r, []string{"GREATEST(", "LEAST("}))
		g.list(t, 2+r.intn(2), depth)
		g.ws(")")
	case k < 9:
		var fs []tfunc
		for _, f := range g.t.funcs {
			if f.ret == t {
				fs = append(fs, f)
			}
		}
		if len(fs) == 0 {
			g.leaf(t)
			return
		}
		f := pick(r, fs)
		g.ws(f.name)
		g.ws("(")
		for i, a := range f.args {
			if i > 0 {
				g.ws(", ")
			}
			if a == tInt && (strings.Contains(f.name, "pad") || strings.Contains(f.name, "repeat") ||
				strings.Contains(f.name, "left") || strings.Contains(f.name, "right") || strings.Contains(f.name, "substr") ||
				strings.Contains(f.name, "round")) {
				g.ws(strconv.Itoa(r.intn(6))) // small lengths and positions: no huge strings
				continue
			}
			g.expr(a, depth+1)
		}
		g.ws(")")
	default:
		from := g.anyType()
		if !castable(from, t) || g.t.castTypes[t] == "" || from == tText && r.prob(0.7) {
			g.leaf(t)
			return
		}
		g.ws("CAST(")
		g.expr(from, depth+1)
		g.ws(" AS ")
		g.ws(g.t.castTypes[t])
		g.ws(")")
	}
}

// castable reports whether a cast from one type to another is one the typed dialects all allow
// between numbers, from numbers and Booleans to text, and from text to numbers.
func castable(from, to sqlType) bool {
	switch {
	case to == tBool:
		return false
	case to == tText:
		return true
	case from == tBool:
		return false
	}
	return true
}

func (g *typedGen) numExpr(t sqlType, depth int) {
	r, td := g.r, g.t
	switch k := r.intn(100); {
	case k < 35:
		g.bin(pick(r, []string{"+", "-", "*", "+", "-"}), t, t, depth)
	case k < 42 && t == tInt && td.intDiv != "":
		g.bin(pick(r, []string{td.intDiv, td.mod}), t, t, depth)
	case k < 42 && t == tInt && td.mod != "":
		g.bin(td.mod, t, t, depth) // no integer division (DuckDB before 0.8)
	case k < 46 && t == tInt && len(td.bitwise) > 0:
		g.bin(pick(r, td.bitwise), t, t, depth)
	case k < 52:
		g.ws("(- ")
		g.expr(t, depth+1)
		g.ws(")")
	default:
		g.generic(t, depth)
	}
}

func (g *typedGen) textExpr(depth int) {
	r, td := g.r, g.t
	switch k := r.intn(100); {
	case k < 20 && !td.noConcat:
		if td.concat != "" {
			g.bin(td.concat, tText, tText, depth)
		} else {
			g.ws("CONCAT(")
			g.list(tText, 2, depth)
			g.ws(")")
		}
	case k < 28 && len(td.textCollations) > 0:
		g.ws("(")
		g.expr(tText, depth+1)
		g.ws(" COLLATE ")
		g.ws(pick(r, td.textCollations))
		g.ws(")")
	default:
		g.generic(tText, depth)
	}
}
