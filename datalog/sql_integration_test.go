package datalog_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/duckdb"
	"github.com/polyfuzz/polyfuzz/targets/fault"
	"github.com/polyfuzz/polyfuzz/targets/postgres"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

// sqlDialects lists the SQL engines and how tests open them.
var sqlDialects = []struct {
	name string
	open func(t *testing.T) fuzz.Target
}{
	{"sqlite", func(t *testing.T) fuzz.Target {
		tg, err := sqlite.Open(sqlite.Options{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}},
	{"duckdb", func(t *testing.T) fuzz.Target {
		tg, err := duckdb.Open(duckdb.Options{Timeout: 10 * time.Second, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}},
	{"postgres", func(t *testing.T) fuzz.Target {
		dsn := testenv.NeedDSN(t, "POLYFUZZ_POSTGRES_DSN")
		tg, err := postgres.Open(context.Background(), postgres.Options{DSN: dsn, Worker: 70, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}},
}

// forEachSQL runs f on a SQLEngine of each SQL dialect, as a subtest named after it.
func forEachSQL(t *testing.T, f func(t *testing.T, e *datalog.SQLEngine)) {
	for _, d := range sqlDialects {
		t.Run(d.name, func(t *testing.T) {
			e := &datalog.SQLEngine{Inner: d.open(t), Dialect: d.name}
			t.Cleanup(func() {
				if err := e.Close(); err != nil {
					t.Error(err)
				}
			})
			f(t, e)
		})
	}
}

// rows parses "rel v1 v2; rel2 v" into answer rows.
func rows(s string) [][]string {
	var out [][]string
	for _, r := range strings.Split(s, ";") {
		if f := strings.Fields(r); len(f) > 0 {
			out = append(out, f)
		}
	}
	return datalog.SortRows(out)
}

var sqlPrograms = []struct {
	name, src string
	want      [][]string
}{
	{"transitive closure", `
.decl edge(x: number, y: number)
.decl reachable(x: number, y: number)
.output reachable
edge(1, 2). edge(2, 3). edge(4, 2). edge(2, 5).
reachable(x, y) :- edge(x, y).
reachable(x, z) :- edge(x, y), reachable(y, z).
`, rows(`reachable i:1 i:2; reachable i:1 i:3; reachable i:1 i:5; reachable i:2 i:3; reachable i:2 i:5;
reachable i:4 i:2; reachable i:4 i:5; reachable i:4 i:3`)},
	{"non-linear closure", `
.decl edge(x: number, y: number)
.decl reachable(x: number, y: number)
.output reachable
edge(1, 2). edge(2, 3). edge(4, 2). edge(2, 5).
reachable(x, y) :- edge(x, y).
reachable(x, z) :- reachable(x, y), reachable(y, z).
`, rows(`reachable i:1 i:2; reachable i:1 i:3; reachable i:1 i:5; reachable i:2 i:3; reachable i:2 i:5;
reachable i:4 i:2; reachable i:4 i:5; reachable i:4 i:3`)},
	{"two recursive rules", `
.decl e(x: number, y: number)
.decl f(x: number, y: number)
.decl p(x: number, y: number)
.output p
e(1, 2). f(2, 3). e(3, 4). f(5, 6).
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), e(y, z).
p(x, z) :- f(y, z), p(x, y).
`, rows(`p i:1 i:2; p i:1 i:3; p i:1 i:4; p i:3 i:4`)},
	{"mutual recursion", `
.decl succ(x: number, y: number)
.decl even(x: number)
.decl odd(x: number)
.output even
.output odd
succ(0, 1). succ(1, 2). succ(2, 3). succ(3, 4). succ(4, 5).
even(0).
odd(y) :- even(x), succ(x, y).
even(y) :- odd(x), succ(x, y).
`, rows(`even i:0; even i:2; even i:4; odd i:1; odd i:3; odd i:5`)},
	{"recursion with facts", `
.decl e(x: number, y: number)
.decl r(x: number)
.output r
e(1, 2). e(2, 3). e(7, 8).
r(1). r(5).
r(y) :- r(x), e(x, y).
`, rows(`r i:1; r i:2; r i:3; r i:5`)},
	{"recursion without a base", `
.decl e(x: number)
.decl q(x: number)
.output q
e(1).
q(x) :- q(x), e(x).
`, nil},
	{"negation with _", `
.decl node(x: number)
.decl edge(x: number, y: number)
.decl sink(x: number)
.decl source(x: number)
.output sink
.output source
node(1). node(2). node(3). node(4).
edge(1, 2). edge(2, 3). edge(1, 3).
sink(x) :- node(x), !edge(x, _).
source(x) :- node(x), !edge(_, x), edge(x, _).
`, rows(`sink i:3; sink i:4; source i:1`)},
	{"symbols with quotes", `
.decl s(x: symbol)
.decl t(x: symbol, y: symbol)
.output t
s("it's"). s("say \"hi\""). s("back\\slash"). s("''"). s("").
t(x, y) :- s(x), s(y), x < y, y != "it's".
t(x, "it's") :- s(x), x = "it's".
`, [][]string{
		{"t", "t:", "t:''"}, {"t", "t:", "t:back\\slash"}, {"t", "t:", `t:say "hi"`},
		{"t", "t:''", "t:back\\slash"}, {"t", "t:''", `t:say "hi"`}, {"t", "t:back\\slash", `t:say "hi"`},
		{"t", "t:it's", `t:say "hi"`}, {"t", "t:it's", "t:it's"},
	}},
	{"constraints", `
.decl n(x: number)
.decl s(x: symbol)
.decl numc(x: number, y: number)
.decl symc(x: symbol)
.output numc
.output symc
n(-9223372036854775808). n(-1). n(0). n(7). n(9223372036854775807).
s("B"). s("a"). s("é"). s("z"). s("ab").
numc(x, y) :- n(x), n(y), x < y, y <= 7, x != -1, x >= -9223372036854775808.
numc(x, x) :- n(x), x = 9223372036854775807.
numc(1, 2) :- n(_), 5 > 3.
numc(3, 4) :- n(_), 5 < 3.
symc(x) :- s(x), x > "B", x < "z".
symc("never") :- s(_), "a" < "B".
symc("always") :- s(_), "B" < "a", "é" >= "z".
`, rows(`numc i:-9223372036854775808 i:-1; numc i:-9223372036854775808 i:0; numc i:-9223372036854775808 i:7;
numc i:0 i:7; numc i:9223372036854775807 i:9223372036854775807; numc i:1 i:2; symc t:a; symc t:ab; symc t:always`)},
	{"facts and rules", `
.decl a(x: number)
.decl b(x: number)
.output a
a(1). a(2). a(2).
b(2). b(3).
a(x) :- b(x).
`, rows(`a i:1; a i:2; a i:3`)},
	{"0-ary relations", `
.decl e(x: number)
.decl has()
.decl none()
.decl both()
.decl flag()
.decl loop()
.decl r(x: number)
.output has
.output none
.output both
.output flag
.output loop
.output r
e(1).
flag().
has() :- e(_).
none() :- e(2).
both() :- has(), !none().
loop() :- loop(), flag().
r(x) :- e(x), both(), flag().
`, rows(`has; both; flag; r i:1`)},
	{"empty output", `
.decl e(x: number)
.decl out(x: number)
.output out
e(1).
out(x) :- e(x), x > 5.
`, nil},
	{"no output", `
.decl e(x: number)
e(1).
`, nil},
	{"keywords and case", `
.decl select(x: number)
.decl Order(x: number)
.decl order(x: number)
.output Order
.output order
select(1). select(2).
Order(x) :- select(x), x > 1.
order(x) :- select(x), !Order(x).
`, rows(`Order i:2; order i:1`)},
	{"muz issue 4870", `
.decl in1(x: number)
.decl in2(x: number, y: number)
.decl r(x: number, y: number)
.decl out(x: number)
.output out
in1(49). in1(10).
in2(25, 10). in2(16, 13). in2(24, 22).
r(v, m) :- in2(v, m), in1(m).
out(f) :- r(f, c), r(f, a), r(f, b).
`, rows(`out i:25`)},
}

// TestSQLProgramsReference checks the expected answers of sqlPrograms with the reference engine.
func TestSQLProgramsReference(t *testing.T) {
	for _, c := range sqlPrograms {
		p, err := datalog.Parse("program.dl", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, err := datalog.Eval(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, want := m.Output(), datalog.SortRows(c.want); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s: reference answer\n%v\nwant\n%v", c.name, got, want)
		}
	}
}

func TestSQLEnginePrograms(t *testing.T) {
	forEachSQL(t, func(t *testing.T, e *datalog.SQLEngine) {
		ctx := context.Background()
		for _, c := range sqlPrograms {
			res, err := e.Exec(ctx, c.src)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if res.Status != fuzz.StatusOK {
				t.Errorf("%s: %v %s: %s", c.name, res.Status, res.Code, res.Err)
				continue
			}
			if want := datalog.SortRows(c.want); !slices.EqualFunc(res.Rows, want, slices.Equal) {
				t.Errorf("%s: answer\n%v\nwant\n%v", c.name, res.Rows, want)
			}
		}
	})
}

func TestSQLEngineErrors(t *testing.T) {
	forEachSQL(t, func(t *testing.T, e *datalog.SQLEngine) {
		ctx := context.Background()
		cases := []struct{ src, code, err string }{
			{".decl p(x: number)\np(x).\n", datalog.CodeBadProgram, "not bound"},
			{".decl p(x: number)\n.decl q(x: number)\np(x) :- q(x), !p(x).\n", datalog.CodeBadProgram, "not stratifiable"},
			{".decl s(x: symbol)\ns(\"a\x00b\").\n", datalog.CodeUnsupported, "nul-in-symbol"},
		}
		if e.Dialect != "sqlite" {
			cases = append(cases, struct{ src, code, err string }{".decl s(x: symbol)\ns(\"\xff\").\n", datalog.CodeUnsupported, "non-utf8-symbol"})
		}
		for _, c := range cases {
			res, err := e.Exec(ctx, c.src)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != fuzz.StatusEngineError || res.Code != c.code || !strings.Contains(res.Err, c.err) {
				t.Errorf("Exec(%q) = %v %s %q, want engine error %s %q", c.src, res.Status, res.Code, res.Err, c.code, c.err)
			}
		}
	})
}

// endless answers every round's check with a row, as an engine whose INSERTs never stop adding
// tuples would.
type endless struct{ fuzz.Target }

func (e endless) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	res, err := e.Target.Exec(ctx, stmt)
	if err == nil && res.Status == fuzz.StatusOK && strings.HasSuffix(stmt, " LIMIT 1") {
		res.Rows = [][]string{{"i:1"}}
	}
	return res, err
}

// TestSQLEngineFaults checks that a statement's failure or a bad answer is the program's result.
func TestSQLEngineFaults(t *testing.T) {
	tc := sqlPrograms[0].src
	nonLinear := sqlPrograms[1].src
	cases := []struct {
		name string
		wrap func(fuzz.Target) fuzz.Target
		src  string
		want fuzz.Status
		code string
	}{
		{"error", func(t fuzz.Target) fuzz.Target {
			return fault.Wrap(t, fault.Spec{Kind: fault.EngineError, Match: regexp.MustCompile("WITH RECURSIVE")})
		}, tc, fuzz.StatusEngineError, "FAULT"},
		{"hang", func(t fuzz.Target) fuzz.Target {
			return fault.Wrap(t, fault.Spec{Kind: fault.Hang, Match: regexp.MustCompile("SELECT 'reachable'")})
		}, tc, fuzz.StatusTimeout, ""},
		{"bad answer", func(t fuzz.Target) fuzz.Target {
			return fault.Wrap(t, fault.Spec{Kind: fault.ChangeValue, Match: regexp.MustCompile("SELECT 'reachable'")})
		}, tc, fuzz.StatusEngineError, "bad-answer"},
		{"no fixpoint", func(t fuzz.Target) fuzz.Target { return endless{t} }, nonLinear, fuzz.StatusEngineError, "no-fixpoint"},
	}
	for _, c := range cases {
		inner, err := sqlite.Open(sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e := &datalog.SQLEngine{Inner: c.wrap(inner), Dialect: "sqlite"}
		res, err := e.Exec(context.Background(), c.src)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != c.want || res.Code != c.code {
			t.Errorf("%s: Exec = %v %s %q, want %v %s", c.name, res.Status, res.Code, res.Err, c.want, c.code)
		}
		e.Close()
	}
}

// TestSQLEngineDifferential compares the SQL engines' answers to random programs with the
// reference engine's: half generated with the default options, half with more recursion that
// derives more, and more symbol order constraints.
func TestSQLEngineDifferential(t *testing.T) {
	seed := testenv.Seed(t)
	const programs = 300
	recursive := datalog.DefaultOptions()
	// Few constants, many facts and few negations and constraints, so that recursive rules join
	// and derive more than one round's worth of tuples.
	recursive.Recursive, recursive.SymbolOrder = 100, 50
	recursive.Numbers, recursive.Rows = datalog.Range{Min: -2, Max: 2}, datalog.Range{Min: 5, Max: 15}
	recursive.MaxNegated, recursive.MaxPredicates = 1, 1
	forEachSQL(t, func(t *testing.T, e *datalog.SQLEngine) {
		ctx := context.Background()
		failures := 0
		for i := range uint64(programs) {
			o := datalog.DefaultOptions()
			if i%2 == 1 {
				o = recursive
			}
			p, err := datalog.Generate(o, fuzz.CaseSeed(seed, i, 1))
			if err != nil {
				t.Fatal(err)
			}
			m, err := datalog.Eval(p)
			if err != nil {
				t.Fatalf("program %d: reference: %v\n%s", i, err, p)
			}
			res, err := e.Exec(ctx, p.String())
			if err != nil {
				t.Fatalf("program %d: %v", i, err)
			}
			want := m.Output()
			if res.Status != fuzz.StatusOK || !slices.EqualFunc(res.Rows, want, slices.Equal) {
				t.Errorf("program %d:\n%s\nanswer %v %s %s %v\nwant %v", i, p, res.Status, res.Code, res.Err, res.Rows, want)
				if failures++; failures == 3 {
					t.FailNow()
				}
			}
		}
	})
}
