package cyphergen

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// graphStream is the stream of the PCG generator of a graph.
const graphStream = 0x6379706865722d67 // "cypher-g"

// strChars holds the characters of generated string values.
const strChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "

// Prop is one property of a node or relationship.
type Prop struct {
	Key string
	Val Value
}

// Props are the properties of an element, "id" first, then in schema order.
type Props []Prop

// Get returns the value of key and whether the element has it.
func (ps Props) Get(key string) (Value, bool) {
	for _, p := range ps {
		if p.Key == key {
			return p.Val, true
		}
	}
	return Value{}, false
}

// Node is a node of a [Graph]. Its ID is its index in Graph.Nodes and the value of its "id"
// property.
type Node struct {
	ID     int
	Labels []string // in schema order
	Props  Props
}

// Rel is a relationship of a [Graph] from node From to node To (node IDs; From == To is a
// self-loop). Its ID is len(Graph.Nodes) plus its index in Graph.Rels and the value of its "id"
// property, so that ids are unique across nodes and relationships as in GDsmith.
type Rel struct {
	ID       int
	Type     string
	From, To int
	Props    Props
}

// Graph is a property graph over a schema.
//
// [Graph.Run] keeps an index of the graph for the next query, rebuilt when the graph gains
// elements; a graph whose elements are changed in place afterwards needs [Graph.Changed]. Run is
// therefore not safe for concurrent use on one Graph.
type Graph struct {
	Schema Schema
	Nodes  []Node
	Rels   []Rel

	idx *graphIndex
}

// Changed drops the index Run keeps, after the graph's elements were changed in place.
func (g *Graph) Changed() { g.idx = nil }

// Generate returns a random graph as GDsmith's GraphManager builds one: a schema
// ([GenerateSchema]), then o.Nodes nodes with a few random labels each, then relationships
// between random nodes (self-loops included) of one random type each. Every element gets a
// unique integer "id" property and each key of its labels or type with probability o.Presence%,
// its value picked from the key's pool of o.Pool values. The graph depends only on o and seed.
func Generate(o Options, seed uint64) (*Graph, error) { return generate(o, seed, false) }

// FeatureNodeLabels is the feature of a graph with a node that has no label or several: a
// generator that avoids it ([NewGenerator]) gives every node exactly one label, as engines whose
// nodes live in one table each (Kùzu) need.
const FeatureNodeLabels = "node-labels"

// generate is [Generate], with exactly one label per node when oneLabel.
func generate(o Options, seed uint64, oneLabel bool) (*Graph, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, graphStream))
	g := &Graph{Schema: GenerateSchema(o, r)}
	pools := map[string][]Value{}
	props := func(id int, keys []Key) Props {
		ps := Props{{"id", IntValue(int64(id))}}
		for _, k := range keys {
			if r.IntN(100) >= o.Presence {
				continue
			}
			pool, ok := pools[k.Name]
			if !ok {
				pool = make([]Value, o.Pool)
				for i := range pool {
					pool[i] = randomValue(o, r, k.Type)
				}
				pools[k.Name] = pool
			}
			ps = append(ps, Prop{k.Name, pool[r.IntN(len(pool))]})
		}
		return ps
	}
	for id := range o.Nodes {
		labels := labelCount(o, r, len(g.Schema.Labels))
		if oneLabel {
			labels = 1
		}
		picked := r.Perm(len(g.Schema.Labels))[:labels]
		slices.Sort(picked)
		n := Node{ID: id}
		var keys []Key
		for _, i := range picked {
			n.Labels = append(n.Labels, g.Schema.Labels[i].Name)
			keys = append(keys, g.Schema.Labels[i].Keys...)
		}
		n.Props = props(id, keys)
		g.Nodes = append(g.Nodes, n)
	}
	rels := between(r, Range{Min: o.Nodes * o.Rels.Min / 100, Max: o.Nodes * o.Rels.Max / 100})
	for i := range rels {
		from, to := r.IntN(o.Nodes), r.IntN(o.Nodes)
		t := g.Schema.RelTypes[r.IntN(len(g.Schema.RelTypes))]
		id := o.Nodes + i
		g.Rels = append(g.Rels, Rel{ID: id, Type: t.Name, From: from, To: to, Props: props(id, t.Keys)})
	}
	return g, nil
}

// labelCount draws the number of labels of a node as GDsmith's getRandomLabelNum, with its
// fixed exponent 3 replaced by o.MaxLabels: x uniform in [0, 2^M), 0 gives no label, otherwise
// M+1-bitlen(x); capped by the schema's labels.
func labelCount(o Options, r *rand.Rand, labels int) int {
	x := r.IntN(1 << o.MaxLabels)
	if x == 0 {
		return 0
	}
	return min(o.MaxLabels+1-bits.Len(uint(x)), labels)
}

// randomValue draws a value of type t.
func randomValue(o Options, r *rand.Rand, t Type) Value {
	switch t {
	case Integer:
		lo, hi := int64(o.Ints.Min), int64(o.Ints.Max)
		return IntValue(lo + int64(r.Uint64N(uint64(hi)-uint64(lo)+1)))
	case Float:
		lo, hi := float64(o.Ints.Min), float64(o.Ints.Max)
		return FloatValue(lo + r.Float64()*(hi-lo))
	case String:
		var b strings.Builder
		for range between(r, o.StrLen) {
			b.WriteByte(strChars[r.IntN(len(strChars))])
		}
		return StringValue(b.String())
	default:
		return BoolValue(r.IntN(2) == 0)
	}
}
