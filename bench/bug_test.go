package bench

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/targets/fault"
)

var faultPlant = fault.Plant{Kind: "drop-row", Match: "WHERE"}

// TestRegistry checks that the registry reads and that every entry is complete.
func TestRegistry(t *testing.T) {
	bugs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bugs {
		if b.Origin == Planted && !strings.Contains(b.Fault(), `"id":"`+b.ID+`"`) {
			t.Errorf("%s: its fault does not carry its id: %s", b.ID, b.Fault())
		}
	}
}

func TestCheck(t *testing.T) {
	good := Bug{ID: "x", Domain: "sql", Origin: Planted, Class: "wrong-rows", Engine: "sqlite", Version: "3", Buggy: "sqlite",
		Trigger: "t", Ref: "r", Case: "c", Oracle: "norec", Plant: &faultPlant}
	if err := good.check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*Bug)
		want string
	}{
		{func(b *Bug) { b.ID = "X y" }, "want lower-case"},
		{func(b *Bug) { b.Ref = "" }, "missing ref"},
		{func(b *Bug) { b.Domain = "nosql" }, "unknown domain"},
		{func(b *Bug) { b.Plant = nil }, "needs its plant"},
		{func(b *Bug) { b.Origin = Real }, "a real bug has no plant"},
		{func(b *Bug) { b.Plant = &fault.Plant{Kind: "rewrite", Match: "x"} }, "needs find"},
		{func(b *Bug) { b.Origin, b.Plant, b.Fixed = Real, nil, "4" }, "no fixed_spec"},
	} {
		b := good
		tc.edit(&b)
		if err := b.check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}
