package sqlgen

import "testing"

func TestShowValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"NULL", "NULL"},
		{"i:-8", "-8"},
		{"d:1.50", "1.50"},
		{"r:1", "1.0"},
		{"r:2.5e+300", "2.5e+300"},
		{"r:NaN", "NaN"},
		{"r:+Inf", "Inf"},
		{"t:it's", "'it''s'"},
		{"b:00ff", "X'00ff'"},
		{"B:true", "TRUE"},
		{"sat", "sat"},
	}
	for _, tc := range tests {
		if got := ShowValue(tc.in); got != tc.want {
			t.Errorf("ShowValue(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
