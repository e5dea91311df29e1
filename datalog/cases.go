package datalog

import (
	"context"
	"math/rand/v2"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Programs is the layout of a queryFuzz case: the generated program ("datalog.orig") and its
// transformation ("datalog.trans").
var Programs = fuzz.NewLayout("datalog", "orig", "trans")

// Roles of the queries of a queryFuzz case.
var (
	RoleOrig  = Programs.Role("orig")  // the generated program
	RoleTrans = Programs.Role("trans") // its transformation
)

// Parameters of a queryFuzz case.
const (
	// ParamExpect names the relation of the transformed output to the original ([Expect.String]).
	ParamExpect = "expect"
	// ParamSteps lists the applied steps, comma-separated ("ADD_EQU,MOD_CON").
	ParamSteps = "steps"
)

// Generator makes queryFuzz cases: a random program ([Generate]) and one transformation of it
// ([Transform]), whose outputs must stand in the relation the case names. It is safe for
// concurrent use.
type Generator struct {
	opts Options
	gen  string // opts.String(), the Gen of every case
}

// NewGenerator returns a generator with options o.
func NewGenerator(o Options) (*Generator, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	o.Types = append([]Type(nil), o.Types...)
	return &Generator{opts: o, gen: o.String()}, nil
}

// Options returns the generator's options.
func (g *Generator) Options() Options { return g.opts }

// Generate returns the case of seed: the same seed gives the same case.
func (g *Generator) Generate(seed uint64) (*fuzz.Case, error) {
	orig, err := g.original(seed)
	if err != nil {
		return nil, err
	}
	trans, expect, steps, err := Transform(orig, g.opts, rand.New(rand.NewPCG(seed, transformStream)))
	if err != nil {
		return nil, err
	}
	return &fuzz.Case{
		Domain: "datalog",
		Gen:    g.gen,
		Seed:   seed,
		Queries: []fuzz.Query{
			{Role: RoleOrig, Text: "// original\n" + orig.String()},
			{Role: RoleTrans, Text: "// transformed: " + expect.String() + " " + strings.Join(steps, ",") + "\n" + trans.String()},
		},
		Params: map[string]string{ParamExpect: expect.String(), ParamSteps: strings.Join(steps, ",")},
	}, nil
}

// nonEmptyTries bounds the programs drawn for a case that asks for a non-empty answer.
const nonEmptyTries = 16

// nonEmptyLimit bounds the tuples the reference derives while checking a program's answer.
const nonEmptyLimit = 100000

// original returns the generated program of the case of seed: with probability NonEmpty percent,
// the first of up to nonEmptyTries programs (from seeds derived from seed) whose answer on the
// reference engine is not empty, else the last one drawn.
func (g *Generator) original(seed uint64) (*Program, error) {
	r := rand.New(rand.NewPCG(seed, nonEmptyStream))
	p, err := Generate(g.opts, seed)
	if err != nil || r.IntN(100) >= g.opts.NonEmpty {
		return p, err
	}
	for k := 1; ; k++ {
		m, err := EvalContext(context.Background(), p, nonEmptyLimit)
		if (err == nil && len(m.Output()) > 0) || k == nonEmptyTries {
			return p, nil
		}
		if p, err = Generate(g.opts, r.Uint64()); err != nil {
			return nil, err
		}
	}
}
