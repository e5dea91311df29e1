// Package sqleval evaluates the expressions sqlgen writes on one row of values, exactly as an
// engine would, or says it does not know. Pivoted query synthesis (PQS) needs it to rectify
// predicates so that they hold for a pivot row, and to know what the row's fetched expressions
// yield.
//
// The generator prints every compound expression in its own parentheses, so [Parse] reads its
// text into a [Node] tree without precedence rules; the tree keeps SQLite's shape (a left operand,
// a right operand, an argument list), which its rules for affinity and collation walk. [SQLite]
// evaluates a tree with SQLite's storage classes, affinities, collations and three-valued logic;
// [Postgres] with PostgreSQL's static types and its parser's resolution of operators and common
// types; [DuckDB] with PostgreSQL's walk and DuckDB's rules where they differ. Each is an
// [Evaluator].
// Whatever it is not sure of (a real printed as text, a function it does not model, a conversion
// with many digits) makes it return [ErrUnknown]: a caller skips rather than guesses.
//
// The package imports only the standard library.
package sqleval

import (
	"errors"
	"fmt"
	"strings"
)

// Op is the operator of a node.
type Op uint8

// Operators. Leaves are OpColumn and OpLiteral.
const (
	OpColumn  Op = iota + 1 // Tok: the column reference
	OpLiteral               // Tok: the literal as written
	OpBinary                // Tok: the operator (=, AND, ||, IS NOT, LIKE ...); Left, Right; List[0] the ESCAPE
	OpPrefix                // Tok: NOT, -, +, ~; Left
	OpPostfix               // Tok: ISNULL, IS NOT TRUE ...; Left
	OpBetween               // Tok: [NOT] BETWEEN [SYMMETRIC]; Left; List: low, high
	OpIn                    // Tok: IN or NOT IN; Left; List
	OpCase                  // Left: the base or nil; List: WHEN, THEN pairs, then the ELSE if Else
	OpCast                  // Tok: the type name; Left
	OpCollate               // Tok: the collation; Left
	OpFunc                  // Tok: the lower-case name; List: the arguments
)

// Node is one expression of the generator's language.
type Node struct {
	Op          Op
	Tok         string
	Left, Right *Node
	List        []*Node
	Else        bool // OpCase: the last of List is the ELSE
	// Text is the expression as printed: a leaf's token, a compound's parenthesized text.
	Text string
}

// ErrSyntax is returned by Parse for text outside the generator's language (row values, for
// instance).
var ErrSyntax = errors.New("sqleval: unsupported syntax")

// Parse reads one expression printed by the generator.
func Parse(s string) (*Node, error) {
	p := &parser{s: s, toks: lex(s)}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.i != len(p.toks) {
		return nil, fmt.Errorf("%w: trailing text at %d in %q", ErrSyntax, p.i, s)
	}
	return n, nil
}

type tok struct {
	s    string
	kind byte // '(' ')' ',' 'w' word, 'n' number, 's' string, 'b' blob, 'o' operator
	off  int
}

func isWord(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func lex(s string) []tok {
	var out []tok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				j = len(s) - i - 2
			}
			out = append(out, tok{s[i : i+j+2], 'w', i})
			i += j + 2
		case c == '(' || c == ')' || c == ',':
			out = append(out, tok{s[i : i+1], c, i})
			i++
		case c == '\'' || (c == 'x' || c == 'X') && i+1 < len(s) && s[i+1] == '\'':
			j := i
			kind := byte('s')
			if c != '\'' {
				j++
				kind = 'b'
			}
			j++
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(s))
			out = append(out, tok{s[i:j], kind, i})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' ||
			c == '-' && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '.'):
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
				(s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			out = append(out, tok{s[i:j], 'n', i})
			i = j
		case isWord(c):
			j := i + 1
			for j < len(s) && isWord(s[j]) {
				j++
			}
			out = append(out, tok{s[i:j], 'w', i})
			i = j
		default:
			j := i + 1
			for j < len(s) && strings.IndexByte("<>=!|", s[j]) >= 0 && strings.IndexByte("<>=!|", c) >= 0 {
				j++
			}
			if c == '/' && j < len(s) && s[j] == '/' { // DuckDB's integer division
				j++
			}
			out = append(out, tok{s[i:j], 'o', i})
			i = j
		}
	}
	return out
}

type parser struct {
	s    string
	toks []tok
	i    int
}

func (p *parser) peek(k int) tok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return tok{}
}

func (p *parser) word(k int) string { return strings.ToUpper(p.peek(k).s) }

func (p *parser) fail(what string) error {
	return fmt.Errorf("%w: %s at token %d of %q", ErrSyntax, what, p.i, p.s)
}

func (p *parser) expect(s string) error {
	if !strings.EqualFold(p.peek(0).s, s) {
		return p.fail("want " + s)
	}
	p.i++
	return nil
}

// exprs that end a term inside a parenthesized compound.
var postfixes = [][]string{
	{"ISNULL"}, {"NOTNULL"}, {"NOT", "NULL"}, {"IS", "NULL"}, {"IS", "NOT", "NULL"}, {"IS", "TRUE"},
	{"IS", "FALSE"}, {"IS", "NOT", "TRUE"}, {"IS", "NOT", "FALSE"}, {"IS", "UNKNOWN"}, {"IS", "NOT", "UNKNOWN"},
}

var binaryWords = [][]string{
	{"IS", "NOT", "DISTINCT", "FROM"}, {"IS", "DISTINCT", "FROM"}, {"IS", "NOT"}, {"IS"}, {"AND"}, {"OR"},
	{"NOT", "LIKE"}, {"NOT", "GLOB"}, {"NOT", "ILIKE"}, {"LIKE"}, {"GLOB"}, {"ILIKE"},
}

// expr reads a leaf or a parenthesized compound.
func (p *parser) expr() (*Node, error) {
	t := p.peek(0)
	start := t.off
	switch t.kind {
	case 'n', 's', 'b':
		p.i++
		return &Node{Op: OpLiteral, Tok: t.s, Text: t.s}, nil
	case 'w':
		p.i++
		switch strings.ToUpper(t.s) {
		case "NULL", "TRUE", "FALSE":
			return &Node{Op: OpLiteral, Tok: strings.ToUpper(t.s), Text: t.s}, nil
		}
		if p.peek(0).kind == '(' { // a call the typed dialects write without parentheses of its own
			p.i--
			var n *Node
			var err error
			if strings.EqualFold(t.s, "CAST") {
				n, err = p.cast()
			} else {
				n, err = p.call()
			}
			if err != nil {
				return nil, err
			}
			n.Text = p.s[start : p.toks[p.i-1].off+1]
			return n, nil
		}
		return &Node{Op: OpColumn, Tok: t.s, Text: t.s}, nil
	case '(':
	default:
		return nil, p.fail("unexpected token")
	}
	p.i++
	n, err := p.inner()
	if err != nil {
		return nil, err
	}
	if p.peek(0).kind != ')' {
		return nil, p.fail("want )")
	}
	end := p.peek(0).off + 1
	p.i++
	n.Text = p.s[start:end]
	return n, nil
}

// inner reads what stands between a compound's parentheses.
func (p *parser) inner() (*Node, error) {
	t := p.peek(0)
	if t.kind == '(' && p.isRow() {
		return nil, p.fail("row value")
	}
	if t.kind == 'w' {
		switch w := strings.ToUpper(t.s); {
		case w == "NOT" || t.s == "-":
			return p.prefix(w)
		case w == "CASE":
			return p.caseExpr()
		}
		// A call or CAST is read by expr: it may be the left operand of a binary operator.
	}
	if t.kind == 'o' && (t.s == "-" || t.s == "+" || t.s == "~") {
		return p.prefix(t.s)
	}
	left, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek(0).kind == ')' {
		return left, nil // a parenthesized leaf
	}
	for _, ws := range postfixes {
		if p.words(ws) && p.peek(len(ws)).kind == ')' {
			p.i += len(ws)
			return &Node{Op: OpPostfix, Tok: strings.Join(ws, " "), Left: left}, nil
		}
	}
	switch {
	case p.words([]string{"COLLATE"}):
		name := p.peek(1)
		p.i += 2
		return &Node{Op: OpCollate, Tok: strings.ToUpper(name.s), Left: left}, nil
	case p.words([]string{"BETWEEN"}) || p.words([]string{"NOT", "BETWEEN"}):
		tk := "BETWEEN"
		if p.word(0) == "NOT" {
			tk, p.i = "NOT BETWEEN", p.i+1
		}
		p.i++
		if p.word(0) == "SYMMETRIC" {
			tk, p.i = tk+" SYMMETRIC", p.i+1
		}
		lo, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect("AND"); err != nil {
			return nil, err
		}
		hi, err := p.expr()
		if err != nil {
			return nil, err
		}
		return &Node{Op: OpBetween, Tok: tk, Left: left, List: []*Node{lo, hi}}, nil
	case p.words([]string{"IN"}) || p.words([]string{"NOT", "IN"}):
		tk := "IN"
		if p.word(0) == "NOT" {
			tk, p.i = "NOT IN", p.i+1
		}
		p.i++
		list, err := p.list()
		if err != nil {
			return nil, err
		}
		return &Node{Op: OpIn, Tok: tk, Left: left, List: list}, nil
	}
	op := ""
	for _, ws := range binaryWords {
		if p.words(ws) {
			op, p.i = strings.Join(ws, " "), p.i+len(ws)
			break
		}
	}
	if op == "" {
		t := p.peek(0)
		if t.kind != 'o' {
			return nil, p.fail("want an operator")
		}
		op = t.s
		p.i++
	}
	right, err := p.expr()
	if err != nil {
		return nil, err
	}
	n := &Node{Op: OpBinary, Tok: op, Left: left, Right: right}
	if p.word(0) == "ESCAPE" {
		p.i++
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		n.List = []*Node{e}
	}
	return n, nil
}

// isRow reports whether the "(" at the cursor opens a row value: a list with a comma at its top.
func (p *parser) isRow() bool {
	depth := 0
	for k := p.i; k < len(p.toks); k++ {
		switch p.toks[k].kind {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return false
			}
		case ',':
			if depth == 1 {
				return true
			}
		}
	}
	return false
}

func (p *parser) words(ws []string) bool {
	for k, w := range ws {
		if t := p.peek(k); t.kind != 'w' || !strings.EqualFold(t.s, w) {
			return false
		}
	}
	return true
}

func (p *parser) prefix(op string) (*Node, error) {
	p.i++
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &Node{Op: OpPrefix, Tok: op, Left: x}, nil
}

// list reads "(e, e, ...)", possibly empty.
func (p *parser) list() ([]*Node, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	out := []*Node{}
	for p.peek(0).kind != ')' {
		if len(out) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	p.i++
	return out, nil
}

func (p *parser) call() (*Node, error) {
	name := strings.ToLower(p.peek(0).s)
	p.i++
	args, err := p.list()
	if err != nil {
		return nil, err
	}
	return &Node{Op: OpFunc, Tok: name, List: args}, nil
}

func (p *parser) cast() (*Node, error) {
	p.i += 2
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expect("AS"); err != nil {
		return nil, err
	}
	start, depth := p.peek(0).off, 0
	for {
		t := p.peek(0)
		if t.kind == 0 {
			return nil, p.fail("unterminated CAST")
		}
		if t.kind == '(' {
			depth++
		}
		if t.kind == ')' {
			if depth == 0 {
				break
			}
			depth--
		}
		p.i++
	}
	typ := strings.TrimSpace(p.s[start:p.peek(0).off])
	p.i++
	return &Node{Op: OpCast, Tok: typ, Left: x}, nil
}

func (p *parser) caseExpr() (*Node, error) {
	p.i++
	n := &Node{Op: OpCase}
	if p.word(0) != "WHEN" {
		b, err := p.expr()
		if err != nil {
			return nil, err
		}
		n.Left = b
	}
	for p.word(0) == "WHEN" {
		p.i++
		w, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect("THEN"); err != nil {
			return nil, err
		}
		t, err := p.expr()
		if err != nil {
			return nil, err
		}
		n.List = append(n.List, w, t)
	}
	if p.word(0) == "ELSE" {
		p.i++
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		n.List, n.Else = append(n.List, e), true
	}
	if err := p.expect("END"); err != nil {
		return nil, err
	}
	return n, nil
}

// anyNode reports whether f holds for n or for a node below it.
func anyNode(n *Node, f func(*Node) bool) bool {
	if n == nil {
		return false
	}
	if f(n) || anyNode(n.Left, f) || anyNode(n.Right, f) {
		return true
	}
	for _, a := range n.List {
		if anyNode(a, f) {
			return true
		}
	}
	return false
}
