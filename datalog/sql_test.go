package datalog

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// planText prints a plan as the golden tests expect it, one statement a line: the setup, then
// each stratum under a comment that says how it is evaluated (a fixpoint with its round 1), then
// the outputs.
func planText(plan *sqlPlan) string {
	var b strings.Builder
	for _, s := range plan.setup {
		b.WriteString(s + "\n")
	}
	for _, st := range plan.strata {
		b.WriteString("-- " + strings.Join(st.rels, ", ") + ": " + st.how + "\n")
		for _, s := range st.stmts {
			b.WriteString(s + "\n")
		}
		if st.round != nil {
			for _, s := range st.round(1) {
				b.WriteString(s + "\n")
			}
		}
	}
	for _, s := range plan.outputs {
		b.WriteString(s + "\n")
	}
	return b.String()
}

func mustTranslateSQL(t *testing.T, src, dialect string) *sqlPlan {
	t.Helper()
	p, err := Parse("t.dl", src)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := translateSQL(p, sqlDialects[dialect])
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

const (
	sqlTwoRecursive = `.decl e(x: number, y: number)
.decl p(x: number, y: number)
.output p
e(1, 2).
p(x, y) :- e(x, y).
p(x, z) :- e(x, y), p(y, z).
p(x, z) :- p(x, y), e(y, z), x != z.
`
	sqlMutual = `.decl succ(x: number, y: number)
.decl even(x: number)
.decl odd(x: number)
.output odd
succ(0, 1).
even(0).
even(x) :- succ(x, _), x = 10.
odd(y) :- even(x), succ(x, y).
even(y) :- odd(x), succ(x, y), !succ(y, 3).
`
	sqlNonLinear = `.decl e(x: symbol, y: symbol)
.decl p(x: symbol, y: symbol)
.output p
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), p(y, z).
`
	sqlConsts = `.decl s(x: symbol)
.decl f()
.decl g(x: number, y: symbol)
.output g
.output f
s("it's").
f() :- s(_), "a" < "B".
g(-9223372036854775808, "k") :- f(), !s("x").
g(7, x) :- s(x), f(), x >= "a".
`
)

func TestSQLGolden(t *testing.T) {
	cases := []struct {
		name, src, dialect, want string
	}{
		{"non-recursive and linear recursion", tcProg, "sqlite", `CREATE TABLE r1_edge (c0 BIGINT NOT NULL, c1 BIGINT NOT NULL)
CREATE TABLE r2_path (c0 BIGINT NOT NULL, c1 BIGINT NOT NULL)
CREATE TABLE r3_blocked (c0 BIGINT NOT NULL)
CREATE TABLE r4_name (c0 BIGINT NOT NULL, c1 TEXT NOT NULL)
INSERT INTO r1_edge (c0, c1) VALUES (1, 2), (2, -3)
INSERT INTO r4_name (c0, c1) VALUES (1, 'a "q" \ b')
-- blocked: insert
INSERT INTO r3_blocked (c0) SELECT DISTINCT a0.c0 AS c0 FROM r4_name AS a0 WHERE a0.c1 = 'x' AND NOT EXISTS (SELECT 1 FROM r1_edge AS n1 WHERE n1.c0 = a0.c0)
-- path: with-recursive
INSERT INTO r2_path (c0, c1) WITH RECURSIVE w(c0, c1) AS (SELECT a0.c0 AS c0, a0.c1 AS c1 FROM r1_edge AS a0 UNION SELECT a0.c0 AS c0, a1.c1 AS c1 FROM w AS a0, r1_edge AS a1 WHERE a1.c0 = a0.c1 AND NOT EXISTS (SELECT 1 FROM r3_blocked AS n2 WHERE n2.c0 = a1.c1) AND a0.c0 <> a1.c1) SELECT c0, c1 FROM w
SELECT 'path', c0, c1 FROM r2_path
`},
		{"recursive rules chained", sqlTwoRecursive, "sqlite", `CREATE TABLE r1_e (c0 BIGINT NOT NULL, c1 BIGINT NOT NULL)
CREATE TABLE r2_p (c0 BIGINT NOT NULL, c1 BIGINT NOT NULL)
INSERT INTO r1_e (c0, c1) VALUES (1, 2)
-- p: with-recursive
INSERT INTO r2_p (c0, c1) WITH RECURSIVE w(c0, c1) AS (SELECT a0.c0 AS c0, a0.c1 AS c1 FROM r1_e AS a0 UNION SELECT a0.c0 AS c0, a1.c1 AS c1 FROM r1_e AS a0, w AS a1 WHERE a1.c0 = a0.c1 UNION SELECT a0.c0 AS c0, a1.c1 AS c1 FROM w AS a0, r1_e AS a1 WHERE a1.c0 = a0.c1 AND a0.c0 <> a1.c1) SELECT c0, c1 FROM w
SELECT 'p', c0, c1 FROM r2_p
`},
		{"recursive rules in LATERAL", sqlTwoRecursive, "postgres", `CREATE TABLE r1_e (c0 BIGINT NOT NULL, c1 BIGINT NOT NULL)
CREATE TABLE r2_p (c0 BIGINT NOT NULL, c1 BIGINT NOT NULL)
INSERT INTO r1_e (c0, c1) VALUES (1, 2)
-- p: with-recursive
INSERT INTO r2_p (c0, c1) WITH RECURSIVE w(c0, c1) AS (SELECT a0.c0 AS c0, a0.c1 AS c1 FROM r1_e AS a0 UNION SELECT x.c0, x.c1 FROM w, LATERAL (SELECT a0.c0 AS c0, w.c1 AS c1 FROM r1_e AS a0 WHERE w.c0 = a0.c1 UNION ALL SELECT w.c0 AS c0, a1.c1 AS c1 FROM r1_e AS a1 WHERE a1.c0 = w.c1 AND w.c0 <> a1.c1) AS x) SELECT c0, c1 FROM w
SELECT 'p', c0, c1 FROM r2_p
`},
		{"mutual recursion", sqlMutual, "duckdb", `CREATE TABLE r1_succ (c0 BIGINT NOT NULL, c1 BIGINT NOT NULL)
CREATE TABLE r2_even (c0 BIGINT NOT NULL, rnd BIGINT NOT NULL DEFAULT 0)
CREATE TABLE r3_odd (c0 BIGINT NOT NULL, rnd BIGINT NOT NULL DEFAULT 0)
INSERT INTO r1_succ (c0, c1) VALUES (0, 1)
INSERT INTO r2_even (c0) VALUES (0)
-- even, odd: fixpoint
INSERT INTO r2_even (c0) SELECT a0.c0 AS c0 FROM r1_succ AS a0 WHERE a0.c0 = 10 EXCEPT SELECT c0 FROM r2_even
INSERT INTO r2_even (c0, rnd) SELECT c0, 1 FROM (SELECT a1.c1 AS c0 FROM r3_odd AS a0, r1_succ AS a1 WHERE a0.rnd = 0 AND a1.c0 = a0.c0 AND NOT EXISTS (SELECT 1 FROM r1_succ AS n2 WHERE n2.c0 = a1.c1 AND n2.c1 = 3) EXCEPT SELECT c0 FROM r2_even) AS n
INSERT INTO r3_odd (c0, rnd) SELECT c0, 1 FROM (SELECT a1.c1 AS c0 FROM r2_even AS a0, r1_succ AS a1 WHERE a0.rnd = 0 AND a1.c0 = a0.c0 EXCEPT SELECT c0 FROM r3_odd) AS n
SELECT 1 FROM r2_even WHERE rnd = 1 UNION ALL SELECT 1 FROM r3_odd WHERE rnd = 1 LIMIT 1
SELECT 'odd', c0 FROM r3_odd
`},
		{"non-linear recursion", sqlNonLinear, "postgres", `CREATE TABLE r1_e (c0 TEXT COLLATE "C" NOT NULL, c1 TEXT COLLATE "C" NOT NULL)
CREATE TABLE r2_p (c0 TEXT COLLATE "C" NOT NULL, c1 TEXT COLLATE "C" NOT NULL, rnd BIGINT NOT NULL DEFAULT 0)
-- p: fixpoint
INSERT INTO r2_p (c0, c1) SELECT DISTINCT a0.c0 AS c0, a0.c1 AS c1 FROM r1_e AS a0
INSERT INTO r2_p (c0, c1, rnd) SELECT c0, c1, 1 FROM (SELECT a0.c0 AS c0, a1.c1 AS c1 FROM r2_p AS a0, r2_p AS a1 WHERE a0.rnd = 0 AND a1.c0 = a0.c1 UNION SELECT a0.c0 AS c0, a1.c1 AS c1 FROM r2_p AS a0, r2_p AS a1 WHERE a1.rnd = 0 AND a1.c0 = a0.c1 EXCEPT SELECT c0, c1 FROM r2_p) AS n
SELECT 1 FROM r2_p WHERE rnd = 1 LIMIT 1
SELECT 'p', c0, c1 FROM r2_p
`},
		{"constants and 0-ary relations", sqlConsts, "sqlite", `CREATE TABLE r1_s (c0 TEXT NOT NULL)
CREATE TABLE r2_f (c0 BIGINT NOT NULL)
CREATE TABLE r3_g (c0 BIGINT NOT NULL, c1 TEXT NOT NULL)
INSERT INTO r1_s (c0) VALUES ('it''s')
-- f: insert
INSERT INTO r2_f (c0) SELECT DISTINCT 1 AS c0 FROM r1_s AS a0 WHERE 'a' < 'B'
-- g: insert
INSERT INTO r3_g (c0, c1) SELECT (-9223372036854775807-1) AS c0, 'k' AS c1 FROM r2_f AS a0 WHERE NOT EXISTS (SELECT 1 FROM r1_s AS n1 WHERE n1.c0 = 'x') UNION SELECT 7 AS c0, a0.c0 AS c1 FROM r1_s AS a0, r2_f AS a1 WHERE a0.c0 >= 'a'
SELECT 'f' FROM r2_f
SELECT 'g', c0, c1 FROM r3_g
`},
		{"typed and collated constants", sqlConsts, "postgres", `CREATE TABLE r1_s (c0 TEXT COLLATE "C" NOT NULL)
CREATE TABLE r2_f (c0 BIGINT NOT NULL)
CREATE TABLE r3_g (c0 BIGINT NOT NULL, c1 TEXT COLLATE "C" NOT NULL)
INSERT INTO r1_s (c0) VALUES ('it''s')
-- f: insert
INSERT INTO r2_f (c0) SELECT DISTINCT CAST(1 AS BIGINT) AS c0 FROM r1_s AS a0 WHERE 'a' COLLATE "C" < 'B'
-- g: insert
INSERT INTO r3_g (c0, c1) SELECT CAST((-9223372036854775807-1) AS BIGINT) AS c0, 'k' COLLATE "C" AS c1 FROM r2_f AS a0 WHERE NOT EXISTS (SELECT 1 FROM r1_s AS n1 WHERE n1.c0 = 'x') UNION SELECT CAST(7 AS BIGINT) AS c0, a0.c0 AS c1 FROM r1_s AS a0, r2_f AS a1 WHERE a0.c0 >= 'a'
SELECT 'f' FROM r2_f
SELECT 'g', c0, c1 FROM r3_g
`},
	}
	for _, c := range cases {
		if got := planText(mustTranslateSQL(t, c.src, c.dialect)); got != c.want {
			t.Errorf("%s (%s):\n%s\nwant\n%s", c.name, c.dialect, got, c.want)
		}
	}
}

// TestSQLHow checks which recursion shapes each dialect evaluates with WITH RECURSIVE.
func TestSQLHow(t *testing.T) {
	const decls = ".decl e(x: number, y: number)\n.decl p(x: number, y: number)\n.decl q(x: number, y: number)\n"
	cases := []struct {
		name, rules string
		want        string // how p's stratum is evaluated
	}{
		{"non-recursive", "p(x, y) :- e(x, y), !q(x, y).", sqlInsert},
		{"linear", "p(x, y) :- e(x, y).\np(x, z) :- p(x, y), e(y, z).", sqlRecursive},
		{"linear without a base", "p(x, z) :- p(x, y), e(y, z).", sqlRecursive},
		{"two linear rules", "p(x, y) :- e(x, y).\np(x, z) :- p(x, y), e(y, z).\np(y, x) :- p(x, y).", sqlRecursive},
		{"non-linear", "p(x, y) :- e(x, y).\np(x, z) :- p(x, y), p(y, z).", sqlFixpoint},
		{"mutual", "p(x, y) :- e(x, y).\np(x, y) :- q(x, y).\nq(x, y) :- p(y, x).", sqlFixpoint},
	}
	for _, d := range []string{"sqlite", "duckdb", "postgres"} {
		for _, c := range cases {
			plan := mustTranslateSQL(t, decls+c.rules+"\n", d)
			got := "none"
			for _, st := range plan.strata {
				if slices.Contains(st.rels, "p") {
					got = st.how
				}
			}
			if got != c.want {
				t.Errorf("%s on %s: p is evaluated by %s, want %s", c.name, d, got, c.want)
			}
		}
	}
}

func TestSQLUnsupported(t *testing.T) {
	cases := []struct {
		src, dialect, feature string
	}{
		{".decl s(x: symbol)\ns(\"a\x00\").\n", "sqlite", "nul-in-symbol"},
		{".decl s(x: symbol)\n.decl t(x: symbol)\nt(x) :- s(x), x != \"\x00\".\n", "postgres", "nul-in-symbol"},
		{".decl s(x: symbol)\n.decl t(x: symbol)\nt(x) :- s(x), !s(\"\xff\").\n", "duckdb", "non-utf8-symbol"},
		{".decl s(x: symbol)\ns(\"\xc3\").\n", "postgres", "non-utf8-symbol"},
		{".decl s(x: symbol)\ns(\"\xc3\").\n", "sqlite", ""},
		{".decl s(x: symbol)\ns(\"é\").\n", "postgres", ""},
	}
	for _, c := range cases {
		p, err := Parse("t.dl", c.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = translateSQL(p, sqlDialects[c.dialect])
		var u *Unsupported
		switch {
		case c.feature == "" && err != nil:
			t.Errorf("%q on %s: %v", c.src, c.dialect, err)
		case c.feature != "" && (!errors.As(err, &u) || u.Feature != c.feature || u.Engine != c.dialect):
			t.Errorf("%q on %s: error %v, want %s cannot express %s", c.src, c.dialect, err, c.dialect, c.feature)
		}
	}
}

func TestSQLFacts(t *testing.T) {
	var b strings.Builder
	b.WriteString(".decl n(x: number)\n.decl u()\nu().\nu().\n")
	for i := range factsPerInsert + 2 {
		b.WriteString("n(" + strings.Repeat("1", i%3+1) + ").\nn(" + strconv.Itoa(i) + ").\n")
	}
	plan := mustTranslateSQL(t, b.String(), "sqlite")
	var inserts []string
	for _, s := range plan.setup {
		if strings.HasPrefix(s, "INSERT") {
			inserts = append(inserts, s)
		}
	}
	// n has 258 distinct facts (1, 11 and 111 are among 0..257), in two INSERTs; u one.
	if len(inserts) != 3 || strings.Count(inserts[0], "(") != factsPerInsert+1 || strings.Count(inserts[1], "(") != 3 ||
		inserts[2] != "INSERT INTO r2_u (c0) VALUES (1)" {
		t.Errorf("fact inserts:\n%s", strings.Join(inserts, "\n"))
	}
}

func TestSQLMaxRounds(t *testing.T) {
	cases := []struct {
		src  string
		want int
	}{
		// 3 numbers: p holds at most 9 tuples, so 10 rounds.
		{".decl e(x: number, y: number)\n.decl p(x: number, y: number)\ne(1, 2). e(2, 3). e(3, 3).\n" +
			"p(x, y) :- e(x, y).\np(x, z) :- p(x, y), p(y, z).\n", 10},
		// 2 numbers and 1 symbol, two relations: 2*1 + 1 tuples.
		{".decl e(x: number, y: symbol)\n.decl p(x: number, y: symbol)\n.decl q(x: symbol)\ne(1, \"a\"). e(2, \"a\").\n" +
			"p(x, y) :- e(x, y), q(y).\nq(y) :- p(_, y).\n", 4},
		// no constants: nothing to derive.
		{".decl p(x: number)\n.decl q(x: number)\np(x) :- q(x).\nq(x) :- p(x).\n", 1},
	}
	for _, c := range cases {
		plan := mustTranslateSQL(t, c.src, "sqlite")
		if n := len(plan.strata); n == 0 || plan.strata[n-1].maxRounds != c.want {
			t.Errorf("%q: strata %+v, want the last bounded by %d rounds", c.src, plan.strata, c.want)
		}
	}
}
