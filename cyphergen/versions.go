package cyphergen

import (
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// SplitEngine splits an engine named with its version, "neo4j@4.4.48", into name and version;
// a name without "@" has the version "" (unknown).
func SplitEngine(s string) (name, version string) {
	name, version, _ = strings.Cut(s, "@")
	return name, version
}

// CompareVersions compares two dotted version numbers part by part, numerically where both parts
// are numbers ("4.4.48" < "5.0" < "5.26.30" < "2026.08.1"); a missing part counts as 0.
func CompareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		x, y := "0", "0"
		if i < len(as) {
			x = as[i]
		}
		if i < len(bs) {
			y = bs[i]
		}
		xn, xerr := strconv.Atoi(x)
		yn, yerr := strconv.Atoi(y)
		switch {
		case xerr == nil && yerr == nil && xn != yn:
			if xn < yn {
				return -1
			}
			return 1
		case (xerr != nil || yerr != nil) && x != y:
			return strings.Compare(x, y)
		}
	}
	return 0
}

// InVersions reports whether an engine's version satisfies the constraints of ranges that name
// that engine: "neo4j<5.0", "falkordb>=4.16,<4.18" (the comma-separated bounds all hold; the
// operators are <, <=, >, >= and =). An engine no constraint names, and an unknown version
// (""), are in range: an entry of the catalogue then applies to every version.
func InVersions(ranges []string, engine, version string) bool {
	if version == "" {
		return true
	}
	for _, r := range ranges {
		rest, ok := strings.CutPrefix(r, engine)
		if !ok || rest == "" || !strings.ContainsRune("<>=", rune(rest[0])) {
			continue
		}
		for _, bound := range strings.Split(rest, ",") {
			i := strings.IndexFunc(bound, func(c rune) bool { return !strings.ContainsRune("<>=", c) })
			if i < 0 {
				return false
			}
			op, want := bound[:i], bound[i:]
			c := CompareVersions(version, want)
			ok := map[string]bool{"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0, "=": c == 0}[op]
			if !ok {
				return false
			}
		}
	}
	return true
}

// appliesTo reports whether the divergence holds for engine at version: engine is one of its
// engines and version is in its Versions range for that engine.
func (d Divergence) appliesTo(engine, version string) bool {
	for _, e := range d.Engines {
		if e == engine {
			return InVersions(d.Versions, engine, version)
		}
	}
	return false
}

// ExplainVersions is [Explain] for engines of known versions: versions maps an engine's name to
// the version of the server under test (a missing one is unknown), so that an entry whose
// Versions range leaves that version out explains nothing. versions is read at each call: a
// campaign fills it once its engines are open.
func ExplainVersions(versions func(engine string) string) func(f *fuzz.Finding) string {
	return func(f *fuzz.Finding) string { return explain(f, versions) }
}
