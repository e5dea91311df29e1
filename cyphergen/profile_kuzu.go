package cyphergen

// kuzuAvoid and kuzuWhy are Kùzu 0.11.3's profile: what it rejects of the generated Cypher. Its
// semantic differences are catalogue entries (catalogue_kuzu.go).
var kuzuAvoid = []string{FeatureNodeLabels, "label-test", "rel-rebound",
	"fn:tointeger", "fn:tofloat", "fn:tostring", "fn:head", "fn:last", "fn:tail", "fn:replace",
	"agg:stdev", "agg:stdevp", "agg:percentiledisc", "agg:percentilecont"}

var kuzuWhy = map[string]string{
	FeatureNodeLabels: "a Kùzu node belongs to exactly one node table: the graph gets one label per node",
	"label-test":      "Kùzu has no label predicate n:L in expressions (a parser error)",
	"rel-rebound": "Kùzu rejects a relationship variable that a later pattern names again (Binder exception: " +
		"Bind relationship r1 to relationship with same name is not supported)",
	"fn:tointeger":       "Kùzu has no toInteger (it has to_int64 and CAST)",
	"fn:tofloat":         "Kùzu has no toFloat (it has to_double and CAST)",
	"fn:tostring":        "Kùzu has no toString (it has CAST(x AS STRING))",
	"fn:head":            "Kùzu has no head (it has list_extract)",
	"fn:last":            "Kùzu has no last",
	"fn:tail":            "Kùzu has no tail",
	"fn:replace":         "Kùzu has no replace",
	"agg:stdev":          "Kùzu has no stDev",
	"agg:stdevp":         "Kùzu has no stDevP",
	"agg:percentiledisc": "Kùzu has no percentileDisc",
	"agg:percentilecont": "Kùzu has no percentileCont",
}
