package datalog

import (
	"context"
	"strings"
	"testing"
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
