package cyphergen

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

func TestGenerateDeterministic(t *testing.T) {
	seed := testenv.Seed(t)
	o := DefaultOptions()
	o.PropTypes = append(o.PropTypes, Float)
	texts := map[string]bool{}
	for i := range uint64(5) {
		a, err := Generate(o, seed+i)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Generate(o, seed+i)
		if !reflect.DeepEqual(a, b) || a.String() != b.String() {
			t.Fatalf("seed %d: two graphs differ", seed+i)
		}
		texts[a.String()] = true
	}
	if len(texts) != 5 {
		t.Errorf("5 seeds gave %d distinct graphs", len(texts))
	}
}

// TestGenerateRespectsOptions checks the schema and the graph against their options: counts,
// key names and types, value types and ranges, presence, pools, labels and endpoints.
func TestGenerateRespectsOptions(t *testing.T) {
	seed := testenv.Seed(t)
	mod := func(f func(*Options)) Options { o := DefaultOptions(); f(&o); return o }
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"default", DefaultOptions()},
		{"all-types", mod(func(o *Options) {
			o.PropTypes = []Type{Integer, Float, String, Boolean}
			o.Ints, o.StrLen = Range{Min: -3, Max: 3}, Range{Min: 2, Max: 4}
		})},
		{"absent", mod(func(o *Options) { o.Presence, o.Nodes = 0, 20 })},
		{"present", mod(func(o *Options) { o.Presence, o.Pool, o.Nodes = 100, 1, 30 })},
		{"unlabelled", mod(func(o *Options) { o.MaxLabels, o.Rels = 0, Range{Min: 0, Max: 0} })},
		{"many-labels", mod(func(o *Options) {
			o.Labels, o.MaxLabels, o.Keys, o.Rels = Range{Min: 2, Max: 2}, 8, Range{Min: 0, Max: 1}, Range{Min: 300, Max: 300}
		})},
		{"one-node", mod(func(o *Options) { o.Nodes, o.Rels, o.RelTypes = 1, Range{Min: 500, Max: 500}, Range{Min: 1, Max: 1} })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			for i := range uint64(20) {
				g, err := Generate(o, seed+i)
				if err != nil {
					t.Fatal(err)
				}
				checkGraph(t, o, g)
				if t.Failed() {
					t.Fatalf("seed %d:\n%s", seed+i, g)
				}
			}
		})
	}
}

func checkGraph(t *testing.T, o Options, g *Graph) {
	t.Helper()
	in := func(n int, r Range) bool { return r.Min <= n && n <= r.Max }
	s := g.Schema
	if !in(len(s.Labels), o.Labels) || !in(len(s.RelTypes), o.RelTypes) {
		t.Errorf("%d labels and %d types, want %s and %s", len(s.Labels), len(s.RelTypes), o.Labels, o.RelTypes)
	}
	keys := map[string]Key{}
	checkKeys := func(owner string, ks []Key) {
		if !in(len(ks), o.Keys) {
			t.Errorf("%s has %d keys, want %s", owner, len(ks), o.Keys)
		}
		for _, k := range ks {
			if _, dup := keys[k.Name]; dup || k.Name == "id" {
				t.Errorf("key %s of %s repeated", k.Name, owner)
			}
			if !slices.Contains(o.PropTypes, k.Type) {
				t.Errorf("key %s has type %s, not in %v", k.Name, k.Type, o.PropTypes)
			}
			keys[k.Name] = k
		}
	}
	labelKeys := map[string][]Key{}
	for _, l := range s.Labels {
		checkKeys(l.Name, l.Keys)
		labelKeys[l.Name] = l.Keys
	}
	typeKeys := map[string][]Key{}
	for _, rt := range s.RelTypes {
		checkKeys(rt.Name, rt.Keys)
		typeKeys[rt.Name] = rt.Keys
	}
	pools := map[string]map[Value]bool{}
	checkProps := func(id int, allowed []Key, ps Props) {
		if v, ok := ps.Get("id"); !ok || v != IntValue(int64(id)) || ps[0].Key != "id" {
			t.Errorf("element %d: id property %v, want it first and %d", id, v, id)
		}
		if o.Presence == 100 && len(ps) != len(allowed)+1 || o.Presence == 0 && len(ps) != 1 {
			t.Errorf("element %d has %d of %d keys with presence %d%%", id, len(ps)-1, len(allowed), o.Presence)
		}
		for _, p := range ps[1:] {
			i := slices.IndexFunc(allowed, func(k Key) bool { return k.Name == p.Key })
			if i < 0 {
				t.Errorf("element %d has key %s of none of its labels or type", id, p.Key)
				continue
			}
			if p.Val.Type != allowed[i].Type {
				t.Errorf("element %d: %s = %s has type %s, want %s", id, p.Key, p.Val, p.Val.Type, allowed[i].Type)
			}
			switch v := p.Val; v.Type {
			case Integer:
				if v.Int < int64(o.Ints.Min) || v.Int > int64(o.Ints.Max) {
					t.Errorf("element %d: %s = %d outside %s", id, p.Key, v.Int, o.Ints)
				}
			case Float:
				if v.Float < float64(o.Ints.Min) || v.Float > float64(o.Ints.Max) {
					t.Errorf("element %d: %s = %g outside %s", id, p.Key, v.Float, o.Ints)
				}
			case String:
				if !in(len(v.Str), o.StrLen) || strings.Trim(v.Str, strChars) != "" {
					t.Errorf("element %d: %s = %q, want %s characters of %q", id, p.Key, v.Str, o.StrLen, strChars)
				}
			}
			if pools[p.Key] == nil {
				pools[p.Key] = map[Value]bool{}
			}
			pools[p.Key][p.Val] = true
		}
	}
	if len(g.Nodes) != o.Nodes {
		t.Errorf("%d nodes, want %d", len(g.Nodes), o.Nodes)
	}
	for i, n := range g.Nodes {
		if n.ID != i {
			t.Errorf("node %d has ID %d", i, n.ID)
		}
		if len(n.Labels) > o.MaxLabels || !slices.IsSorted(n.Labels) || len(slices.Compact(slices.Clone(n.Labels))) != len(n.Labels) {
			t.Errorf("node %d has labels %v, want at most %d distinct ones", i, n.Labels, o.MaxLabels)
		}
		var allowed []Key
		for _, l := range n.Labels {
			ks, ok := labelKeys[l]
			if !ok {
				t.Errorf("node %d has unknown label %s", i, l)
			}
			allowed = append(allowed, ks...)
		}
		checkProps(n.ID, allowed, n.Props)
	}
	if lo, hi := o.Nodes*o.Rels.Min/100, o.Nodes*o.Rels.Max/100; len(g.Rels) < lo || len(g.Rels) > hi {
		t.Errorf("%d relationships, want %d..%d", len(g.Rels), lo, hi)
	}
	for i, r := range g.Rels {
		if r.ID != len(g.Nodes)+i {
			t.Errorf("relationship %d has ID %d, want %d", i, r.ID, len(g.Nodes)+i)
		}
		if r.From < 0 || r.From >= len(g.Nodes) || r.To < 0 || r.To >= len(g.Nodes) {
			t.Errorf("relationship %d joins %d and %d, not existing nodes", r.ID, r.From, r.To)
		}
		ks, ok := typeKeys[r.Type]
		if !ok {
			t.Errorf("relationship %d has unknown type %s", r.ID, r.Type)
		}
		checkProps(r.ID, ks, r.Props)
	}
	for k, vals := range pools {
		if len(vals) > o.Pool {
			t.Errorf("key %s has %d distinct values, more than the pool of %d", k, len(vals), o.Pool)
		}
	}
}

// TestLabelCount checks GDsmith's label distribution for 3 labels: none 1/8, one 1/2, two 1/4,
// three 1/8.
func TestLabelCount(t *testing.T) {
	o := DefaultOptions()
	o.Labels, o.Nodes, o.Keys = Range{Min: 7, Max: 7}, 8000, Range{Min: 0, Max: 0}
	g, err := Generate(o, testenv.Seed(t))
	if err != nil {
		t.Fatal(err)
	}
	count := make([]int, 4)
	for _, n := range g.Nodes {
		count[len(n.Labels)]++
	}
	for k, want := range []int{1000, 4000, 2000, 1000} {
		if d := count[k] - want; d < -want/5 || d > want/5 {
			t.Errorf("%d nodes with %d labels, want about %d", count[k], k, want)
		}
	}
}
