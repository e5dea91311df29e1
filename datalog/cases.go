package datalog

import (
	"math/rand/v2"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Roles of the queries of a queryFuzz case, and its parameters.
const (
	RoleOrig  = "datalog.orig"  // the generated program
	RoleTrans = "datalog.trans" // its transformation
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
}

// NewGenerator returns a generator with options o.
func NewGenerator(o Options) (*Generator, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	o.Types = append([]Type(nil), o.Types...)
	return &Generator{opts: o}, nil
}

// Options returns the generator's options.
func (g *Generator) Options() Options { return g.opts }

// Generate returns the case of seed: the same seed gives the same case.
func (g *Generator) Generate(seed uint64) (*fuzz.Case, error) {
	orig, err := Generate(g.opts, seed)
	if err != nil {
		return nil, err
	}
	trans, expect, steps, err := Transform(orig, g.opts, rand.New(rand.NewPCG(seed, transformStream)))
	if err != nil {
		return nil, err
	}
	return &fuzz.Case{
		Domain: "datalog",
		Gen:    g.opts.String(),
		Seed:   seed,
		Queries: []fuzz.Query{
			{Role: RoleOrig, Text: "// original\n" + orig.String()},
			{Role: RoleTrans, Text: "// transformed: " + expect.String() + " " + strings.Join(steps, ",") + "\n" + trans.String()},
		},
		Params: map[string]string{ParamExpect: expect.String(), ParamSteps: strings.Join(steps, ",")},
	}, nil
}
