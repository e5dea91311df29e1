package datalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// checkProof checks that pr is a valid proof tree in m of p: every node an instance of its
// rule (head matches, positive body tuples are the children and in the model, negated tuples
// absent, constraints hold), leaves rules without positive atoms. It returns the tree's height.
func checkProof(p *Program, m *Model, pr *Proof) (int, error) {
	return checkProofMemo(p, m, pr, map[*Proof]int{})
}

// checkProofMemo is checkProof that checks each shared subtree once.
func checkProofMemo(p *Program, m *Model, pr *Proof, memo map[*Proof]int) (int, error) {
	if h, ok := memo[pr]; ok {
		return h, nil
	}
	if pr.Rule < 0 || pr.Rule >= len(p.Rules) {
		return 0, fmt.Errorf("%s: rule %d out of range", pr.Tuple, pr.Rule)
	}
	r := p.Rules[pr.Rule]
	fail := func(format string, args ...any) (int, error) {
		return 0, fmt.Errorf("%s by rule %d (%s): %s", pr.Tuple, pr.Rule, r, fmt.Sprintf(format, args...))
	}
	if !m.Contains(pr.Tuple) {
		return fail("not in the model")
	}
	if r.Head.Rel != pr.Tuple.Rel {
		return fail("head relation differs")
	}
	sub, ok := naiveUnify(r.Head, pr.Tuple, map[string]Term{})
	if !ok {
		return fail("head does not match")
	}
	var neg []Atom
	i, height := 0, 0
	for _, a := range r.Body {
		if a.Negated {
			neg = append(neg, a)
			continue
		}
		if i >= len(pr.Body) {
			return fail("%d children for more positive atoms", len(pr.Body))
		}
		c := pr.Body[i]
		i++
		if sub, ok = naiveUnify(a, c.Tuple, sub); !ok || a.Rel != c.Tuple.Rel {
			return fail("child %s does not match %s", c.Tuple, a)
		}
		h, err := checkProofMemo(p, m, c, memo)
		if err != nil {
			return 0, err
		}
		height = max(height, h+1)
	}
	if i != len(pr.Body) {
		return fail("%d children for %d positive atoms", len(pr.Body), i)
	}
	if len(neg) != len(pr.Negated) {
		return fail("%d negated tuples for %d negated atoms", len(pr.Negated), len(neg))
	}
	for j, a := range neg {
		want := naiveInstantiate(a, sub)
		for k, arg := range a.Args {
			if arg.Kind == Anon {
				want.Args[k] = Any()
			}
		}
		if got := pr.Negated[j]; got.Rel != want.Rel || !slices.EqualFunc(got.Args, want.Args, termsEqual) {
			return fail("negated tuple %s, want %s", pr.Negated[j], want)
		}
		for _, t := range m.Tuples(a.Rel) {
			if _, ok := naiveUnify(a, t, sub); ok {
				return fail("negated atom %s matches %s, which is in the model", a, t)
			}
		}
	}
	for _, c := range r.Constraints {
		if !naiveHolds(c, sub) {
			return fail("constraint %s does not hold", c)
		}
	}
	if r.IsFact() && height != 0 {
		return fail("a fact with children")
	}
	if len(pr.Body) == 0 && !r.IsFact() {
		height = 1
	}
	memo[pr] = height
	return height, nil
}

// checkExplain checks Explain and ExplainAll for every tuple of m. With minimal set, the
// model's heights must be minimal, so that every tree is as high as its root's height.
func checkExplain(t *testing.T, p *Program, m *Model, minimal bool) {
	t.Helper()
	nm := naiveModel{}
	for _, rel := range p.Relations {
		nm[rel.Name] = map[string]Tuple{}
		for _, tu := range m.Tuples(rel.Name) {
			nm[rel.Name][tupleKey(tu)] = tu
		}
	}
	derivations := countDerivations(p, nm)
	for _, rel := range p.Relations {
		for _, tu := range m.Tuples(rel.Name) {
			pr, err := m.Explain(tu)
			if err != nil {
				t.Fatalf("Explain(%s): %v\n%s", tu, err, p)
			}
			h, err := checkProof(p, m, pr)
			if err != nil {
				t.Fatalf("Explain(%s): %v\n%s", tu, err, p)
			}
			if tupleKey(pr.Tuple) != tupleKey(tu) {
				t.Fatalf("Explain(%s) explains %s", tu, pr.Tuple)
			}
			if minimal && h != m.heightOf(tu) {
				t.Fatalf("Explain(%s) has height %d, the tuple %d\n%s", tu, h, m.heightOf(tu), p)
			}
			rules := pr.Rules()
			if !slices.IsSorted(rules) || len(slices.Compact(slices.Clone(rules))) != len(rules) || !slices.Contains(rules, pr.Rule) {
				t.Fatalf("Rules() = %v", rules)
			}
			const limit = 8 // bounds the work where a tuple has many derivations
			all := m.ExplainAll(tu, limit)
			roots := map[string]bool{}
			for _, q := range all {
				if _, err := checkProof(p, m, q); err != nil {
					t.Fatalf("ExplainAll(%s): %v\n%s", tu, err, p)
				}
				root := fmt.Sprint(q.Rule)
				for _, c := range q.Body {
					root += " " + tupleKey(c.Tuple)
				}
				if roots[root] {
					t.Fatalf("ExplainAll(%s) repeats the root %s", tu, root)
				}
				roots[root] = true
			}
			if want := min(derivations[tupleKey(tu)], limit); len(all) != want {
				t.Fatalf("ExplainAll(%s, %d) gives %d trees, want %d\n%s", tu, limit, len(all), want, p)
			}
			if n := derivations[tupleKey(tu)]; n > 1 && n <= limit {
				if got := m.ExplainAll(tu, 0); len(got) != n {
					t.Fatalf("ExplainAll(%s, 0) gives %d trees, want %d", tu, len(got), n)
				}
			}
		}
	}
}

// countDerivations counts for every tuple its facts and the instances of rules with it as
// head in nm.
func countDerivations(p *Program, nm naiveModel) map[string]int {
	n := map[string]int{}
	for _, r := range p.Rules {
		naiveInstances(nm, r, func(sub map[string]Term, _ []Tuple) {
			n[tupleKey(naiveInstantiate(r.Head, sub))]++
		})
	}
	return n
}

func TestExplainRandom(t *testing.T) {
	g := newProgGen(testenv.Seed(t) + 2)
	checked := 0
	for checked < 1000 {
		p := g.program()
		m, err := Eval(p)
		if err != nil {
			continue
		}
		checkExplain(t, p, m, true)
		checked++
	}
}

// paperPointsTo is the points-to example of the provenance paper (Fig. 2).
const paperPointsTo = `.decl new(v: symbol, o: symbol)
.decl assign(v: symbol, v2: symbol)
.decl load(v: symbol, inter: symbol, f: symbol)
.decl store(inter: symbol, f: symbol, v2: symbol)
.decl vpt(v: symbol, o: symbol)
.decl alias(v1: symbol, v2: symbol)
.output alias
new("admin", "L1"). new("sec", "L2"). new("ins", "L3").
store("admin", "session", "ins"). store("admin", "session", "sec").
assign("userSession", "ins").
vpt(Var, Obj) :- new(Var, Obj).
vpt(Var, Obj) :- assign(Var, Var2), vpt(Var2, Obj).
vpt(Var, Obj) :- load(Var, Inter, F), store(Inter2, F, Var2), vpt(Inter, InterObj), vpt(Inter2, InterObj), vpt(Var2, Obj).
alias(V1, V2) :- vpt(V1, Obj), vpt(V2, Obj), V1 != V2.
`

func symTuple(rel string, args ...string) Tuple {
	t := Tuple{Rel: rel}
	for _, a := range args {
		t.Args = append(t.Args, S(a))
	}
	return t
}

// treeString prints a proof tree one node per line, indented by depth.
func treeString(p *Proof) string {
	var b strings.Builder
	var walk func(*Proof, int)
	walk = func(p *Proof, depth int) {
		fmt.Fprintf(&b, "%s%s r%d\n", strings.Repeat("  ", depth), p.Tuple, p.Rule)
		for _, c := range p.Body {
			walk(c, depth+1)
		}
	}
	walk(p, 0)
	return b.String()
}

func TestExplainPaperExample(t *testing.T) {
	p, err := Parse("pt.dl", paperPointsTo)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	us := symTuple("vpt", "userSession", "L3")
	if h := m.heightOf(us); h != 2 {
		t.Errorf("height of %s = %d, want 2", us, h)
	}
	pr, err := m.Explain(us)
	if err != nil {
		t.Fatal(err)
	}
	// Rules 0-5 are the facts, 6-9 the rules r1-r4.
	want := `vpt("userSession", "L3") r7
  assign("userSession", "ins") r5
  vpt("ins", "L3") r6
    new("ins", "L3") r2
`
	if got := treeString(pr); got != want {
		t.Errorf("Explain =\n%swant\n%s", got, want)
	}
	if got := pr.Rules(); !slices.Equal(got, []int{2, 5, 6, 7}) {
		t.Errorf("Rules = %v, want [2 5 6 7]", got)
	}
	if _, err := m.Explain(symTuple("alias", "userSession", "sec")); err == nil {
		t.Error("Explain of an absent tuple succeeded")
	}
	if got := m.ExplainAll(symTuple("alias", "userSession", "sec"), 0); got != nil {
		t.Errorf("ExplainAll of an absent tuple = %v", got)
	}
	checkExplain(t, p, m, true)

	// The paper's update: the load makes alias(userSession, sec) appear, through r3.
	d, err := m.Update([]Tuple{symTuple("assign", "upgradedSession", "userSession"),
		symTuple("load", "userSession", "admin", "session")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(d.Inserted, func(t Tuple) bool { return t.String() == `alias("userSession", "sec")` }) {
		t.Errorf("Delta.Inserted = %v lacks alias(userSession, sec)", d.Inserted)
	}
	q := m.Program()
	pr, err = m.Explain(symTuple("alias", "userSession", "sec"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checkProof(q, m, pr); err != nil {
		t.Fatal(err)
	}
	var leaves []string
	for _, i := range pr.Rules() {
		if q.Rules[i].IsFact() {
			leaves = append(leaves, q.Rules[i].String())
		}
	}
	if !slices.Contains(leaves, `load("userSession", "admin", "session").`) ||
		slices.Contains(leaves, `assign("upgradedSession", "userSession").`) {
		t.Errorf("facts of the proof of alias(userSession, sec) = %v; want the load, not the assign", leaves)
	}
	checkExplain(t, q, m, false)
}

func TestExplainTransitiveClosure(t *testing.T) {
	small := TransitiveClosure(12, 24, 3)
	m, err := Eval(small)
	if err != nil {
		t.Fatal(err)
	}
	checkExplain(t, small, m, true)
	m, err = Eval(TransitiveClosure(100, 150, 3))
	if err != nil {
		t.Fatal(err)
	}
	// The height of path(x, y) is the length of a shortest path, and its proof tree a chain.
	for _, tu := range m.Tuples("path") {
		pr, err := m.Explain(tu)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for c := pr; len(c.Body) > 0; c = c.Body[0] {
			n++
		}
		if h := m.heightOf(tu); n != h {
			t.Fatalf("proof of %s has %d path nodes, height %d", tu, n, h)
		}
	}
}
