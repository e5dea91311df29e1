package rowserver

import "testing"

func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"NULL", "NULL"}, {"i:7", "i:7"}, {"t:a", "t:a"}, {"b:00ff", "b:00ff"}, {"B:true", "B:true"},
		{"r:0.1", "r:0.1"}, {"r:1e+20", "r:1e+20"}, {"r:nan", "r:NaN"}, {"r:inf", "r:+Inf"}, {"r:-inf", "r:-Inf"}, {"r:-0.0", "r:-0"},
		{"f:0.10000000149011612", "r:0.1"}, {"d:1.50", "d:1.5"}, {"d:-0.0", "d:0"}, {"x:2020-01-31", "t:2020-01-31"},
	} {
		if got := Canonical(tc.in); got != tc.want {
			t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
