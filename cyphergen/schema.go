// Package cyphergen generates property graphs and Cypher as GDsmith does: a random abstract
// schema (labels, relationship types, typed property keys), a random graph over it that depends
// only on ([Options], seed), and the Cypher statements that create that graph on an engine.
package cyphergen

import (
	"math/rand/v2"
	"strconv"
)

// Type is the type of a property key's values.
type Type uint8

// The property types. GDsmith has Integer (its NUMBER, 32-bit), String and Boolean.
const (
	Integer Type = iota + 1
	Float
	String
	Boolean
)

var typeNames = [...]string{Integer: "integer", Float: "float", String: "string", Boolean: "boolean"}

// String returns the type's name: integer, float, string or boolean.
func (t Type) String() string {
	if t >= Integer && t <= Boolean {
		return typeNames[t]
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// Value is a property value; the field that Type names holds it.
type Value struct {
	Type  Type
	Int   int64
	Float float64
	Str   string
	Bool  bool
}

// IntValue returns an integer value.
func IntValue(i int64) Value { return Value{Type: Integer, Int: i} }

// FloatValue returns a float value.
func FloatValue(f float64) Value { return Value{Type: Float, Float: f} }

// StringValue returns a string value.
func StringValue(s string) Value { return Value{Type: String, Str: s} }

// BoolValue returns a boolean value.
func BoolValue(b bool) Value { return Value{Type: Boolean, Bool: b} }

// String returns the value as a Cypher literal ([Literal]).
func (v Value) String() string { return Literal(v) }

// Key is a typed property key.
type Key struct {
	Name string
	Type Type
}

// Label is a node label with the property keys its nodes may have.
type Label struct {
	Name string
	Keys []Key
}

// RelType is a relationship type with the property keys its relationships may have.
type RelType struct {
	Name string
	Keys []Key
}

// Schema is an abstract graph schema. Key names are unique across all labels and types.
type Schema struct {
	Labels   []Label
	RelTypes []RelType
}

// GenerateSchema draws a schema as GDsmith's CypherSchemaGenerator does: labels L0.., types
// T0.., each with its own property keys k0, k1, ... of random types from o.PropTypes. o must be
// valid ([Options.Validate]).
func GenerateSchema(o Options, r *rand.Rand) Schema {
	var s Schema
	n := 0
	keys := func() []Key {
		ks := make([]Key, between(r, o.Keys))
		for i := range ks {
			ks[i] = Key{"k" + strconv.Itoa(n), o.PropTypes[r.IntN(len(o.PropTypes))]}
			n++
		}
		return ks
	}
	for i := range between(r, o.Labels) {
		s.Labels = append(s.Labels, Label{"L" + strconv.Itoa(i), keys()})
	}
	for i := range between(r, o.RelTypes) {
		s.RelTypes = append(s.RelTypes, RelType{"T" + strconv.Itoa(i), keys()})
	}
	return s
}

// between draws uniformly from the inclusive range rg.
func between(r *rand.Rand, rg Range) int { return rg.Min + r.IntN(rg.Max-rg.Min+1) }
