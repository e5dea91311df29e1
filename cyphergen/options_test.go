package cyphergen

import (
	"reflect"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/genopts/genoptstest"
)

func TestOptionsRoundTrip(t *testing.T) {
	wide := DefaultOptions()
	wide.PropTypes = []Type{Boolean, Float, String, Integer}
	wide.Ints = Range{Min: -1 << 62, Max: 1 << 62}
	wide.Nodes, wide.MaxLabels, wide.Presence, wide.Pool = 1, 0, 0, 1
	wide.Clauses, wide.Patterns, wide.PathLen = Range{Min: 0, Max: 20}, Range{Min: 5, Max: 5}, Range{Min: 0, Max: 6}
	wide.Depth, wide.Where, wide.Optional, wide.Union, wide.Order, wide.Guided, wide.Queries = 0, 100, 0, 100, 0, 0, 1<<16
	wide.Keys, wide.Rels, wide.StrLen = Range{Min: 0, Max: 0}, Range{Min: 0, Max: 1000}, Range{Min: 3, Max: 3}
	for _, o := range []Options{DefaultOptions(), wide} {
		s := o.String()
		got, err := ParseOptions(s)
		if err != nil {
			t.Fatalf("ParseOptions(%q): %v", s, err)
		}
		if !reflect.DeepEqual(got, o) {
			t.Errorf("ParseOptions(%q) = %+v, want %+v", s, got, o)
		}
		if got.String() != s {
			t.Errorf("round trip changed %q to %q", s, got.String())
		}
	}
	// Options stored before writes existed have none: a text without writes= reads as writes=0.
	def := DefaultOptions()
	def.Writes = 0
	if got, err := ParseOptions(" gdsmith{} "); err != nil || !reflect.DeepEqual(got, def) {
		t.Errorf("ParseOptions(gdsmith{}) = %+v, %v; want the defaults without writes", got, err)
	}
	want := "gdsmith{labels=5..7 reltypes=5..7 keys=5..7 rels=50..199 ints=-2147483648..2147483647 " +
		"strlen=0..8 nodes=128 max-labels=3 presence=95 pool=20 clauses=1..5 patterns=1..2 pathlen=0..3 " +
		"depth=3 where=70 optional=25 union=10 order=20 guided=1 queries=100 writes=20 proptypes=integer,string,boolean}"
	if s := DefaultOptions().String(); s != want {
		t.Errorf("DefaultOptions().String() = %q, want %q", s, want)
	}
}

func TestParseOptionsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"queryfuzz{}", "want gdsmith{key=value ...}"},
		{"gdsmith{nodes=3", "want gdsmith{key=value ...}"},
		{"gdsmith{nodes}", "is not key=value"},
		{"gdsmith{nodes=1 nodes=2}", `key "nodes" repeated`},
		{"gdsmith{colour=red}", `unknown key "colour"`},
		{"gdsmith{labels=5}", "want MIN..MAX"},
		{"gdsmith{labels=a..b}", "want MIN..MAX"},
		{"gdsmith{labels=7..5}", "MIN <= MAX"},
		{"gdsmith{labels=0..5}", "out of range"},
		{"gdsmith{reltypes=0..0}", "out of range"},
		{"gdsmith{nodes=x}", "want an integer"},
		{"gdsmith{nodes=0}", "out of range"},
		{"gdsmith{presence=101}", "out of range"},
		{"gdsmith{pool=0}", "out of range"},
		{"gdsmith{max-labels=9}", "out of range"},
		{"gdsmith{proptypes=integer,date}", `unknown property type "date"`},
		{"gdsmith{proptypes=}", "proptypes is empty"},
		{"gdsmith{proptypes=string,string}", "listed twice"},
		{"gdsmith{clauses=0..21}", "out of range"},
		{"gdsmith{patterns=0..1}", "out of range"},
		{"gdsmith{guided=2}", "out of range"},
		{"gdsmith{queries=0}", "out of range"},
		{"gdsmith{queries=65537}", "out of range"},
	} {
		_, err := ParseOptions(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOptions(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
	if err := (Options{}).Validate(); err == nil {
		t.Errorf("zero Options validate")
	}
	o := DefaultOptions()
	o.PropTypes = nil
	if _, err := Generate(o, 1); err == nil || !strings.Contains(err.Error(), "proptypes is empty") {
		t.Errorf("Generate without property types: %v, want an error", err)
	}
}

// TestStoredOptions checks that the generator options of the recorded graph findings read back
// to the same text.
func TestStoredOptions(t *testing.T) {
	genoptstest.Recorded(t, "../testdata/graph-findings", "", ParseOptions, nil)
}
