package capped

import "testing"

// TestCacheBounded: a full cache starts again, so it never holds more than
// Size entries, and what it holds reads back.
func TestCacheBounded(t *testing.T) {
	var c Cache[int, string]
	if _, ok := c.Get(1); ok {
		t.Fatal("an empty cache holds 1")
	}
	for i := range Size {
		c.Put(i, "v")
	}
	if v, ok := c.Get(Size - 1); !ok || v != "v" || c.Len() != Size {
		t.Fatalf("full: %q %v, %d entries", v, ok, c.Len())
	}
	c.Put(Size, "w")
	if c.Len() != 1 {
		t.Fatalf("%d entries past the bound, want 1", c.Len())
	}
	if _, ok := c.Get(0); ok {
		t.Fatal("an entry kept past the bound")
	}
	if v, _ := c.Get(Size); v != "w" {
		t.Fatalf("the last entry reads %q", v)
	}
}
