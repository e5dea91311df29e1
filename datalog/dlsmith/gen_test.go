package dlsmith

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// genVariants are option sets the generator must handle: DLSmith's defaults and corners.
func genVariants() []struct {
	name string
	o    Options
} {
	numbers, symbols, empty, seeded, big, flat := DefaultOptions(), DefaultOptions(), DefaultOptions(),
		DefaultOptions(), DefaultOptions(), DefaultOptions()
	numbers.Types = []datalog.Type{datalog.Number}
	symbols.Types = []datalog.Type{datalog.Symbol}
	empty.Seeded = 0
	seeded.Seeded = 100
	big.Layers, big.Nodes, big.Arity, big.ExtraEdges, big.Negations = Range{Min: 10, Max: 12}, Range{Min: 3, Max: 4},
		Range{Min: 4, Max: 6}, 60, 30
	flat.Layers, flat.OutEdges, flat.Constants = Range{Min: 1, Max: 1}, Range{Min: 0, Max: 0}, 1
	return []struct {
		name string
		o    Options
	}{{"default", DefaultOptions()}, {"numbers", numbers}, {"symbols", symbols}, {"empty seed", empty},
		{"seeded", seeded}, {"big", big}, {"one layer", flat}}
}

// TestGenerateValid checks, on 2,000 seeds with the defaults and 150 to 500 with other options, that every graph emits a valid
// program with its output node in the last layer, that no seed node has an incoming edge or a
// fact, that the generated part is acyclic, and that the annotation is the one Annotate gives.
func TestGenerateValid(t *testing.T) {
	for _, v := range genVariants() {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			n := map[string]uint64{"default": 2000, "big": 150}[v.name]
			if n == 0 {
				n = 500
			}
			for seed := range n {
				g, err := Generate(v.o, seed)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if err := checkGraph(g, v.o); err != "" {
					t.Fatalf("seed %d: %s", seed, err)
				}
			}
		})
	}
}

// checkGraph returns the first problem of a generated graph, "" for none.
func checkGraph(g *Graph, o Options) string {
	p, err := g.Program()
	if err != nil {
		return err.Error()
	}
	outs := 0
	for _, r := range p.Relations {
		if r.Output {
			outs++
		}
		for _, a := range r.Attrs {
			if !slices.Contains(o.Types, a.Type) {
				return r.Name + " has a column of type " + a.Type.String() + ", not in the options"
			}
		}
	}
	if outs != 1 || g.Node(g.Output) == nil || g.Node(g.Output).Seed {
		return "the output is not one generated node: " + g.Output
	}
	for _, e := range g.Edges {
		if g.Node(e.To).Seed {
			return "seed node " + e.To + " has an incoming edge"
		}
		if g.Node(e.To).Heads[e.Rule] == nil {
			return "an edge into " + e.To + " has no rule head"
		}
	}
	for _, n := range g.Nodes {
		if !n.Seed && g.Descendants(n.Name)[n.Name] {
			return "generated node " + n.Name + " is on a cycle"
		}
		if n.Seed && len(n.Facts) > 0 {
			return "seed node " + n.Name + " has fact nodes"
		}
		if !n.Seed && len(n.Facts) == 0 && len(g.Incoming(n.Name)) == 0 {
			return "generated node " + n.Name + " has neither rules nor facts"
		}
		if k := g.MaxRule(n.Name); k > o.MaxRule {
			return fmt.Sprintf("%s has rule number %d, more than %d", n.Name, k, o.MaxRule)
		}
	}
	h := g.Clone()
	h.Annotate()
	for i, n := range g.Nodes {
		if m := h.Nodes[i]; n.Stratum != m.Stratum || n.Ancestry != m.Ancestry {
			return "node " + n.Name + " is not annotated"
		}
	}
	return ""
}

// TestGenerateDeterministic checks that the same options and seed give the same program, and
// that seeds differ.
func TestGenerateDeterministic(t *testing.T) {
	distinct := map[string]bool{}
	for seed := range uint64(50) {
		a, err := Generate(DefaultOptions(), seed)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Generate(DefaultOptions(), seed)
		pa, _ := a.Program()
		pb, _ := b.Program()
		if pa.String() != pb.String() {
			t.Fatalf("seed %d gave two programs:\n%s\n%s", seed, pa, pb)
		}
		distinct[pa.String()] = true
	}
	if len(distinct) < 45 {
		t.Errorf("50 seeds gave %d distinct programs", len(distinct))
	}
}

// TestGenerateCoverage checks that, over many seeds, the graphs reach everything DLSmith's do:
// every seed program and the empty seed, negation, strata 1 and 2 and deeper, every ancestry,
// extra rules, repeated variables and constants in atoms, constants in heads, nodes with both
// facts and rules, and programs whose output is not empty on the reference engine.
func TestGenerateCoverage(t *testing.T) {
	got := map[string]int{}
	seeds := map[string]bool{}
	const n = 1000
	for seed := range uint64(n) {
		g, err := Generate(DefaultOptions(), seed)
		if err != nil {
			t.Fatal(err)
		}
		for f := range graphFeatures(g) {
			got[f]++
		}
		if len(g.Seed) > 0 {
			seeds[seedOf(g)] = true
		}
		p, _ := g.Program()
		if m, err := datalog.EvalContext(context.Background(), p, 100000); err == nil && len(m.Output()) > 0 {
			got["non-empty output"]++
		}
	}
	t.Logf("features over %d graphs: %v", n, got)
	for _, f := range []string{"empty seed", "seeded", "negation", "stratum 1", "stratum 2", "stratum 3+",
		"ancestry +", "ancestry -", "ancestry ?", "ancestry none", "extra rule", "repeated variable in atom",
		"constant in atom", "constant in head", "facts and rules", "non-empty output"} {
		if got[f] == 0 {
			t.Errorf("no graph has %s", f)
		}
	}
	for _, p := range Seeds() {
		if !seeds[p.File] {
			t.Errorf("no graph starts from seed %s", p.File)
		}
	}
}

// seedOf returns the file name of the seed program g starts from.
func seedOf(g *Graph) string {
	var names []string
	for _, n := range g.Nodes {
		if n.Seed {
			names = append(names, n.Name)
		}
	}
	for _, p := range Seeds() {
		var rels []string
		for _, r := range p.Relations {
			rels = append(rels, r.Name)
		}
		if slices.Equal(names, rels) {
			return p.File
		}
	}
	return ""
}

// graphFeatures returns the features of g.
func graphFeatures(g *Graph) map[string]bool {
	f := map[string]bool{}
	if len(g.Seed) > 0 {
		f["seeded"] = true
	} else {
		f["empty seed"] = true
	}
	for _, n := range g.Nodes {
		switch {
		case n.Stratum >= 3:
			f["stratum 3+"] = true
		case n.Stratum > 0:
			f[fmt.Sprintf("stratum %d", n.Stratum)] = true
		}
		f["ancestry "+n.Ancestry.String()] = true
		if !n.Seed && len(n.Facts) > 0 && len(g.Incoming(n.Name)) > 0 {
			f["facts and rules"] = true
		}
		for k, h := range n.Heads {
			if k > 1 {
				f["extra rule"] = true
			}
			if hasConst(h) {
				f["constant in head"] = true
			}
		}
	}
	for _, e := range g.Edges {
		if e.Negated {
			f["negation"] = true
		}
		if hasConst(e.Args) {
			f["constant in atom"] = true
		}
		for i, a := range e.Args {
			if a.Kind == datalog.Var && slices.Contains(e.Args[:i], a) {
				f["repeated variable in atom"] = true
			}
		}
	}
	return f
}

// TestGenerateSeedPassesThrough checks, for every seed program, that a graph built on it emits
// the seed's declarations, facts and rules verbatim, that no generated rule has a seed
// relation as its head, and that the seed's output relation has the same tuples in the emitted
// program as in the seed alone.
func TestGenerateSeedPassesThrough(t *testing.T) {
	o := DefaultOptions()
	o.Seeded = 100
	done := map[string]bool{}
	for seed := uint64(0); len(done) < len(Seeds()) && seed < 2000; seed++ {
		g, err := Generate(o, seed)
		if err != nil {
			t.Fatal(err)
		}
		file := seedOf(g)
		if done[file] {
			continue
		}
		done[file] = true
		var sp *datalog.Program
		for _, p := range Seeds() {
			if p.File == file {
				sp = p
			}
		}
		p, err := g.Program()
		if err != nil {
			t.Fatal(err)
		}
		text := p.String()
		lines := strings.Split(sp.String(), "\n")
		for _, line := range lines {
			if strings.HasPrefix(line, ".output") || line == "" {
				continue
			}
			if !strings.Contains(text, line+"\n") {
				t.Errorf("%s: the emitted program lacks %q", file, line)
			}
		}
		seedRels := map[string]bool{}
		for _, r := range sp.Relations {
			seedRels[r.Name] = true
		}
		if n := len(p.Rules) - len(sp.Rules); n <= 0 {
			t.Errorf("%s: the graph added no rule or fact", file)
		}
		for _, r := range p.Rules[len(sp.Rules):] {
			if seedRels[r.Head.Rel] {
				t.Errorf("%s: generated rule %s defines seed relation %s", file, r, r.Head.Rel)
			}
		}
		want, err := datalog.Eval(sp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := datalog.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sp.Relations {
			if !r.Output {
				continue
			}
			w, g := want.Tuples(r.Name), got.Tuples(r.Name)
			if len(w) == 0 || !slices.EqualFunc(w, g, func(a, b datalog.Tuple) bool { return a.String() == b.String() }) {
				t.Errorf("%s: %s has %v in the emitted program, %v in the seed", file, r.Name, g, w)
			}
		}
	}
	if len(done) != len(Seeds()) {
		t.Errorf("2000 seeds reached %d of the %d seed programs", len(done), len(Seeds()))
	}
}

// TestGenerateBadOptions checks that options out of bounds are refused with a message naming
// the option.
func TestGenerateBadOptions(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"no types", func(o *Options) { o.Types = nil }, "types"},
		{"no constants", func(o *Options) { o.Constants = 0 }, "constants"},
		{"no layers", func(o *Options) { o.Layers = Range{Min: 0, Max: 0} }, "layers"},
	} {
		o := DefaultOptions()
		c.edit(&o)
		if _, err := Generate(o, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
}

// BenchmarkGenerate measures graphs per second with DLSmith's parameters (DLSmith reports 163
// programs per second for generation), the program emitted and checked.
func BenchmarkGenerate(b *testing.B) {
	o := DefaultOptions()
	for i := range b.N {
		g, err := Generate(o, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.Program(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "graphs/s")
}
