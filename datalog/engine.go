package datalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Canonical returns the canonical form of a constant term as engines' answers are compared:
// "i:<n>" for a number and "t:<s>" for a symbol (see fuzz's canonical values).
func Canonical(t Term) string {
	if t.Kind == Sym {
		return "t:" + t.Sym
	}
	return "i:" + strconv.FormatInt(t.Num, 10)
}

// Dialect translates canonical programs into one engine's language and decodes its answers.
// Implementations are safe for concurrent use.
type Dialect interface {
	// Name is the engine family's name ("muz", "swipl").
	Name() string
	// Translate returns the engine's text for p, or an *Unsupported error that names a feature of
	// p the engine cannot express.
	Translate(p *Program) (*Translation, error)
}

// Translation is a program in an engine's language. The engine answers with raw rows: the tuples
// of p's output relations, each row the relation's name followed by the engine's printed values.
type Translation struct {
	Text string
	// Decode turns one raw value of the given type into its canonical form (see Canonical).
	Decode func(typ Type, raw string) (string, error)
}

// Unsupported is the error of a translation that meets a feature its engine cannot express. A
// case with such a program is skipped for that engine and counted under the feature's name.
type Unsupported struct {
	Engine  string
	Feature string // a short name such as "symbol-order", used as the skip reason
	Detail  string
}

// Error returns "ENGINE cannot express FEATURE: DETAIL".
func (u *Unsupported) Error() string {
	s := u.Engine + " cannot express " + u.Feature
	if u.Detail != "" {
		s += ": " + u.Detail
	}
	return s
}

// CodeUnsupported is the Result.Code of a program that an engine cannot express; Result.Err is
// the feature's name.
const CodeUnsupported = "unsupported"

// CodeBadProgram is the Result.Code of a statement that is not a valid canonical program.
const CodeBadProgram = "bad-program"

// Answer returns the canonical answer of an engine to p from its raw rows: every row names an
// output relation of p and has its arity, and the values are decoded, deduplicated and sorted.
func Answer(p *Program, raw [][]string, decode func(Type, string) (string, error)) ([][]string, error) {
	out := make([][]string, 0, len(raw))
	for _, r := range raw {
		if len(r) == 0 {
			return nil, errors.New("empty answer row")
		}
		rel := p.Relation(r[0])
		if rel == nil || !rel.Output {
			return nil, fmt.Errorf("answer row for %q, which is not an output relation", r[0])
		}
		if len(r)-1 != len(rel.Attrs) {
			return nil, fmt.Errorf("answer row %v has %d values; %s has arity %d", r, len(r)-1, rel.Name, len(rel.Attrs))
		}
		row := make([]string, len(r))
		row[0] = r[0]
		for i, a := range rel.Attrs {
			v, err := decode(a.Type, r[i+1])
			if err != nil {
				return nil, fmt.Errorf("value %q of %s: %w", r[i+1], rel.Name, err)
			}
			row[i+1] = v
		}
		out = append(out, row)
	}
	return SortRows(out), nil
}

// SortRows sorts rows and removes duplicates: an answer is a set of tuples.
func SortRows(rows [][]string) [][]string {
	slices.SortFunc(rows, func(a, b []string) int { return slices.Compare(a, b) })
	return slices.CompactFunc(rows, func(a, b []string) bool { return slices.Equal(a, b) })
}

// Engine is a fuzz.Target that runs canonical programs on an engine: it translates each
// statement with its dialect, runs the translation on the inner target, which answers with raw
// rows, and decodes the answer. A program the engine cannot express is answered with an engine
// error of code CodeUnsupported.
type Engine struct {
	Inner   fuzz.Target
	Dialect Dialect
}

// Name returns the inner target's name.
func (e *Engine) Name() string { return e.Inner.Name() }

// Version returns the inner target's version.
func (e *Engine) Version() string { return e.Inner.Version() }

// Reset resets the inner target.
func (e *Engine) Reset(ctx context.Context) error { return e.Inner.Reset(ctx) }

// Close closes the inner target.
func (e *Engine) Close() error { return e.Inner.Close() }

// Exec runs one canonical program.
func (e *Engine) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	p, err := Parse("program.dl", stmt)
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeBadProgram, Err: err.Error()}, nil
	}
	tr, err := e.Dialect.Translate(p)
	if err != nil {
		var u *Unsupported
		if errors.As(err, &u) {
			return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeUnsupported, Err: u.Feature}, nil
		}
		return nil, err
	}
	res, err := e.Inner.Exec(ctx, tr.Text)
	if err != nil || res.Failed() {
		return res, err
	}
	rows, err := Answer(p, res.Rows, tr.Decode)
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "bad-answer", Err: err.Error()}, nil
	}
	return &fuzz.Result{Status: fuzz.StatusOK, Rows: rows}, nil
}

// outputs returns p's output relations in declaration order.
func (p *Program) outputs() []*Relation {
	var out []*Relation
	for i := range p.Relations {
		if p.Relations[i].Output {
			out = append(out, &p.Relations[i])
		}
	}
	return out
}

// Scripter is a Dialect whose programs also run from a shell with the engine's own command line,
// for a finding's repro.sh.
type Scripter interface {
	// Script returns the files (name → content) to write for p, named after base, and the command
	// line that runs them and prints the answer.
	Script(p *Program, base string) (files map[string]string, cmd string, err error)
}
