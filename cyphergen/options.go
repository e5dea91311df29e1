package cyphergen

import (
	"math"

	"github.com/polyfuzz/polyfuzz/genopts"
)

// Range is an inclusive range of integers [Min, Max].
type Range = genopts.Range

// Options configure the GDsmith graph generator ([GenerateSchema], [Generate]).
// [DefaultOptions] gives GDsmith's published parameters; fields marked as a deviation are
// polyfuzz's additions.
type Options struct {
	// Labels is the number of node labels L0, L1, ... (GDsmith: 5..7).
	Labels Range
	// RelTypes is the number of relationship types T0, T1, ... (GDsmith: 5..7).
	RelTypes Range
	// Keys is the number of property keys of each label and relationship type; keys are named
	// k0, k1, ... and unique across the schema (GDsmith: 5..7).
	Keys Range
	// PropTypes are the types property keys are drawn from, uniformly (GDsmith: integer, string,
	// boolean). Float is a deviation, off by default: GDsmith keeps floats out of its data to
	// avoid engines' differences in float printing.
	PropTypes []Type
	// Nodes is the number of nodes (GDsmith's --max-node-num: 128).
	Nodes int
	// Rels is the number of relationships in percent of Nodes, drawn uniformly within the range
	// (GDsmith: [Nodes/2, 2*Nodes), here 50..199).
	Rels Range
	// MaxLabels bounds the labels of one node (GDsmith's --label-num: 3). A node gets k labels
	// with probability 2^(k-1)/2^MaxLabels for k >= 1 (fewer labels are likelier) and none with
	// probability 1/2^MaxLabels; GDsmith fixes that exponent at 3.
	MaxLabels int
	// Presence is the percentage of a node's or relationship's keys that get a value
	// (GDsmith: 95).
	Presence int
	// Pool is the number of values drawn once per key, from which every element's value of
	// that key is picked, so that equalities hit (GDsmith: 20).
	Pool int
	// Ints is the range of integer values, and of float values when PropTypes has Float
	// (GDsmith: 32-bit integers).
	Ints Range
	// StrLen is the length of string values, alphanumeric characters and spaces. Deviation:
	// GDsmith uses SQLancer's random strings (default 0..8).
	StrLen Range

	// The query generator's options ([QueryGen]).

	// Clauses is the number of clauses between the first MATCH and the RETURN, drawn from
	// MATCH, OPTIONAL MATCH, WITH and UNWIND. GDsmith's --max-clause-size is 9; the default 1..5
	// keeps queries short enough to read and fast on every engine.
	Clauses Range
	// Patterns is the number of comma-separated patterns of one MATCH.
	Patterns Range
	// PathLen is the number of relationships of one pattern (0: a lone node).
	PathLen Range
	// Depth bounds the nesting of generated expressions.
	Depth int
	// Where is the percentage of MATCH clauses that get a WHERE (WITH gets one half as often).
	Where int
	// Optional is the percentage of added MATCH clauses that are OPTIONAL MATCH.
	Optional int
	// Union is the percentage of queries that are the UNION (or UNION ALL) of two.
	Union int
	// Order is the percentage of RETURNs that get ORDER BY with SKIP and/or LIMIT, when their
	// items allow a deterministic order.
	Order int
	// Guided is 1 for GDsmith's guided conditions (compared3), 0 for random ones (its compared2
	// baseline; patterns stay guided).
	Guided int
	// Queries is the number of consecutive cases that share one graph (GDsmith's
	// --num-queries: 1000).
	Queries int
	// Writes is the percentage of cases that write (when the state oracle runs): a query with
	// writing clauses, then the graph read back whole (qgen_write.go).
	Writes int
}

// DefaultOptions returns GDsmith's default graph parameters and polyfuzz's defaults for its
// additions.
func DefaultOptions() Options {
	return Options{
		Labels:    Range{Min: 5, Max: 7},
		RelTypes:  Range{Min: 5, Max: 7},
		Keys:      Range{Min: 5, Max: 7},
		PropTypes: []Type{Integer, String, Boolean},
		Nodes:     128,
		Rels:      Range{Min: 50, Max: 199},
		MaxLabels: 3,
		Presence:  95,
		Pool:      20,
		Ints:      Range{Min: math.MinInt32, Max: math.MaxInt32},
		StrLen:    Range{Min: 0, Max: 8},
		Clauses:   Range{Min: 1, Max: 5},
		Patterns:  Range{Min: 1, Max: 2},
		PathLen:   Range{Min: 0, Max: 3},
		Depth:     3,
		Where:     70,
		Optional:  25,
		Union:     10,
		Order:     20,
		Guided:    1,
		Queries:   100,
		Writes:    20,
	}
}

// propTypeChoices are the types Options.PropTypes may hold.
var propTypeChoices = []Type{Integer, Float, String, Boolean}

// form describes o's fields for genopts, which prints, parses and checks them.
func (o *Options) form() genopts.Form {
	return genopts.Form{Prefix: "cyphergen: options", Name: "gdsmith", Fields: []genopts.Field{
		genopts.Span("labels", &o.Labels, 1, 64),
		genopts.Span("reltypes", &o.RelTypes, 1, 64),
		genopts.Span("keys", &o.Keys, 0, 64),
		genopts.Span("rels", &o.Rels, 0, 1000),
		genopts.Span("ints", &o.Ints, -1<<62, 1<<62), // the span of the range fits a uint64
		genopts.Span("strlen", &o.StrLen, 0, 256),
		genopts.Int("nodes", &o.Nodes, 1, 100000),
		genopts.Int("max-labels", &o.MaxLabels, 0, 8),
		genopts.Int("presence", &o.Presence, 0, 100),
		genopts.Int("pool", &o.Pool, 1, 1000),
		genopts.Span("clauses", &o.Clauses, 0, 20),
		genopts.Span("patterns", &o.Patterns, 1, 5),
		genopts.Span("pathlen", &o.PathLen, 0, 6),
		genopts.Int("depth", &o.Depth, 0, 6),
		genopts.Int("where", &o.Where, 0, 100),
		genopts.Int("optional", &o.Optional, 0, 100),
		genopts.Int("union", &o.Union, 0, 100),
		genopts.Int("order", &o.Order, 0, 100),
		genopts.Int("guided", &o.Guided, 0, 1),
		genopts.Int("queries", &o.Queries, 1, 1<<16),
		genopts.IntOmit("writes", &o.Writes, 0, 100, 0), // options stored before writes existed have none
		genopts.List("proptypes", "property type", &o.PropTypes, propTypeChoices, Type.String),
	}}
}

// Validate reports the first option out of its bounds.
func (o Options) Validate() error { return o.form().Check() }

// String returns the options in canonical one-line form, for example "gdsmith{labels=5..7
// reltypes=5..7 ... proptypes=integer,string,boolean}". [ParseOptions] reads it back.
func (o Options) String() string { return o.form().String() }

// ParseOptions reads options in the form [Options.String] writes. Keys left out take their
// defaults; unknown and repeated keys are errors, and so are options that [Options.Validate]
// rejects.
func ParseOptions(s string) (Options, error) {
	return genopts.Parse(s, DefaultOptions(), (*Options).form)
}
