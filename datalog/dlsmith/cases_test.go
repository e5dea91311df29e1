package dlsmith

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/genopts/genoptstest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

var _ fuzz.Generator = (*Generator)(nil)

// caseOptions are short sequences, so that the tests stay fast.
func caseOptions() Options {
	o := DefaultOptions()
	o.Steps = Range{Min: 1, Max: 12}
	return o
}

// TestGeneratorCases checks the shape of DLSmith cases: queryFuzz's layout and params, the
// options in Gen, the original program that of Sequence's graph, the transformed one that of
// Replay of all the steps on it, the relation the composition of the steps' relations, and the
// same case for the same seed.
func TestGeneratorCases(t *testing.T) {
	seed := testenv.Seed(t)
	o := caseOptions()
	g, err := NewGenerator(o)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{}
	const n = 150
	for i := range uint64(n) {
		c, err := g.Generate(seed + i)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := g.Generate(seed + i); !reflect.DeepEqual(c, again) {
			t.Fatalf("seed %d gives two cases", seed+i)
		}
		if c.Domain != "datalog" || c.Seed != seed+i || len(c.Queries) != 2 || c.Queries[0].Role != datalog.RoleOrig ||
			c.Queries[1].Role != datalog.RoleTrans || len(c.Params) != 2 {
			t.Fatalf("malformed case %+v", c)
		}
		if opts, err := ParseOptions(c.Gen); err != nil || !reflect.DeepEqual(opts, o) {
			t.Fatalf("case options %q: %v", c.Gen, err)
		}
		orig, steps, err := g.Sequence(seed + i)
		if err != nil {
			t.Fatal(err)
		}
		po, err := orig.Program()
		if err != nil || "// original\n"+po.String() != c.Queries[0].Text {
			t.Fatalf("seed %d: the original is not the program of Sequence's graph: %v", seed+i, err)
		}
		names := make([]string, len(steps))
		expect := datalog.Equal
		for j, s := range steps {
			names[j] = s.Name
			var ok bool
			if expect, ok = Compose(expect, s.Expect); !ok {
				t.Fatalf("seed %d: steps %v do not compose", seed+i, names)
			}
		}
		if c.Params[datalog.ParamSteps] != strings.Join(names, ",") || c.Params[datalog.ParamExpect] != expect.String() {
			t.Fatalf("seed %d: params %v, steps %v composing to %s", seed+i, c.Params, names, expect)
		}
		head := "// transformed: " + expect.String() + " " + strings.Join(names, ",") + "\n"
		if !strings.HasPrefix(c.Queries[1].Text, head) {
			t.Fatalf("seed %d: the transformed program does not start with %q", seed+i, head)
		}
		all := make([]int, len(steps))
		for j := range all {
			all[j] = j
		}
		h, e, applied := Replay(orig, steps, all)
		pt, err := h.Program()
		if err != nil || head+pt.String() != c.Queries[1].Text || e != expect || len(applied) != len(steps) {
			t.Fatalf("seed %d: replaying the steps gives another program (%v, %s, %d of %d applied)", seed+i, err, e,
				len(applied), len(steps))
		}
		for _, q := range c.Queries {
			if _, err := datalog.Parse("case.dl", q.Text); err != nil {
				t.Fatalf("seed %d: %v", seed+i, err)
			}
		}
		texts[c.Queries[1].Text] = true
	}
	if len(texts) < n*9/10 {
		t.Errorf("%d seeds give %d distinct transformed programs", n, len(texts))
	}
	bad := o
	bad.Types = nil
	if _, err := NewGenerator(bad); err == nil || !strings.Contains(err.Error(), "types") {
		t.Errorf("NewGenerator without types: %v, want an error naming types", err)
	}
	if got := g.Options(); !reflect.DeepEqual(got, o) {
		t.Errorf("Options() = %v, want %v", got, o)
	}
}

// TestGeneratorOracle runs both programs of many cases on the reference engine: their outputs
// must stand in the relation the case names. Cases whose evaluation passes the tuple limit are
// not counted; most must be.
func TestGeneratorOracle(t *testing.T) {
	seed := testenv.Seed(t)
	g, err := NewGenerator(caseOptions())
	if err != nil {
		t.Fatal(err)
	}
	const n = 300
	checked, differ := 0, 0
	byExpect := map[string]int{}
	for i := range uint64(n) {
		c, err := g.Generate(seed + i)
		if err != nil {
			t.Fatal(err)
		}
		outs := make([][][]string, 2)
		for j, q := range c.Queries {
			p, err := datalog.Parse("case.dl", q.Text)
			if err != nil {
				t.Fatal(err)
			}
			m, err := datalog.EvalContext(context.Background(), p, 200000)
			if errors.Is(err, datalog.ErrTupleLimit) {
				outs = nil
				break
			}
			if err != nil {
				t.Fatalf("seed %d: %v", seed+i, err)
			}
			outs[j] = m.Output()
		}
		if outs == nil {
			continue
		}
		checked++
		e, err := datalog.ParseExpect(c.Params[datalog.ParamExpect])
		if err != nil {
			t.Fatal(err)
		}
		byExpect[e.String()]++
		if !reflect.DeepEqual(outs[0], outs[1]) {
			differ++
		}
		if !e.Holds(outs[0], outs[1]) {
			t.Errorf("seed %d: the outputs are not %s after %s:\n%s\n%s\norig %v\ntrans %v", seed+i, e,
				c.Params[datalog.ParamSteps], c.Queries[0].Text, c.Queries[1].Text, outs[0], outs[1])
		}
	}
	t.Logf("%d of %d cases checked (%v), %d with different outputs", checked, n, byExpect, differ)
	if checked < n*9/10 {
		t.Errorf("only %d of %d cases evaluated within the tuple limit", checked, n)
	}
	for _, e := range []string{"equal", "subset", "superset"} {
		if byExpect[e] == 0 {
			t.Errorf("no case expects %s", e)
		}
	}
}

// TestGeneratorNonEmpty checks the guidance toward programs with a non-empty answer: with
// NonEmpty 100 nearly every original answers something on the reference engine, more than
// without guidance.
func TestGeneratorNonEmpty(t *testing.T) {
	seed := testenv.Seed(t)
	share := func(pct int) float64 {
		o := caseOptions()
		o.Steps = Range{Min: 1, Max: 1}
		o.NonEmpty = pct
		g, err := NewGenerator(o)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := range uint64(200) {
			orig, _, err := g.original(seed + i)
			if err != nil {
				t.Fatal(err)
			}
			p, err := orig.Program()
			if err != nil {
				t.Fatal(err)
			}
			m, err := datalog.EvalContext(context.Background(), p, nonEmptyLimit)
			if err == nil && len(m.Output()) > 0 {
				n++
			}
		}
		return float64(n) / 200
	}
	none, all := share(0), share(100)
	t.Logf("non-empty originals: %.0f%% without guidance, %.0f%% with nonempty=100", 100*none, 100*all)
	if all < 0.95 || all <= none {
		t.Errorf("non-empty shares %.2f (nonempty=0) and %.2f (nonempty=100)", none, all)
	}
}

// BenchmarkGeneratorCase measures cases per second with DLSmith's parameters (sequences of up
// to 100 steps) and the default non-empty guidance.
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
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cases/s")
}

// TestStoredOptions checks that the options of the recorded DLSmith findings read back to the same
// text and regenerate the stored case from its seed.
func TestStoredOptions(t *testing.T) {
	genoptstest.Recorded(t, "../../testdata/datalog-findings", "dlsmith", ParseOptions, func(t *testing.T, o Options, stored *fuzz.Case) {
		g, err := NewGenerator(o)
		if err != nil {
			t.Fatal(err)
		}
		genoptstest.Regenerates(t, g, stored)
	})
}
