// Package genoptstest checks generator options against the findings the project has recorded
// in testdata: every stored options text must still read, and print back unchanged.
package genoptstest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Recorded runs a subtest for each finding under dir (a testdata/*-findings folder): it reads
// the finding's case.json, parses the case's generator options with parse, checks that they
// print back as stored, and then calls check, when not nil, with the options and the stored case.
// With a name, only the findings whose options are that generator's ("name{...}") are checked; a
// domain with several generators checks each one's findings in its own package.
func Recorded[O fmt.Stringer](t *testing.T, dir, name string, parse func(string) (O, error), check func(t *testing.T, o O, stored *fuzz.Case)) {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(dir, "*", "case.json"))
	if len(dirs) == 0 {
		t.Fatalf("no recorded findings in %s", dir)
	}
	for _, path := range dirs {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) {
			var stored fuzz.Case
			data, err := os.ReadFile(path)
			if err == nil {
				err = json.Unmarshal(data, &stored)
			}
			if err != nil {
				t.Fatal(err)
			}
			if name != "" && !strings.HasPrefix(stored.Gen, name+"{") {
				t.Skipf("options %.40q... are another generator's", stored.Gen)
			}
			o, err := parse(stored.Gen)
			if err != nil {
				t.Fatalf("stored options %q: %v", stored.Gen, err)
			}
			if o.String() != stored.Gen {
				t.Fatalf("stored options %q print as %q", stored.Gen, o.String())
			}
			if check != nil {
				check(t, o, &stored)
			}
		})
	}
}

// Regenerates checks that g, made from the stored case's options, generates the stored case again
// from its seed, byte for byte as JSON.
func Regenerates(t *testing.T, g fuzz.Generator, stored *fuzz.Case) {
	t.Helper()
	c, err := g.Generate(stored.Seed)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(c)
	b, _ := json.Marshal(stored)
	if string(a) != string(b) {
		t.Errorf("seed %d regenerates another case:\n%s\nstored:\n%s", stored.Seed, a, b)
	}
}
