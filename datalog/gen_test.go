package datalog

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/genopts/genoptstest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

func TestOptionsRoundTrip(t *testing.T) {
	mod := DefaultOptions()
	mod.FactTables, mod.Numbers, mod.Types = Range{Min: 2, Max: 2}, Range{Min: -3, Max: 0}, []Type{Symbol}
	mod.MaxNegated, mod.Neg, mod.Recursive, mod.SymbolOrder, mod.Steps = 0, 0, 100, 100, Range{Min: 4, Max: 9}
	mod.MaxBody = 1
	for _, o := range []Options{DefaultOptions(), mod} {
		s := o.String()
		got, err := ParseOptions(s)
		if err != nil {
			t.Fatalf("ParseOptions(%q): %v", s, err)
		}
		if !reflect.DeepEqual(got, o) || got.String() != s {
			t.Errorf("ParseOptions(%q) = %+v, want %+v", s, got, o)
		}
	}
	want := "queryfuzz{tables=1..3 rows=1..10 fact-arity=1..3 head-arity=1..3 simple=1..2 complex=0..2 " +
		"subgoals=1..3 numbers=-10..10 steps=1..20 negated=3 predicates=3 neg=50 recursive=30 " +
		"symbol-order=5 max-body=6 nonempty=80 types=number,symbol}"
	if got := DefaultOptions().String(); got != want {
		t.Errorf("DefaultOptions().String() = %q, want %q", got, want)
	}
	o, err := ParseOptions("queryfuzz{rows=2..4 types=symbol,number}")
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultOptions()
	def.Rows, def.Types = Range{Min: 2, Max: 4}, []Type{Symbol, Number}
	if !reflect.DeepEqual(o, def) {
		t.Errorf("partial options = %+v, want defaults with rows=2..4 types=symbol,number", o)
	}
}

func TestParseOptionsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"tables=1..3", "want queryfuzz{key=value ...}"},
		{"queryfuzz{tables=1..3", "want queryfuzz{key=value ...}"},
		{"queryfuzz{tables}", `"tables" is not key=value`},
		{"queryfuzz{tables=1..2 tables=1..2}", `key "tables" repeated`},
		{"queryfuzz{colour=red}", `unknown key "colour"`},
		{"queryfuzz{rows=3}", "want MIN..MAX"},
		{"queryfuzz{rows=a..3}", "want MIN..MAX"},
		{"queryfuzz{rows=5..1}", "MIN <= MAX"},
		{"queryfuzz{tables=0..2}", "tables=0..2 out of range; keep it within 1..16"},
		{"queryfuzz{complex=0..99}", "out of range"},
		{"queryfuzz{neg=x}", "want an integer"},
		{"queryfuzz{symbol-order=101}", "symbol-order=101 out of range"},
		{"queryfuzz{negated=-1}", "negated=-1 out of range"},
		{"queryfuzz{max-body=0}", "max-body=0 out of range; keep it within 1..64"},
		{"queryfuzz{types=number,float}", `unknown type "float"`},
		{"queryfuzz{types=number,number}", "listed twice"},
	} {
		_, err := ParseOptions(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOptions(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
	if err := (Options{}).Validate(); err == nil {
		t.Error("zero Options validate")
	}
	if _, err := Generate(Options{}, 1); err == nil {
		t.Error("Generate with zero Options succeeded")
	}
}

var (
	relPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	varPattern = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*$`)
)

// checkProgram checks the properties every generated program has.
func checkProgram(t *testing.T, p *Program, o Options) {
	t.Helper()
	q, err := Parse(p.File, p.String())
	if err != nil {
		t.Fatalf("generated program does not parse: %v\n%s", err, p)
	}
	if !q.Equal(p) {
		t.Fatalf("generated program does not print and parse back to itself:\n%s", p)
	}
	if _, err := p.Strata(); err != nil {
		t.Fatalf("generated program is not stratified: %v\n%s", err, p)
	}
	outputs, inputs := 0, 0
	for i, r := range p.Relations {
		if !relPattern.MatchString(r.Name) || slices.ContainsFunc(p.Relations[:i], func(s Relation) bool { return s.Name == r.Name }) {
			t.Fatalf("bad or repeated relation name %q\n%s", r.Name, p)
		}
		if r.Output {
			outputs++
		}
		if r.Input {
			inputs++
			if len(r.Attrs) < o.FactArity.Min || len(r.Attrs) > o.FactArity.Max {
				t.Fatalf("fact arity %d outside %s\n%s", len(r.Attrs), o.FactArity, p)
			}
		}
		for _, a := range r.Attrs {
			if !slices.Contains(o.Types, a.Type) {
				t.Fatalf("type %s not in the options\n%s", a.Type, p)
			}
		}
	}
	if outputs != 1 || inputs < o.FactTables.Min || inputs > o.FactTables.Max {
		t.Fatalf("%d outputs, %d inputs\n%s", outputs, inputs, p)
	}
	last := p.Rules[len(p.Rules)-1]
	if !p.Relation(last.Head.Rel).Output || len(last.Constraints) > 0 {
		t.Fatalf("the output is not the head of the last, simple rule\n%s", p)
	}
	facts := true
	for _, r := range p.Rules {
		if !r.IsFact() {
			facts = false
			n := 0
			for _, a := range r.Body {
				if !a.Negated {
					n++
				}
			}
			if n < o.Subgoals.Min || n > max(o.Subgoals.Max, 2) || len(r.Body)-n > o.MaxNegated ||
				len(r.Constraints) > o.MaxPredicates {
				t.Fatalf("rule %s exceeds the options", r)
			}
			checkJoins(t, p, r)
		} else if !facts {
			t.Fatalf("fact %s after a rule", r)
		}
		for _, v := range ruleVarNames(r) {
			if !varPattern.MatchString(v) {
				t.Fatalf("variable %q does not start with an uppercase letter", v)
			}
		}
		for _, c := range r.Constraints {
			for _, u := range []Term{c.Left, c.Right} {
				if u.Kind == Num && (u.Num < int64(o.Numbers.Min) || u.Num > int64(o.Numbers.Max)) {
					t.Fatalf("constant %d outside %s", u.Num, o.Numbers)
				}
			}
		}
	}
}

// checkJoins checks that the positive atoms of r join as in queryFuzz's validate_rule: a type
// with s < 3 argument spots has one variable, otherwise between 2 and s-1 of them.
func checkJoins(t *testing.T, p *Program, r Rule) {
	t.Helper()
	spots := map[Type]int{}
	vars := map[Type]map[string]bool{Number: {}, Symbol: {}}
	for _, a := range r.Body {
		if a.Negated {
			continue
		}
		for i, at := range p.Relation(a.Rel).Attrs {
			spots[at.Type]++
			vars[at.Type][a.Args[i].Name] = true
		}
	}
	for typ, s := range spots {
		if n := len(vars[typ]); s < 3 && n != 1 || s >= 3 && (n < 1 || n > s-1) {
			t.Fatalf("%d %s variables for %d spots in %s", n, typ, s, r)
		}
	}
}

// features counts what a program exercises.
type features struct {
	negation, constraints, selfRecursion, mutualRecursion, symbolOrder, symbolCompare int
}

func (f *features) add(p *Program) {
	strata, _ := p.Strata()
	for _, s := range strata {
		if len(s) > 1 {
			f.mutualRecursion++
			break
		}
	}
	neg, cons, self, order, sym := false, false, false, false, false
	for _, r := range p.Rules {
		for _, a := range r.Body {
			neg = neg || a.Negated
			self = self || a.Rel == r.Head.Rel
		}
		types := varTypes(p, r)
		for _, c := range r.Constraints {
			cons = true
			if types[c.Left.Name] == Symbol {
				sym = true
				order = order || slices.Contains([]Op{Lt, Le, Gt, Ge}, c.Op)
			}
		}
	}
	for _, c := range []struct {
		b bool
		n *int
	}{{neg, &f.negation}, {cons, &f.constraints}, {self, &f.selfRecursion}, {order, &f.symbolOrder}, {sym, &f.symbolCompare}} {
		if c.b {
			*c.n++
		}
	}
}

func TestGenerate(t *testing.T) {
	seed := testenv.Seed(t)
	n := 2000
	if testing.Short() {
		n = 1000
	}
	numbers := DefaultOptions()
	numbers.Types, numbers.SymbolOrder, numbers.ComplexRules = []Type{Number}, 100, Range{Min: 2, Max: 4}
	ordered := DefaultOptions()
	ordered.SymbolOrder, ordered.Recursive, ordered.ComplexRules = 100, 0, Range{Min: 2, Max: 2}
	for _, tc := range []struct {
		name string
		o    Options
		// want reports whether the counted features are right for n programs.
		want func(f features) bool
	}{
		{"default", DefaultOptions(), func(f features) bool {
			return f.negation > n/4 && f.constraints > n/4 && f.selfRecursion > n/20 && f.mutualRecursion > n/200 &&
				f.symbolOrder > 0 && f.symbolOrder < f.symbolCompare/5
		}},
		{"numbers", numbers, func(f features) bool { return f.symbolCompare == 0 && f.mutualRecursion > n/20 }},
		{"ordered", ordered, func(f features) bool {
			return f.selfRecursion == 0 && f.mutualRecursion == 0 && f.symbolOrder == f.symbolCompare && f.symbolOrder > n/10
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f features
			for i := range uint64(n) {
				p, err := Generate(tc.o, seed+i)
				if err != nil {
					t.Fatal(err)
				}
				checkProgram(t, p, tc.o)
				f.add(p)
			}
			t.Logf("%d programs: %+v", n, f)
			if !tc.want(f) {
				t.Errorf("features of %d programs: %+v", n, f)
			}
		})
	}
}

func TestGenerateDeterministic(t *testing.T) {
	seed := testenv.Seed(t)
	distinct := map[string]bool{}
	for i := range uint64(50) {
		a, err := Generate(DefaultOptions(), seed+i)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Generate(DefaultOptions(), seed+i)
		if !a.Equal(b) || a.String() != b.String() {
			t.Fatalf("seed %d gives two programs:\n%s\n%s", seed+i, a, b)
		}
		distinct[a.String()] = true
	}
	if len(distinct) < 50 {
		t.Errorf("50 seeds give only %d distinct programs", len(distinct))
	}
}

func BenchmarkGenerate(b *testing.B) {
	o := DefaultOptions()
	for i := range b.N {
		if _, err := Generate(o, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStoredOptions checks that the generator options of the recorded Datalog findings read back
// to the same text and regenerate the stored case from its seed.
func TestStoredOptions(t *testing.T) {
	genoptstest.Recorded(t, "../testdata/datalog-findings", "queryfuzz", ParseOptions, func(t *testing.T, o Options, stored *fuzz.Case) {
		g, err := NewGenerator(o)
		if err != nil {
			t.Fatal(err)
		}
		genoptstest.Regenerates(t, g, stored)
	})
}
