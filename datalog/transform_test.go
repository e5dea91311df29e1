package datalog

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// mustParse parses src or fails t.
func mustParse(t *testing.T, src string) *Program {
	t.Helper()
	p, err := Parse("test.dl", src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// names returns a source of the given fresh variable names, in order.
func names(ns ...string) func() string {
	i := 0
	return func() string {
		i++
		return ns[(i-1)%len(ns)]
	}
}

// outcomes applies m to rule i of p with 300 seeds and returns the distinct results, sorted.
func outcomes(p *Program, i int, m Micro, fresh ...string) []string {
	seen := map[string]bool{}
	for s := range uint64(300) {
		if r, ok := m(p, p.Rules[i], rand.New(rand.NewPCG(s, 1)), names(fresh...)); ok {
			seen[r.String()] = true
		}
	}
	out := make([]string, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

const cqDecls = ".decl a(x: number, y: number)\n.decl r(x: number, y: number)\n.decl p(x: number)\n"

// typedDecls adds a relation of two types to cqDecls.
const typedDecls = cqDecls + ".decl s(x: number, y: symbol)\n"

// TestMicro checks every micro-transformation on the worked examples of queryFuzz (spec §2.2):
// the set of rules a step can produce and the relation its rule has to the original.
func TestMicro(t *testing.T) {
	for _, tc := range []struct {
		name  string
		m     Micro
		rule  string
		fresh []string
		want  []string // every possible outcome; the paper's example is the first
	}{
		{"ADD_EQU", AddEqu, "p(X) :- a(X, Y), a(Y, X).", []string{"Z"}, []string{
			"p(X) :- a(X, Y), a(Y, X), a(Z, X).",
			"p(X) :- a(X, Y), a(Y, X), a(X, Z).", "p(X) :- a(X, Y), a(Y, X), a(Z, Y).",
			"p(X) :- a(X, Y), a(Y, X), a(Y, Z).", "p(X) :- a(X, Y), a(Y, X), a(Z, Z).",
		}},
		// ADD_CON: every atom over a with arguments from {X, Y} that is not in the body.
		{"ADD_CON", AddCon, "p(X) :- a(X, Y), a(Y, X).", []string{"Z"}, []string{
			"p(X) :- a(X, Y), a(Y, X), a(Y, Y).", "p(X) :- a(X, Y), a(Y, X), a(X, X).",
			"p(X) :- a(X, Y), a(Y, X), p(X).", "p(X) :- a(X, Y), a(Y, X), p(Y).",
			"p(X) :- a(X, Y), a(Y, X), r(X, X).", "p(X) :- a(X, Y), a(Y, X), r(X, Y).",
			"p(X) :- a(X, Y), a(Y, X), r(Y, X).", "p(X) :- a(X, Y), a(Y, X), r(Y, Y).",
		}},
		// MOD_EXP: one occurrence of a joined variable becomes fresh (thesis Fig. 3.9).
		{"MOD_EXP", ModExp, "p(X) :- a(X, Y), a(Y, X).", []string{"W"}, []string{
			"p(X) :- a(X, Y), a(Y, W).",
			"p(X) :- a(W, Y), a(Y, X).", "p(X) :- a(X, W), a(Y, X).", "p(X) :- a(X, Y), a(W, X).",
		}},
		{"MOD_EXP no join", ModExp, "p(X) :- a(X, Y), !r(X, Y).", []string{"W"}, nil},
		{"MOD_EQU", ModEqu, "p(X) :- a(X, Y), a(Y, X).", []string{"W"}, []string{
			"p(W) :- a(W, Y), a(Y, W).", "p(X) :- a(X, W), a(W, X).",
		}},
		// MOD_CON: all of Y becomes X (thesis Fig. 3.10), or all of X becomes Y.
		{"MOD_CON", ModCon, "p(X) :- a(X, Y), a(Y, X).", nil, []string{
			"p(X) :- a(X, X), a(X, X).", "p(Y) :- a(Y, Y), a(Y, Y).",
		}},
		{"MOD_CON one variable", ModCon, "p(X) :- a(X, X).", nil, nil},
		{"MOD_CON types", ModCon, "p(X) :- s(X, S), !s(X, \"a\").", nil, nil},
		{"MOD_CON constraints", ModCon, "p(X) :- a(X, Y), !r(Y, X), X < Y.", nil, []string{
			"p(X) :- a(X, X), !r(X, X), X < X.", "p(Y) :- a(Y, Y), !r(Y, Y), Y < Y.",
		}},
		// REM_EXP: the removed atom's pattern has no wildcard and matches no remaining atom.
		{"REM_EXP", RemExp, "p(X) :- a(X, Y), a(Y, X).", nil, []string{
			"p(X) :- a(X, Y).", "p(X) :- a(Y, X).",
		}},
		{"REM_EXP contained", RemExp, "p(X) :- r(Y, X), r(W, X).", nil, nil},
		{"REM_EXP unsafe", RemExp, "p(Y) :- a(X, X), r(X, Y).", nil, []string{"p(Y) :- r(X, Y)."}},
		{"REM_EXP unsafe constraint", RemExp, "p(X) :- a(X, X), r(Y, Y), Y < 3.", nil, nil},
		{"REM_EXP unsafe negation", RemExp, "p(X) :- a(X, X), r(Y, Y), !r(X, Y).", nil, nil},
		{"REM_EXP one atom", RemExp, "p(X) :- a(X, Y), !r(X, Y).", nil, nil},
		// REM_EQU: rmVars = {W}, pattern r(*, X) matches r(Y, X).
		{"REM_EQU", RemEqu, "p(X) :- r(Y, X), r(W, X).", nil, []string{
			"p(X) :- r(Y, X).", "p(X) :- r(W, X).",
		}},
		{"REM_EQU not contained", RemEqu, "p(X) :- a(X, Y), a(Y, X).", nil, nil},
		// Fig. 3.6: a(Z, W) maps onto a(Y, W); a(Y, W) keeps Y and maps nowhere.
		{"REM_EQU Fig 3.6", RemEqu, "p(X) :- a(X, Y), a(Y, W), a(Z, W).", nil, []string{
			"p(X) :- a(X, Y), a(Y, W).",
		}},
		// The pattern keeps a removed variable's repetition: r(*1, *1) needs equal arguments.
		{"REM_EQU repeated", RemEqu, "p(X) :- r(X, X), r(Y, Y), r(Z, W).", nil, []string{
			"p(X) :- r(X, X), r(Y, Y).", "p(X) :- r(X, X), r(Z, W).",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decls := cqDecls
			if strings.Contains(tc.rule, "s(") {
				decls = typedDecls
			}
			p := mustParse(t, decls+tc.rule+"\n")
			got := outcomes(p, 0, tc.m, tc.fresh...)
			want := slices.Clone(tc.want)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s(%s):\n got %q\nwant %q", tc.name, tc.rule, got, want)
			}
			for _, r := range got {
				mustParse(t, decls+r+"\n")
			}
		})
	}
}

func TestExistsContainment(t *testing.T) {
	p := mustParse(t, cqDecls+`p(X) :- a(X, Y), a(Y, W), a(Z, W).
p(X) :- a(X, Y), a(Y, X).
p(X) :- r(Y, X), r(W, X).
p(X) :- r(Y, X), r(2, X).
p(X) :- r(X, X), r(Y, Y), r(_, _).
p(X) :- r(X, Z), r(Y, Y).
`)
	for _, tc := range []struct {
		rule, atom int
		want       bool
	}{
		{0, 2, true}, {0, 1, false}, {0, 0, false},
		{1, 0, false}, {1, 1, false},
		{2, 1, true}, {2, 0, true},
		{3, 0, true},  // Y maps onto the constant 2
		{3, 1, false}, // the constant 2 matches only itself
		{4, 1, true},  // r(Y, Y) onto r(X, X)
		{4, 2, true},  // r(_, _) onto anything
		{5, 1, false}, // r(Y, Y) needs equal arguments
	} {
		q := p.Rules[tc.rule]
		q2 := cloneRule(q)
		q2.Body = slices.Delete(q2.Body, tc.atom, tc.atom+1)
		if got := ExistsContainment(q, q2, q.Body[tc.atom]); got != tc.want {
			t.Errorf("ExistsContainment(%s, without %s) = %v, want %v", q, q.Body[tc.atom], got, tc.want)
		}
	}
	// Two wildcards, r(_, _) left: the back-reference must not match two anonymous variables.
	q := mustParse(t, cqDecls+"p(X) :- a(X, X), r(Y, Y), r(_, _).\n").Rules[0]
	q2 := cloneRule(q)
	q2.Body = q2.Body[:1:1]
	q2.Body = append(q2.Body, q.Body[2])
	if ExistsContainment(q, q2, q.Body[1]) {
		t.Errorf("r(Y, Y) maps onto r(_, _)")
	}
}

func TestAddConDuplicates(t *testing.T) {
	only := mustParse(t, ".decl a(x: number)\n.decl q(x: number)\nq(X) :- a(X), q(X).\n")
	if r, ok := AddCon(only, only.Rules[0], rand.New(rand.NewPCG(1, 2)), names("Z")); ok {
		t.Errorf("AddCon added %s although every atom is in the body", r)
	}
}

const negDecls = ".decl a(x: number, y: number)\n.decl b(x: number, y: number)\n.decl c(x: number)\n.decl p(x: number, y: number)\n"

func TestNeg(t *testing.T) {
	p := mustParse(t, negDecls+"p(X, Y) :- a(X, Y), b(Y, Z), c(Z).\n")
	seen := map[string]bool{}
	for s := range uint64(100) {
		q, ok := Neg(p, 0, rand.New(rand.NewPCG(s, 3)), "neg")
		if !ok {
			t.Fatal("Neg failed")
		}
		if len(p.Rules) != 1 || len(p.Relations) != 4 {
			t.Fatal("Neg changed its argument")
		}
		if err := programValid(q); err != nil {
			t.Fatal(err)
		}
		seen[q.String()] = true
	}
	// §5.5: c(Z) is negated; b(Y, Z) is the other atom whose variables the rest binds.
	want := []string{negDecls + `.decl neg(a: number)
neg(Z) :- a(X, Y), b(Y, Z), !c(Z).
p(X, Y) :- a(X, Y), b(Y, Z), !neg(Z).
`, negDecls + `.decl neg(a: number, b: number)
neg(Y, Z) :- a(X, Y), !b(Y, Z), c(Z).
p(X, Y) :- a(X, Y), !neg(Y, Z), c(Z).
`}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("Neg never gave\n%s", w)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("Neg gave %d programs, want %d: %v", len(seen), len(want), seen)
	}
	for _, tc := range []struct{ name, src string }{
		{"unbound", negDecls + "p(X, Y) :- a(X, Y), b(Y, Z).\n"},
		{"one atom", negDecls + "p(X, Y) :- a(X, Y), !b(X, X).\n"},
		{"recursive", negDecls + "p(X, Y) :- a(X, Y), p(X, Y).\n"},
		{"taken", negDecls + ".decl neg(x: number)\np(X, Y) :- a(X, Y), a(Y, X).\n"},
	} {
		p := mustParse(t, tc.src)
		for s := range uint64(20) {
			if q, ok := Neg(p, len(p.Rules)-1, rand.New(rand.NewPCG(s, 3)), "neg"); ok {
				t.Errorf("%s: Neg gave\n%s", tc.name, q)
				break
			}
		}
	}
}

func TestExpect(t *testing.T) {
	for _, e := range []Expect{Equal, Subset, Superset} {
		got, err := ParseExpect(e.String())
		if err != nil || got != e {
			t.Errorf("ParseExpect(%q) = %v, %v", e, got, err)
		}
		b, _ := e.MarshalText()
		var u Expect
		if err := u.UnmarshalText(b); err != nil || u != e {
			t.Errorf("UnmarshalText(%q) = %v, %v", b, u, err)
		}
	}
	if Expect(0).String() != "invalid" {
		t.Errorf("zero Expect = %q", Expect(0))
	}
	for _, s := range []string{"", "invalid", "EQU", "contains"} {
		if _, err := ParseExpect(s); err == nil {
			t.Errorf("ParseExpect(%q) succeeded", s)
		}
	}
	a, ab := [][]string{{"p", "i:1"}}, [][]string{{"p", "i:1"}, {"p", "i:2"}}
	for _, tc := range []struct {
		e           Expect
		orig, trans [][]string
		want        bool
	}{
		{Equal, a, a, true}, {Equal, a, ab, false}, {Equal, nil, nil, true},
		{Subset, a, ab, true}, {Subset, ab, a, false}, {Subset, nil, a, true},
		{Superset, ab, a, true}, {Superset, a, ab, false}, {Superset, a, nil, true},
		{0, a, a, false},
	} {
		if got := tc.e.Holds(tc.orig, tc.trans); got != tc.want {
			t.Errorf("%s.Holds(%v, %v) = %v", tc.e, tc.orig, tc.trans, got)
		}
	}
}

// A program where q is negated downstream: EXP and CON may not touch q's rule.
const guarded = `.decl e(x: number, y: number)
.decl q(x: number)
.decl r(x: number)
.decl out(x: number, y: number)
.output out
e(1, 2).
e(2, 3).
q(X) :- e(X, Y), e(Y, Z).
r(X) :- e(X, Y), !q(Y), e(Y, X).
out(X, Y) :- r(X), e(X, Y), e(Y, Z).
`

func TestTransform(t *testing.T) {
	seed := testenv.Seed(t)
	p := mustParse(t, guarded)
	text := p.String()
	o := DefaultOptions()
	count := map[Expect]int{}
	r := rand.New(rand.NewPCG(seed, 0))
	for range 2000 {
		q, e, steps, err := Transform(p, o, r)
		if err != nil {
			t.Fatal(err)
		}
		if p.String() != text {
			t.Fatal("Transform changed its argument")
		}
		if err := programValid(q); err != nil {
			t.Fatalf("%v after %v:\n%s", err, steps, q)
		}
		count[e]++
		changed := map[string]bool{}
		for i, rule := range q.Rules {
			if i >= len(p.Rules) || rule.String() != p.Rules[i].String() {
				changed[rule.Head.Rel] = true
			}
		}
		neg := slices.Equal(steps, []string{StepNeg})
		if neg != (len(q.Rules) == len(p.Rules)+1) || !neg && len(changed) > 1 || len(steps) == 0 && len(changed) > 0 {
			t.Fatalf("steps %v changed %v:\n%s", steps, changed, q)
		}
		if e != Equal && changed["q"] {
			t.Fatalf("%s transformed q, which is negated downstream: %v\n%s", e, steps, q)
		}
		if len(steps) > o.Steps.Max {
			t.Fatalf("%d steps", len(steps))
		}
		checkSteps(t, e, steps)
	}
	t.Logf("expectations: %v", count)
	for _, e := range []Expect{Equal, Subset, Superset} {
		if count[e] < 500 {
			t.Errorf("%s drawn %d times in 2000", e, count[e])
		}
	}

	for _, tc := range []struct{ name, src, want string }{
		{"facts only", ".decl e(x: number)\ne(1).\n", "no rule with a body atom"},
		{"unstratified", ".decl e(x: number)\n.decl q(x: number)\nq(X) :- e(X), !q(X).\n", "not stratifiable"},
	} {
		_, _, _, err := Transform(mustParse(t, tc.src), o, r)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Transform error %v, want %q", tc.name, err, tc.want)
		}
	}
	bad := o
	bad.Steps = Range{Min: 0, Max: 1}
	if _, _, _, err := Transform(p, bad, r); err == nil {
		t.Error("Transform accepted steps=0..1")
	}
}

// queryFuzz's alphabets (spec §2.4): the micro-steps that keep each relation.
var wantAlphabets = map[Expect][]string{
	Equal:    {StepAddEqu, StepModEqu, StepRemEqu},
	Subset:   {StepAddEqu, StepModEqu, StepRemEqu, StepModExp, StepRemExp},
	Superset: {StepAddEqu, StepModEqu, StepRemEqu, StepAddCon, StepModCon},
}

// checkSteps checks that steps is NEG alone, for EQU, or a sequence over e's alphabet.
func checkSteps(t *testing.T, e Expect, steps []string) {
	t.Helper()
	if slices.Equal(steps, []string{StepNeg}) && e == Equal {
		return
	}
	for _, s := range steps {
		if !slices.Contains(wantAlphabets[e], s) {
			t.Fatalf("step %s in the %s sequence %v", s, e, steps)
		}
	}
}

// TestTransformGenerated checks that transformations of generated programs are safe and
// stratified, and that every step occurs.
func TestTransformGenerated(t *testing.T) {
	seed := testenv.Seed(t)
	o := DefaultOptions()
	r := rand.New(rand.NewPCG(seed, 1))
	seen := map[string]int{}
	for i := range uint64(1000) {
		p, err := Generate(o, seed+i)
		if err != nil {
			t.Fatal(err)
		}
		q, e, steps, err := Transform(p, o, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := programValid(q); err != nil {
			t.Fatalf("%v after %v:\n%s", err, steps, q)
		}
		checkSteps(t, e, steps)
		for _, s := range steps {
			seen[s]++
		}
		for _, rule := range q.Rules {
			if n := len(positiveAtoms(rule)); n > o.MaxBody {
				t.Fatalf("%d positive atoms after %v: %s", n, steps, rule)
			}
		}
	}
	t.Logf("steps applied: %v", seen)
	for _, s := range []string{StepAddEqu, StepAddCon, StepModExp, StepModEqu, StepModCon, StepRemExp, StepRemEqu, StepNeg} {
		if seen[s] == 0 {
			t.Errorf("step %s never applied", s)
		}
	}
}

func BenchmarkTransform(b *testing.B) {
	o := DefaultOptions()
	progs := make([]*Program, 100)
	for i := range progs {
		progs[i], _ = Generate(o, uint64(i))
	}
	r := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := range b.N {
		if _, _, _, err := Transform(progs[i%len(progs)], o, r); err != nil {
			b.Fatal(err)
		}
	}
}

// eval returns the output of p on the reference engine.
func eval(t *testing.T, p *Program) [][]string {
	t.Helper()
	m, err := Eval(p)
	if err != nil {
		t.Fatalf("Eval: %v\n%s", err, p)
	}
	return m.Output()
}

// apply returns p with rule i replaced by the outcome want of m, found by trying seeds, or fails t.
func apply(t *testing.T, p *Program, i int, m Micro, want string, fresh ...string) *Program {
	t.Helper()
	for s := range uint64(300) {
		if r, ok := m(p, p.Rules[i], rand.New(rand.NewPCG(s, 1)), names(fresh...)); ok && r.String() == want {
			q := cloneProgram(p)
			q.Rules[i] = r
			return q
		}
	}
	t.Fatalf("no seed transforms %s into %s", p.Rules[i], want)
	return nil
}

// rows parses "rel(1, 2) rel(3, 4)" into canonical rows.
func rows(t *testing.T, decls, facts string) [][]string {
	t.Helper()
	var out [][]string
	for _, r := range mustParse(t, decls+facts).Rules {
		row := []string{r.Head.Rel}
		for _, a := range r.Head.Args {
			row = append(row, Canonical(a))
		}
		out = append(out, row)
	}
	return SortRows(out)
}

const tcDecls = ".decl edge(x: number, y: number)\n.decl reachable(x: number, y: number)\n.output reachable\n"

// TestPaperExamples runs the transformations of the queryFuzz paper's figures (spec §5) on the
// reference engine: each result stands in its expected relation to the original's.
func TestPaperExamples(t *testing.T) {
	// Fig. 3.1: transitive closure, its EQU variant (line 13) and its CON variant (line 14).
	tc := mustParse(t, tcDecls+`edge(1, 2). edge(2, 3). edge(4, 2). edge(2, 5).
reachable(X, Y) :- edge(X, Y).
reachable(X, Z) :- edge(X, Y), reachable(Y, Z).
`)
	want := rows(t, tcDecls, "reachable(1, 2). reachable(1, 3). reachable(1, 5). reachable(2, 3). reachable(2, 5). reachable(4, 2). reachable(4, 5). reachable(4, 3).")
	if got := eval(t, tc); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("Fig. 3.1 = %v, want %v", got, want)
	}
	equ := apply(t, tc, 4, AddEqu, "reachable(X, Y) :- edge(X, Y), edge(W, Y).", "W")
	if got := eval(t, equ); !Equal.Holds(want, got) {
		t.Errorf("Fig. 3.1 EQU = %v, want %v", got, want)
	}
	con := apply(t, tc, 5, ModCon, "reachable(X, Z) :- edge(X, X), reachable(X, Z).")
	wantCon := rows(t, tcDecls, "reachable(1, 2). reachable(2, 3). reachable(4, 2). reachable(2, 5).")
	if got := eval(t, con); !slices.EqualFunc(got, wantCon, slices.Equal) || !Superset.Holds(want, got) {
		t.Errorf("Fig. 3.1 CON = %v, want %v", got, wantCon)
	}

	// Fig. 3.4 (z3 issue #4870): two ADD_EQU steps on out's rule keep the answer {25}.
	const muzDecls = ".decl in1(a: number)\n.decl in2(a: number, b: number)\n.decl r(a: number, b: number)\n.decl out(a: number)\n.output out\n"
	muz := mustParse(t, muzDecls+`in1(49). in1(10). in2(25, 10). in2(16, 13). in2(24, 22).
r(V, M) :- in2(V, M), in1(M).
out(F) :- r(F, C).
`)
	want = rows(t, muzDecls, "out(25).")
	trans := apply(t, muz, 6, AddEqu, "out(F) :- r(F, C), r(F, A).", "A")
	trans = apply(t, trans, 6, AddEqu, "out(F) :- r(F, C), r(F, A), r(F, B).", "B")
	for _, p := range []*Program{muz, trans} {
		if got := eval(t, p); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("Fig. 3.4 = %v, want {25}:\n%s", got, p)
		}
	}

	// §5.5: NEG splits p's stratum and keeps its answer.
	neg := mustParse(t, negDecls+`.output p
a(1, 2). a(2, 3). a(3, 4). b(2, 5). b(3, 6). b(4, 5). c(5).
p(X, Y) :- a(X, Y), b(Y, Z), c(Z).
`)
	want = eval(t, neg)
	if len(want) != 2 {
		t.Fatalf("§5.5 = %v, want two rows", want)
	}
	for s := range uint64(20) {
		q, ok := Neg(neg, len(neg.Rules)-1, rand.New(rand.NewPCG(s, 3)), "neg")
		if !ok {
			t.Fatal("Neg failed")
		}
		if got := eval(t, q); !Equal.Holds(want, got) {
			t.Errorf("NEG = %v, want %v:\n%s", got, want, q)
		}
	}

	// §5.6 (Fig. 3.6): REM_EQU drops a(Z, W), which maps onto a(Y, W); Q2 is contained in Q1.
	const cDecls = ".decl a(x: number, y: number)\n.decl p(x: number)\n.output p\n"
	const facts = "a(1, 2). a(2, 1). a(2, 3). a(3, 3). a(4, 3). a(5, 6).\n"
	q1 := mustParse(t, cDecls+facts+"p(X) :- a(X, Y), a(Y, W), a(Z, W).\n")
	q2 := mustParse(t, cDecls+facts+"p(X) :- a(X, Y), a(Y, X).\n")
	rem := apply(t, q1, 6, RemEqu, "p(X) :- a(X, Y), a(Y, W).")
	o1, o2 := eval(t, q1), eval(t, q2)
	if got := eval(t, rem); !Equal.Holds(o1, got) || !Superset.Holds(o1, o2) || Equal.Holds(o1, o2) {
		t.Errorf("Fig. 3.6: Q1 = %v, REM_EQU = %v, Q2 = %v", o1, got, o2)
	}
}

// TestTransformKeepsRelation is the acceptance property: on the reference engine, transformed
// random programs never break their expected relation.
func TestTransformKeepsRelation(t *testing.T) {
	seed := testenv.Seed(t)
	n := 10000
	if testing.Short() {
		n = 1000
	}
	g, err := NewGenerator(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	expects, steps := map[string]int{}, map[string]int{}
	nonEmpty, differ, broken := 0, 0, 0
	for i := range uint64(n) {
		c, err := g.Generate(seed + i)
		if err != nil {
			t.Fatal(err)
		}
		orig := eval(t, mustParse(t, c.Queries[0].Text))
		trans := eval(t, mustParse(t, c.Queries[1].Text))
		e, err := ParseExpect(c.Params[ParamExpect])
		if err != nil {
			t.Fatal(err)
		}
		expects[e.String()]++
		for _, s := range strings.Split(c.Params[ParamSteps], ",") {
			steps[s]++
		}
		if len(trans) > 0 {
			nonEmpty++
		}
		if !Equal.Holds(orig, trans) {
			differ++
		}
		if !e.Holds(orig, trans) {
			broken++
			if broken <= 3 {
				t.Errorf("seed %d: %s broken by %s\n%s-> %v\n%s-> %v", c.Seed, e, c.Params[ParamSteps],
					c.Queries[0].Text, orig, c.Queries[1].Text, trans)
			}
		}
	}
	t.Logf("%d programs: %d transformed outputs non-empty (%.1f%%), %d differ from the original's; expectations %v; steps %v",
		n, nonEmpty, 100*float64(nonEmpty)/float64(n), differ, expects, steps)
	if broken > 0 {
		t.Errorf("%d of %d transformations broke their relation", broken, n)
	}
}
