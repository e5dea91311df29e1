package sqlgen

import _ "embed"

//go:embed expected_postgres.tsv
var expectedPostgres string

//go:embed expected_mysql.tsv
var expectedMySQL string

//go:embed expected_duckdb.tsv
var expectedDuckDB string

// Literal pools shared by the typed dialects.
var (
	typedInts = []string{"0", "0", "1", "1", "-1", "2", "10", "-10", "100", "127", "-128", "255",
		"32767", "-32768", "2147483647", "-2147483648", "1000"}
	// Decimals always have a point: PostgreSQL reads 1 as an integer, and trunc(1) as a float.
	typedNums   = []string{"0.0", "0.5", "-0.5", "1.50", "123.456", "0.001", "-1.0", "99999.99", "1.00", "10.10"}
	typedTexts  = []string{"''", "'a'", "'A'", "'abc'", "'b'", "' a'", "'a '", "'1'", "'-1'", "'10'", "'%'", "'_'", "'ab'", "'ß'", "'é'", "'true'", "'NULL'", "'Abc'", "'x y'"}
	typedFloats = []string{"'0'", "'-0'", "'0.1'", "'1.5'", "'-1.5'", "'1e10'", "'1e-10'", "'3.14'", "'100'"}
)

// Functions the typed dialects share (names and types agree in PostgreSQL, MySQL and DuckDB).
var typedFuncs = []tfunc{
	{"abs", tInt, []sqlType{tInt}}, {"abs", tNum, []sqlType{tNum}}, {"abs", tFloat, []sqlType{tFloat}},
	{"length", tInt, []sqlType{tText}}, {"lower", tText, []sqlType{tText}}, {"upper", tText, []sqlType{tText}},
	{"trim", tText, []sqlType{tText}}, {"ltrim", tText, []sqlType{tText}}, {"rtrim", tText, []sqlType{tText}},
	{"replace", tText, []sqlType{tText, tText, tText}}, {"substr", tText, []sqlType{tText, tInt, tInt}},
	{"left", tText, []sqlType{tText, tInt}}, {"right", tText, []sqlType{tText, tInt}},
	{"reverse", tText, []sqlType{tText}}, {"repeat", tText, []sqlType{tText, tInt}},
	{"lpad", tText, []sqlType{tText, tInt, tText}}, {"md5", tText, []sqlType{tText}},
	{"round", tNum, []sqlType{tNum, tInt}}, {"round", tFloat, []sqlType{tFloat}},
	{"floor", tFloat, []sqlType{tFloat}}, {"ceil", tNum, []sqlType{tNum}},
}

func withFuncs(extra ...tfunc) []tfunc { return append(append([]tfunc(nil), typedFuncs...), extra...) }

var typedJoins = []joinKind{{",", false}, {"JOIN", true}, {"INNER JOIN", true}, {"LEFT JOIN", true},
	{"LEFT OUTER JOIN", true}, {"RIGHT JOIN", true}, {"CROSS JOIN", false}, {"LEFT JOIN", true}, {"JOIN", true}}

// postgresDialect is PostgreSQL 15.
var postgresDialect = &dialect{
	name:       "postgres",
	joins:      append(append([]joinKind(nil), typedJoins...), joinKind{"FULL JOIN", true}),
	nullsOrder: true,
	unoptPre:   "CAST((",
	unoptPost:  ") IS TRUE AS INT)",
	expected:   expectedPostgres,
	knobs:      pgKnobs, explain: "EXPLAIN ", readPlan: readPostgresPlan,
	typed: &typedData{
		colTypes: [tCount][]string{
			tBool: {"BOOLEAN"}, tInt: {"INT", "INT", "BIGINT", "SMALLINT", "INTEGER"},
			tNum: {"NUMERIC", "NUMERIC(10,2)", "DECIMAL(8,3)"}, tFloat: {"DOUBLE PRECISION", "REAL"},
			tText: {"TEXT", "TEXT", "VARCHAR(20)", "CHAR(8)"},
		},
		castTypes: [tCount]string{tBool: "BOOLEAN", tInt: "INT", tNum: "NUMERIC", tFloat: "DOUBLE PRECISION", tText: "TEXT"},
		ints:      typedInts, nums: typedNums, texts: typedTexts,
		floats:  append(append([]string(nil), typedFloats...), "'NaN'", "'Infinity'", "'-Infinity'"),
		trueLit: "TRUE", falseLit: "FALSE",
		concat: "||", intDiv: "/", mod: "%", bitwise: []string{"&", "|", "#"},
		distinctFrom: true, like: []string{"LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE"},
		isUnknown: true, symmetric: true, greatest: true,
		funcs: withFuncs(tfunc{"strpos", tInt, []sqlType{tText, tText}}, tfunc{"starts_with", tBool, []sqlType{tText, tText}},
			tfunc{"initcap", tText, []sqlType{tText}}, tfunc{"mod", tInt, []sqlType{tInt, tInt}},
			tfunc{"sign", tNum, []sqlType{tNum}},
			tfunc{"trunc", tNum, []sqlType{tNum}},
			tfunc{"ascii", tInt, []sqlType{tText}}, tfunc{"char_length", tInt, []sqlType{tText}}),
		textCollations: []string{`"C"`}, // two explicit collations in one comparison are an error
		uniqueIdx:      true, partialIdx: true, exprIdx: true, constraints: true, checks: true, defaults: true,
		onConflict: true, tablePrefixes: []string{"UNLOGGED "}, tableSuffixes: []string{" WITH (fillfactor = 50)"},
		maintenance: []string{"ANALYZE", "ANALYZE %t", "VACUUM %t", "REINDEX TABLE %t", "VACUUM FULL %t"},
		settings:    settingKnobs(pgKnobs),
		updates:     true, deletes: true, views: true,
	},
}

// mysqlDialect is MySQL 8 and MariaDB 10.11 (run with sql_mode STRICT_ALL_TABLES).
var mysqlDialect = &dialect{
	name:      "mysql",
	joins:     append(append([]joinKind(nil), typedJoins...), joinKind{"STRAIGHT_JOIN", true}),
	unoptPre:  "((",
	unoptPost: ") IS TRUE)",
	expected:  expectedMySQL,
	knobs:     mysqlKnobs, hints: []string{hintStraight}, explain: "EXPLAIN ", readPlan: readMySQLPlan,
	typed: &typedData{
		colTypes: [tCount][]string{
			tInt: {"INT", "INT", "BIGINT", "TINYINT", "SMALLINT"},
			// No FLOAT: the text protocol prints it with 6 digits, so that distinct values look
			// equal to the client (1e10 and 1.0000001e10 both read "1e+10").
			tNum: {"DECIMAL(10,2)", "DECIMAL(20,5)", "DECIMAL"}, tFloat: {"DOUBLE"},
			tText: {"VARCHAR(20)", "VARCHAR(100)", "CHAR(8)"},
		},
		castTypes: [tCount]string{tInt: "SIGNED", tNum: "DECIMAL(20,5)", tFloat: "DOUBLE", tText: "CHAR"},
		ints:      typedInts, nums: typedNums, texts: typedTexts, floats: typedFloats,
		trueLit: "TRUE", falseLit: "FALSE",
		intDiv: "DIV", mod: "%", bitwise: []string{"&", "|", "^"}, coerce: true,
		nullSafeEq: "<=>", like: []string{"LIKE", "NOT LIKE"}, isUnknown: true, greatest: true,
		funcs: withFuncs(tfunc{"locate", tInt, []sqlType{tText, tText}}, tfunc{"instr", tInt, []sqlType{tText, tText}},
			tfunc{"strcmp", tInt, []sqlType{tText, tText}}, tfunc{"hex", tText, []sqlType{tText}},
			tfunc{"concat_ws", tText, []sqlType{tText, tText, tText}}, tfunc{"mod", tInt, []sqlType{tInt, tInt}},
			tfunc{"truncate", tNum, []sqlType{tNum, tInt}}, tfunc{"ascii", tInt, []sqlType{tText}},
			tfunc{"char_length", tInt, []sqlType{tText}}),
		textCollations: []string{"utf8mb4_general_ci"},
		uniqueIdx:      true, constraints: true, checks: true, defaults: true, insertIgnore: "INSERT IGNORE",
		tableSuffixes: []string{" ENGINE=InnoDB", " ENGINE=MyISAM", " ENGINE=Aria"},
		maintenance:   []string{"ANALYZE TABLE %t", "OPTIMIZE TABLE %t", "CHECK TABLE %t", "REPAIR TABLE %t"},
		settings:      settingKnobs(mysqlKnobs),
		updates:       true, deletes: true, views: true,
	},
}

// duckdbDialect is DuckDB 1.x.
var duckdbDialect = &dialect{
	name:       "duckdb",
	joins:      append(append([]joinKind(nil), typedJoins...), joinKind{"FULL JOIN", true}),
	nullsOrder: true,
	unoptPre:   "CAST((",
	unoptPost:  ") IS TRUE AS INTEGER)",
	expected:   expectedDuckDB,
	versioning: duckdbVersioning,
	knobs:      duckdbKnobs, explain: "EXPLAIN (FORMAT json) ", readPlan: readDuckDBPlan,
	typed: &typedData{
		colTypes: [tCount][]string{
			tBool: {"BOOLEAN"}, tInt: {"INTEGER", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "HUGEINT"},
			tNum: {"DECIMAL(10,2)", "DECIMAL(18,4)", "NUMERIC"}, tFloat: {"DOUBLE", "REAL"},
			tText: {"VARCHAR", "TEXT"},
		},
		castTypes: [tCount]string{tBool: "BOOLEAN", tInt: "INTEGER", tNum: "DECIMAL(18,4)", tFloat: "DOUBLE", tText: "VARCHAR"},
		ints:      typedInts, nums: typedNums, texts: typedTexts,
		floats:  append(append([]string(nil), typedFloats...), "'NaN'", "'Infinity'"),
		trueLit: "TRUE", falseLit: "FALSE",
		concat: "||", intDiv: "//", mod: "%", bitwise: []string{"&", "|"},
		distinctFrom: true, like: []string{"LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE", "GLOB"}, greatest: true,
		funcs: withFuncs(tfunc{"strpos", tInt, []sqlType{tText, tText}}, tfunc{"starts_with", tBool, []sqlType{tText, tText}},
			tfunc{"contains", tBool, []sqlType{tText, tText}},
			tfunc{"sign", tInt, []sqlType{tNum}}, tfunc{"concat", tText, []sqlType{tText, tText}},
			tfunc{"ascii", tInt, []sqlType{tText}}, tfunc{"suffix", tBool, []sqlType{tText, tText}}),
		textCollations: []string{"NOCASE"},
		uniqueIdx:      true, constraints: true, checks: true, defaults: true,
		maintenance: []string{"ANALYZE", "CHECKPOINT", "VACUUM"},
		settings:    settingKnobs(duckdbKnobs),
		updates:     true, deletes: true, views: true,
	},
}

// commonDialect is the SQL that SQLite, PostgreSQL, MySQL/MariaDB and DuckDB read alike and answer
// alike: INT and VARCHAR columns with small values, comparisons, AND/OR/NOT, IS [NOT] NULL,
// IS [NOT] TRUE/FALSE, BETWEEN, IN, CASE, COALESCE, NULLIF, +, -, *, abs, lower, upper, length
// and trim. It leaves out what the engines answer differently (integer division, concatenation
// of NULL, LIKE's case rules, collations, casts, trailing spaces), and every setup statement
// that could fail on one engine only (constraints, updates, deletes), since the engines' states
// must stay equal. docs/sql.md lists the differences.
var commonDialect = &dialect{
	name:      "common",
	joins:     []joinKind{{",", false}, {"JOIN", true}, {"INNER JOIN", true}, {"LEFT JOIN", true}, {"CROSS JOIN", false}, {"LEFT JOIN", true}},
	unoptPre:  "CASE WHEN (",
	unoptPost: ") THEN 1 ELSE 0 END",
	expected:  expectedSQLite + "\n" + expectedPostgres + "\n" + expectedMySQL + "\n" + expectedDuckDB + "\n" + expectedDataFusion,
	typed: &typedData{
		colTypes: [tCount][]string{tInt: {"INT"}, tText: {"VARCHAR(20)"}},
		nulls:    [tCount]string{tBool: "NULLIF(TRUE, TRUE)", tInt: "NULLIF(0, 0)", tText: "NULLIF('a', 'a')"},
		ints:     []string{"0", "1", "-1", "2", "3", "10", "-10", "100", "255", "1000"},
		texts:    []string{"''", "'a'", "'b'", "'ab'", "'abc'", "'A'", "'B'", "'1'", "'10'", "'-1'", "'x y'"},
		trueLit:  "TRUE", falseLit: "FALSE", noConcat: true,
		funcs: []tfunc{{"abs", tInt, []sqlType{tInt}}, {"lower", tText, []sqlType{tText}},
			{"upper", tText, []sqlType{tText}}, {"length", tInt, []sqlType{tText}}, {"trim", tText, []sqlType{tText}}},
		views: true,
	},
}
