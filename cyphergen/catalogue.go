package cyphergen

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/cypherval"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Divergence is one known semantic difference between graph engines: a place where an engine's
// answer differs from Neo4j's (which the reference evaluator follows) by design, by a documented
// limitation, or by a bug its developers already know. The catalogue is data used twice: to steer
// generation away from the difference when one of its engines is tested (Steer), and to classify
// a discrepancy that still shows as this known divergence rather than a candidate bug.
type Divergence struct {
	ID string
	// Engines are the engines that answer differently.
	Engines []string
	// Versions, when set, bounds the releases of Engines the difference holds for, per engine
	// ("neo4j<5.0"; see [InVersions]); an engine it does not name differs in every release.
	Versions []string
	// Features are query features ([Features]) any of which may show the difference; a
	// discrepancy on a query that uses one of them is explained by this entry.
	Features []string
	// Error, when set, is a regexp of the engine's error message for the difference: that error
	// is expected from these engines, not a finding.
	Error string
	// Model, when set, is the engines' behaviour as the reference evaluator models it: a
	// discrepancy is explained when the engine's rows equal the reference's under Model, as
	// sets when SetOnly (the engine may merge rows that differ only in elements the query does
	// not name; the difference is then one of multiplicity alone).
	Model   *Semantics
	SetOnly bool
	// FloatDigits, when set, explains a discrepancy in which the engine's rows equal the
	// reference run's once every float is rounded to this many significant digits.
	FloatDigits int
	// Steer makes generation avoid Features when one of Engines is tested.
	Steer bool
	// Summary says what differs; Evidence where it is recorded.
	Summary, Evidence string
}

// Catalogue is the catalogue of known semantic differences; docs/graph.md lists it with the
// campaigns that met each entry.
var Catalogue = []Divergence{
	{
		ID: "float-accumulation", Engines: []string{"neo4j", "falkordb", "memgraph"}, FloatDigits: 12,
		Summary: "engines accumulate floats in their own order and way: Neo4j's avg is a running mean " +
			"(m += (x - m) / n), so avg(DISTINCT n.k) of three 32-bit integers is 9067050.33333331 where the " +
			"exact mean is 9067050.333333333; explained when the rows agree to 12 significant digits",
		Evidence: "polyfuzz campaign of 2026-11-24 (seed 20261126); the reference adds in row order",
	},
	{
		ID: "falkordb-rel-uniqueness", Engines: []string{"falkordb"},
		Model: &Semantics{RepeatableRels: true}, SetOnly: true,
		Summary: "FalkorDB lets one relationship match several relationship patterns of a MATCH (no relationship " +
			"uniqueness), and merges the matches that differ only in relationships and intermediate nodes the " +
			"query does not name elsewhere (parallel relationships, two paths through different middle nodes " +
			"count once). Explained when FalkorDB's distinct rows equal the reference's without relationship " +
			"uniqueness; a count or sum over such a MATCH still shows as a finding",
		Evidence: "docs.falkordb.com/cypher/known-limitations (Relationship uniqueness in patterns); GDsmith's RedisGraph case study",
	},
	{
		ID: "falkordb-rel-rebound", Engines: []string{"falkordb"}, Features: []string{"rel-rebound"}, Steer: true,
		Error:    `Cannot use the same relationship variable .* for multiple patterns`,
		Summary:  "FalkorDB rejects a relationship variable bound by an earlier pattern when a later pattern names it again",
		Evidence: "FalkorDB 4.16.3 error: Cannot use the same relationship variable 'r1' for multiple patterns.",
	},
	{
		ID: "integer-overflow", Engines: []string{"falkordb", "memgraph"},
		Summary:  "64-bit integer overflow: Neo4j raises an error, FalkorDB and Memgraph wrap around; generation bounds every integer expression below 2^62",
		Evidence: "memgraph#4387, #4429; FalkorDB#2228, #259; RedisGraph#2214",
	},
	{
		ID: "float-digits", Engines: []string{"falkordb"},
		Summary:  "FalkorDB prints doubles with 15 significant digits; every engine's floats are compared after rounding to 15 digits (cypherval.Round15)",
		Evidence: "RedisGraph#2417, #553; FalkorDB#312, #2651; docs/falkordb-notes.md",
	},
	{
		ID: "falkordb-neg-literal", Engines: []string{"falkordb"}, Features: []string{"neg-literal-operand"}, Steer: true,
		Summary: "FalkorDB 4.16 reads a negative number literal before IS NULL, IS NOT NULL or IN as the negation " +
			"of the predicate (`-1 IS NULL` as `-(1 IS NULL)`): a type error or `Expected boolean predicate`; " +
			"generation writes the literal as (-1) instead",
		Evidence: "FalkorDB#423 (RedisGraph#3061), FalkorDB#2231; fixed in FalkorDB's Rust engine",
	},
	{
		ID: "falkordb-simple-case-null", Engines: []string{"falkordb"}, Features: []string{"case-simple"}, Steer: true,
		Summary:  "FalkorDB 4.16's simple CASE takes a null test as matching a null WHEN value (null = null is null)",
		Evidence: "FalkorDB#2208; polyfuzz campaign of 2026-11-24 (CASE n4.k14 WHEN n0.k4 with both properties missing)",
	},
	{
		ID: "neo4j4-simple-case-null", Engines: []string{"neo4j"}, Versions: []string{"neo4j<5.0"},
		Model: &Semantics{SimpleCaseNullMatches: true},
		Summary: "Neo4j 4.4's simple CASE matches a null test to a null WHEN value (CASE null WHEN null THEN 1 " +
			"ELSE 2 END is 1; 2 in Neo4j 5, which compares with =). Explained when Neo4j's rows equal the " +
			"reference's under that matching",
		Evidence: "Neo4j's 4.3.15 and 4.4.9 (July 2022) revert \"Fix CASE when comparing null values\", which 5.0 keeps; " +
			"CASE null WHEN null THEN 1 ELSE 2 END gives 1 on Neo4j 4.4.48, 2 on 5.26.30 and 2026.08.1 (polyfuzz graph run)",
	},
	{
		ID: "neo4j-count-subquery", Engines: []string{"neo4j"}, Versions: []string{"neo4j<5.3"},
		Features: []string{"count-subquery"}, Steer: true,
		Summary:  "Neo4j before 5.3 has no COUNT { ... } subquery (EXISTS { MATCH ... } and CALL { ... } it has)",
		Evidence: "Neo4j Cypher manual, COUNT subqueries: introduced in 5.3; not run on 4.4.48 here",
	},
	{
		ID: "neo4j4-exists-subquery", Engines: []string{"neo4j"}, Versions: []string{"neo4j<5.0"},
		Features: []string{"exists-subquery"}, Steer: true,
		Error: `EXISTS subclause is not valid inside a WITH or RETURN clause|EXISTS is only valid in a WHERE clause as a standalone predicate`,
		Summary: "Neo4j 4.4 takes EXISTS { ... } only as a standalone predicate of a WHERE (or inside AND/OR/XOR/NOT): " +
			"RETURN EXISTS { MATCH () } and WHERE (EXISTS { MATCH () } = true) are syntax errors; 5.0 takes it as any boolean expression",
		Evidence: "neo4j 4.4.48: Neo.ClientError.Statement.SyntaxError on both forms, campaign seed 9",
	},
	{
		ID: "falkordb-tointeger-floor", Engines: []string{"falkordb"}, Features: []string{"fn:tointeger"}, Steer: true,
		Summary: "FalkorDB 4.16.3's toInteger rounds a negative float down (toInteger(-2.25) = -3); Neo4j and " +
			"openCypher truncate toward zero (-2). Found by polyfuzz; steered away so that campaigns see other differences",
		Evidence: "testdata/graph-findings/falkordb-tointeger-floor",
	},
	{
		ID: "neo4j-detach-delete-eager", Engines: []string{"neo4j"}, Features: []string{"detach-delete"}, Steer: true,
		Summary: "Neo4j 5.26.30 lets DETACH DELETE remove relationships its own MATCH has not produced yet: " +
			"MATCH (n0)-[r1:T0]-(n2) DETACH DELETE n2 RETURN count(*) counts fewer rows than the match has " +
			"(4 of 6 over three relationships). Found by polyfuzz; steered away so that campaigns see other differences",
		Evidence: "testdata/graph-findings/neo4j-detach-delete-eager; neo4j/neo4j#5670 (its acceptance test wants " +
			"the match complete before the delete)",
	},
	{
		ID: "falkordb-sum-float", Engines: []string{"falkordb"}, Features: []string{"agg:sum"},
		Summary:  "FalkorDB's sum of integers is a float (r:3 where Neo4j returns i:3)",
		Evidence: "targets/falkordb tests; internal/graphtest avoids sum in the queries both engines must answer alike",
	},
	{
		ID: "falkordb-rematch-crash", Engines: []string{"falkordb"}, Features: []string{"rematch-bound"}, Steer: true,
		Summary: "FalkorDB 4.16.3 crashes (SIGSEGV) when later MATCH clauses match again nodes carried through WITH: " +
			"MATCH (n0), (n4) WITH n0, n4 MATCH (n0) MATCH (n4) RETURN 1",
		Evidence: "FalkorDB#1949 (fixed in the Rust engine); met by polyfuzz on 2026-11-24 while reducing a finding",
	},
	{
		ID: "falkordb-null-map-projection", Engines: []string{"falkordb"}, Features: []string{"map-projection-null-test"}, Steer: true,
		Summary: "FalkorDB 4.16.3's map projection of null is a map of nulls, not null: OPTIONAL MATCH (n {id: 99}) " +
			"RETURN n{.id} gives {id: null} (Neo4j: null), so n{.k} IS NULL is false",
		Evidence: "FalkorDB#1889 (open); met while checking the map projections polyfuzz generates",
	},
	{
		ID: "falkordb-optional-partial-path", Engines: []string{"falkordb"}, Features: []string{"rewrite:optional"}, Steer: true,
		Summary: "FalkorDB 4.16.3's OPTIONAL MATCH over two or more relationships (in a path or across comma-separated " +
			"patterns) returns the bindings of a partial match: MATCH (n0 {k21: true}) OPTIONAL MATCH (n0)-[r3]->(n4)-[r5]->(n6) " +
			"gives n4 = 69 when only the first hop matches (Neo4j: null). With the label of n4 in the OPTIONAL MATCH's WHERE " +
			"instead of the pattern it is right, so every rewrite of an OPTIONAL MATCH may change its rows: the rewriting " +
			"oracles leave OPTIONAL MATCH clauses as they are on FalkorDB (the differential still sees the bug)",
		Evidence: "testdata/graph-findings/falkordb-optional-missing-label (the same bug, found by diff); met by genie " +
			"and grev in their first FalkorDB 4.16.3 campaign (docs/graph.md)",
	},
	{
		ID: "falkordb-merge-count", Engines: []string{"falkordb"}, Features: []string{"rewrite:counting"}, Steer: true,
		Summary: "FalkorDB's merging of matches that differ only in elements the query does not name elsewhere " +
			"(falkordb-rel-uniqueness) depends on how a pattern is written: MATCH (n0)-[r1]-(n2)<-[r3]-(n4) MATCH " +
			"(n0)-[:T0]->(n2) RETURN count(*) is 4 over two relationships into one node, with the first path reversed " +
			"2, while both return 4 rows of their variables; the multiplicities differ likewise, which SKIP and LIMIT " +
			"turn into other rows. The rewriting oracles do not rewrite queries with aggregates, SKIP or LIMIT on FalkorDB",
		Evidence: "met by grev and genie in their first FalkorDB 4.16.3 campaign; the queries and answers are in docs/graph.md",
	},
	{
		ID: "tofloat-integer", Engines: []string{"falkordb"}, Features: []string{"fn:tofloat"}, Steer: true,
		Summary:  "FalkorDB's toFloat of an integer returns an integer",
		Evidence: "FalkorDB#2223",
	},
	{
		ID: "memgraph-functions", Engines: []string{"memgraph"},
		Features: []string{"agg:percentiledisc", "agg:percentilecont", "agg:stdev", "agg:stdevp"}, Steer: true,
		Error:    `Function '.*' doesn't exist`,
		Summary:  "Memgraph lacks percentileDisc, percentileCont, stDev and stDevP",
		Evidence: "Dinkel targets-config.yml (memgraph)",
	},
	{
		ID: "memgraph-type-compare", Engines: []string{"memgraph"},
		Error:    `Comparison is not defined for values of type|^Invalid types:`,
		Summary:  "Memgraph raises an error comparing values of different types where Neo4j returns null",
		Evidence: "Dinkel targets-config.yml (memgraph)",
	},
}

// Avoid returns the features generation must avoid when the given engines are tested together:
// those their profiles cannot take ([Profiles]) and those of steered catalogue entries. An engine
// may carry its version ("neo4j@4.4.48", [SplitEngine]): entries whose Versions leave it out are
// not steered away from; without a version, every entry of the engine is.
func Avoid(engines []string) map[string]bool {
	out := map[string]bool{}
	for _, e := range engines {
		name, _ := SplitEngine(e)
		for _, f := range Profiles[name].Avoid {
			out[f] = true
		}
	}
	for _, d := range Catalogue {
		if !d.Steer || !slices.ContainsFunc(engines, func(e string) bool { return d.appliesTo(SplitEngine(e)) }) {
			continue
		}
		for _, f := range d.Features {
			out[f] = true
		}
	}
	return out
}

// Explain returns the ids of the catalogued divergences that account for a finding of a logic
// oracle (comma-separated), or "" when some engine it blames is not accounted for. An engine's
// answer is accounted for by an entry of that engine whose features a query of the finding uses,
// or whose Model gives exactly the engine's rows on the case's graph.
func Explain(f *fuzz.Finding) string { return explain(f, nil) }

// explain is Explain with the engines' versions (nil: unknown).
func explain(f *fuzz.Finding, versions func(engine string) string) string {
	engines := enginesOfTitle(f.Title)
	if len(engines) == 0 || f.Case == nil {
		return ""
	}
	var ids []string
	for _, e := range engines {
		version := ""
		if versions != nil {
			version = versions(e)
		}
		id := explainEngine(f, e, version)
		if id == "" {
			return ""
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return strings.Join(ids, ",")
}

// explainEngine returns the id of the first entry that accounts for the answers of engine at
// version ("" when unknown).
func explainEngine(f *fuzz.Finding, engine, version string) string {
	var run *fuzz.Run
	for i := range f.Runs {
		if f.Runs[i].Target == engine {
			run = &f.Runs[i]
		}
	}
	features := map[string]bool{}
	var queries []int
	for i, q := range f.Case.Queries {
		if len(f.Roles) > 0 && !slices.Contains(f.Roles, q.Role) {
			continue
		}
		queries = append(queries, i)
		if pq, err := ParseQuery(q.Text); err == nil {
			for _, ft := range Features(pq) {
				features[ft] = true
			}
		}
	}
	for _, d := range Catalogue {
		if !d.appliesTo(engine, version) {
			continue
		}
		if slices.ContainsFunc(d.Features, func(ft string) bool { return features[ft] }) {
			return d.ID
		}
		if d.Model != nil && run != nil && modelAgrees(f.Case, queries, run, *d.Model, d.SetOnly) {
			return d.ID
		}
		if d.FloatDigits > 0 && run != nil && agreeRounded(f.Runs, queries, run, d.FloatDigits) {
			return d.ID
		}
	}
	return ""
}

// canonFloat finds the floats of canonical values.
var canonFloat = regexp.MustCompile(`r:[-+0-9.e]+`)

// agreeRounded reports whether run's rows equal the reference run's, as multisets, for every
// query of qs once every float is rounded to digits significant digits.
func agreeRounded(runs []fuzz.Run, qs []int, run *fuzz.Run, digits int) bool {
	var ref *fuzz.Run
	for i := range runs {
		if runs[i].Target == "ref" {
			ref = &runs[i]
		}
	}
	if ref == nil {
		return false
	}
	round := func(v string) string {
		return canonFloat.ReplaceAllStringFunc(v, func(f string) string {
			x, err := strconv.ParseFloat(f[2:], 64)
			if err != nil {
				return f
			}
			return "r:" + strconv.FormatFloat(x, 'g', digits, 64)
		})
	}
	for _, i := range qs {
		if i >= len(run.Results) || i >= len(ref.Results) || run.Results[i].Failed() || ref.Results[i].Failed() {
			return false
		}
		bag := map[string]int{}
		for _, r := range run.Results[i].Rows {
			bag[round(strings.Join(r, "\x1f"))]++
		}
		for _, r := range ref.Results[i].Rows {
			bag[round(strings.Join(r, "\x1f"))]--
		}
		for _, n := range bag {
			if n != 0 {
				return false
			}
		}
	}
	return true
}

// modelAgrees reports whether the reference under sem gives run's rows, as multisets (as sets
// when setOnly), for every query of qs on the case's graph.
func modelAgrees(c *fuzz.Case, qs []int, run *fuzz.Run, sem Semantics, setOnly bool) bool {
	g := &Graph{}
	for _, s := range c.Setup {
		if g.Apply(s) != nil {
			return false
		}
	}
	for _, i := range qs {
		if i >= len(run.Results) || run.Results[i].Failed() {
			return false
		}
		q, err := ParseQuery(c.Queries[i].Text)
		if err != nil {
			return false
		}
		_, rows, err := g.RunSemantics(q, sem)
		if err != nil {
			return false
		}
		want, got := map[string]int{}, map[string]int{}
		for _, r := range rows {
			want[strings.Join(cypherval.CanonRow(r), "\x1f")]++
		}
		for _, r := range run.Results[i].Rows {
			got[strings.Join(r, "\x1f")]++
		}
		if len(want) != len(got) {
			return false
		}
		for k, n := range want {
			if m, ok := got[k]; !ok || !setOnly && m != n {
				return false
			}
		}
	}
	return true
}

// ExpectedError returns the id of the catalogued divergence whose error an engine gave, or "".
// The messages are specific enough not to need the engine's name.
func ExpectedError(msg string) string {
	for _, d := range Catalogue {
		if d.Error != "" && regexp.MustCompile(d.Error).MatchString(msg) {
			return d.ID
		}
	}
	return ""
}

// enginesOfTitle returns the engines a finding's title blames: "diff: a,b: returns different
// rows than ref" gives a and b, "tlp-where: a: partitions add rows" gives a.
func enginesOfTitle(title string) []string {
	parts := strings.SplitN(title, ": ", 3)
	if len(parts) < 3 {
		return nil
	}
	return strings.Split(parts[1], ",")
}
