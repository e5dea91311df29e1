package oracles

import (
	"slices"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func tlpCase(o TLP) *fuzz.Case {
	c := &fuzz.Case{}
	for _, r := range o.Roles() {
		c.Queries = append(c.Queries, fuzz.Query{Role: r})
	}
	return c
}

func TestTLPNamesAndRoles(t *testing.T) {
	tests := []struct {
		o     TLP
		name  string
		roles []string
	}{
		{TLP{}, "tlp-where", []string{"tlp.orig", "tlp.p", "tlp.notp", "tlp.null"}},
		{TLP{Variant: "where"}, "tlp-where", []string{"tlp.orig", "tlp.p", "tlp.notp", "tlp.null"}},
		{TLP{Variant: "having"}, "tlp-having", []string{"having.orig", "having.p", "having.notp", "having.null"}},
		{TLP{Variant: "distinct"}, "tlp-distinct", []string{"distinct.orig", "distinct.p", "distinct.notp", "distinct.null"}},
		{TLP{Variant: "groupby"}, "tlp-groupby", []string{"groupby.orig", "groupby.p", "groupby.notp", "groupby.null"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.o.Name(); got != tc.name {
				t.Errorf("Name() = %q, want %q", got, tc.name)
			}
			if got := tc.o.Roles(); !slices.Equal(got, tc.roles) {
				t.Errorf("Roles() = %v, want %v", got, tc.roles)
			}
		})
	}
}

func TestTLPVariants(t *testing.T) {
	a, b, n := row("i:1", "t:a"), row("i:2", "t:b"), row("NULL", "NULL")
	tests := []struct {
		name                string
		variant             string
		orig, p, notp, null *fuzz.Result
		title, skip         string
	}{
		{"where named", "where", ok(a, b, n), ok(a), ok(b), ok(n), "", ""},
		{"where missing", "where", ok(a, b), ok(a), ok(), ok(), "tlp-where: sqlite: partitions miss rows", ""},
		{"where no representative fallback", "", ok(row("t:A")), ok(row("t:a")), ok(), ok(),
			"tlp-where: sqlite: partitions differ from the original rows", ""},
		{"where decimal scale is a finding", "", ok(row("d:1.0")), ok(row("d:1.00")), ok(), ok(),
			"tlp-where: sqlite: partitions differ from the original rows", ""},

		{"having multiset", "having", ok(a, a, b), ok(a, a), ok(), ok(b), "", ""},
		{"having counts multiplicity", "having", ok(a, b), ok(a, b), ok(a), ok(),
			"tlp-having: sqlite: partitions add rows", ""},
		{"having group in two partitions by representation", "having", ok(row("i:1")), ok(row("r:1")), ok(row("i:1")), ok(),
			"", "ambiguous-representative"},
		{"having missing", "having", ok(a, b, n), ok(a), ok(b), ok(), "tlp-having: sqlite: partitions miss rows", ""},
		{"having differ", "having", ok(a), ok(b), ok(), ok(), "tlp-having: sqlite: partitions differ from the original rows", ""},
		{"having case representative", "having", ok(row("t:A")), ok(row("t:a")), ok(), ok(), "", "ambiguous-representative"},
		{"having trailing space representative", "having", ok(row("t:a ", "i:2")), ok(), ok(row("t:a", "i:2")), ok(), "",
			"ambiguous-representative"},
		{"having loose still differs", "having", ok(row("t:A"), row("t:b")), ok(row("t:a")), ok(), ok(),
			"tlp-having: sqlite: partitions differ from the original rows", ""},

		{"distinct set union", "distinct", ok(a, b), ok(a, b), ok(a), ok(b), "", ""},
		{"distinct partition empty", "distinct", ok(), ok(), ok(), ok(), "", ""},
		{"distinct duplicates", "distinct", ok(a, a, b), ok(a, b), ok(), ok(),
			"tlp-distinct: sqlite: original query returns duplicate rows", ""},
		{"distinct null duplicates", "distinct", ok(n, n), ok(), ok(), ok(n),
			"tlp-distinct: sqlite: original query returns duplicate rows", ""},
		{"distinct duplicates are not representative", "distinct", ok(row("t:a"), row("t:a")), ok(row("t:a")), ok(), ok(),
			"tlp-distinct: sqlite: original query returns duplicate rows", ""},
		{"distinct case-distinct rows", "distinct", ok(row("t:a"), row("t:A")), ok(row("t:a")), ok(row("t:A")), ok(), "", ""},
		{"distinct missing", "distinct", ok(a, b), ok(a), ok(a), ok(), "tlp-distinct: sqlite: partitions miss rows", ""},
		{"distinct add", "distinct", ok(a), ok(a), ok(b), ok(), "tlp-distinct: sqlite: partitions add rows", ""},
		{"distinct differ", "distinct", ok(a), ok(b), ok(), ok(), "tlp-distinct: sqlite: partitions differ from the original rows", ""},
		{"distinct trailing space", "distinct", ok(row("t:x ")), ok(row("t:x")), ok(), ok(), "", "ambiguous-representative"},

		{"groupby set union", "groupby", ok(a, b, n), ok(a), ok(a, b), ok(n), "", ""},
		{"groupby duplicates", "groupby", ok(b, b), ok(b), ok(), ok(), "tlp-groupby: sqlite: original query returns duplicate rows", ""},
		{"groupby decimal scale", "groupby", ok(row("d:1.0")), ok(row("d:1.00")), ok(), ok(), "", "ambiguous-representative"},
		{"groupby negative zero", "groupby", ok(row("r:-0")), ok(), ok(row("r:0")), ok(), "", "ambiguous-representative"},
		{"groupby missing", "groupby", ok(a, b), ok(), ok(b), ok(), "tlp-groupby: sqlite: partitions miss rows", ""},

		{"error skips", "groupby", ok(a), &fuzz.Result{Status: fuzz.StatusEngineError}, ok(), ok(), "", "error"},
		{"unknown variant", "window", ok(a), ok(a), ok(), ok(), "", "unknown-variant"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := TLP{Variant: tc.variant}
			c := tlpCase(o)
			if tc.variant == "window" {
				c = tlpCase(TLP{})
			}
			v := o.Check(c, []fuzz.Run{{Target: "sqlite", Results: []*fuzz.Result{tc.orig, tc.p, tc.notp, tc.null}}})
			checkVerdict(t, v, tc.title, tc.skip, fuzz.KindWrongResult)
			if v.Finding != nil {
				if v.Finding.Oracle != o.Name() || !slices.Equal(v.Finding.Roles, o.Roles()) || v.Finding.Case != c {
					t.Errorf("finding oracle %q roles %v, want %q %v", v.Finding.Oracle, v.Finding.Roles, o.Name(), o.Roles())
				}
				if v.Finding.Expected == "" || v.Finding.Actual == "" {
					t.Errorf("finding without expected/actual: %+v", v.Finding)
				}
			}
			if tc.title == "" && tc.skip == "" && !v.Checked {
				t.Errorf("passing check not marked checked")
			}
		})
	}
}

// TestTLPRuns checks that every run is judged on its own: a skip on one run does not hide a
// finding on another, and a layout of another variant is not read.
func TestTLPRuns(t *testing.T) {
	good := []*fuzz.Result{ok(row("t:a")), ok(row("t:a")), ok(), ok()}
	ambiguous := []*fuzz.Result{ok(row("t:A")), ok(row("t:a")), ok(), ok()}
	wrong := []*fuzz.Result{ok(row("t:a")), ok(), ok(), ok()}
	having := TLP{Variant: "having"}
	tests := []struct {
		name        string
		o           TLP
		c           *fuzz.Case
		runs        [][]*fuzz.Result
		title, skip string
	}{
		{"all pass", having, tlpCase(having), [][]*fuzz.Result{good, good}, "", ""},
		{"skip then finding", having, tlpCase(having), [][]*fuzz.Result{ambiguous, wrong}, "tlp-having: b: partitions miss rows", ""},
		{"pass then skip", having, tlpCase(having), [][]*fuzz.Result{good, ambiguous}, "", "ambiguous-representative"},
		{"other layout", having, tlpCase(TLP{}), [][]*fuzz.Result{good}, "", "no-layout"},
		{"where on having layout", TLP{}, tlpCase(having), [][]*fuzz.Result{good}, "", "no-layout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var runs []fuzz.Run
			for i, rs := range tc.runs {
				runs = append(runs, fuzz.Run{Target: string(rune('a' + i)), Results: rs})
			}
			checkVerdict(t, tc.o.Check(tc.c, runs), tc.title, tc.skip, fuzz.KindWrongResult)
		})
	}
}
