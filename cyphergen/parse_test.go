package cyphergen

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

func plit(v cypherval.Val) *Lit { return &Lit{v} }
func pint(i int64) *Lit         { return plit(cypherval.IntVal(i)) }
func pfloat(f float64) *Lit     { return plit(cypherval.FloatVal(f)) }
func pstr(s string) *Lit        { return plit(cypherval.StringVal(s)) }
func pvar(name string) *Var     { return &Var{name} }
func pprop(x Expr, k string) *Property {
	return &Property{X: x, Key: k}
}
func pbin(op string, l, r Expr) *Binary { return &Binary{Op: op, L: l, R: r} }

// pret returns RETURN e0 AS c0, e1 AS c1, ...
func pret(es ...Expr) *Query {
	var items []Item
	for i, e := range es {
		items = append(items, Item{Expr: e, Alias: "c" + string(rune('0'+i))})
	}
	return &Query{Parts: []*SingleQuery{{Clauses: []Clause{&Return{Projection: Projection{Items: items}}}}}}
}

func psingle(cs ...Clause) *Query { return &Query{Parts: []*SingleQuery{{Clauses: cs}}} }

func TestParseRoundTrip(t *testing.T) {
	two, minus := int64(2), int64(-1)
	n0, r0 := pvar("n0"), pvar("r0")
	retN0 := &Return{Projection: Projection{Items: []Item{{Expr: n0}}}}
	tests := []struct {
		name string
		q    *Query
		same bool // the parsed AST equals q, not only its text
	}{
		{"literals", pret(plit(cypherval.NullVal), plit(cypherval.BoolVal(true)), plit(cypherval.BoolVal(false)),
			pint(0), pint(-3), pint(math.MaxInt64), pint(-math.MaxInt64)), true},
		{"floats", pret(pfloat(1.5), pfloat(-0.25), pfloat(2), pfloat(2e21), pfloat(1e-5), pfloat(-1.5e-7), pfloat(123456.75), pfloat(math.MaxFloat64)), true},
		{"strings", pret(pstr("it's"), pstr(`a\b"c`), pstr("\n\r\t\b\f\x01\x7f"), pstr("é日本"), pstr("")), true},
		{"special floats", pret(pfloat(math.NaN()), pfloat(math.Inf(1)), pfloat(math.Inf(-1)), pfloat(math.Copysign(0, -1))), false},
		{"least integer", pret(pint(math.MinInt64)), false},
		{"list literal", pret(plit(cypherval.ListVal(cypherval.IntVal(1), cypherval.StringVal("x")))), false},
		{"variables", pret(pvar("x"), pvar("a b"), pvar("a`b"), pvar("_x1"), pvar("count")), true},
		{"property", pret(pprop(n0, "k1"), pprop(pprop(n0, "k1"), "k2"), pprop(n0, "a key"), pprop(n0, "end"),
			pprop(&Call{Name: "f", Args: []Expr{n0}}, "k")), true},
		{"unary", pret(&Unary{"NOT", n0}, &Unary{"-", n0}, &Unary{"-", pint(3)}, &Unary{"-", pint(-3)},
			&Unary{"-", pfloat(0.5)}, &Unary{"-", &Unary{"-", n0}}, &Unary{"NOT", &Unary{"NOT", n0}}), true},
		{"negated chains", pret(&Unary{"-", pprop(pint(3), "k")}, pprop(pint(-3), "k"), &Index{pint(-3), pint(0)},
			&Unary{"-", &Index{pfloat(2), pint(0)}}, &HasLabels{pint(-3), []string{"L"}}, &Unary{"-", &HasLabels{pint(3), []string{"L"}}},
			&Unary{"-", pfloat(math.Inf(1))}, &Unary{"-", pint(0)}, pbin("-", pint(-3), pint(1))), true},
		{"negated least integer", pret(&Unary{"-", pint(math.MinInt64)}), false},
		{"is null", pret(&IsNull{X: n0}, &IsNull{X: pprop(n0, "k"), Not: true}), true},
		{"binary", pret(pbin("AND", n0, r0), pbin("OR", n0, r0), pbin("XOR", n0, r0), pbin("=", n0, r0), pbin("<>", n0, r0),
			pbin("<", n0, r0), pbin("<=", n0, r0), pbin(">", n0, r0), pbin(">=", n0, r0), pbin("+", n0, r0), pbin("-", n0, r0),
			pbin("*", n0, r0), pbin("/", n0, r0), pbin("%", n0, r0), pbin("IN", n0, r0), pbin("STARTS WITH", n0, r0),
			pbin("ENDS WITH", n0, r0), pbin("CONTAINS", n0, r0), pbin("-", n0, pint(-1)), pbin("/", pfloat(1), pfloat(0))), true},
		{"nested binary", pret(pbin("AND", pbin("OR", n0, pbin("=", pint(1), &Unary{"NOT", r0})), &IsNull{X: pbin("+", n0, r0)})), true},
		{"calls", pret(&Call{Name: "count", Star: true}, &Call{Name: "count", Args: []Expr{n0}, Distinct: true},
			&Call{Name: "rand"}, &Call{Name: "toUpper", Args: []Expr{pstr("x")}}, &Call{Name: "coalesce", Args: []Expr{n0, r0, pint(1)}},
			&Call{Name: "COUNT", Star: true}, &Call{Name: "a.b.c", Args: []Expr{n0}}), true},
		{"case", pret(&Case{Whens: []When{{n0, pint(1)}}},
			&Case{Test: pprop(n0, "k"), Whens: []When{{pint(1), pstr("a")}, {pint(2), pstr("b")}}, Else: plit(cypherval.NullVal)},
			&Case{Whens: []When{{&Case{Whens: []When{{n0, r0}}}, r0}}, Else: &Case{Test: n0, Whens: []When{{r0, n0}}}}), true},
		{"lists", pret(&ListExpr{}, &ListExpr{[]Expr{pint(1), &ListExpr{[]Expr{n0}}, pstr("x")}}), true},
		{"index", pret(&Index{n0, pint(0)}, &Index{&Index{&ListExpr{[]Expr{n0}}, pint(-1)}, pbin("+", n0, pint(1))},
			&Index{pbin("+", n0, r0), pint(0)}, pprop(&Index{n0, pint(0)}, "k")), true},
		{"labels", pret(&HasLabels{n0, []string{"L1"}}, &HasLabels{n0, []string{"L1", "L 2", "MATCH"}},
			&HasLabels{pprop(n0, "k"), []string{"L"}}, &Unary{"NOT", &HasLabels{n0, []string{"L1"}}}), true},
		{"patterns", psingle(&Match{Patterns: []Pattern{
			{Nodes: []NodePat{{}}},
			{Nodes: []NodePat{{Var: "n0", Labels: []string{"L1", "L2"}, Props: []PropEq{{"id", pint(0)}, {"k 1", pstr("x")}}}}},
			{Nodes: []NodePat{{Var: "a"}, {Labels: []string{"L0"}}, {Var: "c"}, {}}, Rels: []RelPat{
				{Var: "r0", Types: []string{"T1", "T2"}, Dir: Out, Props: []PropEq{{"k", pfloat(1)}}},
				{Dir: In}, {Types: []string{"T3"}, Dir: Both}}},
		}}, retN0), true},
		{"clauses", psingle(
			&Match{Patterns: []Pattern{{Nodes: []NodePat{{Var: "n0"}}}}, Where: pbin(">", pprop(n0, "k"), pint(1))},
			&Match{Optional: true, Patterns: []Pattern{{Nodes: []NodePat{{Var: "n0"}, {Var: "n1"}}, Rels: []RelPat{{Var: "r0", Dir: Both}}}}},
			&With{Projection: Projection{Distinct: true, Items: []Item{{Expr: n0}, {Expr: &Call{Name: "count", Star: true}, Alias: "a0"}},
				Order: []SortItem{{pprop(n0, "id"), true}, {pvar("a0"), false}}, Skip: &two, Limit: &minus}, Where: &IsNull{X: pvar("a0")}},
			&Unwind{List: &ListExpr{[]Expr{pint(1), pint(2)}}, Var: "u0"},
			&With{Projection: Projection{Items: []Item{{Expr: pprop(n0, "k"), Alias: "k"}, {Expr: pvar("u0")}}}},
			&Return{Projection: Projection{Items: []Item{{Expr: pvar("k"), Alias: "the k"}}, Order: []SortItem{{pvar("k"), false}}, Limit: &two}},
		), true},
		{"self alias", psingle(&Return{Projection: Projection{Items: []Item{{Expr: n0, Alias: "n0"}}}}), false},
		{"unions", &Query{Parts: []*SingleQuery{{Clauses: []Clause{retN0}}, {Clauses: []Clause{retN0}}, {Clauses: []Clause{retN0}}},
			All: []bool{true, false}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tt.q.String()
			got, err := ParseQuery(text)
			if err != nil {
				t.Fatalf("ParseQuery(%s): %v", text, err)
			}
			if s := got.String(); s != text {
				t.Errorf("round trip changed the text:\n got %s\nwant %s", s, text)
			}
			if tt.same && !reflect.DeepEqual(got, tt.q) {
				t.Errorf("round trip changed the AST of %s", text)
			}
		})
	}
}

func TestParseHandWritten(t *testing.T) {
	tests := []struct{ in, want string }{
		// precedence
		{"RETURN a OR b AND NOT c = 1", "RETURN (a OR (b AND (NOT (c = 1))))"},
		{"RETURN a OR b XOR c AND d", "RETURN (a OR (b XOR (c AND d)))"},
		{"RETURN a AND b OR c XOR d", "RETURN ((a AND b) OR (c XOR d))"},
		{"RETURN a OR b OR c", "RETURN ((a OR b) OR c)"},
		{"RETURN NOT NOT a", "RETURN (NOT (NOT a))"},
		{"RETURN 1 + 2 * 3 - 4 % 5 / 6", "RETURN ((1 + (2 * 3)) - ((4 % 5) / 6))"},
		{"RETURN a - b - c", "RETURN ((a - b) - c)"},
		{"RETURN a + b = c * d", "RETURN ((a + b) = (c * d))"},
		{"RETURN a = b IS NULL", "RETURN (a = (b IS NULL))"},
		{"RETURN x IN [1,2] = true", "RETURN ((x IN [1, 2]) = true)"},
		{"RETURN a + b IN c", "RETURN ((a + b) IN c)"},
		{"RETURN s STARTS WITH 'a' + 'b' AND s ends with \"c\" or s Contains 'd'",
			"RETURN (((s STARTS WITH ('a' + 'b')) AND (s ENDS WITH 'c')) OR (s CONTAINS 'd'))"},
		{"RETURN x.k IS NOT NULL IS NULL", "RETURN ((x.k IS NOT NULL) IS NULL)"},
		{"RETURN n:A:B AND true", "RETURN ((n:A:B) AND true)"},
		{"RETURN -x.k * 2", "RETURN ((-x.k) * 2)"},
		{"RETURN -x[0].k", "RETURN (-x[0].k)"},
		{"RETURN - - x", "RETURN (-(-x))"},
		{"RETURN NOT a = b", "RETURN (NOT (a = b))"},
		// negative literals
		{"RETURN -3, - 3, 2 - 3, 2-3, 2 -3, 2 - -3, -3 * 2, -.5", "RETURN -3, (-3), (2 - 3), (2 - 3), (2 - 3), (2 - -3), (-3 * 2), -0.5"},
		{"RETURN -9223372036854775808, (-3), (-3 + 1)", "RETURN (-9223372036854775807 - 1), (-3), (-3 + 1)"},
		// literals
		{"RETURN .5, 1e-5, 1E5, 1.5e+3, 0, 1.0, \"a\\tb'c\", '\\u00e9\\uD83D\\uDE00', TRUE, False, NULL",
			"RETURN 0.5, 1.0e-5, 100000.0, 1500.0, 0, 1.0, 'a\\tb\\'c', 'é😀', true, false, null"},
		{"RETURN (1.0/0.0), (1.0 / 0.0), f(1.0/0.0)", "RETURN (1.0/0.0), (1.0 / 0.0), f((1.0 / 0.0))"},
		// clauses, keywords in any case, comments, a trailing ';'
		{"match (n:L) // comment\nwhere n.k > 1 /* block\ncomment */ return distinct n.k as k order by k asc, n.id descending skip 1 limit 2;",
			"MATCH (n:L) WHERE (n.k > 1) RETURN DISTINCT n.k AS k ORDER BY k, n.id DESC SKIP 1 LIMIT 2"},
		{"MATCH (a)-->(b)<--(c)--(d)<-->(e), (f) RETURN a", "MATCH (a)-[]->(b)<-[]-(c)-[]-(d)-[]-(e), (f) RETURN a"},
		{"MATCH (a)-[r:T1|:T2 {k: 1}]->(b) RETURN r", "MATCH (a)-[r:T1|T2 {k: 1}]->(b) RETURN r"},
		{"MATCH (`my node`:`a``b` {`k`: 1}) RETURN `my node`", "MATCH (`my node`:`a``b` {k: 1}) RETURN `my node`"},
		{"unwind [1, 2] as x with x where x > 1 return x union all return 1 as x union return 2 as x",
			"UNWIND [1, 2] AS x WITH x WHERE (x > 1) RETURN x UNION ALL RETURN 1 AS x UNION RETURN 2 AS x"},
		{"RETURN Count ( * ), count(DISTINCT x), CASE x WHEN 1 THEN 'a' END, case when x then 1 else 2 end",
			"RETURN Count(*), count(DISTINCT x), CASE x WHEN 1 THEN 'a' END, CASE WHEN x THEN 1 ELSE 2 END"},
	}
	for _, tt := range tests {
		q, err := ParseQuery(tt.in)
		if err != nil {
			t.Errorf("ParseQuery(%q): %v", tt.in, err)
			continue
		}
		if got := q.String(); got != tt.want {
			t.Errorf("ParseQuery(%q):\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"MATCH (n0:L1:L2 WHERE n0.k = 1) RETURN n0", "1:17: expected ')' after pattern, found 'WHERE'"},
		{"MATCH (n)\nRETURN n.k +", "2:13: expected an expression, found end of input"},
		{"MATCH (n)", "1:10: expected MATCH, OPTIONAL MATCH, UNWIND, WITH or RETURN (a query ends with RETURN), found end of input"},
		{"", "1:1: expected MATCH, OPTIONAL MATCH, UNWIND, WITH or RETURN (a query ends with RETURN), found end of input"},
		{"RETURN 1 RETURN 2", "1:10: expected end of input after RETURN, found 'RETURN'"},
		{"RETURN (1", "1:10: expected ')' to close '(', found end of input"},
		{"RETURN [1 2]", "1:11: expected ',' between list elements, found '2'"},
		{"RETURN f(1 2)", "1:12: expected ',' between function arguments, found '2'"},
		{"RETURN CASE END", "1:13: expected WHEN in CASE, found 'END'"},
		{"RETURN CASE WHEN a THEN b", "1:26: expected END to close CASE, found end of input"},
		{"RETURN x IS NOT 1", "1:17: expected NULL after IS, found '1'"},
		{"OPTIONAL RETURN 1", "1:10: expected MATCH after OPTIONAL, found 'RETURN'"},
		{"RETURN 'abc", "1:8: unterminated string literal"},
		{"RETURN 'a\\qb'", "1:10: invalid escape sequence in string literal"},
		{"RETURN `abc", "1:8: unterminated backquoted identifier"},
		{"RETURN 1 /* x", "1:10: unterminated comment"},
		{"RETURN 1 # x", "1:10: unexpected character '#'"},
		{"RETURN 12abc", "1:8: malformed number \"12a\""},
		{"RETURN 9223372036854775808", "1:8: integer literal 9223372036854775808 out of range"},
		{"RETURN 1e999", "1:8: float literal 1e999 out of range"},
		{"RETURN 007", "1:8: unsupported: integer literal with a leading zero"},
		{"RETURN WHERE", "1:8: expected an expression, found 'WHERE'"},
		{"RETURN x AS", "1:12: expected a name after AS, found end of input"},
		{"RETURN x SKIP 1.5", "1:15: unsupported: SKIP takes an integer literal only"},
		// unsupported
		{"MATCH (n) FOREACH (x IN [1] | SET n.k = x) RETURN n", "1:11: unsupported: FOREACH in a query"},
		{"MATCH (n) merge (m) ON CREATE SET m.k = 1 RETURN n", "1:21: unsupported: ON CREATE and ON MATCH"},
		{"MATCH (n) SET n = {k: 1} RETURN n", "1:17: unsupported: SET of a whole property map"},
		{"MATCH (n) SET n += m RETURN n", "1:20: unsupported: SET += of anything but a map literal"},
		{"MATCH (n) DETACH n RETURN 1", "1:18: expected DELETE after DETACH, found 'n'"},
		{"MATCH (n) DELETE n MATCH (m)", "1:29: expected MATCH, OPTIONAL MATCH, UNWIND, WITH or RETURN (a query ends with RETURN), found end of input"},
		{"MATCH (n $props) RETURN n", "1:10: unsupported: parameters"},
		{"RETURN $x", "1:8: unsupported: parameters"},
		{"RETURN a != b", "1:10: unsupported: '!=' (write '<>')"},
		{"RETURN a =~ 'x'", "1:10: unsupported: regular expression match '=~'"},
		{"RETURN a < b < c", "1:14: unsupported: chained comparison (write a < b AND b < c)"},
		{"RETURN 2 ^ 3", "1:10: unsupported: power operator '^'"},
		{"RETURN x[1..2]", "1:11: unsupported: list slicing"},
		{"MATCH (a) WHERE EXISTS { MATCH (a) RETURN a } RETURN a", "1:36: unsupported: subquery with clauses other than one MATCH"},
		{"MATCH (n) RETURN n.k{.a}", "1:21: unsupported: map projection of an expression other than a variable"},
		{"RETURN *", "1:8: unsupported: '*' projection"},
		{"RETURN sum(*)", "1:12: expected an expression, found '*' (only count takes *)"},
	}
	for _, tt := range tests {
		q, err := ParseQuery(tt.in)
		var se *SyntaxError
		switch {
		case err == nil:
			t.Errorf("ParseQuery(%q) = %s, want error %q", tt.in, q, tt.want)
		case !errors.As(err, &se):
			t.Errorf("ParseQuery(%q): error %T, want *SyntaxError", tt.in, err)
		case err.Error() != tt.want:
			t.Errorf("ParseQuery(%q):\n got error %s\nwant error %s", tt.in, err, tt.want)
		}
	}
}

// FuzzParseQuery checks that whatever parses prints to text that parses back to the same text,
// and that failures are syntax errors.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"MATCH (n0:L1)-[r:T1|T2 {k: 1}]->(n1)<-[]-() WHERE n0.k = 1 AND NOT n1:L2 RETURN n0, count(*) AS c ORDER BY c DESC LIMIT 3",
		"UNWIND [1, -2.5, 'x', null, true] AS u WITH DISTINCT u SKIP 1 RETURN CASE u WHEN 1 THEN -u ELSE u[0] END AS c",
		"RETURN (-3), -3.k, (1.0/0.0), (-9223372036854775807 - 1), 'a\\'b' STARTS WITH \"a\" UNION ALL RETURN 1",
		"OPTIONAL MATCH (a)--(b) RETURN a.k IS NULL, a.k IN [1], x OR y XOR z, 1 + 2 * 3 % 4 / 5 - -6",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuery(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseQuery(%q): error %T, want *SyntaxError", s, err)
			}
			return
		}
		text := q.String()
		q2, err := ParseQuery(text)
		if err != nil {
			t.Fatalf("ParseQuery(%q) printed %q, which does not parse: %v", s, text, err)
		}
		if text2 := q2.String(); text2 != text && !strings.Contains(text, "<?>") {
			t.Fatalf("ParseQuery(%q) printed\n%s\nwhich reprints as\n%s", s, text, text2)
		}
	})
}
