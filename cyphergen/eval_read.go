package cyphergen

import (
	"fmt"
	"slices"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// maxHops bounds the length of an unbounded variable-length relationship the reference
// follows; a longer match is "unsupported".
const maxHops = 16

// readFunctions are the path functions, added to [functions].
var readFunctions = map[string]function{
	"length":        {1, 1, fnLength},
	"nodes":         {1, 1, pathPart("nodes", 0)},
	"relationships": {1, 1, pathPart("relationships", 1)},
}

// fnLength is length(path): its number of relationships. Neo4j 5 takes paths only; strings and
// lists are "unsupported" (older versions accepted them).
func fnLength(args []cypherval.Val) (cypherval.Val, error) {
	switch v := args[0]; v.Kind {
	case cypherval.Null:
		return v, nil
	case cypherval.Path:
		return cypherval.IntVal(int64(len(v.L) / 2)), nil
	case cypherval.String, cypherval.List:
		return cypherval.NullVal, unsupported("length of a " + v.Kind.String())
	default:
		return cypherval.NullVal, typeErr("length of " + v.Kind.String())
	}
}

// pathPart returns the function that lists a path's nodes (from 0) or relationships (from 1).
func pathPart(name string, from int) func([]cypherval.Val) (cypherval.Val, error) {
	return func(args []cypherval.Val) (cypherval.Val, error) {
		switch v := args[0]; v.Kind {
		case cypherval.Null:
			return v, nil
		case cypherval.Path:
			var l []cypherval.Val
			for i := from; i < len(v.L); i += 2 {
				l = append(l, v.L[i])
			}
			return cypherval.ListVal(l...), nil
		default:
			return cypherval.NullVal, typeErr(name + " of " + v.Kind.String())
		}
	}
}

// evalRead evaluates the expressions of ast_read.go.
func evalRead(e Expr, row map[string]cypherval.Val) (cypherval.Val, error) {
	switch e := e.(type) {
	case *MapLit:
		m := make(map[string]cypherval.Val, len(e.Entries))
		for _, p := range e.Entries {
			if _, dup := m[p.Key]; dup {
				return cypherval.NullVal, unsupported("map literal with a repeated key")
			}
			v, err := eval(p.Val, row)
			if err != nil {
				return v, err
			}
			m[p.Key] = v
		}
		return cypherval.Val{Kind: cypherval.Map, M: m}, nil
	case *MapProj:
		return evalMapProj(e, row)
	case *ListComp:
		return evalListComp(e, row)
	case *Subquery:
		v, ok := row[subqueryKey(e)]
		if !ok {
			return cypherval.NullVal, unsupported("a subquery where the reference cannot evaluate it")
		}
		return v, nil
	}
	return cypherval.NullVal, unsupported("expression " + Print(e))
}

// evalMapProj evaluates x{.k, k: e, .*}: null for a null x; .k is null when x has no k.
func evalMapProj(e *MapProj, row map[string]cypherval.Val) (cypherval.Val, error) {
	x, err := eval(e.X, row)
	if err != nil || x.IsNull() {
		return x, err
	}
	switch x.Kind {
	case cypherval.Node, cypherval.Rel, cypherval.Map:
	default:
		return cypherval.NullVal, typeErr("map projection of " + x.Kind.String())
	}
	m := map[string]cypherval.Val{}
	for _, it := range e.Items {
		switch {
		case it.All:
			for k, v := range x.M {
				if !v.IsNull() || x.Kind == cypherval.Map {
					m[k] = v
				}
			}
		case it.Val == nil:
			m[it.Key] = x.M[it.Key]
		default:
			v, err := eval(it.Val, row)
			if err != nil {
				return v, err
			}
			m[it.Key] = v
		}
	}
	return cypherval.Val{Kind: cypherval.Map, M: m}, nil
}

// evalListComp evaluates [x IN list WHERE p | e]: null for a null list.
func evalListComp(e *ListComp, row map[string]cypherval.Val) (cypherval.Val, error) {
	l, err := eval(e.List, row)
	if err != nil || l.IsNull() {
		return l, err
	}
	if l.Kind != cypherval.List {
		return cypherval.NullVal, typeErr("list comprehension over " + l.Kind.String())
	}
	if _, ok := row[e.Var]; ok {
		return cypherval.NullVal, unsupported("list comprehension variable `" + e.Var + "` shadows a variable")
	}
	inner := cloneRow(row)
	var out []cypherval.Val
	for _, x := range l.L {
		inner[e.Var] = x
		if e.Where != nil {
			t, err := Truth(e.Where, inner)
			if err != nil {
				return cypherval.NullVal, err
			}
			if t != True {
				continue
			}
		}
		if e.Map != nil {
			if x, err = eval(e.Map, inner); err != nil {
				return x, err
			}
		}
		out = append(out, x)
	}
	return cypherval.ListVal(out...), nil
}

// subqueryKey is the hidden row entry that holds a subquery's value, computed by
// [runState.subqueries] before the expressions around it are evaluated.
func subqueryKey(s *Subquery) string { return fmt.Sprintf("\x00sq%p", s) }

// subqueries returns rows with the value of every EXISTS and COUNT subquery of exprs (outside
// list comprehensions) added under its hidden key.
func (st *runState) subqueries(rows []row, exprs ...Expr) ([]row, error) {
	var subs []*Subquery
	for _, e := range exprs {
		collectSubqueries(e, &subs)
	}
	if len(subs) == 0 {
		return rows, nil
	}
	out := make([]row, len(rows))
	for i, r := range rows {
		r = cloneRow(r)
		for _, s := range subs {
			if s.Match.Optional {
				return nil, semantic("OPTIONAL MATCH in a subquery")
			}
			found, err := st.match([]row{r}, s.Match)
			if err != nil {
				return nil, err
			}
			if s.Count {
				r[subqueryKey(s)] = cypherval.IntVal(int64(len(found)))
			} else {
				r[subqueryKey(s)] = cypherval.BoolVal(len(found) > 0)
			}
		}
		out[i] = r
	}
	return out, nil
}

// collectSubqueries appends the subqueries of e, not looking inside subqueries, nor inside
// list comprehensions beyond their list.
func collectSubqueries(e Expr, subs *[]*Subquery) {
	if e == nil {
		return
	}
	switch x := e.(type) {
	case *Subquery:
		*subs = append(*subs, x)
		return
	case *ListComp:
		collectSubqueries(x.List, subs) // evaluated in the outer row
		return
	}
	for _, c := range exprChildren(e) {
		collectSubqueries(*c, subs)
	}
}

// projExprs returns the expressions a projection evaluates on its input rows.
func projExprs(p *Projection) []Expr {
	var out []Expr
	for _, it := range p.Items {
		out = append(out, it.Expr)
	}
	for _, s := range p.Order {
		out = append(out, s.Expr)
	}
	return out
}

// varRel matches the variable-length relationship pattern p.Rels[i] from its left node (or its
// right one when back): every walk of Min to Max relationships, none used twice in the MATCH,
// each with the pattern's types and properties. Its variable binds the list of relationships
// in the pattern's order.
func (mt *matcher) varRel(pi, i int, back bool, next func() error) error {
	rp := &mt.pats[pi].Rels[i]
	h := *rp.Hops
	if rp.Var != "" {
		if _, ok := mt.b[rp.Var]; ok {
			return unsupported("variable-length relationship variable `" + rp.Var + "` bound before")
		}
	}
	from, to := i, i+1
	if back {
		from, to = i+1, i
	}
	dir := rp.Dir
	if back && dir != Both {
		dir = Out + In - dir
	}
	var walked []int
	var walk func(cur, depth int) error
	walk = func(cur, depth int) error {
		if depth >= h.Min {
			seq := slices.Clone(walked)
			if back {
				slices.Reverse(seq)
			}
			mt.setHops(pi, i, seq)
			if rp.Var != "" {
				l := make([]cypherval.Val, len(seq))
				for k, ri := range seq {
					l[k] = mt.st.relVals[ri]
				}
				mt.b[rp.Var] = cypherval.ListVal(l...)
			}
			other := cur
			err := mt.node(pi, to, &other, next)
			if rp.Var != "" {
				delete(mt.b, rp.Var)
			}
			if err != nil {
				return err
			}
		}
		if depth == h.Max {
			return nil
		}
		if depth >= maxHops {
			return unsupported("a variable-length match longer than the reference follows")
		}
		step := func(ri int, out bool) error {
			if mt.used[ri] && !mt.st.sem.RepeatableRels {
				return nil
			}
			r := &mt.st.g.Rels[ri]
			if len(rp.Types) > 0 && !slices.Contains(rp.Types, r.Type) {
				return nil
			}
			if ok, err := mt.propsFit(rp.Props, &mt.st.relVals[ri]); !ok || err != nil {
				return err
			}
			other := r.To
			if !out {
				other = r.From
			}
			was := mt.used[ri]
			mt.used[ri] = true
			walked = append(walked, ri)
			err := walk(other, depth+1)
			walked = walked[:len(walked)-1]
			mt.used[ri] = was
			return err
		}
		return mt.eachRel(cur, dir, step)
	}
	return walk(mt.at[pi][from], 0)
}

// setHops records the relationships (in the pattern's order) that pattern pi's relationship
// pattern i matched, for its path variable.
func (mt *matcher) setHops(pi, i int, rels []int) {
	if mt.pats[pi].Var == "" {
		return
	}
	if mt.hops == nil {
		mt.hops = make([][][]int, len(mt.pats))
	}
	if mt.hops[pi] == nil {
		mt.hops[pi] = make([][]int, len(mt.pats[pi].Rels))
	}
	mt.hops[pi][i] = rels
}

// bindPaths binds the path variables of a complete match in r.
func (mt *matcher) bindPaths(r row) {
	for pi := range mt.pats {
		p := &mt.pats[pi]
		if p.Var == "" {
			continue
		}
		cur := mt.at[pi][0]
		l := []cypherval.Val{mt.st.nodeVals[cur]}
		for i := range p.Rels {
			for _, ri := range mt.hops[pi][i] {
				rel := &mt.st.g.Rels[ri]
				if rel.From == cur {
					cur = rel.To
				} else {
					cur = rel.From
				}
				l = append(l, mt.st.relVals[ri], mt.st.nodeVals[cur])
			}
		}
		r[p.Var] = cypherval.Val{Kind: cypherval.Path, L: l}
	}
}

// callSub evaluates CALL { ... } on every input row. A body that starts with WITH of plain
// variables imports them (the rest of the row is out of its scope); any other body sees
// nothing of the row. A returned name the row binds already is "semantic".
func (st *runState) callSub(rows []row, c *CallSub) ([]row, error) {
	cols := c.Columns()
	var out []row
	for _, r := range rows {
		for _, n := range cols {
			if _, ok := r[n]; ok {
				return nil, semantic("variable `" + n + "` already declared")
			}
		}
		sub, err := st.callRows(r, c)
		if err != nil {
			return nil, err
		}
		for _, s := range sub {
			o := cloneRow(r)
			for k, n := range cols {
				o[n] = s[k]
			}
			out = append(out, o)
		}
	}
	return out, nil
}

// callRows returns the rows of a CALL subquery's body for the outer row r.
func (st *runState) callRows(r row, c *CallSub) ([][]cypherval.Val, error) {
	in := row{}
	if w, ok := c.Body.Clauses[0].(*With); ok && importing(w) {
		if w.Where != nil || w.Distinct || len(w.Order) > 0 || w.Skip != nil || w.Limit != nil {
			return nil, unsupported("an importing WITH with more than variables")
		}
		for _, it := range w.Items {
			if x, bound := r[it.Expr.(*Var).Name]; bound {
				in[it.Expr.(*Var).Name] = x
			}
		}
	}
	_, res, err := st.singleFrom([]row{in}, c.Body)
	return res, err
}

// importing reports whether w projects plain variables only, under their own names.
func importing(w *With) bool {
	for _, it := range w.Items {
		v, ok := it.Expr.(*Var)
		if !ok || it.Alias != "" && it.Alias != v.Name {
			return false
		}
	}
	return true
}

// boundPaths is "unsupported" when an OPTIONAL MATCH without a match for input row r names a
// path whose every element r binds already: Neo4j 5.26 (and FalkorDB 4.16) then bind the path
// built from those elements instead of null, unlike every other variable of the clause.
func boundPaths(pats []Pattern, r row) error {
	for _, p := range pats {
		if p.Var == "" {
			continue
		}
		all := true
		for _, n := range p.Nodes {
			_, ok := r[n.Var]
			all = all && n.Var != "" && ok
		}
		for _, rp := range p.Rels {
			_, ok := r[rp.Var]
			all = all && rp.Var != "" && ok && rp.Hops == nil
		}
		if all {
			return unsupported("a named path of bound elements in an OPTIONAL MATCH without a match")
		}
	}
	return nil
}
