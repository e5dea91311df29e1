package datalog

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestNegationDepth(t *testing.T) {
	p, err := Parse("p.dl", `.decl a(x: number)
.decl b(x: number)
.decl c(x: number)
.decl d(x: number)
.decl o(x: number)
.output o
a(1). a(2). b(2). d(5).
c(x) :- a(x), !b(x).
c(x) :- c(x).
o(x) :- a(x), !c(x).
`)
	if err != nil {
		t.Fatal(err)
	}
	got := p.NegationDepth()
	for rel, want := range map[string]int{"o": 0, "a": 1, "c": 1, "b": 2} {
		if got[rel] != want {
			t.Errorf("depth of %s = %d, want %d", rel, got[rel], want)
		}
	}
	if _, ok := got["d"]; ok {
		t.Errorf("d does not reach the output, got depth %d", got["d"])
	}
}

func TestPlanted(t *testing.T) {
	const prog = `.decl e(x: number)
.decl m(x: number)
.decl o(x: number)
.output o
e(1). e(2). e(3). m(3).
m(x) :- e(x), x != 3, x != 1.
m(x) :- e(x), x = 1.
o(x) :- e(x), !m(x).
`
	cases := []struct {
		fault string
		want  string // the faulty output
	}{
		{PlantMixed + ":1", "o(1) o(2)"}, // m keeps only its fact 3
		{PlantMixed + ":2", "o(x)"},      // m is at depth 1: no fault, the right answer
		{PlantRules + ":1", "o(1)"},      // m keeps 3 and its first rule's 2
		{PlantRules + ":0", "o(1)"},      // depth 1 >= 0
		{PlantRules + ":5", "o(x)"},      // not that deep: the right answer
	}
	right := "o(x)"
	for _, c := range cases {
		kind, arg, _ := strings.Cut(c.fault, ":")
		tg, err := NewPlanted(NewReference(0), kind, arg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tg.Exec(context.Background(), prog)
		if err != nil || res.Failed() {
			t.Fatalf("%s: %v %+v", c.fault, err, res)
		}
		var got []string
		for _, r := range res.Rows {
			got = append(got, r[0]+"("+strings.TrimPrefix(r[1], "i:")+")")
		}
		want := c.want
		if want == right {
			want = "" // the right answer: o holds nothing, since m = {1, 2, 3}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: output %q, want %q", c.fault, strings.Join(got, " "), want)
		}
	}
	for _, bad := range []string{"x", "-1", ""} {
		if _, err := NewPlanted(nil, PlantMixed, bad); err == nil {
			t.Errorf("depth %q accepted", bad)
		}
	}
	if _, err := NewPlanted(nil, "nope", "1"); err == nil {
		t.Error("unknown kind accepted")
	}
}

// answer runs prog on tg and returns its output as "o(1) o(2, a)", with the canaries.
func answer(t *testing.T, tg fuzz.Target, prog string) (string, []string) {
	t.Helper()
	res, err := tg.Exec(context.Background(), prog)
	if err != nil || res.Failed() {
		t.Fatalf("%v %+v", err, res)
	}
	var got []string
	for _, r := range res.Rows {
		var vals []string
		for _, v := range r[1:] {
			vals = append(vals, v[2:])
		}
		got = append(got, r[0]+"("+strings.Join(vals, ", ")+")")
	}
	return strings.Join(got, " "), res.Canaries
}

// TestPlantedKinds checks each planted fault on a program with its feature: the faulty answer at
// depth 0 with the canary reached and triggered, the right answer with the canary only reached
// when the fault asks for a depth the program does not have, and no canary on a program
// without the feature.
func TestPlantedKinds(t *testing.T) {
	cases := []struct {
		kind          string
		prog          string
		right, faulty string
	}{
		{PlantMixed, `.decl e(x: number)
.decl m(x: number)
.decl o(x: number)
.output o
e(1). e(2). m(3).
m(x) :- e(x), x = 1.
o(x) :- e(x), m(x).
`, "o(1)", ""},
		{PlantRules, `.decl e(x: number)
.decl m(x: number)
.decl o(x: number)
.output o
e(1). e(2).
m(x) :- e(x), x = 1.
m(x) :- e(x), x = 2.
o(x) :- m(x).
`, "o(1) o(2)", "o(1)"},
		{PlantTripleAtom, `.decl e(x: number)
.decl f(x: number)
.decl o(x: number)
.output o
e(1). e(2). e(5). f(7).
o(x) :- e(x), e(x), e(x), x > 1.
`, "o(2) o(5)", "o(2) o(5) o(7)"},
		{PlantNonlinear, `.decl e(x: number, y: number)
.decl p(x: number, y: number)
.output p
e(1, 2). e(2, 3). e(3, 4).
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), p(y, z).
`, "p(1, 2) p(1, 3) p(1, 4) p(2, 3) p(2, 4) p(3, 4)", "p(1, 2) p(1, 3) p(2, 3) p(2, 4) p(3, 4)"},
		{PlantNegEarly, `.decl e(x: number)
.decl b(x: number)
.decl q(x: number)
.decl o(x: number)
.output o
e(1). e(2). b(2). q(7).
q(x) :- e(x), !b(x).
o(x) :- q(x).
`, "o(1) o(7)", "o(7)"},
		{PlantNegExists, `.decl a(x: number)
.decl b(y: number)
.decl r(x: number, y: number)
.decl o(x: number, y: number)
.output o
a(1). a(2). b(3). r(1, 3). r(2, 4).
o(x, y) :- a(x), b(y), !r(x, y).
`, "o(2, 3)", ""},
		{PlantEqAssign, `.decl e(x: number)
.decl o(x: number)
.output o
e(1). e(2).
o(x) :- e(x), x != 2, x = 5.
`, "", "o(5)"},
		{PlantUnsigned, `.decl e(x: number)
.decl f(x: number)
.decl o(x: number)
.output o
e(-5). e(-1). e(3). f(-5). f(3).
o(x) :- e(x), f(x), -2 > x.
`, "o(-5)", "o(-5) o(3)"},
		{PlantHeadRepeat, `.decl par(x: symbol, y: symbol)
.decl bad(x: symbol, y: symbol)
.output bad
par("bob", "alice"). par("c", "c").
bad(x, x) :- par(x, x).
`, "bad(c, c)", "bad(bob, alice) bad(c, c)"},
		{PlantFactDedup, `.decl m(x: number, y: number)
.decl o(x: number, y: number)
.output o
m(1, 2). m(1, 3).
m(x, y) :- m(y, x).
o(x, y) :- m(x, y).
`, "o(1, 2) o(1, 3) o(2, 1) o(3, 1)", "o(1, 2) o(2, 1)"},
		{PlantNegWildcard, `.decl a(x: number)
.decl r(x: number, y: number)
.decl o(x: number)
.output o
a(1). a(2). r(1, 1). r(1, 2). r(2, 1).
o(x) :- a(x), !r(x, _).
`, "", "o(2)"},
		{PlantIneqDrop, `.decl a(x: number)
.decl b(x: number)
.decl o(x: number, y: number)
.output o
a(1). a(2). b(1).
o(x, y) :- a(x), b(y), a(y), x != y.
`, "o(2, 1)", "o(1, 1) o(2, 1)"},
		{PlantConstFilter, `.decl e(x: number, y: number)
.decl m(x: number, y: number)
.decl o(x: number)
.output o
e(1, 3). e(2, 4).
m(x, y) :- e(x, y).
o(x) :- m(x, 3).
`, "o(1)", "o(1) o(2)"},
	}
	const plain = `.decl e(x: number)
.decl o(x: number)
.output o
e(1).
o(x) :- e(x).
`
	tested := map[string]bool{}
	for _, c := range cases {
		tested[c.kind] = true
		t.Run(c.kind, func(t *testing.T) {
			if got, _ := answer(t, NewReference(0), c.prog); got != c.right {
				t.Fatalf("the reference answers %q, the test expects %q", got, c.right)
			}
			for _, run := range []struct {
				arg      string
				want     string
				canaries []string
				prog     string
			}{
				{c.kind + ":0", c.faulty, []string{"bug", "bug!"}, c.prog},
				{c.kind, c.faulty, []string{"bug", "bug!"}, c.prog},
				{c.kind + ":9", c.right, []string{"bug"}, c.prog},
				{c.kind + ":0", "o(1)", nil, plain},
			} {
				// Every kind is planted through a registered one, as a domain does.
				tg, err := NewPlanted(NewReference(0), PlantRules, run.arg)
				if err != nil {
					t.Fatal(err)
				}
				tg.(*Planted).SetCanary("bug")
				got, canaries := answer(t, tg, run.prog)
				if got != run.want || !slices.Equal(canaries, run.canaries) {
					t.Errorf("%s: answer %q with canaries %q, want %q with %q", run.arg, got, canaries, run.want, run.canaries)
				}
			}
		})
	}
	for _, k := range PlantedKinds() {
		if !tested[k] {
			t.Errorf("planted fault %s has no case", k)
		}
	}
	for _, bad := range []string{PlantTripleAtom + ":x", PlantTripleAtom + ":-1", "nope:1"} {
		if _, err := NewPlanted(nil, PlantMixed, bad); err == nil || !strings.Contains(err.Error(), "give the negation depth") {
			t.Errorf("argument %q: error %v, want one naming the depth to give", bad, err)
		}
	}
}
