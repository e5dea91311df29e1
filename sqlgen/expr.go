package sqlgen

import (
	"strings"
)

// exprGen writes random untyped expressions into b. Every compound expression is printed inside
// its own parentheses, so precedence never matters and a reducer can work on balanced parentheses;
// leaves (column references and literals) are printed bare.
type exprGen struct {
	r        *rng
	d        *dialect
	b        *strings.Builder
	cols     []string // column references in scope
	maxDepth int
	noLike   bool // write GLOB for LIKE (LIKE is not deterministic after case_sensitive_like)
}

// node kinds, chosen by weight.
const (
	nkCompare = iota
	nkLogic
	nkArith
	nkPrefix
	nkPostfix
	nkIs
	nkLike
	nkBetween
	nkIn
	nkCase
	nkCast
	nkCollate
	nkConcat
	nkBitwise
	nkFunc
	nkRow
	nkCount
)

var nodeWeights = [nkCount]int{
	nkCompare: 10, nkLogic: 6, nkArith: 5, nkPrefix: 4, nkPostfix: 4, nkIs: 3, nkLike: 3,
	nkBetween: 3, nkIn: 3, nkCase: 3, nkCast: 3, nkCollate: 2, nkConcat: 2, nkBitwise: 2,
	nkFunc: 9, nkRow: 1,
}

// boolWeights bias the root of a predicate towards operators that give truth values.
var boolWeights = [nkCount]int{
	nkCompare: 10, nkLogic: 6, nkPostfix: 3, nkIs: 3, nkLike: 3, nkBetween: 3, nkIn: 3,
	nkRow: 1, nkFunc: 1, nkPrefix: 2, nkCase: 1,
}

var nodeTotal, boolTotal = sum(nodeWeights[:]), sum(boolWeights[:])

func sum(w []int) int {
	t := 0
	for _, v := range w {
		t += v
	}
	return t
}

func pickKind(r *rng, w *[nkCount]int, total int) int {
	x := r.intn(total)
	for k, v := range w {
		if x < v {
			return k
		}
		x -= v
	}
	return 0
}

// predicate writes a truth-valued expression of depth at most maxDepth.
func (g *exprGen) predicate() {
	if g.maxDepth == 0 {
		g.leaf()
		return
	}
	g.node(pickKind(g.r, &boolWeights, boolTotal), 0)
}

// expr writes an expression at the given depth.
func (g *exprGen) expr(depth int) {
	if depth >= g.maxDepth || g.r.prob(0.12+0.08*float64(depth)) {
		g.leaf()
		return
	}
	g.node(pickKind(g.r, &nodeWeights, nodeTotal), depth)
}

// term writes an operand of AND or OR: an expression, but not a COLLATE one in a dialect that
// refuses it there (noCollateTerm), where a CAST takes its place.
func (g *exprGen) term(depth int) {
	if !g.d.noCollateTerm {
		g.expr(depth)
		return
	}
	if depth >= g.maxDepth || g.r.prob(0.12+0.08*float64(depth)) {
		g.leaf()
		return
	}
	k := pickKind(g.r, &nodeWeights, nodeTotal)
	if k == nkCollate {
		k = nkCast
	}
	g.node(k, depth)
}

func (g *exprGen) ws(s string) { g.b.WriteString(s) }

func (g *exprGen) binary(op string, depth int) {
	g.ws("(")
	g.expr(depth + 1)
	g.ws(" ")
	g.ws(op)
	g.ws(" ")
	g.expr(depth + 1)
	g.ws(")")
}

func (g *exprGen) node(kind, depth int) {
	r, d := g.r, g.d
	switch kind {
	case nkCompare:
		g.binary(pick(r, d.compare), depth)
	case nkLogic:
		op := "OR"
		if r.prob(0.5) {
			op = "AND"
		}
		g.ws("(")
		g.term(depth + 1)
		g.ws(" " + op + " ")
		g.term(depth + 1)
		g.ws(")")
	case nkArith:
		g.binary(pick(r, d.arith), depth)
	case nkPrefix:
		g.ws("(")
		g.ws(pick(r, d.prefix))
		g.ws(" ")
		g.expr(depth + 1)
		g.ws(")")
	case nkPostfix:
		g.ws("(")
		g.expr(depth + 1)
		g.ws(" ")
		g.ws(pick(r, d.postfix))
		g.ws(")")
	case nkIs:
		g.binary(pick(r, d.isOps), depth)
	case nkLike:
		op := pick(r, d.likeOps)
		if g.noLike && strings.HasSuffix(op, "LIKE") {
			op = strings.TrimSuffix(op, "LIKE") + "GLOB"
		}
		g.ws("(")
		g.expr(depth + 1)
		g.ws(" ")
		g.ws(op)
		g.ws(" ")
		g.expr(depth + 1)
		if strings.HasSuffix(op, "LIKE") && r.oneIn(5) {
			g.ws(" ESCAPE ")
			g.ws(pick(r, d.escapes))
		}
		g.ws(")")
	case nkBetween:
		g.ws("(")
		g.expr(depth + 1)
		if r.oneIn(3) {
			g.ws(" NOT BETWEEN ")
		} else {
			g.ws(" BETWEEN ")
		}
		g.expr(depth + 1)
		g.ws(" AND ")
		g.expr(depth + 1)
		g.ws(")")
	case nkIn:
		g.ws("(")
		g.expr(depth + 1)
		if r.oneIn(3) {
			g.ws(" NOT IN (")
		} else {
			g.ws(" IN (")
		}
		n := 1 + r.intn(3)
		if d.emptyIn && r.oneIn(12) {
			n = 0
		}
		for i := 0; i < n; i++ {
			if i > 0 {
				g.ws(", ")
			}
			g.expr(depth + 1)
		}
		g.ws("))")
	case nkCase:
		g.ws("(CASE")
		if r.prob(0.5) {
			g.ws(" ")
			g.expr(depth + 1)
		}
		for n := 1 + r.intn(2); n > 0; n-- {
			g.ws(" WHEN ")
			g.expr(depth + 1)
			g.ws(" THEN ")
			g.expr(depth + 1)
		}
		if r.prob(0.7) {
			g.ws(" ELSE ")
			g.expr(depth + 1)
		}
		g.ws(" END)")
	case nkCast:
		g.ws("(CAST(")
		g.expr(depth + 1)
		g.ws(" AS ")
		g.ws(pick(r, d.castTypes))
		g.ws("))")
	case nkCollate:
		g.ws("(")
		g.expr(depth + 1)
		g.ws(" COLLATE ")
		g.ws(pick(r, d.collations))
		g.ws(")")
	case nkConcat:
		g.binary(d.concat, depth)
	case nkBitwise:
		g.binary(pick(r, d.bitwise), depth)
	case nkFunc:
		f := pick(r, d.funcs)
		if g.noLike && f.name == "like" {
			f.name = "glob"
		}
		g.call(f, depth)
	case nkRow:
		if !d.rowValues {
			g.binary(pick(r, d.compare), depth)
			return
		}
		n := 2 + r.intn(2)
		g.ws("(")
		g.row(n, depth)
		switch k := r.intn(3); {
		case k == 0 && !d.noRowBetween:
			g.ws(" BETWEEN ")
			g.row(n, depth)
			g.ws(" AND ")
		case k == 1:
			g.ws(" ")
			g.ws(pick(r, d.isOps))
			g.ws(" ")
		default:
			g.ws(" ")
			g.ws(pick(r, d.compare))
			g.ws(" ")
		}
		g.row(n, depth)
		g.ws(")")
	}
}

func (g *exprGen) row(n, depth int) {
	g.ws("(")
	for i := 0; i < n; i++ {
		if i > 0 {
			g.ws(", ")
		}
		g.expr(depth + 1)
	}
	g.ws(")")
}

func (g *exprGen) call(f function, depth int) {
	r := g.r
	g.ws("(")
	g.ws(f.name)
	g.ws("(")
	n := f.min + r.intn(f.max-f.min+1)
	switch f.args {
	case argsLikelihood:
		g.expr(depth + 1)
		g.ws(", ")
		g.ws(pick(r, g.d.probs))
	case argsZeroblob:
		g.ws(r.smallInt(0, 20))
	case argsPrintf:
		g.ws(pick(r, g.d.printfFmts))
		for i := 1; i < n; i++ {
			g.ws(", ")
			g.expr(depth + 1)
		}
	default:
		for i := 0; i < n; i++ {
			if i > 0 {
				g.ws(", ")
			}
			g.expr(depth + 1)
		}
	}
	g.ws("))")
}

// leaf writes a column reference or a literal.
func (g *exprGen) leaf() {
	if len(g.cols) > 0 && g.r.prob(0.55) {
		g.ws(pick(g.r, g.cols))
		return
	}
	g.literal()
}

// literal writes a random literal of any kind.
func (g *exprGen) literal() {
	g.ws(randLiteral(g.r, g.d, affNone))
}

// randLiteral returns a random literal, biased towards the given affinity (affNone: any kind).
func randLiteral(r *rng, d *dialect, aff affinity) string {
	k := r.intn(100)
	if aff != affNone && k < 60 {
		switch aff {
		case affInteger, affNumeric:
			if aff == affNumeric && r.oneIn(3) {
				return randReal(r, d)
			}
			return randInt(r, d)
		case affText:
			return pick(r, d.texts)
		case affBlob:
			if r.oneIn(2) {
				return randBlob(r, d)
			}
			return randInt(r, d)
		case affReal:
			return randReal(r, d)
		}
	}
	switch {
	case k%100 < 30:
		return randInt(r, d)
	case k%100 < 45:
		return randReal(r, d)
	case k%100 < 70:
		return pick(r, d.texts)
	case k%100 < 80:
		return randBlob(r, d)
	case k%100 < 92:
		return "NULL"
	default:
		return pick(r, d.bools)
	}
}

func randInt(r *rng, d *dialect) string {
	if r.prob(0.5) {
		return pick(r, d.ints)
	}
	return r.smallInt(20, 100)
}

func randReal(r *rng, d *dialect) string {
	if r.prob(0.5) {
		return pick(r, d.reals)
	}
	return r.smallInt(10, 100) + "." + r.smallInt(0, 100)
}

const hexDigits = "0123456789abcdef"

func randBlob(r *rng, d *dialect) string {
	if r.prob(0.6) {
		return pick(r, d.blobs)
	}
	n := 1 + r.intn(4)
	b := make([]byte, 0, 3+2*n)
	b = append(b, "x'"...)
	for i := 0; i < 2*n; i++ {
		if d.utf8Blobs && i%2 == 0 {
			b = append(b, hexDigits[r.intn(8)]) // ASCII
		} else {
			b = append(b, hexDigits[r.intn(16)])
		}
	}
	return string(append(b, '\''))
}
