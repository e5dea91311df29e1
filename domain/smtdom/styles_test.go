package smtdom

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/domain"
)

// TestStyleFlags applies the smt flags to settings: the style comes from --style or from the
// options' text, options stored before --unsat existed keep their text, each style takes its own
// flags, and mismatches are refused naming the fix.
func TestStyleFlags(t *testing.T) {
	const stored = "storm{depth=64 asserts=64 enrich=1000 mutants=50 incremental=0 tactics=0 models=both connectives=rich}"
	for _, tc := range []struct {
		name, style, gen string
		args             []string
		want, err        string
	}{
		{"storm by default, unsat on", "", "", nil,
			"storm{depth=64 asserts=64 enrich=1000 mutants=1000 incremental=50 tactics=50 models=both connectives=rich unsat=10}", ""},
		{"storm without unsat", "storm", "", []string{"--unsat", "0"},
			"storm{depth=64 asserts=64 enrich=1000 mutants=1000 incremental=50 tactics=50 models=both connectives=rich}", ""},
		{"stored storm options keep their text", "", stored, nil, stored, ""},
		{"fusion by --style", "fusion", "", []string{"--pairs", "3", "--unsat", "20", "--fusion-funcs", "xor,mul"},
			"fusion{pairs=3 unsat=20 funcs=xor,mul asserts=16 mutants=100 models=both}", ""},
		{"fusion by its options", "", "fusion{pairs=1}", []string{"--mutants", "7"},
			"fusion{pairs=1 unsat=50 funcs=add,addc,mul,xor,bvadd,bvsub,concat asserts=16 mutants=7 models=both}", ""},
		{"style and options disagree", "fusion", stored, nil, "", "--gen gives storm options but --style is fusion"},
		{"a storm flag with fusion", "fusion", "", []string{"--depth", "3"}, "", "--depth is a flag of the storm style"},
		{"a fusion flag with storm", "", "", []string{"--pairs", "3"}, "", "--pairs is a flag of the fusion style"},
		{"bad fusion function", "fusion", "", []string{"--fusion-funcs", "pow"}, "", "fusion function"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("smt", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			apply := flags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			s := &domain.Settings{Style: tc.style, Gen: tc.gen, Engines: []domain.Spec{{Engine: "z3"}}}
			err := apply(s, domain.Spec{})
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			case tc.err == "" && (err != nil || s.Gen != tc.want):
				t.Fatalf("gen %q, %v; want %q", s.Gen, err, tc.want)
			}
		})
	}
}
