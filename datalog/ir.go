package datalog

import (
	"fmt"
	"iter"
)

// Type is the type of a relation attribute. The zero value is invalid.
type Type int

// The attribute types.
const (
	Number Type = iota + 1 // signed 64-bit integer
	Symbol                 // string
)

// String returns the Soufflé name of t.
func (t Type) String() string {
	switch t {
	case Number:
		return "number"
	case Symbol:
		return "symbol"
	}
	return fmt.Sprintf("Type(%d)", int(t))
}

// Pos is a 1-based line and column position in the source text.
type Pos struct {
	Line, Col int
}

// String returns "line:col".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Attr is a named and typed attribute (column) of a relation.
type Attr struct {
	Name string
	Type Type
}

// Relation is a declared relation.
type Relation struct {
	Name   string
	Attrs  []Attr
	Input  bool // read from facts files (.input)
	Output bool // written as a result (.output)
	Pos    Pos
}

// TermKind tells what a Term is. The zero value is invalid.
type TermKind int

// The kinds of terms.
const (
	Var  TermKind = iota + 1 // a named variable
	Num                      // a number constant
	Sym                      // a symbol constant
	Anon                     // the anonymous variable _
)

// Term is an argument of an atom or an operand of a constraint.
type Term struct {
	Kind TermKind
	Name string // variable name, for Var
	Num  int64  // value, for Num
	Sym  string // value, for Sym
	Pos  Pos
}

// V returns the variable term named name.
func V(name string) Term { return Term{Kind: Var, Name: name} }

// N returns the number constant n.
func N(n int64) Term { return Term{Kind: Num, Num: n} }

// S returns the symbol constant s.
func S(s string) Term { return Term{Kind: Sym, Sym: s} }

// Any returns the anonymous variable _.
func Any() Term { return Term{Kind: Anon} }

// IsConst reports whether t is a number or symbol constant.
func (t Term) IsConst() bool { return t.Kind == Num || t.Kind == Sym }

// Atom is a relation applied to arguments, possibly negated in a body.
type Atom struct {
	Rel     string
	Args    []Term
	Negated bool
	Pos     Pos
}

// Op is a comparison operator of a constraint.
type Op string

// The comparison operators.
const (
	Eq Op = "="
	Ne Op = "!="
	Lt Op = "<"
	Le Op = "<="
	Gt Op = ">"
	Ge Op = ">="
)

// Constraint is a comparison between two terms in a rule body.
type Constraint struct {
	Op          Op
	Left, Right Term
	Pos         Pos
}

// Rule is a Horn clause Head :- Body, Constraints. A fact is a rule
// with no body atoms, no constraints and constant head arguments.
type Rule struct {
	Head        Atom
	Body        []Atom
	Constraints []Constraint
	Pos         Pos
}

// IsFact reports whether r has neither body atoms nor constraints.
func (r Rule) IsFact() bool { return len(r.Body) == 0 && len(r.Constraints) == 0 }

// Terms yields every term of r in order: the head's arguments, the body atoms', then each
// constraint's left and right.
func (r Rule) Terms() iter.Seq[Term] {
	return func(yield func(Term) bool) {
		for _, a := range append([]Atom{r.Head}, r.Body...) {
			for _, t := range a.Args {
				if !yield(t) {
					return
				}
			}
		}
		for _, c := range r.Constraints {
			if !yield(c.Left) || !yield(c.Right) {
				return
			}
		}
	}
}

// Terms yields every term of p's rules, rule by rule (Rule.Terms).
func (p *Program) Terms() iter.Seq[Term] {
	return func(yield func(Term) bool) {
		for _, r := range p.Rules {
			for t := range r.Terms() {
				if !yield(t) {
					return
				}
			}
		}
	}
}

// Program is a Datalog program.
type Program struct {
	File      string     // source name used in error messages
	Relations []Relation // in declaration order
	Rules     []Rule     // in source order
}

// Relation returns the relation named name, or nil.
func (p *Program) Relation(name string) *Relation {
	for i := range p.Relations {
		if p.Relations[i].Name == name {
			return &p.Relations[i]
		}
	}
	return nil
}

// Equal reports whether p and q hold the same relations and rules in
// the same order, ignoring positions and file names.
func (p *Program) Equal(q *Program) bool {
	if len(p.Relations) != len(q.Relations) || len(p.Rules) != len(q.Rules) {
		return false
	}
	for i, r := range p.Relations {
		s := q.Relations[i]
		if r.Name != s.Name || r.Input != s.Input || r.Output != s.Output || len(r.Attrs) != len(s.Attrs) {
			return false
		}
		for j := range r.Attrs {
			if r.Attrs[j] != s.Attrs[j] {
				return false
			}
		}
	}
	for i, r := range p.Rules {
		s := q.Rules[i]
		if !atomEqual(r.Head, s.Head) || len(r.Body) != len(s.Body) || len(r.Constraints) != len(s.Constraints) {
			return false
		}
		for j := range r.Body {
			if !atomEqual(r.Body[j], s.Body[j]) {
				return false
			}
		}
		for j, c := range r.Constraints {
			d := s.Constraints[j]
			if c.Op != d.Op || !termEqual(c.Left, d.Left) || !termEqual(c.Right, d.Right) {
				return false
			}
		}
	}
	return true
}

func atomEqual(a, b Atom) bool {
	if a.Rel != b.Rel || a.Negated != b.Negated || len(a.Args) != len(b.Args) {
		return false
	}
	for i := range a.Args {
		if !termEqual(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

func termEqual(a, b Term) bool {
	a.Pos, b.Pos = Pos{}, Pos{}
	return a == b
}

// Error is a positioned error in a program.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error returns "file:line:col: msg".
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Check reports whether p is a valid program: its text parses back (declared relations, arities,
// types, safe rules) and it is stratified.
func (p *Program) Check() error {
	if p.Valid() {
		return nil
	}
	return programValid(p)
}

// Clone returns a deep copy of p.
func (p *Program) Clone() *Program { return cloneProgram(p) }
