package fuzz

import (
	"errors"
	"sync"
	"sync/atomic"
)

// SetupCache keeps what a generator built for its most recent setup seeds ([SetupSeed]), so that
// the consecutive cases that share a setup build it once. Get builds a missing setup once even
// when several workers ask for it at the same time: the others wait for that build. The cache
// holds at most its size of setups and forgets the oldest first. Failed builds are not kept.
// A SetupCache is safe for concurrent use; make one with [NewSetupCache].
type SetupCache[T any] struct {
	mu      sync.RWMutex
	entries map[uint64]*setupEntry[T]
	ring    []*setupEntry[T] // insertion order: the oldest at next once full
	next    int
}

type setupEntry[T any] struct {
	seed  uint64
	ready atomic.Bool   // v and err are set
	done  chan struct{} // closed once ready
	v     T
	err   error
}

// errSetupPanicked is what the waiters for a build get when the build panicked.
var errSetupPanicked = errors.New("fuzz: building the setup panicked")

// NewSetupCache returns a cache of at most size setups (at least one).
func NewSetupCache[T any](size int) *SetupCache[T] {
	size = max(size, 1)
	return &SetupCache[T]{entries: make(map[uint64]*setupEntry[T], size), ring: make([]*setupEntry[T], 0, size)}
}

// Get returns the setup of seed: the cached one, or the one build returns, which it keeps
// unless build fails. build runs once at a time per seed; callers that ask for a seed being
// built wait for it and share its result, error included. If build panics, Get panics and the
// callers waiting for it get an error.
func (c *SetupCache[T]) Get(seed uint64, build func() (T, error)) (T, error) {
	c.mu.RLock()
	e, ok := c.entries[seed]
	c.mu.RUnlock()
	if !ok {
		c.mu.Lock()
		if e, ok = c.entries[seed]; !ok {
			e = &setupEntry[T]{seed: seed, done: make(chan struct{})}
			c.add(e)
		}
		c.mu.Unlock()
	}
	if ok {
		if !e.ready.Load() {
			<-e.done
		}
		return e.v, e.err
	}
	built := false
	defer func() {
		if !built { // build panicked: tell the waiters, forget the entry, let the panic go on
			e.err = errSetupPanicked
			c.forget(e)
			e.ready.Store(true)
			close(e.done)
		}
	}()
	v, err := build()
	built = true
	e.v, e.err = v, err
	if err != nil {
		c.forget(e)
	}
	e.ready.Store(true)
	close(e.done)
	return v, err
}

// add enters e, evicting the oldest entry when the cache is full. c.mu is held.
func (c *SetupCache[T]) add(e *setupEntry[T]) {
	c.entries[e.seed] = e
	if len(c.ring) < cap(c.ring) {
		c.ring = append(c.ring, e)
		return
	}
	if old := c.ring[c.next]; c.entries[old.seed] == old {
		delete(c.entries, old.seed)
	}
	c.ring[c.next] = e
	c.next = (c.next + 1) % len(c.ring)
}

// forget removes e, if it is still the entry of its seed, so that the next Get builds again.
func (c *SetupCache[T]) forget(e *setupEntry[T]) {
	c.mu.Lock()
	if c.entries[e.seed] == e {
		delete(c.entries, e.seed)
	}
	c.mu.Unlock()
}

// Len returns how many setups the cache holds, builds under way included.
func (c *SetupCache[T]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
