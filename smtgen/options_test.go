package smtgen

import (
	"reflect"
	"strings"
	"testing"
)

func TestOptionsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want string // the canonical text, when checked
	}{
		{"zero", Options{}, "storm{depth=64 asserts=64 enrich=1000 mutants=1000 incremental=50 tactics=0 models=both connectives=rich}"},
		{"defaults", DefaultOptions(), "storm{depth=64 asserts=64 enrich=1000 mutants=1000 incremental=50 tactics=0 models=both connectives=rich}"},
		{"set", Options{MaxDepth: 3, Tactics: 50, Models: ModelsRandom, Connectives: ConnStorm}, ""},
		{"none", Options{Incremental: -1, Tactics: -1}, "storm{depth=64 asserts=64 enrich=1000 mutants=1000 incremental=0 tactics=0 models=both connectives=rich}"},
		{"bench", Options{MaxDepth: 8, MaxAsserts: 8, Mutants: 100, Tactics: -1, Incremental: -1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.o.String()
			if tc.want != "" && s != tc.want {
				t.Fatalf("String() = %q, want %q", s, tc.want)
			}
			p, err := ParseOptions(s)
			if err != nil {
				t.Fatalf("ParseOptions(%q): %v", s, err)
			}
			if p.String() != s {
				t.Errorf("round trip: %q became %q", s, p)
			}
			if want := tc.o.normalized(); !reflect.DeepEqual(p, want) {
				t.Errorf("ParseOptions(%q) = %+v, want %+v", s, p, want)
			}
		})
	}
}

// TestParseOptions checks that keys left out take their defaults and that a percentage written 0
// is none.
func TestParseOptions(t *testing.T) {
	tests := []struct {
		in   string
		want Options
	}{
		{"storm{}", Options{}},
		{" storm{depth=8 mutants=100} ", Options{MaxDepth: 8, Mutants: 100}},
		{"storm{incremental=0 tactics=0}", Options{Incremental: -1, Tactics: -1}},
		{"storm{tactics=20 models=ref connectives=storm}", Options{Tactics: 20, Models: ModelsRef, Connectives: ConnStorm}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseOptions(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.want.normalized(); !reflect.DeepEqual(got, want) {
				t.Errorf("ParseOptions(%q) = %+v, want %+v", tc.in, got, want)
			}
		})
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"storm{depth=-1}", "depth=-1 out of range; keep it within 1..1000"},
		{"storm{depth=0}", "depth=0 out of range; keep it within 1..1000"},
		{"storm{mutants=65537}", "mutants=65537 out of range; keep it within 1..65536"},
		{"storm{incremental=101}", "incremental=101 out of range; keep it within 0..100"},
		{"storm{tactics=-1}", "tactics=-1 out of range; keep it within 0..100"},
		{"storm{asserts=x}", `asserts="x": want an integer`},
		{"storm{models=x}", `models: unknown model source "x"; use both, ref, random`},
		{"storm{connectives=all}", `connectives: unknown connectives "all"; use rich, storm`},
		{"storm{nope=1}", `unknown key "nope"; the keys are depth, asserts, enrich`},
		{"storm{depth=3 depth=4}", `key "depth" repeated; give it once`},
		{"storm{depth}", `"depth" is not key=value; write depth=VALUE`},
		{"x{}", "want storm{key=value ...}"},
	} {
		if _, err := ParseOptions(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOptions(%q) error = %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
	seeds := []*Seed{{Name: "x"}}
	for _, o := range []Options{{Models: "solver"}, {MaxDepth: -2}, {Tactics: 101}} {
		if _, err := New(o, seeds, nil); err == nil || !strings.Contains(err.Error(), "smtgen: options: ") {
			t.Errorf("New(%+v) error = %v, want an options error", o, err)
		}
	}
}
