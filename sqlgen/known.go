package sqlgen

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Known returns a dialect's catalogue of known differences: for a finding, the id of the documented
// behaviour behind it (not a bug), or "" when none is known. The campaign counts such a check as
// skipped with the reason "known: <id>" instead of reporting it (oracles.Known).
func Known(dialect string) func(f *fuzz.Finding) string {
	cert := knownCERT(dialect)
	return func(f *fuzz.Finding) string {
		switch {
		case f.Oracle == "cert":
			return cert(f)
		case dialect == "clickhouse" && (f.Oracle == "tlp-distinct" || f.Oracle == "tlp-groupby") && nanDuplicates(f):
			return KnownNaNBits
		}
		return ""
	}
}

// KnownNaNBits: ClickHouse's DISTINCT and GROUP BY compare floats by their bits, so NaN and -NaN
// (nan - nan and inf - inf give -nan on x86) are two rows or groups, while both print as nan:
// `SELECT DISTINCT x` over them returns "nan" twice (uniqExact counts 2). The TLP relations of
// DISTINCT and GROUP BY then see duplicate rows.
const KnownNaNBits = "clickhouse-nan-bits"

// nanDuplicates reports whether an answer of the finding's runs holds the same row twice with a
// NaN in it.
func nanDuplicates(f *fuzz.Finding) bool {
	for _, run := range f.Runs {
		for _, r := range run.Results {
			if r == nil {
				continue
			}
			seen := map[string]bool{}
			for _, row := range r.Rows {
				if !slices.Contains(row, "r:NaN") {
					continue
				}
				k := strings.Join(row, "\x00")
				if seen[k] {
					return true
				}
				seen[k] = true
			}
		}
	}
	return false
}

// Known estimator approximations behind cert findings (docs/sql.md, "cert"): each is documented
// behaviour of an engine's cardinality estimator, not a bug.
const (
	// KnownOuterJoinEstimate: the query has an outer join and the mutant is not a LIMIT.
	// PostgreSQL estimates an outer join's rows by another formula than an inner join's (at
	// least the outer side's rows, calc_joinrel_size_estimate), and a conjunct strict on the
	// nullable side makes the outer join inner (reduce_outer_joins, optimizer/README), so a
	// restriction can raise the estimate and a relaxation lower it; DuckDB's join estimates
	// likewise differ between its outer and inner joins.
	KnownOuterJoinEstimate = "cert-outer-join-estimate"
	// KnownDefaultSelectivity: DuckDB gives a filter it cannot estimate from statistics its
	// default selectivity of 0.2, whatever the estimates of its parts, while it estimates others
	// from statistics or folds them (keeping every row). A conjunction (p AND q) or disjunction
	// (p OR q) with a part it cannot estimate is then estimated at the default, above or below p
	// alone: on DuckDB every `and` and `or` mutant's finding is taken as this, and a no-where
	// mutant's when it is estimated at a fifth of the original.
	KnownDefaultSelectivity = "cert-default-selectivity"
	// KnownPlanShape: DuckDB's plans of the query and its mutant differ in an operator (a FILTER
	// of its own for a filter that the original's scan held, a CROSS_PRODUCT made a join by the
	// mutated predicate, an outer join made inner by a null-rejecting conjunct). DuckDB estimates a
	// scan's pushed filters with one default selectivity, a FILTER operator with another, and a
	// join by dividing its cross product by a denominator for each join filter, equality or not,
	// so estimates of plans of different shapes are not comparable; on DuckDB cert compares plans
	// of the same operators only, except for a LIMIT (which adds its operator, and whose estimate
	// is at most its input's).
	KnownPlanShape = "cert-plan-shape"
	// KnownSelfEquality: PostgreSQL turns a WHERE clause `x = x` (or `x IN (x, x)` and `NOT (x <>
	// x)`, which it rewrites to it; x and y may be two columns of a view that are one column of its
	// table; or what constant folding makes x = x) into `x IS NOT NULL` through its
	// equivalence classes (optimizer/README) and estimates it near the table's size, but inside an
	// OR it is an ordinary equality with eqsel's default selectivity, so adding a disjunct lowers
	// the estimate.
	KnownSelfEquality = "cert-self-equality"
	// KnownJoinClause: on PostgreSQL a predicate over one relation of a join is a restriction
	// applied at that relation's scan, whose estimate is clamped to at least one row
	// (clamp_row_est), and a conjunction (AND, BETWEEN) is split into clauses estimated apart,
	// some of them restrictions; p OR q with q over another relation is one join clause, applied
	// at the join without that clamp: with a selective p the relaxed query is estimated lower.
	KnownJoinClause = "cert-join-clause"
)

// duckDBDefaultSelectivity is DuckDB's selectivity for a filter it cannot estimate.
const duckDBDefaultSelectivity = 0.2

// knownCERT returns the catalogue of a dialect's known estimator approximations: for a cert
// finding, the id of the approximation behind it, or "" when none is known.
func knownCERT(dialect string) func(f *fuzz.Finding) string {
	return func(f *fuzz.Finding) string {
		c := f.Case
		if c == nil || f.Oracle != "cert" {
			return ""
		}
		mut := c.Params[ParamMut]
		switch dialect {
		case "postgres", "duckdb":
			if mut != mutLimit && hasOuterJoin(c.Params[ParamFrom]) {
				return KnownOuterJoinEstimate
			}
		}
		po, pm, ok := certPlans(dialect, f)
		if !ok {
			return ""
		}
		switch dialect {
		case "duckdb":
			if mut != mutLimit && !slices.Equal(po.Ops, pm.Ops) {
				return KnownPlanShape
			}
			if mut == mutOr || mut == mutAnd || mut == mutNoWhere && defaultSelectivity(po.Rows, pm.Rows) {
				return KnownDefaultSelectivity
			}
		case "postgres":
			if mut != mutLimit && (pgOuterJoin(po.Ops) || pgOuterJoin(pm.Ops)) {
				return KnownOuterJoinEstimate
			}
			if mut == mutOr && (selfEquality(c.Params[ParamPred]) || notNullFilter(f, c.Params[ParamPred])) {
				return KnownSelfEquality
			}
			if mut == mutOr && joins(c.Params[ParamFrom]) && joinClause(c.Params[ParamPred], c.Params[ParamPred2]) {
				return KnownJoinClause
			}
		}
		return ""
	}
}

// hasOuterJoin reports whether a FROM clause as the generator prints it has an outer join.
func hasOuterJoin(from string) bool {
	items, ok := parseFrom(from)
	if !ok {
		return false
	}
	for _, it := range items {
		for _, w := range strings.Fields(strings.ToUpper(it.op)) {
			if w == "LEFT" || w == "RIGHT" || w == "FULL" {
				return true
			}
		}
	}
	return false
}

// selfCompare matches a predicate that compares a column with columns: x = y, x IN (y, ...), or
// NOT (x <> y) (which PostgreSQL rewrites to x = y, negate_clause).
var selfCompare = regexp.MustCompile(`^\(*(NOT \(+)?(\w+\.\w+) (=|<>|IN) \(*(\w+\.\w+(?:, \w+\.\w+)*)\)*$`)

// selfEquality reports whether a predicate is a column equal to itself: the same column on both
// sides, or columns of one view (which may be one column of its table: v0.c0 and v0.c1 both
// t1.c0).
func selfEquality(pred string) bool {
	m := selfCompare.FindStringSubmatch(pred)
	if m == nil || (m[1] == "") != (m[3] != "<>") {
		return false
	}
	rel, _, _ := strings.Cut(m[2], ".")
	for _, col := range strings.Split(m[4], ", ") {
		r, _, _ := strings.Cut(col, ".")
		if col != m[2] && !(r == rel && strings.HasPrefix(rel, "v")) {
			return false
		}
	}
	return true
}

// notNullFilter reports whether PostgreSQL's plan of the finding's original query filters by IS
// NOT NULL where the predicate does not say so: the planner made an equality of a column with
// itself `x IS NOT NULL` (after folding constants and expanding views).
func notNullFilter(f *fuzz.Finding, pred string) bool {
	if strings.Contains(pred, "IS NOT NULL") {
		return false
	}
	oi := roleIndex(f.Case, RoleCERTOrig)
	for _, run := range f.Runs {
		if oi < 0 || oi >= len(run.Results) || run.Results[oi] == nil {
			continue
		}
		for _, row := range run.Results[oi].Rows {
			if len(row) == 1 && strings.Contains(row[0], "Filter: ") && strings.Contains(row[0], "IS NOT NULL") {
				return true
			}
		}
	}
	return false
}

// relRef matches a column reference's relation (t0 in t0.c1).
var relRef = regexp.MustCompile(`\b(\w+)\.c\d+\b`)

// relations returns the relations whose columns an expression names.
func relations(expr string) map[string]bool {
	rels := map[string]bool{}
	for _, m := range relRef.FindAllStringSubmatch(expr, -1) {
		rels[m[1]] = true
	}
	return rels
}

// joinClause reports whether p holds a conjunction (which the planner splits into clauses), or
// names one relation and q one p does not: p OR q is then one join clause where p alone is
// several clauses, or a restriction of its relation.
func joinClause(p, q string) bool {
	if strings.Contains(p, " AND ") || strings.Contains(p, " BETWEEN ") {
		return true
	}
	rp := relations(p)
	if len(rp) != 1 {
		return false
	}
	for r := range relations(q) {
		if !rp[r] {
			return true
		}
	}
	return false
}

// pgOuterJoin reports whether a PostgreSQL plan has an outer join (of a view, say).
func pgOuterJoin(ops []string) bool {
	for _, op := range ops {
		for _, j := range []string{"Left Join", "Right Join", "Full Join", "Anti Join"} {
			if strings.Contains(op, j) {
				return true
			}
		}
	}
	return false
}

// roleIndex returns the index of c's query of the role, or -1.
func roleIndex(c *fuzz.Case, role string) int {
	return slices.IndexFunc(c.Queries, func(q fuzz.Query) bool { return q.Role == role })
}

// joins reports whether a FROM clause as the generator prints it has more than one relation.
func joins(from string) bool {
	items, ok := parseFrom(from)
	return ok && len(items) > 1
}

// certPlans reads the plans of the original query and of its mutant from the finding's first run
// that planned both with estimates.
func certPlans(dialect string, f *fuzz.Finding) (orig, mutant Plan, ok bool) {
	oi, mi := roleIndex(f.Case, RoleCERTOrig), roleIndex(f.Case, RoleCERTMut)
	if oi < 0 || mi < 0 {
		return Plan{}, Plan{}, false
	}
	for _, run := range f.Runs {
		if len(run.Results) <= max(oi, mi) {
			continue
		}
		po, ok1 := ReadPlan(dialect, run.Results[oi])
		pm, ok2 := ReadPlan(dialect, run.Results[mi])
		if ok1 && ok2 && po.HasRows && pm.HasRows {
			return po, pm, true
		}
	}
	return Plan{}, Plan{}, false
}

// defaultSelectivity reports whether mutant is orig times DuckDB's default selectivity, rounded
// either way and at least one row.
func defaultSelectivity(orig, mutant float64) bool {
	e := orig * duckDBDefaultSelectivity
	return mutant == max(1, math.Floor(e)) || mutant == max(1, math.Ceil(e))
}
