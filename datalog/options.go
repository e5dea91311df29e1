package datalog

import "github.com/polyfuzz/polyfuzz/genopts"

// Range is an inclusive range of integers [Min, Max].
type Range = genopts.Range

// Options configure the queryFuzz program generator ([Generate]) and its transformations
// ([Transform]). [DefaultOptions] gives queryFuzz's published parameters; fields marked as a
// deviation are polyfuzz's additions.
type Options struct {
	// FactTables is the number of extensional relations (queryFuzz: 1..3).
	FactTables Range
	// Rows is the number of facts of each extensional relation before duplicates are dropped
	// (queryFuzz: 1..10).
	Rows Range
	// FactArity is the arity of extensional relations (queryFuzz: 1..3).
	FactArity Range
	// HeadArity is the arity of generated rule heads (queryFuzz: 1..3).
	HeadArity Range
	// SimpleRules is the number of simple rules, pure conjunctive queries generated last; the
	// head of the last one is the output relation (queryFuzz: 1..2).
	SimpleRules Range
	// ComplexRules is the number of complex rules, with safe negation and constraints, generated
	// before the simple ones (queryFuzz: 0..2).
	ComplexRules Range
	// Subgoals is the number of positive body atoms of a rule (queryFuzz: 1..3).
	Subgoals Range
	// MaxNegated bounds the negated atoms of a complex rule (queryFuzz: 3).
	MaxNegated int
	// MaxPredicates bounds the constraints (comparisons) of a complex rule (queryFuzz: 3). A
	// constraint compares a body variable with a constant or, one time in four, with another
	// variable of its type (deviation: queryFuzz compares with constants only).
	MaxPredicates int
	// Numbers is the range of number constants (queryFuzz: -10..10). Symbol constants are one
	// alphanumeric character, as in queryFuzz.
	Numbers Range
	// Types are the attribute types to use (queryFuzz's Soufflé types that the canonical language
	// has: number and symbol).
	Types []Type
	// Steps is the length of a transformation sequence (queryFuzz: 1..20).
	Steps Range
	// Neg is the percentage of EQU transformations that are the single NEG transformation
	// (queryFuzz: 50, for Soufflé only; here for every engine).
	Neg int
	// Recursive is the percentage of complex relations that get a recursive rule besides their
	// first one: linear, non-linear (two positive atoms of the head, even when Subgoals allows
	// one) or mutually recursive with an earlier complex relation, which gets a rule too; always
	// stratified. Deviation: queryFuzz got recursion only from seed programs (default 30).
	Recursive int
	// SymbolOrder is the percentage of symbol constraints that use an order operator (<, <=, >,
	// >=), which some engines cannot express; the others use = or !=. Deviation: queryFuzz
	// compared symbols only with its string functors (default 5).
	SymbolOrder int
	// MaxBody bounds the positive body atoms of a transformed rule: a step that would make more
	// is skipped. Deviation: queryFuzz has no bound (its bug reproductions used up to 6 body
	// atoms); without one, a few ADD_EQU copies, each a cross product with its fresh variables,
	// make the evaluation time explode (default 6).
	MaxBody int
	// NonEmpty is the percentage of cases whose original program must have a non-empty answer on
	// the reference engine: the generator draws up to [nonEmptyTries] programs, from seeds derived
	// from the case's, until one has. With queryFuzz's parameters about 70% of the programs answer
	// nothing, and an empty answer tests little. Deviation: GDsmith's guidance toward non-empty
	// results, applied to Datalog; queryFuzz has none (default 80).
	NonEmpty int
}

// DefaultOptions returns queryFuzz's default generator parameters and polyfuzz's defaults for
// its additions.
func DefaultOptions() Options {
	return Options{
		FactTables:    Range{Min: 1, Max: 3},
		Rows:          Range{Min: 1, Max: 10},
		FactArity:     Range{Min: 1, Max: 3},
		HeadArity:     Range{Min: 1, Max: 3},
		SimpleRules:   Range{Min: 1, Max: 2},
		ComplexRules:  Range{Min: 0, Max: 2},
		Subgoals:      Range{Min: 1, Max: 3},
		MaxNegated:    3,
		MaxPredicates: 3,
		Numbers:       Range{Min: -10, Max: 10},
		Types:         []Type{Number, Symbol},
		Steps:         Range{Min: 1, Max: 20},
		Neg:           50,
		Recursive:     30,
		SymbolOrder:   5,
		MaxBody:       6,
		NonEmpty:      80,
	}
}

// typeChoices are the attribute types Options.Types may hold.
var typeChoices = []Type{Number, Symbol}

// form describes o's fields for genopts, which prints, parses and checks them.
func (o *Options) form() genopts.Form {
	return genopts.Form{Prefix: "datalog: options", Name: "queryfuzz", Fields: []genopts.Field{
		genopts.Span("tables", &o.FactTables, 1, 16),
		genopts.Span("rows", &o.Rows, 1, 1000),
		genopts.Span("fact-arity", &o.FactArity, 1, 8),
		genopts.Span("head-arity", &o.HeadArity, 1, 8),
		genopts.Span("simple", &o.SimpleRules, 1, 32),
		genopts.Span("complex", &o.ComplexRules, 0, 32),
		genopts.Span("subgoals", &o.Subgoals, 1, 16),
		genopts.Span("numbers", &o.Numbers, -1<<40, 1<<40), // wide enough to pass 32-bit engines' limits
		genopts.Span("steps", &o.Steps, 1, 1000),
		genopts.Int("negated", &o.MaxNegated, 0, 8),
		genopts.Int("predicates", &o.MaxPredicates, 0, 8),
		genopts.Int("neg", &o.Neg, 0, 100),
		genopts.Int("recursive", &o.Recursive, 0, 100),
		genopts.Int("symbol-order", &o.SymbolOrder, 0, 100),
		genopts.Int("max-body", &o.MaxBody, 1, 64),
		genopts.Int("nonempty", &o.NonEmpty, 0, 100),
		genopts.List("types", "type", &o.Types, typeChoices, Type.String),
	}}
}

// Validate reports the first option out of its bounds.
func (o Options) Validate() error { return o.form().Check() }

// String returns the options in canonical one-line form, for example "queryfuzz{tables=1..3
// rows=1..10 ... types=number,symbol}". [ParseOptions] reads it back.
func (o Options) String() string { return o.form().String() }

// ParseOptions reads options in the form [Options.String] writes. Keys left out take their
// defaults; unknown and repeated keys are errors, and so are options that [Options.Validate]
// rejects.
func ParseOptions(s string) (Options, error) {
	return genopts.Parse(s, DefaultOptions(), (*Options).form)
}
