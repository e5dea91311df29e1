package oracles

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestShowValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"NULL", "NULL"},
		{"i:-8", "-8"},
		{"d:1.50", "1.50"},
		{"r:1", "1.0"},
		{"r:-0", "-0.0"},
		{"r:2.5", "2.5"},
		{"r:1e+300", "1e+300"},
		{"r:NaN", "NaN"},
		{"r:+Inf", "Inf"},
		{"r:-Inf", "-Inf"},
		{"t:it's", "'it''s'"},
		{"t:", "''"},
		{"b:00ff", "X'00ff'"},
		{"B:true", "TRUE"},
		{"B:false", "FALSE"},
		{"n:(:L {id: i:1})", "n:(:L {id: i:1})"}, // a domain's own prefix stays
		{"sat", "sat"},
	}
	for _, tc := range tests {
		if got := ShowValue(tc.in); got != tc.want {
			t.Errorf("ShowValue(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestElide(t *testing.T) {
	long := strings.Repeat("a", 30) + strings.Repeat("é", 30) + strings.Repeat("z", 30)
	tests := []struct {
		in         string
		max        int
		want       string // "" when only the length and ends are checked
		head, tail string
	}{
		{"short", 60, "short", "", ""},
		{strings.Repeat("x", 60), 60, strings.Repeat("x", 60), "", ""},
		{long, 60, "", strings.Repeat("a", 30), strings.Repeat("z", 29)},
		{long, 11, "aaaaa…zzzzz", "", ""},
	}
	for _, tc := range tests {
		got := Elide(tc.in, tc.max)
		if tc.want != "" && got != tc.want {
			t.Errorf("Elide(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > tc.max {
			t.Errorf("Elide(%q, %d) has %d characters", tc.in, tc.max, n)
		}
		if !strings.HasPrefix(got, tc.head) || !strings.HasSuffix(got, tc.tail) {
			t.Errorf("Elide(%q, %d) = %q lost its ends", tc.in, tc.max, got)
		}
	}
}

func TestDisplayRows(t *testing.T) {
	long := "t:" + strings.Repeat("x", 200)
	keys := []string{"i:1\x1ft:a", "i:2\x1fNULL", "i:3\x1f" + long, "i:4\x1fB:true", "i:5\x1fB:false"}
	tests := []struct {
		name  string
		d     Display
		keys  []string
		want  string
		avoid []string
	}{
		{"default", Display{}, keys[:2], "(1, 'a'), (2, NULL)", nil},
		{"three rows and a count", Display{}, keys, "", []string{"TRUE", "FALSE"}},
		{"own value notation", Display{Value: strings.ToUpper}, keys[:1], "(I:1, T:A)", nil},
		{"own row notation", Display{Row: func(r []string) string { return r[0] + "(" + r[1] + ")" }},
			[]string{"p\x1fi:1"}, "p(i:1)", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.d.rows(tc.keys)
			if tc.want != "" && got != tc.want {
				t.Errorf("rows = %q, want %q", got, tc.want)
			}
			for _, a := range tc.avoid {
				if strings.Contains(got, a) {
					t.Errorf("rows = %q shows %q, past the third row", got, a)
				}
			}
			if len(tc.keys) > maxRowsShown && !strings.HasSuffix(got, "(5 in all)") {
				t.Errorf("rows = %q lacks the count", got)
			}
			if strings.Contains(got, strings.Repeat("x", MaxShown)) {
				t.Errorf("rows = %q shows a long value whole", got)
			}
		})
	}
}

// TestShownFindings checks that the row oracles print the rows they quote with their Display.
func TestShownFindings(t *testing.T) {
	datalogRow := func(r []string) string { return r[0] + "(" + ShowValue(r[1]) + ")." }
	tlpCase := &fuzz.Case{Queries: []fuzz.Query{{Role: "tlp.orig"}, {Role: "tlp.p"}, {Role: "tlp.notp"}, {Role: "tlp.null"}}}
	mmCase := &fuzz.Case{Queries: []fuzz.Query{{Role: "o"}, {Role: "t"}}, Params: map[string]string{"rel": RelEqual}}
	tests := []struct {
		name   string
		o      fuzz.Oracle
		c      *fuzz.Case
		runs   []fuzz.Run
		actual string
	}{
		{"tlp, default", TLP{}, tlpCase, []fuzz.Run{{Target: "e", Results: []*fuzz.Result{
			ok(row("i:1", "t:a"), row("r:2", "NULL")), ok(row("i:1", "t:a")), ok(), ok()}}},
			"partitions miss (2.0, NULL)"},
		{"tlp, own notation", TLP{Show: Display{Value: func(v string) string { return "«" + v + "»" }}}, tlpCase,
			[]fuzz.Run{{Target: "e", Results: []*fuzz.Result{ok(row("i:1")), ok(row("i:1")), ok(row("i:1")), ok()}}},
			"partitions add («i:1»)"},
		{"metamorphic, own row notation", Metamorphic{Orig: "o", Trans: "t", Param: "rel", Show: Display{Row: datalogRow}}, mmCase,
			[]fuzz.Run{{Target: "e", Results: []*fuzz.Result{ok(row("p", "i:-8"), row("p", "t:k")), ok(row("p", "t:k"))}}},
			"misses p(-8)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.o.Check(tc.c, tc.runs)
			if v.Finding == nil {
				t.Fatalf("no finding: %+v", v)
			}
			if !strings.Contains(v.Finding.Actual, tc.actual) {
				t.Errorf("actual %q lacks %q", v.Finding.Actual, tc.actual)
			}
		})
	}
}
