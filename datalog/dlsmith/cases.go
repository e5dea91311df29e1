package dlsmith

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Generator makes DLSmith cases: a random annotated graph ([Generate]) and a transformation
// sequence of it ([Sequence]), whose programs' outputs must stand in the relation the case
// names. Cases have queryFuzz's layout (datalog.Programs, roles datalog.RoleOrig and
// datalog.RoleTrans, params datalog.ParamExpect and datalog.ParamSteps), so the Datalog
// oracles, reducer and finding format take them unchanged. It is safe for concurrent use.
type Generator struct {
	opts Options
	gen  string // opts.String(), the Gen of every case
}

// NewGenerator returns a generator with options o.
func NewGenerator(o Options) (*Generator, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if len(o.Types) == 0 {
		return nil, fmt.Errorf("dlsmith: options: types is empty; name at least one of number, symbol")
	}
	o.Types = slices.Clone(o.Types)
	return &Generator{opts: o, gen: o.String()}, nil
}

// Options returns the generator's options.
func (g *Generator) Options() Options {
	o := g.opts
	o.Types = slices.Clone(o.Types)
	return o
}

// Generate returns the case of seed: the original program of the graph [Generator.Sequence]
// returns and the program of the graph its steps make. The same seed gives the same case.
func (g *Generator) Generate(seed uint64) (*fuzz.Case, error) {
	orig, po, trans, expect, steps, err := g.sequence(seed)
	if err != nil {
		return nil, err
	}
	if po == nil {
		if po, err = orig.Program(); err != nil {
			return nil, err
		}
	}
	pt, err := trans.Program()
	if err != nil {
		return nil, fmt.Errorf("dlsmith: seed %d: transformed program: %w", seed, err)
	}
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = s.Name
	}
	list := strings.Join(names, ",")
	return &fuzz.Case{
		Domain: "datalog",
		Gen:    g.gen,
		Seed:   seed,
		Queries: []fuzz.Query{
			{Role: datalog.RoleOrig, Text: "// original\n" + po.String()},
			{Role: datalog.RoleTrans, Text: "// transformed: " + expect.String() + " " + list + "\n" + pt.String()},
		},
		Params: map[string]string{datalog.ParamExpect: expect.String(), datalog.ParamSteps: list},
	}, nil
}

// Sequence returns the graph and the steps of the case of seed, exactly those Generate uses, so
// that the steps can be replayed ([Replay]) on the graph.
func (g *Generator) Sequence(seed uint64) (orig *Graph, steps []Step, err error) {
	orig, _, _, _, steps, err = g.sequence(seed)
	return orig, steps, err
}

// sequence returns the original graph of seed and its program when the guidance emitted it (nil
// otherwise), the transformed graph, their relation and the steps; the graph and the sequence
// draw from independent streams of seed.
func (g *Generator) sequence(seed uint64) (orig *Graph, po *datalog.Program, trans *Graph, expect datalog.Expect, steps []Step, err error) {
	orig, po, err = g.original(seed)
	if err != nil {
		return nil, nil, nil, 0, nil, err
	}
	trans, expect, steps, err = Sequence(orig, g.opts, rand.New(rand.NewPCG(seed, genSequenceStream)))
	if err != nil {
		return nil, nil, nil, 0, nil, fmt.Errorf("dlsmith: seed %d: %w", seed, err)
	}
	return orig, po, trans, expect, steps, nil
}

// nonEmptyTries bounds the graphs drawn for a case that asks for a non-empty answer.
const nonEmptyTries = 16

// nonEmptyLimit bounds the tuples the reference derives while checking a program's answer.
const nonEmptyLimit = 100000

// original returns the graph of the case of seed: with probability NonEmpty percent, the first
// of up to nonEmptyTries graphs (from seeds derived from seed) whose program's answer on the
// reference engine is not empty, else the last one drawn (as datalog.Generator does). It returns
// the graph's program too when it emitted it, else nil.
func (g *Generator) original(seed uint64) (*Graph, *datalog.Program, error) {
	r := rand.New(rand.NewPCG(seed, genNonEmptyStream))
	gr, err := Generate(g.opts, seed)
	if err != nil || r.IntN(100) >= g.opts.NonEmpty {
		return gr, nil, err
	}
	for k := 1; ; k++ {
		p, err := gr.Program()
		if err != nil {
			return nil, nil, fmt.Errorf("dlsmith: seed %d: generated program: %w", seed, err)
		}
		m, err := evalFor(gr, p, gr.Output, nonEmptyLimit)
		if (err == nil && len(m.Output()) > 0) || k == nonEmptyTries {
			return gr, p, nil
		}
		if gr, err = Generate(g.opts, r.Uint64()); err != nil {
			return nil, nil, err
		}
	}
}
