package fuzz

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// roleSep separates a role's family from its part: "tlp.notp".
const roleSep = "."

// Layout is a family of query roles: the queries of a case that one oracle reads, each with the
// role "family.part" (Query.Role). A layout is declared once, as a package-level value, and
// generators write their roles and oracles find their queries through it, so that the text of a
// role is spelled in one place. Roles are stored in case.json, so a declared layout never changes
// the text of its roles. A Layout is immutable; compare layouts by pointer.
type Layout struct {
	family string
	parts  []string
	roles  []string // family + roleSep + part, for each part
}

// NewLayout returns the layout of family with the given parts, in order. It panics when family
// or a part is empty, holds the separator ".", or a part repeats: layouts are declared once, at
// package level, so the mistake shows at start-up.
func NewLayout(family string, parts ...string) *Layout {
	if family == "" || strings.Contains(family, roleSep) {
		panic(fmt.Sprintf("fuzz: bad layout family %q", family))
	}
	l := &Layout{family: family, parts: slices.Clone(parts), roles: make([]string, len(parts))}
	for i, p := range parts {
		if p == "" || strings.Contains(p, roleSep) || slices.Index(parts, p) != i {
			panic(fmt.Sprintf("fuzz: bad part %q of layout %q", p, family))
		}
		l.roles[i] = family + roleSep + p
	}
	return l
}

// Family returns the layout's family, the text of its roles before the ".".
func (l *Layout) Family() string { return l.family }

// Role returns the role of part ("tlp" and "notp" give "tlp.notp"). It panics when the layout
// has no such part, which is a mistake in the program.
func (l *Layout) Role(part string) string {
	i := slices.Index(l.parts, part)
	if i < 0 {
		panic(fmt.Sprintf("fuzz: layout %q has no part %q", l.family, part))
	}
	return l.roles[i]
}

// Roles returns the roles of every part, in order.
func (l *Layout) Roles() []string { return slices.Clone(l.roles) }

// All yields the position and role of every part, in order, without copying the roles.
func (l *Layout) All() iter.Seq2[int, string] { return slices.All(l.roles) }

// Index returns the position of role among the layout's roles, or -1 when it is not one of them.
func (l *Layout) Index(role string) int { return slices.Index(l.roles, role) }

// Has reports whether role is one of the layout's roles.
func (l *Layout) Has(role string) bool { return l.Index(role) >= 0 }

// Sub returns the layout of the same family restricted to the given parts, in that order: a
// selection of some of its queries (the original query of a TLP layout, say). It panics when the
// layout has no such part.
func (l *Layout) Sub(parts ...string) *Layout {
	for _, p := range parts {
		l.Role(p)
	}
	return NewLayout(l.family, parts...)
}

// checkSep separates a role from the index of the check it belongs to in a case that holds
// several checks of one layout: "tlp.notp#2".
const checkSep = "#"

// CheckRole returns the role of a query of check k of a case that makes several checks of one
// layout: role itself for k = 0 (so that a case of one check has the plain roles), and role
// followed by "#k" otherwise. Queries that every check shares keep the plain role.
func CheckRole(role string, k int) string {
	if k == 0 {
		return role
	}
	return role + checkSep + strconv.Itoa(k)
}

// SplitCheck returns the plain role of a query and the index of its check (see [CheckRole]):
// 0 for a plain role.
func SplitCheck(role string) (plain string, k int) {
	plain, idx, ok := strings.Cut(role, checkSep)
	if !ok {
		return role, 0
	}
	k, err := strconv.Atoi(idx)
	if err != nil || k < 1 || strconv.Itoa(k) != idx { // only what CheckRole writes: not "+1" or "01"
		return role, 0
	}
	return plain, k
}

// FamilyOf returns the family of a role: its text before the first ".", or the whole role when
// it has none.
func FamilyOf(role string) string {
	f, _, _ := strings.Cut(role, roleSep)
	return f
}

// The layouts that generators write and the oracles of package oracles read. Layouts that only a
// domain's own generator and oracles use are declared in the generator's package.
var (
	// NoREC is the NoREC layout: the optimized query as a count ("norec.opt-count") or as the rows
	// to count ("norec.opt-rows"), of which a case holds one, and the unoptimized sum
	// ("norec.unopt").
	NoREC = NewLayout("norec", "opt-count", "opt-rows", "unopt")
	// PQS is the pivoted query synthesis layout: the rows a pivot is picked from ("pqs.fetch"),
	// and, derived from them, the pivot found among them ("pqs.pivot": constants INTERSECT the
	// plain product) and the pivot found in the rectified query ("pqs.contains").
	PQS = NewLayout("pqs", "fetch", "pivot", "contains")
	// TLPWhere is the TLP layout over WHERE: the original query and its partitions by p, NOT p and
	// p IS NULL ("tlp.orig", "tlp.p", "tlp.notp", "tlp.null"); SQL and graph cases carry it.
	TLPWhere = NewLayout("tlp", "orig", "p", "notp", "null")
	// TLPHaving is the TLP layout over HAVING ("having.orig", ...).
	TLPHaving = NewLayout("having", "orig", "p", "notp", "null")
	// TLPDistinct is the TLP layout over SELECT DISTINCT ("distinct.orig", ...).
	TLPDistinct = NewLayout("distinct", "orig", "p", "notp", "null")
	// TLPGroupBy is the TLP layout over GROUP BY ("groupby.orig", ...).
	TLPGroupBy = NewLayout("groupby", "orig", "p", "notp", "null")
	// TLPAgg is the TLP layout over an aggregate ("agg.orig", ...).
	TLPAgg = NewLayout("agg", "orig", "p", "notp", "null")
	// DQE is the differential-query-execution layout: on one table, the rows a predicate selects
	// ("dqe.select"), all rows ("dqe.all"), an UPDATE by the predicate that sets a tracking column
	// and the rows it marked, read inside a rolled-back transaction ("dqe.ubegin", "dqe.update",
	// "dqe.updated", "dqe.urollback"), and a DELETE by the predicate and the rows left, likewise
	// ("dqe.dbegin", "dqe.delete", "dqe.remaining", "dqe.drollback").
	DQE = NewLayout("dqe", "select", "all", "ubegin", "update", "updated", "urollback",
		"dbegin", "delete", "remaining", "drollback")
	// EET is the equivalent-expression-transformation layout over a query: the original
	// ("eet.orig") and the query with expressions rewritten into equivalent ones ("eet.trans").
	EET = NewLayout("eet", "orig", "trans")
	// EETDML is the EET layout over a DELETE or UPDATE: the original statement and the table's
	// post-image inside a rolled-back transaction ("eetdml.begin", "eetdml.dml", "eetdml.post",
	// "eetdml.rollback"), then the transformed statement likewise ("eetdml.tbegin", ...).
	EETDML = NewLayout("eetdml", "begin", "dml", "post", "rollback", "tbegin", "tdml", "tpost", "trollback")
	// DQP is the differential-query-plans layout: a query ("dqp.base") and the same query run
	// under another plan ("dqp.plan"), which a planner setting ("dqp.set", undone by "dqp.reset")
	// or a hint in its text forces; a case may leave out set and reset.
	DQP = NewLayout("dqp", "base", "set", "plan", "reset")
	// CERT is the cardinality-estimation-restriction layout: the engine's plan of a query
	// ("cert.orig", an EXPLAIN) and of a mutant of it ("cert.mut") that returns a subset or a
	// superset of its rows.
	CERT = NewLayout("cert", "orig", "mut")
	// CODD is the CODDTest layout (constant folding): a query's columns with a predicate φ over
	// them ("codd.fetch"), and, derived from its answer, the result map of φ (a CASE from the
	// columns' values to φ's) checked against it ("codd.map"), a query using φ ("codd.orig") and
	// the same query with the map in φ's place ("codd.fold").
	CODD = NewLayout("codd", "fetch", "map", "orig", "fold")
	// QPG is the query-plan layout of query plan guidance: the plan of a case's query
	// ("qpg.plan", an EXPLAIN).
	QPG = NewLayout("qpg", "plan")
)
