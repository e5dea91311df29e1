package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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
		{func(b *Bug) { b.Origin, b.Signature = Real, &Signature{Title: "^x"} }, "a real bug has no plant"},
		{func(b *Bug) { b.Plant = &fault.Plant{Kind: "rewrite", Match: "x"} }, "needs find"},
		{func(b *Bug) { b.Origin, b.Plant, b.Fixed, b.Signature = Real, nil, "4", &Signature{Title: "^x"} }, "no fixed_spec"},
		{func(b *Bug) { b.Origin, b.Plant = Real, nil }, "needs a signature"},
		{func(b *Bug) { b.Signature = &Signature{Case: "(mod"} }, "signature"},
	} {
		b := good
		tc.edit(&b)
		if err := b.check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// TestSignatures checks that every bug's recorded finding has the bug's signature, and that the
// signatures tell apart the bugs of one release that one release fixes.
func TestSignatures(t *testing.T) {
	bugs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	type finding struct {
		title string
		texts []string
	}
	recorded := map[string]finding{}
	for _, b := range bugs {
		dir := filepath.Join("..", filepath.FromSlash(b.Case))
		var f struct{ Title string }
		var c struct {
			Setup   []string
			Queries []struct{ Text string }
		}
		for name, v := range map[string]any{"finding.json": &f, "case.json": &c} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, v); err != nil {
				t.Fatalf("%s/%s: %v", dir, name, err)
			}
		}
		texts := slices.Clone(c.Setup)
		for _, q := range c.Queries {
			texts = append(texts, q.Text)
		}
		recorded[b.ID] = finding{f.Title, texts}
		if !b.Matches(f.Title, texts) {
			t.Errorf("%s: its recorded finding %q does not have its signature %+v", b.ID, f.Title, *b.Signature)
		}
	}
	for _, a := range bugs {
		for _, b := range bugs {
			if a.ID == b.ID || a.Origin != Real || a.Buggy != b.Buggy || a.FixedSpec != b.FixedSpec || a.FixedSpec == "" {
				continue
			}
			if f := recorded[b.ID]; a.Matches(f.title, f.texts) {
				t.Errorf("%s and %s share a release and its fix, and %s's signature takes %s's finding %q", a.ID, b.ID, a.ID, b.ID, f.title)
			}
		}
	}
}
