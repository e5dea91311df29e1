package datalog

import "strings"

// Valid reports whether p passes [Program.Check] (declared relations, arities, types, safety,
// stratification), deciding it on the IR without printing and parsing p: first what the parse
// of p's text would reject before its semantic checks (names that are not identifiers, terms,
// types and operators that do not print, symbols with a newline, negated heads, attributes
// declared twice), then Parse's semantic checks and [Program.Strata]. A variable named _, which
// reads back as the anonymous variable, leaves the decision to Check. It is the fast test of
// programs built in memory; Check names the problem.
func (p *Program) Valid() bool {
	for _, r := range p.Relations {
		if !isIdent(r.Name) {
			return false
		}
		for i, a := range r.Attrs {
			if !isIdent(a.Name) || a.Type != Number && a.Type != Symbol {
				return false
			}
			for _, b := range r.Attrs[:i] {
				if b.Name == a.Name {
					return false
				}
			}
		}
	}
	for _, r := range p.Rules {
		if r.Head.Negated || !printableAtom(r.Head) {
			return false
		}
		for _, a := range r.Body {
			if !printableAtom(a) {
				return false
			}
		}
		for _, c := range r.Constraints {
			switch c.Op {
			case Eq, Ne, Lt, Le, Gt, Ge:
			default:
				return false
			}
			if !printableTerm(c.Left) || !printableTerm(c.Right) {
				return false
			}
		}
	}
	if anonVars(p) {
		return programValid(p) == nil
	}
	if !semanticsValid(p) {
		return false
	}
	_, err := p.Strata()
	return err == nil
}

// semanticsValid runs Parse's semantic checks on p; p is not changed.
func semanticsValid(p *Program) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(bail); !is {
				panic(r)
			}
			ok = false
		}
	}()
	check(&parser{file: p.File}, p, nil)
	return true
}

// anonVars reports whether a variable of p is named _.
func anonVars(p *Program) bool {
	anon := func(ts []Term) bool {
		for _, t := range ts {
			if t.Kind == Var && t.Name == "_" {
				return true
			}
		}
		return false
	}
	for _, r := range p.Rules {
		if anon(r.Head.Args) {
			return true
		}
		for _, a := range r.Body {
			if anon(a.Args) {
				return true
			}
		}
		for _, c := range r.Constraints {
			if anon([]Term{c.Left, c.Right}) {
				return true
			}
		}
	}
	return false
}

// isIdent reports whether s reads back as one identifier token other than _.
func isIdent(s string) bool {
	if s == "" || s == "_" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// printableAtom reports whether a's relation name and arguments read back as they are.
func printableAtom(a Atom) bool {
	if !isIdent(a.Rel) {
		return false
	}
	for _, t := range a.Args {
		if !printableTerm(t) {
			return false
		}
	}
	return true
}

// printableTerm reports whether t reads back as the same term: a variable named by an
// identifier (or _, see Valid), a number, a symbol without a newline, or _.
func printableTerm(t Term) bool {
	switch t.Kind {
	case Var:
		return t.Name == "_" || isIdent(t.Name)
	case Sym:
		return !strings.Contains(t.Sym, "\n")
	case Num, Anon:
		return true
	}
	return false
}
