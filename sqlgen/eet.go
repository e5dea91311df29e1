package sqlgen

import (
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// This file rewrites expression text into equivalent expression text by the rule families of
// equivalent expression transformation (EET, Jiang and Su, OSDI 2024). With a fresh predicate p,
// T(p) = (p OR (NOT p) OR (p IS NULL)) is always true and F(p) = (p AND (NOT p) AND (p IS NOT
// NULL)) always false, so an expression e may become:
//
//	R1 (F(p) OR e)                               where only e's truth value matters
//	R2 (T(p) AND e)                              where only e's truth value matters
//	R3 (CASE WHEN F(p) THEN d ELSE e END)        d: a dead value of e's static type
//	R4 (CASE WHEN T(p) THEN e ELSE d END)
//	R5 (CASE WHEN TRUE THEN e ELSE e END)
//	R6 (CASE WHEN FALSE THEN e ELSE e END)
//
// The text does not say e's static type, so the dead value d is a copy of e (the published
// fallback), except where only a truth value matters, where it is a Boolean literal. Sites are
// the parenthesized sub-expressions the generator prints (a compound expression always has its
// own parentheses), found by balanced parentheses, so that the rewrite is a deterministic function
// of the text, the seed and p: the reducer shrinks the text and renders the rewrite again.
//
// Where a rewrite is safe depends on the dialect. In a typed dialect (PostgreSQL, MySQL, DuckDB)
// a CASE whose branches are all e has e's type, so every expression position is a site. SQLite
// has no static types but affinities and collations, which a column carries through unary + and
// which a CASE drops, so a CASE around a comparison operand changes the comparison: in SQLite the
// sites are the positions where only the value (operands of arithmetic, bitwise and concatenation
// operators, of unary - and ~, an output column, an assigned value) or only the truth value (the
// predicate, operands of AND, OR and NOT) matters.

// eetCtx is what the position of a site asks of the expression there.
type eetCtx uint8

const (
	ctxNone  eetCtx = iota // not a site: the rewrite might change the meaning
	ctxValue               // the value matters, not its affinity or collation
	ctxBool                // only the truth value matters
)

// eetSiteOdds is the chance, out of 100, that an inner site is rewritten (the root always is).
const eetSiteOdds = 35

// eetRewrite returns text with its root (in the given context) and, with inner, some of its
// sub-expressions rewritten by the EET rules, chosen by seed, with fresh predicate p. Text whose
// parentheses do not balance comes back unchanged.
func (d *dialect) eetRewrite(text string, root eetCtx, seed uint64, p string, inner bool) string {
	toks := tokenize(text)
	match, ok := matchParens(toks)
	if !ok || len(toks) == 0 || p == "" {
		return text
	}
	w := eetWriter{d: d, s: text, toks: toks, match: match, seed: seed, inner: inner,
		t: "(" + p + " OR (NOT " + p + ") OR (" + p + " IS NULL))",
		f: "(" + p + " AND (NOT " + p + ") AND (" + p + " IS NOT NULL))"}
	w.trueLit, w.falseLit = "TRUE", "FALSE"
	if d.typed != nil {
		w.trueLit, w.falseLit = d.typed.trueLit, d.typed.falseLit
	}
	par := w.classify(0, len(toks))
	if toks[0].kind == tkOpen && match[0] == len(toks)-1 && !isList(text, toks, match, 0) {
		// The text is one parenthesized expression: the root itself.
		par = parRootValue
		if root == ctxBool {
			par = parRootBool
		}
	}
	rewritten := w.rangeText(0, len(toks), par)
	return w.wrap(text, rewritten, root, true)
}

type eetWriter struct {
	d                 *dialect
	s                 string
	toks              []token
	match             map[int]int
	seed              uint64
	inner             bool // rewrite sites below the root
	site              uint64
	t, f              string
	trueLit, falseLit string
}

// parent kinds: how an expression uses its top-level operands.
type eetParent uint8

const (
	parOther     eetParent = iota
	parLogic               // AND, OR
	parNot                 // prefix NOT
	parArith               // arithmetic, bitwise, concatenation, unary - and ~
	parList                // a function's arguments, an IN list, a row
	parRootValue           // the root, an output or assigned value, in parentheses
	parRootBool            // the root, a predicate, in parentheses
)

// classify says how the expression made of toks[i:j] uses its top-level operands.
func (w *eetWriter) classify(i, j int) eetParent {
	logic, between, kw, ops, badOp := false, false, false, 0, false
	for k := i; k < j; k++ {
		t := w.toks[k]
		switch t.kind {
		case tkOpen:
			k = w.match[k]
		case tkWord:
			u := strings.ToUpper(w.s[t.s:t.e])
			switch u {
			case "AND", "OR":
				logic = true
			case "BETWEEN":
				between = true
			}
			if isKeywordish(u) || u == "DIV" || u == "MOD" || u == "XOR" {
				kw = true
			}
		case tkOp:
			ops++
			switch w.s[t.s:t.e] {
			case "+":
				badOp = badOp || k == i // unary + keeps a column's collation
			case "-", "*", "/", "%", "&", "|", "<<", ">>", "||", "~":
			default:
				badOp = true
			}
		}
	}
	switch {
	case between:
		return parOther
	case logic:
		return parLogic
	case j > i && w.toks[i].kind == tkWord && strings.EqualFold(w.s[w.toks[i].s:w.toks[i].e], "NOT"):
		return parNot
	case ops > 0 && !badOp && !kw:
		return parArith
	}
	return parOther
}

// childCtx is the context of a parenthesized operand of a parent of kind par.
func (w *eetWriter) childCtx(par eetParent) eetCtx {
	switch par {
	case parLogic, parNot, parRootBool:
		return ctxBool
	case parArith, parRootValue:
		return ctxValue
	}
	if w.d.typed != nil {
		return ctxValue
	}
	return ctxNone
}

// rangeText returns the text of toks[i:j] with its sites rewritten; par says how the expression
// they make up uses its operands.
func (w *eetWriter) rangeText(i, j int, par eetParent) string {
	if i >= j {
		return ""
	}
	var b strings.Builder
	prev := w.toks[i].s
	for k := i; k < j; k++ {
		t := w.toks[k]
		b.WriteString(w.s[prev:t.s])
		if t.kind != tkOpen {
			b.WriteString(w.s[t.s:t.e])
			prev = t.e
			continue
		}
		m := w.match[k]
		list := isList(w.s, w.toks, w.match, k)
		inPar := parList
		if !list {
			inPar = w.classify(k+1, m)
		}
		var g strings.Builder
		g.WriteByte('(')
		if k+1 < m {
			g.WriteString(w.s[t.e:w.toks[k+1].s])
			g.WriteString(w.rangeText(k+1, m, inPar))
			g.WriteString(w.s[w.toks[m-1].e:w.toks[m].s])
		} else {
			g.WriteString(w.s[t.e:w.toks[m].s])
		}
		g.WriteByte(')')
		ctx := ctxNone
		if !list && (w.d.typed == nil || w.hasColumn(k, m)) {
			ctx = w.childCtx(par)
		}
		if ctx == ctxNone {
			b.WriteString(g.String())
		} else {
			b.WriteString(w.wrap(w.s[t.s:w.toks[m].e], g.String(), ctx, false))
		}
		prev = w.toks[m].e
		k = m
	}
	return b.String()
}

// hasColumn reports whether toks[i:j] hold a column reference (a qualified name). In a typed
// dialect an expression without one may have a literal's flexible type, which a CASE fixes:
// PostgreSQL reads (” COLLATE "C") as unknown, to be resolved by its context (NULLIF(c, ”) is
// bpchar for a CHAR column), but a CASE of unknowns as text; DuckDB's integer literals adapt to
// the other operand, a CASE of them is INTEGER. Such constant sites are left alone.
func (w *eetWriter) hasColumn(i, j int) bool {
	for k := i; k < j; k++ {
		if t := w.toks[k]; t.kind == tkWord && strings.Contains(w.s[t.s:t.e], ".") {
			return true
		}
	}
	return false
}

// wrap returns a site's rewrite: orig is its text, inner the text with its own sites rewritten
// (the live copy). A site other than the root is left as inner unless the seed picks it.
func (w *eetWriter) wrap(orig, inner string, ctx eetCtx, root bool) string {
	w.site++
	h := fuzz.Mix(w.seed ^ fuzz.Mix(w.site*0x9e3779b97f4a7c15))
	if !root && (!w.inner || h%100 >= eetSiteOdds) {
		return inner
	}
	rules := 4 // R3 to R6
	if ctx == ctxBool {
		rules = 6
	}
	dead := orig
	if ctx == ctxBool {
		dead = w.falseLit
		if h>>40&1 == 1 {
			dead = w.trueLit
		}
	}
	switch (h >> 8) % uint64(rules) {
	case 0:
		return "(CASE WHEN " + w.f + " THEN " + dead + " ELSE " + inner + " END)"
	case 1:
		return "(CASE WHEN " + w.t + " THEN " + inner + " ELSE " + dead + " END)"
	case 2:
		return "(CASE WHEN " + w.trueLit + " THEN " + inner + " ELSE " + orig + " END)"
	case 3:
		return "(CASE WHEN " + w.falseLit + " THEN " + orig + " ELSE " + inner + " END)"
	case 4:
		return "(" + w.f + " OR " + inner + ")"
	default:
		return "(" + w.t + " AND " + inner + ")"
	}
}

// splitTop splits a comma-separated list at its top-level commas.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for _, t := range tokenize(s) {
		switch t.kind {
		case tkOpen:
			depth++
		case tkClose:
			depth--
		case tkComma:
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:t.s]))
				start = t.e
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// eetList rewrites each item of a select list as an output value, with seeds derived from seed.
func (d *dialect) eetList(list string, seed uint64, p string, inner bool) string {
	items := splitTop(list)
	for i, it := range items {
		items[i] = d.eetRewrite(it, ctxValue, fuzz.Mix(seed+uint64(i)+1), p, inner)
	}
	return strings.Join(items, ", ")
}
