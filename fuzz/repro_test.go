package fuzz

import (
	"slices"
	"strings"
	"testing"
)

func TestReproErrorMessage(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes: a cut must not split a character
	for _, tc := range []struct {
		actual string
		trim   func(string) string
		want   string
	}{
		{"42P01: relation \"t9\" does not exist (in the query)", nil, `relation "t9" does not exist`},
		{"HY000: bad value (in the setup)\nmore lines", nil, "bad value"},
		{"no scope here", nil, "no scope here"},
		{"E: " + long + " (in the query)", nil, strings.Repeat("é", 30)},
		{"error: line 2 column 3: unknown constant (in the query)", func(s string) string { return strings.TrimPrefix(s, "line 2 column 3: ") },
			"unknown constant"},
	} {
		in := ReproInfo{Actual: tc.actual}
		if got := in.ErrorMessage(tc.trim); got != tc.want {
			t.Errorf("ErrorMessage(%q) = %q, want %q", tc.actual, got, tc.want)
		}
	}
}

func TestReproBlamedOf(t *testing.T) {
	engines := []string{"sqlite", "duckdb", "postgres"}
	for _, tc := range []struct {
		blamed, want []string
	}{
		{[]string{"duckdb"}, []string{"duckdb"}},
		{[]string{"postgres", "sqlite"}, []string{"sqlite", "postgres"}},
		{nil, engines},
		{[]string{"mariadb"}, engines},
	} {
		in := ReproInfo{Blamed: tc.blamed}
		if got := in.BlamedOf(engines); !slices.Equal(got, tc.want) {
			t.Errorf("BlamedOf with blamed %v = %v, want %v", tc.blamed, got, tc.want)
		}
	}
}

func TestReproKindJudge(t *testing.T) {
	for kind, want := range map[Kind]string{KindCrash: "crash", KindHang: "hang", KindUnexpectedError: "error",
		KindWrongResult: "", KindInvalidModel: ""} {
		in := ReproInfo{Kind: kind}
		if got := in.KindJudge(); got != want {
			t.Errorf("KindJudge of %s = %q, want %q", kind, got, want)
		}
	}
}
