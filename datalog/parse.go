package datalog

import (
	"fmt"
	"strconv"
	"strings"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tNum
	tStr
	tDir
	tPunct
)

type token struct {
	kind tokKind
	text string // identifier, directive name, punctuation or number text
	str  string // unescaped value, for tStr
	pos  Pos
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tStr:
		return "string " + quote(t.str)
	case tDir:
		return "directive ." + t.text
	case tIdent:
		return "identifier " + t.text
	case tNum:
		return "number " + t.text
	}
	return "'" + t.text + "'"
}

// bail is the panic value used to unwind on the first error.
type bail struct{ err *Error }

type parser struct {
	file string
	src  string
	off  int
	line int
	col  int
	tok  token
}

func (p *parser) fail(pos Pos, format string, args ...any) {
	panic(bail{&Error{File: p.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) advance(n int) {
	for i := 0; i < n; i++ {
		if p.src[p.off] == '\n' {
			p.line++
			p.col = 1
		} else {
			p.col++
		}
		p.off++
	}
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// next scans the next token into p.tok.
func (p *parser) next() {
	for p.off < len(p.src) {
		c := p.src[p.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.advance(1)
			continue
		case strings.HasPrefix(p.src[p.off:], "//"):
			for p.off < len(p.src) && p.src[p.off] != '\n' {
				p.advance(1)
			}
			continue
		case strings.HasPrefix(p.src[p.off:], "/*"):
			pos := Pos{p.line, p.col}
			end := strings.Index(p.src[p.off+2:], "*/")
			if end < 0 {
				p.fail(pos, "unterminated block comment; close it with */")
			}
			p.advance(end + 4)
			continue
		}
		break
	}
	pos := Pos{p.line, p.col}
	if p.off >= len(p.src) {
		p.tok = token{kind: tEOF, pos: pos}
		return
	}
	s := p.src[p.off:]
	c := s[0]
	switch {
	case isLetter(c):
		n := 1
		for n < len(s) && (isLetter(s[n]) || isDigit(s[n])) {
			n++
		}
		p.tok = token{kind: tIdent, text: s[:n], pos: pos}
		p.advance(n)
	case isDigit(c) || c == '-' && len(s) > 1 && isDigit(s[1]):
		n := 1
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		if n < len(s) && isLetter(s[n]) {
			p.fail(pos, "malformed number %q; numbers are decimal integers", s[:n+1])
		}
		p.tok = token{kind: tNum, text: s[:n], pos: pos}
		p.advance(n)
	case c == '"':
		var b strings.Builder
		n := 1
		for {
			if n >= len(s) || s[n] == '\n' {
				p.fail(pos, "unterminated string; close it with \" on the same line")
			}
			if s[n] == '"' {
				n++
				break
			}
			if s[n] == '\\' {
				if n+1 < len(s) && (s[n+1] == '"' || s[n+1] == '\\') {
					b.WriteByte(s[n+1])
					n += 2
					continue
				}
				p.advance(n)
				p.fail(Pos{p.line, p.col}, "unknown escape in string; only \\\" and \\\\ are supported")
			}
			b.WriteByte(s[n])
			n++
		}
		p.tok = token{kind: tStr, str: b.String(), pos: pos}
		p.advance(n)
	case c == '.' && len(s) > 1 && isLetter(s[1]):
		n := 2
		for n < len(s) && (isLetter(s[n]) || isDigit(s[n])) {
			n++
		}
		p.tok = token{kind: tDir, text: s[1:n], pos: pos}
		p.advance(n)
	default:
		for _, op := range []string{":-", "!=", "<=", ">=", "(", ")", ",", ":", ".", "!", "=", "<", ">"} {
			if strings.HasPrefix(s, op) {
				p.tok = token{kind: tPunct, text: op, pos: pos}
				p.advance(len(op))
				return
			}
		}
		p.fail(pos, "unexpected character %q", rune(c))
	}
}

func (p *parser) is(punct string) bool { return p.tok.kind == tPunct && p.tok.text == punct }

func (p *parser) expect(punct, after string) {
	if !p.is(punct) {
		p.fail(p.tok.pos, "expected '%s' %s, found %s", punct, after, p.tok.describe())
	}
	p.next()
}

func (p *parser) ident(what string) token {
	if p.tok.kind != tIdent || p.tok.text == "_" {
		p.fail(p.tok.pos, "expected %s, found %s", what, p.tok.describe())
	}
	t := p.tok
	p.next()
	return t
}

type ioDirective struct {
	name   string
	output bool
	pos    Pos
}

// Parse parses src, the canonical text of a Datalog program named name,
// and checks it: relations are declared once and used with their arity
// and attribute types, heads hold no _, and every variable of a head, a
// negated atom or a constraint occurs in a positive body atom.
func Parse(name, src string) (prog *Program, err error) {
	p := &parser{file: name, src: src, line: 1, col: 1}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			prog, err = nil, b.err
		}
	}()
	prog = &Program{File: name}
	var ios []ioDirective
	p.next()
	for p.tok.kind != tEOF {
		if p.tok.kind == tDir {
			d := p.tok
			p.next()
			switch d.text {
			case "decl":
				prog.Relations = append(prog.Relations, p.decl())
			case "input", "output":
				n := p.ident("a relation name after ." + d.text)
				ios = append(ios, ioDirective{n.text, d.text == "output", n.pos})
				if p.is("(") {
					p.fail(p.tok.pos, "I/O parameters are not supported; write .%s %s alone", d.text, n.text)
				}
			default:
				p.fail(d.pos, "unknown directive .%s; supported: .decl, .input, .output", d.text)
			}
			continue
		}
		prog.Rules = append(prog.Rules, p.rule())
	}
	check(p, prog, ios)
	return prog, nil
}

func (p *parser) decl() Relation {
	n := p.ident("a relation name after .decl")
	r := Relation{Name: n.text, Pos: n.pos, Attrs: []Attr{}}
	p.expect("(", "after the relation name")
	for !p.is(")") {
		if len(r.Attrs) > 0 {
			p.expect(",", "between attributes")
		}
		a := p.ident("an attribute name")
		p.expect(":", "after attribute name")
		t := p.ident("an attribute type")
		var typ Type
		switch t.text {
		case "number":
			typ = Number
		case "symbol":
			typ = Symbol
		default:
			p.fail(t.pos, "unknown type %q; use number or symbol", t.text)
		}
		for _, b := range r.Attrs {
			if b.Name == a.text {
				p.fail(a.pos, "attribute %s of %s is declared twice; rename one", a.text, r.Name)
			}
		}
		r.Attrs = append(r.Attrs, Attr{a.text, typ})
	}
	p.next()
	return r
}

func (p *parser) rule() Rule {
	if p.is("!") {
		p.fail(p.tok.pos, "a rule head cannot be negated")
	}
	head := p.atom()
	r := Rule{Head: head, Pos: head.Pos}
	if p.is(":-") {
		p.next()
		for {
			p.literal(&r)
			if !p.is(",") {
				break
			}
			p.next()
		}
	}
	p.expect(".", "at the end of the rule")
	return r
}

func (p *parser) atom() Atom {
	n := p.ident("a relation name")
	a := Atom{Rel: n.text, Pos: n.pos, Args: []Term{}}
	p.expect("(", "after the relation name "+n.text)
	for !p.is(")") {
		if len(a.Args) > 0 {
			p.expect(",", "between arguments")
		}
		a.Args = append(a.Args, p.term())
	}
	p.next()
	return a
}

func (p *parser) term() Term {
	t := p.tok
	switch t.kind {
	case tIdent:
		p.next()
		if t.text == "_" {
			return Term{Kind: Anon, Pos: t.pos}
		}
		return Term{Kind: Var, Name: t.text, Pos: t.pos}
	case tNum:
		p.next()
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			p.fail(t.pos, "number %s is out of the int64 range", t.text)
		}
		return Term{Kind: Num, Num: v, Pos: t.pos}
	case tStr:
		p.next()
		return Term{Kind: Sym, Sym: t.str, Pos: t.pos}
	}
	p.fail(t.pos, "expected a variable, number or string, found %s", t.describe())
	panic("unreachable")
}

func (p *parser) literal(r *Rule) {
	if p.is("!") {
		pos := p.tok.pos
		p.next()
		a := p.atom()
		a.Negated, a.Pos = true, pos
		r.Body = append(r.Body, a)
		return
	}
	if p.tok.kind == tIdent && p.tok.text != "_" {
		save := *p
		p.next()
		isAtom := p.is("(")
		*p = save
		if isAtom {
			r.Body = append(r.Body, p.atom())
			return
		}
	}
	left := p.term()
	if p.tok.kind != tPunct {
		p.fail(p.tok.pos, "expected a comparison operator (=, !=, <, <=, >, >=), found %s", p.tok.describe())
	}
	op := Op(p.tok.text)
	switch op {
	case Eq, Ne, Lt, Le, Gt, Ge:
	default:
		p.fail(p.tok.pos, "expected a comparison operator (=, !=, <, <=, >, >=), found %s", p.tok.describe())
	}
	p.next()
	right := p.term()
	r.Constraints = append(r.Constraints, Constraint{Op: op, Left: left, Right: right, Pos: left.Pos})
}

// check performs the semantic checks of Parse.
func check(p *parser, prog *Program, ios []ioDirective) {
	byName := map[string]*Relation{}
	for i := range prog.Relations {
		r := &prog.Relations[i]
		if first, ok := byName[r.Name]; ok {
			p.fail(r.Pos, "relation %s is declared twice (first at %s); remove or rename one", r.Name, first.Pos)
		}
		byName[r.Name] = r
	}
	lookup := func(name string, pos Pos) *Relation {
		r := byName[name]
		if r == nil {
			names := make([]string, len(prog.Relations))
			for i, d := range prog.Relations {
				names[i] = d.Name
			}
			if len(names) == 0 {
				p.fail(pos, "unknown relation %q (no relations declared); declare it with .decl", name)
			}
			p.fail(pos, "unknown relation %q (declared: %s)", name, strings.Join(names, ", "))
		}
		return r
	}
	for _, d := range ios {
		r := lookup(d.name, d.pos)
		if d.output {
			r.Output = true
		} else {
			r.Input = true
		}
	}
	for _, r := range prog.Rules {
		checkRule(p, r, lookup)
	}
}

func checkRule(p *parser, r Rule, lookup func(string, Pos) *Relation) {
	types := map[string]Type{}
	checkAtom := func(a Atom, what string) {
		rel := lookup(a.Rel, a.Pos)
		if len(a.Args) != len(rel.Attrs) {
			p.fail(a.Pos, "%s %s has %d arguments, its declaration %d", what, a.Rel, len(a.Args), len(rel.Attrs))
		}
		for i, t := range a.Args {
			at := rel.Attrs[i]
			switch t.Kind {
			case Num, Sym:
				if typ := constType(t); typ != at.Type {
					p.fail(t.Pos, "%s constant %s in %s column %s of %s", typ, termString(t), at.Type, at.Name, a.Rel)
				}
			case Var:
				if prev, ok := types[t.Name]; ok && prev != at.Type {
					p.fail(t.Pos, "variable %s is used as %s and as %s (column %s of %s)", t.Name, prev, at.Type, at.Name, a.Rel)
				}
				types[t.Name] = at.Type
			}
		}
	}
	checkAtom(r.Head, "rule head")
	for _, a := range r.Body {
		checkAtom(a, "atom")
	}
	for _, t := range r.Head.Args {
		if t.Kind == Anon {
			p.fail(t.Pos, "_ in the head of %s; use a named variable bound in the body or a constant", r.Head.Rel)
		}
	}
	bound := map[string]bool{}
	for _, a := range r.Body {
		if !a.Negated {
			for _, t := range a.Args {
				if t.Kind == Var {
					bound[t.Name] = true
				}
			}
		}
	}
	for _, t := range r.Head.Args {
		if t.Kind == Var && !bound[t.Name] {
			p.fail(t.Pos, "variable %s in the head is not bound by a positive atom of the body", t.Name)
		}
	}
	for _, a := range r.Body {
		if a.Negated {
			for _, t := range a.Args {
				if t.Kind == Var && !bound[t.Name] {
					p.fail(t.Pos, "variable %s in a negated atom or a constraint is not bound by a positive atom of the body", t.Name)
				}
			}
		}
	}
	for _, c := range r.Constraints {
		var typs [2]Type
		for i, t := range [2]Term{c.Left, c.Right} {
			switch t.Kind {
			case Anon:
				p.fail(t.Pos, "_ in a constraint; use a variable bound by a positive atom")
			case Var:
				if !bound[t.Name] {
					p.fail(t.Pos, "variable %s in a negated atom or a constraint is not bound by a positive atom of the body", t.Name)
				}
				typs[i] = types[t.Name]
			default:
				typs[i] = constType(t)
			}
		}
		if typs[0] != typs[1] {
			p.fail(c.Pos, "constraint %s compares a %s with a %s", constraintString(c), typs[0], typs[1])
		}
	}
}

func constType(t Term) Type {
	if t.Kind == Num {
		return Number
	}
	return Symbol
}
