package sqlgen

import (
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Roles of the queries in a case (see the package documentation for their text), from the
// layouts fuzz.NoREC and fuzz.TLPWhere.
var (
	RoleNoRECOptCount = fuzz.NoREC.Role("opt-count") // SELECT COUNT(*) FROM <from> WHERE <pred>
	RoleNoRECOptRows  = fuzz.NoREC.Role("opt-rows")  // SELECT * FROM <from> WHERE <pred> [<order>]
	RoleNoRECUnopt    = fuzz.NoREC.Role("unopt")     // SELECT SUM((<pred>) IS TRUE), ... FROM <from>: one sum per check
	RoleTLPOrig       = fuzz.TLPWhere.Role("orig")   // SELECT * FROM <from>
	RoleTLPP          = fuzz.TLPWhere.Role("p")      // SELECT * FROM <from> WHERE <pred>
	RoleTLPNotP       = fuzz.TLPWhere.Role("notp")   // SELECT * FROM <from> WHERE NOT (<pred>)
	RoleTLPNull       = fuzz.TLPWhere.Role("null")   // SELECT * FROM <from> WHERE (<pred>) IS NULL
	// The roles of the plan layouts fuzz.DQP, fuzz.CERT and fuzz.QPG (plans.go).
	RoleDQPBase  = fuzz.DQP.Role("base")  // SELECT * FROM <from> WHERE <pred>
	RoleDQPSet   = fuzz.DQP.Role("set")   // a planner switch, named by Params "plan"
	RoleDQPPlan  = fuzz.DQP.Role("plan")  // the base query, with the hint of Params "plan" if any
	RoleDQPReset = fuzz.DQP.Role("reset") // the switch back to the setup's value
	RoleCERTOrig = fuzz.CERT.Role("orig") // EXPLAIN SELECT * FROM <from> WHERE <pred>
	RoleCERTMut  = fuzz.CERT.Role("mut")  // EXPLAIN of its mutant (Params "mut", "certdir")
	RoleQPGPlan  = fuzz.QPG.Role("plan")  // EXPLAIN SELECT * FROM <from> WHERE <pred>
)

// oracleLayouts maps each oracle of Options.Oracles to the layout of the queries its cases carry.
var oracleLayouts = map[string]*fuzz.Layout{
	OracleNoREC:       fuzz.NoREC,
	OracleTLPWhere:    fuzz.TLPWhere,
	OracleTLPHaving:   fuzz.TLPHaving,
	OracleTLPDistinct: fuzz.TLPDistinct,
	OracleTLPGroupBy:  fuzz.TLPGroupBy,
	OracleTLPAgg:      fuzz.TLPAgg,
	OracleDQE:         fuzz.DQE,
	OracleEET:         fuzz.EET, // and fuzz.EETDML when the case changes a table
	OracleDQP:         fuzz.DQP,
	OracleCERT:        fuzz.CERT,
	OracleQPG:         fuzz.QPG,
	OracleCODD:        fuzz.CODD,
}

// tlpLayouts are the layouts of the TLP family: an original query and its three partitions.
var tlpLayouts = []*fuzz.Layout{fuzz.TLPWhere, fuzz.TLPHaving, fuzz.TLPDistinct, fuzz.TLPGroupBy, fuzz.TLPAgg}

// Keys of fuzz.Case.Params: the pieces every query is built from.
const (
	// ParamPred is the predicate; in a case of several checks (Options.Checks), the predicate of
	// check 0, and fuzz.CheckRole(ParamPred, k) ("pred#k") that of check k.
	ParamPred  = "pred"
	ParamFrom  = "from"  // the FROM clause, without the keyword
	ParamOrder = "order" // the ORDER BY clause of norec.opt-rows, when it has one
	// ParamCols is the column list of the tlp-having, tlp-distinct and tlp-groupby queries, and
	// ParamGroup the GROUP BY list of tlp-having (every column in scope, which its predicate reads).
	ParamCols  = "cols"
	ParamGroup = "group"
	// ParamAgg is the aggregate function of the tlp-agg queries (MIN, MAX, SUM, COUNT, AVG) and
	// ParamAggExpr its argument.
	ParamAgg     = "agg"
	ParamAggExpr = "aggexpr"
	// ParamPlan names the plan variant of the DQP layout: a hint written into dqp.plan, or the
	// planner switch that dqp.set sets.
	ParamPlan = "plan"
	// ParamMut is the CERT mutation of cert.mut, ParamPred2 the predicate it adds, ParamLimit its
	// LIMIT, and ParamCERTDir its direction (CERTRestrict or CERTRelax).
	ParamMut     = "mut"
	ParamPred2   = "pred2"
	ParamLimit   = "limit"
	ParamCERTDir = "certdir"
)

// partition is one of the four queries of a TLP layout, its position in the layout: the
// original and the three partitions.
type partition uint8

const (
	partOrig partition = iota
	partP
	partNotP
	partNull
)

// family says which TLP layout a role belongs to and which partition it is; ok is false for
// roles outside the TLP layouts.
func family(role string) (fam *fuzz.Layout, part partition, ok bool) {
	for _, l := range tlpLayouts {
		if i := l.Index(role); i >= 0 {
			return l, partition(i), true
		}
	}
	return nil, 0, false
}

// pieces are the parameters the queries of a case are built from.
type pieces struct {
	pred, from, order, cols, group, agg, aggExpr string
	// The pieces of the DQE and EET layouts (see the Param constants of dml.go).
	table, tcols, dpred, set, ecols, ep, edp, eseed, einner string
	// The pieces of the DQP and CERT layouts (see plans.go).
	plan, mut, pred2, limit string
	// more are the predicates of checks 1, 2, ... of a case of several checks (Options.Checks).
	more []string
}

// piecesOf reads the pieces of a case's Params.
func piecesOf(p map[string]string) pieces {
	return pieces{pred: p[ParamPred], from: p[ParamFrom], order: p[ParamOrder], cols: p[ParamCols],
		group: p[ParamGroup], agg: p[ParamAgg], aggExpr: p[ParamAggExpr],
		table: p[ParamTable], tcols: p[ParamTCols], dpred: p[ParamDMLPred], set: p[ParamSet],
		ecols: p[ParamEETCols], ep: p[ParamEETP], edp: p[ParamEETDP], eseed: p[ParamEETSeed],
		einner: p[ParamEETInner], plan: p[ParamPlan], mut: p[ParamMut], pred2: p[ParamPred2],
		limit: p[ParamLimit], more: morePreds(p)}
}

// morePreds returns the predicates of checks 1, 2, ... that Params p holds, in order.
func morePreds(p map[string]string) []string {
	var more []string
	for k := 1; ; k++ {
		s, ok := p[fuzz.CheckRole(ParamPred, k)]
		if !ok {
			return more
		}
		more = append(more, s)
	}
}

// checks returns how many checks the pieces make: one and one per further predicate.
func (p pieces) checks() int { return 1 + len(p.more) }

// forCheck returns the pieces of the queries of check k: its predicate in place of p.pred; ok is
// false when p has no such check.
func (p pieces) forCheck(k int) (pieces, bool) {
	if k == 0 {
		return p, true
	}
	if k > len(p.more) {
		return p, false
	}
	p.pred = p.more[k-1]
	return p, true
}

// render returns the text of the query with the given role, or "" for an unknown role.
func (d *dialect) render(role string, p pieces) string {
	if plain, k := fuzz.SplitCheck(role); k > 0 {
		q, ok := p.forCheck(k)
		if !ok {
			return ""
		}
		role, p = plain, q
	}
	if s, ok := d.renderDML(role, p); ok {
		return s
	}
	var b strings.Builder
	b.Grow(len(p.from) + 2*len(p.pred) + len(p.order) + 2*len(p.cols) + 64)
	w := b.WriteString
	switch role {
	case RoleNoRECOptCount:
		w("SELECT COUNT(*) FROM ")
		w(p.from)
		w(" WHERE ")
		w(p.pred)
		return b.String()
	case RoleNoRECOptRows:
		w("SELECT * FROM ")
		w(p.from)
		w(" WHERE ")
		w(p.pred)
		if p.order != "" {
			w(" ")
			w(p.order)
		}
		return b.String()
	case RoleNoRECUnopt:
		w("SELECT ")
		for k := range p.checks() {
			if k > 0 {
				w(", ")
			}
			w("SUM(")
			w(d.unoptPre)
			if k == 0 {
				w(p.pred)
			} else {
				w(p.more[k-1])
			}
			w(d.unoptPost)
			w(")")
		}
		w(" FROM ")
		w(p.from)
		return b.String()
	}
	fam, part, ok := family(role)
	if !ok {
		return d.renderPlans(role, p)
	}
	w("SELECT ")
	switch fam {
	case fuzz.TLPWhere:
		w("*")
	case fuzz.TLPDistinct:
		w("DISTINCT ")
		w(p.cols)
	case fuzz.TLPHaving:
		w(p.group) // MySQL's HAVING sees only selected columns
	case fuzz.TLPGroupBy:
		w(p.cols)
	case fuzz.TLPAgg:
		switch {
		// SUM's count tells an empty or all-NULL sum (NULL) from a NaN one, which SQLite also
		// answers NULL; AVG's partitions give the sum and count to recombine.
		case p.agg == "SUM" || p.agg == "AVG" && part != partOrig:
			w("SUM(")
			w(p.aggExpr)
			w("), COUNT(")
			w(p.aggExpr)
			w(")")
		default:
			w(p.agg)
			w("(")
			w(p.aggExpr)
			w(")")
		}
	}
	w(" FROM ")
	w(p.from)
	if fam == fuzz.TLPHaving {
		w(" GROUP BY ")
		w(p.group)
	}
	if part != partOrig {
		if fam == fuzz.TLPHaving {
			w(" HAVING ")
		} else {
			w(" WHERE ")
		}
		switch part {
		case partP:
			w(p.pred)
		case partNotP:
			w("NOT (")
			w(p.pred)
			w(")")
		case partNull:
			w("(")
			w(p.pred)
			w(") IS NULL")
		}
	}
	if fam == fuzz.TLPGroupBy {
		w(" GROUP BY ")
		w(p.cols)
	}
	return b.String()
}

// withOrder returns p with its ORDER BY kept only for the role that carries it.
func (p pieces) withOrder(role string) pieces {
	if role != RoleNoRECOptRows {
		p.order = ""
	}
	return p
}
