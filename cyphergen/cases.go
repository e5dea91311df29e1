package cyphergen

import (
	"math/rand/v2"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// GraphQuery is the layout of a general query, compared across engines ("graph.q"). A graph
// case carries it, fuzz.TLPWhere (a query and its partitions: rows(orig) = rows(p) ⊎ rows(notp)
// ⊎ rows(null)), or both.
var GraphQuery = fuzz.NewLayout("graph", "q")

// RoleQuery is the role of the general query.
var RoleQuery = GraphQuery.Role("q")

// queryStream is the PCG stream of a case's query generator.
const queryStream = 0x6379706865722d71 // "cypher-q"

// graphCacheSize is how many graphs a Generator keeps.
const graphCacheSize = 8

// Generator makes graph cases (a fuzz.Generator and fuzz.SetupSharer): the setup creates the
// graph drawn from fuzz.SetupSeed(seed), so that Options.Queries consecutive cases share one
// graph, and the queries are drawn from the whole seed. It is safe for concurrent use.
type Generator struct {
	o               Options
	gen             string
	avoid           map[string]bool
	diff, partition bool
	genie, grev     bool
	writes          bool // Options.Writes percent of the cases write (cases_write.go)
	graphs          *fuzz.SetupCache[*graphEntry]
}

type graphEntry struct {
	gi    *graphInfo
	setup []string
}

// NewGenerator returns a generator of cases with a general query (layout [GraphQuery]) when
// diff, and a query with its three partitions (layout fuzz.TLPWhere) when partition, never
// using a feature in avoid.
func NewGenerator(o Options, avoid map[string]bool, diff, partition bool) *Generator {
	return &Generator{o: o, gen: o.String(), avoid: avoid, diff: diff, partition: partition,
		graphs: fuzz.NewSetupCache[*graphEntry](graphCacheSize)}
}

// CasesPerSetup returns Options.Queries: how many consecutive cases share one graph.
func (g *Generator) CasesPerSetup() int { return g.o.Queries }

// Generate returns the case of seed; the same seed and options always give the same case.
func (g *Generator) Generate(seed uint64) (*fuzz.Case, error) {
	ge, err := g.graph(fuzz.SetupSeed(seed))
	if err != nil {
		return nil, err
	}
	qg := newQueryGen(g.o, ge.gi, g.avoid, rand.New(rand.NewPCG(seed, queryStream)))
	c := &fuzz.Case{Domain: "graph", Gen: g.gen, Seed: seed, Setup: append([]string(nil), ge.setup...)}
	if g.writeCase(c, qg, seed) {
		return c, nil
	}
	if g.diff || g.genie || g.grev {
		q := qg.Query().String()
		c.Queries = append(c.Queries, fuzz.Query{Role: RoleQuery, Text: q})
		c.Queries = append(c.Queries, g.rewrites(q, ge.gi.g.Schema, seed)...)
	}
	if g.partition {
		orig, p, notp, null := qg.Partition()
		r := fuzz.TLPWhere.Roles()
		c.Queries = append(c.Queries,
			fuzz.Query{Role: r[0], Text: orig.String()}, fuzz.Query{Role: r[1], Text: p.String()},
			fuzz.Query{Role: r[2], Text: notp.String()}, fuzz.Query{Role: r[3], Text: null.String()})
	}
	return c, nil
}

// graph returns the graph of a setup seed, from the cache or built once.
func (g *Generator) graph(setup uint64) (*graphEntry, error) {
	return g.graphs.Get(setup, func() (*graphEntry, error) {
		gr, err := generate(g.o, setup, g.avoid[FeatureNodeLabels])
		if err != nil {
			return nil, err
		}
		return &graphEntry{gi: newGraphInfo(gr), setup: gr.Statements()}, nil
	})
}
