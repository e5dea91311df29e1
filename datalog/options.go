package datalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Range is an inclusive range of integers [Min, Max].
type Range struct {
	Min, Max int
}

// String returns "MIN..MAX".
func (r Range) String() string { return strconv.Itoa(r.Min) + ".." + strconv.Itoa(r.Max) }

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
		FactTables:    Range{1, 3},
		Rows:          Range{1, 10},
		FactArity:     Range{1, 3},
		HeadArity:     Range{1, 3},
		SimpleRules:   Range{1, 2},
		ComplexRules:  Range{0, 2},
		Subgoals:      Range{1, 3},
		MaxNegated:    3,
		MaxPredicates: 3,
		Numbers:       Range{-10, 10},
		Types:         []Type{Number, Symbol},
		Steps:         Range{1, 20},
		Neg:           50,
		Recursive:     30,
		SymbolOrder:   5,
		MaxBody:       6,
		NonEmpty:      80,
	}
}

// optRange is a range-valued option with its key and bounds.
type optRange struct {
	key      string
	p        *Range
	min, max int
}

// optInt is an integer-valued option with its key and bounds.
type optInt struct {
	key      string
	p        *int
	min, max int
}

func (o *Options) ranges() []optRange {
	return []optRange{
		{"tables", &o.FactTables, 1, 16},
		{"rows", &o.Rows, 1, 1000},
		{"fact-arity", &o.FactArity, 1, 8},
		{"head-arity", &o.HeadArity, 1, 8},
		{"simple", &o.SimpleRules, 1, 32},
		{"complex", &o.ComplexRules, 0, 32},
		{"subgoals", &o.Subgoals, 1, 16},
		{"numbers", &o.Numbers, -1 << 40, 1 << 40}, // wide enough to pass 32-bit engines' limits
		{"steps", &o.Steps, 1, 1000},
	}
}

func (o *Options) ints() []optInt {
	return []optInt{
		{"negated", &o.MaxNegated, 0, 8},
		{"predicates", &o.MaxPredicates, 0, 8},
		{"neg", &o.Neg, 0, 100},
		{"recursive", &o.Recursive, 0, 100},
		{"symbol-order", &o.SymbolOrder, 0, 100},
		{"max-body", &o.MaxBody, 1, 64},
		{"nonempty", &o.NonEmpty, 0, 100},
	}
}

// Validate reports the first option out of its bounds.
func (o Options) Validate() error {
	for _, f := range o.ranges() {
		r := *f.p
		if r.Min > r.Max {
			return fmt.Errorf("datalog: options: %s=%s: write %s=MIN..MAX with MIN <= MAX", f.key, r, f.key)
		}
		if r.Min < f.min || r.Max > f.max {
			return fmt.Errorf("datalog: options: %s=%s out of range; keep it within %d..%d", f.key, r, f.min, f.max)
		}
	}
	for _, f := range o.ints() {
		if *f.p < f.min || *f.p > f.max {
			return fmt.Errorf("datalog: options: %s=%d out of range; keep it within %d..%d", f.key, *f.p, f.min, f.max)
		}
	}
	if len(o.Types) == 0 {
		return fmt.Errorf("datalog: options: no types; name at least one of number, symbol")
	}
	for i, t := range o.Types {
		if t != Number && t != Symbol {
			return fmt.Errorf("datalog: options: unknown type %s; use number or symbol", t)
		}
		if slices.Contains(o.Types[:i], t) {
			return fmt.Errorf("datalog: options: type %s listed twice; name it once", t)
		}
	}
	return nil
}

// String returns the options in canonical one-line form, for example "queryfuzz{tables=1..3
// rows=1..10 ... types=number,symbol ...}". [ParseOptions] reads it back.
func (o Options) String() string {
	var b strings.Builder
	b.WriteString("queryfuzz{")
	for i, f := range o.ranges() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.key + "=" + f.p.String())
	}
	for _, f := range o.ints() {
		b.WriteString(" " + f.key + "=" + strconv.Itoa(*f.p))
	}
	b.WriteString(" types=")
	for i, t := range o.Types {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(t.String())
	}
	b.WriteByte('}')
	return b.String()
}

// ParseOptions reads options in the form [Options.String] writes. Keys left out take their
// defaults; unknown and repeated keys are errors, and so are options that [Options.Validate]
// rejects.
func ParseOptions(s string) (Options, error) {
	o := DefaultOptions()
	body, ok := strings.CutPrefix(strings.TrimSpace(s), "queryfuzz{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return o, fmt.Errorf("datalog: options %q: want queryfuzz{key=value ...}", s)
	}
	seen := map[string]bool{}
fields:
	for _, kv := range strings.Fields(body) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return o, fmt.Errorf("datalog: options: %q is not key=value", kv)
		}
		if seen[k] {
			return o, fmt.Errorf("datalog: options: key %q repeated; give it once", k)
		}
		seen[k] = true
		if k == "types" {
			o.Types = nil
			for _, name := range strings.Split(v, ",") {
				switch name {
				case "number":
					o.Types = append(o.Types, Number)
				case "symbol":
					o.Types = append(o.Types, Symbol)
				default:
					return o, fmt.Errorf("datalog: options: unknown type %q; use number or symbol", name)
				}
			}
			continue
		}
		for _, f := range o.ranges() {
			if f.key == k {
				lo, hi, ok := strings.Cut(v, "..")
				a, err1 := strconv.Atoi(lo)
				b, err2 := strconv.Atoi(hi)
				if !ok || err1 != nil || err2 != nil {
					return o, fmt.Errorf("datalog: options: %s=%q: want MIN..MAX", k, v)
				}
				*f.p = Range{a, b}
				continue fields
			}
		}
		for _, f := range o.ints() {
			if f.key == k {
				n, err := strconv.Atoi(v)
				if err != nil {
					return o, fmt.Errorf("datalog: options: %s=%q: want an integer", k, v)
				}
				*f.p = n
				continue fields
			}
		}
		return o, fmt.Errorf("datalog: options: unknown key %q", k)
	}
	return o, o.Validate()
}
