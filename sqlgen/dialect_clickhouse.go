package sqlgen

import _ "embed"

//go:embed expected_clickhouse.tsv
var expectedClickHouse string

// clickhouseDialect is ClickHouse 26.9 (as chDB 4.4 runs it). Every column is Nullable(T), since
// a plain ClickHouse column cannot hold NULL; tables are MergeTree (the owned default), with or
// without a sorting key over a nullable column, Memory or Log; updates and deletes are
// mutations (ALTER TABLE ... UPDATE|DELETE), run synchronously; indexes are data-skipping indexes.
// Decimal literals are toDecimal64('v', 4), since ClickHouse reads 0.5 as a Float64. Integer
// arithmetic widens (Int32 + Int32 is Int64) and wraps at 64 bits, which is no error and no
// false alarm: every query of a case computes the same value. The operators ClickHouse lacks
// (& and |, BETWEEN SYMMETRIC, IS UNKNOWN, COLLATE in expressions) are not generated.
//
// The session settings in session are polyfuzz's, applied by the target at start and after
// every reset, so that the oracles' relations hold by ClickHouse's documented semantics:
//   - join_use_nulls = 1: the unmatched side of LEFT, RIGHT and FULL joins is NULL (by default
//     ClickHouse fills it with the type's default value, so that "c IS NULL" over a join would
//     not see the padding rows standard SQL has);
//   - aggregate_functions_null_for_empty = 1: SUM, MIN and MAX over no rows are NULL, as in
//     standard SQL (by default 0 or the type's default, which is indistinguishable from a
//     partition that sums to 0, so that tlp-agg's NULL rule would not hold);
//   - mutations_sync = 2: ALTER TABLE ... UPDATE|DELETE returns when the mutation is done, so
//     that every query of a case sees the same rows (by default a mutation of a MergeTree table
//     runs in the background);
//   - default_table_engine = 'MergeTree' and create_table_empty_primary_key_by_default = 1: a
//     CREATE TABLE without ENGINE makes a MergeTree table without sorting key (ORDER BY tuple()),
//     as chDB's defaults may differ from the server's;
//   - use_variant_as_common_type = 0: CASE, IF and COALESCE over a signed and an unsigned 64-bit
//     integer are an error (NO_COMMON_TYPE, expected) rather than a Variant, which most
//     functions and operators then reject with type errors that look like findings;
//   - allow_suspicious_low_cardinality_types = 1: a join over a LowCardinality(Nullable(String))
//     column may make a LowCardinality column of another nullable type, which ClickHouse refuses
//     by default for performance (SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY), not for its semantics.
//
// x NOT BETWEEN a AND b is not generated: ClickHouse defines it as x < a OR x > b (docs:
// Operators), which is not NOT (x BETWEEN a AND b) when a NaN is involved (0 NOT BETWEEN 0 AND
// nan is 0), so that TLP's partitions would miss the row.
var clickhouseDialect = &dialect{
	name: "clickhouse",
	// LEFT, RIGHT and FULL joins need an equality between the two sides in ON (an ON without
	// one is INVALID_JOIN_ON_EXPRESSION, expected); inner joins take any condition.
	joins: []joinKind{{",", false}, {"JOIN", true}, {"INNER JOIN", true}, {"CROSS JOIN", false}, {"JOIN", true},
		{"LEFT JOIN", true}, {"RIGHT JOIN", true}, {"FULL JOIN", true}, {"LEFT OUTER JOIN", true}},
	nullsOrder: true,
	unoptPre:   "CASE WHEN (",
	unoptPost:  ") THEN 1 ELSE 0 END",
	expected:   expectedClickHouse,
	typed: &typedData{
		colTypes: [tCount][]string{
			tBool:  {"Nullable(Bool)"},
			tInt:   {"Nullable(Int32)", "Nullable(Int32)", "Nullable(Int64)", "Nullable(Int16)", "Nullable(Int8)"},
			tNum:   {"Nullable(Decimal(10,2))", "Nullable(Decimal(18,4))", "Nullable(Decimal(38,6))"},
			tFloat: {"Nullable(Float64)", "Nullable(Float32)"},
			tText:  {"Nullable(String)", "Nullable(String)", "LowCardinality(Nullable(String))"},
		},
		castTypes: [tCount]string{tInt: "Nullable(Int32)", tNum: "Nullable(Decimal(18,4))", tFloat: "Nullable(Float64)",
			tText: "Nullable(String)"},
		nulls:  [tCount]string{tBool: "CAST(NULL AS Nullable(Bool))"},
		ints:   typedInts,
		nums:   typedNums,
		texts:  typedTexts,
		floats: append(append([]string(nil), typedFloats...), "'nan'", "'inf'", "'-inf'"),
		// Decimal(18,4) literals, read exactly from text.
		numWrap: [2]string{"toDecimal64('", "', 4)"},
		trueLit: "TRUE", falseLit: "FALSE",
		concat: "||", intDiv: "DIV", mod: "%",
		distinctFrom: true, like: []string{"LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE"}, greatest: true, noNotBetween: true,
		funcs: []tfunc{
			{"abs", tInt, []sqlType{tInt}}, {"abs", tNum, []sqlType{tNum}}, {"abs", tFloat, []sqlType{tFloat}},
			{"length", tInt, []sqlType{tText}}, {"lower", tText, []sqlType{tText}}, {"upper", tText, []sqlType{tText}},
			{"trim", tText, []sqlType{tText}}, {"ltrim", tText, []sqlType{tText}}, {"rtrim", tText, []sqlType{tText}},
			{"replace", tText, []sqlType{tText, tText, tText}}, {"substr", tText, []sqlType{tText, tInt, tInt}},
			{"left", tText, []sqlType{tText, tInt}}, {"right", tText, []sqlType{tText, tInt}},
			{"reverse", tText, []sqlType{tText}}, {"repeat", tText, []sqlType{tText, tInt}},
			{"round", tNum, []sqlType{tNum, tInt}}, {"round", tFloat, []sqlType{tFloat}},
			{"floor", tFloat, []sqlType{tFloat}}, {"ceil", tNum, []sqlType{tNum}}, {"trunc", tNum, []sqlType{tNum}},
			{"sign", tInt, []sqlType{tNum}}, {"position", tInt, []sqlType{tText, tText}},
			{"startsWith", tBool, []sqlType{tText, tText}}, {"endsWith", tBool, []sqlType{tText, tText}},
			{"empty", tBool, []sqlType{tText}}, {"notEmpty", tBool, []sqlType{tText}},
			{"concat", tText, []sqlType{tText, tText}}, {"ascii", tInt, []sqlType{tText}},
			{"lengthUTF8", tInt, []sqlType{tText}}, {"upperUTF8", tText, []sqlType{tText}},
			{"toString", tText, []sqlType{tInt}}, {"ifNull", tInt, []sqlType{tInt, tInt}},
			{"ifNull", tText, []sqlType{tText, tText}}, {"isNull", tBool, []sqlType{tInt}},
			{"isNotNull", tBool, []sqlType{tText}}, {"intDiv", tInt, []sqlType{tInt, tInt}},
			{"modulo", tInt, []sqlType{tInt, tInt}},
		},
		tableSuffixes: []string{" ENGINE = Memory", " ENGINE = Memory",
			" ENGINE = MergeTree ORDER BY c0 SETTINGS allow_nullable_key = 1", " ENGINE = Log"},
		indexTypes:  []string{"minmax", "set(0)", "set(3)", "bloom_filter"},
		maintenance: []string{"OPTIMIZE TABLE %t FINAL", "OPTIMIZE TABLE %t"},
		settings: []string{"SET query_plan_filter_push_down = 0", "SET optimize_move_to_prewhere = 0",
			"SET join_algorithm = 'partial_merge'", "SET join_algorithm = 'grace_hash'",
			"SET join_algorithm = 'full_sorting_merge'", "SET join_algorithm = 'parallel_hash'",
			"SET query_plan_enable_optimizations = 0", "SET optimize_read_in_order = 0",
			"SET compile_expressions = 1, min_count_to_compile_expression = 0",
			"SET short_circuit_function_evaluation = 'force_enable'", "SET optimize_functions_to_subcolumns = 0",
			"SET use_skip_indexes = 0", "SET query_plan_convert_outer_join_to_inner_join = 0",
			"SET optimize_trivial_count_query = 0", "SET use_query_condition_cache = 0", "SET max_threads = 1",
			"SET max_block_size = 2", "SET query_plan_merge_filters = 0"},
		updates: true, deletes: true, views: true, alterDML: true,
		noRollback: true, // mutations are not transactional: no DQE, no EET DML
		session: []string{"SET join_use_nulls = 1", "SET aggregate_functions_null_for_empty = 1",
			"SET mutations_sync = 2", "SET default_table_engine = 'MergeTree'",
			"SET create_table_empty_primary_key_by_default = 1", "SET use_variant_as_common_type = 0",
			"SET allow_suspicious_low_cardinality_types = 1"},
	},
}

// SessionSettings returns the statements a target of the dialect applies at the start of its
// session and after every reset: the settings polyfuzz owns there (nil for most dialects).
func SessionSettings(dialect string) []string {
	if d, ok := dialects[dialect]; ok && d.typed != nil {
		return append([]string(nil), d.typed.session...)
	}
	return nil
}
