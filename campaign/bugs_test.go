package campaign

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// sqlCase is a case of the SQL layouts: a setup and the variant queries of one oracle around the
// predicate pred.
func sqlCase(setup []string, pred string, roles ...string) *fuzz.Case {
	c := &fuzz.Case{Domain: "sql", Setup: setup, Params: map[string]string{"pred": pred, "from": "t0", "agg": "MIN"}}
	for _, r := range roles {
		text := "SELECT * FROM t0 WHERE " + pred
		switch r {
		case "norec.unopt":
			text = "SELECT SUM(count) FROM (SELECT (" + pred + ") IS TRUE AS count FROM t0)"
		case "agg.orig":
			text = "SELECT MIN(0) FROM t0"
		case "tlp.orig":
			text = "SELECT * FROM t0"
		}
		c.Queries = append(c.Queries, fuzz.Query{Role: r, Text: text})
	}
	return c
}

// finding is one finding directory to write: its record and its cases.
type finding struct {
	rec           Record
	orig, reduced *fuzz.Case
}

func writeFindings(t *testing.T, fs map[string]finding) string {
	t.Helper()
	dir := t.TempDir()
	for hash, f := range fs {
		d := filepath.Join(dir, "findings", hash)
		f.rec.Format = RecordFormat
		writeTestJSON(t, filepath.Join(d, "finding.json"), f.rec)
		if f.orig != nil {
			writeTestJSON(t, filepath.Join(d, "case.json"), f.orig)
		}
		if f.reduced != nil {
			writeTestJSON(t, filepath.Join(d, "reduced.json"), f.reduced)
		}
	}
	return dir
}

func TestBugs(t *testing.T) {
	setup := []string{"CREATE TABLE t0 (c0 DEFAULT 0)", "INSERT INTO t0(c0) VALUES (NULL)"}
	setupOther := []string{"CREATE TABLE t1 (c2 DEFAULT 7)", "INSERT INTO t1(c2) VALUES (NULL)"} // same shape
	setupView := []string{"CREATE TABLE t0 (c0)", "CREATE VIEW v0 AS SELECT * FROM t0"}
	big := &fuzz.Case{Domain: "sql", Setup: []string{"CREATE TABLE t9 (c0)", "INSERT INTO t9 VALUES (1)", "x"}}
	sqlite := []TargetInfo{{"sqlite", "3.45.1"}}
	rec := func(title string, kind fuzz.Kind, hits int64, at int) Record {
		return Record{Title: title, Kind: kind, Targets: sqlite, Hits: hits,
			FirstSeen: reportStart.Add(time.Duration(at) * time.Second)}
	}
	withFault := func(r Record, spec string, inOptions bool) Record {
		if inOptions {
			r.Options = json.RawMessage(`{"dbms":"sqlite","fault":` + jsonString(spec) + `}`)
		} else {
			r.Fault = spec
		}
		return r
	}
	const fault = "drop-row:WHERE.*LIKE"

	tests := []struct {
		name     string
		findings map[string]finding
		want     [][]string // the bugs, in order: each bug's titles, most hit first
		hits     []int64
	}{
		{"a planted fault is one bug whatever the oracle and case", map[string]finding{
			"a1": {withFault(rec("norec: sqlite: optimized query returns fewer rows", fuzz.KindWrongResult, 5, 1), fault, false),
				big, sqlCase(setup, "(0 LIKE 0)", "norec.opt-rows", "norec.unopt")},
			"a2": {withFault(rec("tlp-where: sqlite: partitions miss rows", fuzz.KindWrongResult, 9, 2), fault, true),
				big, sqlCase(setupView, "(0 LIKE t0.c0 ESCAPE 0)", "tlp.orig", "tlp.p")},
			"a3": {withFault(rec("tlp-agg: sqlite: min of partitions differs from the min", fuzz.KindWrongResult, 1, 3), fault, false),
				big, nil},
		}, [][]string{{"tlp-where: sqlite: partitions miss rows", "norec: sqlite: optimized query returns fewer rows",
			"tlp-agg: sqlite: min of partitions differs from the min"}}, []int64{15}},
		{"two planted faults are two bugs", map[string]finding{
			"b1": {withFault(rec("norec: sqlite: x", fuzz.KindWrongResult, 1, 1), "drop-row:LIKE", false), big, nil},
			"b2": {withFault(rec("norec: sqlite: y", fuzz.KindWrongResult, 1, 2), "add-row:LIKE", false), big, nil},
		}, [][]string{{"norec: sqlite: x"}, {"norec: sqlite: y"}}, []int64{1, 1}},
		{"one reduced case shape is one bug across oracles and literals", map[string]finding{
			"c1": {rec("norec: sqlite: optimized query returns fewer rows", fuzz.KindWrongResult, 2, 1),
				big, sqlCase(setup, "(0 LIKE t0.c0)", "norec.opt-rows", "norec.unopt")},
			"c2": {rec("tlp-where: sqlite: partitions miss rows", fuzz.KindWrongResult, 3, 2),
				big, sqlCase(setupOther, "(1 LIKE t1.c3)", "tlp.orig", "tlp.p")},
			"c3": {rec("tlp-agg: sqlite: min of partitions differs from the min", fuzz.KindWrongResult, 1, 3),
				big, sqlCase(setup, "(5 LIKE t0.c0)", "agg.orig", "agg.p")},
		}, [][]string{{"tlp-where: sqlite: partitions miss rows", "norec: sqlite: optimized query returns fewer rows",
			"tlp-agg: sqlite: min of partitions differs from the min"}}, []int64{6}},
		{"another setup, predicate, kind or engine is another bug", map[string]finding{
			"d1": {rec("norec: sqlite: optimized query returns fewer rows", fuzz.KindWrongResult, 1, 1),
				big, sqlCase(setup, "(0 LIKE t0.c0)", "norec.opt-rows")},
			"d2": {rec("tlp-where: sqlite: partitions miss rows", fuzz.KindWrongResult, 1, 2),
				big, sqlCase(setupView, "(0 LIKE t0.c0)", "tlp.p")},
			"d3": {rec("tlp-where: sqlite: partitions add rows", fuzz.KindWrongResult, 1, 3),
				big, sqlCase(setup, "(0 GLOB t0.c0)", "tlp.p")},
			"d6": {rec("tlp-where: sqlite: partitions differ", fuzz.KindWrongResult, 1, 6),
				big, sqlCase(setup, "('0' LIKE t0.c0)", "tlp.p")}, // a text literal for a number
			"d4": {rec("error: sqlite: x", fuzz.KindUnexpectedError, 1, 4),
				big, sqlCase(setup, "(0 LIKE t0.c0)", "tlp.p")},
			"d5": {Record{Title: "diff: duckdb: returns different rows than sqlite", Kind: fuzz.KindWrongResult, Hits: 1,
				Targets: []TargetInfo{{"sqlite", ""}, {"duckdb", ""}}, FirstSeen: reportStart.Add(5 * time.Second)},
				big, sqlCase(setup, "(0 LIKE t0.c0)", "tlp.p")},
		}, [][]string{{"norec: sqlite: optimized query returns fewer rows"}, {"tlp-where: sqlite: partitions miss rows"},
			{"tlp-where: sqlite: partitions add rows"}, {"error: sqlite: x"}, {"diff: duckdb: returns different rows than sqlite"},
			{"tlp-where: sqlite: partitions differ"}}, []int64{1, 1, 1, 1, 1, 1}},
		{"unreduced findings compare their cases; without a case a finding is its own bug", map[string]finding{
			"e1": {rec("norec: sqlite: a", fuzz.KindWrongResult, 1, 1), sqlCase(setup, "(0 LIKE t0.c0)", "norec.opt-rows"), nil},
			"e2": {rec("tlp-where: sqlite: b", fuzz.KindWrongResult, 1, 2), sqlCase(setupOther, "(0 LIKE t1.c0)", "tlp.p"), nil},
			"e3": {rec("tlp-where: sqlite: c", fuzz.KindWrongResult, 1, 3), nil, nil},
			"e4": {rec("tlp-where: sqlite: d", fuzz.KindWrongResult, 1, 4), nil, nil},
		}, [][]string{{"norec: sqlite: a", "tlp-where: sqlite: b"}, {"tlp-where: sqlite: c"}, {"tlp-where: sqlite: d"}},
			[]int64{2, 1, 1}},
		{"without shared parameters the first query is the shape", map[string]finding{
			"f1": {rec("diff: falkordb: returns different rows than neo4j,ref", fuzz.KindWrongResult, 1, 1), nil,
				&fuzz.Case{Setup: []string{"CREATE ({id: 30})"}, Queries: []fuzz.Query{{Role: "tlp.orig", Text: "MATCH (n0) RETURN n0"}}}},
			"f2": {rec("tlp-where: falkordb: partitions add rows", fuzz.KindWrongResult, 1, 2), nil,
				&fuzz.Case{Setup: []string{"CREATE ({id: 31})"}, Queries: []fuzz.Query{{Role: "tlp.orig", Text: "MATCH (n1) RETURN n1"},
					{Role: "tlp.p", Text: "MATCH (n1) WHERE n1.k0 RETURN n1"}}}},
			"f3": {rec("diff: falkordb: returns different rows than neo4j,ref", fuzz.KindWrongResult, 1, 3), nil,
				&fuzz.Case{Setup: []string{"CREATE ({id: 30})"}, Queries: []fuzz.Query{{Role: "graph.q", Text: "MATCH (n0)-->(n1) RETURN n0"}}}},
		}, [][]string{{"diff: falkordb: returns different rows than neo4j,ref", "tlp-where: falkordb: partitions add rows"},
			{"diff: falkordb: returns different rows than neo4j,ref"}}, []int64{2, 1}},
		{"no findings", nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for h, f := range tc.findings {
				if f.rec.Targets == nil {
					f.rec.Targets = []TargetInfo{{"neo4j", ""}, {"falkordb", ""}, {"ref", ""}}
					tc.findings[h] = f
				}
			}
			dir := writeFindings(t, tc.findings)
			bugs, err := Bugs(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			var hits []int64
			for _, b := range bugs {
				got = append(got, append([]string{b.Title}, b.AltTitles...))
				hits = append(hits, b.Hits)
				for _, r := range b.Records {
					sig, err := FindingSignature(filepath.Join(dir, "findings", r.Hash))
					if err != nil || sig != b.Signature {
						t.Errorf("FindingSignature(%s) = %+v, %v; want the bug's %+v", r.Hash, sig, err, b.Signature)
					}
				}
			}
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("bugs:\n got %q\nwant %q", got, tc.want)
			}
			if !slices.Equal(hits, tc.hits) {
				t.Errorf("hits %v, want %v", hits, tc.hits)
			}
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestBlamed(t *testing.T) {
	targets := []TargetInfo{{"neo4j", ""}, {"FalkorDB", ""}, {"ref", ""}}
	tests := []struct{ title, want string }{
		{"diff: falkordb: returns different rows than neo4j,ref", "falkordb"},
		{"diff: neo4j vs falkordb: return different rows", "falkordb,neo4j"},
		{"planted: tlp-where: ref: partitions add rows", "ref"},
		{"crash: memgraph: gone", "falkordb,neo4j,ref"},
	}
	for _, tc := range tests {
		if got := blamed(&Record{Title: tc.title, Targets: targets}); got != tc.want {
			t.Errorf("blamed(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}

// TestRecordedFindingsStayApart checks that the engine bugs recorded in testdata, each a bug of
// its own, are not merged by their signatures.
func TestRecordedFindingsStayApart(t *testing.T) {
	for _, d := range []string{"sql-findings", "graph-findings", "datalog-findings"} {
		dir := filepath.Join("..", "testdata", d)
		recs, err := readRecords(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 0 {
			t.Fatalf("%s: no findings", dir)
		}
		if bugs := groupBugs(dir, recs); len(bugs) != len(recs) {
			for _, b := range bugs {
				if len(b.Records) > 1 {
					t.Errorf("%s: one bug of %q and %q", d, b.Title, b.AltTitles)
				}
			}
		}
	}
}
