// Package capped is a cache of what, once learnt, does not change (a
// mint's decimals, a pair's address, a pool's vaults), bounded: a process
// that meets millions of tokens over the weeks it runs holds at most Size
// of them, since a full cache starts again. What it forgets is read again
// when next needed.
package capped

import "sync"

// Size is the most entries a Cache holds.
const Size = 100_000

// Cache maps keys to values, at most Size of them. The zero value is
// empty and ready; it is safe for concurrent use.
type Cache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// Get returns the value of k, if the cache holds one.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

// Put sets the value of k; when the cache holds Size entries already, it
// forgets them all first.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= Size {
		c.m = make(map[K]V)
	}
	c.m[k] = v
}

// Len returns how many entries the cache holds.
func (c *Cache[K, V]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
