package datalog

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// naiveModel is the model of the naive evaluator: relation -> tuple key -> tuple.
type naiveModel map[string]map[string]Tuple

// tupleKey identifies a tuple by its canonical values (cheaper than Tuple.String).
func tupleKey(t Tuple) string {
	var b strings.Builder
	b.WriteString(t.Rel)
	for _, a := range t.Args {
		b.WriteByte(0)
		b.WriteString(Canonical(a))
	}
	return b.String()
}

func termsEqual(a, b Term) bool {
	return a.Kind == b.Kind && a.Num == b.Num && a.Sym == b.Sym && a.Name == b.Name
}

// naiveEval evaluates p from scratch without indexes: per stratum, every rule over the whole
// model until nothing changes.
func naiveEval(p *Program) (naiveModel, error) {
	strata, err := p.Strata()
	if err != nil {
		return nil, err
	}
	m := naiveModel{}
	for _, r := range p.Relations {
		m[r.Name] = map[string]Tuple{}
	}
	for _, names := range strata {
		for changed := true; changed; {
			changed = false
			for _, r := range p.Rules {
				if !slices.Contains(names, r.Head.Rel) {
					continue
				}
				var heads []Tuple
				naiveInstances(m, r, func(sub map[string]Term, _ []Tuple) {
					heads = append(heads, naiveInstantiate(r.Head, sub))
				})
				for _, h := range heads {
					if _, ok := m[h.Rel][tupleKey(h)]; !ok {
						m[h.Rel][tupleKey(h)] = h
						changed = true
					}
				}
			}
		}
	}
	return m, nil
}

// naiveInstances calls f with the substitution and the positive body tuples of every instance
// of r in m: positive atoms matched left to right, then negated atoms and constraints checked.
func naiveInstances(m naiveModel, r Rule, f func(sub map[string]Term, body []Tuple)) {
	var pos []Atom
	for _, a := range r.Body {
		if !a.Negated {
			pos = append(pos, a)
		}
	}
	var rec func(i int, sub map[string]Term, body []Tuple)
	rec = func(i int, sub map[string]Term, body []Tuple) {
		if i < len(pos) {
			for _, t := range m[pos[i].Rel] {
				if s, ok := naiveUnify(pos[i], t, sub); ok {
					rec(i+1, s, append(slices.Clip(body), t))
				}
			}
			return
		}
		for _, a := range r.Body {
			if a.Negated && naiveMatches(m, a, sub) {
				return
			}
		}
		for _, c := range r.Constraints {
			if !naiveHolds(c, sub) {
				return
			}
		}
		f(sub, body)
	}
	rec(0, map[string]Term{}, nil)
}

// naiveUnify extends sub so that a matches t.
func naiveUnify(a Atom, t Tuple, sub map[string]Term) (map[string]Term, bool) {
	out := map[string]Term{}
	for k, v := range sub {
		out[k] = v
	}
	for i, arg := range a.Args {
		v := t.Args[i]
		switch arg.Kind {
		case Anon:
		case Var:
			if b, ok := out[arg.Name]; ok {
				if !termsEqual(b, v) {
					return nil, false
				}
			} else {
				out[arg.Name] = v
			}
		default:
			if !termsEqual(arg, v) {
				return nil, false
			}
		}
	}
	return out, true
}

// naiveMatches reports whether some tuple of m matches a under sub.
func naiveMatches(m naiveModel, a Atom, sub map[string]Term) bool {
	for _, t := range m[a.Rel] {
		if _, ok := naiveUnify(a, t, sub); ok {
			return true
		}
	}
	return false
}

func naiveValue(t Term, sub map[string]Term) Term {
	if t.Kind == Var {
		return sub[t.Name]
	}
	return Term{Kind: t.Kind, Num: t.Num, Sym: t.Sym}
}

func naiveHolds(c Constraint, sub map[string]Term) bool {
	l, r := naiveValue(c.Left, sub), naiveValue(c.Right, sub)
	d := strings.Compare(l.Sym, r.Sym)
	if l.Kind == Num {
		d = 0
		if l.Num < r.Num {
			d = -1
		} else if l.Num > r.Num {
			d = 1
		}
	}
	switch c.Op {
	case Eq:
		return d == 0
	case Ne:
		return d != 0
	case Lt:
		return d < 0
	case Le:
		return d <= 0
	case Gt:
		return d > 0
	case Ge:
		return d >= 0
	}
	panic("bad op " + c.Op)
}

// naiveInstantiate returns the tuple of a under sub (a's arguments must be constants or bound).
func naiveInstantiate(a Atom, sub map[string]Term) Tuple {
	t := Tuple{Rel: a.Rel, Args: make([]Term, len(a.Args))}
	for i, arg := range a.Args {
		t.Args[i] = naiveValue(arg, sub)
	}
	return t
}

// naiveHeights returns the minimal proof height of every tuple of the complete model m of p.
func naiveHeights(p *Program, m naiveModel) map[string]int {
	h := map[string]int{}
	for _, r := range p.Rules {
		if r.IsFact() {
			h[tupleKey(naiveInstantiate(r.Head, nil))] = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for _, r := range p.Rules {
			if r.IsFact() {
				continue
			}
			naiveInstances(m, r, func(sub map[string]Term, body []Tuple) {
				hh := 0
				for _, b := range body {
					bh, ok := h[tupleKey(b)]
					if !ok {
						return
					}
					hh = max(hh, bh)
				}
				k := tupleKey(naiveInstantiate(r.Head, sub))
				if old, ok := h[k]; !ok || hh+1 < old {
					h[k] = hh + 1
					changed = true
				}
			})
		}
	}
	return h
}

// modelDiff describes the differences between m and the naive model want, or returns "".
func modelDiff(p *Program, m *Model, want naiveModel) string {
	var b strings.Builder
	for _, r := range p.Relations {
		got := map[string]bool{}
		for _, t := range m.Tuples(r.Name) {
			got[tupleKey(t)] = true
			if _, ok := want[r.Name][tupleKey(t)]; !ok {
				fmt.Fprintf(&b, "extra %s\n", t)
			}
			if !m.Contains(t) {
				fmt.Fprintf(&b, "Contains(%s) = false\n", t)
			}
		}
		for k := range want[r.Name] {
			if !got[k] {
				fmt.Fprintf(&b, "missing %s\n", k)
			}
		}
	}
	return b.String()
}

// progGen builds random programs that exercise what the engine must handle: recursion (also
// mutual), stratified negation, constraints on numbers and symbols, constants in atoms, repeated
// variables, _, relations with both facts and rules, empty and 0-ary relations.
type progGen struct {
	r     *rand.Rand
	nums  []int64
	syms  []string
	stats map[string]int
}

func newProgGen(seed uint64) *progGen {
	return &progGen{
		r:     rand.New(rand.NewPCG(seed, 0xda7a)),
		nums:  []int64{-1, 0, 1, 2},
		syms:  []string{"", "a", "ab", "b"},
		stats: map[string]int{},
	}
}

func (g *progGen) constant(t Type) Term {
	if t == Number {
		if g.r.IntN(40) == 0 {
			return N([]int64{math.MinInt64, math.MaxInt64}[g.r.IntN(2)])
		}
		return N(g.nums[g.r.IntN(len(g.nums))])
	}
	if g.r.IntN(40) == 0 {
		return S(`q"\`)
	}
	return S(g.syms[g.r.IntN(len(g.syms))])
}

// program returns a random program, parsed from its printed form.
func (g *progGen) program() *Program {
	r := g.r
	p := &Program{File: "rand.dl"}
	nrel := 2 + r.IntN(5)
	for i := range nrel {
		rel := Relation{Name: fmt.Sprintf("r%d", i), Attrs: []Attr{}}
		arity := []int{0, 1, 1, 2, 2, 2, 3, 3}[r.IntN(8)]
		for j := range arity {
			rel.Attrs = append(rel.Attrs, Attr{fmt.Sprintf("c%d", j), Type(1 + r.IntN(2))})
		}
		rel.Output = r.IntN(2) == 0
		p.Relations = append(p.Relations, rel)
	}
	for _, rel := range p.Relations {
		if r.IntN(10) < 7 {
			for range r.IntN(9) {
				args := []Term{}
				for _, a := range rel.Attrs {
					args = append(args, g.constant(a.Type))
				}
				p.Rules = append(p.Rules, Rule{Head: Atom{Rel: rel.Name, Args: args}})
			}
		}
	}
	for range 1 + r.IntN(7) {
		p.Rules = append(p.Rules, g.rule(p))
	}
	src := p.String()
	q, err := Parse("rand.dl", src)
	if err != nil {
		panic(fmt.Sprintf("random program does not parse: %v\n%s", err, src))
	}
	// Most programs with a cycle through negation are repaired: the negated atom that closes
	// the cycle becomes positive.
	for r.IntN(10) > 0 {
		_, err := q.Strata()
		var perr *Error
		if !errors.As(err, &perr) {
			break
		}
		for i := range q.Rules {
			for j, a := range q.Rules[i].Body {
				if a.Negated && a.Pos == perr.Pos {
					q.Rules[i].Body[j].Negated = false
				}
			}
		}
	}
	return q
}

func (g *progGen) rule(p *Program) Rule {
	r := g.r
	hi := r.IntN(len(p.Relations))
	head := p.Relations[hi]
	// Body relations mostly come before the head's, so that most programs are stratifiable;
	// the others make recursion, mutual too, and the odd cycle through negation.
	bodyRel := func(negated bool) Relation {
		n, odds := hi+1, 85
		if negated {
			n, odds = hi, 95
		}
		if n > 0 && r.IntN(100) < odds {
			return p.Relations[r.IntN(n)]
		}
		return p.Relations[r.IntN(len(p.Relations))]
	}
	rule := Rule{Head: Atom{Rel: head.Name, Args: []Term{}}}
	vars := map[Type][]string{}
	nvars := 0
	pick := func(t Type) (string, bool) {
		if len(vars[t]) == 0 {
			return "", false
		}
		return vars[t][r.IntN(len(vars[t]))], true
	}
	if r.IntN(30) > 0 {
		for range 1 + r.IntN(3) {
			rel := bodyRel(false)
			a := Atom{Rel: rel.Name, Args: []Term{}}
			for _, at := range rel.Attrs {
				var t Term
				v, ok := pick(at.Type)
				switch k := r.IntN(10); {
				case k < 5 && ok:
					t = V(v)
					g.stats["repeated variable"]++
				case k < 8:
					name := fmt.Sprintf("X%d", nvars)
					nvars++
					vars[at.Type] = append(vars[at.Type], name)
					t = V(name)
				case k < 9:
					t = g.constant(at.Type)
					g.stats["constant in body"]++
				default:
					t = Any()
					g.stats["anonymous"]++
				}
				a.Args = append(a.Args, t)
			}
			if rel.Name == head.Name {
				g.stats["self recursion"]++
			}
			rule.Body = append(rule.Body, a)
		}
	} else {
		g.stats["constraint-only rule"]++
	}
	for r.IntN(10) < 3 {
		rel := bodyRel(true)
		a := Atom{Rel: rel.Name, Args: []Term{}, Negated: true}
		for _, at := range rel.Attrs {
			v, ok := pick(at.Type)
			switch k := r.IntN(10); {
			case k < 6 && ok:
				a.Args = append(a.Args, V(v))
			case k < 8:
				a.Args = append(a.Args, g.constant(at.Type))
			default:
				a.Args = append(a.Args, Any())
			}
		}
		g.stats["negated atom"]++
		rule.Body = append(rule.Body, a)
	}
	for range r.IntN(3) {
		t := Type(1 + r.IntN(2))
		left := g.constant(t)
		if v, ok := pick(t); ok {
			left = V(v)
		}
		right := g.constant(t)
		if v, ok := pick(t); ok && r.IntN(2) == 0 {
			right = V(v)
		}
		op := []Op{Eq, Ne, Lt, Le, Gt, Ge}[r.IntN(6)]
		rule.Constraints = append(rule.Constraints, Constraint{Op: op, Left: left, Right: right})
		g.stats[fmt.Sprintf("constraint on %s", t)]++
	}
	for _, at := range head.Attrs {
		if v, ok := pick(at.Type); ok && r.IntN(5) > 0 {
			rule.Head.Args = append(rule.Head.Args, V(v))
		} else {
			rule.Head.Args = append(rule.Head.Args, g.constant(at.Type))
		}
	}
	return rule
}

// countFeatures counts what a program exercises.
func countFeatures(p *Program, strata [][]string, stats map[string]int) {
	facts, rules := map[string]bool{}, map[string]bool{}
	for _, r := range p.Rules {
		if r.IsFact() {
			facts[r.Head.Rel] = true
		} else {
			rules[r.Head.Rel] = true
		}
	}
	for _, rel := range p.Relations {
		if facts[rel.Name] && rules[rel.Name] {
			stats["relation with facts and rules"]++
		}
		if len(rel.Attrs) == 0 {
			stats["0-ary relation"]++
		}
	}
	for _, s := range strata {
		if len(s) > 1 {
			stats["mutual recursion"]++
		}
	}
}

func TestEvalMatchesNaive(t *testing.T) {
	seed := testenv.Seed(t)
	const programs = 4000
	g := newProgGen(seed)
	stats := g.stats
	for i := range programs {
		p := g.program()
		want, werr := naiveEval(p)
		m, err := Eval(p)
		if werr != nil {
			stats["not stratifiable"]++
			if err == nil || err.Error() != werr.Error() {
				t.Fatalf("program %d: Eval error %v, want %v", i, err, werr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, p)
		}
		strata, _ := p.Strata()
		countFeatures(p, strata, stats)
		stats["programs evaluated"]++
		stats["tuples"] += m.Size()
		for _, ts := range want {
			if len(ts) == 0 {
				stats["empty relation"]++
			}
		}
		if d := modelDiff(p, m, want); d != "" {
			t.Fatalf("program %d: Eval differs from the naive evaluator:\n%s\nprogram:\n%s", i, d, p)
		}
		heights := naiveHeights(p, want)
		for _, rel := range p.Relations {
			for _, tu := range m.Tuples(rel.Name) {
				if got, want := m.heightOf(tu), heights[tupleKey(tu)]; got != want {
					t.Fatalf("program %d: height of %s = %d, want %d (minimal)\n%s", i, tu, got, want, p)
				}
			}
		}
	}
	t.Logf("%d random programs: %v", programs, stats)
	if stats["not stratifiable"] > programs/4 {
		t.Errorf("%d of %d programs are not stratifiable; the generator should make fewer", stats["not stratifiable"], programs)
	}
}

// heightOf returns the stored height of t, or -1.
func (m *Model) heightOf(t Tuple) int {
	rs, id, err := m.find(t)
	if err != nil {
		return -1
	}
	return int(rs.height[id])
}

const tcSmall = `.decl edge(x: number, y: number)
.decl path(x: number, y: number)
.decl cut(x: number)
.decl reach(x: number)
.decl isolated(x: number)
.decl node(x: number)
.decl label(x: number, s: symbol)
.output path
.output isolated
.output label
edge(1, 2). edge(2, 3). edge(3, 1). edge(3, 4). edge(5, 5).
node(1). node(2). node(3). node(4). node(5). node(6). node(7).
cut(4).
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z), !cut(z).
reach(y) :- path(_, y).
isolated(x) :- node(x), !reach(x), x != 6.
label(x, "self") :- edge(x, x).
label(x, "high") :- node(x), x >= 5, x < 6.
`

func TestEvalTransitiveClosure(t *testing.T) {
	p, err := Parse("tc.dl", tcSmall)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tu := range m.Tuples("path") {
		got = append(got, tu.String())
	}
	want := []string{"path(1, 1)", "path(1, 2)", "path(1, 3)", "path(2, 1)", "path(2, 2)", "path(2, 3)",
		"path(3, 1)", "path(3, 2)", "path(3, 3)", "path(3, 4)", "path(5, 5)"}
	if !slices.Equal(got, want) {
		t.Errorf("path = %v\nwant %v", got, want)
	}
	out := m.Output()
	wantOut := [][]string{{"isolated", "i:7"}, {"label", "i:5", "t:high"}, {"label", "i:5", "t:self"}}
	for _, w := range want {
		tu := strings.NewReplacer("path(", "", ")", "", ",", "").Replace(w)
		f := strings.Fields(tu)
		wantOut = append(wantOut, []string{"path", "i:" + f[0], "i:" + f[1]})
	}
	wantOut = SortRows(wantOut)
	if !slices.EqualFunc(out, wantOut, slices.Equal) {
		t.Errorf("Output = %v\nwant %v", out, wantOut)
	}
	if m.Size() != 32 {
		t.Errorf("Size = %d, want 32 (5 edge, 7 node, 1 cut, 11 path, 5 reach, 1 isolated, 2 label)", m.Size())
	}
	for _, c := range []struct {
		t    Tuple
		want bool
	}{
		{Tuple{"path", []Term{N(3), N(4)}}, true},
		{Tuple{"path", []Term{N(4), N(1)}}, false},
		{Tuple{"label", []Term{N(5), S("self")}}, true},
		{Tuple{"label", []Term{N(5), S("unknown symbol")}}, false},
		{Tuple{"nosuch", nil}, false},
		{Tuple{"path", []Term{N(3)}}, false},
	} {
		if got := m.Contains(c.t); got != c.want {
			t.Errorf("Contains(%s) = %v, want %v", c.t, got, c.want)
		}
	}
	if got := m.Tuples("nosuch"); got != nil {
		t.Errorf("Tuples(nosuch) = %v", got)
	}
}

func TestEvalSymbolOrder(t *testing.T) {
	p, err := Parse("s.dl", `.decl s(x: symbol)
.decl lt(x: symbol, y: symbol)
s("b"). s("a"). s("ab"). s(""). s("B").
lt(x, y) :- s(x), s(y), x < y.
`)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tu := range m.Tuples("s") {
		got = append(got, tu.String())
	}
	if want := []string{`s("")`, `s("B")`, `s("a")`, `s("ab")`, `s("b")`}; !slices.Equal(got, want) {
		t.Errorf("Tuples(s) = %v, want %v", got, want)
	}
	if n := len(m.Tuples("lt")); n != 10 {
		t.Errorf("lt has %d tuples, want 10", n)
	}
}

func TestEvalContextLimits(t *testing.T) {
	p := TransitiveClosure(50, 200, 1)
	if _, err := EvalContext(context.Background(), p, 100); !errors.Is(err, ErrTupleLimit) {
		t.Errorf("limit 100: error %v, want ErrTupleLimit", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := EvalContext(ctx, p, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: error %v, want context.Canceled", err)
	}
	m, err := EvalContext(context.Background(), p, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if m.Size() <= 200 {
		t.Errorf("Size = %d, want more than the 200 edges", m.Size())
	}
	q, _ := Parse("neg.dl", ".decl e(x: number)\n.decl p(x: number)\np(x) :- e(x), !p(x).\n")
	if _, err := Eval(q); err == nil || !strings.Contains(err.Error(), "not stratifiable") {
		t.Errorf("non-stratifiable program: error %v", err)
	}
}

func TestReferenceExec(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		limit  int
		src    string
		status fuzz.Status
		code   string
		err    string // a substring of Result.Err
		rows   int
	}{
		{"good", t.Context(), 0, tcSmall, fuzz.StatusOK, "", "", 14},
		{"malformed", t.Context(), 0, ".decl p(x: number)\np(x) :- .\n", fuzz.StatusEngineError, CodeBadProgram,
			"program.dl:2:9: expected a variable, number or string, found '.'", 0},
		{"not stratifiable", t.Context(), 0, ".decl e(x: number)\n.decl p(x: number)\np(x) :- e(x), !p(x).\n",
			fuzz.StatusEngineError, CodeNotStratifiable, "program.dl:3:15: not stratifiable", 0},
		{"over the limit", t.Context(), 100, TransitiveClosure(50, 200, 1).String(), fuzz.StatusTimeout, "",
			"tuple limit exceeded: more than 100 tuples", 0},
		{"canceled", canceled, 0, TransitiveClosure(50, 200, 1).String(), fuzz.StatusTimeout, "", "context canceled", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := NewReference(tt.limit)
			res, err := ref.Exec(tt.ctx, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.status || res.Code != tt.code || !strings.Contains(res.Err, tt.err) || len(res.Rows) != tt.rows {
				t.Errorf("Exec = %+v, want status %s, code %q, error with %q, %d rows", res, tt.status, tt.code, tt.err, tt.rows)
			}
		})
	}
	ref := NewReference(0)
	if ref.Name() != "ref" || ref.Version() != "polyfuzz reference engine" || ref.maxTuples != DefaultMaxTuples ||
		ref.Reset(t.Context()) != nil || ref.Close() != nil {
		t.Errorf("Reference %q %q limit %d", ref.Name(), ref.Version(), ref.maxTuples)
	}
	var _ fuzz.Target = ref
}

// TestEvalExistentialAtoms checks that body atoms whose new variables nothing later uses do
// not multiply the join: the program below has 392^4 rule instances but a model of 796 tuples.
func TestEvalExistentialAtoms(t *testing.T) {
	const src = `.decl mmg0(a: symbol, b: number)
.decl fse1(a: symbol, b: symbol, c: symbol)
.decl nhf4(a: symbol, b: number, c: number)
.decl trv5(a: symbol, b: number, c: number)
.output trv5
mmg0("b", -1). mmg0("7", -3). mmg0("T", 1). mmg0("S", -2). mmg0("7", 7). mmg0("f", 4). mmg0("l", 4). mmg0("2", 7). mmg0("t", -9).
fse1("Y", "p", "N"). fse1("W", "J", "y"). fse1("M", "w", "t").
nhf4(B, A, A) :- mmg0(B, A), mmg0(B, A).
nhf4(D, A, B) :- nhf4(K, C, B), nhf4(E, A, M), !fse1(D, D, D), nhf4(L, G, J), nhf4(D, I, H).
trv5(D, C, B) :- nhf4(D, A, B), nhf4(D, C, B).
`
	p, err := Parse("existential.dl", src)
	if err != nil {
		t.Fatal(err)
	}
	// The deadline only guards against a blow-up; the evaluation takes milliseconds on an idle machine.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := EvalContext(ctx, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	// 8 symbols and 7 numbers occur in nhf4's facts; the recursive rule combines them all.
	if got, want := len(m.Tuples("nhf4")), 8*7*7; got != want {
		t.Errorf("nhf4 has %d tuples, want %d", got, want)
	}
	if got, want := len(m.Output()), 8*7*7; got != want {
		t.Errorf("trv5 has %d tuples, want %d", got, want)
	}
	for _, c := range []struct {
		tuple  Tuple
		height int
	}{
		{Tuple{Rel: "nhf4", Args: []Term{S("b"), N(-1), N(-1)}}, 1},
		{Tuple{Rel: "nhf4", Args: []Term{S("b"), N(7), N(-9)}}, 2},
		{Tuple{Rel: "trv5", Args: []Term{S("b"), N(7), N(-9)}}, 3},
	} {
		if got := m.heightOf(c.tuple); got != c.height {
			t.Errorf("height of %s = %d, want %d", c.tuple, got, c.height)
		}
	}
}

// TestEvalExistentialHeights checks against the naive evaluator that atoms joined once per
// distinct value of their used variables still give the model and minimal heights, and that
// updates and Explain, which reuse the join, stay exact.
func TestEvalExistentialHeights(t *testing.T) {
	const src = `.decl e(x: number, y: number)
.decl p(x: number, y: number)
.decl q(x: number)
.decl r(x: number)
.decl f(x: number, y: number)
.decl w(x: number, y: number)
.decl s(x: number)
.output q
.output r
.output s
f(1, 5).
e(1, 2). e(2, 3). e(3, 4). e(4, 5). e(5, 1). e(9, 9).
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), e(y, z).
q(x) :- p(x, _), p(_, x), e(y, w), p(w, y).
r(x) :- e(x, y), p(y, z), p(z, u), !q(u).
r(x) :- q(x), p(a, b), p(b, c).
w(x, y) :- p(x, y).
w(x, y) :- f(x, y).
s(x) :- w(x, y).
`
	p, err := Parse("heights.dl", src)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	for i, upd := range []struct{ insert, delete []Tuple }{
		{}, // no change: the heights are still those of Eval, which must be minimal
		{delete: []Tuple{{Rel: "e", Args: []Term{N(3), N(4)}}}},
		{insert: []Tuple{{Rel: "e", Args: []Term{N(1), N(4)}}, {Rel: "e", Args: []Term{N(9), N(1)}}}},
		{delete: []Tuple{{Rel: "e", Args: []Term{N(9), N(9)}}}},
	} {
		if _, err := m.Update(upd.insert, upd.delete); err != nil {
			t.Fatal(err)
		}
		prog := m.Program()
		want, err := naiveEval(prog)
		if err != nil {
			t.Fatal(err)
		}
		if d := modelDiff(prog, m, want); d != "" {
			t.Fatalf("after %v: model differs from the naive evaluator:\n%s", upd, d)
		}
		if i == 0 {
			heights := naiveHeights(prog, want)
			for _, rel := range prog.Relations {
				for _, tu := range m.Tuples(rel.Name) {
					if got, want := m.heightOf(tu), heights[tupleKey(tu)]; got != want {
						t.Fatalf("height of %s = %d, want %d", tu, got, want)
					}
				}
			}
		}
		checkExplain(t, prog, m, i == 0)
	}
}
