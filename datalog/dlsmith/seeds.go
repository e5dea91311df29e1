package dlsmith

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// seedFiles holds the project's seed programs, written for polyfuzz in the canonical syntax.
//
//go:embed testdata/seeds/*.dl
var seedFiles embed.FS

// parsedSeeds parses the embedded seed programs once, in file name order.
var parsedSeeds = sync.OnceValue(func() []*datalog.Program {
	names, err := fs.Glob(seedFiles, "testdata/seeds/*.dl")
	if err != nil {
		panic(err)
	}
	slices.Sort(names)
	out := make([]*datalog.Program, 0, len(names))
	for _, name := range names {
		src, err := seedFiles.ReadFile(name)
		if err != nil {
			panic(err)
		}
		p, err := datalog.Parse(name, string(src))
		if err != nil {
			panic(fmt.Sprintf("dlsmith: seed program %s does not parse (fix the file): %v", name, err))
		}
		out = append(out, p)
	}
	return out
})

// Seeds returns the project's own seed programs (embedded from testdata/seeds), in file name
// order: small programs with linear, non-linear and mutual recursion, stratified negation,
// constants in rules, repeated variables, wide relations, comparisons, symbols and numbers. Each
// names one output relation. The programs are copies: the caller may change them.
func Seeds() []*datalog.Program {
	ps := parsedSeeds()
	out := make([]*datalog.Program, len(ps))
	for i, p := range ps {
		out[i] = p.Clone()
	}
	return out
}
