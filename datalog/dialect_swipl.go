package datalog

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SWIProlog is the dialect of SWI-Prolog with tabling (targets/swipl). A program becomes
// Prolog text:
//
//   - relation r is the predicate r_r, variable x is the Prolog variable Vx;
//   - every relation with a rule that has a body is tabled (:- table r_r/N), which gives its
//     least fixpoint with set semantics; one without clauses is declared dynamic, so that a call
//     fails instead of raising an existence error;
//   - a body lists its positive atoms in order and places every negation (\+) and constraint
//     right after the atoms that bind its variables. \+ over a tabled call of a lower stratum
//     completes that call's table first, which is stratified negation; _ inside it is an
//     unnamed variable, so \+ r(X, _) holds when no tuple has X first;
//   - numbers are integers compared arithmetically (=:=, =\=, <, =<, >, >=); symbols are quoted
//     atoms whose character codes are the symbol's bytes (0-255), compared with ==, \== and the
//     standard order (@<, @=<, @>, @>=), which orders atoms by character code and so by bytes;
//   - row([name, V1, ...]) holds for every tuple of every output relation.
//
// No feature is unsupported.
type SWIProlog struct{}

// Name returns "swipl".
func (SWIProlog) Name() string { return "swipl" }

// Translate returns p as a Prolog program for targets/swipl and the decoder of its values.
func (SWIProlog) Translate(p *Program) (*Translation, error) {
	var b strings.Builder
	derived, defined := map[string]bool{}, map[string]bool{}
	for _, r := range p.Rules {
		defined[r.Head.Rel] = true
		if !r.IsFact() {
			derived[r.Head.Rel] = true
		}
	}
	for _, rel := range p.Relations {
		var decl string
		switch {
		case derived[rel.Name]:
			decl = ":- table "
		case !defined[rel.Name]:
			decl = ":- dynamic "
		default:
			continue
		}
		b.WriteString(decl + "r_" + rel.Name + "/" + strconv.Itoa(len(rel.Attrs)) + ".\n")
	}
	outputs := p.outputs()
	if len(outputs) == 0 {
		b.WriteString(":- dynamic row/1.\n")
	}
	// Clauses are grouped by relation, as Prolog expects.
	for _, rel := range p.Relations {
		for _, r := range p.Rules {
			if r.Head.Rel == rel.Name {
				writePrologRule(&b, p, r)
			}
		}
	}
	for _, rel := range outputs {
		a := outputAtom(rel, "A")
		b.WriteString("row([")
		writePrologAtomName(&b, rel.Name)
		for _, t := range a.Args {
			b.WriteString(", ")
			writePrologTerm(&b, t)
		}
		b.WriteString("]) :- ")
		writePrologAtom(&b, a)
		b.WriteString(".\n")
	}
	return &Translation{Text: b.String(), Decode: decodeLatin1}, nil
}

// Script returns p's translation as base.pl and the swipl command line that prints each row.
func (d SWIProlog) Script(p *Program, base string) (map[string]string, string, error) {
	return scriptFile(d, p, base+".pl", "swipl -q -g 'forall(row(R), (print(R), nl))' -t halt "+base+".pl")
}

// writePrologRule writes r as a clause whose body binds variables before negations and
// constraints use them.
func writePrologRule(b *strings.Builder, p *Program, r Rule) {
	writePrologAtom(b, r.Head)
	if r.IsFact() {
		b.WriteString(".\n")
		return
	}
	types := map[string]Type{}
	for _, a := range r.Body {
		attrs := p.Relation(a.Rel).Attrs
		for i, t := range a.Args {
			if t.Kind == Var {
				types[t.Name] = attrs[i].Type
			}
		}
	}
	// Each pending goal is a negated atom or a constraint, written once its variables are bound.
	type goal struct {
		vars  []string
		write func()
	}
	var pending []goal
	for _, a := range r.Body {
		if a.Negated {
			pending = append(pending, goal{termVars(a.Args), func() {
				b.WriteString(`\+ `)
				writePrologAtom(b, a)
			}})
		}
	}
	for _, c := range r.Constraints {
		pending = append(pending, goal{termVars([]Term{c.Left, c.Right}), func() { writePrologConstraint(b, c, types) }})
	}
	bound := map[string]bool{}
	sep := " :- "
	flush := func() {
		rest := pending[:0]
		for _, g := range pending {
			ready := true
			for _, v := range g.vars {
				ready = ready && bound[v]
			}
			if !ready {
				rest = append(rest, g)
				continue
			}
			b.WriteString(sep)
			sep = ", "
			g.write()
		}
		pending = rest
	}
	flush()
	for _, a := range r.Body {
		if a.Negated {
			continue
		}
		b.WriteString(sep)
		sep = ", "
		writePrologAtom(b, a)
		for _, v := range termVars(a.Args) {
			bound[v] = true
		}
		flush()
	}
	b.WriteString(".\n")
}

// termVars returns the names of the named variables among ts.
func termVars(ts []Term) []string {
	var vs []string
	for _, t := range ts {
		if t.Kind == Var {
			vs = append(vs, t.Name)
		}
	}
	return vs
}

var (
	prologNumberOps = map[Op]string{Eq: "=:=", Ne: `=\=`, Lt: "<", Le: "=<", Gt: ">", Ge: ">="}
	prologSymbolOps = map[Op]string{Eq: "==", Ne: `\==`, Lt: "@<", Le: "@=<", Gt: "@>", Ge: "@>="}
)

func writePrologConstraint(b *strings.Builder, c Constraint, types map[string]Type) {
	typ := types[c.Left.Name]
	if c.Left.IsConst() {
		typ = constType(c.Left)
	}
	ops := prologNumberOps
	if typ == Symbol {
		ops = prologSymbolOps
	}
	writePrologTerm(b, c.Left)
	b.WriteString(" " + ops[c.Op] + " ")
	writePrologTerm(b, c.Right)
}

func writePrologAtom(b *strings.Builder, a Atom) { writeAtom(b, a, ", ", writePrologTerm) }

func writePrologTerm(b *strings.Builder, t Term) { writeTerm(b, t, writePrologAtomName) }

// writePrologAtomName writes s as a quoted atom whose character codes are the bytes of s.
func writePrologAtomName(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= ' ' && c <= '~':
			b.WriteByte(c)
		default:
			b.WriteString(`\x`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			b.WriteByte('\\')
		}
	}
	b.WriteByte('\'')
}

// decodeLatin1 decodes a value printed by an engine that holds every byte of a symbol as the
// character with that code and prints characters in UTF-8.
func decodeLatin1(typ Type, raw string) (string, error) {
	if typ == Number {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return "", err
		}
		return Canonical(N(n)), nil
	}
	if !utf8.ValidString(raw) {
		return "", errors.New("symbol is not valid UTF-8")
	}
	b := make([]byte, 0, len(raw))
	for _, r := range raw {
		if r > 0xff {
			return "", errors.New("symbol holds a character above code 255, which no translated symbol has")
		}
		b = append(b, byte(r))
	}
	return Canonical(S(string(b))), nil
}

// The helpers below serve the dialects that name relation r as r_r and variable x as Vx
// (SWIProlog, Clingo).

// writeAtom writes a as r_REL(ARGS), its arguments written by term and separated by sep, or as
// r_REL when it has none.
func writeAtom(b *strings.Builder, a Atom, sep string, term func(*strings.Builder, Term)) {
	b.WriteString("r_" + a.Rel)
	if len(a.Args) == 0 {
		return
	}
	b.WriteByte('(')
	for i, t := range a.Args {
		if i > 0 {
			b.WriteString(sep)
		}
		term(b, t)
	}
	b.WriteByte(')')
}

// writeTerm writes variable x as Vx, _ as _, a number in decimal and a symbol with sym.
func writeTerm(b *strings.Builder, t Term, sym func(*strings.Builder, string)) {
	switch t.Kind {
	case Var:
		b.WriteString("V" + t.Name)
	case Anon:
		b.WriteByte('_')
	case Num:
		b.WriteString(strconv.FormatInt(t.Num, 10))
	case Sym:
		sym(b, t.Sym)
	}
}

// outputAtom returns the atom of rel whose arguments are the variables prefix0, prefix1, ...
func outputAtom(rel *Relation, prefix string) Atom {
	args := make([]Term, len(rel.Attrs))
	for i := range args {
		args[i] = V(prefix + strconv.Itoa(i))
	}
	return Atom{Rel: rel.Name, Args: args}
}

// scriptFile returns d's translation of p as the one file name and cmd, the command line that
// runs it.
func scriptFile(d Dialect, p *Program, name, cmd string) (map[string]string, string, error) {
	tr, err := d.Translate(p)
	if err != nil {
		return nil, "", err
	}
	return map[string]string{name: tr.Text}, cmd, nil
}
