package sqlgen

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/reduce"
)

// Reducer shrinks SQL cases made by this package's [Generator]. It implements fuzz.Reducer.
type Reducer struct {
	// MaxRounds bounds the rounds of the whole pipeline (0: until nothing shrinks).
	MaxRounds int
}

// NewReducer returns a reducer for SQL cases.
func NewReducer() *Reducer { return &Reducer{} }

// Reduce returns a smaller case for which keep still holds, never one keep rejected; keep(c) is
// assumed to hold and is not called for c itself. First it tries the queries of one oracle alone,
// then, in a case of several checks (Options.Checks), the queries of one check alone, made a case
// of one check. Then, in rounds until nothing shrinks, it tries: ddmin over the setup statements;
// shrinking the predicate, the FROM clause (joins dropped or simplified, ON conditions shrunk) and
// dropping the ORDER BY, each change substituted into every query; dropping rows of multi-row
// INSERTs and shrinking the expressions inside setup statements; and shrinking φ and dropping
// branches of a CODDTest result map. When ctx is done it returns the smallest case so far and a
// nil error.
func (rd *Reducer) Reduce(ctx context.Context, c *fuzz.Case, keep func(context.Context, *fuzz.Case) bool) (*fuzz.Case, error) {
	if c == nil {
		return nil, errors.New("sqlgen: Reduce: nil case")
	}
	d := sqliteDialect
	if o, err := ParseOptions(c.Gen); err == nil {
		if dd, ok := dialects[o.normalized().Dialect]; ok {
			d = dd
		}
	}
	best := c.Clone()
	try := func(cand *fuzz.Case) bool {
		if ctx.Err() != nil {
			return false
		}
		if keep(ctx, cand) {
			best = cand
			return true
		}
		return false
	}
	size := func(x *fuzz.Case) int {
		n := 0
		for _, s := range x.Setup {
			n += len(s) + 1
		}
		for _, q := range x.Queries {
			n += len(q.Text) + 1
		}
		return n
	}

	rd.oneOracle(best, try)
	rd.oneCheck(d, best, try)
	for round := 0; rd.MaxRounds == 0 || round < rd.MaxRounds; round++ {
		before := size(best)
		// (a) ddmin over the setup statements.
		base := best
		reduce.DDMin(ctx, base.Setup, func(s []string) bool {
			cand := base.Clone()
			cand.Setup = slices.Clone(s)
			return try(cand)
		})
		// (b, c) the predicate, FROM clause and ORDER BY, substituted into every query.
		rd.shrinkPieces(ctx, d, best, try)
		// (d) rows of INSERTs, then expressions inside setup statements.
		rd.shrinkSetup(ctx, best, try)
		// (e) the branches of a CODDTest result map.
		rd.shrinkCODD(ctx, best, try)
		if ctx.Err() != nil || size(best) >= before {
			break
		}
	}
	return best, nil
}

// oneOracle tries keeping only the queries of one oracle: one family of roles (fuzz.FamilyOf),
// in the order the case holds them.
func (rd *Reducer) oneOracle(best *fuzz.Case, try func(*fuzz.Case) bool) {
	var fams []string
	for _, q := range best.Queries {
		if f := fuzz.FamilyOf(q.Role); !slices.Contains(fams, f) {
			fams = append(fams, f)
		}
	}
	if len(fams) < 2 {
		return
	}
	for _, f := range fams {
		cand := best.Clone()
		cand.Queries = slices.DeleteFunc(cand.Queries, func(q fuzz.Query) bool { return fuzz.FamilyOf(q.Role) != f })
		if try(cand) {
			return
		}
	}
}

// sharedRoles are the queries that every check of a case of several checks shares.
var sharedRoles = []string{RoleNoRECUnopt, RoleTLPOrig, RolePQSFetch, RolePQSPivot}

// oneCheck tries, in a case of several checks, each check's queries alone: the queries of its
// index (fuzz.CheckRole) under their plain roles, the queries every check shares, and the other
// layouts' queries, with the predicate of the check in Params "pred" and every query the pieces
// render rendered again from them (norec.unopt with one sum).
func (rd *Reducer) oneCheck(d *dialect, c *fuzz.Case, try func(*fuzz.Case) bool) {
	n := 1
	multi := map[string]bool{} // the families that hold several checks
	for _, q := range c.Queries {
		if plain, k := fuzz.SplitCheck(q.Role); k > 0 {
			n = max(n, k+1)
			multi[fuzz.FamilyOf(plain)] = true
		}
	}
	if n < 2 {
		return
	}
	p0 := piecesOf(c.Params)
	for k := range n {
		pk, ok := p0.forCheck(k)
		if !ok {
			pk = p0
		}
		pk.more = nil
		if k > 0 {
			pk.order = "" // check 0's alone
		}
		cand := c.Clone()
		cand.Queries = cand.Queries[:0]
		derived := 0
		for i, q := range c.Queries {
			plain, j := fuzz.SplitCheck(q.Role)
			ownCheck := j > 0 || multi[fuzz.FamilyOf(plain)] && !slices.Contains(sharedRoles, plain)
			if ownCheck && j != k {
				continue
			}
			if p0.pred != "" && p0.from != "" && d.render(q.Role, p0.withOrder(q.Role)) == q.Text {
				q.Text = d.render(plain, pk.withOrder(plain))
			}
			q.Role = plain
			cand.Queries = append(cand.Queries, q)
			if i >= len(c.Queries)-c.Derived {
				derived++
			}
		}
		cand.Derived = derived
		if p0.pred != "" {
			for j := 1; j < n; j++ {
				delete(cand.Params, fuzz.CheckRole(ParamPred, j))
			}
			cand.Params[ParamPred] = pk.pred
			if k > 0 {
				delete(cand.Params, ParamOrder)
			}
		}
		if try(cand) {
			return
		}
	}
}

// shrinkPieces runs the predicate, FROM and ORDER BY passes to a fixpoint.
func (rd *Reducer) shrinkPieces(ctx context.Context, d *dialect, start *fuzz.Case, try func(*fuzz.Case) bool) {
	p0 := piecesOf(start.Params)
	if p0.pred == "" {
		return
	}
	// Queries whose text is not what the layout gives for the pieces are updated by substitution.
	rendered := make([]bool, len(start.Queries))
	for i, q := range start.Queries {
		rendered[i] = p0.from != "" && d.render(q.Role, p0.withOrder(q.Role)) == q.Text
	}
	build := func(p pieces) *fuzz.Case {
		cand := start.Clone()
		for i := range cand.Queries {
			q := &cand.Queries[i]
			if rendered[i] {
				q.Text = d.render(q.Role, p.withOrder(q.Role))
				continue
			}
			if f := fuzz.FamilyOf(q.Role); f == fuzz.PQS.Family() || f == fuzz.CODD.Family() {
				continue // built from an engine's answer, not from the pieces: left as it is
			}
			q.Text = strings.ReplaceAll(q.Text, p0.pred, p.pred)
			if p0.from != "" {
				q.Text = strings.ReplaceAll(q.Text, p0.from, p.from)
			}
			if p0.order != "" {
				q.Text = strings.ReplaceAll(q.Text, " "+p0.order, cond(p.order == "", "", " "+p.order))
			}
		}
		cand.Params[ParamPred] = p.pred
		if p0.from != "" {
			cand.Params[ParamFrom] = p.from
		}
		if p.order != "" {
			cand.Params[ParamOrder] = p.order
		} else {
			delete(cand.Params, ParamOrder)
		}
		for k, v := range map[string]string{ParamCols: p.cols, ParamGroup: p.group, ParamAggExpr: p.aggExpr,
			ParamTCols: p.tcols, ParamDMLPred: p.dpred, ParamSet: p.set, ParamEETCols: p.ecols, ParamEETP: p.ep,
			ParamEETDP: p.edp, ParamEETInner: p.einner} {
			if v != "" {
				cand.Params[k] = v
			}
		}
		return cand
	}
	passes := []reduce.Pass[pieces]{
		reduce.PassFunc[pieces]{PassName: "order", Fn: func(p pieces) []pieces {
			if p.order == "" {
				return nil
			}
			p.order = ""
			return []pieces{p}
		}},
		piecePass("joins", func(p *pieces) *string { return &p.from }, fromCandidates),
		piecePass("pred", func(p *pieces) *string { return &p.pred }, shrinkCandidates),
		piecePass("on", func(p *pieces) *string { return &p.from }, onCandidates),
		piecePass("cols", func(p *pieces) *string { return &p.cols }, listCandidates),
		piecePass("group", func(p *pieces) *string { return &p.group }, listCandidates),
		piecePass("aggexpr", func(p *pieces) *string { return &p.aggExpr }, shrinkCandidates),
		piecePass("dmlpred", func(p *pieces) *string { return &p.dpred }, shrinkCandidates),
		piecePass("set", func(p *pieces) *string { return &p.set }, setCandidates),
		piecePass("tcols", func(p *pieces) *string { return &p.tcols }, listCandidates),
		piecePass("eetcols", func(p *pieces) *string { return &p.ecols }, eetColsCandidates),
		reduce.PassFunc[pieces]{PassName: "eetinner", Fn: func(p pieces) []pieces {
			if p.eseed == "" || p.einner == "off" {
				return nil
			}
			p.einner = "off" // rewrite only the roots
			return []pieces{p}
		}},
	}
	reduce.Fixpoint(ctx, p0, passes, func(p pieces) bool { return try(build(p)) }, 0)
}

// shrinkSetup drops rows of multi-row INSERTs, then shrinks expressions inside setup statements,
// one statement at a time.
func (rd *Reducer) shrinkSetup(ctx context.Context, start *fuzz.Case, try func(*fuzz.Case) bool) {
	base := start
	stmtPass := func(name string, fn func(string) []string) reduce.Pass[[]string] {
		return reduce.PassFunc[[]string]{PassName: name, Fn: func(setup []string) [][]string {
			var out [][]string
			for i, s := range setup {
				for _, v := range fn(s) {
					c := slices.Clone(setup)
					c[i] = v
					out = append(out, c)
				}
			}
			return out
		}}
	}
	passes := []reduce.Pass[[]string]{
		stmtPass("insert-rows", insertRowCandidates),
		stmtPass("stmt-exprs", shrinkCandidates),
	}
	reduce.Fixpoint(ctx, base.Setup, passes, func(setup []string) bool {
		cand := base.Clone()
		cand.Setup = setup
		return try(cand)
	}, 0)
}

func cond[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// fromItem is one relation of a FROM clause: how it is joined, its name and its ON condition.
type fromItem struct{ op, name, on string }

// joinWords are the words that make up a join operator.
var joinWords = map[string]bool{
	"NATURAL": true, "LEFT": true, "RIGHT": true, "FULL": true, "OUTER": true, "INNER": true,
	"CROSS": true, "JOIN": true,
}

// parseFrom splits a FROM clause as the generator prints it; ok is false for anything else.
func parseFrom(s string) (items []fromItem, ok bool) {
	toks := tokenize(s)
	match, ok := matchParens(toks)
	if !ok || len(toks) == 0 || toks[0].kind != tkWord {
		return nil, false
	}
	items = append(items, fromItem{name: s[toks[0].s:toks[0].e]})
	i := 1
	for i < len(toks) {
		var op []string
		if toks[i].kind == tkComma {
			op = []string{","}
			i++
		} else {
			for i < len(toks) && toks[i].kind == tkWord && joinWords[strings.ToUpper(s[toks[i].s:toks[i].e])] {
				op = append(op, s[toks[i].s:toks[i].e])
				i++
			}
		}
		if len(op) == 0 || i >= len(toks) || toks[i].kind != tkWord {
			return nil, false
		}
		it := fromItem{op: strings.Join(op, " "), name: s[toks[i].s:toks[i].e]}
		i++
		if i < len(toks) && toks[i].kind == tkWord && strings.EqualFold(s[toks[i].s:toks[i].e], "ON") {
			i++
			start := i
			for i < len(toks) {
				if toks[i].kind == tkOpen {
					i = match[i] + 1
					continue
				}
				if toks[i].kind == tkComma || toks[i].kind == tkWord && joinWords[strings.ToUpper(s[toks[i].s:toks[i].e])] {
					break
				}
				i++
			}
			if start == i {
				return nil, false
			}
			it.on = s[toks[start].s:toks[i-1].e]
		}
		items = append(items, it)
	}
	return items, true
}

func printFrom(items []fromItem) string {
	var b strings.Builder
	for k, it := range items {
		if k > 0 {
			writeJoin(&b, joinKind{kw: it.op}, it.name)
		} else {
			b.WriteString(it.name)
		}
		if k > 0 && it.on != "" {
			b.WriteString(" ON ")
			b.WriteString(it.on)
		}
	}
	return b.String()
}

// simplerJoin gives, for a join operator, a simpler one to try.
var simplerJoin = map[string]string{
	"FULL OUTER JOIN": "LEFT JOIN", "FULL JOIN": "LEFT JOIN", "RIGHT OUTER JOIN": "RIGHT JOIN",
	"RIGHT JOIN": "JOIN", "LEFT OUTER JOIN": "LEFT JOIN", "LEFT JOIN": "JOIN", "INNER JOIN": "JOIN",
	"CROSS JOIN": ",", "NATURAL JOIN": "JOIN",
}

// fromCandidates returns smaller FROM clauses: a relation dropped, a join made simpler, an ON
// condition dropped.
func fromCandidates(from string) []string {
	items, ok := parseFrom(from)
	if !ok || len(items) < 2 {
		return nil
	}
	var out []string
	for k := range items {
		c := slices.Clone(items)
		c = slices.Delete(c, k, k+1)
		c[0].op, c[0].on = "", ""
		out = append(out, printFrom(c))
	}
	for k := 1; k < len(items); k++ {
		if s, ok := simplerJoin[strings.ToUpper(items[k].op)]; ok {
			c := slices.Clone(items)
			c[k].op = s
			if s == "," {
				c[k].on = ""
			}
			out = append(out, printFrom(c))
		}
		if items[k].on != "" {
			c := slices.Clone(items)
			c[k].on = ""
			out = append(out, printFrom(c))
		}
	}
	return out
}

// onCandidates returns FROM clauses with one ON condition shrunk.
func onCandidates(from string) []string {
	items, ok := parseFrom(from)
	if !ok {
		return nil
	}
	var out []string
	for k := 1; k < len(items); k++ {
		if items[k].on == "" {
			continue
		}
		for _, on := range shrinkCandidates(items[k].on) {
			c := slices.Clone(items)
			c[k].on = on
			out = append(out, printFrom(c))
		}
	}
	return out
}

// insertRowCandidates returns the statement with one row of its VALUES list dropped, when it is
// an INSERT of several rows.
func insertRowCandidates(stmt string) []string {
	toks := tokenize(stmt)
	match, ok := matchParens(toks)
	if !ok {
		return nil
	}
	for i, t := range toks {
		if t.kind != tkWord || !strings.EqualFold(stmt[t.s:t.e], "VALUES") {
			continue
		}
		var rows []span
		for j := i + 1; j < len(toks) && toks[j].kind == tkOpen; {
			end := match[j]
			rows = append(rows, span{toks[j].s, toks[end].e})
			j = end + 1
			if j < len(toks) && toks[j].kind == tkComma {
				j++
			}
		}
		if len(rows) < 2 {
			return nil
		}
		var out []string
		for k, r := range rows {
			var c string
			if k == 0 {
				c = stmt[:r.s] + stmt[rows[1].s:]
			} else {
				c = stmt[:rows[k-1].e] + stmt[r.e:]
			}
			out = append(out, c)
		}
		return out
	}
	return nil
}

// piecePass is a pass that replaces one piece of a query (the field picks it) by each of the
// candidates cands proposes for it.
// listCandidates returns a comma-separated list without each of its items in turn (a list of one
// item has no candidates).
func listCandidates(s string) []string {
	items := strings.Split(s, ", ")
	if len(items) < 2 {
		return nil
	}
	out := make([]string, 0, len(items))
	for i := range items {
		out = append(out, strings.Join(slices.Delete(slices.Clone(items), i, i+1), ", "))
	}
	return out
}

func piecePass(name string, field func(*pieces) *string, cands func(string) []string) reduce.Pass[pieces] {
	return reduce.PassFunc[pieces]{PassName: name, Fn: func(p pieces) []pieces {
		var out []pieces
		for _, c := range cands(*field(&p)) {
			q := p
			*field(&q) = c
			out = append(out, q)
		}
		return out
	}}
}

// setCandidates returns an UPDATE's assignment "cN = value" with the value shrunk.
func setCandidates(set string) []string {
	col, val, ok := strings.Cut(set, " = ")
	if !ok {
		return nil
	}
	var out []string
	for _, v := range append(shrinkCandidates(val), simpleLiterals...) {
		if len(v) < len(val) {
			out = append(out, col+" = "+v)
		}
	}
	return out
}

// eetColsCandidates returns a select list without each of its items in turn, and with each item
// shrunk.
func eetColsCandidates(list string) []string {
	items := splitTop(list)
	var out []string
	if len(items) > 1 {
		for i := range items {
			out = append(out, strings.Join(slices.Delete(slices.Clone(items), i, i+1), ", "))
		}
	}
	for i, it := range items {
		for _, c := range shrinkCandidates(it) {
			cand := slices.Clone(items)
			cand[i] = c
			out = append(out, strings.Join(cand, ", "))
		}
	}
	return out
}
