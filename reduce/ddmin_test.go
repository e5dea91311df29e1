package reduce

import (
	"context"
	"slices"
	"testing"
)

func TestDDMin(t *testing.T) {
	tests := []struct {
		name string
		n    int
		need []int // keep holds when all of these are present
		want []int
	}{
		{"single", 10, []int{7}, []int{7}},
		{"pair far apart", 16, []int{1, 14}, []int{1, 14}},
		{"three", 40, []int{3, 20, 39}, []int{3, 20, 39}},
		{"none needed", 8, nil, []int{}},
		{"all needed", 5, []int{0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items := make([]int, tc.n)
			for i := range items {
				items[i] = i
			}
			calls := 0
			got := DDMin(context.Background(), items, func(s []int) bool {
				calls++
				for _, x := range tc.need {
					if !slices.Contains(s, x) {
						return false
					}
				}
				return true
			})
			if !slices.Equal(got, tc.want) {
				t.Fatalf("DDMin = %v, want %v (%d calls)", got, tc.want, calls)
			}
		})
	}
}

// TestDDMinFlaky checks that a predicate which sometimes fails still yields a sequence that keep
// accepted, never one it rejected.
func TestDDMinFlaky(t *testing.T) {
	items := make([]int, 50)
	for i := range items {
		items[i] = i
	}
	accepted := map[string]bool{}
	n := 0
	got := DDMin(context.Background(), items, func(s []int) bool {
		n++
		ok := slices.Contains(s, 10) && slices.Contains(s, 33) && n%3 != 0
		if ok {
			accepted[key(s)] = true
		}
		return ok
	})
	if !accepted[key(got)] {
		t.Fatalf("DDMin returned %v, which keep never accepted", got)
	}
	if !slices.Contains(got, 10) || !slices.Contains(got, 33) {
		t.Fatalf("DDMin lost a needed item: %v", got)
	}
}

func TestFixpoint(t *testing.T) {
	// Halve a number while it stays above 10.
	half := PassFunc[int]{PassName: "half", Fn: func(v int) []int { return []int{v / 2, v - 1} }}
	got := Fixpoint(context.Background(), 1000, []Pass[int]{half}, func(v int) bool { return v > 10 }, 0)
	if got != 11 {
		t.Fatalf("Fixpoint = %d, want 11", got)
	}
}

func key(s []int) string {
	b := make([]byte, 0, len(s))
	for _, x := range s {
		b = append(b, byte(x))
	}
	return string(b)
}
