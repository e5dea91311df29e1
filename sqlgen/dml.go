package sqlgen

import (
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Roles of the DQE and EET layouts (see fuzz.DQE, fuzz.EET and fuzz.EETDML for their meaning).
var (
	RoleDQESelect    = fuzz.DQE.Role("select")    // SELECT <tcols> FROM <table> WHERE <dmlpred>
	RoleDQEAll       = fuzz.DQE.Role("all")       // SELECT <tcols> FROM <table>
	RoleDQEUBegin    = fuzz.DQE.Role("ubegin")    // BEGIN
	RoleDQEUpdate    = fuzz.DQE.Role("update")    // UPDATE <table> SET mark = 1 WHERE <dmlpred>
	RoleDQEUpdated   = fuzz.DQE.Role("updated")   // SELECT <tcols> FROM <table> WHERE mark = 1
	RoleDQEURollback = fuzz.DQE.Role("urollback") // ROLLBACK
	RoleDQEDBegin    = fuzz.DQE.Role("dbegin")    // BEGIN
	RoleDQEDelete    = fuzz.DQE.Role("delete")    // DELETE FROM <table> WHERE <dmlpred>
	RoleDQERemaining = fuzz.DQE.Role("remaining") // SELECT <tcols> FROM <table>
	RoleDQEDRollback = fuzz.DQE.Role("drollback") // ROLLBACK

	RoleEETOrig  = fuzz.EET.Role("orig")  // SELECT <eetcols> FROM <from> WHERE <pred>
	RoleEETTrans = fuzz.EET.Role("trans") // the same with the select list and predicate rewritten

	RoleEETDMLBegin     = fuzz.EETDML.Role("begin")     // BEGIN
	RoleEETDMLDML       = fuzz.EETDML.Role("dml")       // UPDATE <table> SET <set> WHERE <dmlpred>, or DELETE
	RoleEETDMLPost      = fuzz.EETDML.Role("post")      // SELECT <tcols> FROM <table>
	RoleEETDMLRollback  = fuzz.EETDML.Role("rollback")  // ROLLBACK
	RoleEETDMLTBegin    = fuzz.EETDML.Role("tbegin")    // BEGIN
	RoleEETDMLTDML      = fuzz.EETDML.Role("tdml")      // the statement with its value and predicate rewritten
	RoleEETDMLTPost     = fuzz.EETDML.Role("tpost")     // SELECT <tcols rewritten> FROM <table>
	RoleEETDMLTRollback = fuzz.EETDML.Role("trollback") // ROLLBACK
)

// TrackColumn is the tracking column every table of a setup gets when the DQE oracle is on: an
// integer, 0 by default, that the DQE UPDATE sets to 1 on the rows it touches. No generated
// expression reads it.
const TrackColumn = "mark"

// Keys of fuzz.Case.Params for the DQE and EET layouts.
const (
	ParamTable   = "table"   // the table the DML statements change
	ParamTCols   = "tcols"   // its columns, comma-separated: what the DQE and EET DML reads select
	ParamDMLPred = "dmlpred" // the predicate of the DML statements (and of dqe.select)
	ParamSet     = "set"     // the eetdml UPDATE's assignment "cN = value" ("": a DELETE)
	ParamEETCols = "eetcols" // the select list of the eet queries
	ParamEETP    = "eetp"    // the fresh predicate p of T(p) and F(p) in eet.trans
	ParamEETDP   = "eetdp"   // the fresh predicate p of eetdml.tdml and eetdml.tpost
	ParamEETSeed = "eetseed" // the seed that picks the rewritten sites and their rules (decimal)
	// ParamEETInner is "off" when only the roots (select items, predicates, assigned values) are
	// rewritten, which the reducer tries; absent, sub-expressions are rewritten too.
	ParamEETInner = "eetinner"
)

// Salts that give each rewritten piece of an EET case its own stream of choices.
const (
	saltEETPred = 1 + iota
	saltEETCols
	saltEETDMLPred
	saltEETDMLSet
	saltEETDMLPost
)

// tracks reports whether the options' setups carry the tracking column.
func (o *Options) tracks() bool {
	for _, n := range o.Oracles {
		if n == OracleDQE {
			return true
		}
	}
	return false
}

// renderDML returns the text of a DQE or EET role, and false for other roles.
func (d *dialect) renderDML(role string, p pieces) (string, bool) {
	fam := fuzz.FamilyOf(role)
	if fam != fuzz.DQE.Family() && fam != fuzz.EET.Family() && fam != fuzz.EETDML.Family() {
		return "", false
	}
	seed, _ := strconv.ParseUint(p.eseed, 10, 64)
	inner := p.einner != "off"
	sel := func(cols, from, where string) string {
		s := "SELECT " + cols + " FROM " + from
		if where != "" {
			s += " WHERE " + where
		}
		return s
	}
	dml := func(set, pred string) string {
		if set == "" {
			return "DELETE FROM " + p.table + " WHERE " + pred
		}
		return "UPDATE " + p.table + " SET " + set + " WHERE " + pred
	}
	switch role {
	case RoleDQESelect:
		return sel(p.tcols, p.table, p.dpred), true
	case RoleDQEAll, RoleDQERemaining, RoleEETDMLPost:
		return sel(p.tcols, p.table, ""), true
	case RoleDQEUBegin, RoleDQEDBegin, RoleEETDMLBegin, RoleEETDMLTBegin:
		return "BEGIN", true
	case RoleDQEURollback, RoleDQEDRollback, RoleEETDMLRollback, RoleEETDMLTRollback:
		return "ROLLBACK", true
	case RoleDQEUpdate:
		return dml(TrackColumn+" = 1", p.dpred), true
	case RoleDQEUpdated:
		return sel(p.tcols, p.table, TrackColumn+" = 1"), true
	case RoleDQEDelete:
		return dml("", p.dpred), true
	case RoleEETOrig:
		return sel(p.ecols, p.from, p.pred), true
	case RoleEETTrans:
		return sel(d.eetList(p.ecols, fuzz.Mix(seed+saltEETCols), p.ep, inner), p.from,
			d.eetRewrite(p.pred, ctxBool, fuzz.Mix(seed+saltEETPred), p.ep, inner)), true
	case RoleEETDMLDML:
		return dml(p.set, p.dpred), true
	case RoleEETDMLTDML:
		set := p.set
		if col, val, ok := strings.Cut(set, " = "); ok {
			set = col + " = " + d.eetRewrite(val, ctxValue, fuzz.Mix(seed+saltEETDMLSet), p.edp, inner)
		}
		return dml(set, d.eetRewrite(p.dpred, ctxBool, fuzz.Mix(seed+saltEETDMLPred), p.edp, inner)), true
	case RoleEETDMLTPost:
		return sel(d.eetList(p.tcols, fuzz.Mix(seed+saltEETDMLPost), p.edp, inner), p.table, ""), true
	}
	return "", true
}

// dmlCases adds the DQE, EET and EET DML queries the generator's oracles ask for to c, drawing
// their pieces from r into p; scope and types are the columns of the case's FROM clause.
func (g *Generator) dmlCases(r *rng, st *setup, c *fuzz.Case, p *pieces, scope []string, types []sqlType) {
	if !g.dqe && !g.eet {
		return
	}
	var tables []int
	for i := range st.rels {
		if st.rels[i].dml {
			tables = append(tables, i)
		}
	}
	seed := r.p.Uint64()
	if g.eet {
		p.eseed = strconv.FormatUint(seed, 10)
		p.ecols = g.selectList(r, scope, types)
		p.ep = g.freshPred(r, scope, types)
	}
	withDML := len(tables) > 0 && (g.dqe || r.prob(0.5))
	if withDML {
		rl := &st.rels[pick(r, tables)]
		p.table, p.tcols = rl.name, strings.Join(rl.cols, ", ")
		var b strings.Builder
		g.predInto(r, &b, rl.cols, rl.types, g.o.MaxDepth)
		p.dpred = b.String()
		if g.eet {
			p.edp = g.freshPred(r, rl.cols, rl.types)
			if len(rl.sets) > 0 && r.prob(0.5) {
				j := pick(r, rl.sets)
				var v strings.Builder
				if g.d.typed != nil {
					tg := typedGen{r: r, d: g.d, t: g.d.typed, b: &v, cols: rl.cols, types: rl.types, maxDepth: min(2, g.o.MaxDepth)}
					tg.expr(rl.types[j], 0)
				} else {
					eg := exprGen{r: r, d: g.d, b: &v, cols: rl.cols, maxDepth: min(2, g.o.MaxDepth)}
					eg.expr(0)
				}
				_, col, _ := strings.Cut(rl.cols[j], ".")
				p.set = col + " = " + v.String()
			}
		}
	}
	add := func(l *fuzz.Layout) {
		for _, role := range l.All() {
			text, _ := g.d.renderDML(role, *p)
			c.Queries = append(c.Queries, fuzz.Query{Role: role, Text: text})
		}
	}
	if g.dqe && withDML {
		add(fuzz.DQE)
	}
	if g.eet {
		add(fuzz.EET)
		if withDML {
			add(fuzz.EETDML)
		}
	}
	for k, v := range map[string]string{ParamTable: p.table, ParamTCols: p.tcols, ParamDMLPred: p.dpred,
		ParamSet: p.set, ParamEETCols: p.ecols, ParamEETP: p.ep, ParamEETDP: p.edp, ParamEETSeed: p.eseed} {
		if v != "" {
			c.Params[k] = v
		}
	}
}

// selectList returns one to three columns of scope and, one time in two, an expression over them.
func (g *Generator) selectList(r *rng, scope []string, types []sqlType) string {
	items := []string{g.someCols(r, scope)}
	if r.prob(0.5) {
		var b strings.Builder
		if g.d.typed != nil {
			tg := typedGen{r: r, d: g.d, t: g.d.typed, b: &b, cols: scope, types: types, maxDepth: min(2, g.o.MaxDepth)}
			tg.expr(tg.anyType(), 0)
		} else {
			eg := exprGen{r: r, d: g.d, b: &b, cols: scope, maxDepth: min(2, g.o.MaxDepth)}
			eg.expr(0)
		}
		items = append(items, b.String())
	}
	return strings.Join(items, ", ")
}

// freshPred returns EET's fresh predicate p: a column of scope compared with a literal of its
// type. It can raise no error and has no side effect, so that T(p) and F(p) add none.
func (g *Generator) freshPred(r *rng, scope []string, types []sqlType) string {
	k := r.intn(len(scope))
	lit := ""
	if g.d.typed != nil {
		lit = typedValue(r, g.d.typed, types[k])
	} else {
		lit = randLiteral(r, g.d, affNone)
		if lit == "NULL" {
			lit = "0"
		}
	}
	return "(" + scope[k] + " " + pick(r, compareOps) + " " + lit + ")"
}
