package sqlgen

import (
	_ "embed"
	"slices"
	"strings"
	"unicode/utf8"
)

// lacks is what an engine that reads a base dialect leaves out, as data: a variant dialect is
// the base without these (see [derive]). One mechanism serves an engine that reimplements another's
// SQL (Turso and SQLite) and an older release of an engine that lacks newer features.
type lacks struct {
	// features are feature switches of the base, by the names of [featureOff].
	features []string
	// funcs are scalar functions by name, joins join keywords ("FULL JOIN"), and stmts setup
	// statements (pragmas and maintenance) by their exact text.
	funcs, joins, stmts []string
}

// featureOff turns one feature of a dialect off, by name.
var featureOff = map[string]func(d *dialect){
	"without-rowid":       func(d *dialect) { d.withoutRow = false },
	"generated-columns":   func(d *dialect) { d.generated = false },
	"temp-tables":         func(d *dialect) { d.tempTables = false },
	"strict-tables":       func(d *dialect) { d.strictTypes = nil },
	"partial-indexes":     func(d *dialect) { d.partialIdx = false },
	"expression-indexes":  func(d *dialect) { d.exprIdx = false },
	"upsert":              func(d *dialect) { d.upsert = false },
	"row-values":          func(d *dialect) { d.rowValues = false },
	"empty-in":            func(d *dialect) { d.emptyIn = false },
	"nulls-order":         func(d *dialect) { d.nullsOrder = false },
	"compound-views":      func(d *dialect) { d.compoundWrap = [2]string{} },
	"sqlite-stat1":        func(d *dialect) { d.stat1 = false },
	"case-sensitive-like": func(d *dialect) { d.likePragma = "" },
	"collate-terms":       func(d *dialect) { d.noCollateTerm = true },
	"strict-checks":       func(d *dialect) { d.noStrictCheck = true },
	"row-value-between":   func(d *dialect) { d.noRowBetween = true },
	// Text is UTF-8 only: a blob read as text that is not UTF-8 is changed, so that blob
	// literals stay UTF-8 (ASCII bytes for random ones).
	"non-utf8-text": func(d *dialect) {
		d.blobs = slices.DeleteFunc(slices.Clone(d.blobs), func(b string) bool { return !utf8.Valid(hexBytes(b)) })
		d.utf8Blobs = true
	},
}

// hexBytes returns the bytes of a blob literal x'..'.
func hexBytes(lit string) []byte {
	h := strings.TrimSuffix(strings.TrimPrefix(lit, "x'"), "'")
	out := make([]byte, 0, len(h)/2)
	for i := 0; i+1 < len(h); i += 2 {
		out = append(out, byte(strings.IndexByte(hexDigits, h[i])<<4|strings.IndexByte(hexDigits, h[i+1])))
	}
	return out
}

// derive returns the dialect name: base without what l lists, with the base's expected errors
// and then expected's. It panics on a name that is not in base, so that the data stays true.
func derive(base *dialect, name string, l lacks, expected string) *dialect {
	d := *base
	d.name, d.base = name, base.name
	for _, f := range l.features {
		off, ok := featureOff[f]
		if !ok {
			panic("sqlgen: dialect " + name + ": unknown feature " + f)
		}
		off(&d)
	}
	d.funcs = without(base.funcs, l.funcs, func(f function) string { return f.name }, name)
	d.joins = without(base.joins, l.joins, func(j joinKind) string { return j.kw }, name)
	all := slices.Concat(base.startPragma, base.pragmas, base.maintenance)
	for _, s := range l.stmts {
		if !slices.Contains(all, s) {
			panic("sqlgen: dialect " + name + ": " + s + " is not a statement of " + base.name)
		}
	}
	d.startPragma = slices.DeleteFunc(slices.Clone(base.startPragma), func(s string) bool { return slices.Contains(l.stmts, s) })
	d.pragmas = slices.DeleteFunc(slices.Clone(base.pragmas), func(s string) bool { return slices.Contains(l.stmts, s) })
	d.maintenance = slices.DeleteFunc(slices.Clone(base.maintenance), func(s string) bool { return slices.Contains(l.stmts, s) })
	d.expected = base.expected + "\n" + expected
	return &d
}

// without returns the elements of s whose names are not in drop; a name of drop that no element
// has panics.
func without[T any](s []T, drop []string, nameOf func(T) string, dialect string) []T {
	for _, n := range drop {
		if !slices.ContainsFunc(s, func(e T) bool { return nameOf(e) == n }) {
			panic("sqlgen: dialect " + dialect + ": " + n + " is not in its base")
		}
	}
	return slices.DeleteFunc(slices.Clone(s), func(e T) bool { return slices.Contains(drop, nameOf(e)) })
}

// Base returns the dialect a variant dialect derives from ("sqlite" for "turso"), or "" for a
// dialect of its own. An engine of the base reads its variants' SQL.
func Base(dialect string) string {
	if d, ok := dialects[dialect]; ok {
		return d.base
	}
	return ""
}

//go:embed expected_turso.tsv
var expectedTurso string

// tursoDialect is SQLite's SQL as Turso 0.8 reads it (Turso tracks SQLite 3.50.4): SQLite's
// dialect without the features Turso lacks or leaves experimental (its COMPAT.md), found by
// running SQLite's generated SQL on Turso. Cases of this dialect run on SQLite too, which is how
// `--dbms sqlite --dbms turso` compares the two.
var tursoDialect = derive(sqliteDialect, "turso", lacks{
	features: []string{
		"without-rowid",     // "WITHOUT ROWID tables are an experimental feature"
		"generated-columns", // "Generated columns require --experimental-generated-columns flag"
		// Accepted but ignored (COMPAT.md: "Not Needed"): LIKE stays case-insensitive, which
		// would differ from SQLite.
		"case-sensitive-like",
		"non-utf8-text", // COMPAT.md, Limitations: "Text values must be valid UTF-8"
		// "Collate in WHERE clause is not supported": a COLLATE expression as an operand of AND
		// or OR in WHERE, ON or HAVING (a refusal SQLite does not make).
		"collate-terms",
		// "type mismatch in CHECK constraint", "cannot determine type of expression in CHECK
		// constraint; use CAST": STRICT tables type-check their CHECK constraints.
		"strict-checks",
		// A known bug (turso#9051, open): a row-value BETWEEN outside WHERE fails with
		// "insufficient registers allocated for expression vector write"; in a setup statement it
		// leaves Turso with other data than SQLite and hides every other difference. The reduced
		// case is kept in testdata/sql-findings.
		"row-value-between",
	},
	// FULL JOIN "requires an equality condition in the ON clause" and cannot be chained: one
	// spelling of it stays, and its refusals are expected (expected_turso.tsv).
	joins: []string{"FULL JOIN"},
	stmts: []string{
		"VACUUM",                                                        // "VACUUM is an experimental feature"
		"PRAGMA auto_vacuum = FULL", "PRAGMA auto_vacuum = INCREMENTAL", // "Autovacuum is not enabled"
		// COMPAT.md: not supported (accepted as no-ops by 0.8.3): they would test nothing.
		"PRAGMA automatic_index = OFF", "PRAGMA automatic_index = ON",
		"PRAGMA reverse_unordered_selects = ON", "PRAGMA reverse_unordered_selects = OFF",
		"PRAGMA cell_size_check = ON", "PRAGMA secure_delete = ON", "PRAGMA recursive_triggers = ON",
		"PRAGMA trusted_schema = OFF", "PRAGMA analysis_limit = 100", "PRAGMA mmap_size = 0",
		"PRAGMA optimize", "PRAGMA shrink_memory", "PRAGMA legacy_alter_table = ON",
	},
}, expectedTurso)
