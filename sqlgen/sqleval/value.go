package sqleval

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Class is a value's storage class.
type Class uint8

// Storage classes, in SQLite's sort order.
const (
	Null Class = iota
	Int
	Real
	Text
	Blob
	Bool    // I: 0 or 1 (PostgreSQL's boolean)
	Decimal // S: an exact decimal in its shortest plain form ("1.5", "-0.001", "1200")
)

// Value is one SQL value.
type Value struct {
	C Class
	I int64
	R float64
	S string // Text and Blob bytes
	// Single marks a Real of 32 bits (PostgreSQL's real): it prints as its float32.
	Single bool
}

// Affinity is a column's or an expression's type affinity.
type Affinity uint8

// Affinities. AffNone is an expression's lack of one; AffBlob is a column's without a declared
// type.
const (
	AffNone Affinity = iota
	AffBlob
	AffText
	AffNumeric
	AffInteger
	AffReal
)

// numeric reports whether a is NUMERIC, INTEGER or REAL.
func (a Affinity) numeric() bool { return a >= AffNumeric }

// Column is one column of the row an expression is evaluated on.
type Column struct {
	V    Value
	Aff  Affinity
	Coll string // declared collation, "" for BINARY
	// Type is the declared type in a typed dialect ("INT", "NUMERIC(10,2)", "CHAR(8)"), which
	// PostgreSQL's rules read; SQLite reads Aff.
	Type string
}

// Evaluator is an engine's evaluation rules: SQLite's or PostgreSQL's.
type Evaluator interface {
	// Eval returns n's value on row, or an error wrapping ErrUnknown when it is not sure.
	Eval(n *Node, row Row) (Value, error)
	// Truth reads a value as a condition: true, false, or null; ok is false when the engine's
	// reading is not known.
	Truth(v Value) (t, null, ok bool)
	// Literal returns an SQL literal the engine reads back as v, false when there is none.
	Literal(v Value) (string, bool)
}

// Row maps column references (as the generator prints them, "t0.c1") to columns.
type Row map[string]Column

// ErrUnknown is returned when the evaluator is not sure of an expression's value.
var ErrUnknown = errors.New("sqleval: unknown")

// unknown aborts an evaluation; Eval recovers it into an error wrapping ErrUnknown.
type unknown string

func unsure(format string, args ...any) { panic(unknown(fmt.Sprintf(format, args...))) }

// ParseCanonical reads a value in polyfuzz's canonical typed form ("i:1", "r:1.5", "t:a",
// "b:00ff", "d:1.5", "B:true", "NULL").
func ParseCanonical(s string) (Value, error) {
	if s == "NULL" {
		return Value{}, nil
	}
	pre, rest, ok := strings.Cut(s, ":")
	if !ok {
		return Value{}, fmt.Errorf("sqleval: not a canonical value: %q", s)
	}
	switch pre {
	case "i":
		n, err := strconv.ParseInt(rest, 10, 64)
		return Value{C: Int, I: n}, err
	case "r":
		var f float64
		var err error
		switch rest {
		case "+Inf":
			f = math.Inf(1)
		case "-Inf":
			f = math.Inf(-1)
		default:
			f, err = strconv.ParseFloat(rest, 64)
		}
		return Value{C: Real, R: f}, err
	case "t":
		return Value{C: Text, S: rest}, nil
	case "b":
		b, err := hex.DecodeString(rest)
		return Value{C: Blob, S: string(b)}, err
	case "d":
		return Value{C: Decimal, S: rest}, nil
	case "B":
		switch rest {
		case "true":
			return Value{C: Bool, I: 1}, nil
		case "false":
			return Value{C: Bool}, nil
		}
	}
	return Value{}, fmt.Errorf("sqleval: unknown canonical prefix in %q", s)
}

// Canonical returns v in polyfuzz's canonical typed form.
func (v Value) Canonical() string {
	switch v.C {
	case Int:
		return "i:" + strconv.FormatInt(v.I, 10)
	case Real:
		if v.Single {
			return "r:" + strconv.FormatFloat(v.R, 'g', -1, 32)
		}
		return "r:" + strconv.FormatFloat(v.R, 'g', -1, 64)
	case Text:
		return "t:" + v.S
	case Decimal:
		return "d:" + v.S
	case Bool:
		if v.I != 0 {
			return "B:true"
		}
		return "B:false"
	case Blob:
		return "b:" + hex.EncodeToString([]byte(v.S))
	}
	return "NULL"
}

// Literal returns an SQL literal of v's value and storage class, and false when there is none
// the engines read back exactly (text with a NUL or invalid UTF-8).
func (v Value) Literal() (string, bool) {
	switch v.C {
	case Int:
		return strconv.FormatInt(v.I, 10), true
	case Real:
		switch {
		case math.IsInf(v.R, 1):
			return "1e999", true
		case math.IsInf(v.R, -1):
			return "-1e999", true
		case math.IsNaN(v.R):
			return "", false
		}
		s := strconv.FormatFloat(v.R, 'e', -1, 64)
		return s, true
	case Text:
		if strings.IndexByte(v.S, 0) >= 0 || !utf8.ValidString(v.S) {
			return "", false
		}
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'", true
	case Blob:
		return "x'" + hex.EncodeToString([]byte(v.S)) + "'", true
	}
	return "NULL", true
}
