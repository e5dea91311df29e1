package datalog

import (
	"reflect"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

var _ fuzz.Generator = (*Generator)(nil)

func TestGeneratorCases(t *testing.T) {
	seed := testenv.Seed(t)
	o := DefaultOptions()
	o.Steps = Range{Min: 2, Max: 5}
	o.NonEmpty = 0 // every original is then Generate(o, seed); TestGeneratorNonEmpty checks the other
	g, err := NewGenerator(o)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{}
	for i := range uint64(200) {
		c, err := g.Generate(seed + i)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := g.Generate(seed + i)
		if !reflect.DeepEqual(c, again) {
			t.Fatalf("seed %d gives two cases", seed+i)
		}
		if c.Domain != "datalog" || c.Seed != seed+i || len(c.Queries) != 2 ||
			c.Queries[0].Role != RoleOrig || c.Queries[1].Role != RoleTrans || len(c.Params) != 2 {
			t.Fatalf("malformed case %+v", c)
		}
		if opts, err := ParseOptions(c.Gen); err != nil || !reflect.DeepEqual(opts, o) {
			t.Fatalf("case options %q: %v", c.Gen, err)
		}
		orig, err := Generate(o, c.Seed)
		if err != nil || "// original\n"+orig.String() != c.Queries[0].Text {
			t.Fatalf("the original is not Generate(options, seed): %v", err)
		}
		trans, err := Parse("trans.dl", c.Queries[1].Text)
		if err != nil {
			t.Fatal(err)
		}
		if want := "// transformed: " + c.Params[ParamExpect] + " " + c.Params[ParamSteps] + "\n"; !strings.HasPrefix(c.Queries[1].Text, want) {
			t.Fatalf("the transformed program does not start with %q", want)
		}
		if _, err := trans.Strata(); err != nil {
			t.Fatal(err)
		}
		e, err := ParseExpect(c.Params[ParamExpect])
		if err != nil {
			t.Fatal(err)
		}
		steps := strings.Split(c.Params[ParamSteps], ",")
		if c.Params[ParamSteps] == "" {
			steps = nil
		}
		if len(steps) > o.Steps.Max {
			t.Fatalf("steps %v", steps)
		}
		checkSteps(t, e, steps)
		texts[c.Queries[1].Text] = true
	}
	if len(texts) < 190 {
		t.Errorf("200 seeds give %d distinct transformed programs", len(texts))
	}
	bad := o
	bad.Types = nil
	if _, err := NewGenerator(bad); err == nil {
		t.Error("NewGenerator accepted options without types")
	}
}

func BenchmarkGeneratorCase(b *testing.B) {
	g, err := NewGenerator(DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	for i := range b.N {
		if _, err := g.Generate(uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGeneratorNonEmpty checks the guidance toward programs with a non-empty answer: with
// NonEmpty 100 nearly every original answers something on the reference engine, with 0 the share
// is queryFuzz's.
func TestGeneratorNonEmpty(t *testing.T) {
	seed := testenv.Seed(t)
	share := func(pct int) float64 {
		o := DefaultOptions()
		o.NonEmpty = pct
		g, err := NewGenerator(o)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := range uint64(300) {
			c, err := g.Generate(seed + i)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Parse("orig.dl", c.Queries[0].Text)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Eval(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Output()) > 0 {
				n++
			}
		}
		return float64(n) / 300
	}
	none, all := share(0), share(100)
	t.Logf("non-empty originals: %.0f%% without guidance, %.0f%% with nonempty=100", 100*none, 100*all)
	if all < 0.95 || none > 0.6 {
		t.Errorf("non-empty shares %.2f (nonempty=0) and %.2f (nonempty=100)", none, all)
	}
}
