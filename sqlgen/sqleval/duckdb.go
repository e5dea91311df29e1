package sqleval

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// DuckDB evaluates the expressions of polyfuzz's DuckDB dialect with PostgreSQL's tree walk and
// DuckDB's rules where they differ: VARCHAR only (no char(n)), DECIMAL with a declared scale
// (NUMERIC is DECIMAL(18,3)), `//`, GLOB, LIKE without a default escape, concat, contains, suffix.
// What it has not learnt is unknown: collations, case mapping and ILIKE beyond ASCII, floats as
// text, TINYINT and HUGEINT, ties in casts and rounding of floats.
type DuckDB struct{}

// Eval returns n's value on row, or an error wrapping ErrUnknown when the evaluator is not sure.
func (DuckDB) Eval(n *Node, row Row) (Value, error) {
	return evalRecover(func() Value {
		e := pgEval{row: row, duck: true}
		return e.eval(n).value()
	})
}

// Truth reads a Boolean as PostgreSQL does.
func (DuckDB) Truth(v Value) (t, null, ok bool) { return Postgres{}.Truth(v) }

// Literal returns a DuckDB literal of v. A float zero has none: its sign is not known to survive
// the engine's set operations.
func (DuckDB) Literal(v Value) (string, bool) {
	if v.C == Real {
		if v.R == 0 {
			return "", false
		}
		if v.Single {
			return "CAST('" + floatText(v.R, 32) + "' AS REAL)", true
		}
		return "CAST('" + floatText(v.R, 64) + "' AS DOUBLE)", true
	}
	return Postgres{}.Literal(v)
}

// duckType reads a DuckDB type name (upper case).
func duckType(u string) (pgType, int) {
	switch {
	case u == "TINYINT":
		return pgInt1, 0
	case u == "HUGEINT":
		return pgInt16, 0
	case u == "SMALLINT":
		return pgInt2, 0
	case u == "INTEGER" || u == "INT":
		return pgInt4, 0
	case u == "BIGINT":
		return pgInt8, 0
	case u == "NUMERIC" || u == "DECIMAL":
		return pgNumeric, 3
	case strings.HasPrefix(u, "DECIMAL(") || strings.HasPrefix(u, "NUMERIC("):
		_, sc, ok := strings.Cut(strings.TrimSuffix(u, ")"), ",")
		n, err := strconv.Atoi(strings.TrimSpace(sc))
		if !ok || err != nil {
			unsure("type %s", u)
		}
		return pgNumeric, n
	case u == "REAL" || u == "FLOAT":
		return pgFloat4, 0
	case u == "DOUBLE":
		return pgFloat8, 0
	case u == "VARCHAR" || u == "TEXT":
		return pgText, 0
	case u == "BOOLEAN":
		return pgBool, 0
	}
	unsure("type %s", u)
	return 0, 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// decimalScale returns the decimals r needs, unknown beyond 40.
func decimalScale(r *big.Rat) int {
	x := new(big.Rat).Set(r)
	for k := 0; k <= 40; k++ {
		if x.IsInt() {
			return k
		}
		x.Mul(x, big.NewRat(10, 1))
	}
	unsure("decimal of many digits")
	return 0
}

// duckCast is CAST(v AS t) with DuckDB's rules, where only exact conversions are known.
func duckCast(v pv, t pgType, scale int) pv {
	switch {
	case v.t == t && t != pgNumeric:
		return v
	case t == pgText:
		switch {
		case v.t.isFloat():
			unsure("DuckDB's float text")
		case v.t == pgNumeric:
			return pv{t: t, s: numericOut(v.d, v.scale)}
		}
		return pv{t: t, s: textOut(v)}
	case v.t.isString():
		s := v.s
		if strings.TrimSpace(s) != s || s == "" {
			unsure("DuckDB's text input %q", s)
		}
		switch {
		case t.isInt():
			x, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				unsure("integer input %q", s)
			}
			return intResult(t, big.NewInt(x))
		case t == pgNumeric:
			if strings.ContainsAny(s, "eE") {
				unsure("decimal input %q", s)
			}
			return toScale(numericIn(s, false), scale)
		case t.isFloat():
			return floatIn(s, t)
		}
	case t.isInt() && v.t.isInt():
		return intResult(t, big.NewInt(v.i))
	case t.isInt() && v.t == pgNumeric:
		return intResult(t, roundHalfAway(v.d, 0))
	case t.isInt() && v.t.isFloat():
		f := v.f
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e18 || f-math.Trunc(f) == 0.5 || math.Trunc(f)-f == 0.5 {
			unsure("float to integer")
		}
		return intResult(t, big.NewInt(int64(math.Round(f))))
	case t == pgNumeric && (v.t.isInt() || v.t == pgNumeric):
		return toScale(to(v, pgNumeric), scale)
	case t == pgNumeric && v.t.isFloat():
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			unsure("decimal of a NaN or infinity")
		}
		if v.t == pgFloat4 {
			// REAL scales in 32 bits: CAST(CAST('19846.5' AS REAL) AS DECIMAL(18,4)) is 19846.4992
			unsure("REAL to DECIMAL")
		}
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(v.f, 'g', -1, 64))
		return toScale(pv{t: pgNumeric, d: r, scale: -1}, scale)
	case t.isFloat() && v.t.isNumber():
		return to(v, t)
	}
	unsure("DuckDB cast from %d to %d", v.t, t)
	return pv{}
}

// toScale gives a decimal the scale of its type when that loses nothing, else it is unknown.
func toScale(v pv, scale int) pv {
	if scale < 0 || decimalScale(v.d) > scale {
		unsure("decimal rounded to %d digits", scale)
	}
	v.scale = scale
	return v
}

// duckFunc applies the text functions DuckDB has and PostgreSQL's dialect does not use.
func duckFunc(name string, args []pv) pv {
	if name == "concat" { // NULL arguments are skipped
		var b strings.Builder
		for _, a := range args {
			if !a.null {
				b.WriteString(textArg(a).s)
			}
		}
		return pv{t: pgText, s: b.String()}
	}
	for _, a := range args {
		if a.null {
			return nullOf(pgBool)
		}
	}
	if len(args) != 2 {
		unsure("%s arguments", name)
	}
	s, sub := textArg(args[0]).s, textArg(args[1]).s
	if name == "contains" {
		return boolPV(strings.Contains(s, sub))
	}
	return boolPV(strings.HasSuffix(s, sub))
}

func isCmp(op string) bool {
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// duckNocase compares with an operand under COLLATE NOCASE, which compares lower-cased strings;
// known for ASCII only.
func (e *pgEval) duckNocase(n *Node) pv {
	side := func(x *Node) pv {
		if x.Op == OpCollate {
			if x.Tok != "NOCASE" {
				unsure("collation %s", x.Tok)
			}
			x = x.Left
		}
		v := e.eval(x)
		if !v.t.isString() {
			unsure("collation on a %d", v.t)
		}
		if !isASCII(v.s) {
			unsure("NOCASE beyond ASCII")
		}
		v.s = asciiLower(v.s)
		return v
	}
	return cmp3(n.Tok, side(n.Left), side(n.Right))
}
