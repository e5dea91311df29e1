package datalog

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

const souffleSource = `.decl e(count: number, y: symbol)
.decl n(x: number)
.decl p(x: number, y: symbol)
.decl z()
.input e
.output p
.output z
e(1, "a b"). e(-2, "").
e(3, "cr` + "\r" + `").
n(7).
p(count, y) :- e(count, y), !n(count), count < 5.
p(match, "q") :- n(match).
z() :- e(_, "a b").
`

const souffleGolden = `-- prog.dl --
.decl e(count_0: number, y: symbol)
.decl n(x: number)
.decl p(x: number, y: symbol)
.decl z()
.input e
.output p
.output z
e(3, "cr` + "\r" + `").
n(7).
p(count_0, y) :- e(count_0, y), !n(count_0), count_0 < 5.
p(match_0, "q") :- n(match_0).
z() :- e(_, "a b").
-- e.facts --
1	a b
-2	
`

func TestSouffleTranslate(t *testing.T) {
	p, err := Parse("souffle.dl", souffleSource)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Souffle{}.Translate(p)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Text != souffleGolden {
		t.Errorf("translation:\n%s\nwant:\n%s", tr.Text, souffleGolden)
	}
	if p.Rules[4].Head.Args[0].Name != "count" {
		t.Errorf("Translate renamed the program's own variables: %v", p.Rules[4])
	}
	files, cmd, err := Souffle{}.Script(p, "p0")
	if err != nil || len(files) != 2 || !strings.HasPrefix(files["p0.dl"], ".decl e(count_0") || files["p0-facts/e.facts"] != "1\ta b\n-2\t\n" ||
		cmd != "mkdir -p p0-facts p0-out && souffle -w -F p0-facts -D p0-out p0.dl && tail -n +1 p0-out/*.csv" {
		t.Errorf("Script = %q, %q, %v", files, cmd, err)
	}
	for _, tc := range []struct {
		typ       Type
		raw, want string
	}{{Number, "-2", "i:-2"}, {Symbol, "a b", "t:a b"}, {Symbol, "", "t:"}, {Number, "x", ""}} {
		got, err := tr.Decode(tc.typ, tc.raw)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("Decode(%s, %q) = %q, %v; want %q", tc.typ, tc.raw, got, err, tc.want)
		}
	}
}

func TestSouffleUnsupported(t *testing.T) {
	tests := []struct{ src, feature string }{
		{".decl a(x: number)\na(2147483648).", "number-range"},
		{".decl a(x: number)\na(-2147483648).", "number-range"},
		{".decl a(x: number)\n.decl b(x: number)\nb(x) :- a(x), x < 9999999999.", "number-range"},
		{".decl a(x: symbol)\n.decl b(x: symbol)\nb(x) :- a(x), x < \"m\".", "symbol-order"},
		{".decl a(x: symbol, y: symbol)\n.decl b(x: symbol)\nb(x) :- a(x, y), x >= y.", "symbol-order"},
		{".decl a(x: symbol)\na(\"x\ty\").", "symbol-tab"},
		{".decl a(x: symbol)\na(\"x\x00y\").", "symbol-nul"},
		{".decl count(x: number)\ncount(1).", "relation-name"},
	}
	for _, tc := range tests {
		p, err := Parse("u.dl", tc.src)
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		_, err = Souffle{}.Translate(p)
		var u *Unsupported
		if !errors.As(err, &u) || u.Feature != tc.feature || u.Engine != "souffle" {
			t.Errorf("%q: %v, want Unsupported %s", tc.src, err, tc.feature)
		}
	}
	for _, src := range []string{
		".decl a(x: number)\na(2147483647). a(-2147483647).",
		".decl a(x: symbol)\n.decl b(x: symbol)\nb(x) :- a(x), x != \"m\", x = x.",
		".decl a(x: number, y: symbol)\n.decl b(x: number)\nb(x) :- a(x, y), x < 3, x >= x.",
	} {
		p, err := Parse("s.dl", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (Souffle{}).Translate(p); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestSouffleRoundTrip checks on generated programs that prog.dl parses as a canonical program
// and that, with the facts of the fact files, it has the original's rules.
func TestSouffleRoundTrip(t *testing.T) {
	seed := testenv.Seed(t)
	translated := 0
	for i := range uint64(200) {
		p, err := Generate(DefaultOptions(), seed+i)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Souffle{}.Translate(p)
		var u *Unsupported
		if errors.As(err, &u) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		translated++
		parts := strings.Split(tr.Text, "\n-- ")
		prog, err := Parse("prog.dl", strings.TrimPrefix(parts[0], "-- prog.dl --\n"))
		if err != nil {
			t.Fatalf("seed %d: prog.dl does not parse: %v\n%s", seed+i, err, tr.Text)
		}
		got := ruleStrings(prog)
		for _, f := range parts[1:] {
			head, body, _ := strings.Cut(f, " --\n")
			rel := prog.Relation(strings.TrimSuffix(head, ".facts"))
			for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
				if body == "" {
					break
				}
				a := Atom{Rel: rel.Name}
				for j, v := range strings.Split(line, "\t") {
					if rel.Attrs[j].Type == Symbol {
						a.Args = append(a.Args, S(v))
					} else {
						n, _ := strconv.ParseInt(v, 10, 64)
						a.Args = append(a.Args, N(n))
					}
				}
				got = append(got, Rule{Head: a}.String())
			}
		}
		slices.Sort(got)
		if want := ruleStrings(p); !slices.Equal(got, want) {
			t.Fatalf("seed %d: rules %q, want %q", seed+i, got, want)
		}
	}
	if translated < 150 {
		t.Errorf("only %d of 200 generated programs translated", translated)
	}
}

func ruleStrings(p *Program) []string {
	var s []string
	for _, r := range p.Rules {
		s = append(s, r.String())
	}
	slices.Sort(s)
	return s
}
