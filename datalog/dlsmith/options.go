package dlsmith

import (
	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/genopts"
)

// Range is an inclusive range of integers [Min, Max].
type Range = genopts.Range

// Options configure DLSmith's program generator (the layered random graph of its generator) and
// its transformation sequences. [DefaultOptions] gives DLSmith's parameters, read from its
// generator since the thesis does not state them; fields marked as a deviation are polyfuzz's.
type Options struct {
	// Layers is the number of layers of generated nodes (DLSmith: 1..10).
	Layers Range
	// Nodes is the number of generated nodes per layer (DLSmith: 1..3).
	Nodes Range
	// OutEdges is the number of edges from a node to nodes of deeper layers (DLSmith: 0..3).
	OutEdges Range
	// ExtraEdges bounds the "higher level" edges that make additional rules (DLSmith: 20).
	ExtraEdges int
	// MaxRule bounds a node's rule number (DLSmith: 10).
	MaxRule int
	// Arity is the arity of a generated node (DLSmith: 1..3).
	Arity Range
	// Facts is the number of fact nodes of a node that has facts (DLSmith: 1..5).
	Facts Range
	// Constants is the size of the constant pool: numbers 1..Constants and as many two-letter
	// symbols (DLSmith: 100).
	Constants int
	// Negations bounds the edges flipped to negative, each only when safe (DLSmith: 10).
	Negations int
	// Types are the column types to use.
	Types []datalog.Type
	// Seeded is the percentage of programs built on one of the project's seed programs
	// (testdata/seeds); the others start from an empty seed (DLSmith-Empty). Deviation: DLSmith
	// always takes its seeds from the engines' test suites (default 50).
	Seeded int
	// Steps is the length of a transformation sequence (DLSmith: 1..100).
	Steps Range
	// MaxBody bounds the body atoms of a rule that a transformation grows: a step that would make
	// more is skipped. Deviation: DLSmith has no bound (default 8).
	MaxBody int
	// NonEmpty is the percentage of cases whose original program must have a non-empty answer on
	// the reference engine, as for queryFuzz's generator (datalog.Options.NonEmpty). Deviation:
	// DLSmith has none (default 80).
	NonEmpty int
}

// DefaultOptions returns DLSmith's generator parameters and polyfuzz's defaults for its
// additions.
func DefaultOptions() Options {
	return Options{
		Layers:     Range{Min: 1, Max: 10},
		Nodes:      Range{Min: 1, Max: 3},
		OutEdges:   Range{Min: 0, Max: 3},
		ExtraEdges: 20,
		MaxRule:    10,
		Arity:      Range{Min: 1, Max: 3},
		Facts:      Range{Min: 1, Max: 5},
		Constants:  100,
		Negations:  10,
		Types:      []datalog.Type{datalog.Number, datalog.Symbol},
		Seeded:     50,
		Steps:      Range{Min: 1, Max: 100},
		MaxBody:    8,
		NonEmpty:   80,
	}
}

// typeChoices are the column types Options.Types may hold.
var typeChoices = []datalog.Type{datalog.Number, datalog.Symbol}

// form describes o's fields for genopts, which prints, parses and checks them.
func (o *Options) form() genopts.Form {
	return genopts.Form{Prefix: "dlsmith: options", Name: "dlsmith", Fields: []genopts.Field{
		genopts.Span("layers", &o.Layers, 1, 32),
		genopts.Span("nodes", &o.Nodes, 1, 16),
		genopts.Span("out-edges", &o.OutEdges, 0, 16),
		genopts.Int("extra-edges", &o.ExtraEdges, 0, 200),
		genopts.Int("max-rule", &o.MaxRule, 1, 64),
		genopts.Span("arity", &o.Arity, 1, 8),
		genopts.Span("facts", &o.Facts, 1, 1000),
		genopts.Int("constants", &o.Constants, 1, 100000),
		genopts.Int("negations", &o.Negations, 0, 100),
		genopts.Int("seeded", &o.Seeded, 0, 100),
		genopts.Span("steps", &o.Steps, 1, 1000),
		genopts.Int("max-body", &o.MaxBody, 1, 64),
		genopts.Int("nonempty", &o.NonEmpty, 0, 100),
		genopts.List("types", "type", &o.Types, typeChoices, datalog.Type.String),
	}}
}

// Validate reports the first option out of its bounds.
func (o Options) Validate() error { return o.form().Check() }

// String returns the options in canonical one-line form, "dlsmith{layers=1..10 ...}".
// [ParseOptions] reads it back.
func (o Options) String() string { return o.form().String() }

// ParseOptions reads options in the form [Options.String] writes; keys left out take their
// defaults.
func ParseOptions(s string) (Options, error) {
	return genopts.Parse(s, DefaultOptions(), (*Options).form)
}
