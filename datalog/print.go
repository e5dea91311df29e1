package datalog

import (
	"strconv"
	"strings"
)

// String prints p in canonical form: the .decl lines, the .input and
// .output lines, the facts and then the other rules, one per line.
// Parsing the result gives a program equal to p when p lists its facts
// before its other rules.
func (p *Program) String() string {
	var b strings.Builder
	for _, r := range p.Relations {
		b.WriteString(".decl ")
		b.WriteString(r.Name)
		b.WriteByte('(')
		for i, a := range r.Attrs {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.Name)
			b.WriteString(": ")
			b.WriteString(a.Type.String())
		}
		b.WriteString(")\n")
	}
	for _, r := range p.Relations {
		if r.Input {
			b.WriteString(".input " + r.Name + "\n")
		}
	}
	for _, r := range p.Relations {
		if r.Output {
			b.WriteString(".output " + r.Name + "\n")
		}
	}
	for _, facts := range []bool{true, false} {
		for _, r := range p.Rules {
			if r.IsFact() == facts {
				b.WriteString(r.String())
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// String prints r as "head :- body, constraints." or, for a fact, "head.".
func (r Rule) String() string {
	var b strings.Builder
	b.WriteString(r.Head.String())
	sep := " :- "
	for _, a := range r.Body {
		b.WriteString(sep + a.String())
		sep = ", "
	}
	for _, c := range r.Constraints {
		b.WriteString(sep + constraintString(c))
		sep = ", "
	}
	b.WriteByte('.')
	return b.String()
}

// String prints a as "rel(arg, ...)", prefixed with "!" when negated.
func (a Atom) String() string {
	var b strings.Builder
	if a.Negated {
		b.WriteByte('!')
	}
	b.WriteString(a.Rel)
	b.WriteByte('(')
	for i, t := range a.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(termString(t))
	}
	b.WriteByte(')')
	return b.String()
}

// String prints t: a variable name, _, a decimal number or a quoted symbol.
func (t Term) String() string { return termString(t) }

func termString(t Term) string {
	switch t.Kind {
	case Var:
		return t.Name
	case Num:
		return strconv.FormatInt(t.Num, 10)
	case Sym:
		return quote(t.Sym)
	case Anon:
		return "_"
	}
	return "<invalid term>"
}

// String prints c as "left op right".
func (c Constraint) String() string { return constraintString(c) }

func constraintString(c Constraint) string {
	return termString(c.Left) + " " + string(c.Op) + " " + termString(c.Right)
}

var quoter = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// quote returns s in double quotes with " and \ escaped.
func quote(s string) string { return `"` + quoter.Replace(s) + `"` }
