package sqlgen

import (
	"context"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/reduce"
)

// coddSalt separates the CODDTest random stream from the other streams of a case.
const coddSalt = 0xc0dd_7e57_19a4_5b3f

// coddMaxKeys bounds the distinct rows a result map folds: a larger first answer skips the case.
const coddMaxKeys = 48

// Roles of the CODDTest layout (see fuzz.CODD).
var (
	RoleCODDFetch = fuzz.CODD.Role("fetch") // SELECT <cols>, φ AS phi FROM <from>: the values to fold
	RoleCODDMap   = fuzz.CODD.Role("map")   // SELECT <cols>, <result map> AS phi FROM <from>
	RoleCODDOrig  = fuzz.CODD.Role("orig")  // SELECT [DISTINCT] [(φ) AS phi, ]<cols> FROM <from> WHERE <(φ) used>
	RoleCODDFold  = fuzz.CODD.Role("fold")  // the same with the result map in φ's place
)

// coddScope is what a CODDTest case knows before its first stage ran: chosen from the seed alone,
// so that Derive finds it again.
type coddScope struct {
	from  string
	cols  []string  // the columns in scope, qualified, in the fetch query's order
	types []sqlType // their types in a typed dialect
	phi   string    // the folded predicate
	// where is how the outer query's WHERE uses φ (one of coddWheres, %s is φ), sel whether its
	// select list shows φ too, distinct whether it is SELECT DISTINCT.
	where         string
	sel, distinct bool
	// sub, when set, makes the case an independent-subquery folding: the fetch query is sub (one
	// column of a relation, by subPred), and the outer query's WHERE is "x IN (sub)" (x the same
	// column, in: true) or "EXISTS (sub)", negated when not.
	sub, subCol string
	subType     sqlType
	in, not     bool
}

// coddWheres are the ways the outer query's WHERE uses φ. Each reads φ's truth or nullness only:
// in SQLite a comparison would apply φ's affinity and collation, which the folded constant lacks.
var coddWheres = []string{"%s", "NOT %s", "%s IS NULL"}

// coddRNG returns the CODDTest stream of a case seed.
func coddRNG(seed uint64) *rng { return newRNG(fuzz.Mix(seed^coddSalt), seed) }

// coddScopeOf draws the FROM clause, φ and the outer query's shape of a case, and one time in
// three an independent subquery to fold instead of φ.
func (g *Generator) coddScopeOf(r *rng, st *setup) *coddScope {
	from, scope, types := g.from(r, st)
	var b strings.Builder
	g.predInto(r, &b, scope, types, g.o.MaxDepth)
	sc := &coddScope{from: from, cols: scope, types: types, phi: b.String(), where: pick(r, coddWheres), sel: r.prob(0.5)}
	// DISTINCT compares values under their collation, which the folded constant lacks in SQLite;
	// a typed dialect's φ is a Boolean.
	sc.distinct = g.d.typed != nil && r.oneIn(4)
	if r.oneIn(3) {
		// x IN (SELECT x FROM <x's relation> WHERE ψ): x on both sides, so that the list of
		// literals compares under the same affinity and collation as the subquery (SQLite applies
		// x's to both).
		k := r.intn(len(scope))
		name, _, _ := strings.Cut(scope[k], ".")
		for i := range st.rels {
			if rl := &st.rels[i]; rl.name == name {
				var p strings.Builder
				g.predInto(r, &p, rl.cols, rl.types, min(2, g.o.MaxDepth))
				sc.sub = "SELECT " + scope[k] + " FROM " + name + " WHERE " + p.String()
				sc.subCol = scope[k]
				if k < len(types) {
					sc.subType = types[k]
				}
				sc.in, sc.not = r.prob(0.6), r.oneIn(3)
			}
		}
	}
	return sc
}

// coddAlias names φ's column in the select lists: a φ that is a bare column would otherwise
// repeat a column's name, which DataFusion refuses.
const coddAlias = " AS phi"

// coddFetch returns the first-stage query of a CODDTest case.
func coddFetch(sc *coddScope) string {
	if sc.sub != "" {
		return sc.sub
	}
	return "SELECT " + strings.Join(sc.cols, ", ") + ", " + sc.phi + coddAlias + " FROM " + sc.from
}

// outer returns the outer query with x in φ's place: "(φ)" for the original, the map folded.
func (sc *coddScope) outer(x string) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if sc.distinct {
		b.WriteString("DISTINCT ")
	}
	if sc.sel {
		b.WriteString(x)
		b.WriteString(coddAlias + ", ")
	}
	b.WriteString(strings.Join(sc.cols, ", "))
	b.WriteString(" FROM ")
	b.WriteString(sc.from)
	b.WriteString(" WHERE ")
	b.WriteString(strings.Replace(sc.where, "%s", x, 1))
	return b.String()
}

// coddLiteral writes a canonical value as a literal of the dialect that an engine reads back as
// the same value: compared with a column when key, else as φ's folded value (a Boolean in a
// typed dialect). ok is false when it cannot be written exactly: the case then skips.
func (g *Generator) coddLiteral(v string, key bool) (string, bool) {
	if v == fuzz.Null {
		if g.d.typed == nil || key {
			return "NULL", true
		}
		return typedNull(g.d.typed, tBool), true
	}
	kind, val, ok := strings.Cut(v, ":")
	if !ok {
		return "", false
	}
	mysql := g.d.name == "mysql"
	switch kind {
	case "i":
		if _, err := strconv.ParseInt(val, 10, 64); err != nil {
			return "", false // HUGEINT and unsigned values beyond int64 are left alone
		}
		return val, true
	case "d":
		if g.d.typed == nil || strings.ContainsAny(val, "NI") {
			return "", false
		}
		if !strings.Contains(val, ".") {
			val += ".0" // a decimal literal, not an integer one (PostgreSQL, DuckDB)
		}
		if g.d.typed.floatDecimalApart {
			// DataFusion reads 1.5 as a float, which does not compare exactly with a decimal.
			return "CAST('" + val + "' AS DECIMAL(38,10))", true
		}
		return val, true
	case "r":
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || f != f || val == "-0" {
			return "", false // NaN, and -0, which an engine may print as 0
		}
		if g.d.typed != nil {
			if !key || strings.Contains(val, "Inf") {
				return "", false
			}
			// A string the engine converts to the column's own float type: exact for REAL too.
			return "'" + val + "'", true
		}
		switch val {
		case "+Inf":
			return "1e999", true
		case "-Inf":
			return "-1e999", true
		}
		if !strings.ContainsAny(val, ".e") {
			val += ".0"
		}
		return val, true
	case "t":
		if strings.ContainsRune(val, 0) || mysql && strings.ContainsRune(val, '\\') || !key && g.d.typed != nil {
			return "", false
		}
		return "'" + strings.ReplaceAll(val, "'", "''") + "'", true
	case "b":
		if g.d.typed != nil {
			return "", false
		}
		return "X'" + val + "'", true
	case "B":
		return strings.ToUpper(val), val == "true" || val == "false"
	}
	return "", false
}

// coddKey returns the WHEN condition that holds for a row whose columns have the canonical values
// vals.
func (g *Generator) coddKey(sc *coddScope, vals []string) (string, bool) {
	parts := make([]string, len(vals))
	for i, v := range vals {
		if v == fuzz.Null {
			parts[i] = sc.cols[i] + " IS NULL"
			continue
		}
		lit, ok := g.coddLiteral(v, true)
		if !ok {
			return "", false
		}
		col := sc.cols[i]
		if strings.HasPrefix(v, "t:") {
			// Exact, not under the column's collation.
			if g.d.typed == nil {
				lit += " COLLATE BINARY"
			} else if g.d.name == "mysql" {
				col = "CAST(" + col + " AS BINARY)"
			}
		}
		parts[i] = col + " = " + lit
	}
	return strings.Join(parts, " AND "), true
}

// coddMap builds φ's result map from the rows of the fetch query (the columns, then φ's value):
// CASE WHEN <key of a row> THEN <φ's value> ... END. ok is false when a value cannot be written
// exactly, the rows give one key two values, or there are more than coddMaxKeys keys.
func (g *Generator) coddMap(sc *coddScope, rows [][]string) (string, bool) {
	n := len(sc.cols)
	seen := map[string]string{}
	var b strings.Builder
	b.WriteString("CASE")
	for _, row := range rows {
		if len(row) != n+1 {
			return "", false
		}
		k := strings.Join(row[:n], "\x00")
		if v, ok := seen[k]; ok {
			if v != row[n] {
				return "", false
			}
			continue
		}
		seen[k] = row[n]
		if len(seen) > coddMaxKeys {
			return "", false
		}
		key, ok := g.coddKey(sc, row[:n])
		if !ok {
			return "", false
		}
		val, ok := g.coddLiteral(row[n], false)
		if !ok {
			return "", false
		}
		b.WriteString(" WHEN ")
		b.WriteString(key)
		b.WriteString(" THEN ")
		b.WriteString(val)
	}
	b.WriteString(" END")
	return b.String(), true
}

// deriveCODD builds the second stage of a CODDTest case from the rows of its fetch query: the
// result map checked against φ, and the outer query with φ and with the map in its place. It
// returns nil when the fetch failed, found no rows, or its values cannot be folded exactly.
func (g *Generator) deriveCODD(c *fuzz.Case, fetch *fuzz.Result) []fuzz.Query {
	if fetch.Failed() {
		return nil
	}
	sc := g.coddScopeOf(coddRNG(c.Seed), g.setup(fuzz.SetupSeed(c.Seed)))
	if sc.sub != "" {
		return g.deriveSub(sc, fetch.Rows)
	}
	if len(fetch.Rows) == 0 {
		return nil
	}
	m, ok := g.coddMap(sc, fetch.Rows)
	if !ok {
		return nil
	}
	return []fuzz.Query{
		{Role: RoleCODDMap, Text: "SELECT " + strings.Join(sc.cols, ", ") + ", " + m + coddAlias + " FROM " + sc.from},
		{Role: RoleCODDOrig, Text: sc.outer("(" + sc.phi + ")")},
		{Role: RoleCODDFold, Text: sc.outer(m)},
	}
}

// deriveSub builds the second stage of an independent-subquery folding from the subquery's rows:
// "codd.map" writes the rows as literals of the column's type (SELECT v1 AS phi UNION ALL ...),
// "codd.orig" uses the
// subquery and "codd.fold" its value: EXISTS is TRUE or FALSE, x IN (sub) is x IN (v1, ...), or
// FALSE for no rows. nil when a value cannot be written exactly or there are too many.
func (g *Generator) deriveSub(sc *coddScope, rows [][]string) []fuzz.Query {
	if len(rows) > coddMaxKeys {
		return nil
	}
	var list, sel []string
	for _, row := range rows {
		if len(row) != 1 {
			return nil
		}
		lit, ok := g.coddLiteral(row[0], true)
		if !ok {
			return nil
		}
		list = append(list, lit)
		// Typed, NULL too: PostgreSQL types a UNION of NULLs as text, which then meets the type
		// of a later branch.
		if g.d.typed != nil && g.d.typed.castTypes[sc.subType] != "" {
			lit = "CAST(" + lit + " AS " + g.d.typed.castTypes[sc.subType] + ")"
		}
		sel = append(sel, "SELECT "+lit+coddAlias)
	}
	table, _, _ := strings.Cut(sc.subCol, ".")
	m := "SELECT NULL" + coddAlias + " FROM " + table + " WHERE 1 = 0"
	if len(sel) > 0 {
		m = strings.Join(sel, " UNION ALL ")
	}
	not := ""
	if sc.not {
		not = "NOT "
	}
	var orig, fold string
	switch {
	case sc.in && len(list) > 0:
		orig, fold = sc.subCol+" "+not+"IN ("+sc.sub+")", sc.subCol+" "+not+"IN ("+strings.Join(list, ", ")+")"
	case sc.in && g.d.name == "clickhouse":
		// ClickHouse's NULL [NOT] IN (an empty set) is 0, not as for a FALSE; only its IN of a
		// NULL is documented apart ("the result of an operation with NULL always equals 0").
		return nil
	case sc.in:
		orig, fold = sc.subCol+" "+not+"IN ("+sc.sub+")", not+"FALSE"
	default:
		orig, fold = not+"EXISTS ("+sc.sub+")", not+cond(len(list) > 0, "TRUE", "FALSE")
	}
	q := "SELECT " + strings.Join(sc.cols, ", ") + " FROM " + sc.from + " WHERE "
	return []fuzz.Query{{Role: RoleCODDMap, Text: m}, {Role: RoleCODDOrig, Text: q + orig}, {Role: RoleCODDFold, Text: q + fold}}
}

// coddBranches splits a result map as coddMap writes it into its WHEN branches ("WHEN k THEN v");
// ok is false for any other text.
func coddBranches(m string) (branches []string, ok bool) {
	toks := tokenize(m)
	if len(toks) < 2 || !strings.EqualFold(m[toks[0].s:toks[0].e], "CASE") || !strings.EqualFold(m[toks[len(toks)-1].s:toks[len(toks)-1].e], "END") {
		return nil, false
	}
	depth, start := 0, -1
	for _, t := range toks[1 : len(toks)-1] {
		switch t.kind {
		case tkOpen:
			depth++
		case tkClose:
			depth--
		case tkWord:
			if depth == 0 && strings.EqualFold(m[t.s:t.e], "WHEN") {
				if start >= 0 {
					branches = append(branches, strings.TrimSpace(m[start:t.s]))
				}
				start = t.s
			}
		}
	}
	if start < 0 {
		return nil, false
	}
	return append(branches, strings.TrimSpace(m[start:toks[len(toks)-1].s])), true
}

// coddMapOf returns the result map of a case's codd.map query, or "" when it has none.
func coddMapOf(c *fuzz.Case) string {
	q, ok := c.Query(RoleCODDMap)
	if !ok {
		return ""
	}
	i, j := strings.Index(q, ", CASE WHEN "), strings.LastIndex(q, " END"+coddAlias+" FROM ")
	if i < 0 || j < i {
		return ""
	}
	return q[i+2 : j+4]
}

// shrinkCODD drops the branches of a CODDTest case's result map (in codd.map and codd.fold alike)
// that the finding does not need (after the setup shrank, most match no row), then shrinks φ in
// codd.fetch and codd.orig: the oracle skips a φ whose values the map no longer gives.
func (rd *Reducer) shrinkCODD(ctx context.Context, start *fuzz.Case, try func(*fuzz.Case) bool) {
	m := coddMapOf(start)
	branches, ok := coddBranches(m)
	if !ok {
		return
	}
	start = rd.shrinkPhi(ctx, start, m, try)
	if len(branches) < 2 {
		return
	}
	reduce.DDMin(ctx, branches, func(bs []string) bool {
		if len(bs) == 0 {
			return false
		}
		nm := "CASE " + strings.Join(bs, " ") + " END"
		cand := start.Clone()
		for i := range cand.Queries {
			if q := &cand.Queries[i]; q.Role == RoleCODDMap || q.Role == RoleCODDFold {
				q.Text = strings.ReplaceAll(q.Text, m, nm)
			}
		}
		return try(cand)
	})
}

// shrinkPhi shrinks φ in codd.fetch and codd.orig of a case whose result map is m, and returns
// the smallest case kept.
func (rd *Reducer) shrinkPhi(ctx context.Context, start *fuzz.Case, m string, try func(*fuzz.Case) bool) *fuzz.Case {
	mq, _ := start.Query(RoleCODDMap)
	fetch, _ := start.Query(RoleCODDFetch)
	i := strings.Index(mq, m)
	pre, post := mq[:i], mq[i+len(m):]
	if !strings.HasPrefix(fetch, pre) || !strings.HasSuffix(fetch, post) || len(fetch) <= len(pre)+len(post) {
		return start
	}
	phi := fetch[len(pre) : len(fetch)-len(post)]
	reduce.Fixpoint(ctx, phi, []reduce.Pass[string]{reduce.PassFunc[string]{PassName: "phi", Fn: shrinkCandidates}},
		func(p string) bool {
			cand := start.Clone()
			for i := range cand.Queries {
				switch q := &cand.Queries[i]; q.Role {
				case RoleCODDFetch:
					q.Text = pre + p + post
				case RoleCODDOrig:
					q.Text = strings.ReplaceAll(q.Text, "("+phi+")", "("+p+")")
				}
			}
			if try(cand) {
				start, phi = cand, p
				return true
			}
			return false
		}, 0)
	return start
}
