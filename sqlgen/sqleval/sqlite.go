package sqleval

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SQLite evaluates expressions as SQLite 3.45 and later does (the library polyfuzz links),
// without ICU: its storage classes, the affinity and collation rules of comparisons, integer
// overflow into reals and the conversions between text and numbers.
type SQLite struct {
	// CaseSensitiveLike is set after PRAGMA case_sensitive_like = ON.
	CaseSensitiveLike bool
}

// Eval returns n's value on row, or an error wrapping ErrUnknown when the evaluator is not sure.
func (s SQLite) Eval(n *Node, row Row) (v Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unknown)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%w: %s", ErrUnknown, string(u))
		}
	}()
	e := sqliteEval{s: s, row: row}
	return e.eval(n), nil
}

type sqliteEval struct {
	s   SQLite
	row Row
}

func (e *sqliteEval) col(n *Node) Column {
	c, ok := e.row[n.Tok]
	if !ok {
		unsure("column %s not in the row", n.Tok)
	}
	return c
}

// hasCollate reports whether an explicit COLLATE stands anywhere in n (SQLite's EP_Collate,
// which propagates to every enclosing expression).
func hasCollate(n *Node) bool { return anyNode(n, func(m *Node) bool { return m.Op == OpCollate }) }

// sqliteShape returns n's operands as SQLite's parser shapes them: a left operand, a right one
// and a list (LIKE and GLOB are functions of (pattern, subject, escape)).
func sqliteShape(n *Node) (left, right *Node, list []*Node) {
	if n.Op == OpBinary && isLikeOp(n.Tok) {
		l := []*Node{n.Right, n.Left}
		return nil, nil, append(l, n.List...)
	}
	return n.Left, n.Right, n.List
}

func isLikeOp(op string) bool { return strings.HasSuffix(op, "LIKE") || strings.HasSuffix(op, "GLOB") }

// collSeq is sqlite3ExprCollSeq: the collation of n, ok false when it has none.
func (e *sqliteEval) collSeq(n *Node) (coll string, ok bool) {
	p := n
	for p != nil {
		switch {
		case p.Op == OpColumn:
			c := e.col(p)
			if c.Coll == "" {
				return "BINARY", true
			}
			return c.Coll, true
		case p.Op == OpCast || p.Op == OpPrefix && p.Tok == "+":
			p = p.Left
			continue
		case p.Op == OpCollate:
			return p.Tok, true
		case p.Op == OpFunc && isLikely(p.Tok) && len(p.List) > 0:
			if _, ok := e.collSeq(p.List[0]); ok && !hasCollate(p) {
				unsure("collation through %s", p.Tok)
			}
		}
		if !hasCollate(p) {
			return "", false
		}
		l, r, list := sqliteShape(p)
		if hasCollate(l) {
			p = l
			continue
		}
		next := r
		for _, a := range list {
			if hasCollate(a) {
				next = a
				break
			}
		}
		p = next
	}
	return "", false
}

func isLikely(name string) bool {
	return name == "likely" || name == "unlikely" || name == "likelihood"
}

// binaryColl is sqlite3BinaryCompareCollSeq.
func (e *sqliteEval) binaryColl(l, r *Node) string {
	switch {
	case hasCollate(l):
		c, _ := e.collSeq(l)
		return orBinary(c)
	case r != nil && hasCollate(r):
		c, _ := e.collSeq(r)
		return orBinary(c)
	}
	if c, ok := e.collSeq(l); ok {
		return c
	}
	if r != nil {
		if c, ok := e.collSeq(r); ok {
			return c
		}
	}
	return "BINARY"
}

func orBinary(c string) string {
	if c == "" {
		return "BINARY"
	}
	return c
}

// affinityOf is sqlite3ExprAffinity.
func (e *sqliteEval) affinityOf(n *Node) Affinity {
	for {
		switch n.Op {
		case OpColumn:
			return e.col(n).Aff
		case OpCast:
			return typeAffinity(n.Tok)
		case OpCollate:
			n = n.Left
			continue
		case OpFunc:
			if isLikely(n.Tok) && len(n.List) > 0 && e.affinityOf(n.List[0]) != AffNone {
				unsure("affinity through %s", n.Tok)
			}
		}
		return AffNone
	}
}

// typeAffinity is the affinity of a column declared with type name t (sqlite3AffinityType).
func typeAffinity(t string) Affinity {
	u := strings.ToUpper(t)
	switch {
	case strings.Contains(u, "INT"):
		return AffInteger
	case strings.Contains(u, "CHAR") || strings.Contains(u, "CLOB") || strings.Contains(u, "TEXT"):
		return AffText
	case strings.Contains(u, "BLOB") || u == "":
		return AffBlob
	case strings.Contains(u, "REAL") || strings.Contains(u, "FLOA") || strings.Contains(u, "DOUB"):
		return AffReal
	}
	return AffNumeric
}

// compareAffinity is the affinity a comparison of l with r applies (sqlite3CompareAffinity).
func (e *sqliteEval) compareAffinity(l, r *Node) Affinity {
	a1, a2 := e.affinityOf(r), e.affinityOf(l)
	if a1 > AffNone && a2 > AffNone {
		if a1.numeric() || a2.numeric() {
			return AffNumeric
		}
		return AffBlob
	}
	if a1 > AffNone {
		return a1
	}
	return a2
}

// compare compares a and b after applying aff as a comparison does; null is true when either is
// NULL.
func compareWith(a, b Value, aff Affinity, coll string) (c int, null bool) {
	if a.C == Null || b.C == Null {
		return 0, true
	}
	switch {
	case aff.numeric():
		a, b = numericAffinity(a), numericAffinity(b)
	case aff == AffText && (a.C == Text || b.C == Text):
		if a.C == Int || a.C == Real {
			a = Value{C: Text, S: numText(a)}
		}
		if b.C == Int || b.C == Real {
			b = Value{C: Text, S: numText(b)}
		}
	}
	return memCompare(a, b, coll), false
}

// memCompare is sqlite3MemCompare for non-NULL values.
func memCompare(a, b Value, coll string) int {
	ca, cb := a.C, b.C
	if ca == Real {
		ca = Int
	}
	if cb == Real {
		cb = Int
	}
	if ca != cb {
		if ca < cb {
			return -1
		}
		return 1
	}
	switch ca {
	case Null:
		return 0
	case Int:
		return numCompare(a, b)
	case Text:
		return collCompare(a.S, b.S, coll)
	}
	return strings.Compare(a.S, b.S)
}

func numCompare(a, b Value) int {
	if a.C == Int && b.C == Int {
		switch {
		case a.I < b.I:
			return -1
		case a.I > b.I:
			return 1
		}
		return 0
	}
	if a.C == Real && b.C == Real {
		switch {
		case a.R < b.R:
			return -1
		case a.R > b.R:
			return 1
		}
		return 0
	}
	return bigOf(a).Cmp(bigOf(b))
}

func bigOf(v Value) *big.Float {
	if v.C == Int {
		return new(big.Float).SetInt64(v.I)
	}
	return big.NewFloat(v.R)
}

func collCompare(a, b, coll string) int {
	switch coll {
	case "NOCASE":
		return strings.Compare(asciiLower(a), asciiLower(b))
	case "RTRIM":
		return strings.Compare(strings.TrimRight(a, " "), strings.TrimRight(b, " "))
	case "BINARY":
		return strings.Compare(a, b)
	}
	unsure("collation %s", coll)
	return 0
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// numText is the text of a number: exact for integers; reals are not modelled.
func numText(v Value) string {
	if v.C == Int {
		return strconv.FormatInt(v.I, 10)
	}
	unsure("real as text")
	return ""
}

// textOf converts v to text as a function argument does (NULL stays NULL: callers check).
func textOf(v Value) string {
	switch v.C {
	case Int, Real:
		return numText(v)
	case Blob:
		if !utf8.ValidString(v.S) || strings.IndexByte(v.S, 0) >= 0 {
			unsure("blob as text")
		}
	case Text:
		if strings.IndexByte(v.S, 0) >= 0 {
			unsure("text with NUL")
		}
	}
	return v.S
}

// atof is sqlite3AtoF: the value of the longest numeric prefix of s, whether the whole of s is
// a number (pure), whether any prefix is (num), and whether it has a point or an exponent (fp).
func atof(s string) (f float64, pure, num, fp bool) {
	if strings.IndexByte(s, 0) >= 0 {
		unsure("NUL in numeric text")
	}
	i := 0
	isSpace := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		frac := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
			frac++
		}
		if digits+frac == 0 {
			return 0, false, false, false
		}
		i, digits, fp = j, digits+frac, true
	} else if digits == 0 {
		return 0, false, false, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i, fp = j, true
		}
	}
	numStr := s[start:i]
	if sig := strings.TrimLeft(strings.NewReplacer(".", "", "-", "", "+", "").Replace(strings.SplitN(strings.ToLower(numStr), "e", 2)[0]), "0"); len(sig) > 18 {
		unsure("number with many digits")
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(numStr, "."), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			if !strings.HasSuffix(numStr, ".") {
				unsure("float syntax %q", numStr)
			}
		}
	}
	if strings.HasPrefix(numStr, ".") || strings.HasPrefix(numStr, "-.") || strings.HasPrefix(numStr, "+.") {
		f, _ = strconv.ParseFloat(strings.Replace(numStr, ".", "0.", 1), 64)
	}
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return f, i == len(s), true, fp
}

// atoi is sqlite3Atoi64 for numbers of fewer than 19 digits: the value of the integer prefix and
// its code (-1 no digits, 0 exact, 1 trailing text).
func atoi(s string) (int64, int) {
	i := 0
	isSpace := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] == '0' {
		i++
	}
	j := i
	var u int64
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		u = u*10 + int64(s[j]-'0')
		j++
		if j-i >= 19 {
			unsure("integer with many digits")
		}
	}
	if neg {
		u = -u
	}
	if j == start {
		return u, -1
	}
	if strings.TrimLeft(s[j:], " \t\n\v\f\r") != "" {
		return u, 1
	}
	return u, 0
}

// numericAffinity applies NUMERIC affinity to v as a comparison does: text that is a number
// becomes one.
func numericAffinity(v Value) Value {
	if v.C != Text {
		return v
	}
	f, pure, _, fp := atof(v.S)
	if !pure {
		return v
	}
	if !fp {
		if n, rc := atoi(v.S); rc == 0 {
			return Value{C: Int, I: n}
		}
	}
	if !fp && float64(int64(f)) == f && math.Abs(f) < 9e18 {
		return Value{C: Int, I: int64(f)}
	}
	return Value{C: Real, R: f}
}

// numericType is the number arithmetic reads from v (SQLite's numericType).
func numericType(v Value) Value {
	switch v.C {
	case Int, Real, Null:
		return v
	}
	s := textOf(v)
	f, pure, _, fp := atof(s)
	if !pure {
		if !fp {
			if n, rc := atoi(s); rc <= 1 {
				return Value{C: Int, I: n}
			}
		}
		return Value{C: Real, R: f}
	}
	if !fp {
		if n, rc := atoi(s); rc == 0 {
			return Value{C: Int, I: n}
		}
	}
	return Value{C: Real, R: f}
}

// realValue is sqlite3VdbeRealValue.
func realValue(v Value) float64 {
	switch v.C {
	case Int:
		return float64(v.I)
	case Real:
		return v.R
	case Null:
		return 0
	}
	f, _, _, _ := atof(textOf(v))
	return f
}

// intValue is sqlite3VdbeIntValue.
func intValue(v Value) int64 {
	switch v.C {
	case Int:
		return v.I
	case Real:
		return realToInt(v.R)
	case Null:
		return 0
	}
	n, _ := atoi(textOf(v))
	return n
}

func realToInt(r float64) int64 {
	switch {
	case math.IsNaN(r):
		return 0
	case r <= -9223372036854775808.0:
		return math.MinInt64
	case r >= 9223372036854775807.0:
		return math.MaxInt64
	}
	return int64(r)
}

// truth is sqlite3VdbeBooleanValue; null is true for NULL.
func truth(v Value) (t, null bool) {
	switch v.C {
	case Null:
		return false, true
	case Int:
		return v.I != 0, false
	case Real:
		return v.R != 0, false
	}
	return realValue(v) != 0, false
}

func boolVal(b bool) Value {
	if b {
		return Value{C: Int, I: 1}
	}
	return Value{C: Int}
}

var null = Value{}

func (e *sqliteEval) literal(n *Node) Value {
	t := n.Tok
	switch {
	case t == "NULL":
		return null
	case t == "TRUE":
		return boolVal(true)
	case t == "FALSE":
		return boolVal(false)
	case t[0] == '\'':
		return Value{C: Text, S: strings.ReplaceAll(t[1:len(t)-1], "''", "'")}
	case t[0] == 'x' || t[0] == 'X':
		b, err := hex.DecodeString(t[2 : len(t)-1])
		if err != nil {
			unsure("blob literal %s", t)
		}
		return Value{C: Blob, S: string(b)}
	}
	neg := strings.HasPrefix(t, "-")
	body := strings.TrimPrefix(t, "-")
	if !strings.ContainsAny(body, ".eE") {
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			return Value{C: Int, I: n}
		}
		if len(body) > 19 {
			unsure("long integer literal")
		}
	}
	f, err := strconv.ParseFloat(body, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			unsure("literal %s", t)
		}
	}
	if neg {
		f = -f
	}
	return Value{C: Real, R: f}
}

func (e *sqliteEval) eval(n *Node) Value {
	switch n.Op {
	case OpColumn:
		return e.col(n).V
	case OpLiteral:
		return e.literal(n)
	case OpCollate:
		if _, ok := map[string]bool{"BINARY": true, "NOCASE": true, "RTRIM": true}[n.Tok]; !ok {
			unsure("collation %s", n.Tok)
		}
		return e.eval(n.Left)
	case OpPrefix:
		return e.prefix(n)
	case OpPostfix:
		return e.postfix(n)
	case OpBinary:
		return e.binary(n)
	case OpBetween:
		return e.between(n)
	case OpIn:
		return e.in(n)
	case OpCase:
		return e.caseExpr(n)
	case OpCast:
		return castTo(e.eval(n.Left), typeAffinity(n.Tok))
	case OpFunc:
		return e.call(n)
	}
	unsure("node %d", n.Op)
	return null
}

func (e *sqliteEval) prefix(n *Node) Value {
	v := e.eval(n.Left)
	switch n.Tok {
	case "NOT":
		t, isNull := truth(v)
		if isNull {
			return null
		}
		return boolVal(!t)
	case "+":
		return v
	case "-":
		// SQLite computes -x as 0 - x.
		return arith("-", Value{C: Int}, v)
	case "~":
		if v.C == Null {
			return null
		}
		return Value{C: Int, I: ^intValue(v)}
	}
	unsure("prefix %s", n.Tok)
	return null
}

func (e *sqliteEval) postfix(n *Node) Value {
	v := e.eval(n.Left)
	switch n.Tok {
	case "ISNULL", "IS NULL":
		return boolVal(v.C == Null)
	case "NOTNULL", "NOT NULL", "IS NOT NULL":
		return boolVal(v.C != Null)
	}
	return truthOp(v, n.Tok)
}

// callsFunc reports whether n calls a function anywhere (SQLite's EP_HasFunc); LIKE and GLOB are
// calls of like() and glob() to SQLite's parser.
func callsFunc(n *Node) bool {
	return anyNode(n, func(m *Node) bool { return m.Op == OpFunc || m.Op == OpBinary && isLikeOp(m.Tok) })
}

// truthOp evaluates "v IS [NOT] TRUE|FALSE".
func truthOp(v Value, op string) Value {
	t, isNull := truth(v)
	var r bool
	switch op {
	case "IS TRUE":
		r = !isNull && t
	case "IS FALSE":
		r = !isNull && !t
	case "IS NOT TRUE":
		r = isNull || !t
	case "IS NOT FALSE":
		r = isNull || t
	default:
		unsure("postfix %s", op)
	}
	return boolVal(r)
}

// skipCollateLikely is sqlite3ExprSkipCollateAndLikely.
func skipCollateLikely(n *Node) *Node {
	for n != nil {
		switch {
		case n.Op == OpCollate:
			n = n.Left
		case n.Op == OpFunc && isLikely(n.Tok) && len(n.List) > 0:
			n = n.List[0]
		default:
			return n
		}
	}
	return n
}

// cmp evaluates a comparison of l with r; null when SQL's answer is NULL.
func (e *sqliteEval) cmp(l, r *Node, lv, rv Value) (c int, isNull bool) {
	aff := e.compareAffinity(l, r)
	coll := e.binaryColl(l, r)
	return compareWith(lv, rv, aff, coll)
}

func (e *sqliteEval) binary(n *Node) Value {
	op := n.Tok
	switch op {
	case "AND", "OR":
		a, an := truth(e.eval(n.Left))
		b, bn := truth(e.eval(n.Right))
		if op == "AND" {
			switch {
			case !an && !a || !bn && !b:
				return boolVal(false)
			case an || bn:
				return null
			}
			return boolVal(true)
		}
		switch {
		case !an && a || !bn && b:
			return boolVal(true)
		case an || bn:
			return null
		}
		return boolVal(false)
	case "IS", "IS NOT", "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		not := op == "IS NOT" || op == "IS DISTINCT FROM"
		// The TRUE and FALSE keywords on the right make a truth test; so does an empty IN list,
		// which SQLite's parser turns into one of them, unless its left operand calls a function
		// (then it becomes TRUE OR x, or FALSE AND x: a plain 1 or 0).
		// (Only COLLATE is skipped: likely() is not resolved yet when SQLite looks.)
		r := n.Right
		for r.Op == OpCollate {
			r = r.Left
		}
		kw := ""
		switch {
		case r.Op == OpLiteral && (r.Tok == "TRUE" || r.Tok == "FALSE"):
			kw = r.Tok
		case r.Op == OpIn && len(r.List) == 0 && r.Tok == "IN" && !callsFunc(r.Left):
			kw = "FALSE"
		case r.Op == OpIn && len(r.List) == 0 && !callsFunc(r.Left):
			kw = "TRUE"
		}
		if kw != "" {
			t := "IS " + kw
			if not {
				t = "IS NOT " + kw
			}
			return truthOp(e.eval(n.Left), t)
		}
		lv, rv := e.eval(n.Left), e.eval(n.Right)
		var eq bool
		switch {
		case lv.C == Null || rv.C == Null:
			eq = lv.C == rv.C
		default:
			c, _ := e.cmp(n.Left, n.Right, lv, rv)
			eq = c == 0
		}
		return boolVal(eq != not)
	case "=", "==", "!=", "<>", "<", "<=", ">", ">=":
		lv, rv := e.eval(n.Left), e.eval(n.Right)
		c, isNull := e.cmp(n.Left, n.Right, lv, rv)
		if isNull {
			return null
		}
		return boolVal(cmpHolds(op, c))
	case "||":
		lv, rv := e.eval(n.Left), e.eval(n.Right)
		if lv.C == Null || rv.C == Null {
			return null
		}
		return Value{C: Text, S: textOf(lv) + textOf(rv)}
	case "+", "-", "*", "/", "%":
		return arith(op, e.eval(n.Left), e.eval(n.Right))
	case "&", "|", "<<", ">>":
		lv, rv := e.eval(n.Left), e.eval(n.Right)
		if lv.C == Null || rv.C == Null {
			return null
		}
		return Value{C: Int, I: bitwise(op, intValue(lv), intValue(rv))}
	}
	if isLikeOp(op) {
		return e.like(n)
	}
	unsure("operator %s", op)
	return null
}

func cmpHolds(op string, c int) bool {
	switch op {
	case "=", "==":
		return c == 0
	case "!=", "<>":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func bitwise(op string, a, b int64) int64 {
	switch op {
	case "&":
		return a & b
	case "|":
		return a | b
	}
	if op == ">>" {
		b = -b
		if b == math.MinInt64 {
			b = 64
		}
	}
	// a << b, with b negative meaning a right shift (SQLite's OP_ShiftLeft).
	switch {
	case b >= 64:
		return 0
	case b <= -64:
		if a < 0 {
			return -1
		}
		return 0
	case b >= 0:
		return int64(uint64(a) << uint(b))
	}
	return a >> uint(-b)
}

// arith is OP_Add, OP_Subtract, OP_Multiply, OP_Divide and OP_Remainder.
func arith(op string, a, b Value) Value {
	if a.C == Null || b.C == Null {
		return null
	}
	origA, origB := a, b
	a, b = numericType(a), numericType(b)
	if a.C == Int && b.C == Int {
		x, y := a.I, b.I
		switch op {
		case "+":
			if r := x + y; (r > x) == (y > 0) {
				return Value{C: Int, I: r}
			}
		case "-":
			if r := x - y; (r < x) == (y > 0) {
				return Value{C: Int, I: r}
			}
		case "*":
			if x == 0 || y == 0 {
				return Value{C: Int}
			}
			if r := x * y; r/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64) {
				return Value{C: Int, I: r}
			}
		case "/":
			if y == 0 {
				return null
			}
			if !(y == -1 && x == math.MinInt64) {
				return Value{C: Int, I: x / y}
			}
		case "%":
			if y == 0 {
				return null
			}
			if y == -1 {
				y = 1
			}
			return Value{C: Int, I: x % y}
		}
	}
	ra, rb := realValue(a), realValue(b)
	var r float64
	switch op {
	case "+":
		r = ra + rb
	case "-":
		r = ra - rb
	case "*":
		r = ra * rb
	case "/":
		if rb == 0 {
			return null
		}
		r = ra / rb
	case "%":
		x, y := intValue(origA), intValue(origB)
		if y == 0 {
			return null
		}
		if y == -1 {
			y = 1
		}
		r = float64(x % y)
	}
	if math.IsNaN(r) {
		return null
	}
	return Value{C: Real, R: r}
}

func (e *sqliteEval) between(n *Node) Value {
	x := e.eval(n.Left)
	lo, hi := e.eval(n.List[0]), e.eval(n.List[1])
	c1, n1 := e.cmp(n.Left, n.List[0], x, lo)
	c2, n2 := e.cmp(n.Left, n.List[1], x, hi)
	a, b := c1 >= 0, c2 <= 0
	var v Value
	switch {
	case !n1 && !a || !n2 && !b:
		v = boolVal(false)
	case n1 || n2:
		v = null
	default:
		v = boolVal(true)
	}
	if n.Tok == "NOT BETWEEN" && v.C != Null {
		v.I = 1 - v.I
	}
	return v
}

func (e *sqliteEval) in(n *Node) Value {
	if len(n.List) == 0 {
		return boolVal(n.Tok == "NOT IN")
	}
	x := e.eval(n.Left)
	aff := e.affinityOf(n.Left)
	coll, ok := e.collSeq(n.Left)
	if !ok {
		coll = "BINARY"
	}
	if aff == AffNone {
		aff = AffBlob
	}
	sawNull := x.C == Null
	found := false
	for _, it := range n.List {
		v := e.eval(it)
		if x.C == Null {
			continue
		}
		c, isNull := compareWith(x, v, aff, coll)
		if isNull {
			sawNull = true
		} else if c == 0 {
			found = true
		}
	}
	switch {
	case found:
		return boolVal(n.Tok == "IN")
	case sawNull:
		return null
	}
	return boolVal(n.Tok != "IN")
}

func (e *sqliteEval) caseExpr(n *Node) Value {
	pairs := len(n.List)
	if n.Else {
		pairs--
	}
	var base Value
	if n.Left != nil {
		base = e.eval(n.Left)
	}
	for i := 0; i+1 < pairs+1 && i < pairs; i += 2 {
		w := e.eval(n.List[i])
		var hit bool
		if n.Left != nil {
			c, isNull := e.cmp(n.Left, n.List[i], base, w)
			hit = !isNull && c == 0
		} else {
			t, isNull := truth(w)
			hit = !isNull && t
		}
		if hit {
			return e.eval(n.List[i+1])
		}
	}
	if n.Else {
		return e.eval(n.List[len(n.List)-1])
	}
	return null
}

// castTo is sqlite3VdbeMemCast.
func castTo(v Value, aff Affinity) Value {
	if v.C == Null {
		return null
	}
	switch aff {
	case AffBlob:
		if v.C == Blob {
			return v
		}
		if v.C == Text {
			return Value{C: Blob, S: v.S}
		}
		return Value{C: Blob, S: numText(v)}
	case AffText:
		return Value{C: Text, S: textOf(v)}
	case AffInteger:
		return Value{C: Int, I: intValue(v)}
	case AffReal:
		return Value{C: Real, R: realValue(v)}
	}
	// NUMERIC: numbers stay; text and blobs become the number they start with.
	if v.C == Int || v.C == Real {
		return v
	}
	s := textOf(v)
	f, pure, _, fp := atof(s)
	if !fp {
		if n, rc := atoi(s); rc <= 1 {
			return Value{C: Int, I: n}
		}
	}
	_ = pure
	if f == math.Trunc(f) && math.Abs(f) < 9e18 {
		return Value{C: Int, I: int64(f)}
	}
	return Value{C: Real, R: f}
}

// like evaluates LIKE and GLOB and their negations.
func (e *sqliteEval) like(n *Node) Value {
	x, p := e.eval(n.Left), e.eval(n.Right)
	glob := strings.HasSuffix(n.Tok, "GLOB")
	not := strings.HasPrefix(n.Tok, "NOT")
	var esc Value
	if len(n.List) > 0 {
		esc = e.eval(n.List[0])
	}
	v := likeFunc(x, p, esc, len(n.List) > 0, glob, e.s.CaseSensitiveLike)
	if not && v.C != Null {
		v.I = 1 - v.I
	}
	return v
}

func likeFunc(x, p, esc Value, hasEsc, glob, caseSensitive bool) Value {
	if x.C == Null || p.C == Null || hasEsc && esc.C == Null {
		return null
	}
	xs, ps := textOf(x), textOf(p)
	escape := rune(-1)
	if hasEsc {
		es := textOf(esc)
		if utf8.RuneCountInString(es) != 1 {
			unsure("escape of length other than 1")
		}
		escape, _ = utf8.DecodeRuneInString(es)
	}
	if !utf8.ValidString(xs) || !utf8.ValidString(ps) {
		unsure("invalid UTF-8 in LIKE")
	}
	var ok bool
	if glob {
		ok = globMatch([]rune(ps), []rune(xs))
	} else {
		ok = likeMatch([]rune(ps), []rune(xs), escape, !caseSensitive)
	}
	return boolVal(ok)
}

func foldRune(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 32
	}
	return r
}

func likeMatch(p, s []rune, esc rune, nocase bool) bool {
	for len(p) > 0 {
		c := p[0]
		switch {
		case c == esc:
			if len(p) < 2 {
				return false
			}
			c = p[1]
			if len(s) == 0 || !runeEq(c, s[0], nocase) {
				return false
			}
			p, s = p[2:], s[1:]
			continue
		case c == '%':
			for len(p) > 0 && (p[0] == '%' || p[0] == '_') {
				if p[0] == '_' {
					if len(s) == 0 {
						return false
					}
					s = s[1:]
				}
				p = p[1:]
			}
			if len(p) == 0 {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if likeMatch(p, s[i:], esc, nocase) {
					return true
				}
			}
			return false
		case c == '_':
			if len(s) == 0 {
				return false
			}
		default:
			if len(s) == 0 || !runeEq(c, s[0], nocase) {
				return false
			}
		}
		p, s = p[1:], s[1:]
	}
	return len(s) == 0
}

func runeEq(a, b rune, nocase bool) bool {
	if nocase {
		return foldRune(a) == foldRune(b)
	}
	return a == b
}

func globMatch(p, s []rune) bool {
	for len(p) > 0 {
		c := p[0]
		switch c {
		case '*':
			for len(p) > 0 && (p[0] == '*' || p[0] == '?') {
				if p[0] == '?' {
					if len(s) == 0 {
						return false
					}
					s = s[1:]
				}
				p = p[1:]
			}
			if len(p) == 0 {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if globMatch(p, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if len(s) == 0 {
				return false
			}
		case '[':
			if len(s) == 0 {
				return false
			}
			end, ok := globClass(p, s[0])
			if end < 0 || !ok {
				return false
			}
			p, s = p[end:], s[1:]
			continue
		default:
			if len(s) == 0 || s[0] != c {
				return false
			}
		}
		p, s = p[1:], s[1:]
	}
	return len(s) == 0
}

// globClass matches r against the class p starts with ("[a-c]", "[^x]", "[]a]"); end is the
// length of the class, -1 when it is not closed.
func globClass(p []rune, r rune) (end int, ok bool) {
	i := 1
	invert := false
	if i < len(p) && p[i] == '^' {
		invert = true
		i++
	}
	if i < len(p) && p[i] == ']' {
		ok = r == ']'
		i++
	}
	prev := rune(0)
	for i < len(p) && p[i] != ']' {
		if p[i] == '-' && prev != 0 && i+1 < len(p) && p[i+1] != ']' {
			if r >= prev && r <= p[i+1] {
				ok = true
			}
			prev = 0
			i += 2
			continue
		}
		if p[i] == r {
			ok = true
		}
		prev = p[i]
		i++
	}
	if i >= len(p) {
		return -1, false
	}
	return i + 1, ok != invert
}

func (e *sqliteEval) args(n *Node) []Value {
	out := make([]Value, len(n.List))
	for i, a := range n.List {
		out[i] = e.eval(a)
	}
	return out
}

func anyNull(vs []Value) bool {
	for _, v := range vs {
		if v.C == Null {
			return true
		}
	}
	return false
}

// funcColl is the collation a collating function (min, max, nullif, instr) uses: that of its
// first argument that has one.
func (e *sqliteEval) funcColl(n *Node) string {
	for _, a := range n.List {
		if c, ok := e.collSeq(a); ok {
			return c
		}
	}
	return "BINARY"
}

func (e *sqliteEval) call(n *Node) Value {
	name := n.Tok
	switch name {
	case "coalesce", "ifnull":
		for _, a := range n.List {
			if v := e.eval(a); v.C != Null {
				return v
			}
		}
		return null
	case "iif", "if":
		for i := 0; i+1 < len(n.List); i += 2 {
			if t, isNull := truth(e.eval(n.List[i])); t && !isNull {
				return e.eval(n.List[i+1])
			}
		}
		if len(n.List)%2 == 1 {
			return e.eval(n.List[len(n.List)-1])
		}
		return null
	case "likely", "unlikely", "likelihood":
		v := e.eval(n.List[0])
		if name == "likelihood" {
			e.eval(n.List[1])
		}
		return v
	}
	a := e.args(n)
	switch name {
	case "abs":
		switch a[0].C {
		case Null:
			return null
		case Int:
			if a[0].I == math.MinInt64 {
				unsure("abs overflow error")
			}
			if a[0].I < 0 {
				return Value{C: Int, I: -a[0].I}
			}
			return a[0]
		}
		return Value{C: Real, R: math.Abs(realValue(a[0]))}
	case "nullif":
		if a[0].C != Null && a[1].C != Null && memCompare(a[0], a[1], e.funcColl(n)) == 0 {
			return null
		}
		return a[0]
	case "min", "max":
		if anyNull(a) {
			return null
		}
		coll := e.funcColl(n)
		best := a[0]
		for _, v := range a[1:] {
			c := memCompare(v, best, coll)
			if name == "min" && c < 0 || name == "max" && c > 0 {
				best = v
			}
		}
		return best
	case "typeof":
		return Value{C: Text, S: [...]string{"null", "integer", "real", "text", "blob"}[a[0].C]}
	case "length":
		switch a[0].C {
		case Null:
			return null
		case Blob:
			return Value{C: Int, I: int64(len(a[0].S))}
		}
		s := textOf(a[0])
		return Value{C: Int, I: int64(utf8.RuneCountInString(s))}
	case "octet_length":
		switch a[0].C {
		case Null:
			return null
		case Blob:
			return Value{C: Int, I: int64(len(a[0].S))}
		}
		return Value{C: Int, I: int64(len(textOf(a[0])))}
	case "lower", "upper":
		if a[0].C == Null {
			return null
		}
		s := textOf(a[0])
		if name == "lower" {
			return Value{C: Text, S: asciiLower(s)}
		}
		return Value{C: Text, S: asciiUpper(s)}
	case "hex":
		if a[0].C == Blob {
			return Value{C: Text, S: strings.ToUpper(hex.EncodeToString([]byte(a[0].S)))}
		}
		if a[0].C == Null {
			return Value{C: Text}
		}
		return Value{C: Text, S: strings.ToUpper(hex.EncodeToString([]byte(textOf(a[0]))))}
	case "concat":
		var b strings.Builder
		for _, v := range a {
			if v.C != Null {
				b.WriteString(textOf(v))
			}
		}
		return Value{C: Text, S: b.String()}
	case "concat_ws":
		if a[0].C == Null {
			return null
		}
		sep := textOf(a[0])
		var parts []string
		for _, v := range a[1:] {
			if v.C != Null {
				parts = append(parts, textOf(v))
			}
		}
		return Value{C: Text, S: strings.Join(parts, sep)}
	case "instr":
		if a[0].C == Null || a[1].C == Null {
			return null
		}
		if a[0].C == Blob && a[1].C == Blob {
			return Value{C: Int, I: int64(strings.Index(a[0].S, a[1].S) + 1)}
		}
		h, nd := textOf(a[0]), textOf(a[1])
		i := strings.Index(h, nd)
		if i < 0 {
			return Value{C: Int}
		}
		return Value{C: Int, I: int64(utf8.RuneCountInString(h[:i]) + 1)}
	case "replace":
		if a[0].C == Null || a[1].C == Null {
			return null
		}
		x, from := textOf(a[0]), textOf(a[1])
		if from == "" {
			// SQLite returns its first argument after reading it as text: a number comes back
			// as text.
			if a[0].C == Blob {
				unsure("replace of a blob with an empty pattern")
			}
			return Value{C: Text, S: x}
		}
		if a[2].C == Null {
			return null
		}
		to := textOf(a[2])
		return Value{C: Text, S: strings.ReplaceAll(x, from, to)}
	case "trim", "ltrim", "rtrim":
		if anyNull(a) {
			return null
		}
		x := textOf(a[0])
		set := " "
		if len(a) > 1 {
			set = textOf(a[1])
		}
		switch name {
		case "trim":
			x = strings.Trim(x, set)
		case "ltrim":
			x = strings.TrimLeft(x, set)
		default:
			x = strings.TrimRight(x, set)
		}
		return Value{C: Text, S: x}
	case "unicode":
		if a[0].C == Null {
			return null
		}
		s := textOf(a[0])
		if s == "" {
			return null
		}
		r, _ := utf8.DecodeRuneInString(s)
		return Value{C: Int, I: int64(r)}
	case "zeroblob":
		n := intValue(numericType(a[0]))
		if n < 0 {
			n = 0
		}
		return Value{C: Blob, S: string(make([]byte, n))}
	case "glob", "like":
		var esc Value
		if len(a) > 2 {
			esc = a[2]
		}
		return likeFunc(a[1], a[0], esc, len(a) > 2, name == "glob", e.s.CaseSensitiveLike)
	case "quote":
		switch a[0].C {
		case Null:
			return Value{C: Text, S: "NULL"}
		case Int:
			return Value{C: Text, S: numText(a[0])}
		case Blob:
			return Value{C: Text, S: "X'" + strings.ToUpper(hex.EncodeToString([]byte(a[0].S))) + "'"}
		case Text:
			return Value{C: Text, S: "'" + strings.ReplaceAll(textOf(a[0]), "'", "''") + "'"}
		}
	case "char":
		var b strings.Builder
		for _, v := range a {
			c := intValue(v)
			if v.C == Null || c <= 0 || c > 0x10ffff || c >= 0xd800 && c <= 0xdfff {
				unsure("char of %d", c)
			}
			b.WriteRune(rune(c))
		}
		return Value{C: Text, S: b.String()}
	}
	unsure("function %s", name)
	return null
}

// Truth is v's truth value as a WHERE clause reads it; null is true for NULL, and ok false
// when the evaluator is unsure.
func (SQLite) Truth(v Value) (t, null, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isUnknown := r.(unknown); !isUnknown {
				panic(r)
			}
			ok = false
		}
	}()
	t, null = truth(v)
	return t, null, true
}

// Literal returns v.Literal(): SQLite reads its literals back as the same value.
func (SQLite) Literal(v Value) (string, bool) { return v.Literal() }
