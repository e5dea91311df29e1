package cyphergen

import (
	"math/rand/v2"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// GraphState is the layout of a case that writes ("state.write"), then reads the graph back
// whole: its nodes ("state.nodes") and its relationships ("state.rels"), compared across
// engines by the state oracle.
var GraphState = fuzz.NewLayout("state", "write", "nodes", "rels")

// writeStream is the PCG stream that decides whether a case writes, apart from the query
// stream, so that the cases that do not write are the same with writes on or off.
const writeStream = 0x6379706865722d77 // "cypher-w"

// WithWrites makes g generate Options.Writes percent of its cases as write cases (layout
// [GraphState]) when on, every case when g makes neither a general query nor a partition, and
// returns g.
func (g *Generator) WithWrites(on bool) *Generator {
	g.writes = on
	return g
}

// writeCase fills c as a write case when the seed draws one, and reports whether it did.
func (g *Generator) writeCase(c *fuzz.Case, qg *QueryGen, seed uint64) bool {
	if !g.writes {
		return false
	}
	// Without the read oracles every case writes.
	if (g.diff || g.partition) && rand.New(rand.NewPCG(seed, writeStream)).IntN(100) >= g.o.Writes {
		return false
	}
	nodes, rels := StateQueries()
	r := GraphState.Roles()
	c.Writes = true
	c.Queries = []fuzz.Query{{Role: r[0], Text: qg.WriteQuery().String()}, {Role: r[1], Text: nodes}, {Role: r[2], Text: rels}}
	return true
}
