package cyphergen

// Profile is what one engine accepts: the features ([Features]) it must never be sent, each
// with the reason.
type Profile struct {
	Engine string
	Avoid  []string
	Why    map[string]string
}

// AvoidSet returns the profile's avoided features as a set, for [NewQueryGen] and
// [NewGenerator].
func (p Profile) AvoidSet() map[string]bool {
	set := make(map[string]bool, len(p.Avoid))
	for _, f := range p.Avoid {
		set[f] = true
	}
	return set
}

// Profiles holds the engine profiles by engine name: "ref" (the reference evaluator), "neo4j",
// "memgraph", "falkordb" and "kuzu". Rules that hold for every engine are built into the generator
// instead (MATCH never directly after OPTIONAL MATCH, which FalkorDB and Memgraph reject;
// integers below 2^62; no float printing). Semantic differences that do not make an engine
// reject a query belong to the catalogue of known differences, not here.
var Profiles = map[string]Profile{
	"ref":   {Engine: "ref", Why: map[string]string{}},
	"neo4j": {Engine: "neo4j", Why: map[string]string{}},
	"memgraph": {Engine: "memgraph",
		Avoid: []string{"agg:percentilecont", "agg:percentiledisc", "agg:stdev", "agg:stdevp"},
		Why: map[string]string{
			"agg:percentilecont": "Memgraph has no percentileCont",
			"agg:percentiledisc": "Memgraph has no percentileDisc",
			"agg:stdev":          "Memgraph has no stDev",
			"agg:stdevp":         "Memgraph has no stDevP",
		}},
	"kuzu": {Engine: "kuzu", Avoid: kuzuAvoid, Why: kuzuWhy},
	"falkordb": {Engine: "falkordb",
		Avoid: []string{"op:=~", "var-length-var", "exists-subquery", "count-subquery"},
		Why: map[string]string{
			"op:=~":           "FalkorDB has no regular expression match",
			"var-length-var":  "FalkorDB binds a variable-length relationship's variable to a path, not a list (4.16.3: Type mismatch: expected List or Null but was Path)",
			"exists-subquery": "FalkorDB has no EXISTS { ... } subquery (4.16.3: a syntax error)",
			"count-subquery":  "FalkorDB has no COUNT { ... } subquery (4.16.3: a syntax error)",
		}},
}
