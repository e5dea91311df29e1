package cyphergen

import (
	"testing"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

func TestShowValue(t *testing.T) {
	node := cypherval.Val{Kind: cypherval.Node, Labels: []string{"L2", "L0"}, M: map[string]cypherval.Val{
		"id": cypherval.IntVal(104), "k0": cypherval.StringVal("x, k1: y"), "k1": cypherval.BoolVal(true),
		"k2": cypherval.FloatVal(2), "k3": cypherval.NullVal}}
	rel := cypherval.Val{Kind: cypherval.Rel, Labels: []string{"T2"}, M: map[string]cypherval.Val{"id": cypherval.IntVal(163)}}
	bare := cypherval.Val{Kind: cypherval.Node, M: map[string]cypherval.Val{}}
	labelled := cypherval.Val{Kind: cypherval.Node, Labels: []string{"A"}, M: map[string]cypherval.Val{}}
	tests := []struct {
		in   string
		want string
	}{
		{"NULL", "null"},
		{"i:-8", "-8"},
		{"r:1", "1.0"},
		{"r:0.3", "0.3"},
		{"r:NaN", "NaN"},
		{"r:+Inf", "Infinity"},
		{"r:-Inf", "-Infinity"},
		{"B:false", "false"},
		{"t:it's", `'it\'s'`},
		{"t:", "''"},
		{cypherval.ListVal(cypherval.IntVal(1), cypherval.StringVal("a, b"), cypherval.NullVal).Canon(), "[1, 'a, b', null]"},
		{cypherval.ListVal().Canon(), "[]"},
		{cypherval.ListVal(cypherval.Val{Kind: cypherval.Map, M: map[string]cypherval.Val{}}).Canon(), "[{}]"},
		{cypherval.Val{Kind: cypherval.Map, M: map[string]cypherval.Val{"b": cypherval.StringVal("}"), "a": cypherval.IntVal(1)}}.Canon(),
			"{a: 1, b: '}'}"},
		{node.Canon(), "(:L0:L2 {id: 104, k0: 'x, k1: y', k1: true, k2: 2.0})"},
		{rel.Canon(), "[:T2 {id: 163}]"},
		{bare.Canon(), "()"},
		{labelled.Canon(), "(:A)"},
		{cypherval.Val{Kind: cypherval.Path, L: []cypherval.Val{labelled, rel, bare}}.Canon(), "(:A)-[:T2 {id: 163}]-()"},
		{"n:(:L0 {id: i:1", "n:(:L0 {id: i:1"}, // not canonical text: kept
		{"sat", "sat"},
	}
	for _, tc := range tests {
		if got := ShowValue(tc.in); got != tc.want {
			t.Errorf("ShowValue(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
