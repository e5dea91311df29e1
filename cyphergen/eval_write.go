package cyphergen

import (
	"slices"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// The reference's writing clauses, with Neo4j 5's semantics: a clause runs on the rows in order
// and each row sees what the rows before it wrote (MERGE matches what an earlier row created);
// later clauses see the graph as the clause left it, and the values of bound nodes and
// relationships are read again. SET and REMOVE on null are no-ops, and so is a null value in
// SET (it removes the property), DELETE of null, and a null property in CREATE. A statement is
// atomic: an error leaves the graph as it was.
//
// What the evaluator does not model exactly is "unsupported": writes in a UNION; rows that set
// one property of one element to different values in one clause (which value stays depends on
// row order); DELETE of a node that keeps relationships (Neo4j checks that when the transaction
// commits, after later clauses may have deleted them); any clause after a DELETE but a RETURN
// of count(*); list, map and element property values; CREATE or MERGE that adds labels or
// properties to a bound node; MERGE with a null property.

// writeState is what a query's writing clauses keep between clauses.
type writeState struct {
	saved   *Graph // the graph before the query's first write, restored on error
	deleted bool   // a DELETE ran: later clauses may read no deleted element
	last    bool   // the clause before was a writing clause
}

// writable reports why q's writes cannot be evaluated, if they cannot.
func (st *runState) writable(q *Query) error {
	if len(q.Parts) > 1 && q.Writes() {
		return unsupported("writing clauses in a UNION")
	}
	if q.Writes() && slices.Contains(Features(q), "named-path") {
		// Neo4j's paths hold the elements themselves: a path bound before a SET shows the new
		// properties (4.4.48 and 2026.08.1); the reference's path values are copies.
		return unsupported("a path variable in a query that writes")
	}
	return nil
}

// undoOnError restores the graph as it was before the query when the query failed.
func (st *runState) undoOnError(err error) {
	if err != nil && st.w != nil && st.w.saved != nil {
		*st.g = *st.w.saved
	}
}

// beforeClause rejects a clause after a DELETE that may read a deleted element.
func (st *runState) beforeClause(c Clause) error {
	if st.w == nil {
		if !IsWrite(c) {
			return nil
		}
		st.w = &writeState{}
	}
	after := st.w.last
	st.w.last = IsWrite(c)
	if _, ok := c.(*Match); ok && after {
		return semantic("WITH is required between a writing clause and MATCH")
	}
	if !st.w.deleted {
		return nil
	}
	if r, ok := c.(*Return); ok && !r.Distinct && len(r.Order) == 0 && r.Skip == nil && r.Limit == nil &&
		!slices.ContainsFunc(r.Items, func(it Item) bool {
			call, ok := it.Expr.(*Call)
			return !ok || !call.Star
		}) {
		return nil
	}
	return unsupported("a clause after DELETE")
}

// write runs a writing clause on rows and returns the rows after it.
func (st *runState) write(rows []row, c Clause) ([]row, error) {
	if st.w == nil {
		st.w = &writeState{}
	}
	if st.w.saved == nil {
		st.w.saved = st.g.Clone()
	}
	var err error
	switch c := c.(type) {
	case *Create:
		for _, r := range rows {
			if err = st.create(r, c.Patterns); err != nil {
				return nil, err
			}
		}
	case *Merge:
		rows, err = st.merge(rows, c)
	case *SetClause:
		err = st.set(rows, c)
	case *Remove:
		err = st.remove(rows, c)
	case *Delete:
		err = st.delete(rows, c)
	default:
		return nil, unsupported("clause")
	}
	if err != nil {
		return nil, err
	}
	if _, ok := c.(*Delete); !ok { // delete read the rows again itself
		st.changed()
		for _, r := range rows {
			st.refresh(r, nil)
		}
	}
	return rows, nil
}

// changed drops the graph's index after a write.
func (st *runState) changed() {
	st.g.Changed()
	st.graphIndex = nil
}

// refresh reads the bound nodes and relationships of r again from the graph; with remap (after
// DELETE), an element's old index maps to its new one, -1 when it was deleted (its value stays).
func (st *runState) refresh(r row, remap *[2][]int) {
	for k, v := range r {
		r[k] = st.fresh(v, remap)
	}
}

func (st *runState) fresh(v cypherval.Val, remap *[2][]int) cypherval.Val {
	switch v.Kind {
	case cypherval.Node:
		i := int(v.ID)
		if remap != nil {
			if i = remap[0][i]; i < 0 {
				return v
			}
		}
		return st.g.NodeVal(i)
	case cypherval.Rel:
		i := int(v.ID)
		if remap != nil {
			if i = remap[1][i]; i < 0 {
				return v
			}
		}
		return st.g.RelVal(i)
	case cypherval.List:
		l := make([]cypherval.Val, len(v.L))
		for i, x := range v.L {
			l[i] = st.fresh(x, remap)
		}
		v.L = l
	case cypherval.Map:
		m := make(map[string]cypherval.Val, len(v.M))
		for k, x := range v.M {
			m[k] = st.fresh(x, remap)
		}
		v.M = m
	}
	return v
}

// propValue converts an evaluated value to a property value; ok is false for null (no property).
func propValue(v cypherval.Val) (Value, bool, error) {
	switch v.Kind {
	case cypherval.Null:
		return Value{}, false, nil
	case cypherval.Int:
		return IntValue(v.I), true, nil
	case cypherval.Float:
		return FloatValue(v.F), true, nil
	case cypherval.String:
		return StringValue(v.S), true, nil
	case cypherval.Bool:
		return BoolValue(v.B), true, nil
	}
	return Value{}, false, unsupported("a property value of kind " + v.Kind.String())
}

// evalProps evaluates a pattern's property map on r.
func evalProps(ps []PropEq, r row) (Props, error) {
	var out Props
	for _, p := range ps {
		v, err := EvalExpr(p.Val, r)
		if err != nil {
			return nil, err
		}
		pv, ok, err := propValue(v)
		if err != nil {
			return nil, err
		}
		if ok {
			out = setProp(out, p.Key, pv)
		}
	}
	return out, nil
}

// setProp returns ps with key set to v (appended when new).
func setProp(ps Props, key string, v Value) Props {
	for i := range ps {
		if ps[i].Key == key {
			ps[i].Val = v
			return ps
		}
	}
	return append(ps, Prop{Key: key, Val: v})
}

// delProp returns ps without key.
func delProp(ps Props, key string) Props {
	return slices.DeleteFunc(ps, func(p Prop) bool { return p.Key == key })
}

// create runs CREATE's patterns on one row, binding their new variables in r.
func (st *runState) create(r row, pats []Pattern) error {
	st.refresh(r, nil)
	for _, p := range pats {
		if len(p.Rels) != len(p.Nodes)-1 {
			return semantic("malformed pattern")
		}
		ids := make([]int, len(p.Nodes))
		for i, np := range p.Nodes {
			id, err := st.createNode(r, np)
			if err != nil {
				return err
			}
			ids[i] = id
		}
		for i, rp := range p.Rels {
			if err := st.createRel(r, rp, ids[i], ids[i+1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// createNode returns the node of a CREATE or MERGE node pattern: the bound one, or a new one.
func (st *runState) createNode(r row, np NodePat) (int, error) {
	if v, ok := r[np.Var]; ok && np.Var != "" {
		if len(np.Labels) > 0 || len(np.Props) > 0 {
			return 0, unsupported("labels or properties on a bound node in CREATE or MERGE")
		}
		if v.Kind != cypherval.Node {
			return 0, unsupported("CREATE or MERGE on a variable that is not a node")
		}
		return int(v.ID), nil
	}
	props, err := evalProps(np.Props, r)
	if err != nil {
		return 0, err
	}
	id := len(st.g.Nodes)
	var labels []string
	for _, l := range np.Labels {
		if !slices.Contains(labels, l) {
			labels = append(labels, l)
		}
	}
	st.g.Nodes = append(st.g.Nodes, Node{ID: id, Labels: labels, Props: props})
	if np.Var != "" {
		r[np.Var] = st.g.NodeVal(id)
	}
	return id, nil
}

// createRel makes the relationship of a CREATE or MERGE relationship pattern between nodes a
// and b (left and right in the pattern).
func (st *runState) createRel(r row, rp RelPat, a, b int) error {
	if rp.Var != "" {
		if _, ok := r[rp.Var]; ok {
			return unsupported("a bound relationship in CREATE or MERGE")
		}
	}
	if len(rp.Types) != 1 {
		return semantic("a relationship to create needs exactly one type")
	}
	if rp.Dir == Both {
		return semantic("a relationship to create needs a direction")
	}
	props, err := evalProps(rp.Props, r)
	if err != nil {
		return err
	}
	if rp.Dir == In {
		a, b = b, a
	}
	i := len(st.g.Rels)
	st.g.Rels = append(st.g.Rels, Rel{ID: len(st.g.Nodes) + i, Type: rp.Types[0], From: a, To: b, Props: props})
	if rp.Var != "" {
		r[rp.Var] = st.g.RelVal(i)
	}
	return nil
}

// merge runs MERGE row by row: the pattern's matches on the graph as the rows before left it,
// or the pattern created.
func (st *runState) merge(rows []row, m *Merge) ([]row, error) {
	p := m.Pattern
	for _, np := range p.Nodes {
		for _, pe := range np.Props {
			if l, ok := pe.Val.(*Lit); ok && l.Val.Kind == cypherval.Null {
				return nil, unsupported("MERGE with a null property")
			}
		}
	}
	var out []row
	for _, r := range rows {
		st.refresh(r, nil)
		st.changed()
		found, err := st.match([]row{r}, &Match{Patterns: []Pattern{p}})
		if err != nil {
			return nil, err
		}
		if len(found) > 0 {
			out = append(out, found...)
			continue
		}
		n := cloneRow(r)
		cp := p
		if len(p.Rels) > 0 {
			cp.Rels = slices.Clone(p.Rels)
			for i := range cp.Rels {
				if cp.Rels[i].Dir == Both {
					cp.Rels[i].Dir = Out
				}
			}
		}
		for _, np := range p.Nodes {
			if _, bound := r[np.Var]; !bound && np.Var != "" {
				for _, pe := range np.Props {
					if v, err := EvalExpr(pe.Val, r); err != nil {
						return nil, err
					} else if v.Kind == cypherval.Null {
						return nil, unsupported("MERGE with a null property")
					}
				}
			}
		}
		if err := st.create(n, []Pattern{cp}); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// assigned tracks the values one clause gives each element's properties, to reject rows that
// give one property different values (the result would depend on row order).
type assigned map[[3]any]string

func (a assigned) note(v cypherval.Val, key string, val Value, has bool) error {
	k := [3]any{v.Kind, v.ID, key}
	text := "null"
	if has {
		text = val.String()
	}
	if prev, ok := a[k]; ok && prev != text {
		return unsupported("rows set one property to different values")
	}
	a[k] = text
	return nil
}

// props returns the properties of the element v, for writing.
func (st *runState) props(v cypherval.Val) *Props {
	if v.Kind == cypherval.Node {
		return &st.g.Nodes[v.ID].Props
	}
	return &st.g.Rels[v.ID].Props
}

// set runs SET row by row, item by item.
func (st *runState) set(rows []row, s *SetClause) error {
	seen := assigned{}
	for _, r := range rows {
		for _, it := range s.Items {
			st.refresh(r, nil)
			target, ok := r[it.Var]
			if !ok {
				return semantic("variable `" + it.Var + "` not defined")
			}
			if target.Kind == cypherval.Null {
				continue
			}
			if target.Kind != cypherval.Node && target.Kind != cypherval.Rel {
				return unsupported("SET on a value that is not a node or relationship")
			}
			switch {
			case it.Key != "":
				v, err := EvalExpr(it.Val, r)
				if err != nil {
					return err
				}
				if err := st.setProp(seen, target, it.Key, v); err != nil {
					return err
				}
			case it.Merge:
				vals := make([]cypherval.Val, len(it.Map))
				for i, pe := range it.Map {
					v, err := EvalExpr(pe.Val, r)
					if err != nil {
						return err
					}
					vals[i] = v
				}
				for i, pe := range it.Map {
					if err := st.setProp(seen, target, pe.Key, vals[i]); err != nil {
						return err
					}
				}
			default:
				if target.Kind != cypherval.Node {
					return unsupported("SET of a label on a relationship")
				}
				n := &st.g.Nodes[target.ID]
				for _, l := range it.Labels {
					if !slices.Contains(n.Labels, l) {
						n.Labels = append(slices.Clone(n.Labels), l)
					}
				}
			}
		}
	}
	return nil
}

// setProp sets (or, to null, removes) one property of the element target.
func (st *runState) setProp(seen assigned, target cypherval.Val, key string, v cypherval.Val) error {
	pv, has, err := propValue(v)
	if err != nil {
		return err
	}
	if err := seen.note(target, key, pv, has); err != nil {
		return err
	}
	ps := st.props(target)
	if has {
		*ps = setProp(slices.Clone(*ps), key, pv)
	} else {
		*ps = delProp(slices.Clone(*ps), key)
	}
	return nil
}

// remove runs REMOVE on every row.
func (st *runState) remove(rows []row, rm *Remove) error {
	for _, r := range rows {
		for _, it := range rm.Items {
			target, ok := r[it.Var]
			if !ok {
				return semantic("variable `" + it.Var + "` not defined")
			}
			switch {
			case target.Kind == cypherval.Null:
			case target.Kind != cypherval.Node && target.Kind != cypherval.Rel:
				return unsupported("REMOVE on a value that is not a node or relationship")
			case it.Key != "":
				ps := st.props(target)
				*ps = delProp(slices.Clone(*ps), it.Key)
			case target.Kind != cypherval.Node:
				return unsupported("REMOVE of a label of a relationship")
			default:
				n := &st.g.Nodes[target.ID]
				n.Labels = slices.DeleteFunc(slices.Clone(n.Labels), func(l string) bool { return slices.Contains(it.Labels, l) })
			}
		}
	}
	return nil
}

// delete runs DELETE or DETACH DELETE on every row, then takes the deleted elements out of the
// graph.
func (st *runState) delete(rows []row, d *Delete) error {
	nodes := make([]bool, len(st.g.Nodes))
	rels := make([]bool, len(st.g.Rels))
	for _, r := range rows {
		st.refresh(r, nil)
		for _, e := range d.Exprs {
			v, err := EvalExpr(e, r)
			if err != nil {
				return err
			}
			switch v.Kind {
			case cypherval.Null:
			case cypherval.Node:
				nodes[v.ID] = true
			case cypherval.Rel:
				rels[v.ID] = true
			default:
				return unsupported("DELETE of a value that is not a node or relationship")
			}
		}
	}
	for i, rel := range st.g.Rels {
		if rels[i] || !nodes[rel.From] && !nodes[rel.To] {
			continue
		}
		if !d.Detach {
			return unsupported("DELETE of a node that keeps relationships")
		}
		rels[i] = true
	}
	var remap [2][]int
	remap[0], remap[1] = make([]int, len(nodes)), make([]int, len(rels))
	var ns []Node
	for i, n := range st.g.Nodes {
		remap[0][i] = -1
		if !nodes[i] {
			remap[0][i] = len(ns)
			n.ID = len(ns)
			ns = append(ns, n)
		}
	}
	var rs []Rel
	for i, rel := range st.g.Rels {
		remap[1][i] = -1
		if !rels[i] {
			remap[1][i] = len(rs)
			rel.From, rel.To = remap[0][rel.From], remap[0][rel.To]
			rs = append(rs, rel)
		}
	}
	st.g.Nodes, st.g.Rels = ns, rs
	st.changed()
	for _, r := range rows {
		st.refresh(r, &remap)
	}
	if slices.Contains(nodes, true) || slices.Contains(rels, true) {
		st.w.deleted = true
	}
	return nil
}

// Clone returns a deep copy of g (without its index).
func (g *Graph) Clone() *Graph {
	c := &Graph{Schema: g.Schema, Nodes: make([]Node, len(g.Nodes)), Rels: make([]Rel, len(g.Rels))}
	for i, n := range g.Nodes {
		n.Labels, n.Props = slices.Clone(n.Labels), slices.Clone(n.Props)
		c.Nodes[i] = n
	}
	for i, r := range g.Rels {
		r.Props = slices.Clone(r.Props)
		c.Rels[i] = r
	}
	return c
}
