package sqleval

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Postgres evaluates the expressions of polyfuzz's PostgreSQL dialect as PostgreSQL 15 does in a
// database whose collation is C (byte order, ASCII-only case mapping): static types (int2, int4,
// int8, numeric, real, double precision, text, varchar, char(n), boolean) resolved as its parser
// resolves operators, CASE and IN lists, three-valued logic, and the dialect's functions. Every
// error the server would raise (integer or float overflow, division by zero, an invalid cast)
// makes the whole expression unknown, wherever it stands: the server folds constants, so that a
// branch never taken may still fail.
type Postgres struct{}

// pgType is a PostgreSQL type as the evaluator tells them apart.
type pgType uint8

const (
	pgUnknown pgType = iota // a string literal or NULL not yet resolved
	pgBool
	pgInt1 // DuckDB's TINYINT
	pgInt2
	pgInt4
	pgInt8
	pgInt16 // DuckDB's HUGEINT, known within the range of bigint
	pgNumeric
	pgFloat4
	pgFloat8
	pgText
	pgBpchar  // char(n): blank-padded, trailing blanks insignificant
	pgVarchar // varchar(n): text, but compared with char(n) as char(n)
)

func (t pgType) isInt() bool    { return t >= pgInt1 && t <= pgInt16 }
func (t pgType) isNumber() bool { return t >= pgInt1 && t <= pgFloat8 }
func (t pgType) isString() bool { return t >= pgText || t == pgUnknown }
func (t pgType) isFloat() bool  { return t == pgFloat4 || t == pgFloat8 }

// pv is a typed PostgreSQL value.
type pv struct {
	t     pgType
	null  bool
	b     bool
	i     int64
	f     float64 // float4 values hold their float32 exactly
	d     *big.Rat
	scale int // numeric display scale; -1 when not known
	s     string
}

// Eval returns n's value on row, or an error wrapping ErrUnknown when the evaluator is not sure.
func (Postgres) Eval(n *Node, row Row) (Value, error) {
	return evalRecover(func() Value {
		e := pgEval{row: row}
		return e.eval(n).value()
	})
}

// evalRecover runs an evaluation, turning an unsure panic into ErrUnknown.
func evalRecover(f func() Value) (v Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unknown)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%w: %s", ErrUnknown, string(u))
		}
	}()
	return f(), nil
}

// Truth reads a Boolean: NULL is null, anything but a Boolean is not known.
func (Postgres) Truth(v Value) (t, null, ok bool) {
	switch v.C {
	case Null:
		return false, true, true
	case Bool:
		return v.I != 0, false, true
	}
	return false, false, false
}

// Literal returns a PostgreSQL literal of v: floats as casts of their text, so that NaN and the
// infinities have one too.
func (Postgres) Literal(v Value) (string, bool) {
	switch v.C {
	case Null:
		return "NULL", true
	case Int:
		return strconv.FormatInt(v.I, 10), true
	case Decimal:
		if _, ok := new(big.Rat).SetString(v.S); !ok {
			return "", false
		}
		if !strings.Contains(v.S, ".") {
			return v.S + ".0", true // a numeric, not an integer
		}
		return v.S, true
	case Real:
		if v.Single {
			return "CAST('" + floatText(v.R, 32) + "' AS REAL)", true
		}
		return "CAST('" + floatText(v.R, 64) + "' AS DOUBLE PRECISION)", true
	case Bool:
		if v.I != 0 {
			return "TRUE", true
		}
		return "FALSE", true
	case Text:
		if strings.IndexByte(v.S, 0) >= 0 || !utf8.ValidString(v.S) {
			return "", false
		}
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'", true
	}
	return "", false
}

// value converts a typed value to the evaluator's.
func (v pv) value() Value {
	if v.null {
		return Value{}
	}
	switch {
	case v.t == pgBool:
		if v.b {
			return Value{C: Bool, I: 1}
		}
		return Value{C: Bool}
	case v.t.isInt():
		return Value{C: Int, I: v.i}
	case v.t == pgNumeric:
		return Value{C: Decimal, S: ratText(v.d)}
	case v.t.isFloat():
		return Value{C: Real, R: v.f, Single: v.t == pgFloat4}
	}
	return Value{C: Text, S: v.s}
}

// ratText prints a rational with a finite decimal expansion in its shortest plain form.
func ratText(r *big.Rat) string {
	x := new(big.Rat).Set(r)
	k := 0
	ten := big.NewRat(10, 1)
	for !x.IsInt() {
		if k > 1000 {
			unsure("no finite decimal")
		}
		x.Mul(x, ten)
		k++
	}
	return scaled(x.Num(), k)
}

// scaled prints n × 10^-k with exactly k decimals.
func scaled(n *big.Int, k int) string {
	neg := n.Sign() < 0
	digits := new(big.Int).Abs(n).String()
	if k > 0 {
		if len(digits) <= k {
			digits = strings.Repeat("0", k-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-k] + "." + digits[len(digits)-k:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// numericOut prints a numeric with its display scale, as numeric_out does.
func numericOut(r *big.Rat, scale int) string {
	if scale < 0 {
		unsure("numeric text with an unknown scale")
	}
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	if !x.IsInt() {
		unsure("numeric with more digits than its scale")
	}
	return scaled(x.Num(), scale)
}

// floatText prints a float as float8out and float4out do (shortest exact digits, plain notation
// for decimal exponents from -4 to below 15, or 6 for real).
func floatText(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	limit := 15
	if bits == 32 {
		limit = 6
	}
	if exp >= -4 && exp < limit {
		return strconv.FormatFloat(f, 'f', -1, bits)
	}
	return e
}

type pgEval struct {
	row Row
	// duck applies DuckDB's rules where they differ (duckdb.go).
	duck bool
}

func nullOf(t pgType) pv { return pv{t: t, null: true, scale: -1} }

func boolPV(b bool) pv { return pv{t: pgBool, b: b} }

// declType reads a declared column or CAST type: the type and, for numeric, its scale.
func (e *pgEval) declType(decl string) (pgType, int) {
	u := strings.ToUpper(strings.TrimSpace(decl))
	if e.duck {
		return duckType(u)
	}
	switch {
	case u == "SMALLINT" || u == "INT2":
		return pgInt2, 0
	case u == "INT" || u == "INTEGER" || u == "INT4":
		return pgInt4, 0
	case u == "BIGINT" || u == "INT8":
		return pgInt8, 0
	case u == "NUMERIC" || u == "DECIMAL":
		return pgNumeric, -1
	case strings.HasPrefix(u, "NUMERIC(") || strings.HasPrefix(u, "DECIMAL("):
		_, sc, ok := strings.Cut(strings.TrimSuffix(u, ")"), ",")
		n, err := strconv.Atoi(strings.TrimSpace(sc))
		if !ok || err != nil {
			n = 0
		}
		return pgNumeric, n
	case u == "REAL" || u == "FLOAT4":
		return pgFloat4, 0
	case u == "DOUBLE PRECISION" || u == "FLOAT8" || u == "FLOAT":
		return pgFloat8, 0
	case u == "TEXT":
		return pgText, 0
	case strings.HasPrefix(u, "VARCHAR") || strings.HasPrefix(u, "CHARACTER VARYING"):
		return pgVarchar, 0
	case strings.HasPrefix(u, "CHAR"):
		return pgBpchar, 0
	case u == "BOOLEAN" || u == "BOOL":
		return pgBool, 0
	}
	unsure("type %s", decl)
	return 0, 0
}

func (e *pgEval) column(n *Node) pv {
	c, ok := e.row[n.Tok]
	if !ok {
		unsure("column %s not in the row", n.Tok)
	}
	t, scale := e.declType(c.Type)
	v := c.V
	if v.C == Null {
		return nullOf(t)
	}
	switch {
	case t == pgBool && v.C == Bool:
		return boolPV(v.I != 0)
	case t.isInt() && v.C == Int:
		return pv{t: t, i: v.I}
	case t == pgNumeric && v.C == Decimal:
		r, ok := new(big.Rat).SetString(v.S)
		if !ok {
			unsure("numeric %s", v.S)
		}
		return pv{t: t, d: r, scale: scale}
	case t == pgFloat4 && v.C == Real:
		return pv{t: t, f: float64(float32(v.R))}
	case t == pgFloat8 && v.C == Real:
		return pv{t: t, f: v.R}
	case t.isString() && v.C == Text:
		return pv{t: t, s: v.S}
	}
	unsure("value %s of a %s column", v.Canonical(), c.Type)
	return pv{}
}

func (e *pgEval) literal(n *Node) pv {
	s := n.Tok
	switch {
	case s == "NULL":
		return nullOf(pgUnknown)
	case s == "TRUE" || s == "FALSE":
		return boolPV(s == "TRUE")
	case s[0] == '\'':
		return pv{t: pgUnknown, s: strings.ReplaceAll(s[1:len(s)-1], "''", "'")}
	case strings.ContainsAny(s, ".eE"):
		return numericIn(s, false)
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		if i == int64(int32(i)) {
			return pv{t: pgInt4, i: i}
		}
		return pv{t: pgInt8, i: i}
	}
	return numericIn(s, false)
}

// numericIn reads a numeric as numeric_in does (with the blanks around it when trim).
func numericIn(s string, trim bool) pv {
	if trim {
		s = strings.Trim(s, " \t\n\r\f\v")
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		unsure("numeric %q", s)
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(body), "e")
	ip, fp, _ := strings.Cut(mant, ".")
	if ip+fp == "" || !digitsOnly(ip) || !digitsOnly(fp) {
		unsure("numeric %q", s)
	}
	x := 0
	if hasExp {
		var err error
		x, err = strconv.Atoi(exp)
		if err != nil || x > 1000 || x < -1000 {
			unsure("numeric %q", s)
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		unsure("numeric %q", s)
	}
	return pv{t: pgNumeric, d: r, scale: max(len(fp)-x, 0)}
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (e *pgEval) eval(n *Node) pv {
	switch n.Op {
	case OpColumn:
		return e.column(n)
	case OpLiteral:
		return e.literal(n)
	case OpCollate:
		if e.duck {
			unsure("DuckDB's collations")
		}
		if n.Tok != `"C"` && n.Tok != `"POSIX"` {
			unsure("collation %s", n.Tok)
		}
		v := e.eval(n.Left)
		if !v.t.isString() {
			unsure("COLLATE on a %d", v.t)
		}
		return v
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
		return e.cast(n)
	case OpFunc:
		return e.call(n)
	}
	unsure("node %d", n.Op)
	return pv{}
}

func (e *pgEval) boolean(n *Node) pv {
	v := e.eval(n)
	if v.t == pgUnknown && v.null {
		return nullOf(pgBool)
	}
	if v.t != pgBool {
		unsure("not a Boolean: %s", n.Text)
	}
	return v
}

func not3(v pv) pv {
	if v.null {
		return v
	}
	return boolPV(!v.b)
}

func and3(a, b pv) pv {
	switch {
	case !a.null && !a.b || !b.null && !b.b:
		return boolPV(false)
	case a.null || b.null:
		return nullOf(pgBool)
	}
	return boolPV(true)
}

func or3(a, b pv) pv {
	switch {
	case !a.null && a.b || !b.null && b.b:
		return boolPV(true)
	case a.null || b.null:
		return nullOf(pgBool)
	}
	return boolPV(false)
}

func (e *pgEval) prefix(n *Node) pv {
	switch n.Tok {
	case "NOT":
		return not3(e.boolean(n.Left))
	case "-":
		v := e.eval(n.Left)
		switch {
		case v.null && (v.t.isNumber()):
			return v
		case v.t.isInt():
			return intResult(v.t, new(big.Int).Neg(big.NewInt(v.i)))
		case v.t == pgNumeric:
			return pv{t: pgNumeric, d: new(big.Rat).Neg(v.d), scale: v.scale}
		case v.t.isFloat():
			return pv{t: v.t, f: -v.f}
		}
	}
	unsure("prefix %s", n.Tok)
	return pv{}
}

func (e *pgEval) postfix(n *Node) pv {
	switch n.Tok {
	case "IS NULL", "ISNULL":
		return boolPV(e.eval(n.Left).null)
	case "IS NOT NULL", "NOTNULL":
		return boolPV(!e.eval(n.Left).null)
	}
	v := e.boolean(n.Left)
	switch n.Tok {
	case "IS TRUE":
		return boolPV(!v.null && v.b)
	case "IS NOT TRUE":
		return boolPV(v.null || !v.b)
	case "IS FALSE":
		return boolPV(!v.null && !v.b)
	case "IS NOT FALSE":
		return boolPV(v.null || v.b)
	case "IS UNKNOWN":
		return boolPV(v.null)
	case "IS NOT UNKNOWN":
		return boolPV(!v.null)
	}
	unsure("postfix %s", n.Tok)
	return pv{}
}

// intRange returns the bounds of an integer type.
func intRange(t pgType) (lo, hi int64) {
	switch t {
	case pgInt1:
		return math.MinInt8, math.MaxInt8
	case pgInt2:
		return math.MinInt16, math.MaxInt16
	case pgInt4:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// intResult is x as an integer of type t, unknown when it overflows (the server's error).
func intResult(t pgType, x *big.Int) pv {
	lo, hi := intRange(t)
	if !x.IsInt64() || x.Int64() < lo || x.Int64() > hi {
		unsure("integer out of range")
	}
	return pv{t: t, i: x.Int64()}
}

// floatResult is an arithmetic result of type t, unknown on overflow, or on an underflow of a
// product or quotient (float8mul's errors).
func floatResult(t pgType, f float64, infIn, zeroIn, checkZero bool) pv {
	if math.IsInf(f, 0) && !infIn || checkZero && f == 0 && !zeroIn {
		unsure("float out of range")
	}
	return pv{t: t, f: f}
}

// pgNumType returns the type two operands of one numeric operator are converted to.
func pgNumType(a, b pgType) pgType {
	switch {
	case a == b:
		return a
	case a == pgFloat8 || b == pgFloat8:
		return pgFloat8
	case a == pgFloat4 || b == pgFloat4:
		if a.isFloat() && b.isFloat() {
			return pgFloat8
		}
		return pgFloat4
	case a == pgNumeric || b == pgNumeric:
		return pgNumeric
	}
	return max(a, b)
}

// to converts v to type t the way an implicit cast does (unknown text through t's input
// function).
func to(v pv, t pgType) pv {
	if v.t == t {
		return v
	}
	if v.null {
		return nullOf(t)
	}
	switch {
	case v.t == pgUnknown:
		return castText(v.s, t)
	case t.isInt() && v.t.isInt():
		return intResult(t, big.NewInt(v.i))
	case t == pgNumeric && v.t.isInt():
		return pv{t: t, d: new(big.Rat).SetInt64(v.i), scale: 0}
	case t == pgFloat8 && v.t.isInt():
		return pv{t: t, f: float64(v.i)}
	case t == pgFloat4 && v.t.isInt():
		return pv{t: t, f: float64(float32(v.i))}
	case t == pgFloat8 && v.t == pgNumeric:
		f, _ := v.d.Float64()
		return pv{t: t, f: f}
	case t == pgFloat4 && v.t == pgNumeric:
		f, _ := v.d.Float32()
		if math.IsInf(float64(f), 0) {
			unsure("real out of range")
		}
		return pv{t: t, f: float64(f)}
	case t == pgFloat8 && v.t == pgFloat4:
		return pv{t: t, f: v.f}
	case v.t == pgBpchar && t.isString():
		return pv{t: t, s: strings.TrimRight(v.s, " ")}
	case v.t.isString() && t.isString():
		return pv{t: t, s: v.s}
	}
	unsure("conversion from %d to %d", v.t, t)
	return pv{}
}

// castText reads text as a value of type t, as t's input function does.
func castText(s string, t pgType) pv {
	switch {
	case t.isString():
		if t == pgUnknown {
			t = pgText
		}
		return pv{t: t, s: s}
	case t.isInt():
		x, err := strconv.ParseInt(strings.Trim(s, " \t\n\r\f\v"), 10, 64)
		if err != nil {
			unsure("integer input %q", s)
		}
		return intResult(t, big.NewInt(x))
	case t == pgNumeric:
		return numericIn(s, true)
	case t.isFloat():
		return floatIn(s, t)
	case t == pgBool:
		switch strings.ToLower(strings.Trim(s, " \t\n\r\f\v")) {
		case "t", "true", "yes", "on", "1":
			return boolPV(true)
		case "f", "false", "no", "off", "0":
			return boolPV(false)
		}
	}
	unsure("input %q as %d", s, t)
	return pv{}
}

// floatIn reads a float as float8in and float4in do.
func floatIn(s string, t pgType) pv {
	s = strings.Trim(s, " \t\n\r\f\v")
	low := strings.ToLower(strings.TrimLeft(s, "+-"))
	switch low {
	case "nan", "inf", "infinity":
	default:
		if low == "" || strings.ContainsAny(low, "_xp") {
			unsure("float input %q", s)
		}
	}
	bits := 64
	if t == pgFloat4 {
		bits = 32
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil || f == 0 && strings.ContainsAny(low, "123456789") {
		unsure("float input %q", s)
	}
	if tiny := 0x1p-1022; bits == 32 && f != 0 && math.Abs(f) < 0x1p-126 || f != 0 && math.Abs(f) < tiny {
		unsure("subnormal float input %q", s)
	}
	return pv{t: t, f: f}
}

// compare resolves a comparison operator on two operands as PostgreSQL's parser does and
// compares them; null when either is NULL.
func compare(a, b pv) (c int, isNull bool) {
	switch {
	case a.t == pgUnknown && b.t == pgUnknown:
		a, b = to(a, pgText), to(b, pgText)
	case a.t == pgUnknown:
		a = to(a, b.t)
	case b.t == pgUnknown:
		b = to(b, a.t)
	}
	if a.null || b.null {
		return 0, true
	}
	switch {
	case a.t.isString() && b.t.isString():
		if stringOp(a.t, b.t) == pgBpchar {
			return strings.Compare(strings.TrimRight(a.s, " "), strings.TrimRight(b.s, " ")), false
		}
		return strings.Compare(to(a, pgText).s, to(b, pgText).s), false
	case a.t == pgBool && b.t == pgBool:
		return cmpBool(a.b, b.b), false
	case a.t.isNumber() && b.t.isNumber():
		t := pgNumType(a.t, b.t)
		if t == pgFloat4 && (a.t != t || b.t != t) {
			// int or numeric against real: whether the server compares as real or as double,
			// the answer must be the same to be known.
			c4 := cmpFloat(to(a, pgFloat4).f, to(b, pgFloat4).f)
			c8 := cmpFloat(to(a, pgFloat8).f, to(b, pgFloat8).f)
			if c4 != c8 {
				unsure("real against a %d", max(a.t, b.t))
			}
			return c4, false
		}
		return cmpSame(to(a, t), to(b, t)), false
	}
	unsure("comparison of %d and %d", a.t, b.t)
	return 0, false
}

// stringOp returns the type a comparison of two strings takes: char(n) when one is char(n) and
// the other not text (bpchareq matches one side exactly, texteq no better), else text.
func stringOp(a, b pgType) pgType {
	if a == pgBpchar && b != pgText || b == pgBpchar && a != pgText {
		return pgBpchar
	}
	return pgText
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// cmpFloat orders floats as PostgreSQL does: NaN equals NaN and sorts above everything.
func cmpFloat(a, b float64) int {
	switch an, bn := math.IsNaN(a), math.IsNaN(b); {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpSame compares two non-NULL values of one type.
func cmpSame(a, b pv) int {
	switch {
	case a.t.isInt():
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	case a.t == pgNumeric:
		return a.d.Cmp(b.d)
	case a.t.isFloat():
		return cmpFloat(a.f, b.f)
	case a.t == pgBool:
		return cmpBool(a.b, b.b)
	case a.t == pgBpchar:
		return strings.Compare(strings.TrimRight(a.s, " "), strings.TrimRight(b.s, " "))
	}
	return strings.Compare(a.s, b.s)
}

func cmpOp(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "<>", "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	unsure("operator %s", op)
	return false
}

func cmp3(op string, a, b pv) pv {
	c, isNull := compare(a, b)
	if isNull {
		return nullOf(pgBool)
	}
	return boolPV(cmpOp(op, c))
}

func (e *pgEval) binary(n *Node) pv {
	switch n.Tok {
	case "AND":
		return and3(e.boolean(n.Left), e.boolean(n.Right))
	case "OR":
		return or3(e.boolean(n.Left), e.boolean(n.Right))
	case "LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE", "GLOB":
		return e.like(n)
	}
	if len(n.List) > 0 {
		unsure("ESCAPE")
	}
	if e.duck && isCmp(n.Tok) && (n.Left.Op == OpCollate || n.Right.Op == OpCollate) {
		return e.duckNocase(n)
	}
	a, b := e.eval(n.Left), e.eval(n.Right)
	switch n.Tok {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return cmp3(n.Tok, a, b)
	case "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		distinct := a.null != b.null
		if !a.null && !b.null {
			c, _ := compare(a, b)
			distinct = c != 0
		} else if a.null && b.null {
			compare(a, b) // the types must still compare
		}
		return boolPV(distinct == (n.Tok == "IS DISTINCT FROM"))
	case "||":
		if !a.t.isString() || !b.t.isString() {
			unsure("|| of %d and %d", a.t, b.t)
		}
		if a.null || b.null {
			return nullOf(pgText)
		}
		return pv{t: pgText, s: to(a, pgText).s + to(b, pgText).s}
	}
	return pgArith(n.Tok, a, b, e.duck)
}

// pgArith applies an arithmetic or bitwise operator; duck checks integer results against the
// narrower operand's range too.
func pgArith(op string, a, b pv, duck bool) pv {
	if !a.t.isNumber() || !b.t.isNumber() {
		unsure("%s on %d and %d", op, a.t, b.t)
	}
	t := pgNumType(a.t, b.t)
	if a.null || b.null {
		return nullOf(t)
	}
	narrow := min(a.t, b.t)
	a, b = to(a, t), to(b, t)
	switch {
	case t.isInt() && duck:
		// DuckDB may fit an integer literal to the other operand's narrower type.
		v := pgArith(op, a, b, false)
		intResult(narrow, big.NewInt(v.i))
		return v
	case t.isInt():
		x, y := big.NewInt(a.i), big.NewInt(b.i)
		switch op {
		case "+":
			return intResult(t, x.Add(x, y))
		case "-":
			return intResult(t, x.Sub(x, y))
		case "*":
			return intResult(t, x.Mul(x, y))
		case "/", "//", "%":
			if b.i == 0 {
				unsure("division by zero")
			}
			if op == "%" {
				return intResult(t, x.Rem(x, y))
			}
			return intResult(t, x.Quo(x, y))
		case "&":
			return pv{t: t, i: a.i & b.i}
		case "|":
			return pv{t: t, i: a.i | b.i}
		case "#":
			return pv{t: t, i: a.i ^ b.i}
		}
	case t == pgNumeric:
		sc := -1
		if a.scale >= 0 && b.scale >= 0 {
			sc = max(a.scale, b.scale)
			if op == "*" {
				sc = a.scale + b.scale
			}
		}
		switch op {
		case "+":
			return pv{t: t, d: new(big.Rat).Add(a.d, b.d), scale: sc}
		case "-":
			return pv{t: t, d: new(big.Rat).Sub(a.d, b.d), scale: sc}
		case "*":
			return pv{t: t, d: new(big.Rat).Mul(a.d, b.d), scale: sc}
		}
	case t.isFloat():
		infIn := math.IsInf(a.f, 0) || math.IsInf(b.f, 0)
		zeroIn := a.f == 0 || b.f == 0
		var f float64
		if t == pgFloat4 {
			x, y := float32(a.f), float32(b.f)
			switch op {
			case "+":
				f = float64(float32(x + y))
			case "-":
				f = float64(float32(x - y))
			case "*":
				f = float64(float32(x * y))
			default:
				unsure("%s on real", op)
			}
		} else {
			switch op {
			case "+":
				f = a.f + b.f
			case "-":
				f = a.f - b.f
			case "*":
				f = a.f * b.f
			default:
				unsure("%s on double", op)
			}
		}
		return floatResult(t, f, infIn, zeroIn, op == "*")
	}
	unsure("operator %s on %d", op, t)
	return pv{}
}

func (e *pgEval) between(n *Node) pv {
	x, lo, hi := e.eval(n.Left), e.eval(n.List[0]), e.eval(n.List[1])
	in := and3(cmp3(">=", x, lo), cmp3("<=", x, hi))
	if strings.HasSuffix(n.Tok, "SYMMETRIC") {
		in = or3(in, and3(cmp3(">=", x, hi), cmp3("<=", x, lo)))
	}
	if strings.HasPrefix(n.Tok, "NOT") {
		return not3(in)
	}
	return in
}

// hasColumn reports whether a column stands anywhere in n.
func hasColumn(n *Node) bool { return anyNode(n, func(m *Node) bool { return m.Op == OpColumn }) }

// in evaluates an IN list as the parser transforms it: the items without columns, when there
// are two or more, against the left operand in their common type (= ANY of an array); the
// others each with its own = operator.
func (e *pgEval) in(n *Node) pv {
	x := e.eval(n.Left)
	var consts, vars []pv
	for _, it := range n.List {
		v := e.eval(it)
		if hasColumn(it) {
			vars = append(vars, v)
		} else {
			consts = append(consts, v)
		}
	}
	res := boolPV(false)
	if len(consts) > 1 {
		t := commonType(append([]pv{x}, consts...))
		cx := to(x, t)
		for _, c := range consts {
			res = or3(res, cmp3("=", cx, to(c, t)))
		}
	} else {
		vars = append(vars, consts...)
	}
	for _, v := range vars {
		res = or3(res, cmp3("=", x, v))
	}
	if n.Tok == "NOT IN" {
		return not3(res)
	}
	return res
}

// commonType is select_common_type over the values' types: the first known type, unless a later
// one is what it converts to implicitly and not back (a wider number); unknown alone is text.
func commonType(vs []pv) pgType {
	t := pgUnknown
	for _, v := range vs {
		switch {
		case v.t == pgUnknown:
		case t == pgUnknown:
			t = v.t
		case t == v.t:
		case t.isString() && v.t.isString():
			// text and char(n) convert to each other implicitly: the first stays

		case t.isNumber() && v.t.isNumber():
			t = pgNumType(t, v.t)
			if t == pgFloat4 {
				unsure("common type with real") // the server converts ints and numerics to real: rare
			}
		default:
			unsure("no common type of %d and %d", t, v.t)
		}
	}
	if t == pgUnknown {
		return pgText
	}
	return t
}

// convertAll converts values to their common type. DuckDB's common DECIMAL has the largest
// scale of its inputs.
func (e *pgEval) convertAll(vs []pv) (pgType, []pv) {
	t := commonType(vs)
	out := make([]pv, len(vs))
	scale := 0
	for i, v := range vs {
		out[i] = to(v, t)
		switch {
		case v.t == pgUnknown: // an untyped NULL takes the others' type
		case scale >= 0 && out[i].scale >= 0:
			scale = max(scale, out[i].scale)
		default:
			scale = -1
		}
	}
	if e.duck && t == pgNumeric {
		if scale < 0 {
			// a DECIMAL whose scale (and width) is not known: DuckDB may answer a DOUBLE
			unsure("DuckDB's common type of DECIMALs")
		}
		for i := range out {
			out[i].scale = scale
		}
	}
	return t, out
}

func (e *pgEval) caseExpr(n *Node) pv {
	var base pv
	if n.Left != nil {
		base = e.eval(n.Left)
	}
	pairs := n.List
	if n.Else {
		pairs = pairs[:len(pairs)-1]
	}
	// The ELSE comes first in the choice of the result type.
	results := []pv{nullOf(pgUnknown)}
	if n.Else {
		results[0] = e.eval(n.List[len(n.List)-1])
	}
	for i := 1; i < len(pairs); i += 2 {
		results = append(results, e.eval(pairs[i]))
	}
	t, results := e.convertAll(results)
	results = append(results[1:], results[0])
	chosen := -1
	for i := 0; i < len(pairs); i += 2 {
		var w pv
		if n.Left != nil {
			w = cmp3("=", base, e.eval(pairs[i]))
		} else {
			w = e.boolean(pairs[i])
		}
		if chosen < 0 && !w.null && w.b {
			chosen = i / 2
		}
	}
	switch {
	case chosen >= 0:
		return results[chosen]
	case n.Else:
		return results[len(results)-1]
	}
	return nullOf(t)
}

func (e *pgEval) cast(n *Node) pv {
	v := e.eval(n.Left)
	t, scale := e.declType(n.Tok)
	if v.null {
		nv := nullOf(t)
		if e.duck && t == pgNumeric {
			nv.scale = scale
		}
		return nv
	}
	if e.duck {
		return duckCast(v, t, scale)
	}
	switch {
	case v.t == t:
		return v
	case v.t == pgUnknown:
		return castText(v.s, t)
	case t == pgText:
		return pv{t: t, s: textOut(v)}
	case v.t.isString():
		return castText(v.s, t)
	case t.isInt() && v.t.isInt():
		return intResult(t, big.NewInt(v.i))
	case t.isInt() && v.t == pgNumeric:
		return intResult(t, roundHalfAway(v.d, 0))
	case t.isInt() && v.t.isFloat():
		f := math.RoundToEven(v.f)
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e19 {
			unsure("float out of the integer range")
		}
		x, _ := new(big.Float).SetFloat64(f).Int(nil)
		return intResult(t, x)
	case t == pgNumeric && v.t.isFloat():
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			unsure("numeric NaN or infinity")
		}
		digits := 15
		bits := 64
		if v.t == pgFloat4 {
			digits, bits = 6, 32
		}
		return numericIn(strconv.FormatFloat(v.f, 'g', digits, bits), false)
	}
	return to(v, t)
}

// textOut prints a value as its type's output function does.
func textOut(v pv) string {
	switch {
	case v.t == pgBool:
		if v.b {
			return "true"
		}
		return "false"
	case v.t.isInt():
		return strconv.FormatInt(v.i, 10)
	case v.t == pgNumeric:
		return numericOut(v.d, v.scale)
	case v.t == pgFloat4:
		return floatText(v.f, 32)
	case v.t == pgFloat8:
		return floatText(v.f, 64)
	case v.t == pgBpchar:
		return strings.TrimRight(v.s, " ")
	}
	return v.s
}

// roundHalfAway rounds r to scale digits, halves away from zero, and returns it times 10^scale.
func roundHalfAway(r *big.Rat, scale int) *big.Int {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(p))
	num, den := x.Num(), x.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int)) // truncated
	twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
	if twice.Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// like evaluates [NOT] [I]LIKE with the default escape, a backslash.
func (e *pgEval) like(n *Node) pv {
	if len(n.List) > 0 {
		unsure("ESCAPE")
	}
	x, p := e.eval(n.Left), e.eval(n.Right)
	if !x.t.isString() || !p.t.isString() {
		unsure("LIKE on %d and %d", x.t, p.t)
	}
	if x.null || p.null {
		return nullOf(pgBool)
	}
	s := x.s // char(n) matches with its blanks (bpcharlike)
	pat := to(p, pgText).s
	if strings.Contains(n.Tok, "ILIKE") {
		if e.duck && (!isASCII(s) || !isASCII(pat)) {
			unsure("DuckDB's ILIKE beyond ASCII")
		}
		s, pat = asciiLower(s), asciiLower(pat)
	}
	ps, ss := []rune(pat), []rune(s)
	if !utf8.ValidString(pat) || !utf8.ValidString(s) {
		unsure("invalid UTF-8")
	}
	if n.Tok == "GLOB" {
		return boolPV(globMatch(ps, ss))
	}
	if e.duck { // no escape character unless ESCAPE names one
		return boolPV(likeMatch(ps, ss, -1, false) == !strings.HasPrefix(n.Tok, "NOT"))
	}
	m := likeMatch(ps, ss, '\\', false)
	if len(ps) > 0 && strings.HasSuffix(pat, "\\") {
		// a pattern ending in its escape is an error, unless the backslash is itself escaped
		k := 0
		for i := len(ps) - 1; i >= 0 && ps[i] == '\\'; i-- {
			k++
		}
		if k%2 == 1 {
			unsure("LIKE pattern ends with the escape")
		}
	}
	return boolPV(m == !strings.HasPrefix(n.Tok, "NOT"))
}

// textArg is a function's text argument: char(n) loses its trailing blanks.
func textArg(v pv) pv {
	if !v.t.isString() {
		unsure("text function on a %d", v.t)
	}
	if v.null {
		return nullOf(pgText)
	}
	return to(v, pgText)
}

func intArg(v pv) pv {
	if !v.t.isInt() {
		unsure("integer argument of a %d", v.t)
	}
	return v
}

func runeCount(s string) int64 { return int64(utf8.RuneCountInString(s)) }

func (e *pgEval) call(n *Node) pv {
	args := make([]pv, len(n.List))
	for i, a := range n.List {
		args[i] = e.eval(a)
	}
	switch n.Tok {
	case "coalesce", "greatest", "least":
		t, vs := e.convertAll(args)
		var out pv = nullOf(t)
		for _, v := range vs {
			if v.null {
				continue
			}
			switch {
			case out.null:
				out = v
				if n.Tok == "coalesce" {
					return out
				}
			case n.Tok == "greatest" && cmpSame(v, out) > 0, n.Tok == "least" && cmpSame(v, out) < 0:
				out = v
			}
		}
		return out
	case "nullif":
		if len(args) != 2 {
			break
		}
		// The result is the first argument as the = operator takes it.
		a, b := args[0], args[1]
		var t pgType
		switch {
		case a.t.isString() && b.t.isString():
			t = stringOp(a.t, b.t)
		case a.t.isInt() && b.t.isInt() || a.t.isFloat() && b.t.isFloat():
			t = a.t // a cross-type operator (int24eq, float48eq) takes it as it is
		case a.t.isNumber() && b.t.isNumber():
			t = pgNumType(a.t, b.t)
			if t == pgFloat4 && a.t != b.t {
				unsure("NULLIF of real and a %d", max(a.t, b.t))
			}
		case a.t == pgUnknown:
			t = b.t
		default:
			t = a.t
		}
		c := cmp3("=", a, b)
		if !c.null && c.b {
			return nullOf(t)
		}
		r := to(a, t)
		if e.duck {
			r.scale = -1 // DuckDB's NULLIF may widen a DECIMAL
		}
		return r
	}
	if len(args) == 0 {
		unsure("function %s", n.Tok)
	}
	if e.duck && n.Tok == "concat" {
		return duckFunc(n.Tok, args)
	}
	for _, a := range args {
		if a.null && e.duck && n.Tok == "sign" {
			return nullOf(pgInt4)
		}
		if a.null && e.duck && (n.Tok == "floor" || n.Tok == "round") && args[0].t.isFloat() {
			return nullOf(args[0].t)
		}
		if a.null {
			return nullOf(funcType(n.Tok, args[0].t))
		}
	}
	switch n.Tok {
	case "abs":
		a := args[0]
		switch {
		case a.t.isInt():
			return intResult(a.t, new(big.Int).Abs(big.NewInt(a.i)))
		case a.t == pgNumeric:
			return pv{t: a.t, d: new(big.Rat).Abs(a.d), scale: a.scale}
		case a.t.isFloat():
			return pv{t: a.t, f: math.Abs(a.f)}
		}
	case "length", "char_length":
		return pv{t: pgInt4, i: runeCount(textArg(args[0]).s)}
	case "lower", "upper", "initcap", "trim", "ltrim", "rtrim", "reverse", "md5":
		if a := textArg(args[0]).s; e.duck && !isASCII(a) && n.Tok != "md5" && n.Tok != "reverse" {
			unsure("DuckDB's %s beyond ASCII", n.Tok)
		}
		return pv{t: pgText, s: textFunc(n.Tok, textArg(args[0]).s)}
	case "concat", "contains", "suffix":
		if !e.duck {
			break
		}
		return duckFunc(n.Tok, args)
	case "ascii":
		s := textArg(args[0]).s
		if s == "" {
			return pv{t: pgInt4}
		}
		r, _ := utf8.DecodeRuneInString(s)
		return pv{t: pgInt4, i: int64(r)}
	case "replace":
		s, from, with := textArg(args[0]).s, textArg(args[1]).s, textArg(args[2]).s
		if from == "" {
			return pv{t: pgText, s: s}
		}
		return pv{t: pgText, s: strings.ReplaceAll(s, from, with)}
	case "strpos":
		s, sub := textArg(args[0]).s, textArg(args[1]).s
		i := strings.Index(s, sub)
		if i < 0 {
			return pv{t: pgInt4}
		}
		return pv{t: pgInt4, i: runeCount(s[:i]) + 1}
	case "starts_with":
		return boolPV(strings.HasPrefix(textArg(args[0]).s, textArg(args[1]).s))
	case "substr":
		rs := []rune(textArg(args[0]).s)
		start, count := intArg(args[1]).i, intArg(args[2]).i
		if count < 0 {
			unsure("negative substring length")
		}
		lo, hi := max(start, 1), start+count
		if hi <= lo || lo > int64(len(rs)) {
			return pv{t: pgText}
		}
		return pv{t: pgText, s: string(rs[lo-1 : min(hi-1, int64(len(rs)))])}
	case "left", "right":
		rs := []rune(textArg(args[0]).s)
		k := intArg(args[1]).i
		if k < 0 {
			k = max(int64(len(rs))+k, 0)
		}
		k = min(k, int64(len(rs)))
		if n.Tok == "left" {
			return pv{t: pgText, s: string(rs[:k])}
		}
		return pv{t: pgText, s: string(rs[int64(len(rs))-k:])}
	case "repeat":
		s, k := textArg(args[0]).s, intArg(args[1]).i
		if k <= 0 {
			return pv{t: pgText}
		}
		if k > 100 {
			unsure("long repeat")
		}
		return pv{t: pgText, s: strings.Repeat(s, int(k))}
	case "lpad":
		rs, k, fill := []rune(textArg(args[0]).s), intArg(args[1]).i, []rune(textArg(args[2]).s)
		if k <= 0 {
			return pv{t: pgText}
		}
		if k > 1000 {
			unsure("long lpad")
		}
		if int64(len(rs)) >= k || len(fill) == 0 {
			return pv{t: pgText, s: string(rs[:min(k, int64(len(rs)))])}
		}
		var pad []rune
		for int64(len(pad)+len(rs)) < k {
			pad = append(pad, fill[len(pad)%len(fill)])
		}
		return pv{t: pgText, s: string(pad) + string(rs)}
	case "round":
		a := args[0]
		switch {
		case len(args) == 1 && a.t.isFloat() && e.duck:
			return pv{t: a.t, f: math.Round(a.f)}
		case len(args) == 1 && a.t.isFloat():
			return pv{t: pgFloat8, f: math.RoundToEven(a.f)}
		case len(args) == 2 && a.t == pgNumeric:
			sc := intArg(args[1]).i
			if sc < 0 || sc > 100 {
				unsure("round scale %d", sc)
			}
			q := roundHalfAway(a.d, int(sc))
			p := new(big.Int).Exp(big.NewInt(10), big.NewInt(sc), nil)
			if e.duck {
				sc = -1 // DuckDB's scale of round() is not modelled
			}
			return pv{t: pgNumeric, d: new(big.Rat).SetFrac(q, p), scale: int(sc)}
		}
	case "floor":
		if a := args[0]; a.t.isFloat() && e.duck {
			return pv{t: a.t, f: math.Floor(a.f)} // DuckDB's floor keeps REAL
		} else if a.t.isFloat() {
			return pv{t: pgFloat8, f: math.Floor(a.f)}
		}
	case "ceil", "trunc", "sign":
		a := args[0]
		if a.t != pgNumeric {
			break
		}
		num, den := a.d.Num(), a.d.Denom()
		q, m := new(big.Int).QuoRem(num, den, new(big.Int))
		switch n.Tok {
		case "ceil":
			if m.Sign() > 0 {
				q.Add(q, big.NewInt(1))
			}
		case "sign":
			if e.duck {
				return pv{t: pgInt4, i: int64(a.d.Sign())}
			}
			q = big.NewInt(int64(a.d.Sign()))
		}
		sc := 0
		if e.duck {
			sc = -1
		}
		return pv{t: pgNumeric, d: new(big.Rat).SetInt(q), scale: sc}
	case "mod":
		return pgArith("%", intArg(args[0]), intArg(args[1]), e.duck)
	}
	unsure("function %s on %d", n.Tok, args[0].t)
	return pv{}
}

// funcType is the result type of a function of the dialect, for a NULL argument.
func funcType(name string, first pgType) pgType {
	switch name {
	case "length", "char_length", "strpos", "ascii":
		return pgInt4
	case "starts_with", "contains", "suffix":
		return pgBool
	case "abs", "mod", "ceil", "trunc", "sign":
		if first == pgUnknown {
			unsure("%s of an unknown", name)
		}
		return first
	case "round", "floor":
		if first.isFloat() {
			return pgFloat8
		}
		return first
	}
	return pgText
}

// textFunc applies a one-argument text function under the C collation (ASCII case mapping).
func textFunc(name, s string) string {
	switch name {
	case "lower":
		return asciiLower(s)
	case "upper":
		return asciiUpper(s)
	case "initcap":
		b := []byte(s)
		was := false
		for i, c := range b {
			switch {
			case was && c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			case !was && c >= 'a' && c <= 'z':
				c -= 'a' - 'A'
			}
			b[i] = c
			was = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		}
		return string(b)
	case "trim":
		return strings.Trim(s, " ")
	case "ltrim":
		return strings.TrimLeft(s, " ")
	case "rtrim":
		return strings.TrimRight(s, " ")
	case "reverse":
		rs := []rune(s)
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return string(rs)
	case "md5":
		h := md5.Sum([]byte(s))
		return hex.EncodeToString(h[:])
	}
	unsure("function %s", name)
	return ""
}
