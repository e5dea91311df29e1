package cyphergen

// kuzuAvoid and kuzuWhy are Kùzu 0.11.3's profile: what it rejects of the generated Cypher. Its
// semantic differences are catalogue entries (catalogue_kuzu.go).
var kuzuAvoid = []string{FeatureNodeLabels, "label-test", "rel-rebound",
	"fn:tointeger", "fn:tofloat", "fn:tostring", "fn:head", "fn:last", "fn:tail", "fn:replace",
	"agg:stdev", "agg:stdevp", "agg:percentiledisc", "agg:percentilecont",
	"map-projection", "map-projection-all", "map-projection-null-test", "list-comprehension", "call-subquery",
	"var-length", "var-length-var", "named-path", "count-subquery", "set-map", "set-label", "remove", "remove-label"}

var kuzuWhy = map[string]string{
	FeatureNodeLabels: "a Kùzu node belongs to exactly one node table: the graph gets one label per node",
	"label-test":      "Kùzu has no label predicate n:L in expressions (a parser error)",
	"rel-rebound": "Kùzu rejects a relationship variable that a later pattern names again (Binder exception: " +
		"Bind relationship r1 to relationship with same name is not supported)",
	"fn:tointeger":             "Kùzu has no toInteger (it has to_int64 and CAST)",
	"fn:tofloat":               "Kùzu has no toFloat (it has to_double and CAST)",
	"fn:tostring":              "Kùzu has no toString (it has CAST(x AS STRING))",
	"fn:head":                  "Kùzu has no head (it has list_extract)",
	"fn:last":                  "Kùzu has no last",
	"fn:tail":                  "Kùzu has no tail",
	"fn:replace":               "Kùzu has no replace",
	"agg:stdev":                "Kùzu has no stDev",
	"agg:stdevp":               "Kùzu has no stDevP",
	"agg:percentiledisc":       "Kùzu has no percentileDisc",
	"agg:percentilecont":       "Kùzu has no percentileCont",
	"map-projection":           "Kùzu has no map projection n{.k} (a parser error)",
	"map-projection-all":       "Kùzu has no map projection n{.*} (a parser error)",
	"map-projection-null-test": "Kùzu has no map projection (a parser error)",
	"list-comprehension":       "Kùzu has no list comprehension [x IN l WHERE p | e] (a parser error; it has list_filter and list_transform)",
	"call-subquery":            "Kùzu has no CALL { ... } subquery (a parser error)",
	"var-length-var": "Kùzu binds a variable-length relationship's variable to a recursive relationship " +
		"(nodes and relationships), not to a list of relationships",
	"var-length": "Kùzu's recursive patterns are walks by default (a relationship may repeat along a variable-length " +
		"path, and *0.. paths differ), so its rows differ from Neo4j's trails: MATCH (n0) MATCH (n3)<-[*0..3]-(n5) " +
		"gives extra rows on kuzu 0.11.3",
	"count-subquery": "Kùzu evaluates COUNT { ... } only in some positions: UNWIND [COUNT { MATCH () }] AS u fails with " +
		"Cannot evaluate expression with type SUBQUERY.",
	"named-path":   "Kùzu's paths are recursive relationships of its own form, which polyfuzz does not read yet",
	"set-map":      "Kùzu has no SET x += {map} (a parser error)",
	"set-label":    "Kùzu has no labels to set: a node's table is fixed (a parser error)",
	"remove":       "Kùzu has no REMOVE (a parser error; SET x.k = NULL instead)",
	"remove-label": "Kùzu has no labels to remove (a parser error)",
}
