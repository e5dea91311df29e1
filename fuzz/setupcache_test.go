package fuzz

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSetupCache walks seed sequences through a cache of size 3 and checks which Gets build.
func TestSetupCache(t *testing.T) {
	tests := []struct {
		name   string
		seeds  []uint64
		builds []uint64 // the seeds built, in order
		len    int
	}{
		{"hits", []uint64{1, 1, 1, 2, 2, 1}, []uint64{1, 2}, 2},
		{"full", []uint64{1, 2, 3, 1, 2, 3}, []uint64{1, 2, 3}, 3},
		{"oldest evicted", []uint64{1, 2, 3, 4, 1}, []uint64{1, 2, 3, 4, 1}, 3},
		{"no refresh on hit", []uint64{1, 2, 3, 1, 4, 2, 1}, []uint64{1, 2, 3, 4, 1}, 3},
		{"failures not kept", []uint64{7, 7, 1, 7}, []uint64{7, 7, 1, 7}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := NewSetupCache[string](3)
			var builds []uint64
			for _, s := range tc.seeds {
				v, err := c.Get(s, func() (string, error) {
					builds = append(builds, s)
					if s == 7 {
						return "", errors.New("seven")
					}
					return string(rune('a' + s)), nil
				})
				switch {
				case s == 7 && (err == nil || err.Error() != "seven"):
					t.Fatalf("Get(7) error = %v, want seven", err)
				case s != 7 && (err != nil || v != string(rune('a'+s))):
					t.Fatalf("Get(%d) = %q, %v", s, v, err)
				}
			}
			if !slices.Equal(builds, tc.builds) {
				t.Errorf("built %v, want %v", builds, tc.builds)
			}
			if c.Len() != tc.len {
				t.Errorf("Len() = %d, want %d", c.Len(), tc.len)
			}
		})
	}
}

// TestSetupCacheSingleFlight has many goroutines ask for a few seeds at once: each seed is built
// once and every caller gets its value.
func TestSetupCacheSingleFlight(t *testing.T) {
	c := NewSetupCache[uint64](8)
	var builds [4]atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := uint64(i % 4)
			v, err := c.Get(s, func() (uint64, error) {
				builds[s].Add(1)
				<-release // hold the build until every goroutine has started
				return s * 10, nil
			})
			if err != nil || v != s*10 {
				t.Errorf("Get(%d) = %d, %v", s, v, err)
			}
		}()
	}
	close(release)
	wg.Wait()
	for s := range builds {
		if n := builds[s].Load(); n != 1 {
			t.Errorf("seed %d built %d times, want once", s, n)
		}
	}
}

// TestSetupCachePanic checks that a panicking build panics in its caller, gives the callers
// waiting for it an error, and is not kept. A caller that comes after the panic builds anew;
// trials repeat until one caller has waited.
func TestSetupCachePanic(t *testing.T) {
	waitedOnce := false
	for trial := 0; trial < 100 && !waitedOnce; trial++ {
		c := NewSetupCache[int](2)
		started, release, panicked := make(chan struct{}), make(chan struct{}), make(chan any)
		go func() {
			defer func() { panicked <- recover() }()
			c.Get(1, func() (int, error) {
				close(started)
				<-release
				panic("boom")
			})
		}()
		<-started
		waited := make(chan error)
		go func() {
			_, err := c.Get(1, func() (int, error) { return 0, errors.New("built anew") })
			waited <- err
		}()
		time.Sleep(time.Millisecond)
		close(release)
		if p := <-panicked; p != "boom" {
			t.Fatalf("the building caller recovered %v, want boom", p)
		}
		switch err := <-waited; {
		case errors.Is(err, errSetupPanicked):
			waitedOnce = true
		case err == nil || err.Error() != "built anew":
			t.Fatalf("the other caller got %v", err)
		}
		if v, err := c.Get(1, func() (int, error) { return 5, nil }); v != 5 || err != nil {
			t.Fatalf("Get after a panic = %d, %v; want a new build", v, err)
		}
	}
	if !waitedOnce {
		t.Error("no caller waited for the panicking build")
	}
}
