package cyphergen

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// The codes of an [EvalError].
const (
	CodeType           = "type"             // an operand or argument of the wrong type
	CodeOverflow       = "overflow"         // 64-bit integer overflow
	CodeDivByZero      = "division-by-zero" // integer division or modulo by zero
	CodeUnsupported    = "unsupported"      // outside what the evaluator models exactly
	CodeSemantic       = "semantic"         // a query the engine rejects before running it
	CodeArgument       = "argument"         // an argument out of its allowed range (substring(s, -1))
	errAggregateNested = "aggregate functions cannot be nested or used here"
)

// EvalError is a Cypher runtime error (the engine would reject the query at run time).
type EvalError struct {
	Code string // "type", "overflow", "division-by-zero", "unsupported", "semantic", "argument"
	Msg  string
}

// Error returns the code and the message.
func (e *EvalError) Error() string { return e.Code + ": " + e.Msg }

func evalErr(code, msg string) error { return &EvalError{Code: code, Msg: msg} }

func typeErr(msg string) error     { return evalErr(CodeType, msg) }
func unsupported(msg string) error { return evalErr(CodeUnsupported, msg) }
func semantic(msg string) error    { return evalErr(CodeSemantic, msg) }

// Tri is a three-valued truth value.
type Tri int8

// The truth values: Unknown is Cypher's null.
const (
	Unknown Tri = -1
	False   Tri = 0
	True    Tri = 1
)

// triVal returns t as a Cypher value (Unknown is null).
func triVal(t Tri) cypherval.Val {
	if t == Unknown {
		return cypherval.NullVal
	}
	return cypherval.BoolVal(t == True)
}

func boolTri(b bool) Tri {
	if b {
		return True
	}
	return False
}

// EvalExpr evaluates a scalar expression with the variables bound by row. An aggregate call is an
// EvalError of code "semantic", an unbound variable too. Node and relationship values carry their
// labels (type) and properties, so no graph is needed.
func EvalExpr(e Expr, row map[string]cypherval.Val) (cypherval.Val, error) {
	return eval(e, row)
}

// Truth evaluates a predicate: True, False, or Unknown for null. A value other than a boolean or
// null is an EvalError of code "type".
func Truth(e Expr, row map[string]cypherval.Val) (Tri, error) {
	v, err := eval(e, row)
	if err != nil {
		return Unknown, err
	}
	return truthOf(v)
}

func truthOf(v cypherval.Val) (Tri, error) {
	switch v.Kind {
	case cypherval.Null:
		return Unknown, nil
	case cypherval.Bool:
		return boolTri(v.B), nil
	}
	return Unknown, typeErr("expected a boolean, got " + v.Kind.String())
}

func eval(e Expr, row map[string]cypherval.Val) (cypherval.Val, error) {
	switch e := e.(type) {
	case *Lit:
		return e.Val, nil
	case *Var:
		v, ok := row[e.Name]
		if !ok {
			return cypherval.NullVal, semantic("variable `" + e.Name + "` not defined")
		}
		return v, nil
	case *Property:
		x, err := eval(e.X, row)
		if err != nil {
			return x, err
		}
		return property(x, e.Key)
	case *Unary:
		x, err := eval(e.X, row)
		if err != nil {
			return x, err
		}
		return unary(e.Op, x)
	case *IsNull:
		x, err := eval(e.X, row)
		if err != nil {
			return x, err
		}
		return cypherval.BoolVal(x.IsNull() != e.Not), nil
	case *Binary:
		return evalBinary(e, row)
	case *Call:
		return evalCall(e, row)
	case *Case:
		return evalCase(e, row)
	case *ListExpr:
		l := make([]cypherval.Val, len(e.Elems))
		for i, x := range e.Elems {
			v, err := eval(x, row)
			if err != nil {
				return v, err
			}
			l[i] = v
		}
		return cypherval.ListVal(l...), nil
	case *Index:
		x, err := eval(e.X, row)
		if err != nil {
			return x, err
		}
		i, err := eval(e.I, row)
		if err != nil {
			return i, err
		}
		return index(x, i)
	case *HasLabels:
		x, err := eval(e.X, row)
		if err != nil {
			return x, err
		}
		switch x.Kind {
		case cypherval.Null:
			return x, nil
		case cypherval.Node:
			for _, l := range e.Labels {
				if !hasString(x.Labels, l) {
					return cypherval.BoolVal(false), nil
				}
			}
			return cypherval.BoolVal(true), nil
		case cypherval.Rel:
			return x, unsupported("label test on a relationship")
		}
		return x, typeErr("label test on " + x.Kind.String())
	case nil:
		return cypherval.NullVal, semantic("missing expression")
	}
	return evalRead(e, row)
}

func hasString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// property returns x.key.
func property(x cypherval.Val, key string) (cypherval.Val, error) {
	switch x.Kind {
	case cypherval.Null:
		return x, nil
	case cypherval.Node, cypherval.Rel, cypherval.Map:
		return x.M[key], nil
	}
	return cypherval.NullVal, typeErr("property access on " + x.Kind.String())
}

func unary(op string, x cypherval.Val) (cypherval.Val, error) {
	if x.IsNull() {
		return x, nil
	}
	switch op {
	case "NOT":
		if x.Kind != cypherval.Bool {
			return x, typeErr("NOT of " + x.Kind.String())
		}
		return cypherval.BoolVal(!x.B), nil
	case "-":
		switch x.Kind {
		case cypherval.Int:
			if x.I == math.MinInt64 {
				return x, evalErr(CodeOverflow, "long overflow")
			}
			return cypherval.IntVal(-x.I), nil
		case cypherval.Float:
			return cypherval.FloatVal(-x.F), nil
		}
		return x, typeErr("unary minus of " + x.Kind.String())
	}
	return x, unsupported("unary operator " + op)
}

// index returns x[i]: a list element (negative from the end, out of range null) or a map,
// node or relationship property.
func index(x, i cypherval.Val) (cypherval.Val, error) {
	if x.IsNull() || i.IsNull() {
		return cypherval.NullVal, nil
	}
	switch x.Kind {
	case cypherval.List:
		if i.Kind != cypherval.Int {
			return cypherval.NullVal, typeErr("list index of type " + i.Kind.String())
		}
		n := int64(len(x.L))
		k := i.I
		if k < 0 {
			k += n
		}
		if k < 0 || k >= n {
			return cypherval.NullVal, nil
		}
		return x.L[k], nil
	case cypherval.Map, cypherval.Node, cypherval.Rel:
		if i.Kind != cypherval.String {
			return cypherval.NullVal, typeErr("map key of type " + i.Kind.String())
		}
		return x.M[i.S], nil
	}
	return cypherval.NullVal, typeErr("indexing " + x.Kind.String())
}

func evalBinary(e *Binary, row map[string]cypherval.Val) (cypherval.Val, error) {
	switch e.Op {
	case "AND", "OR", "XOR":
		return evalLogic(e, row)
	}
	l, err := eval(e.L, row)
	if err != nil {
		return l, err
	}
	r, err := eval(e.R, row)
	if err != nil {
		return r, err
	}
	return binary(e.Op, l, r)
}

// evalLogic evaluates AND, OR and XOR in three-valued logic. Engines may evaluate the operands
// in either order and skip one when the other decides the result, so an operand's error (or a
// non-boolean operand) while the other operand decides the result is "unsupported".
func evalLogic(e *Binary, row map[string]cypherval.Val) (cypherval.Val, error) {
	l, lerr := evalTri(e.L, row)
	r, rerr := evalTri(e.R, row)
	if lerr == nil && rerr == nil {
		return triVal(logic(e.Op, l, r)), nil
	}
	decides := func(t Tri) bool {
		return (e.Op == "AND" && t == False) || (e.Op == "OR" && t == True)
	}
	if (lerr == nil && decides(l)) || (rerr == nil && decides(r)) {
		return cypherval.NullVal, unsupported(e.Op + " with an operand in error whose other operand decides the result")
	}
	if lerr != nil {
		return cypherval.NullVal, lerr
	}
	return cypherval.NullVal, rerr
}

func evalTri(e Expr, row map[string]cypherval.Val) (Tri, error) {
	v, err := eval(e, row)
	if err != nil {
		return Unknown, err
	}
	return truthOf(v)
}

// logic applies AND, OR or XOR to truth values.
func logic(op string, l, r Tri) Tri {
	switch op {
	case "AND":
		if l == False || r == False {
			return False
		}
		if l == Unknown || r == Unknown {
			return Unknown
		}
		return True
	case "OR":
		if l == True || r == True {
			return True
		}
		if l == Unknown || r == Unknown {
			return Unknown
		}
		return False
	}
	if l == Unknown || r == Unknown {
		return Unknown
	}
	return boolTri(l != r)
}

// binary applies an operator other than AND, OR, XOR to values.
func binary(op string, l, r cypherval.Val) (cypherval.Val, error) {
	switch op {
	case "=", "<>":
		t, err := equal(l, r)
		if err != nil {
			return cypherval.NullVal, err
		}
		if op == "<>" && t != Unknown {
			t = 1 - t
		}
		return triVal(t), nil
	case "<", "<=", ">", ">=":
		return compareOp(op, l, r)
	case "+":
		return add(l, r)
	case "-", "*", "/", "%":
		return arith(op, l, r)
	case "IN":
		return in(l, r)
	case "STARTS WITH", "ENDS WITH", "CONTAINS":
		if l.Kind != cypherval.String || r.Kind != cypherval.String {
			return cypherval.NullVal, nil
		}
		switch op {
		case "STARTS WITH":
			return cypherval.BoolVal(strings.HasPrefix(l.S, r.S)), nil
		case "ENDS WITH":
			return cypherval.BoolVal(strings.HasSuffix(l.S, r.S)), nil
		}
		return cypherval.BoolVal(strings.Contains(l.S, r.S)), nil
	}
	return cypherval.NullVal, unsupported("operator " + op)
}

func isNumber(v cypherval.Val) bool { return v.Kind == cypherval.Int || v.Kind == cypherval.Float }

func isElement(v cypherval.Val) bool {
	return v.Kind == cypherval.Node || v.Kind == cypherval.Rel || v.Kind == cypherval.Path
}

// equal is Cypher's = : null when either side is null, numbers numerically, lists and maps
// element-wise (null when undecided because of a null inside), elements by identity, other
// mixed types false.
func equal(a, b cypherval.Val) (Tri, error) {
	if a.IsNull() || b.IsNull() {
		return Unknown, nil
	}
	if isNumber(a) && isNumber(b) {
		c, ok := cmpNumbers(a, b)
		return boolTri(ok && c == 0), nil
	}
	if isElement(a) || isElement(b) {
		if a.Kind == cypherval.Path || b.Kind == cypherval.Path {
			return Unknown, unsupported("path equality")
		}
		if a.Kind != b.Kind {
			return Unknown, unsupported("equality of " + a.Kind.String() + " and " + b.Kind.String())
		}
		return boolTri(a.ID == b.ID), nil
	}
	if a.Kind != b.Kind {
		return False, nil
	}
	switch a.Kind {
	case cypherval.Bool:
		return boolTri(a.B == b.B), nil
	case cypherval.String:
		return boolTri(a.S == b.S), nil
	case cypherval.List:
		if len(a.L) != len(b.L) {
			return False, nil
		}
		return equalAll(len(a.L), func(i int) (x, y cypherval.Val, ok bool) { return a.L[i], b.L[i], true })
	case cypherval.Map:
		if len(a.M) != len(b.M) {
			return False, nil
		}
		keys := slices.Sorted(maps.Keys(a.M))
		return equalAll(len(keys), func(i int) (x, y cypherval.Val, ok bool) {
			y, ok = b.M[keys[i]]
			return a.M[keys[i]], y, ok
		})
	}
	return Unknown, unsupported("equality of " + a.Kind.String())
}

// equalAll is the equality of n pairs of elements, three-valued: false when a pair is unequal or
// missing (ok false), else null when a pair's equality is null, else true.
func equalAll(n int, pair func(i int) (x, y cypherval.Val, ok bool)) (Tri, error) {
	res := True
	for i := range n {
		x, y, ok := pair(i)
		if !ok {
			return False, nil
		}
		t, err := equal(x, y)
		if err != nil {
			return Unknown, err
		}
		if t == False {
			return False, nil
		}
		if t == Unknown {
			res = Unknown
		}
	}
	return res, nil
}

// cmpNumbers compares two numbers exactly; ok is false when either is NaN.
func cmpNumbers(a, b cypherval.Val) (c int, ok bool) {
	switch {
	case a.Kind == cypherval.Int && b.Kind == cypherval.Int:
		return cmp3(a.I, b.I), true
	case a.Kind == cypherval.Float && b.Kind == cypherval.Float:
		if math.IsNaN(a.F) || math.IsNaN(b.F) {
			return 0, false
		}
		return cmp3(a.F, b.F), true
	case a.Kind == cypherval.Int:
		if math.IsNaN(b.F) {
			return 0, false
		}
		return cmpIntFloat(a.I, b.F), true
	}
	if math.IsNaN(a.F) {
		return 0, false
	}
	return -cmpIntFloat(b.I, a.F), true
}

func cmp3[T int64 | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpIntFloat compares an integer with a non-NaN float exactly.
func cmpIntFloat(i int64, f float64) int {
	if f >= 0x1p63 {
		return -1
	}
	if f < -0x1p63 {
		return 1
	}
	t := math.Trunc(f)
	if c := cmp3(i, int64(t)); c != 0 {
		return c
	}
	return cmp3(0, f-t)
}

// compareOp evaluates < <= > >=: numbers numerically (false with NaN), strings by UTF-16 code
// units, booleans false < true, null when either side is null or the types differ.
func compareOp(op string, l, r cypherval.Val) (cypherval.Val, error) {
	if l.IsNull() || r.IsNull() {
		return cypherval.NullVal, nil
	}
	var c int
	switch {
	case isNumber(l) && isNumber(r):
		var ok bool
		if c, ok = cmpNumbers(l, r); !ok {
			return cypherval.BoolVal(false), nil
		}
	case l.Kind == cypherval.String && r.Kind == cypherval.String:
		c = cmpStrings(l.S, r.S)
	case l.Kind == cypherval.Bool && r.Kind == cypherval.Bool:
		c = cmpBools(l.B, r.B)
	case l.Kind != r.Kind && isScalar(l) && isScalar(r):
		return cypherval.NullVal, nil
	default:
		return cypherval.NullVal, unsupported("comparison of " + l.Kind.String() + " and " + r.Kind.String())
	}
	var b bool
	switch op {
	case "<":
		b = c < 0
	case "<=":
		b = c <= 0
	case ">":
		b = c > 0
	default:
		b = c >= 0
	}
	return cypherval.BoolVal(b), nil
}

func isScalar(v cypherval.Val) bool {
	return isNumber(v) || v.Kind == cypherval.String || v.Kind == cypherval.Bool
}

func cmpBools(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// cmpStrings compares strings as Java does: by UTF-16 code units.
func cmpStrings(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return cmp3(a, b)
	}
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if ra[i] == rb[i] {
			continue
		}
		return cmp3(int64(utf16Key(ra[i])), int64(utf16Key(rb[i])))
	}
	return cmp3(int64(len(ra)), int64(len(rb)))
}

// utf16Key maps a rune to a value ordered as its first UTF-16 code unit, then the rest.
func utf16Key(r rune) int64 {
	if r < 0x10000 {
		return int64(r) << 16
	}
	r -= 0x10000
	hi, lo := 0xD800+(r>>10), 0xDC00+(r&0x3FF)
	return int64(hi)<<16 | int64(lo)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// add evaluates +: lists concatenate or take an element, strings concatenate (with integers
// printed), numbers add.
func add(l, r cypherval.Val) (cypherval.Val, error) {
	if l.IsNull() || r.IsNull() {
		return cypherval.NullVal, nil
	}
	switch {
	case l.Kind == cypherval.List && r.Kind == cypherval.List:
		return cypherval.ListVal(append(append([]cypherval.Val{}, l.L...), r.L...)...), nil
	case l.Kind == cypherval.List:
		return cypherval.ListVal(append(append([]cypherval.Val{}, l.L...), r)...), nil
	case r.Kind == cypherval.List:
		return cypherval.ListVal(append([]cypherval.Val{l}, r.L...)...), nil
	case l.Kind == cypherval.String || r.Kind == cypherval.String:
		ls, lerr := concatText(l)
		rs, rerr := concatText(r)
		if lerr != nil {
			return cypherval.NullVal, lerr
		}
		if rerr != nil {
			return cypherval.NullVal, rerr
		}
		return cypherval.StringVal(ls + rs), nil
	}
	return arith("+", l, r)
}

// concatText returns the text a value adds to a string with +.
func concatText(v cypherval.Val) (string, error) {
	switch v.Kind {
	case cypherval.String:
		return v.S, nil
	case cypherval.Int:
		return formatInt(v.I), nil
	case cypherval.Float, cypherval.Bool:
		return "", unsupported("string + " + v.Kind.String())
	}
	return "", typeErr("string + " + v.Kind.String())
}

// arith evaluates + - * / % on numbers: integers with overflow errors, floats as IEEE doubles.
func arith(op string, l, r cypherval.Val) (cypherval.Val, error) {
	if l.IsNull() || r.IsNull() {
		return cypherval.NullVal, nil
	}
	if !isNumber(l) || !isNumber(r) {
		return cypherval.NullVal, typeErr(l.Kind.String() + " " + op + " " + r.Kind.String())
	}
	if l.Kind == cypherval.Int && r.Kind == cypherval.Int {
		return intArith(op, l.I, r.I)
	}
	a, b := toF(l), toF(r)
	switch op {
	case "+":
		return cypherval.FloatVal(a + b), nil
	case "-":
		return cypherval.FloatVal(a - b), nil
	case "*":
		return cypherval.FloatVal(a * b), nil
	case "/":
		return cypherval.FloatVal(a / b), nil
	}
	return cypherval.FloatVal(math.Mod(a, b)), nil
}

func toF(v cypherval.Val) float64 {
	if v.Kind == cypherval.Int {
		return float64(v.I)
	}
	return v.F
}

var errOverflow = &EvalError{Code: CodeOverflow, Msg: "long overflow"}

func intArith(op string, a, b int64) (cypherval.Val, error) {
	switch op {
	case "+":
		s := a + b
		if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
			return cypherval.NullVal, errOverflow
		}
		return cypherval.IntVal(s), nil
	case "-":
		s := a - b
		if (a >= 0) != (b >= 0) && (s >= 0) != (a >= 0) {
			return cypherval.NullVal, errOverflow
		}
		return cypherval.IntVal(s), nil
	case "*":
		if a == 0 || b == 0 {
			return cypherval.IntVal(0), nil
		}
		p := a * b
		if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return cypherval.NullVal, errOverflow
		}
		return cypherval.IntVal(p), nil
	}
	if b == 0 {
		return cypherval.NullVal, evalErr(CodeDivByZero, "/ by zero")
	}
	if op == "/" {
		if a == math.MinInt64 && b == -1 {
			return cypherval.NullVal, unsupported("MinInt64 / -1")
		}
		return cypherval.IntVal(a / b), nil
	}
	if b == -1 {
		return cypherval.IntVal(0), nil
	}
	return cypherval.IntVal(a % b), nil
}

// in evaluates x IN list with three-valued equality.
func in(x, list cypherval.Val) (cypherval.Val, error) {
	if list.IsNull() {
		return cypherval.NullVal, nil
	}
	if list.Kind != cypherval.List {
		return cypherval.NullVal, typeErr("IN of " + list.Kind.String())
	}
	res := False
	for _, e := range list.L {
		t, err := equal(x, e)
		if err != nil {
			return cypherval.NullVal, err
		}
		if t == True {
			return cypherval.BoolVal(true), nil
		}
		if t == Unknown {
			res = Unknown
		}
	}
	return triVal(res), nil
}

func evalCase(e *Case, row map[string]cypherval.Val) (cypherval.Val, error) {
	var test cypherval.Val
	if e.Test != nil {
		var err error
		if test, err = eval(e.Test, row); err != nil {
			return test, err
		}
	}
	for _, w := range e.Whens {
		c, err := eval(w.Cond, row)
		if err != nil {
			return c, err
		}
		var t Tri
		if e.Test != nil {
			t, err = equal(test, c)
		} else if c.Kind == cypherval.Bool || c.IsNull() {
			t, _ = truthOf(c)
		} else {
			err = unsupported("CASE WHEN condition of type " + c.Kind.String())
		}
		if err != nil {
			return cypherval.NullVal, err
		}
		if t == True {
			return eval(w.Then, row)
		}
	}
	if e.Else == nil {
		return cypherval.NullVal, nil
	}
	return eval(e.Else, row)
}
