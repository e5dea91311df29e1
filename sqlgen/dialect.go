package sqlgen

import (
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// affinity is a column's type affinity (SQLite's five, which other dialects map onto).
type affinity uint8

const (
	affNone affinity = iota // no declared type (SQLite: BLOB affinity)
	affInteger
	affText
	affBlob
	affReal
	affNumeric
)

// colType is a declared column type name and the affinity it gives.
type colType struct {
	name string
	aff  affinity
}

// argKind says how a function's arguments are generated.
type argKind uint8

const (
	argsExpr       argKind = iota // every argument is an expression
	argsLikelihood                // (expr, probability literal in [0,1])
	argsZeroblob                  // (small integer literal)
	argsPrintf                    // (safe format literal, expr...)
)

// function is a deterministic scalar function.
type function struct {
	name     string
	min, max int // argument count bounds
	args     argKind
}

// joinKind is one way to add a table to a FROM clause.
type joinKind struct {
	kw string // "LEFT JOIN", ",", ...
	on bool   // takes an ON condition
}

// dialect is the per-dialect data the generator reads: names, literals, operators, functions and
// statements, plus a few feature switches. A new dialect is a new value of this struct (and an
// expected_<name>.tsv), not new branches in the generator.
type dialect struct {
	name string

	// Schema.
	colTypes     []colType // declared types for ordinary tables
	strictTypes  []colType // declared types allowed in STRICT tables (nil: no STRICT)
	collations   []string  // collation names for COLLATE
	conflicts    []string  // ON CONFLICT resolutions in column/table constraints
	insertOr     []string  // INSERT prefixes ("INSERT", "INSERT OR IGNORE", ...)
	insertIgnore string    // the INSERT prefix that skips rows violating constraints
	updateOr     []string  // UPDATE prefixes
	updateIgnore string    // the UPDATE prefix that skips rows violating constraints
	withoutRow   bool      // WITHOUT ROWID tables
	tempTables   bool      // CREATE TEMP TABLE (views over them must be TEMP)
	generated    bool      // generated columns: c AS (expr) [VIRTUAL|STORED]
	// rowidType is the column type that makes a one-column PRIMARY KEY a rowid alias, which takes
	// only integers and may take AUTOINCREMENT ("" none).
	rowidType   string
	partialIdx  bool     // CREATE INDEX ... WHERE
	exprIdx     bool     // indexes on expressions
	upsert      bool     // INSERT ... ON CONFLICT DO NOTHING
	startPragma []string // statements that may open a setup (before any table)
	// likePragma, when set, may open a setup; it makes LIKE non-deterministic, so that LIKE must
	// then stay out of index expressions, partial-index WHERE clauses and generated columns.
	likePragma  string
	pragmas     []string // setting statements safe anywhere in a setup
	maintenance []string // statements with no arguments that reorganize storage or statistics
	stat1       bool     // sqlite_stat1 may be edited after ANALYZE
	schemaTable string   // the schema table ANALYZE reloads statistics from (with stat1)
	reindexTemp bool     // REINDEX finds a TEMP table by its bare name (else: temp.NAME)
	// compoundWrap surrounds every column of a UNION ALL view's arms so that all arms have the
	// same affinity and collation (SQLite leaves it indeterminate which arm's apply, and the
	// push-down optimization uses each arm's own). Empty: no compound views.
	compoundWrap [2]string

	// Expressions.
	ints, reals, texts, blobs, bools []string
	arith, compare, bitwise          []string
	prefix                           []string // unary operators, printed before their operand
	postfix                          []string // postfix operators (ISNULL, IS TRUE, ...)
	isOps                            []string // IS-style binary operators
	likeOps                          []string // LIKE-style operators (take ESCAPE)
	escapes                          []string // ESCAPE literals (single characters)
	concat                           string   // string concatenation operator
	castTypes                        []string
	funcs                            []function
	printfFmts                       []string
	probs                            []string // likelihood probabilities
	rowValues                        bool     // (a, b) < (c, d)
	emptyIn                          bool     // x IN ()

	// Queries.
	aggregates []string // the aggregates of TLP-agg (nil: MIN, MAX, SUM, COUNT, AVG)
	joins      []joinKind
	nullsOrder bool // ORDER BY ... NULLS FIRST|LAST

	// unoptPre and unoptPost surround each predicate inside SUM(...) in the NoREC unoptimized
	// query, making it 1 for true and 0 (or NULL) otherwise: SELECT SUM(pre p1 post), ... FROM f.
	unoptPre, unoptPost string

	expected string // the embedded expected-errors table

	// versioning, when set, says which releases and builds of the engine have which parts of the
	// dialect (see engine.go).
	versioning *versioning
	// Plans (plans.go): the planner switches and plan hints the DQP layout runs a query under,
	// the EXPLAIN prefix of the CERT and QPG layouts, and the reader of its answer (nil: the
	// dialect's plans are not read, and cases carry no CERT or QPG queries).
	knobs    []knob
	hints    []string
	explain  string
	readPlan func(*fuzz.Result) (Plan, bool)
	// noEstimates says the plans carry no row estimates (SQLite): no CERT queries.
	noEstimates bool

	// typed, when set, makes the dialect typed: setups and expressions come from the typed
	// generator, which reads only typed, joins, nullsOrder, collations (for ORDER BY) and the
	// NoREC form from this struct.
	typed *typedData

	// base names the dialect this one derives from (see derive); "" for a dialect of its own.
	base string
	// utf8Blobs makes random blob literals ASCII bytes, so that they read as UTF-8 text.
	utf8Blobs bool
	// noCollateTerm keeps COLLATE expressions out of the operands of AND and OR; noStrictCheck
	// keeps CHECK constraints out of STRICT tables; noRowBetween keeps row values out of BETWEEN.
	noCollateTerm, noStrictCheck, noRowBetween bool
}

var dialects = map[string]*dialect{
	"sqlite": sqliteDialect, "postgres": postgresDialect, "mysql": mysqlDialect, "duckdb": duckdbDialect,
	"common": commonDialect, "turso": tursoDialect, "datafusion": datafusionDialect, "clickhouse": clickhouseDialect,
}

func dialectNames() []string {
	names := make([]string, 0, len(dialects))
	for n := range dialects {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// sqliteDialect is SQLite's newest release; sqliteVersioning leaves out what older releases and
// builds lack. Type names that the Go driver converts (DATE, DATETIME, TIMESTAMP, TIME, BOOLEAN)
// are never used.
var sqliteDialect = &dialect{
	name: "sqlite",
	colTypes: []colType{
		{"INTEGER", affInteger}, {"INTEGER", affInteger}, {"INT", affInteger}, {"INT", affInteger},
		{"BIGINT", affInteger}, {"TINYINT", affInteger}, {"UNSIGNED BIG INT", affInteger},
		{"TEXT", affText}, {"TEXT", affText}, {"VARCHAR(10)", affText}, {"CHAR(3)", affText},
		{"CLOB", affText}, {"NVARCHAR(100)", affText},
		{"BLOB", affBlob}, {"BLOB", affBlob},
		{"REAL", affReal}, {"REAL", affReal}, {"DOUBLE", affReal}, {"FLOAT", affReal},
		{"DOUBLE PRECISION", affReal},
		{"NUMERIC", affNumeric}, {"NUMERIC", affNumeric}, {"DECIMAL(10,5)", affNumeric},
		{"", affNone}, {"", affNone}, {"", affNone}, {"ANY", affNumeric},
	},
	strictTypes: []colType{
		{"INTEGER", affInteger}, {"INT", affInteger}, {"TEXT", affText}, {"BLOB", affBlob},
		{"REAL", affReal}, {"ANY", affNone},
	},
	collations: []string{"BINARY", "NOCASE", "RTRIM"},
	conflicts:  []string{"ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE"},
	insertOr: []string{
		"INSERT", "INSERT", "INSERT", "INSERT OR IGNORE", "INSERT OR IGNORE", "INSERT OR REPLACE",
		"REPLACE", "INSERT OR ABORT", "INSERT OR FAIL",
	},
	insertIgnore: "INSERT OR IGNORE",
	updateIgnore: "UPDATE OR IGNORE",
	updateOr:     []string{"UPDATE", "UPDATE", "UPDATE OR IGNORE", "UPDATE OR REPLACE"},
	withoutRow:   true,
	tempTables:   true,
	generated:    true,
	rowidType:    "INTEGER",
	partialIdx:   true,
	exprIdx:      true,
	upsert:       true,
	// No UTF-16 encodings: blobs read as text there are odd-length, invalid UTF-16, which SQLite
	// handles as undefined behaviour, and NoREC and TLP then disagree (docs/sqlite-notes.md).
	startPragma: []string{
		"PRAGMA page_size = 512",
		"PRAGMA auto_vacuum = FULL", "PRAGMA auto_vacuum = INCREMENTAL",
		// Changing temp_store drops every temp table, so it only opens a setup.
		"PRAGMA temp_store = MEMORY", "PRAGMA temp_store = FILE",
	},
	likePragma: "PRAGMA case_sensitive_like = ON",
	pragmas: append(knobPragmas(sqliteKnobs),
		"PRAGMA cache_size = 10", "PRAGMA cache_size = 50000", "PRAGMA cell_size_check = ON", "PRAGMA secure_delete = ON",
		"PRAGMA recursive_triggers = ON", "PRAGMA query_only = OFF", "PRAGMA trusted_schema = OFF",
		"PRAGMA analysis_limit = 100", "PRAGMA mmap_size = 0", "PRAGMA optimize",
		"PRAGMA shrink_memory", "PRAGMA legacy_alter_table = ON",
	),
	knobs:       sqliteKnobs,
	hints:       []string{hintNotIndexed, hintCrossJoin, hintLikely, hintUnlikely},
	explain:     "EXPLAIN QUERY PLAN ",
	readPlan:    readSQLitePlan,
	noEstimates: true,
	maintenance: []string{"ANALYZE", "ANALYZE", "REINDEX", "VACUUM", "PRAGMA optimize"},
	stat1:       true,
	schemaTable: "sqlite_schema",
	reindexTemp: true,
	// +x has no affinity; the outer COLLATE fixes the collation.
	compoundWrap: [2]string{"((+ ", ") COLLATE BINARY)"},

	ints: []string{
		"0", "0", "1", "1", "-1", "2", "3", "10", "-10", "100", "127", "128", "255", "256", "-128",
		"1000", "2147483647", "-2147483648", "2147483648", "4294967295", "9223372036854775807",
		"-9223372036854775808", "9223372036854775806", "-9223372036854775807",
	},
	reals: []string{
		"0.0", "-0.0", "0.5", "-0.5", "1.0", "1.5", "3.14", "0.1", "1e308", "-1e308", "1e-308",
		"1E100", "2.5e-5", "9223372036854775807.0", "1.7976931348623157e308", "4.9e-324",
		"-9.223372036854776e18", "100.0",
	},
	texts: []string{
		"''", "' '", "'a'", "'A'", "'abc'", "'ABC'", "'a '", "' a'", "'1'", "'-1'", "'0'",
		"'0.5'", "'1e2'", "' 1'", "'1 '", "'%'", "'_'", "'a%'", "'%a%'", "'a_c'", "'*'", "'a*'",
		"'[a-c]'", "'?'", "'NULL'", "'true'", "'x'", "'é'", "'İ'", "'ß'", "'0x10'",
		"'9223372036854775808'", "'-0'", "'+1'", "'.5'", "'1.'", "'abc '", "'Abc'", "'\t'",
		"'it''s'", "'-9223372036854775809'",
	},
	blobs:   []string{"x''", "x'00'", "x'01'", "x'ff'", "x'41'", "x'61'", "x'4142'", "x'0000'", "x'3130'", "x'2d31'"},
	bools:   []string{"TRUE", "FALSE"},
	arith:   []string{"+", "-", "*", "/", "%"},
	compare: []string{"=", "==", "!=", "<>", "<", "<=", ">", ">="},
	bitwise: []string{"&", "|", "<<", ">>"},
	prefix:  []string{"NOT", "-", "+", "~"},
	postfix: []string{
		"ISNULL", "NOTNULL", "NOT NULL", "IS NULL", "IS NOT NULL", "IS TRUE", "IS FALSE",
		"IS NOT TRUE", "IS NOT FALSE",
	},
	isOps:   []string{"IS", "IS NOT", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"},
	likeOps: []string{"LIKE", "NOT LIKE", "GLOB", "NOT GLOB", "LIKE", "GLOB"},
	escapes: []string{"'\\'", "'!'", "'a'", "'%'", "'_'"},
	concat:  "||",
	castTypes: []string{
		"INTEGER", "INT", "TEXT", "REAL", "NUMERIC", "BLOB", "VARCHAR(5)", "DOUBLE", "FLOAT",
		"DECIMAL(4,2)", "BIGINT", "NONE", "FLOATING POINT", "CHARINT",
	},
	funcs: []function{
		{"abs", 1, 1, argsExpr}, {"char", 1, 3, argsExpr}, {"coalesce", 2, 3, argsExpr},
		{"concat", 1, 3, argsExpr}, {"concat_ws", 2, 4, argsExpr},
		{"format", 1, 3, argsPrintf}, {"glob", 2, 2, argsExpr}, {"hex", 1, 1, argsExpr},
		{"ifnull", 2, 2, argsExpr}, {"iif", 3, 3, argsExpr}, {"if", 2, 3, argsExpr},
		{"instr", 2, 2, argsExpr}, {"length", 1, 1, argsExpr}, {"like", 2, 2, argsExpr},
		{"likelihood", 2, 2, argsLikelihood}, {"likely", 1, 1, argsExpr},
		{"lower", 1, 1, argsExpr}, {"ltrim", 1, 2, argsExpr}, {"max", 2, 3, argsExpr},
		{"min", 2, 3, argsExpr}, {"nullif", 2, 2, argsExpr}, {"octet_length", 1, 1, argsExpr},
		{"printf", 1, 3, argsPrintf}, {"quote", 1, 1, argsExpr}, {"replace", 3, 3, argsExpr},
		{"round", 1, 2, argsExpr}, {"rtrim", 1, 2, argsExpr}, {"sign", 1, 1, argsExpr},
		{"substr", 2, 3, argsExpr}, {"substring", 2, 3, argsExpr}, {"trim", 1, 2, argsExpr},
		{"typeof", 1, 1, argsExpr}, {"unhex", 1, 1, argsExpr}, {"unicode", 1, 1, argsExpr},
		{"unlikely", 1, 1, argsExpr}, {"upper", 1, 1, argsExpr}, {"zeroblob", 1, 1, argsZeroblob},
		{"json_valid", 1, 1, argsExpr},
		// Math functions: only in builds with them (see sqliteVersioning).
		{"ceil", 1, 1, argsExpr}, {"floor", 1, 1, argsExpr}, {"trunc", 1, 1, argsExpr},
		{"ln", 1, 1, argsExpr}, {"log", 1, 2, argsExpr}, {"log2", 1, 1, argsExpr},
		{"exp", 1, 1, argsExpr}, {"mod", 2, 2, argsExpr}, {"pow", 2, 2, argsExpr},
		{"sqrt", 1, 1, argsExpr}, {"sin", 1, 1, argsExpr}, {"atan2", 2, 2, argsExpr},
		{"pi", 0, 0, argsExpr}, {"degrees", 1, 1, argsExpr},
	},
	printfFmts: []string{
		"'%d'", "'%s'", "'%f'", "'%.3f'", "'%x'", "'%c'", "'%q'", "'%Q'", "'%e'", "'%g'",
		"'%i'", "'%5s'", "'%-5d'", "'%05d'", "'%%'", "'%o'", "'%.2e'", "'%!.3g'", "'%s%d'",
		"'a%sb'", "'%,d'", "'%X'",
	},
	probs:     []string{"0.5", "0.0625", "0.9375", "0.0", "1.0"},
	rowValues: true,
	emptyIn:   true,

	joins: []joinKind{
		{",", false}, {"JOIN", true}, {"INNER JOIN", true}, {"LEFT JOIN", true},
		{"LEFT OUTER JOIN", true}, {"RIGHT JOIN", true}, {"RIGHT OUTER JOIN", true},
		{"FULL OUTER JOIN", true}, {"FULL JOIN", true}, {"CROSS JOIN", false},
		{"NATURAL JOIN", false}, {"LEFT JOIN", true}, {"JOIN", true},
	},
	nullsOrder: true,

	unoptPre:  "(",
	unoptPost: ") IS TRUE",

	expected:   expectedSQLite,
	versioning: sqliteVersioning,
}

// pick returns a random element of s.
func pick[T any](r *rng, s []T) T { return s[r.intn(len(s))] }

// isKeywordish reports whether an SQL word is a keyword in our printed forms (used by the reducer
// to tell operand tokens from operators).
func isKeywordish(w string) bool {
	switch strings.ToUpper(w) {
	case "AND", "OR", "NOT", "IS", "ISNULL", "NOTNULL", "CASE", "WHEN", "THEN", "ELSE", "END",
		"CAST", "AS", "COLLATE", "LIKE", "GLOB", "ESCAPE", "BETWEEN", "IN", "DISTINCT", "FROM",
		"ASC", "DESC", "NULLS", "FIRST", "LAST", "ON", "JOIN", "WHERE", "SELECT", "BY", "ALL",
		"EXISTS", "ISNOT":
		return true
	}
	return false
}
