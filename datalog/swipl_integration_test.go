package datalog_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/swipl"
)

// engineProgram is a fixed program and its canonical answer, for the engines that run
// translations through datalog.Engine. unsupported names the engines that cannot express it,
// with the feature they report.
type engineProgram struct {
	name, src   string
	want        [][]string
	unsupported map[string]string
}

// tuples builds canonical answer rows: each tuple is a relation name followed by Go values,
// int for numbers and string for symbols.
func tuples(ts ...[]any) [][]string {
	out := make([][]string, 0, len(ts))
	for _, t := range ts {
		row := []string{t[0].(string)}
		for _, v := range t[1:] {
			switch v := v.(type) {
			case int:
				row = append(row, datalog.Canonical(datalog.N(int64(v))))
			case int64:
				row = append(row, datalog.Canonical(datalog.N(v)))
			case string:
				row = append(row, datalog.Canonical(datalog.S(v)))
			}
		}
		out = append(out, row)
	}
	return datalog.SortRows(out)
}

func tup(v ...any) []any { return v }

// orderSymbols are symbols whose byte order tells a byte-wise comparison from a code point,
// signed-char or locale-aware one.
var orderSymbols = []string{"", "a", "ab", "a\x01", "\x01", "~", "\x7f", "\x80", "é", "\xff", "B", "b", `"`, `\`, "'", "\t", " "}

// symbolOrderProgram compares every pair of orderSymbols with <, and its answer.
func symbolOrderProgram() engineProgram {
	var b strings.Builder
	b.WriteString(".decl s(x: symbol)\n.decl lt(x: symbol, y: symbol)\n.output lt\n")
	for _, s := range orderSymbols {
		fmt.Fprintf(&b, "s(%s).\n", datalog.S(s))
	}
	b.WriteString("lt(x, y) :- s(x), s(y), x < y.\n")
	var want [][]any
	for _, x := range orderSymbols {
		for _, y := range orderSymbols {
			if x < y {
				want = append(want, tup("lt", x, y))
			}
		}
	}
	return engineProgram{name: "symbol order", src: b.String(), want: tuples(want...)}
}

var enginePrograms = []engineProgram{
	{name: "transitive closure", src: `
.decl edge(x: number, y: number)
.decl reachable(x: number, y: number)
.output reachable
edge(1, 2). edge(2, 3). edge(4, 2). edge(2, 5).
reachable(x, y) :- edge(x, y).
reachable(x, z) :- edge(x, y), reachable(y, z).
`, want: tuples(tup("reachable", 1, 2), tup("reachable", 1, 3), tup("reachable", 1, 5), tup("reachable", 2, 3),
		tup("reachable", 2, 5), tup("reachable", 4, 2), tup("reachable", 4, 5), tup("reachable", 4, 3))},
	{name: "left-recursive non-linear closure", src: `
.decl edge(x: number, y: number)
.decl reachable(x: number, y: number)
.output reachable
edge(1, 2). edge(2, 3). edge(4, 2). edge(2, 5). edge(2, 5).
reachable(x, y) :- edge(x, y).
reachable(x, z) :- reachable(x, y), reachable(y, z).
`, want: tuples(tup("reachable", 1, 2), tup("reachable", 1, 3), tup("reachable", 1, 5), tup("reachable", 2, 3),
		tup("reachable", 2, 5), tup("reachable", 4, 2), tup("reachable", 4, 5), tup("reachable", 4, 3))},
	{name: "negation with _", src: `
.decl node(x: number)
.decl edge(x: number, y: number)
.decl sink(x: number)
.decl source(x: number)
.decl isolated()
.output sink
.output source
.output isolated
node(1). node(2). node(3). node(4).
edge(1, 2). edge(2, 3). edge(1, 3).
sink(x) :- node(x), !edge(x, _).
source(x) :- node(x), !edge(_, x).
isolated() :- node(4), !edge(4, _), !edge(_, 4).
`, want: tuples(tup("sink", 3), tup("sink", 4), tup("source", 1), tup("source", 4), tup("isolated"))},
	{name: "negation of a recursive relation", src: `
.decl edge(x: number, y: number)
.decl node(x: number)
.decl reach(x: number, y: number)
.decl unreach(x: number, y: number)
.output unreach
edge(1, 2). edge(2, 1). edge(2, 3).
node(x) :- edge(x, _).
node(y) :- edge(_, y).
reach(x, y) :- edge(x, y).
reach(x, z) :- reach(x, y), edge(y, z).
unreach(x, y) :- node(x), node(y), !reach(x, y).
`, want: tuples(tup("unreach", 3, 1), tup("unreach", 3, 2), tup("unreach", 3, 3))},
	{name: "mutual recursion", src: `
.decl succ(x: number, y: number)
.decl even(x: number)
.decl odd(x: number)
.output even
.output odd
succ(0, 1). succ(1, 2). succ(2, 3). succ(3, 4). succ(4, 5).
even(0).
odd(y) :- even(x), succ(x, y).
even(y) :- odd(x), succ(x, y).
`, want: tuples(tup("even", 0), tup("even", 2), tup("even", 4), tup("odd", 1), tup("odd", 3), tup("odd", 5))},
	{name: "symbols with quotes and backslashes", src: `
.decl s(x: symbol)
.decl t(x: symbol, y: symbol)
.output t
s("a\"b"). s("c\\d"). s("'"). s(""). s("\\\""). s("é` + "\xff\t\x01" + `"). s("x y").
t(x, "k") :- s(x), x != "".
t(x, x) :- s(x), x = "".
`, want: tuples(tup("t", `a"b`, "k"), tup("t", `c\d`, "k"), tup("t", "'", "k"), tup("t", "", ""),
		tup("t", `\"`, "k"), tup("t", "é\xff\t\x01", "k"), tup("t", "x y", "k"))},
	{name: "NUL in a symbol", src: ".decl s(x: symbol)\n.output s\ns(\"a\x00b\").\ns(\"a\").\n",
		want: tuples(tup("s", "a\x00b"), tup("s", "a")), unsupported: map[string]string{"clingo": "symbol-nul"}},
	{name: "number constraints", src: `
.decl n(x: number)
.decl r(op: symbol, x: number, y: number)
.output r
n(-3). n(0). n(2).
r("=", x, y) :- n(x), n(y), x = y, x < 1.
r("!=", x, y) :- n(x), n(y), x != y, y = 2.
r("<", x, y) :- n(x), n(y), x < y.
r("<=", x, y) :- n(x), n(y), x <= y, x >= 0.
r(">", x, y) :- n(x), n(y), x > y, -3 >= y.
r(">=", x, y) :- n(x), n(y), x >= y, x <= -1.
r("const", x, x) :- n(x), 1 > -2, x > -10, x != 0.
r("never", x, x) :- n(x), 2 < 1.
`, want: tuples(tup("r", "=", -3, -3), tup("r", "=", 0, 0), tup("r", "!=", -3, 2), tup("r", "!=", 0, 2),
		tup("r", "<", -3, 0), tup("r", "<", -3, 2), tup("r", "<", 0, 2), tup("r", "<=", 0, 0), tup("r", "<=", 0, 2),
		tup("r", "<=", 2, 2), tup("r", ">", 0, -3), tup("r", ">", 2, -3), tup("r", ">=", -3, -3),
		tup("r", "const", -3, -3), tup("r", "const", 2, 2))},
	{name: "symbol constraints", src: `
.decl s(x: symbol)
.decl r(op: symbol, x: symbol, y: symbol)
.output r
s("a"). s("ab"). s("B").
r("=", x, y) :- s(x), s(y), x = y, x = "a".
r("!=", x, y) :- s(x), s(y), x != y, x = "B".
r("<", x, y) :- s(x), s(y), x < y.
r("<=", x, y) :- s(x), s(y), x <= y, y = "a".
r(">", x, y) :- s(x), s(y), x > y, "a" > y.
r(">=", x, y) :- s(x), s(y), x >= y, x >= "ab".
`, want: tuples(tup("r", "=", "a", "a"), tup("r", "!=", "B", "a"), tup("r", "!=", "B", "ab"),
		tup("r", "<", "B", "a"), tup("r", "<", "B", "ab"), tup("r", "<", "a", "ab"),
		tup("r", "<=", "B", "a"), tup("r", "<=", "a", "a"), tup("r", ">", "a", "B"), tup("r", ">", "ab", "B"),
		tup("r", ">=", "ab", "B"), tup("r", ">=", "ab", "a"), tup("r", ">=", "ab", "ab"))},
	symbolOrderProgram(),
	{name: "int64 extremes", src: `
.decl n(x: number)
.decl lt(x: number, y: number)
.output lt
n(-9223372036854775808). n(9223372036854775807). n(0).
lt(x, y) :- n(x), n(y), x < y, y > -9223372036854775808.
`, want: tuples(tup("lt", int64(-9223372036854775808), 0), tup("lt", int64(-9223372036854775808), int64(9223372036854775807)),
		tup("lt", 0, int64(9223372036854775807))), unsupported: map[string]string{"clingo": "number-range"}},
	{name: "int32 extremes", src: `
.decl n(x: number)
.decl lt(x: number, y: number)
.output lt
n(-2147483648). n(2147483647).
lt(x, y) :- n(x), n(y), x < y.
`, want: tuples(tup("lt", -2147483648, 2147483647))},
	{name: "nullary relations", src: `
.decl e(x: number)
.decl yes()
.decl no()
.decl notno()
.output yes
.output no
.output notno
e(1).
yes() :- e(1).
no() :- e(7).
notno() :- yes(), !no().
`, want: tuples(tup("yes"), tup("notno"))},
	{name: "empty output", src: `
.decl e(x: number)
.decl in(x: number)
.decl out(x: number)
.input in
.output out
e(1).
out(x) :- e(x), in(x).
out(x) :- e(x), !e(x).
`, want: tuples()},
	{name: "no output relation", src: ".decl e(x: number)\ne(1).\n", want: tuples()},
	{name: "relation names", src: `
.decl Edge(x: number)
.decl _x(x: number)
.decl not(x: number)
.decl true()
.output Edge
.output _x
.output not
.output true
Edge(1).
_x(x) :- Edge(x).
not(x) :- _x(x), !true().
true() :- Edge(2).
`, want: tuples(tup("Edge", 1), tup("_x", 1), tup("not", 1))},
}

// checkEnginePrograms runs enginePrograms on e and compares the answers.
func checkEnginePrograms(t *testing.T, e *datalog.Engine) {
	t.Helper()
	ctx := context.Background()
	for _, c := range enginePrograms {
		t.Run(c.name, func(t *testing.T) {
			p, err := datalog.Parse("p.dl", c.src)
			if err == nil {
				_, err = p.Strata()
			}
			if err != nil {
				t.Fatalf("the test program is invalid: %v", err)
			}
			res, err := e.Exec(ctx, c.src)
			if err != nil {
				t.Fatal(err)
			}
			if f := c.unsupported[e.Dialect.Name()]; f != "" {
				if res.Status != fuzz.StatusEngineError || res.Code != datalog.CodeUnsupported || res.Err != f {
					t.Errorf("answer %+v, want unsupported %s", res, f)
				}
				return
			}
			if res.Status != fuzz.StatusOK {
				t.Fatalf("%v %s: %s", res.Status, res.Code, res.Err)
			}
			if !slices.EqualFunc(res.Rows, c.want, slices.Equal) {
				t.Errorf("answer\n%q\nwant\n%q", res.Rows, c.want)
			}
		})
	}
}

// checkIsolation runs programs that reuse relation names with different facts, each twice,
// and checks that every answer is its own.
func checkIsolation(t *testing.T, e *datalog.Engine) {
	t.Helper()
	for i := range 6 {
		n := i % 3
		src := fmt.Sprintf(".decl e(x: number)\n.decl p(x: number)\n.output p\ne(%d).\np(x) :- e(x).\np(x) :- p(x), !e(%d).\n", n, n+1)
		res, err := e.Exec(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		if want := tuples(tup("p", n)); res.Status != fuzz.StatusOK || !slices.EqualFunc(res.Rows, want, slices.Equal) {
			t.Fatalf("program %d answered %+v, want %v", i, res, want)
		}
	}
}

// slowProgram derives 8 million tuples, which no engine does in a few milliseconds.
func slowProgram() string {
	var b strings.Builder
	b.WriteString(".decl n(x: number)\n.decl p(x: number, y: number, z: number)\n.output p\n")
	for i := range 200 {
		fmt.Fprintf(&b, "n(%d).\n", i)
	}
	b.WriteString("p(x, y, z) :- n(x), n(y), n(z).\n")
	return b.String()
}

// checkTimeout runs the slow program on a target whose timeout is short, then a fast one.
func checkTimeout(t *testing.T, e *datalog.Engine) {
	t.Helper()
	start := time.Now()
	res, err := e.Exec(context.Background(), slowProgram())
	if err != nil || res.Status != fuzz.StatusTimeout {
		t.Fatalf("slow program: %+v, %v; want a timeout", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the timeout took %s", d)
	}
	// The next program must be answered. An engine that compiles each program (Ascent) may take
	// longer than the short timeout on a loaded machine: a timeout is retried twice; an engine left
	// hung by the first timeout times out every time.
	for try := 0; ; try++ {
		res, err = e.Exec(context.Background(), enginePrograms[0].src)
		if err == nil && res.Status == fuzz.StatusTimeout && try < 2 {
			continue
		}
		if err != nil || res.Status != fuzz.StatusOK || !slices.EqualFunc(res.Rows, enginePrograms[0].want, slices.Equal) {
			t.Fatalf("program after a timeout: %+v, %v", res, err)
		}
		return
	}
}

// checkScript runs the repro script of a program in a temporary directory and checks that its
// output holds want.
func checkScript(t *testing.T, d datalog.Scripter, want string) {
	t.Helper()
	p, err := datalog.Parse("p.dl", enginePrograms[0].src)
	if err != nil {
		t.Fatal(err)
	}
	files, cmd, err := d.Script(p, "p0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := exec.Command("sh", "-c", cmd)
	c.Dir = dir
	out, _ := c.CombinedOutput()
	if !strings.Contains(string(out), want) {
		t.Errorf("%s printed\n%s\nwant it to hold %s", cmd, out, want)
	}
}

// checkDifferential runs n generated programs on e and on the reference engine and compares the
// answers. The programs compare symbols by order more often than by default, every fifth is
// recursive more often, and every tenth has its numbers multiplied by 2^32 (which keeps their
// order) to go beyond 32 bits. It returns how many programs e reported unsupported, by feature,
// and logs them.
func checkDifferential(t *testing.T, e *datalog.Engine, n int) map[string]int {
	t.Helper()
	seed := testenv.Seed(t)
	unsupported := map[string]int{}
	nonEmpty := 0
	for i := range uint64(n) {
		o := datalog.DefaultOptions()
		o.SymbolOrder = 50
		if i%5 == 4 {
			o.Recursive = 80
		}
		p, err := datalog.Generate(o, fuzz.Mix(seed+i))
		if err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 {
			widenNumbers(p)
		}
		m, err := datalog.Eval(p)
		if err != nil {
			t.Fatalf("program %d: reference: %v", i, err)
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
		want := m.Output()
		if res.Status != fuzz.StatusOK || !slices.EqualFunc(res.Rows, want, slices.Equal) {
			t.Errorf("program %d: %s answered %+v, the reference %q\n%s", i, e.Name(), res, want, src)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	t.Logf("%d programs, %d with a non-empty answer; unsupported by %s: %v", n, nonEmpty, e.Name(), unsupported)
	return unsupported
}

// widenNumbers multiplies the number constants of p by 2^32.
func widenNumbers(p *datalog.Program) {
	widen := func(t *datalog.Term) {
		if t.Kind == datalog.Num {
			t.Num <<= 32
		}
	}
	for i := range p.Rules {
		r := &p.Rules[i]
		for _, a := range append([]datalog.Atom{r.Head}, r.Body...) {
			for j := range a.Args {
				widen(&a.Args[j])
			}
		}
		for j := range r.Constraints {
			widen(&r.Constraints[j].Left)
			widen(&r.Constraints[j].Right)
		}
	}
}

func newSWIProlog(tb testing.TB, timeout time.Duration) *datalog.Engine {
	tb.Helper()
	testenv.NeedEngine(tb, "swipl")
	return openEngine(tb, func() (*swipl.Target, error) { return swipl.New(swipl.Options{Timeout: timeout}) }, datalog.SWIProlog{})
}

// openEngine opens a target with open, closes it when tb ends, and runs translations for d on it.
func openEngine[T fuzz.Target](tb testing.TB, open func() (T, error), d datalog.Dialect) *datalog.Engine {
	tb.Helper()
	tg, err := open()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { tg.Close() })
	return &datalog.Engine{Inner: tg, Dialect: d}
}

func TestSWIPrologPrograms(t *testing.T) {
	e := newSWIProlog(t, 10*time.Second)
	checkWarmEngine(t, e, func() int { return e.Inner.(*swipl.Target).Starts })
}

// checkWarmEngine runs the fixed programs and the isolation check on e, whose target runs them
// all on one process: starts counts the processes it started.
func checkWarmEngine(t *testing.T, e *datalog.Engine, starts func() int) {
	t.Helper()
	checkEnginePrograms(t, e)
	checkIsolation(t, e)
	if n := starts(); n != 1 {
		t.Errorf("%d %s processes started, want 1", n, e.Name())
	}
}

func TestSWIPrologTimeout(t *testing.T) {
	checkTimeout(t, newSWIProlog(t, 200*time.Millisecond))
}

func TestSWIPrologScript(t *testing.T) {
	testenv.NeedEngine(t, "swipl")
	checkScript(t, datalog.SWIProlog{}, "[reachable,4,3]")
}

func TestSWIPrologDifferential(t *testing.T) {
	if counts := checkDifferential(t, newSWIProlog(t, 10*time.Second), 300); len(counts) > 0 {
		t.Errorf("SWI-Prolog reported programs unsupported: %v", counts)
	}
}

// BenchmarkSWIProlog measures programs/s on generated programs with one warm swipl.
func BenchmarkSWIProlog(b *testing.B) {
	benchEngine(b, func(b *testing.B) *datalog.Engine { return newSWIProlog(b, 10*time.Second) })
}

// benchEngine runs 200 generated programs in turn on the engine open returns and reports
// programs/s.
func benchEngine(b *testing.B, open func(b *testing.B) *datalog.Engine) {
	progs := generated(b, testenv.DefaultSeed, 200)
	e := open(b)
	b.ResetTimer()
	for i := range b.N {
		res, err := e.Exec(context.Background(), progs[i%len(progs)])
		if err != nil || res.Status != fuzz.StatusOK {
			b.Fatalf("%+v %v", res, err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "programs/s")
}

// checkCases runs both programs of n generated queryFuzz cases (default options) on e and on the
// reference engine, fails on every answer that differs, and returns how many programs ran and how
// many have a non-empty answer.
func checkCases(t *testing.T, e *datalog.Engine, n int) (programs, nonEmpty int) {
	t.Helper()
	g, err := datalog.NewGenerator(datalog.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	seed := testenv.Seed(t)
	for i := range uint64(n) {
		c, err := g.Generate(fuzz.Mix(seed + i))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range c.Queries {
			p, err := datalog.Parse(q.Role, q.Text)
			if err != nil {
				t.Fatalf("case %d %s: %v", i, q.Role, err)
			}
			m, err := datalog.Eval(p)
			if err != nil {
				t.Fatalf("case %d %s: reference: %v", i, q.Role, err)
			}
			res, err := e.Exec(context.Background(), q.Text)
			if err != nil {
				t.Fatal(err)
			}
			programs++
			want := m.Output()
			if res.Status != fuzz.StatusOK || !slices.EqualFunc(res.Rows, want, slices.Equal) {
				t.Errorf("case %d %s: %s answered %+v, the reference %q\n%s", i, q.Role, e.Name(), res, want, q.Text)
			}
			if len(want) > 0 {
				nonEmpty++
			}
		}
	}
	return programs, nonEmpty
}
