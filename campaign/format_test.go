package campaign

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestReproInfo(t *testing.T) {
	base := Record{Title: "norec: sqlite: optimized query returns fewer rows", Kind: fuzz.KindWrongResult, Oracle: "norec",
		Seed: 42, Targets: []TargetInfo{{"sqlite", "3.45.1"}, {"duckdb", "1.1.0"}}, Roles: []string{"norec.opt-rows", "norec.unopt"},
		Expected: "3 rows\nand more", Actual: "2 rows", Replay: "polyfuzz replay out/findings/x", Polyfuzz: "1.2.3"}
	tests := []struct {
		name    string
		edit    func(r *Record)
		fault   string
		timeout time.Duration
		header  []string
	}{
		{"engine finding", func(r *Record) { r.Options = json.RawMessage(`{"timeout":"2s"}`) }, "", 2 * time.Second,
			[]string{"norec: sqlite: optimized query returns fewer rows\n", "kind: wrong-result, oracle: norec, seed: 42\n",
				"engines: sqlite 3.45.1; duckdb 1.1.0;\n", "expected: 3 rows ...\nactual: 2 rows\n", "polyfuzz: 1.2.3\n",
				"replay: polyfuzz replay out/findings/x"}},
		{"reduced, with the original's lines", func(r *Record) { r.OriginalExpected, r.OriginalActual = "9 rows", "7 rows" }, "", 0,
			[]string{"on the original case: expected 9 rows; actual 7 rows\n"}},
		{"planted fault", func(r *Record) { r.Title = PlantedMark + r.Title; r.Fault = "drop-row:LIKE" }, "drop-row:LIKE", 0,
			[]string{"planted fault: drop-row:LIKE (not an engine bug)\n"}},
		{"fault and timeout in typed options", func(r *Record) { r.Options = json.RawMessage(`{"fault":"exit:x","timeout":3000000000}`) },
			"exit:x", 3 * time.Second, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := base
			tc.edit(&r)
			in := reproInfo(&r)
			for _, want := range tc.header {
				if !strings.Contains(in.Header, want) {
					t.Errorf("header lacks %q:\n%s", want, in.Header)
				}
			}
			if in.Fault != tc.fault || in.Timeout != tc.timeout {
				t.Errorf("fault %q, timeout %v; want %q, %v", in.Fault, in.Timeout, tc.fault, tc.timeout)
			}
			if !slices.Equal(in.Blamed, []string{"sqlite"}) || in.Version("duckdb") != "1.1.0" || in.Oracle != "norec" ||
				in.Kind != fuzz.KindWrongResult || !slices.Equal(in.Roles, r.Roles) || in.Actual != "2 rows" {
				t.Errorf("repro info %+v", in)
			}
		})
	}
}
