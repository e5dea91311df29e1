package smtdom

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/smtgen"
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

// TestStyleGen checks how a campaign's style and stored options agree: --style or the stored
// options' name picks the style, STORM's stored options keep working, a conflict is an error,
// and the options style takes its model from the first solver.
func TestStyleGen(t *testing.T) {
	for _, tc := range []struct {
		name, style, gen string
		engines          []string
		want, err        string
	}{
		{"default", "", "", nil, "storm{", ""},
		{"stored storm options", "", smtgen.Options{}.String(), nil, "storm{", ""},
		{"opfuzz", "opfuzz", "", nil, "opfuzz{mutations=3 mutants=300}", ""},
		{"stored typefuzz", "", "typefuzz{mutations=2}", nil, "typefuzz{mutations=2 mutants=300}", ""},
		{"options on cvc5", "options", "", []string{"cvc5", "z3"}, "options{solver=cvc5 settings=3 depth=64", ""},
		{"stored options", "", "options{solver=bitwuzla}", []string{"z3"}, "options{solver=bitwuzla settings=3", ""},
		{"conflict", "opfuzz", "typefuzz{}", nil, "", "--gen gives typefuzz options but --style is opfuzz"},
		{"no option model", "options", "", []string{"yices"}, "", "the first solver yices has no option model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := domain.NewFlags("smt", "", nil, nil).FlagSet
			apply := flags(fs)
			if err := fs.Parse(nil); err != nil {
				t.Fatal(err)
			}
			s := &domain.Settings{Style: tc.style, Gen: tc.gen}
			for _, e := range tc.engines {
				s.Engines = append(s.Engines, domain.Spec{Engine: e})
			}
			err := apply(s, domain.Spec{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !strings.HasPrefix(s.Gen, tc.want) {
				t.Fatalf("gen %q, %v; want %s...", s.Gen, err, tc.want)
			}
		})
	}
}
