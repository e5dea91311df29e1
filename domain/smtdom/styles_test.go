package smtdom

import (
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/smtgen"
)

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
