package datalog

import (
	"math"
	"strconv"
	"strings"
)

// Clingo is the dialect of the answer-set solver clingo (targets/clingo). A program becomes an
// ASP program whose unique answer set is the perfect model of the stratified program:
//
//   - relation r is the predicate r_r, variable x is the ASP variable Vx;
//   - negation is "not"; gringo reads _ inside a negated literal as a projection, so
//     not r(X, _) holds when no tuple has X first;
//   - numbers are clingo's integers, which have 32 bits: a constant outside that range is
//     unsupported ("number-range"); symbols are clingo strings whose characters are the
//     symbol's bytes (0-255) in UTF-8, so that clingo's byte-wise string order is the symbols'
//     byte order; clingo strings end at a NUL byte, so a symbol with one is unsupported
//     ("symbol-nul");
//   - relations without clauses are #defined; every tuple of an output relation r/N is shown as
//     the tuple ("r", X1, ..., XN), and nothing else is shown.
type Clingo struct{}

// Name returns "clingo".
func (Clingo) Name() string { return "clingo" }

// Translate returns p as an ASP program for targets/clingo and the decoder of its values, or an
// *Unsupported error for a constant clingo cannot hold.
func (Clingo) Translate(p *Program) (*Translation, error) {
	if err := clingoCheck(p); err != nil {
		return nil, err
	}
	var b strings.Builder
	defined := map[string]bool{}
	for _, r := range p.Rules {
		defined[r.Head.Rel] = true
		writeClingoAtom(&b, r.Head)
		sep := " :- "
		for _, a := range r.Body {
			b.WriteString(sep)
			sep = ", "
			if a.Negated {
				b.WriteString("not ")
			}
			writeClingoAtom(&b, a)
		}
		for _, c := range r.Constraints {
			b.WriteString(sep)
			sep = ", "
			writeClingoTerm(&b, c.Left)
			b.WriteString(" " + string(c.Op) + " ")
			writeClingoTerm(&b, c.Right)
		}
		b.WriteString(".\n")
	}
	for _, rel := range p.Relations {
		if !defined[rel.Name] {
			b.WriteString("#defined r_" + rel.Name + "/" + strconv.Itoa(len(rel.Attrs)) + ".\n")
		}
	}
	b.WriteString("#show.\n")
	for _, rel := range p.outputs() {
		a := outputAtom(rel, "")
		b.WriteString(`#show ("` + rel.Name + `",`)
		for i, t := range a.Args {
			if i > 0 {
				b.WriteByte(',')
			}
			writeClingoTerm(&b, t)
		}
		b.WriteString(") : ")
		writeClingoAtom(&b, a)
		b.WriteString(".\n")
	}
	return &Translation{Text: b.String(), Decode: decodeLatin1}, nil
}

// Script returns p's translation as base.lp and the clingo command line that prints its answer
// set (the PyPI wheel runs clingo's application as a Python module).
func (d Clingo) Script(p *Program, base string) (map[string]string, string, error) {
	return scriptFile(d, p, base+".lp", `"${POLYFUZZ_PYTHON:-python3}" -m clingo `+base+".lp")
}

// clingoCheck returns an *Unsupported error for the first constant of p that clingo cannot
// hold.
func clingoCheck(p *Program) error {
	for t := range p.Terms() {
		switch {
		case t.Kind == Num && (t.Num < math.MinInt32 || t.Num > math.MaxInt32):
			return &Unsupported{Engine: "clingo", Feature: "number-range",
				Detail: "constant " + strconv.FormatInt(t.Num, 10) + " is outside clingo's 32-bit integers"}
		case t.Kind == Sym && strings.IndexByte(t.Sym, 0) >= 0:
			return &Unsupported{Engine: "clingo", Feature: "symbol-nul",
				Detail: "symbol " + quote(t.Sym) + " holds a NUL byte, which ends a clingo string"}
		}
	}
	return nil
}

func writeClingoAtom(b *strings.Builder, a Atom) { writeAtom(b, a, ",", writeClingoTerm) }

func writeClingoTerm(b *strings.Builder, t Term) { writeTerm(b, t, writeClingoString) }

// writeClingoString writes s as a clingo string whose characters are the bytes of s.
func writeClingoString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(rune(c))
		}
	}
	b.WriteByte('"')
}
