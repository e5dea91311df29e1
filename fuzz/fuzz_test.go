package fuzz

import (
	"encoding/json"
	"testing"
)

func TestCaseSeed(t *testing.T) {
	const per = 100
	for i := uint64(0); i < 1000; i++ {
		s := CaseSeed(42, i, per)
		if s&(1<<SetupBits-1) != i%per {
			t.Fatalf("case %d: low bits %d, want %d", i, s&(1<<SetupBits-1), i%per)
		}
		same := SetupSeed(s) == SetupSeed(CaseSeed(42, i/per*per, per))
		if !same {
			t.Fatalf("case %d does not share the setup seed of its group", i)
		}
		if i >= per && SetupSeed(s) == SetupSeed(CaseSeed(42, i-per, per)) {
			t.Fatalf("cases %d and %d of different groups share a setup seed", i, i-per)
		}
	}
	if CaseSeed(1, 5, 1) == CaseSeed(2, 5, 1) || CaseSeed(1, 5, 1) == CaseSeed(1, 6, 1) {
		t.Fatal("case seeds collide across campaign seeds or indices")
	}
}

func TestTitle(t *testing.T) {
	tests := []struct{ oracle, engine, summary, want string }{
		{"norec", "sqlite", "optimized query returns fewer rows", "norec: sqlite: optimized query returns fewer rows"},
		{"error", "sqlite", "SQLITE_ERROR no such column: 'x1' near 42", "error: sqlite: sqlite_error no such column: ? near n"},
		{"crash", "sqlite", "child exit status 86", "crash: sqlite: child exit status n"},
		{"error", "sqlite", "t0.c1 and 1.5e10 and 0x1f", "error: sqlite: t0.c1 and n and n"},
	}
	for _, tc := range tests {
		if got := Title(tc.oracle, tc.engine, tc.summary); got != tc.want {
			t.Errorf("Title(%q) = %q, want %q", tc.summary, got, tc.want)
		}
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		v    string
		n    int64
		isOK bool
	}{
		{"i:3", 3, true}, {"NULL", 0, true}, {"d:4", 4, true}, {"r:2", 2, true}, {"B:true", 1, true},
		{"r:2.5", 0, false}, {"i:-1", 0, false}, {"t:3", 0, false}, {"b:00", 0, false},
	}
	for _, tc := range tests {
		n, ok := Count(tc.v)
		if n != tc.n || ok != tc.isOK {
			t.Errorf("Count(%q) = %d, %v; want %d, %v", tc.v, n, ok, tc.n, tc.isOK)
		}
	}
}

func TestEnumsByName(t *testing.T) {
	b, err := json.Marshal(struct {
		K Kind
		S Status
	}{KindHang, StatusTimeout})
	if err != nil || string(b) != `{"K":"hang","S":"timeout"}` {
		t.Fatalf("marshal: %s %v", b, err)
	}
	var k Kind
	if err := k.UnmarshalText([]byte("invalid")); err == nil {
		t.Fatal("the invalid kind was accepted")
	}
}
