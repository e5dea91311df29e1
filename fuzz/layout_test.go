package fuzz

import (
	"slices"
	"testing"
)

// TestLayoutRoles pins the text of every declared role: case.json files store it.
func TestLayoutRoles(t *testing.T) {
	tests := []struct {
		layout *Layout
		family string
		roles  []string
	}{
		{NoREC, "norec", []string{"norec.opt-count", "norec.opt-rows", "norec.unopt"}},
		{TLPWhere, "tlp", []string{"tlp.orig", "tlp.p", "tlp.notp", "tlp.null"}},
		{TLPHaving, "having", []string{"having.orig", "having.p", "having.notp", "having.null"}},
		{TLPDistinct, "distinct", []string{"distinct.orig", "distinct.p", "distinct.notp", "distinct.null"}},
		{TLPGroupBy, "groupby", []string{"groupby.orig", "groupby.p", "groupby.notp", "groupby.null"}},
		{TLPAgg, "agg", []string{"agg.orig", "agg.p", "agg.notp", "agg.null"}},
		{TLPWhere.Sub("orig"), "tlp", []string{"tlp.orig"}},
	}
	for _, tt := range tests {
		t.Run(tt.family, func(t *testing.T) {
			l := tt.layout
			if l.Family() != tt.family {
				t.Errorf("Family() = %q, want %q", l.Family(), tt.family)
			}
			if got := l.Roles(); !slices.Equal(got, tt.roles) {
				t.Errorf("Roles() = %q, want %q", got, tt.roles)
			}
			var all []string
			for i, r := range l.All() {
				if i != len(all) {
					t.Errorf("All() yields position %d for %s", i, r)
				}
				all = append(all, r)
			}
			if !slices.Equal(all, tt.roles) {
				t.Errorf("All() = %q, want %q", all, tt.roles)
			}
			for i, r := range tt.roles {
				if l.Index(r) != i || !l.Has(r) || FamilyOf(r) != tt.family {
					t.Errorf("%s: Index %d, Has %v, FamilyOf %q", r, l.Index(r), l.Has(r), FamilyOf(r))
				}
			}
			l.Roles()[0] = "changed"
			if l.Roles()[0] != tt.roles[0] {
				t.Error("Roles() shares the layout's slice")
			}
		})
	}
}

func TestLayoutLookups(t *testing.T) {
	tests := []struct {
		name  string
		l     *Layout
		role  string
		index int
	}{
		{"part", TLPHaving, "having.notp", 2},
		{"other family", TLPHaving, "tlp.notp", -1},
		{"unknown part", NoREC, "norec.opt", -1},
		{"family only", NoREC, "norec", -1},
		{"prefix of a role", TLPWhere, "tlp.", -1},
		{"left out by Sub", TLPWhere.Sub("orig"), "tlp.p", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.l.Index(tt.role); got != tt.index {
				t.Errorf("Index(%q) = %d, want %d", tt.role, got, tt.index)
			}
			if got := tt.l.Has(tt.role); got != (tt.index >= 0) {
				t.Errorf("Has(%q) = %v", tt.role, got)
			}
		})
	}
	if got := NoREC.Role("unopt"); got != "norec.unopt" {
		t.Errorf("Role(unopt) = %q", got)
	}
	for _, r := range []struct{ role, family string }{{"graph.q", "graph"}, {"a.b.c", "a"}, {"plain", "plain"}, {"", ""}} {
		if got := FamilyOf(r.role); got != r.family {
			t.Errorf("FamilyOf(%q) = %q, want %q", r.role, got, r.family)
		}
	}
}

// TestLayoutMistakes checks that a badly declared layout or an unknown part panics.
func TestLayoutMistakes(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"empty family", func() { NewLayout("", "a") }},
		{"dotted family", func() { NewLayout("a.b", "c") }},
		{"empty part", func() { NewLayout("a", "") }},
		{"dotted part", func() { NewLayout("a", "b.c") }},
		{"repeated part", func() { NewLayout("a", "b", "b") }},
		{"unknown part", func() { TLPWhere.Role("q") }},
		{"Sub of an unknown part", func() { TLPWhere.Sub("orig", "q") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tt.f()
		})
	}
}

func TestCheckRole(t *testing.T) {
	tests := []struct {
		role  string
		k     int
		want  string
		plain string // what SplitCheck gives back for want
	}{
		{"tlp.p", 0, "tlp.p", "tlp.p"},
		{"tlp.p", 1, "tlp.p#1", "tlp.p"},
		{"norec.opt-count", 12, "norec.opt-count#12", "norec.opt-count"},
	}
	for _, tc := range tests {
		got := CheckRole(tc.role, tc.k)
		if got != tc.want {
			t.Errorf("CheckRole(%q, %d) = %q, want %q", tc.role, tc.k, got, tc.want)
		}
		if plain, k := SplitCheck(got); plain != tc.plain || k != tc.k {
			t.Errorf("SplitCheck(%q) = %q, %d, want %q, %d", got, plain, k, tc.plain, tc.k)
		}
		if FamilyOf(got) != FamilyOf(tc.role) {
			t.Errorf("FamilyOf(%q) = %q, want %q", got, FamilyOf(got), FamilyOf(tc.role))
		}
	}
	for _, bad := range []string{"tlp.p#", "tlp.p#0", "tlp.p#x", "tlp.p#-1", "tlp.p#+1", "tlp.p#01"} {
		if plain, k := SplitCheck(bad); plain != bad || k != 0 {
			t.Errorf("SplitCheck(%q) = %q, %d, want the role itself and 0", bad, plain, k)
		}
	}
}
