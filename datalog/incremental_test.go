package datalog

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// tupleSet returns the tuples of every relation of m, by key.
func tupleSet(m *Model) map[string]Tuple {
	out := map[string]Tuple{}
	for _, rel := range m.relations {
		for _, t := range m.Tuples(rel.Name) {
			out[tupleKey(t)] = t
		}
	}
	return out
}

// factSet returns the facts of p, by key.
func factSet(p *Program) map[string]Tuple {
	out := map[string]Tuple{}
	for _, r := range p.Rules {
		if r.IsFact() {
			t := Tuple{Rel: r.Head.Rel, Args: r.Head.Args}
			out[tupleKey(t)] = t
		}
	}
	return out
}

// tupleSetDiff returns the sorted keys of a that are not in b.
func tupleSetDiff(a, b map[string]Tuple) []string {
	var out []string
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// sortedKeys returns the sorted keys of ts.
func sortedKeys(ts []Tuple) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = tupleKey(t)
	}
	slices.Sort(out)
	return out
}

// randomTuple returns a tuple of a random relation of p with random constants.
func (g *progGen) randomTuple(p *Program) Tuple {
	rel := p.Relations[g.r.IntN(len(p.Relations))]
	t := Tuple{Rel: rel.Name, Args: []Term{}}
	for _, a := range rel.Attrs {
		t.Args = append(t.Args, g.constant(a.Type))
	}
	return t
}

// epoch returns random fact changes for the program q: deletions of facts, of absent tuples and
// of facts deleted earlier, insertions of new tuples, of present facts and of facts deleted
// earlier (re-inserts), from the pool gone.
func (g *progGen) epoch(q *Program, gone []Tuple) (ins, del []Tuple) {
	r := g.r
	facts := slices.Collect(maps.Values(factSet(q)))
	slices.SortFunc(facts, func(a, b Tuple) int { return strings.Compare(tupleKey(a), tupleKey(b)) })
	for range r.IntN(5) {
		switch k := r.IntN(10); {
		case k < 6 && len(facts) > 0:
			del = append(del, facts[r.IntN(len(facts))])
		case k < 8 && len(gone) > 0:
			del = append(del, gone[r.IntN(len(gone))])
		default:
			del = append(del, g.randomTuple(q))
		}
	}
	for range r.IntN(5) {
		switch k := r.IntN(10); {
		case k < 3 && len(gone) > 0:
			ins = append(ins, gone[r.IntN(len(gone))])
		case k < 4 && len(facts) > 0:
			ins = append(ins, facts[r.IntN(len(facts))])
		default:
			ins = append(ins, g.randomTuple(q))
		}
	}
	return ins, del
}

func TestUpdateMatchesScratch(t *testing.T) {
	g := newProgGen(testenv.Seed(t) + 1)
	stats := map[string]int{}
	for programs := 0; programs < 2000; {
		p := g.program()
		m, err := Eval(p)
		if err != nil {
			continue
		}
		programs++
		prev := tupleSet(m)
		var gone []Tuple
		for epoch := range 3 + g.r.IntN(4) {
			before := m.Program()
			ins, del := g.epoch(before, gone)
			d, err := m.Update(ins, del)
			if err != nil {
				t.Fatal(err)
			}
			stats["epochs"]++
			stats["inserts"] += len(ins)
			stats["deletes"] += len(del)
			stats["tuples inserted"] += len(d.Inserted)
			stats["tuples deleted"] += len(d.Deleted)
			// The program's facts: the old ones without the deleted ones, with the inserted ones.
			wantFacts := factSet(before)
			for _, t := range del {
				delete(wantFacts, tupleKey(t))
			}
			for _, t := range ins {
				wantFacts[tupleKey(t)] = t
			}
			for _, t := range del {
				if _, ok := factSet(before)[tupleKey(t)]; ok {
					gone = append(gone, t)
				}
			}
			q := m.Program()
			where := func() string {
				return fmt.Sprintf("program %d epoch %d: insert %v delete %v\nbefore:\n%s", programs, epoch, ins, del, before)
			}
			if got := factSet(q); !slices.Equal(tupleSetDiff(got, wantFacts), tupleSetDiff(wantFacts, got)) {
				t.Fatalf("%s\nProgram facts: extra %v, missing %v", where(), tupleSetDiff(got, wantFacts), tupleSetDiff(wantFacts, got))
			}
			scratch, err := Eval(q)
			if err != nil {
				t.Fatalf("%s\n%v", where(), err)
			}
			now := tupleSet(scratch)
			got := tupleSet(m)
			if extra, missing := tupleSetDiff(got, now), tupleSetDiff(now, got); len(extra)+len(missing) > 0 {
				t.Fatalf("%s\nafter the update, extra %v, missing %v", where(), extra, missing)
			}
			if m.Size() != len(now) {
				t.Fatalf("%s\nSize = %d, want %d", where(), m.Size(), len(now))
			}
			if got, want := sortedKeys(d.Inserted), tupleSetDiff(now, prev); !slices.Equal(got, want) {
				t.Fatalf("%s\nDelta.Inserted = %v, want %v", where(), got, want)
			}
			if got, want := sortedKeys(d.Deleted), tupleSetDiff(prev, now); !slices.Equal(got, want) {
				t.Fatalf("%s\nDelta.Deleted = %v, want %v", where(), got, want)
			}
			if !slices.EqualFunc(m.Output(), scratch.Output(), slices.Equal) {
				t.Fatalf("%s\nOutput differs", where())
			}
			if programs%4 == 0 {
				checkExplain(t, q, m, false)
				stats["epochs explained"]++
			}
			prev = now
		}
	}
	t.Logf("%v", stats)
}

func TestUpdateRoundTrip(t *testing.T) {
	p, err := Parse("pt.dl", paperPointsTo)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	orig := tupleSet(m)
	change := []Tuple{symTuple("assign", "upgradedSession", "userSession"), symTuple("load", "userSession", "admin", "session")}
	d1, err := m.Update(change, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d1.Deleted) != 0 || len(d1.Inserted) == 0 {
		t.Fatalf("insert: Delta %+v", d1)
	}
	d2, err := m.Update(nil, change)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sortedKeys(d1.Inserted), sortedKeys(d2.Deleted)) || len(d2.Inserted) != 0 {
		t.Errorf("the reverse update's Delta %v does not undo %v", d2, d1)
	}
	if got := tupleSet(m); len(tupleSetDiff(got, orig))+len(tupleSetDiff(orig, got)) > 0 {
		t.Errorf("after the round trip, extra %v, missing %v", tupleSetDiff(got, orig), tupleSetDiff(orig, got))
	}
	if !m.Program().Equal(p) {
		t.Errorf("Program after the round trip =\n%s\nwant\n%s", m.Program(), p)
	}
	// Inserting and deleting a fact at once keeps it where it is.
	d3, err := m.Update(change[:1], change[:1])
	if err != nil {
		t.Fatal(err)
	}
	if len(d3.Inserted) == 0 {
		t.Errorf("inserting and deleting a new fact at once: Delta %v, want insertions", d3)
	}
	q := m.Program()
	first := []Tuple{symTuple("new", "admin", "L1")}
	d4, err := m.Update(first, first)
	if err != nil {
		t.Fatal(err)
	}
	if len(d4.Inserted)+len(d4.Deleted) > 0 || !m.Program().Equal(q) {
		t.Errorf("inserting and deleting a fact at once: Delta %v, program\n%s\nwant\n%s", d4, m.Program(), q)
	}
}

func TestUpdateTouchesChangedStrata(t *testing.T) {
	p, err := Parse("s.dl", `.decl a(x: number)
.decl b(x: number)
.decl c(x: number)
.decl d(x: number)
a(1). c(1).
b(x) :- a(x).
d(x) :- c(x), !b(x).
`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		ins, del []Tuple
		strata   int
		inserted string
		deleted  string
	}{
		{"unrelated", []Tuple{{"c", []Term{N(2)}}}, nil, 2, "c(2) d(2)", ""},
		{"no-op", []Tuple{{"c", []Term{N(2)}}}, []Tuple{{"a", []Term{N(5)}}, {"b", []Term{N(1)}}}, 0, "", ""},
		{"through negation", []Tuple{{"a", []Term{N(2)}}}, nil, 3, "a(2) b(2)", "d(2)"},
		{"deletion below negation", nil, []Tuple{{"a", []Term{N(1)}}}, 3, "d(1)", "a(1) b(1)"},
		{"fact of a derived relation", []Tuple{{"b", []Term{N(1)}}}, nil, 2, "b(1)", "d(1)"},
		{"insert wins", []Tuple{{"d", []Term{N(1)}}}, []Tuple{{"d", []Term{N(1)}}}, 1, "d(1)", ""},
		{"delete the last fact", nil, []Tuple{{"b", []Term{N(1)}}}, 2, "", "b(1)"},
		{"delete a derivable fact", nil, []Tuple{{"d", []Term{N(1)}}}, 1, "", ""},
	}
	m, err := Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	str := func(ts []Tuple) string {
		var s []string
		for _, t := range ts {
			s = append(s, t.String())
		}
		return strings.Join(s, " ")
	}
	for _, tt := range tests {
		d, err := m.Update(tt.ins, tt.del)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := str(d.Inserted); got != tt.inserted {
			t.Errorf("%s: inserted %q, want %q", tt.name, got, tt.inserted)
		}
		if got := str(d.Deleted); got != tt.deleted {
			t.Errorf("%s: deleted %q, want %q", tt.name, got, tt.deleted)
		}
		if m.maintained != tt.strata {
			t.Errorf("%s: %d strata maintained, want %d", tt.name, m.maintained, tt.strata)
		}
	}
}

func TestUpdateErrors(t *testing.T) {
	p, err := Parse("e.dl", ".decl e(x: number, s: symbol)\ne(1, \"a\").\n")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		ins, del []Tuple
		want     string
	}{
		{"unknown relation", []Tuple{{"f", nil}}, nil, `insert f(): unknown relation "f"`},
		{"arity", nil, []Tuple{{"e", []Term{N(1)}}}, "delete e(1): e has arity 2"},
		{"type", []Tuple{{"e", []Term{S("a"), S("a")}}}, nil, `insert e("a", "a"): argument 1 must be a number constant`},
		{"variable", []Tuple{{"e", []Term{N(1), V("x")}}}, nil, `insert e(1, x): argument 2 must be a symbol constant`},
	}
	for _, tt := range tests {
		if _, err := m.Update(tt.ins, tt.del); err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %s", tt.name, err, tt.want)
		}
	}
	if got := m.Program(); !got.Equal(p) {
		t.Errorf("a failed update changed the program:\n%s", got)
	}
	small, err := EvalContext(t.Context(), TransitiveClosure(10, 5, 1), 30)
	if err != nil {
		t.Fatal(err)
	}
	var more []Tuple
	for i := range 10 {
		more = append(more, Tuple{"edge", []Term{N(int64(i)), N(int64((i + 1) % 10))}})
	}
	if _, err := small.Update(more, nil); err == nil {
		t.Fatal("an update past the tuple limit succeeded")
	}
	if _, err := small.Update(nil, nil); err == nil {
		t.Error("a model whose update failed is still usable")
	}
}
