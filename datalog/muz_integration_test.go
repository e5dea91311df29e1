package datalog_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/muz"
)

func newMuZ(t testing.TB, o muz.Options) *datalog.Engine {
	t.Helper()
	testenv.NeedEngine(t, "z3")
	tg, err := muz.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return &datalog.Engine{Inner: tg, Dialect: datalog.MuZ{}}
}

// muzPrograms are programs of the μZ literature with their answers.
var muzPrograms = []engineProgram{
	{name: "z3 issue 4870", src: `
.decl in1(x: number)
.decl in2(x: number, y: number)
.decl r(x: number, y: number)
.decl out(x: number)
.output out
in1(49). in1(10).
in2(25, 10). in2(16, 13). in2(24, 22).
r(V, M) :- in2(V, M), in1(M).
out(F) :- r(F, C).
`, want: tuples(tup("out", 25))},
	{name: "z3 issue 4870, EQU transformation", src: `
.decl in1(x: number)
.decl in2(x: number, y: number)
.decl r(x: number, y: number)
.decl out(x: number)
.output out
in1(49). in1(10).
in2(25, 10). in2(16, 13). in2(24, 22).
r(V, M) :- in2(V, M), in1(M).
out(F) :- r(F, C), r(F, A), r(F, B).
`, want: tuples(tup("out", 25))},
	{name: "relation used only negated, unused relations, duplicate facts", src: `
.decl a(x: symbol)
.decl never(x: symbol)
.decl unused(x: number, y: symbol)
.decl out(x: symbol)
.output out
a("x"). a("y"). a("x").
out(x) :- a(x), !never(x).
`, want: tuples(tup("out", "x"), tup("out", "y"))},
	{name: "negated atom with _ and constants", src: `
.decl e(x: number, y: number, z: number)
.decl n(x: number)
.decl out(x: number)
.output out
n(1). n(2). n(3).
e(1, 5, 7). e(2, 6, 8).
out(x) :- n(x), !e(x, _, 7), !e(_, x, _).
`, want: tuples(tup("out", 2), tup("out", 3))},
}

// manyTuples has an output of 2500 tuples over 50 constants.
func manyTuples() engineProgram {
	src := ".decl n(x: number)\n.decl p(x: number, y: number)\n.output p\n"
	var want [][]any
	for i := range 50 {
		src += "n(" + itoa(i*3-70) + ").\n"
		for j := range 50 {
			want = append(want, tup("p", i*3-70, j*3-70))
		}
	}
	src += "p(x, y) :- n(x), n(y).\n"
	return engineProgram{name: "many tuples", src: src, want: tuples(want...)}
}

func itoa(i int) string { return datalog.Canonical(datalog.N(int64(i)))[2:] }

func TestMuZPrograms(t *testing.T) {
	e := newMuZ(t, muz.Options{})
	checkEnginePrograms(t, e)
	for _, c := range append(muzPrograms, manyTuples()) {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Exec(context.Background(), c.src)
			if err != nil || res.Status != fuzz.StatusOK {
				t.Fatalf("%+v %v", res, err)
			}
			if !slices.EqualFunc(res.Rows, c.want, slices.Equal) {
				t.Errorf("answer\n%q\nwant\n%q", res.Rows, c.want)
			}
		})
	}
	checkIsolation(t, e)
	if n := e.Inner.(*muz.Target).Starts; n != 1 {
		t.Errorf("%d z3 processes started, want 1", n)
	}
}

func TestMuZTimeout(t *testing.T) {
	checkTimeout(t, newMuZ(t, muz.Options{Timeout: 200 * time.Millisecond}))
}

func TestMuZScript(t *testing.T) {
	testenv.NeedEngine(t, "z3")
	// reachable(4, 3): 4 and 3 are the constants of index 3 and 2.
	checkScript(t, datalog.MuZ{}, "(and (= (:var 0) #b011) (= (:var 1) #b010))")
}

// generated returns n generated programs, printed.
func generated(t testing.TB, seed uint64, n int) []string {
	t.Helper()
	progs := make([]string, n)
	for i := range progs {
		p, err := datalog.Generate(datalog.DefaultOptions(), seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		progs[i] = p.String()
	}
	return progs
}

// TestMuZProcessModes checks that a long-lived z3, reset between programs, answers generated
// programs as a new z3 per program does.
func TestMuZProcessModes(t *testing.T) {
	long, fresh := newMuZ(t, muz.Options{}), newMuZ(t, muz.Options{ProcessPerProgram: true})
	for i, src := range generated(t, testenv.Seed(t), 40) {
		a, err := long.Exec(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fresh.Exec(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != b.Status || a.Err != b.Err || !slices.EqualFunc(a.Rows, b.Rows, slices.Equal) {
			t.Fatalf("program %d: long-lived z3 answered %+v, a new one %+v\n%s", i, a, b, src)
		}
	}
}

// BenchmarkMuZ measures programs/s on generated programs with a long-lived z3 and with a new z3
// per program.
func BenchmarkMuZ(b *testing.B) {
	progs := generated(b, testenv.DefaultSeed, 200)
	for _, mode := range []struct {
		name       string
		perProgram bool
	}{{"long-lived", false}, {"process-per-program", true}} {
		b.Run(mode.name, func(b *testing.B) {
			e := newMuZ(b, muz.Options{ProcessPerProgram: mode.perProgram})
			b.ResetTimer()
			for i := range b.N {
				res, err := e.Exec(context.Background(), progs[i%len(progs)])
				if err != nil || res.Status != fuzz.StatusOK {
					b.Fatalf("%+v %v", res, err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "programs/s")
		})
	}
}

// TestMuZDifferential runs generated programs on μZ and on the reference engine and compares the
// answers. Programs μZ reports Unsupported are counted and logged. A mismatch is a wrong answer
// of the driver or of z3: z3 4.8.12 answers about one generated program in 2000 wrongly (a rule
// with an atom and its negation, e.g. h(x, y) :- e(x, y), !e(x, y), x = 1, derives tuples); the
// pinned seed's programs do not meet it.
func TestMuZDifferential(t *testing.T) {
	e := newMuZ(t, muz.Options{})
	seed := testenv.Seed(t)
	const n = 300
	unsupported := map[string]int{}
	for i := range uint64(n) {
		p, err := datalog.Generate(datalog.DefaultOptions(), seed+i)
		if err != nil {
			t.Fatal(err)
		}
		m, err := datalog.Eval(p)
		if err != nil {
			t.Fatalf("seed %d: reference: %v", seed+i, err)
		}
		src := p.String()
		res, err := e.Exec(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		if res.Code == datalog.CodeUnsupported {
			unsupported[res.Err]++
			continue
		}
		if want := m.Output(); res.Status != fuzz.StatusOK || !slices.EqualFunc(res.Rows, want, slices.Equal) {
			t.Errorf("seed %d: μZ answered %+v, the reference %q\n%s", seed+i, res, want, src)
		}
	}
	t.Logf("%d programs, unsupported by μZ: %v", n, unsupported)
}
