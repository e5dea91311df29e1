package oracles

import "testing"

func TestNormalize(t *testing.T) {
	tests := []struct{ in, norm, loose string }{
		{"i:1", "n:1", "n:1"},
		{"d:1.0", "n:1", "n:1"},
		{"d:1.00", "n:1", "n:1"},
		{"r:1", "n:1", "n:1"},
		{"B:true", "n:1", "n:1"},
		{"B:false", "n:0", "n:0"},
		{"r:-0", "n:0", "n:0"},
		{"i:-12", "n:-12", "n:-12"},
		{"r:0.1", "n:1/10", "n:3602879701896397/36028797018963968"},
		{"d:0.1", "n:1/10", "n:1/10"},
		{"r:1.5e-3", "n:3/2000", "n:3458764513820541/2305843009213693952"},
		{"i:123456789012345678901234567890", "n:123456789012345678901234567890", "n:123456789012345678901234567890"},
		{"r:NaN", "n:NaN", "n:NaN"},
		{"r:+Inf", "n:+Inf", "n:+Inf"},
		{"r:-Inf", "n:-Inf", "n:-Inf"},
		{"d:NaN", "n:NaN", "n:NaN"},
		{"t:1", "t:1", "t:1"},
		{"t:Ab  ", "t:Ab  ", "t:ab"},
		{"t: A", "t: A", "t: a"},
		{"b:00ff", "b:00ff", "b:00ff"},
		{"b:00FF", "b:00FF", "b:00FF"},
		{"NULL", "NULL", "NULL"},
		{"sat", "sat", "sat"},
		{"i:x", "i:x", "i:x"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := Normalize(tc.in); got != tc.norm {
				t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.norm)
			}
			if got := Loose(tc.in); got != tc.loose {
				t.Errorf("Loose(%q) = %q, want %q", tc.in, got, tc.loose)
			}
		})
	}
}

func TestBagWith(t *testing.T) {
	rows := [][]string{{"i:1", "t:a"}, {"d:1.0", "t:a"}, {"r:1", "t:A"}}
	tests := []struct {
		name string
		key  func(string) string
		want int // distinct rows
	}{
		{"exact", nil, 3},
		{"normalized", Normalize, 2},
		{"loose", Loose, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBagWith(tc.key, rows)
			if len(b) != tc.want {
				t.Fatalf("%d distinct rows %v, want %d", len(b), b, tc.want)
			}
			n := 0
			for _, c := range b {
				n += c
			}
			if n != len(rows) {
				t.Fatalf("%d rows counted, want %d", n, len(rows))
			}
		})
	}
	if a, b := NewBag(rows), NewBagWith(nil, rows); a.key() != b.key() {
		t.Fatalf("NewBag and NewBagWith(nil) differ: %v vs %v", a, b)
	}
}

// TestLooseFloatEqualsInt checks that a float and an integer that engines compare equal (the
// float's binary value is the integer) share a loose key, while their Normalize keys differ.
func TestLooseFloatEqualsInt(t *testing.T) {
	f, i := "r:-9.223372036854776e+18", "i:-9223372036854775808"
	if Loose(f) != Loose(i) {
		t.Errorf("Loose(%s) = %s, Loose(%s) = %s; want equal", f, Loose(f), i, Loose(i))
	}
}
