package fuzz

import (
	"math"
	"testing"
)

func TestDecimal(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1", "d:1"},
		{"1.500", "d:1.5"},
		{"2.000", "d:2"},
		{"-0.0", "d:0"},
		{"0", "d:0"},
		{"0.000", "d:0"},
		{"007.10", "d:7.1"},
		{"-12.3400", "d:-12.34"},
		{"+5", "d:5"},
		{".5", "d:0.5"},
		{"5.", "d:5"},
		{"0.0001", "d:0.0001"},
		{"100", "d:100"},
		{"1.2e3", "d:1200"},
		{"1.5E-3", "d:0.0015"},
		{"-120e-1", "d:-12"},
		{"12345678901234567890.123456789012345678900", "d:12345678901234567890.1234567890123456789"},
		{"NaN", "d:NaN"},
		{"Infinity", "d:+Inf"},
		{"-Infinity", "d:-Inf"},
		{"inf", "d:+Inf"},
		{"abc", "d:abc"},
		{"", "d:"},
		{"1.2.3", "d:1.2.3"},
		{"-", "d:-"},
		{"1e999999999", "d:1e999999999"},
	}
	for _, tc := range tests {
		if got := Decimal(tc.in); got != tc.want {
			t.Errorf("Decimal(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFloat32(t *testing.T) {
	tests := []struct {
		in   float32
		want string
	}{
		{0.1, "r:0.1"},
		{1.5, "r:1.5"},
		{float32(math.Inf(-1)), "r:-Inf"},
		{float32(math.NaN()), "r:NaN"},
		{float32(math.Copysign(0, -1)), "r:-0"},
		{3.4028235e38, "r:3.4028235e+38"},
	}
	for _, tc := range tests {
		if got := Float32(tc.in); got != tc.want {
			t.Errorf("Float32(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
