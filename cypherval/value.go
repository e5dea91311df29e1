// Package cypherval holds the values a Cypher query returns (null, booleans, numbers, strings,
// lists, maps, nodes, relationships, paths) and their canonical text, shared by the reference
// evaluator and the graph drivers so that every engine's rows print the same way.
package cypherval

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Kind is the type of a value.
type Kind uint8

// The kinds of values. The zero value is null.
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	List
	Map
	Node
	Rel
	Path
)

var kindNames = [...]string{"null", "boolean", "integer", "float", "string", "list", "map", "node", "relationship", "path"}

// String returns the kind's name as Cypher's type names read ("integer", "node").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Val is one Cypher value. Kind says which fields hold it:
//
//	Bool            B
//	Int             I
//	Float           F
//	String          S
//	List            L (the elements)
//	Map             M
//	Node            Labels, M (the properties), ID
//	Rel             Labels[0] (the type), M (the properties), ID, From and To (node IDs)
//	Path            L: node, relationship, node, ... alternating, starting and ending with a node
//
// ID, From and To identify elements inside one engine's graph; they are never printed, since
// engines number elements differently.
type Val struct {
	Kind     Kind
	B        bool
	I        int64
	F        float64
	S        string
	L        []Val
	M        map[string]Val
	Labels   []string
	ID       int64
	From, To int64
}

// The null value.
var NullVal = Val{}

// BoolVal returns a boolean.
func BoolVal(b bool) Val { return Val{Kind: Bool, B: b} }

// IntVal returns an integer.
func IntVal(i int64) Val { return Val{Kind: Int, I: i} }

// FloatVal returns a float.
func FloatVal(f float64) Val { return Val{Kind: Float, F: f} }

// StringVal returns a string.
func StringVal(s string) Val { return Val{Kind: String, S: s} }

// ListVal returns a list of the given elements.
func ListVal(elems ...Val) Val { return Val{Kind: List, L: elems} }

// IsNull reports whether v is null.
func (v Val) IsNull() bool { return v.Kind == Null }

// Round15 rounds f to 15 significant decimal digits, the precision FalkorDB prints doubles with
// (%.15g); every engine's floats are compared after it.
func Round15(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return f
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	if err != nil {
		return f
	}
	return r
}

// Canon returns v's canonical text:
//
//	NULL, i:<int>, t:<string>, B:true|false   as fuzz's canonical values
//	r:<float>                                 the float rounded by Round15, shortest form ("r:0.3")
//	l:[v, v, ...]                             a list of canonical values
//	m:{k: v, ...}                             a map, keys sorted
//	n:(:L0:L2 {id: i:3, k1: t:x})             a node: labels and property keys sorted
//	e:[:T1 {id: i:9}]                         a relationship: its type and properties
//	p:<n:(...), e:[...], n:(...)>             a path
//
// Element identities (IDs) are not part of the text: elements compare by labels and properties,
// which is exact for generated graphs since every element has a unique id property.
func (v Val) Canon() string {
	var b strings.Builder
	v.canon(&b)
	return b.String()
}

func (v Val) canon(b *strings.Builder) {
	switch v.Kind {
	case Null:
		b.WriteString(fuzz.Null)
	case Bool:
		b.WriteString("B:" + strconv.FormatBool(v.B))
	case Int:
		b.WriteString(fuzz.Int(v.I))
	case Float:
		f := Round15(v.F)
		switch {
		case math.IsNaN(f):
			b.WriteString("r:NaN")
		case math.IsInf(f, 1):
			b.WriteString("r:+Inf")
		case math.IsInf(f, -1):
			b.WriteString("r:-Inf")
		default:
			b.WriteString(fuzz.Float(f))
		}
	case String:
		b.WriteString("t:" + v.S)
	case List:
		b.WriteString("l:[")
		for i, e := range v.L {
			if i > 0 {
				b.WriteString(", ")
			}
			e.canon(b)
		}
		b.WriteString("]")
	case Map:
		b.WriteString("m:")
		canonProps(b, v.M, false)
	case Node:
		b.WriteString("n:(")
		ls := slices.Clone(v.Labels)
		slices.Sort(ls)
		for _, l := range ls {
			b.WriteString(":" + l)
		}
		if len(ls) > 0 {
			b.WriteByte(' ')
		}
		canonProps(b, v.M, true)
		b.WriteString(")")
	case Rel:
		b.WriteString("e:[")
		if len(v.Labels) > 0 {
			b.WriteString(":" + v.Labels[0] + " ")
		}
		canonProps(b, v.M, true)
		b.WriteString("]")
	case Path:
		b.WriteString("p:<")
		for i, e := range v.L {
			if i > 0 {
				b.WriteString(", ")
			}
			e.canon(b)
		}
		b.WriteString(">")
	default:
		b.WriteString("?" + v.Kind.String())
	}
}

// canonProps prints a map with sorted keys; with props, null entries are left out, since a
// property set to null does not exist.
func canonProps(b *strings.Builder, m map[string]Val, props bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b.WriteString("{")
	n := 0
	for _, k := range keys {
		if props && m[k].Kind == Null {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		b.WriteString(k + ": ")
		m[k].canon(b)
	}
	b.WriteString("}")
}

// CanonRow returns the canonical texts of a row.
func CanonRow(row []Val) []string {
	out := make([]string, len(row))
	for i, v := range row {
		out[i] = v.Canon()
	}
	return out
}
