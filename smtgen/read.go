package smtgen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/polyfuzz/polyfuzz/sexpr"
)

// SyntaxError is an error of the SMT-LIB reader, at a 1-based line and column (the column counts
// characters, not bytes). The caller adds the file name.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

// Error returns "line L, column C: msg".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// ParseScript reads a whole SMT-LIB v2.6 script; errors are *[SyntaxError]. Commands it does not
// model (declare-datatypes, define-funs-rec, check-sat-using, echo, get-info, solver-specific
// ones...) keep their arguments as normalised text in [Command.Raw]: comments dropped, one space
// between list elements, |quoted| symbols that need no bars written without. So do modelled
// commands (assert, define-fun...) that use a construct the AST cannot hold: match, symbolic
// indices other than the tester (_ is C), non-standard atoms such as cvc5's rational 1/4,
// options after simplify's term; check Raw before Terms. (push) and (pop) read as Arity 1 and (declare-sort s)
// as Arity 0; the printer writes the number, so the round trip equates them. Besides the
// commands of SMT-LIB, define-const x S t is modelled like define-fun (Symbol, Sort, Terms=[t])
// and simplify t and eval t like assert. Reading stops after (exit), the last command of the
// result: what follows it is not read, so it need not parse. Names and literals share memory with
// src.
func ParseScript(src string) (*Script, error) {
	p := newScriptParser(src)
	s := &Script{}
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		if tok.kind == tEOF {
			return s, nil
		}
		if tok.kind != tLParen {
			if tok.kind == tRParen {
				return nil, p.errAt(tok.pos, "unexpected ')'")
			}
			return nil, p.errAt(tok.pos, "expected '(' to start a command, found "+tok.describe())
		}
		c, err := p.command(tok.pos)
		if err != nil {
			return nil, p.public(err)
		}
		s.Commands = append(s.Commands, c)
		if c.Name == "exit" {
			return s, nil
		}
	}
}

// ParseTerm reads a single SMT-LIB term (comments and surrounding white space allowed). A
// symbolic index other than the tester's (_ is C) is reported as an error beginning with
// "unsupported:".
func ParseTerm(src string) (*Term, error) {
	return parseOne(src, (*scriptParser).term)
}

// ParseSort reads a single SMT-LIB sort.
func ParseSort(src string) (*Sort, error) {
	return parseOne(src, (*scriptParser).sort)
}

// parseOne reads src as exactly one thing that read reads.
func parseOne[T any](src string, read func(*scriptParser) (T, error)) (T, error) {
	p := newScriptParser(src)
	v, err := read(p)
	if err == nil {
		err = p.expectEOF()
	}
	if err != nil {
		var zero T
		return zero, p.public(err)
	}
	return v, nil
}

// ---- lexer ----

type tokKind uint8

const (
	tEOF     tokKind = iota
	tLParen          // (
	tRParen          // )
	tSymbol          // text: the symbol
	tQSymbol         // text: the symbol without its bars
	tKeyword         // text: the keyword with its colon
	tNumeral         // text: the digits
	tDecimal         // text: the literal
	tHex             // text: the digits after #x
	tBinary          // text: the digits after #b
	tString          // text: the content between the quotes, "" escapes not undone
	tOdd             // text: a digit followed by symbol characters (1/4, 12ab), kept only in Raw
)

type smtToken struct {
	kind     tokKind
	pos, end int // byte offsets of the token in the source
	text     string
}

func (t smtToken) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tLParen:
		return "'('"
	case tRParen:
		return "')'"
	case tKeyword:
		return "keyword " + t.text
	case tNumeral, tDecimal:
		return "literal " + t.text
	case tHex:
		return "literal #x" + t.text
	case tBinary:
		return "literal #b" + t.text
	case tString:
		return "string literal"
	case tOdd:
		return "non-standard atom " + t.text
	}
	return "symbol " + quoteSymbol(t.text)
}

// isSym reports whether t is the unquoted symbol s (reserved words only count unquoted).
func (t smtToken) isSym(s string) bool { return t.kind == tSymbol && t.text == s }

// isName reports whether t can name a function, variable or sort: a symbol that is not an
// unquoted reserved word.
func (t smtToken) isName() bool {
	return t.kind == tQSymbol || (t.kind == tSymbol && !isReserved(t.text))
}

var symChar = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "~!@$%^&*_-+=<>.?/" {
		t[c] = true
	}
	return
}()

type parseFrameKind uint8

const (
	frApp       parseFrameKind = iota // collecting Args until ')'
	frLetBind                         // waiting for the term of the binding named name
	frLetBody                         // waiting for the body of a let
	frQuantBody                       // waiting for the body of a quantifier
	frAnnot                           // waiting for the annotated term
	frMatchTerm                       // waiting for the matched term of a match
	frMatchCase                       // waiting for the body of a match case
)

type parseFrame struct {
	kind     parseFrameKind
	t        *Term
	name     string
	argStart int // frApp: where the arguments start in scriptParser.args
}

type scriptParser struct {
	src      string
	sc       sexpr.Scanner
	la       smtToken // lookahead, valid when hasLA
	hasLA    bool
	cmdStart int // offset of the '(' of the command being read, -1 outside commands
	stack    []parseFrame
	args     []*Term // arguments of the open applications, innermost last
	sb       strings.Builder
}

func newScriptParser(src string) *scriptParser {
	p := &scriptParser{src: src, cmdStart: -1}
	p.sc.Reset(src)
	return p
}

// newTerm returns a pointer to a copy of t.
func (p *scriptParser) newTerm(t Term) *Term { return &t }

// isReserved reports reserved[s], faster.
func isReserved(s string) bool {
	switch s {
	case "BINARY", "DECIMAL", "HEXADECIMAL", "NUMERAL", "STRING", "_", "!", "as", "let", "exists", "forall", "match", "par":
		return true
	}
	return false
}

// errAt returns a *SyntaxError at byte offset off.
func (p *scriptParser) errAt(off int, msg string) *SyntaxError {
	line, col := lineColAt(p.src, off)
	if off >= len(p.src) && strings.HasPrefix(msg, "unexpected end of input") && p.cmdStart >= 0 {
		l, _ := lineColAt(p.src, p.cmdStart)
		msg += fmt.Sprintf(" (missing ')' for the command at line %d)", l)
	}
	return &SyntaxError{Line: line, Col: col, Msg: msg}
}

// unsupportedError is well-formed input that the AST cannot hold; commands fall back to Raw on
// it. Its position is turned into a line and column only if it escapes (see public), as commands
// meet it often.
type unsupportedError struct {
	off  int
	what string
}

func (e *unsupportedError) Error() string { return "unsupported: " + e.what }

// unsupported returns an *unsupportedError at byte offset off.
func (p *scriptParser) unsupported(off int, what string) error {
	return &unsupportedError{off, what}
}

// public turns an *unsupportedError into a *SyntaxError.
func (p *scriptParser) public(err error) error {
	if u, ok := err.(*unsupportedError); ok {
		return p.errAt(u.off, u.Error())
	}
	return err
}

func lineColAt(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	prefix := src[:off]
	line = 1 + strings.Count(prefix, "\n")
	if i := strings.LastIndexByte(prefix, '\n'); i >= 0 {
		prefix = prefix[i+1:]
	}
	return line, 1 + utf8.RuneCountInString(prefix)
}

// seek moves the lexer back (or forward) to byte offset off, dropping the lookahead.
func (p *scriptParser) seek(off int) {
	p.sc.Seek(off)
	p.hasLA = false
}

func (p *scriptParser) peek() (smtToken, error) {
	if !p.hasLA {
		t, err := p.scan()
		if err != nil {
			return t, err
		}
		p.la, p.hasLA = t, true
	}
	return p.la, nil
}

func (p *scriptParser) next() (smtToken, error) {
	if p.hasLA {
		p.hasLA = false
		return p.la, nil
	}
	return p.scan()
}

// scan reads the next token. Package sexpr splits the input; an atom is then read as SMT-LIB's
// lexemes: a symbol, keyword, numeral, decimal or #x/#b literal ends at the first character that
// cannot continue it, and scanning goes on from there (so "x#b01" is two tokens, and "x,y" an
// error at the comma).
func (p *scriptParser) scan() (smtToken, error) {
	t, err := p.sc.Next()
	if err != nil {
		e := err.(*sexpr.Error)
		return smtToken{}, p.errAt(e.Pos, e.Msg)
	}
	src, i := p.src, t.Pos
	switch t.Kind {
	case sexpr.EOF:
		return smtToken{kind: tEOF, pos: i, end: i}, nil
	case sexpr.Open:
		return smtToken{kind: tLParen, pos: i, end: t.End}, nil
	case sexpr.Close:
		return smtToken{kind: tRParen, pos: i, end: t.End}, nil
	case sexpr.String:
		return smtToken{kind: tString, pos: i, end: t.End, text: src[i+1 : t.End-1]}, nil
	case sexpr.Quoted:
		return smtToken{kind: tQSymbol, pos: i, end: t.End, text: src[i+1 : t.End-1]}, nil
	}
	tok, err := p.lexeme(i, t.End)
	if err != nil {
		return smtToken{}, err
	}
	p.sc.Seek(tok.end)
	return tok, nil
}

// lexeme reads the SMT-LIB lexeme at the start of the atom src[i:end].
func (p *scriptParser) lexeme(i, end int) (smtToken, error) {
	src := p.src[:end]
	c := src[i]
	tok := smtToken{pos: i}
	switch {
	case c == ':':
		j := i + 1
		for j < len(src) && symChar[src[j]] {
			j++
		}
		if j == i+1 {
			return smtToken{}, p.errAt(i, "empty keyword")
		}
		tok.kind, tok.end, tok.text = tKeyword, j, src[i:j]
	case c == '#':
		if i+1 >= len(src) || (src[i+1] != 'x' && src[i+1] != 'b') {
			return smtToken{}, p.errAt(i, "bad literal: '#' must start #x or #b")
		}
		j := i + 2
		if src[i+1] == 'x' {
			for j < len(src) && isHexDigit(src[j]) {
				j++
			}
			tok.kind = tHex
		} else {
			for j < len(src) && (src[j] == '0' || src[j] == '1') {
				j++
			}
			tok.kind = tBinary
		}
		what := "hexadecimal"
		if tok.kind == tBinary {
			what = "binary"
		}
		if j == i+2 {
			return smtToken{}, p.errAt(i, "bad "+what+" literal: no digits after "+src[i:i+2])
		}
		if j < len(src) && symChar[src[j]] {
			return smtToken{}, p.errAt(i, "bad "+what+" literal: unexpected "+strconv.QuoteRune(rune(src[j]))+" after the digits")
		}
		tok.end, tok.text = j, src[i+2:j]
	case c >= '0' && c <= '9':
		j := i + 1
		for j < len(src) && src[j] >= '0' && src[j] <= '9' {
			j++
		}
		tok.kind = tNumeral
		if j < len(src) && src[j] == '.' {
			k := j + 1
			for k < len(src) && src[k] >= '0' && src[k] <= '9' {
				k++
			}
			if k > j+1 {
				j, tok.kind = k, tDecimal
			}
		}
		if j < len(src) && symChar[src[j]] {
			// Not SMT-LIB, but some solvers read 1/4 or 1.5e3: an atom that only Raw can keep.
			for j < len(src) && symChar[src[j]] {
				j++
			}
			tok.kind = tOdd
		}
		tok.end, tok.text = j, src[i:j]
	case symChar[c]:
		j := i + 1
		for j < len(src) && symChar[src[j]] {
			j++
		}
		tok.kind, tok.end, tok.text = tSymbol, j, src[i:j]
	default:
		r, _ := utf8.DecodeRuneInString(p.src[i:])
		return smtToken{}, p.errAt(i, "unexpected character "+strconv.QuoteRune(r))
	}
	return tok, nil
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// decodeString undoes the "" escapes of a string literal's content.
func decodeString(s string) string {
	if strings.Contains(s, `""`) {
		return strings.ReplaceAll(s, `""`, `"`)
	}
	return s
}

func (p *scriptParser) expectEOF() error {
	tok, err := p.next()
	if err != nil {
		return err
	}
	if tok.kind != tEOF {
		return p.errAt(tok.pos, "unexpected "+tok.describe()+" after the end")
	}
	return nil
}

// expect reads a token of kind k (tLParen or tRParen).
func (p *scriptParser) expect(k tokKind, context string) error {
	tok, err := p.next()
	if err != nil {
		return err
	}
	if tok.kind != k {
		return p.unexpected(tok, map[tokKind]string{tLParen: "'('", tRParen: "')'"}[k], context)
	}
	return nil
}

// unexpected returns the error for tok where want was expected.
func (p *scriptParser) unexpected(tok smtToken, want, context string) error {
	if context != "" {
		want += " " + context
	}
	if tok.kind == tEOF {
		return p.errAt(tok.pos, "unexpected end of input: expected "+want)
	}
	return p.errAt(tok.pos, "expected "+want+", found "+tok.describe())
}

// name reads a symbol usable as a name.
func (p *scriptParser) name(context string) (string, error) {
	tok, err := p.next()
	if err != nil {
		return "", err
	}
	if !tok.isName() {
		return "", p.unexpected(tok, "a symbol", context)
	}
	return tok.text, nil
}

// index reads the indices of an indexed identifier up to its ')'; at least one is required.
func (p *scriptParser) indices() ([]int, error) {
	var idx []int
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		switch tok.kind {
		case tNumeral:
			n, err := strconv.Atoi(tok.text)
			if err != nil {
				return nil, p.errAt(tok.pos, "index "+tok.text+" too large")
			}
			idx = append(idx, n)
			continue
		case tRParen:
			if idx == nil {
				return nil, p.errAt(tok.pos, "indexed identifier without indices")
			}
			return idx, nil
		case tSymbol, tQSymbol, tHex, tBinary:
			return nil, p.unsupported(tok.pos, "non-numeral index "+tok.describe())
		}
		return nil, p.unexpected(tok, "a numeral index", "in an indexed identifier")
	}
}

// indexed reads the rest of an indexed identifier after "(_": its name and numeral indices.
func (p *scriptParser) indexed() (string, []int, error) {
	name, err := p.name("after '_'")
	if err != nil {
		return "", nil, err
	}
	idx, err := p.indices()
	return name, idx, err
}

// ident reads the rest of an identifier that starts with "(" and whose head token is head:
// (_ f i...) or (as id S). It returns an application without arguments.
func (p *scriptParser) ident(head smtToken) (*Term, error) {
	switch {
	case head.isSym("_"):
		if tok, err := p.peek(); err == nil && tok.isSym("is") {
			return p.tester()
		}
		name, idx, err := p.indexed()
		if err != nil {
			return nil, err
		}
		return p.newTerm(Term{Kind: KindApp, Name: name, Index: idx}), nil
	case head.isSym("as"):
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		var t *Term
		switch {
		case tok.isName():
			t = p.newTerm(Term{Kind: KindApp, Name: tok.text})
		case tok.kind == tLParen:
			h, err := p.next()
			if err != nil {
				return nil, err
			}
			if !h.isSym("_") {
				return nil, p.unexpected(h, "'_'", "in a qualified identifier")
			}
			if t, err = p.ident(h); err != nil {
				return nil, err
			}
		default:
			return nil, p.unexpected(tok, "an identifier", "after 'as'")
		}
		if t.As, err = p.sort(); err != nil {
			return nil, err
		}
		return t, p.expect(tRParen, "to close 'as'")
	}
	return nil, p.unexpected(head, "'_' or 'as'", "in an identifier")
}

// sort reads a sort.
func (p *scriptParser) sort() (*Sort, error) {
	tok, err := p.next()
	if err != nil {
		return nil, err
	}
	if tok.isName() {
		return &Sort{Name: tok.text}, nil
	}
	if tok.kind != tLParen {
		return nil, p.unexpected(tok, "a sort", "")
	}
	head, err := p.next()
	if err != nil {
		return nil, err
	}
	var s *Sort
	switch {
	case head.isSym("_"):
		name, idx, err := p.indexed()
		if err != nil {
			return nil, err
		}
		return &Sort{Name: name, Index: idx}, nil
	case head.isName():
		s = &Sort{Name: head.text}
	case head.kind == tLParen:
		h, err := p.next()
		if err != nil {
			return nil, err
		}
		if !h.isSym("_") {
			return nil, p.unexpected(h, "'_'", "in a sort")
		}
		name, err := p.name("after '_'")
		if err != nil {
			return nil, err
		}
		idx, err := p.indices()
		if err != nil {
			return nil, err
		}
		s = &Sort{Name: name, Index: idx}
	default:
		return nil, p.unexpected(head, "a sort name", "")
	}
	for {
		tok, err := p.peek()
		if err != nil {
			return nil, err
		}
		if tok.kind == tRParen {
			p.next()
			break
		}
		a, err := p.sort()
		if err != nil {
			return nil, err
		}
		s.Args = append(s.Args, a)
	}
	if s.Args == nil {
		return nil, p.errAt(head.pos, "sort "+quoteSymbol(s.Name)+" applied to no arguments")
	}
	return s, nil
}

// atom returns the term of an atomic token, or nil if tok is not one.
func (p *scriptParser) atom(tok smtToken) (*Term, error) {
	switch tok.kind {
	case tNumeral:
		return p.newTerm(Term{Kind: KindNumeral, Lit: tok.text}), nil
	case tDecimal:
		return p.newTerm(Term{Kind: KindDecimal, Lit: tok.text}), nil
	case tHex:
		return p.newTerm(Term{Kind: KindHex, Lit: tok.text}), nil
	case tBinary:
		return p.newTerm(Term{Kind: KindBinary, Lit: tok.text}), nil
	case tString:
		return p.newTerm(Term{Kind: KindString, Lit: decodeString(tok.text)}), nil
	case tQSymbol:
		return p.newTerm(Term{Kind: KindApp, Name: tok.text}), nil
	case tSymbol:
		if isReserved(tok.text) {
			return nil, p.errAt(tok.pos, "unexpected reserved word "+tok.text)
		}
		return p.newTerm(Term{Kind: KindApp, Name: tok.text}), nil
	case tLParen:
		return nil, nil
	case tOdd:
		return nil, p.unsupported(tok.pos, tok.describe())
	case tEOF:
		return nil, p.errAt(tok.pos, "unexpected end of input: expected a term")
	}
	return nil, p.errAt(tok.pos, "expected a term, found "+tok.describe())
}

// sortedVars reads ((x S)...) of a quantifier; at least one variable is required.
func (p *scriptParser) sortedVars(what string) ([]Binding, error) {
	if err := p.expect(tLParen, "to open the variables of "+what); err != nil {
		return nil, err
	}
	var bs []Binding
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		if tok.kind == tRParen {
			if bs == nil {
				return nil, p.errAt(tok.pos, what+" without variables")
			}
			return bs, nil
		}
		if tok.kind != tLParen {
			return nil, p.unexpected(tok, "'('", "to open a sorted variable")
		}
		b, err := p.sortedVar()
		if err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
}

// sortedVar reads "x S)" after the '(' of a sorted variable.
func (p *scriptParser) sortedVar() (Binding, error) {
	name, err := p.name("as a variable name")
	if err != nil {
		return Binding{}, err
	}
	s, err := p.sort()
	if err != nil {
		return Binding{}, err
	}
	return Binding{Name: name, Sort: s}, p.expect(tRParen, "to close a sorted variable")
}

// attrs reads the attributes of an annotation and its closing ')'.
func (p *scriptParser) attrs(t *Term) error {
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.kind == tRParen {
			if t.Attrs == nil {
				return p.errAt(tok.pos, "annotation without attributes")
			}
			return nil
		}
		if tok.kind != tKeyword {
			return p.unexpected(tok, "a keyword", "in an annotation")
		}
		a, err := p.attrValue(tok.text)
		if err != nil {
			return err
		}
		t.Attrs = append(t.Attrs, a)
	}
}

// attrValue reads the optional value of the attribute key.
func (p *scriptParser) attrValue(key string) (Attr, error) {
	tok, err := p.peek()
	if err != nil {
		return Attr{}, err
	}
	if tok.kind == tKeyword || tok.kind == tRParen || tok.kind == tEOF {
		return Attr{Key: key}, nil
	}
	v, err := p.rawSexpr()
	return Attr{Key: key, Value: v}, err
}

// term reads a term. It keeps its own stack, so nesting depth is bounded only by memory.
func (p *scriptParser) term() (*Term, error) {
	stack := p.stack[:0]
	clear(p.args) // left over by an error that a command turned into Raw
	p.args = p.args[:0]
	defer func() {
		clear(stack) // popped frames are already zero
		p.stack = stack[:0]
	}()
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		done, err := p.atom(tok)
		if err != nil {
			return nil, err
		}
		if done == nil { // '('
			head, err := p.next()
			if err != nil {
				return nil, err
			}
			var f parseFrame
			switch {
			case head.isSym("_") || head.isSym("as"):
				if done, err = p.ident(head); err != nil {
					return nil, err
				}
			case head.isSym("let"):
				if err := p.expect(tLParen, "to open the let bindings"); err != nil {
					return nil, err
				}
				tok, err := p.next()
				if err != nil {
					return nil, err
				}
				if tok.kind == tRParen {
					return nil, p.errAt(tok.pos, "let without bindings")
				}
				if tok.kind != tLParen {
					return nil, p.unexpected(tok, "'('", "to open a let binding")
				}
				name, err := p.name("as a let variable")
				if err != nil {
					return nil, err
				}
				f = parseFrame{kind: frLetBind, t: p.newTerm(Term{Kind: KindLet}), name: name}
			case head.isSym("forall") || head.isSym("exists"):
				t := p.newTerm(Term{Kind: KindForall})
				if head.text == "exists" {
					t.Kind = KindExists
				}
				if t.Binds, err = p.sortedVars(head.text); err != nil {
					return nil, err
				}
				f = parseFrame{kind: frQuantBody, t: t}
			case head.isSym("!"):
				f = parseFrame{kind: frAnnot, t: p.newTerm(Term{Kind: KindAnnot})}
			case head.isSym("match"):
				f = parseFrame{kind: frMatchTerm, t: p.newTerm(Term{Kind: KindMatch})}
			case head.isName():
				f = parseFrame{kind: frApp, t: p.newTerm(Term{Kind: KindApp, Name: head.text}), argStart: len(p.args)}
			case head.kind == tLParen:
				h, err := p.next()
				if err != nil {
					return nil, err
				}
				t, err := p.ident(h)
				if err != nil {
					return nil, err
				}
				f = parseFrame{kind: frApp, t: t, argStart: len(p.args)}
			default:
				return nil, p.unexpected(head, "an identifier", "after '('")
			}
			if done == nil {
				if f.kind == frApp {
					if tok, err := p.peek(); err != nil {
						return nil, err
					} else if tok.kind == tRParen {
						return nil, p.errAt(tok.pos, "application of "+quoteSymbol(f.t.Name)+" to no arguments")
					}
				}
				stack = append(stack, f)
				continue
			}
		}
		// done is a complete term: hand it to the enclosing frames.
		for done != nil {
			if len(stack) == 0 {
				return done, nil
			}
			f := &stack[len(stack)-1]
			switch f.kind {
			case frApp:
				p.args = append(p.args, done)
				done = nil
				tok, err := p.peek()
				if err != nil {
					return nil, err
				}
				if tok.kind == tRParen {
					p.next()
					f.t.Args = append([]*Term(nil), p.args[f.argStart:]...)
					clear(p.args[f.argStart:])
					p.args = p.args[:f.argStart]
					done = f.t
				}
			case frLetBind:
				f.t.Binds = append(f.t.Binds, Binding{Name: f.name, Term: done})
				done = nil
				if err := p.expect(tRParen, "to close a let binding"); err != nil {
					return nil, err
				}
				tok, err := p.next()
				if err != nil {
					return nil, err
				}
				switch tok.kind {
				case tLParen:
					if f.name, err = p.name("as a let variable"); err != nil {
						return nil, err
					}
				case tRParen:
					f.kind = frLetBody
				default:
					return nil, p.unexpected(tok, "'(' or ')'", "in let bindings")
				}
			case frLetBody, frQuantBody:
				f.t.Args = []*Term{done}
				if err := p.expect(tRParen, "to close a binder"); err != nil {
					return nil, err
				}
				done = f.t
			case frAnnot:
				f.t.Args = []*Term{done}
				if err := p.attrs(f.t); err != nil {
					return nil, err
				}
				done = f.t
			case frMatchTerm, frMatchCase:
				if done, err = p.matchStep(f, done); err != nil {
					return nil, err
				}
			}
			if done != nil {
				stack[len(stack)-1] = parseFrame{}
				stack = stack[:len(stack)-1]
			}
		}
	}
}

// rawSexpr reads one s-expression and returns its normalised text: tokens as written, except
// quoted symbols printed by quoteSymbol, one space between the elements of a list, no comments.
func (p *scriptParser) rawSexpr() (string, error) { return p.raw(false) }

// rawRest reads up to the ')' closing the current command, which it consumes, and returns the
// normalised text of what it read.
func (p *scriptParser) rawRest() (string, error) { return p.raw(true) }

// raw reads normalised text: one s-expression, or (rest) everything up to the ')' that closes
// the enclosing list.
func (p *scriptParser) raw(rest bool) (string, error) {
	b := &p.sb
	b.Reset()
	depth := 0
	for {
		tok, err := p.next()
		if err != nil {
			return "", err
		}
		switch tok.kind {
		case tEOF:
			return "", p.errAt(tok.pos, "unexpected end of input")
		case tRParen:
			if depth == 0 {
				if rest {
					return b.String(), nil
				}
				return "", p.errAt(tok.pos, "unexpected ')'")
			}
			depth--
		}
		p.writeRawToken(b, tok)
		if tok.kind == tLParen {
			depth++
		}
		if depth == 0 && !rest {
			return b.String(), nil
		}
	}
}

// writeRawToken appends tok to b, after a space unless b is empty, ends with '(' or tok is ')'.
func (p *scriptParser) writeRawToken(b *strings.Builder, tok smtToken) {
	if n := b.Len(); n > 0 && tok.kind != tRParen && b.String()[n-1] != '(' {
		b.WriteByte(' ')
	}
	if tok.kind == tQSymbol {
		writeSymbol(b, tok.text)
	} else {
		b.WriteString(p.src[tok.pos:tok.end])
	}
}

// command reads a command after its '(' at offset open, through its ')'.
func (p *scriptParser) command(open int) (*Command, error) {
	p.cmdStart = open
	defer func() { p.cmdStart = -1 }()
	tok, err := p.next()
	if err != nil {
		return nil, err
	}
	if tok.kind != tSymbol && tok.kind != tQSymbol {
		return nil, p.unexpected(tok, "a command name", "after '('")
	}
	c := &Command{Name: tok.text}
	err = p.commandBody(c)
	if err == nil {
		return c, nil
	}
	if _, ok := err.(*unsupportedError); !ok {
		return nil, err
	}
	// A construct the AST cannot hold: keep the command as text.
	p.seek(tok.end)
	c = &Command{Name: tok.text}
	if c.Raw, err = p.rawRest(); err != nil {
		return nil, err
	}
	return c, nil
}

// commandBody reads the arguments of c and its closing ')'.
func (p *scriptParser) commandBody(c *Command) error {
	var err error
	switch c.Name {
	case "set-logic":
		c.Symbol, err = p.name("as the logic")
	case "set-option", "set-info":
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.kind != tKeyword {
			return p.unexpected(tok, "a keyword", "in "+c.Name)
		}
		c.Attr, err = p.attrValue(tok.text)
	case "declare-sort":
		if c.Symbol, err = p.name("as the sort name"); err != nil {
			return err
		}
		c.Arity, err = p.optNumeral(0)
	case "push", "pop":
		c.Arity, err = p.optNumeral(1)
	case "define-sort":
		if c.Symbol, err = p.name("as the sort name"); err != nil {
			return err
		}
		err = p.list("to open the sort parameters", func() error {
			name, err := p.name("as a sort parameter")
			c.Params = append(c.Params, Binding{Name: name})
			return err
		})
		if err != nil {
			return err
		}
		c.Sort, err = p.sort()
	case "declare-const":
		if c.Symbol, err = p.name("as the constant name"); err != nil {
			return err
		}
		c.Sort, err = p.sort()
	case "declare-fun":
		if c.Symbol, err = p.name("as the function name"); err != nil {
			return err
		}
		err = p.list("to open the argument sorts", func() error {
			s, err := p.sort()
			c.ArgSorts = append(c.ArgSorts, s)
			return err
		})
		if err != nil {
			return err
		}
		c.Sort, err = p.sort()
	case "define-fun", "define-fun-rec":
		if c.Symbol, err = p.name("as the function name"); err != nil {
			return err
		}
		if err = p.expect(tLParen, "to open the parameters"); err != nil {
			return err
		}
		for {
			tok, err := p.next()
			if err != nil {
				return err
			}
			if tok.kind == tRParen {
				break
			}
			if tok.kind != tLParen {
				return p.unexpected(tok, "'('", "to open a parameter")
			}
			b, err := p.sortedVar()
			if err != nil {
				return err
			}
			c.Params = append(c.Params, b)
		}
		err = p.sortAndTerm(c)
	case "define-const":
		if c.Symbol, err = p.name("as the constant name"); err != nil {
			return err
		}
		err = p.sortAndTerm(c)
	case "assert":
		err = p.oneTerm(c)
	case "simplify", "eval":
		if err = p.oneTerm(c); err != nil {
			return err
		}
		var tok smtToken
		if tok, err = p.peek(); err == nil && tok.kind != tRParen {
			return p.unsupported(tok.pos, "options of "+c.Name)
		}
	case "check-sat-assuming", "get-value":
		err = p.list("to open the terms of "+c.Name, func() error { return p.oneTerm(c) })
	default:
		c.Raw, err = p.rawRest()
		return err
	}
	if err != nil {
		return err
	}
	return p.expect(tRParen, "to close "+c.Name)
}

// list reads "(" item* ")", calling item for each element; context says what the "(" opens.
func (p *scriptParser) list(context string, item func() error) error {
	if err := p.expect(tLParen, context); err != nil {
		return err
	}
	for {
		tok, err := p.peek()
		if err != nil {
			return err
		}
		if tok.kind == tRParen {
			p.next()
			return nil
		}
		if err := item(); err != nil {
			return err
		}
	}
}

// optNumeral reads an optional numeral, def when absent.
func (p *scriptParser) optNumeral(def int) (int, error) {
	tok, err := p.peek()
	if err != nil || tok.kind != tNumeral {
		return def, err
	}
	p.next()
	n, err := strconv.Atoi(tok.text)
	if err != nil {
		return 0, p.errAt(tok.pos, "numeral "+tok.text+" too large")
	}
	return n, nil
}

// sortAndTerm reads the result sort and the body of a definition.
func (p *scriptParser) sortAndTerm(c *Command) error {
	var err error
	if c.Sort, err = p.sort(); err != nil {
		return err
	}
	return p.oneTerm(c)
}

// oneTerm reads a term and appends it to c.Terms.
func (p *scriptParser) oneTerm(c *Command) error {
	t, err := p.term()
	if err != nil {
		return err
	}
	c.Terms = append(c.Terms, t)
	return nil
}
