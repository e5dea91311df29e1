package sqlgen

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// An engine option ([Options.Engine]) names the build the cases are written for: its release and
// the optional features it was found to have, "3.40.1+json+math". The generator then uses only
// what that build has: a function, operator, join, statement or table feature that came in a
// later release, or that needs a feature the build lacks, is left out. The empty option is the
// dialect's newest release with its default features (what the engine polyfuzz embeds has).

// gate is a part of a dialect that not every build of its engine has: the release that brought
// it and the optional feature (compile-time option) it needs.
type gate struct {
	kind  string // gateFunc, gateJoin, gateOp, gatePragma, gatePrintf, gateAgg or gateFeature
	name  string // the function's name, the join keyword, the operator, the statement, the format, the feature
	since string // first release that has it ("3.44.0"); "" every release
	needs string // the optional feature it needs ("math"); "" none
}

// Kinds of gate.
const (
	gateFunc    = "func"    // a function of dialect.funcs or typedData.funcs, by name
	gateJoin    = "join"    // a join keyword of dialect.joins
	gateOp      = "op"      // an operator of dialect.isOps
	gatePragma  = "pragma"  // a setup statement (dialect.startPragma, pragmas, maintenance, typed settings)
	gatePrintf  = "printf"  // a format of dialect.printfFmts
	gateAgg     = "agg"     // an aggregate of TLP-agg
	gateFeature = "feature" // a switch of the dialect (see featureOff)
)

// feature is an optional feature of an engine's builds: present in some, absent in others, as
// compile-time options or behaviour changes between releases decide. probe is a statement that
// succeeds on a build that has it, answering the one canonical value want when want is set.
type feature struct {
	name, probe, want string
}

// versioning is how a dialect adapts to the build of its engine.
type versioning struct {
	// probe is a query whose one value is the engine's release ("SELECT sqlite_version()").
	probe    string
	gates    []gate
	features []feature
	// defaults are the features of the empty engine option.
	defaults []string
}

// sqliteVersioning: up to 3.41 the releases are those of SQLite's release notes
// (sqlite.org/changes.html), except two the notes do not name, which rest on other reports:
// sign() (3.35.0, with the math functions; 3.34.1 lacks it) and the sqlite_schema name (3.33.0).
// The later ones (octet_length 3.43.0, concat and concat_ws 3.44.0, if 3.48.0) rest on reports
// of those releases' notes, and agree with the builds at hand: 3.40.1 lacks all five, 3.44.0 has
// all but if. sign() is a core function, outside SQLITE_ENABLE_MATH_FUNCTIONS. Math functions
// need SQLITE_ENABLE_MATH_FUNCTIONS (Debian's build has it, go-sqlite3's not); the JSON functions
// are built in from 3.38.0 unless SQLITE_OMIT_JSON, and needed SQLITE_ENABLE_JSON1 before; in
// some releases they are unsafe in schema objects.
var sqliteVersioning = &versioning{
	probe: "SELECT sqlite_version()",
	gates: []gate{
		{gateFunc, "iif", "3.32.0", ""},
		{gateFunc, "substring", "3.34.0", ""},
		{gateFunc, "sign", "3.35.0", ""},
		{gateFunc, "format", "3.38.0", ""},
		{gateFunc, "unhex", "3.41.0", ""},
		{gateFunc, "octet_length", "3.43.0", ""},
		{gateFunc, "concat", "3.44.0", ""},
		{gateFunc, "concat_ws", "3.44.0", ""},
		{gateFunc, "if", "3.48.0", ""},
		{gateFunc, "json_valid", "", "json"},
		{gateFunc, "ceil", "3.35.0", "math"}, {gateFunc, "floor", "3.35.0", "math"},
		{gateFunc, "trunc", "3.35.0", "math"}, {gateFunc, "ln", "3.35.0", "math"},
		{gateFunc, "log", "3.35.0", "math"}, {gateFunc, "log2", "3.35.0", "math"},
		{gateFunc, "exp", "3.35.0", "math"}, {gateFunc, "mod", "3.35.0", "math"},
		{gateFunc, "pow", "3.35.0", "math"}, {gateFunc, "sqrt", "3.35.0", "math"},
		{gateFunc, "sin", "3.35.0", "math"}, {gateFunc, "atan2", "3.35.0", "math"},
		{gateFunc, "pi", "3.35.0", "math"}, {gateFunc, "degrees", "3.35.0", "math"},
		{gateJoin, "RIGHT JOIN", "3.39.0", ""}, {gateJoin, "RIGHT OUTER JOIN", "3.39.0", ""},
		{gateJoin, "FULL JOIN", "3.39.0", ""}, {gateJoin, "FULL OUTER JOIN", "3.39.0", ""},
		{gateOp, "IS DISTINCT FROM", "3.39.0", ""}, {gateOp, "IS NOT DISTINCT FROM", "3.39.0", ""},
		{gatePragma, "PRAGMA trusted_schema = OFF", "3.31.0", "schema-json"},
		{gatePragma, "PRAGMA analysis_limit = 100", "3.32.0", ""},
		{gatePrintf, "'%,d'", "3.18.0", ""}, // the comma flag
		{gateAgg, "AVG", "", "exact-avg"},
		{gateFeature, "reindex-temp", "", "reindex-temp"},
		{gateFeature, "upsert", "3.24.0", ""},
		{gateFeature, "nulls-order", "3.30.0", ""},
		{gateFeature, "generated-columns", "3.31.0", ""},
		{gateFeature, "sqlite-schema", "3.33.0", ""},
		{gateFeature, "strict-tables", "3.37.0", ""},
	},
	features: []feature{
		{"json", "SELECT json_valid('1')", ""},
		{"math", "SELECT sin(0)", ""},
		// JSON functions may stand in views and indexes with trusted_schema off (3.40 refuses:
		// "unsafe use of json_valid()"). The probe's target is thrown away after it.
		{"schema-json", "PRAGMA trusted_schema = OFF; CREATE VIEW polyfuzz_probe AS SELECT json_valid('1'); SELECT * FROM polyfuzz_probe", ""},
		// AVG of integers is exact (3.40 sums them as doubles: the AVG of the largest and the
		// smallest integer is 0.0, which TLP-agg's partitions, summed exactly, contradict).
		{"exact-avg", "SELECT avg(x) FROM (SELECT 9223372036854775807 AS x UNION ALL SELECT -9223372036854775808)", "r:-0.5"},
		// REINDEX finds a TEMP table by its bare name (3.40 looks in main only: "unable to
		// identify the object to be reindexed"; there the generator writes temp.NAME).
		{"reindex-temp", "CREATE TEMP TABLE polyfuzz_probe_t(a); REINDEX polyfuzz_probe_t", ""},
	},
	defaults: []string{"json", "schema-json", "exact-avg", "reindex-temp"},
}

// duckdbVersioning: what the duckdb dialect uses that a release from 0.7.0 (the oldest wheel
// targets/duckdbpy opens) lacks, found by running each function, operator and setting on every
// wheel from 0.7.1 to 2.0.1: the // operator came in 0.8.0.
var duckdbVersioning = &versioning{
	probe: "SELECT version()",
	gates: []gate{{gateFeature, "int-div", "0.8.0", ""}},
}

// engineSpec is a parsed engine option.
type engineSpec struct {
	version  []int // nil: the newest
	features []string
}

// parseEngine reads an engine option of dialect d: "" (the newest, default features), or a
// release with its features, "3.40.1+json+math".
func parseEngine(d *dialect, s string) (engineSpec, error) {
	v := d.versioning
	if s == "" {
		if v == nil {
			return engineSpec{}, nil
		}
		return engineSpec{features: v.defaults}, nil
	}
	if v == nil {
		return engineSpec{}, fmt.Errorf("the %s dialect does not adapt to engine versions; leave engine out", d.name)
	}
	parts := strings.Split(s, "+")
	ver, err := parseVersion(parts[0])
	if err != nil {
		return engineSpec{}, err
	}
	e := engineSpec{version: ver}
	for _, f := range parts[1:] {
		if !slices.ContainsFunc(v.features, func(x feature) bool { return x.name == f }) {
			return engineSpec{}, fmt.Errorf("unknown feature %q; the %s dialect knows %s", f, d.name, featureNames(v))
		}
		if slices.Contains(e.features, f) {
			return engineSpec{}, fmt.Errorf("feature %q listed twice; name it once", f)
		}
		e.features = append(e.features, f)
	}
	return e, nil
}

func featureNames(v *versioning) string {
	var out []string
	for _, f := range v.features {
		out = append(out, f.name)
	}
	return strings.Join(out, ", ")
}

// parseVersion reads a release "3.40.1" (a leading "v" and a suffix after "-" are dropped).
func parseVersion(s string) ([]int, error) {
	s = strings.TrimPrefix(s, "v")
	s, _, _ = strings.Cut(s, "-")
	var out []int
	for p := range strings.SplitSeq(s, ".") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("release %q: want numbers separated by dots (3.40.1)", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// before reports whether release a comes before b (missing parts count as zero).
func before(a, b []int) bool {
	for i := 0; i < max(len(a), len(b)); i++ {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// lacks reports whether the build e lacks the gated part g.
func (e engineSpec) lacks(g gate) bool {
	if g.needs != "" && !slices.Contains(e.features, g.needs) {
		return true
	}
	if g.since == "" || e.version == nil {
		return false
	}
	since, _ := parseVersion(g.since)
	return before(e.version, since)
}

// forEngine returns d as the build e has it: d itself when the build has every gated part, else
// d without the parts it lacks (see [dialect.leaveOut]).
func (d *dialect) forEngine(e engineSpec) *dialect {
	v := d.versioning
	if v == nil {
		return d
	}
	var l lacks
	for _, g := range v.gates {
		if e.lacks(g) {
			*l.field(g.kind) = append(*l.field(g.kind), g.name)
		}
	}
	if l.none() {
		return d
	}
	return d.leaveOut(l)
}

// field returns the list of l that gates of the kind fill.
func (l *lacks) field(kind string) *[]string {
	switch kind {
	case gateFunc:
		return &l.funcs
	case gateJoin:
		return &l.joins
	case gateOp:
		return &l.ops
	case gatePragma:
		return &l.stmts
	case gatePrintf:
		return &l.printfs
	case gateAgg:
		return &l.aggs
	}
	return &l.features
}

// checkEngine reports an engine option the dialect cannot read.
func checkEngine(dialectName, s string) error {
	d, ok := dialects[dialectName]
	if !ok {
		return nil // the dialect's own check names it
	}
	_, err := parseEngine(d, s)
	return err
}

// Probe asks the engine behind t which build it is and returns the engine option for cases
// written for it ([Options.Engine]): its release and the optional features of the dialect it
// has (a feature's probe statement succeeds). A dialect that does not adapt to versions gives "".
// t should be fresh, and be thrown away after: a probe may leave a setting or a temporary view
// behind, and a fault planted in t would mislead them.
func Probe(ctx context.Context, dialect string, t fuzz.Target) (string, error) {
	d, ok := dialects[dialect]
	if !ok {
		return "", fmt.Errorf("sqlgen: unknown dialect %q (valid: %s)", dialect, strings.Join(dialectNames(), ", "))
	}
	v := d.versioning
	if v == nil {
		return "", nil
	}
	res, err := t.Exec(ctx, v.probe)
	if err != nil {
		return "", fmt.Errorf("sqlgen: probe %s's release: %w", t.Name(), err)
	}
	if res.Status != fuzz.StatusOK || len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return "", fmt.Errorf("sqlgen: probe %s's release with %q: %s", t.Name(), v.probe, describe(res))
	}
	rel := res.Rows[0][0]
	if txt, ok := strings.CutPrefix(rel, "t:"); ok {
		rel = txt
	}
	if _, err := parseVersion(rel); err != nil {
		return "", fmt.Errorf("sqlgen: %s names its release %q: %w", t.Name(), rel, err)
	}
	rel = strings.TrimPrefix(rel, "v")
	out := rel
	for _, f := range v.features {
		r, err := t.Exec(ctx, f.probe)
		if err != nil {
			return "", fmt.Errorf("sqlgen: probe %s for %s: %w", t.Name(), f.name, err)
		}
		if r.Status == fuzz.StatusOK && (f.want == "" || len(r.Rows) == 1 && len(r.Rows[0]) == 1 && r.Rows[0][0] == f.want) {
			out += "+" + f.name
		}
	}
	return out, nil
}

// describe says what a probe got instead of one value.
func describe(r *fuzz.Result) string {
	switch {
	case r == nil:
		return "no result"
	case r.Status != fuzz.StatusOK:
		return "error " + r.Code + ": " + r.Err
	}
	return fmt.Sprintf("%d rows", len(r.Rows))
}

// Adapts reports whether the dialect adapts to the engine's build: whether [Probe] asks the
// engine anything and [Options.Engine] may be set.
func Adapts(dialect string) bool {
	d, ok := dialects[dialect]
	return ok && d.versioning != nil
}
