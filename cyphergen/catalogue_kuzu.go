package cyphergen

// init adds Kùzu's entries to the catalogue of known differences.
func init() { Catalogue = append(Catalogue, kuzuCatalogue...) }

// kuzuCatalogue holds Kùzu 0.11.3's semantic differences from Neo4j met by polyfuzz: each was
// seen in a campaign or checked by hand on kuzu==0.11.3 (docs/graph.md lists them).
var kuzuCatalogue = []Divergence{
	{
		ID: "kuzu-walk", Engines: []string{"kuzu"}, Model: &Semantics{RepeatableRels: true},
		Features: []string{"undirected"}, Steer: true,
		Summary: "Kùzu matches patterns as walks: one relationship may match several relationship patterns of a " +
			"MATCH (no relationship uniqueness), and an undirected pattern matches a self-loop twice. Explained " +
			"when Kùzu's rows equal the reference's without relationship uniqueness; undirected patterns are steered away",
		Evidence: "docs.kuzudb.com/cypher/query-clauses/match; kuzu 0.11.3: MATCH (a)-[r1]-(b)-[r2]-(c) gives r1 = r2 " +
			"and counts a self-loop twice",
	},
	{
		ID: "kuzu-case-when-ref", Engines: []string{"kuzu"}, Features: []string{"case-when-ref"}, Steer: true,
		Summary: "Kùzu 0.11.3 evaluates a searched CASE whose WHEN condition is a bare boolean variable or property " +
			"wrongly on inputs of several rows: UNWIND [false, true] AS b RETURN b, CASE WHEN b THEN 2 ELSE 7 END gives " +
			"(false, 2), (true, 7), and over a node table the other columns of the row are overwritten too; a WHEN " +
			"condition that is itself a CASE is never taken, even on one row. Found by polyfuzz; steered away " +
			"(generation writes (b = true)) so that campaigns see other differences",
		Evidence: "testdata/graph-findings/kuzu-case-when-ref; LadybugDB#662 (Kùzu's fork; fixed there)",
	},
	{
		ID: "kuzu-map-literal-where", Engines: []string{"kuzu"}, Features: []string{"map-literal"}, Steer: true,
		Error: `^bad_function_call$`,
		Summary: "Kùzu 0.11.3 fails with the internal error bad_function_call on a property of a map literal in a " +
			"WHERE: MATCH (n) WHERE {ka: n.k}.ka RETURN n.id (the same expression in RETURN works). Found by " +
			"polyfuzz; map literals are steered away on Kùzu",
		Evidence: "kuzu 0.11.3, campaign seed 7 and by hand",
	},
	{
		ID: "kuzu-create-needs-table", Engines: []string{"kuzu"}, Features: []string{"create", "merge"}, Steer: true,
		Error: `^Binder exception: Create (node|rel) \w+ (with multiple node labels|bound by multiple node labels|expects primary key)`,
		Summary: "Kùzu creates or merges a node only in one node table with its primary key, and a relationship only " +
			"between nodes of known tables: a created node pattern without its one label or its id, or a relationship " +
			"between nodes matched without a label, is a binder error. CREATE and MERGE are steered away on Kùzu",
		Evidence: "kuzu 0.11.3: MATCH (n0) CREATE (n0)<-[r1:T0]-(n0) and MATCH (n2) MERGE (n4) fail; campaign seed 7",
	},
	{
		ID: "kuzu-union-types", Engines: []string{"kuzu"},
		Error: `^Binder exception: \w+ has data type [\w\[\]]+ but [\w\[\]]+ was expected\.`,
		Summary: "Kùzu types the columns of a UNION statically: parts whose column types differ (a node and an " +
			"integer) are a binder error, where Neo4j unites them",
		Evidence: "polyfuzz campaign on kuzu 0.11.3 (seed 4): MATCH (n0) RETURN n0.k8 AS c1 UNION MATCH (n2) RETURN n2 AS c1",
	},
	{
		ID: "kuzu-schema", Engines: []string{"kuzu"},
		Error: `^Binder exception: (Table \w+ does not exist|Cannot find property \w+ for \w+)\.`,
		Summary: "Kùzu binds names against its schema: a label or type no element of the graph has (no table), or a " +
			"property key no element has (no column), is a binder error, where Neo4j matches nothing or reads null. " +
			"targets/kuzu derives the schema from the graph's setup",
		Evidence: "docs.kuzudb.com/cypher/data-definition/create-table; polyfuzz campaign on kuzu 0.11.3 (seed 5, 24 nodes)",
	},
	{
		ID: "kuzu-string-plus-null", Engines: []string{"kuzu"}, Features: []string{"op:+"},
		Summary: "Kùzu's + on strings concatenates as concat does, skipping null: 'a' + null is 'a', Cypher's null. " +
			"Explains discrepancies of queries with +; not steered, since + on numbers is right",
		Evidence: "polyfuzz campaign on kuzu 0.11.3 (seed 5): MATCH (n2) RETURN (n2.k9 + n2.k24) gives the one present string",
	},
	{
		ID: "kuzu-sum-empty", Engines: []string{"kuzu"}, Features: []string{"agg:sum"},
		Summary: "Kùzu's sum over no non-null values is null (SQL's rule), Cypher's is 0. Explains discrepancies of " +
			"queries with sum; not steered",
		Evidence: "polyfuzz campaign on kuzu 0.11.3 (seed 6): MATCH (n2 {k15: false}) RETURN sum(DISTINCT n2.k27) over nodes without k27",
	},
	{
		ID: "kuzu-contains-empty", Engines: []string{"kuzu"}, Features: []string{"op:contains"},
		Summary: "Kùzu 0.11.3's CONTAINS is false for the empty string: 'ab' CONTAINS '' is false, while 'ab' STARTS " +
			"WITH '' is true; every string contains ''. Found by polyfuzz; explains discrepancies of queries with " +
			"CONTAINS, not steered",
		Evidence: "polyfuzz campaign on kuzu 0.11.3 (seed 5): WHERE (n2.k16 CONTAINS '') drops every row",
	},
	{
		ID: "kuzu-simple-case-null", Engines: []string{"kuzu"}, Features: []string{"case-simple"}, Steer: true,
		Summary:  "Kùzu's simple CASE takes a null test as matching a null WHEN value: CASE null WHEN null THEN 1 ELSE 2 END is 1",
		Evidence: "polyfuzz campaign on kuzu 0.11.3 (seed 1); the same as falkordb-simple-case-null",
	},
	{
		ID: "kuzu-list-index", Engines: []string{"kuzu"}, Features: []string{"index"}, Steer: true,
		Error:    `List extract takes 1-based position`,
		Summary:  "Kùzu's list indexes start at 1 ([1,2,3][1] is 1; [1,2,3][0] is an error), Cypher's at 0",
		Evidence: "docs.kuzudb.com/cypher/expressions/list-functions (list_extract); kuzu 0.11.3",
	},
	{
		ID: "kuzu-substring", Engines: []string{"kuzu"}, Features: []string{"fn:substring"}, Steer: true,
		Summary: "Kùzu's substring counts from 1 (substring('abcdef', 1, 2) is 'ab', Neo4j's 'bc') and " +
			"needs its length argument",
		Evidence: "docs.kuzudb.com/cypher/expressions/text-functions; kuzu 0.11.3",
	},
	{
		ID: "kuzu-in-null", Engines: []string{"kuzu"}, Features: []string{"op:in"}, Steer: true,
		Summary:  "Kùzu's x IN list is false when no element equals x and the list holds null; Cypher says null (1 IN [null, 2])",
		Evidence: "kuzu 0.11.3: RETURN 1 IN [null, 2] gives false",
	},
	{
		ID: "kuzu-reverse-list", Engines: []string{"kuzu"}, Features: []string{"fn:reverse"}, Steer: true,
		Summary:  "Kùzu's reverse of a list is a string: reverse([1,2]) is ']2,1[' (list_reverse reverses lists)",
		Evidence: "kuzu 0.11.3: RETURN reverse([1,2]) gives the STRING ']2,1['",
	},
}
