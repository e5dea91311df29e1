package cyphergen

import (
	"errors"
	"math"
	"testing"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// parseExpr parses a Cypher expression through RETURN.
func parseExpr(t *testing.T, text string) Expr {
	t.Helper()
	q, err := ParseQuery("RETURN " + text + " AS v")
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	return q.Parts[0].Clauses[0].(*Return).Items[0].Expr
}

// testRow binds n (a node :L0:L1 {id: 0, k: 'x', i: 7}), m (the node with id 1), r (a
// relationship :T0 {id: 2, w: 1.5}), mp (a map) and nul (null).
func testRow() map[string]cypherval.Val {
	g := &Graph{
		Nodes: []Node{
			{ID: 0, Labels: []string{"L1", "L0"}, Props: Props{{"id", IntValue(0)}, {"k", StringValue("x")}, {"i", IntValue(7)}}},
			{ID: 1, Props: Props{{"id", IntValue(1)}}},
		},
		Rels: []Rel{{ID: 2, Type: "T0", From: 0, To: 1, Props: Props{{"id", IntValue(2)}, {"w", FloatValue(1.5)}}}},
	}
	return map[string]cypherval.Val{
		"n": g.NodeVal(0), "m": g.NodeVal(1), "r": g.RelVal(0), "nul": cypherval.NullVal,
		"mp": {Kind: cypherval.Map, M: map[string]cypherval.Val{"a": cypherval.IntVal(1), "b": cypherval.NullVal}},
	}
}

// errCode returns the code of an EvalError, "" for nil, and "other" for another error.
func errCode(err error) string {
	if err == nil {
		return ""
	}
	var ee *EvalError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return "other"
}

type exprCase struct {
	expr string
	want string // the canonical value, or "!code" for an EvalError of that code
}

func runExprCases(t *testing.T, cases []exprCase) {
	t.Helper()
	row := testRow()
	for _, c := range cases {
		v, err := EvalExpr(parseExpr(t, c.expr), row)
		got := v.Canon()
		if err != nil {
			got = "!" + errCode(err)
		}
		if got != c.want {
			t.Errorf("%s = %s (err %v), want %s", c.expr, got, err, c.want)
		}
	}
}

func TestEvalLogic(t *testing.T) {
	runExprCases(t, []exprCase{
		{"true AND true", "B:true"}, {"true AND false", "B:false"}, {"true AND null", "NULL"},
		{"false AND null", "B:false"}, {"null AND false", "B:false"}, {"null AND null", "NULL"},
		{"true OR null", "B:true"}, {"false OR null", "NULL"}, {"false OR false", "B:false"},
		{"null OR true", "B:true"}, {"null OR null", "NULL"},
		{"true XOR true", "B:false"}, {"true XOR false", "B:true"}, {"null XOR true", "NULL"},
		{"NOT true", "B:false"}, {"NOT null", "NULL"}, {"NOT 1", "!type"},
		{"1 AND true", "!type"}, {"false OR 'a'", "!type"}, {"1 XOR false", "!type"},
		// The other operand decides, and an engine may never evaluate the bad one.
		{"false AND 1", "!unsupported"}, {"true OR (1 / 0 = 1)", "!unsupported"},
		{"null AND 1", "!type"}, {"true AND (1 / 0 = 1)", "!division-by-zero"},
	})
}

func TestEvalComparison(t *testing.T) {
	runExprCases(t, []exprCase{
		{"1 = 1.0", "B:true"}, {"1 <> 1.0", "B:false"}, {"1 = 'a'", "B:false"}, {"1 <> 'a'", "B:true"},
		{"null = null", "NULL"}, {"1 <> null", "NULL"}, {"true = true", "B:true"},
		{"[1, 2] = [1, 2.0]", "B:true"}, {"[1, null] = [1, null]", "NULL"}, {"[1, null] = [2, null]", "B:false"},
		{"[1] = [1, 2]", "B:false"}, {"[1] = 1", "B:false"},
		{"mp = mp", "NULL"}, {"n = n", "B:true"}, {"n = m", "B:false"}, {"n <> m", "B:true"}, {"r = r", "B:true"},
		{"n = r", "!unsupported"},
		{"1 < 2", "B:true"}, {"2 <= 1.5", "B:false"}, {"1.5 > 1", "B:true"}, {"1 >= 1.0", "B:true"},
		{"'a' < 'b'", "B:true"}, {"'B' < 'a'", "B:true"}, {"'ab' > 'a'", "B:true"}, {"false < true", "B:true"},
		{"1 < 'a'", "NULL"}, {"true < 1", "NULL"}, {"null < 1", "NULL"}, {"1 >= null", "NULL"},
		{"(0.0 / 0.0) < 1", "B:false"}, {"(0.0 / 0.0) >= (0.0 / 0.0)", "B:false"}, {"(0.0 / 0.0) = (0.0 / 0.0)", "B:false"},
		{"9007199254740993 = 9007199254740992.0", "B:false"}, {"9007199254740993 > 9007199254740992.0", "B:true"},
		{"[1] < [2]", "!unsupported"},
	})
}

func TestEvalArithmetic(t *testing.T) {
	runExprCases(t, []exprCase{
		{"1 + 2", "i:3"}, {"1 + 2.5", "r:3.5"}, {"7 / 2", "i:3"}, {"-7 / 2", "i:-3"}, {"7 / 2.0", "r:3.5"},
		{"-7 % 3", "i:-1"}, {"7 % -3", "i:1"}, {"7.5 % 2", "r:1.5"}, {"-7.5 % 2", "r:-1.5"},
		{"1 / 0", "!division-by-zero"}, {"1 % 0", "!division-by-zero"},
		{"1 / 0.0", "r:+Inf"}, {"-1 / 0.0", "r:-Inf"}, {"0.0 / 0", "r:NaN"},
		{"9223372036854775807 + 1", "!overflow"}, {"-9223372036854775807 - 2", "!overflow"},
		{"4611686018427387904 * 2", "!overflow"}, {"-4611686018427387904 * 2", "i:-9223372036854775808"},
		{"-(-9223372036854775807 - 1)", "!overflow"}, {"-(9223372036854775807)", "i:-9223372036854775807"},
		{"(-9223372036854775807 - 1) % -1", "i:0"}, {"(-9223372036854775807 - 1) / -1", "!unsupported"},
		{"9223372036854775807 + 1.0", "r:9.22337203685478e+18"},
		{"1 + null", "NULL"}, {"null * 2", "NULL"}, {"-null", "NULL"}, {"-'a'", "!type"},
		{"1 - 'a'", "!type"}, {"true + 1", "!type"}, {"'a' * 2", "!type"},
		{"'a' + 'b'", "t:ab"}, {"'a' + 1", "t:a1"}, {"1 + 'a'", "t:1a"}, {"'a' + 1.5", "!unsupported"},
		{"'a' + null", "NULL"}, {"[1] + [2, 3]", "l:[i:1, i:2, i:3]"}, {"[1] + 2", "l:[i:1, i:2]"},
		{"0 + [1]", "l:[i:0, i:1]"}, {"'a' + [1]", "l:[t:a, i:1]"}, {"[1] + null", "NULL"},
		{"[1] - [1]", "!type"},
	})
}

func TestEvalStringsListsCase(t *testing.T) {
	runExprCases(t, []exprCase{
		{"'abc' STARTS WITH 'ab'", "B:true"}, {"'abc' ENDS WITH 'bc'", "B:true"}, {"'abc' CONTAINS 'd'", "B:false"},
		{"'abc' CONTAINS null", "NULL"}, {"1 STARTS WITH 'a'", "NULL"}, {"'abc' ENDS WITH ''", "B:true"},
		{"1 IN [1, null]", "B:true"}, {"2 IN [1, null]", "NULL"}, {"2 IN [1, 3]", "B:false"},
		{"null IN []", "B:false"}, {"null IN [1]", "NULL"}, {"1 IN null", "NULL"}, {"1 IN 1", "!type"},
		{"[1] IN [[1], 2]", "B:true"}, {"[null] IN [[1]]", "NULL"}, {"1.0 IN [1]", "B:true"},
		{"null IS NULL", "B:true"}, {"1 IS NOT NULL", "B:true"}, {"nul.x IS NULL", "B:true"},
		{"[10, 20, 30][0]", "i:10"}, {"[10, 20, 30][-1]", "i:30"}, {"[10, 20, 30][3]", "NULL"},
		{"[10, 20, 30][-4]", "NULL"}, {"[10][null]", "NULL"}, {"[10][1.0]", "!type"}, {"nul[0]", "NULL"},
		{"mp['a']", "i:1"}, {"mp[1]", "!type"}, {"'abc'[0]", "!type"},
		{"CASE 1 WHEN 1.0 THEN 'a' ELSE 'b' END", "t:a"}, {"CASE null WHEN null THEN 'a' END", "NULL"},
		{"CASE WHEN null THEN 1 WHEN 2 > 1 THEN 2 END", "i:2"}, {"CASE WHEN false THEN 1 END", "NULL"},
		{"CASE 2 WHEN 1 THEN 1 ELSE 3 END", "i:3"}, {"CASE WHEN 1 THEN 1 END", "!unsupported"},
	})
}

func TestEvalElements(t *testing.T) {
	runExprCases(t, []exprCase{
		{"n.k", "t:x"}, {"n.missing", "NULL"}, {"nul.k", "NULL"}, {"r.w", "r:1.5"}, {"mp.a", "i:1"},
		{"mp.b", "NULL"}, {"(1).k", "!type"}, {"'s'.k", "!type"},
		{"n:L0", "B:true"}, {"n:L0:L1", "B:true"}, {"n:L2", "B:false"}, {"nul:L0", "NULL"}, {"m:L0", "B:false"},
		{"labels(n)", "l:[t:L0, t:L1]"}, {"labels(m)", "l:[]"}, {"labels(nul)", "NULL"}, {"labels(r)", "!type"},
		{"type(r)", "t:T0"}, {"type(n)", "!type"}, {"keys(n)", "l:[t:i, t:id, t:k]"}, {"keys(mp)", "l:[t:a, t:b]"},
		{"properties(r)", "m:{id: i:2, w: r:1.5}"}, {"keys(1)", "!type"}, {"properties(nul)", "NULL"},
		{"x", "!semantic"}, {"count(n)", "!semantic"}, {"nosuchfunction(1)", "!unsupported"},
		{"id(n)", "!unsupported"},
	})
}

func TestEvalFunctions(t *testing.T) {
	runExprCases(t, []exprCase{
		{"toUpper('aB1')", "t:AB1"}, {"TOLOWER('aB1')", "t:ab1"}, {"toUpper(null)", "NULL"}, {"toUpper(1)", "!type"},
		{"toUpper('é')", "!unsupported"},
		{"trim('  a b ')", "t:a b"}, {"ltrim('  a ')", "t:a "}, {"rtrim('  a ')", "t:  a"},
		{"reverse('abc')", "t:cba"}, {"reverse([1, 2])", "l:[i:2, i:1]"}, {"reverse(null)", "NULL"},
		{"size('abc')", "i:3"}, {"size([1, null])", "i:2"}, {"size(null)", "NULL"}, {"size(1)", "!type"},
		{"substring('abcdef', 2)", "t:cdef"}, {"substring('abcdef', 2, 3)", "t:cde"}, {"substring('abc', 5)", "t:"},
		{"substring('abc', 1, 10)", "t:bc"}, {"substring('abc', -1)", "!argument"}, {"substring('abc', 0, -1)", "!argument"},
		{"substring(null, 1)", "NULL"}, {"substring(1, 1)", "!type"},
		{"left('abc', 2)", "t:ab"}, {"left('abc', 9)", "t:abc"}, {"right('abc', 2)", "t:bc"}, {"right('abc', -1)", "!argument"},
		{"replace('abab', 'a', 'x')", "t:xbxb"}, {"replace('ab', '', '-')", "t:-a-b-"}, {"replace(null, 'a', 'b')", "NULL"},
		{"split('a,b,,c,', ',')", "l:[t:a, t:b, t:, t:c, t:]"}, {"split('abc', '')", "!unsupported"}, {"split('a', null)", "NULL"},
		{"toString(12)", "t:12"}, {"toString(true)", "t:true"}, {"toString('s')", "t:s"}, {"toString(1.5)", "!unsupported"},
		{"toString(null)", "NULL"},
		{"toInteger('42')", "i:42"}, {"toInteger('-7')", "i:-7"}, {"toInteger('abc')", "NULL"}, {"toInteger('4.5')", "!unsupported"},
		{"toInteger(3.9)", "i:3"}, {"toInteger(-3.9)", "i:-3"}, {"toInteger(true)", "i:1"}, {"toInteger(null)", "NULL"},
		{"toInteger('99999999999999999999')", "!unsupported"},
		{"toFloat(2)", "r:2"}, {"toFloat('2.5')", "r:2.5"}, {"toFloat('x')", "NULL"}, {"toFloat('1e3')", "r:1000"},
		{"toBoolean('TRUE')", "B:true"}, {"toBoolean('false')", "B:false"}, {"toBoolean('yes')", "NULL"},
		{"toBoolean(' true')", "!unsupported"}, {"toBoolean(false)", "B:false"}, {"toBoolean(null)", "NULL"},
		{"abs(-3)", "i:3"}, {"abs(-2.5)", "r:2.5"}, {"abs(null)", "NULL"}, {"abs('a')", "!type"},
		{"sign(-3)", "i:-1"}, {"sign(0)", "i:0"}, {"sign(2.5)", "i:1"}, {"sign(-0.5)", "i:-1"},
		{"coalesce(null, 1, 2)", "i:1"}, {"coalesce(null, null)", "NULL"},
		{"head([1, 2])", "i:1"}, {"head([])", "NULL"}, {"last([1, 2])", "i:2"}, {"tail([1, 2])", "l:[i:2]"},
		{"tail([])", "l:[]"}, {"head(null)", "NULL"}, {"head(1)", "!type"},
		{"range(1, 4)", "l:[i:1, i:2, i:3, i:4]"}, {"range(4, 1)", "l:[]"}, {"range(0, 10, 3)", "l:[i:0, i:3, i:6, i:9]"},
		{"range(5, 1, -2)", "l:[i:5, i:3, i:1]"}, {"range(1, 2, 0)", "!argument"},
		{"range(9223372036854775806, 9223372036854775807)", "l:[i:9223372036854775806, i:9223372036854775807]"},
		{"size(collect(1))", "!semantic"},
	})
}

func TestTruth(t *testing.T) {
	row := testRow()
	for _, c := range []struct {
		expr string
		want Tri
		code string
	}{
		{"1 < 2", True, ""}, {"1 > 2", False, ""}, {"null = 1", Unknown, ""}, {"n.missing", Unknown, ""},
		{"1", Unknown, CodeType}, {"'true'", Unknown, CodeType},
	} {
		got, err := Truth(parseExpr(t, c.expr), row)
		if got != c.want || errCode(err) != c.code {
			t.Errorf("Truth(%s) = %d, %v; want %d, %q", c.expr, got, err, c.want, c.code)
		}
	}
}

// TestEvalExprAST evaluates hand-built trees, independent of the parser.
func TestEvalExprAST(t *testing.T) {
	lit := func(v cypherval.Val) Expr { return &Lit{Val: v} }
	nan := lit(cypherval.FloatVal(math.NaN()))
	for _, c := range []struct {
		e    Expr
		want string
	}{
		{&Binary{Op: "+", L: lit(cypherval.IntVal(math.MaxInt64)), R: lit(cypherval.IntVal(1))}, "!overflow"},
		{&Binary{Op: "IN", L: lit(cypherval.IntVal(2)), R: &ListExpr{Elems: []Expr{lit(cypherval.IntVal(1)), lit(cypherval.NullVal)}}}, "NULL"},
		{&Binary{Op: "=", L: nan, R: nan}, "B:false"},
		{&Call{Name: "COUNT", Star: true}, "!semantic"},
		{&Unary{Op: "NOT", X: &IsNull{X: &Var{Name: "nul"}, Not: true}}, "B:true"},
		{&Property{X: &Var{Name: "r"}, Key: "id"}, "i:2"},
	} {
		v, err := EvalExpr(c.e, testRow())
		got := v.Canon()
		if err != nil {
			got = "!" + errCode(err)
		}
		if got != c.want {
			t.Errorf("%s = %s (err %v), want %s", Print(c.e), got, err, c.want)
		}
	}
}
