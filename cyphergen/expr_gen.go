package cyphergen

import (
	"math"
	"strings"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// visible returns the bindings expressions may read: all of them, or only those with a
// witness value while guided operands are generated.
func (qg *QueryGen) visible(t gtype) []*gbind {
	var out []*gbind
	for _, b := range qg.scope {
		if b.t == t && (!qg.known || b.known) {
			out = append(out, b)
		}
	}
	return out
}

// gen returns a random expression of type t, nested at most depth deep. It never fails at run
// time: operands are typed, divisors are nonzero literals and integers stay within maxBound.
func (qg *QueryGen) gen(t gtype, depth int) gexpr {
	if depth > 0 && qg.pct(55) {
		for range 3 {
			if x, ok := qg.compound(t, depth-1); ok {
				return x
			}
		}
	}
	return qg.leaf(t)
}

// leaf returns a variable, a property or a literal of type t.
func (qg *QueryGen) leaf(t gtype) gexpr {
	switch x := qg.r.IntN(10); {
	case x < 2:
		if bs := qg.visible(t); len(bs) > 0 {
			return varItem(bs[qg.r.IntN(len(bs))], "").x
		}
	case x < 7:
		if x, ok := qg.prop(t); ok {
			return x
		}
	}
	if isElemType(t) {
		if bs := qg.visible(t); len(bs) > 0 {
			return varItem(bs[qg.r.IntN(len(bs))], "").x
		}
	}
	if x, ok := qg.prop(t); ok && qg.coin() {
		return x
	}
	return qg.lit(t)
}

// prop returns a property of type t of a node or relationship variable: usually one its
// witness element has.
func (qg *QueryGen) prop(t gtype) (gexpr, bool) {
	vt, ok := propTypeOf(t)
	if !ok {
		return gexpr{}, false
	}
	bs := append(qg.visible(gNode), qg.visible(gRel)...)
	if len(bs) == 0 {
		return gexpr{}, false
	}
	b := bs[qg.r.IntN(len(bs))]
	var keys []string
	if b.known && b.elem >= 0 && qg.pct(80) {
		props := qg.gi.g.Nodes
		var ps Props
		if b.t == gRel {
			ps = qg.gi.g.Rels[b.elem].Props
		} else {
			ps = props[b.elem].Props
		}
		for _, p := range ps {
			if p.Val.Type == vt {
				keys = append(keys, p.Key)
			}
		}
	}
	if len(keys) == 0 {
		keys = qg.gi.nodeKeys[vt]
		if b.t == gRel {
			keys = qg.gi.relKeys[vt]
		}
	}
	if len(keys) == 0 {
		return gexpr{}, false
	}
	k := keys[qg.r.IntN(len(keys))]
	return gexpr{e: &Property{&Var{b.name}, k}, t: t, null: b.null || k != "id", bound: qg.gi.intBound,
		opaque: !b.known}, true
}

// lit returns a literal of type t, often a value present in the graph so that equalities hit.
func (qg *QueryGen) lit(t gtype) gexpr {
	if vt, ok := propTypeOf(t); ok {
		if pool := qg.gi.pool[vt]; len(pool) > 0 && qg.pct(50) {
			v := pool[qg.r.IntN(len(pool))]
			return gexpr{e: &Lit{v.Val()}, t: t, bound: absF(float64(v.Int)) + absF(v.Float)}
		}
	}
	switch t {
	case gInt:
		i := int64(qg.r.IntN(31) - 10)
		return gexpr{e: &Lit{cypherval.IntVal(i)}, t: t, bound: absF(float64(i))}
	case gFloat:
		f := float64(qg.r.IntN(41)-20) / 4
		return gexpr{e: &Lit{cypherval.FloatVal(f)}, t: t, bound: absF(f)}
	case gStr:
		var b strings.Builder
		for range qg.r.IntN(4) {
			b.WriteByte(strChars[qg.r.IntN(len(strChars))])
		}
		return gexpr{e: &Lit{cypherval.StringVal(b.String())}, t: t}
	case gBool:
		return gexpr{e: &Lit{cypherval.BoolVal(qg.coin())}, t: t}
	case gListInt, gListStr:
		l := &ListExpr{}
		bound := 0.0
		for range 1 + qg.r.IntN(3) {
			x := qg.lit(elemTypeOf(t))
			l.Elems = append(l.Elems, x.e)
			bound = max(bound, x.bound)
		}
		return gexpr{e: l, t: t, bound: bound}
	}
	// Nodes and relationships have no literals; callers ask for them only when bound.
	return gexpr{e: &Lit{cypherval.NullVal}, t: t, null: true}
}

// smallInt returns an integer literal in [lo, hi].
func (qg *QueryGen) smallInt(lo, hi int) gexpr {
	i := int64(lo + qg.r.IntN(hi-lo+1))
	return gexpr{e: &Lit{cypherval.IntVal(i)}, t: gInt, bound: absF(float64(i))}
}

// call applies a function to operands; the result is null when an operand may be.
func mkCall(name string, t gtype, bound float64, args ...gexpr) gexpr {
	x := gexpr{t: t, bound: bound}
	c := &Call{Name: name}
	for _, a := range args {
		c.Args = append(c.Args, a.e)
		x.null = x.null || a.null
		x.opaque = x.opaque || a.opaque
	}
	x.e = c
	return x
}

func mkBinary(op string, t gtype, bound float64, l, r gexpr) gexpr {
	return gexpr{e: &Binary{Op: op, L: l.e, R: r.e}, t: t, bound: bound, null: l.null || r.null,
		opaque: l.opaque || r.opaque}
}

// maker is one way of building a compound expression, usable when its feature is allowed.
type maker struct {
	feat string
	f    func() (gexpr, bool)
}

// compound returns an operator or function application of type t.
func (qg *QueryGen) compound(t gtype, d int) (gexpr, bool) {
	var ms []maker
	switch t {
	case gInt, gFloat:
		ms = qg.numMakers(t, d)
	case gStr:
		ms = qg.strMakers(d)
	case gBool:
		ms = qg.boolMakers(d)
	case gListInt, gListStr:
		ms = qg.listMakers(t, d)
	default:
		return gexpr{}, false
	}
	ms = append(ms, qg.caseMaker(t, d), qg.coalesceMaker(t, d))
	ms = append(ms, qg.readMakers(t, d)...)
	var usable []maker
	for _, m := range ms {
		if m.feat == "" || qg.ok(m.feat) {
			usable = append(usable, m)
		}
	}
	if len(usable) == 0 {
		return gexpr{}, false
	}
	return usable[qg.r.IntN(len(usable))].f()
}

func (qg *QueryGen) numMakers(t gtype, d int) []maker {
	arith := func(op string) maker {
		return maker{"op:" + op, func() (gexpr, bool) {
			l, r := qg.gen(t, d), qg.gen(t, d)
			b := l.bound + r.bound
			if op == "*" {
				b = l.bound * r.bound
			}
			return mkBinary(op, t, b, l, r), b <= maxBound
		}}
	}
	div := func(op string) maker {
		return maker{"op:" + op, func() (gexpr, bool) {
			l := qg.gen(t, d)
			r := qg.smallInt(1, 7)
			if qg.coin() {
				r = qg.smallInt(-7, -1)
			}
			if t == gFloat {
				f := float64(r.e.(*Lit).Val.I) // |divisor| >= 1 keeps the bound
				r = gexpr{e: &Lit{cypherval.FloatVal(f)}, t: gFloat, bound: absF(f)}
			}
			return mkBinary(op, t, l.bound, l, r), true
		}}
	}
	ms := []maker{arith("+"), arith("-"), arith("*"), div("/"),
		{"op:neg", func() (gexpr, bool) {
			x := qg.gen(t, d)
			if _, lit := x.e.(*Lit); lit {
				return x, false // -(-3) would print as --3
			}
			return gexpr{e: &Unary{Op: "-", X: x.e}, t: t, bound: x.bound, null: x.null, opaque: x.opaque}, true
		}},
		{"fn:abs", func() (gexpr, bool) { x := qg.gen(t, d); return mkCall("abs", t, x.bound, x), true }},
	}
	if t == gFloat {
		return append(ms, maker{"fn:tofloat", func() (gexpr, bool) {
			x := qg.gen(gInt, d)
			return mkCall("toFloat", gFloat, x.bound, x), true
		}})
	}
	return append(ms, div("%"),
		maker{"fn:sign", func() (gexpr, bool) {
			x := qg.gen([]gtype{gInt, gFloat}[qg.r.IntN(2)], d)
			return mkCall("sign", gInt, 1, x), true
		}},
		maker{"fn:size", func() (gexpr, bool) {
			if qg.coin() && qg.ok("list") {
				return mkCall("size", gInt, 1<<20, qg.gen([]gtype{gListInt, gListStr}[qg.r.IntN(2)], d)), true
			}
			return mkCall("size", gInt, 1<<20, qg.gen(gStr, d)), true
		}},
		maker{"fn:tointeger", func() (gexpr, bool) {
			x := qg.gen(gFloat, d)
			return mkCall("toInteger", gInt, x.bound+1, x), x.bound+1 <= maxBound
		}},
		qg.fromListMaker(gListInt, d),
	)
}

// fromListMaker takes an element of a list: head, last or a literal index.
func (qg *QueryGen) fromListMaker(lt gtype, d int) maker {
	return maker{"list", func() (gexpr, bool) {
		l := qg.gen(lt, d)
		var x gexpr
		switch qg.r.IntN(3) {
		case 0:
			if !qg.ok("fn:head") {
				return x, false
			}
			x = mkCall("head", elemTypeOf(lt), l.bound, l)
		case 1:
			if !qg.ok("fn:last") {
				return x, false
			}
			x = mkCall("last", elemTypeOf(lt), l.bound, l)
		default:
			if !qg.ok("index") {
				return x, false
			}
			i := qg.smallInt(0, 3)
			x = gexpr{e: &Index{X: l.e, I: i.e}, t: elemTypeOf(lt), bound: l.bound, opaque: l.opaque}
		}
		x.null = true
		return x, true
	}}
}

func (qg *QueryGen) strMakers(d int) []maker {
	unary := func(name string) maker {
		return maker{"fn:" + strings.ToLower(name), func() (gexpr, bool) { return mkCall(name, gStr, 0, qg.gen(gStr, d)), true }}
	}
	strLit := func() gexpr {
		x := qg.lit(gStr)
		if x.e.(*Lit).Val.S == "" {
			x.e = &Lit{cypherval.StringVal(string(strChars[qg.r.IntN(len(strChars))]))}
		}
		return x
	}
	return []maker{unary("toUpper"), unary("toLower"), unary("trim"), unary("ltrim"), unary("rtrim"), unary("reverse"),
		{"fn:substring", func() (gexpr, bool) {
			args := []gexpr{qg.gen(gStr, d), qg.smallInt(0, 3)}
			if qg.coin() {
				args = append(args, qg.smallInt(0, 4))
			}
			return mkCall("substring", gStr, 0, args...), true
		}},
		{"fn:left", func() (gexpr, bool) { return mkCall("left", gStr, 0, qg.gen(gStr, d), qg.smallInt(0, 5)), true }},
		{"fn:right", func() (gexpr, bool) { return mkCall("right", gStr, 0, qg.gen(gStr, d), qg.smallInt(0, 5)), true }},
		{"fn:replace", func() (gexpr, bool) {
			return mkCall("replace", gStr, 0, qg.gen(gStr, d), strLit(), qg.lit(gStr)), true
		}},
		{"fn:tostring", func() (gexpr, bool) {
			return mkCall("toString", gStr, 0, qg.gen([]gtype{gInt, gStr, gBool}[qg.r.IntN(3)], d)), true
		}},
		{"op:+", func() (gexpr, bool) { return mkBinary("+", gStr, 0, qg.gen(gStr, d), qg.gen(gStr, d)), true }},
		qg.fromListMaker(gListStr, d),
	}
}

// cmpTypes are the types comparisons and equalities apply to.
var cmpTypes = []gtype{gInt, gInt, gStr, gStr, gBool, gFloat}

func (qg *QueryGen) boolMakers(d int) []maker {
	ms := []maker{
		{"op:not", func() (gexpr, bool) {
			x := qg.gen(gBool, d)
			return gexpr{e: &Unary{Op: "NOT", X: x.e}, t: gBool, null: x.null, opaque: x.opaque}, true
		}},
		{"is-null", func() (gexpr, bool) {
			x := qg.gen(cmpTypes[qg.r.IntN(len(cmpTypes))], d)
			return gexpr{e: &IsNull{X: qg.predOperand(x.e), Not: qg.coin()}, t: gBool, opaque: x.opaque}, true
		}},
		{"label-test", func() (gexpr, bool) {
			bs := qg.visible(gNode)
			ls := qg.gi.g.Schema.Labels
			if len(bs) == 0 {
				return gexpr{}, false
			}
			b := bs[qg.r.IntN(len(bs))]
			return gexpr{e: &HasLabels{X: &Var{b.name}, Labels: []string{ls[qg.r.IntN(len(ls))].Name}},
				t: gBool, null: b.null, opaque: !b.known}, true
		}},
	}
	for _, op := range []string{"AND", "OR", "XOR"} {
		ms = append(ms, maker{"op:" + strings.ToLower(op), func() (gexpr, bool) {
			return mkBinary(op, gBool, 0, qg.gen(gBool, d), qg.gen(gBool, d)), true
		}})
	}
	for _, op := range []string{"=", "<>", "<", "<=", ">", ">="} {
		ms = append(ms, maker{"op:" + op, func() (gexpr, bool) {
			t := cmpTypes[qg.r.IntN(len(cmpTypes))]
			return mkBinary(op, gBool, 0, qg.gen(t, d), qg.gen(t, d)), true
		}})
	}
	for _, op := range []string{"STARTS WITH", "ENDS WITH", "CONTAINS"} {
		ms = append(ms, maker{"op:" + strings.ToLower(op), func() (gexpr, bool) {
			return mkBinary(op, gBool, 0, qg.gen(gStr, d), qg.gen(gStr, d)), true
		}})
	}
	ms = append(ms, maker{"op:in", func() (gexpr, bool) {
		lt := []gtype{gListInt, gListStr}[qg.r.IntN(2)]
		if !qg.ok("list") {
			return gexpr{}, false
		}
		elem := qg.gen(elemTypeOf(lt), d)
		elem.e = qg.predOperand(elem.e)
		x := mkBinary("IN", gBool, 0, elem, qg.gen(lt, d))
		x.null = true // a null element makes a miss null
		return x, true
	}})
	return ms
}

func (qg *QueryGen) listMakers(t gtype, d int) []maker {
	ms := []maker{
		{"list", func() (gexpr, bool) {
			l := &ListExpr{}
			x := gexpr{e: l, t: t}
			for range 1 + qg.r.IntN(3) {
				el := qg.gen(elemTypeOf(t), d)
				l.Elems = append(l.Elems, el.e)
				x.bound, x.opaque = max(x.bound, el.bound), x.opaque || el.opaque
			}
			return x, true
		}},
		{"fn:tail", func() (gexpr, bool) { l := qg.gen(t, d); return mkCall("tail", t, l.bound, l), true }},
		{"fn:reverse", func() (gexpr, bool) { l := qg.gen(t, d); return mkCall("reverse", t, l.bound, l), true }},
	}
	if t == gListInt {
		ms = append(ms, maker{"fn:range", func() (gexpr, bool) {
			lo, hi := qg.smallInt(-3, 5), qg.smallInt(-3, 8)
			step := qg.smallInt(1, 2)
			if qg.coin() {
				step = qg.smallInt(-2, -1)
			}
			return mkCall("range", t, 8, lo, hi, step), true
		}})
	}
	return ms
}

// caseMaker builds CASE expressions of type t, in either form.
func (qg *QueryGen) caseMaker(t gtype, d int) maker {
	return maker{"case", func() (gexpr, bool) {
		c := &Case{}
		x := gexpr{e: c, t: t}
		add := func(g gexpr) Expr {
			x.bound, x.null, x.opaque = max(x.bound, g.bound), x.null || g.null, x.opaque || g.opaque
			return g.e
		}
		var test gtype
		simple := qg.ok("case-simple") && qg.coin()
		if simple {
			test = []gtype{gInt, gStr, gBool}[qg.r.IntN(3)]
			tx := qg.gen(test, d)
			c.Test = tx.e
			x.opaque = tx.opaque
		}
		for range 1 + qg.r.IntN(2) {
			var cond gexpr
			if simple {
				cond = qg.gen(test, d)
			} else {
				cond = qg.gen(gBool, d)
				cond.e = qg.whenCond(cond.e)
			}
			x.opaque = x.opaque || cond.opaque
			c.Whens = append(c.Whens, When{Cond: cond.e, Then: add(qg.gen(t, d))})
		}
		if qg.pct(70) {
			c.Else = add(qg.gen(t, d))
		} else {
			x.null = true
		}
		return x, true
	}}
}

func (qg *QueryGen) coalesceMaker(t gtype, d int) maker {
	return maker{"fn:coalesce", func() (gexpr, bool) {
		a, b := qg.gen(t, d), qg.gen(t, d)
		x := mkCall("coalesce", t, max(a.bound, b.bound), a, b)
		x.null = a.null && b.null
		return x, true
	}}
}

// ---- guided conditions

// cond returns a condition whose truth on the witness row is want (GDsmith's guided condition
// generation with lazy splitting: an operand is generated freely and evaluated, and the other
// is constrained only when needed). It falls back to a literal after a few tries.
func (qg *QueryGen) cond(want bool, depth int) Expr {
	saved := qg.known
	qg.known = true
	defer func() { qg.known = saved }()
	wt := False
	if want {
		wt = True
	}
	for range 6 {
		e := qg.condTry(want, depth)
		if e == nil {
			continue
		}
		if tr, err := Truth(e, qg.row); err == nil && tr == wt {
			return e
		}
	}
	return &Lit{cypherval.BoolVal(want)}
}

// operand returns the left operand of a guided comparison: often a property of a bound
// variable (GDsmith's GetProperty leaves), otherwise any expression.
func (qg *QueryGen) operand(t gtype, d int) gexpr {
	if qg.pct(50) {
		if x, ok := qg.prop(t); ok {
			return x
		}
	}
	return qg.gen(t, d)
}

// truth evaluates a condition on the witness row.
func (qg *QueryGen) truth(e Expr) (Tri, bool) {
	tr, err := Truth(e, qg.row)
	return tr, err == nil
}

// value evaluates an expression on the witness row.
func (qg *QueryGen) value(e Expr) (cypherval.Val, bool) {
	v, err := EvalExpr(e, qg.row)
	return v, err == nil
}

func (qg *QueryGen) condTry(want bool, depth int) Expr {
	d := depth - 1
	type kind struct {
		feat string
		w    int
	}
	kinds := []kind{{"cmp", 30}, {"op:starts with", 4}, {"op:ends with", 4}, {"op:contains", 4},
		{"op:in", 6}, {"is-null", 5}, {"label-test", 6}, {"leaf", 4}}
	if depth > 0 {
		kinds = append(kinds, kind{"op:and", 12}, kind{"op:or", 12}, kind{"op:xor", 5}, kind{"op:not", 6})
	}
	total := 0
	for _, k := range kinds {
		if k.feat == "cmp" || k.feat == "leaf" || qg.ok(k.feat) {
			total += k.w
		}
	}
	x := qg.r.IntN(total)
	var pick string
	for _, k := range kinds {
		if k.feat == "cmp" || k.feat == "leaf" || qg.ok(k.feat) {
			if x < k.w {
				pick = k.feat
				break
			}
			x -= k.w
		}
	}
	switch pick {
	case "op:and", "op:or":
		// AND wanted true and OR wanted false need both sides so; otherwise lazy splitting.
		op := strings.ToUpper(pick[3:])
		l := qg.gen(gBool, d).e
		lt, ok := qg.truth(l)
		if !ok {
			return nil
		}
		var r Expr
		switch {
		case op == "AND" && want, op == "OR" && !want:
			if lt != wantTri(want) {
				l = qg.cond(want, d)
			}
			r = qg.cond(want, d)
		case lt == wantTri(want): // AND false or OR true already decided by the left side
			r = qg.gen(gBool, d).e
		default:
			r = qg.cond(want, d)
		}
		return &Binary{Op: op, L: l, R: r}
	case "op:xor":
		l := qg.gen(gBool, d).e
		lt, ok := qg.truth(l)
		if !ok || lt == Unknown {
			return nil
		}
		return &Binary{Op: "XOR", L: l, R: qg.cond(want != (lt == True), d)}
	case "op:not":
		return &Unary{Op: "NOT", X: qg.cond(!want, d)}
	case "is-null":
		x := qg.operand(cmpTypes[qg.r.IntN(len(cmpTypes))], d)
		v, ok := qg.value(x.e)
		if !ok {
			return nil
		}
		return &IsNull{X: qg.predOperand(x.e), Not: v.IsNull() != want}
	case "label-test":
		return qg.labelCond(want)
	case "leaf":
		return qg.boolLeaf(want)
	case "op:in":
		return qg.inCond(want, d)
	case "cmp":
		return qg.cmpCond(want, d)
	default: // string predicates
		return qg.strCond(strings.ToUpper(pick[3:]), want, d)
	}
}

// constrained returns the left operand l with an operator op and a right operand such that the
// comparison has truth want on the witness: a freely generated one if it happens to fit, else
// one of cands that does.
func (qg *QueryGen) constrained(op string, l gexpr, want bool, d int, cands []gexpr) Expr {
	wt := wantTri(want)
	for range 2 {
		e := &Binary{Op: op, L: l.e, R: qg.gen(l.t, d).e}
		if tr, ok := qg.truth(e); ok && tr == wt {
			return e
		}
	}
	qg.r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	for _, c := range cands {
		e := &Binary{Op: op, L: l.e, R: c.e}
		if tr, ok := qg.truth(e); ok && tr == wt {
			return e
		}
	}
	return nil
}

// candidates returns leaves of type t to constrain a comparison with: properties of known
// bindings of that type, values present in the graph, and v and its neighbours.
func (qg *QueryGen) candidates(t gtype, v cypherval.Val) []gexpr {
	var out []gexpr
	for range 6 {
		if x, ok := qg.prop(t); ok {
			out = append(out, x)
		}
		out = append(out, qg.lit(t))
	}
	if bs := qg.visible(t); len(bs) > 0 {
		out = append(out, varItem(bs[qg.r.IntN(len(bs))], "").x)
	}
	switch v.Kind {
	case cypherval.Int:
		for _, delta := range []int64{0, 1, -1, 7, -7} {
			if i := v.I + delta; absF(float64(i)) <= qg.gi.intBound*2+16 {
				out = append(out, gexpr{e: &Lit{cypherval.IntVal(i)}, t: gInt, bound: absF(float64(i))})
			}
		}
	case cypherval.Float:
		for _, delta := range []float64{0, 0.5, -0.5} {
			out = append(out, gexpr{e: &Lit{cypherval.FloatVal(v.F + delta)}, t: gFloat, bound: absF(v.F + delta)})
		}
	case cypherval.String:
		out = append(out, gexpr{e: &Lit{v}, t: gStr}, gexpr{e: &Lit{cypherval.StringVal(v.S + "a")}, t: gStr})
		if len(v.S) > 0 {
			out = append(out, gexpr{e: &Lit{cypherval.StringVal(v.S[:len(v.S)-1])}, t: gStr})
		}
	case cypherval.Bool:
		out = append(out, gexpr{e: &Lit{v}, t: gBool}, gexpr{e: &Lit{cypherval.BoolVal(!v.B)}, t: gBool})
	}
	return out
}

// cmpCond returns a comparison between two values of one type with truth want on the witness.
func (qg *QueryGen) cmpCond(want bool, d int) Expr {
	t := cmpTypes[qg.r.IntN(len(cmpTypes))]
	ops := []string{"=", "<>", "<", "<=", ">", ">="}
	if t == gBool {
		ops = ops[:2]
	}
	op := ops[qg.r.IntN(len(ops))]
	if !qg.ok("op:" + op) {
		return nil
	}
	l := qg.operand(t, d)
	v, ok := qg.value(l.e)
	if !ok || v.IsNull() {
		return nil
	}
	return qg.constrained(op, l, want, d, qg.candidates(t, v))
}

// strCond returns a STARTS WITH, ENDS WITH or CONTAINS test with truth want on the witness.
func (qg *QueryGen) strCond(op string, want bool, d int) Expr {
	l := qg.operand(gStr, d)
	v, ok := qg.value(l.e)
	if !ok || v.Kind != cypherval.String {
		return nil
	}
	cands := qg.candidates(gStr, v)
	s := v.S
	for range 3 {
		i := qg.r.IntN(len(s) + 1)
		j := i + qg.r.IntN(len(s)-i+1)
		for _, sub := range []string{s[:i], s[i:], s[i:j]} {
			cands = append(cands, gexpr{e: &Lit{cypherval.StringVal(sub)}, t: gStr})
		}
	}
	return qg.constrained(op, l, want, d, cands)
}

// inCond returns x IN list with truth want on the witness; the list holds no nulls.
func (qg *QueryGen) inCond(want bool, d int) Expr {
	if !qg.ok("list") {
		return nil
	}
	t := []gtype{gInt, gStr}[qg.r.IntN(2)]
	l := qg.operand(t, d)
	v, ok := qg.value(l.e)
	if !ok || v.IsNull() {
		return nil
	}
	list := &ListExpr{}
	for range 1 + qg.r.IntN(3) {
		list.Elems = append(list.Elems, qg.lit(t).e)
	}
	if want {
		list.Elems = append(list.Elems, &Lit{v})
		qg.r.Shuffle(len(list.Elems), func(i, j int) { list.Elems[i], list.Elems[j] = list.Elems[j], list.Elems[i] })
	}
	return &Binary{Op: "IN", L: qg.predOperand(l.e), R: list}
}

// predOperand returns the operand of IS NULL or of IN's left side: a negative number literal
// becomes the negation of a positive one, the same value printed as (-5), when the feature
// neg-literal-operand is avoided (FalkorDB reads `-5 IS NULL` as `-(5 IS NULL)`).
func (qg *QueryGen) predOperand(e Expr) Expr {
	if qg.ok("neg-literal-operand") || !negLiteral(e) {
		return e
	}
	v := e.(*Lit).Val
	if v.Kind == cypherval.Int {
		return &Unary{Op: "-", X: &Lit{cypherval.IntVal(-v.I)}}
	}
	return &Unary{Op: "-", X: &Lit{cypherval.FloatVal(-v.F)}}
}

// negLiteral reports whether e is a negative integer (above the least int64) or float literal.
func negLiteral(e Expr) bool {
	l, ok := e.(*Lit)
	return ok && (l.Val.Kind == cypherval.Int && l.Val.I < 0 && l.Val.I != math.MinInt64 ||
		l.Val.Kind == cypherval.Float && l.Val.F < 0)
}

// labelCond tests a known node for labels it has (want) or one it lacks.
func (qg *QueryGen) labelCond(want bool) Expr {
	var bs []*gbind
	for _, b := range qg.visible(gNode) {
		if b.elem >= 0 {
			bs = append(bs, b)
		}
	}
	if len(bs) == 0 {
		return nil
	}
	b := bs[qg.r.IntN(len(bs))]
	has := qg.gi.g.Nodes[b.elem].Labels
	var ls []string
	if want {
		if len(has) == 0 {
			return nil
		}
		for _, i := range qg.r.Perm(len(has))[:1+qg.r.IntN(min(2, len(has)))] {
			ls = append(ls, has[i])
		}
	} else {
		for _, l := range qg.gi.g.Schema.Labels {
			if !labelIn(has, l.Name) {
				ls = append(ls, l.Name)
			}
		}
		if len(ls) == 0 {
			return nil
		}
		ls = []string{ls[qg.r.IntN(len(ls))]}
		if len(has) > 0 && qg.coin() {
			ls = append(ls, has[qg.r.IntN(len(has))])
		}
	}
	return &HasLabels{X: &Var{b.name}, Labels: ls}
}

func labelIn(ls []string, l string) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// boolLeaf returns a boolean property, variable or literal with value want on the witness.
func (qg *QueryGen) boolLeaf(want bool) Expr {
	for range 4 {
		x := qg.leaf(gBool)
		if v, ok := qg.value(x.e); ok && v.Kind == cypherval.Bool && v.B == want {
			return x.e
		}
	}
	return &Lit{cypherval.BoolVal(want)}
}

// wantTri is the truth value of a wanted boolean.
func wantTri(b bool) Tri {
	if b {
		return True
	}
	return False
}

// whenCond returns a searched CASE's WHEN condition; when case-when-ref is avoided, a bare
// variable, property or CASE b is written (b = true), which selects the same rows (null is no
// match).
func (qg *QueryGen) whenCond(e Expr) Expr {
	switch e.(type) {
	case *Var, *Property, *Case:
		if !qg.ok("case-when-ref") {
			return &Binary{Op: "=", L: e, R: &Lit{Val: cypherval.BoolVal(true)}}
		}
	}
	return e
}
