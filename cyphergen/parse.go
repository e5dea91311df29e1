package cyphergen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// SyntaxError is a parse error with its position (1-based line and column, in characters).
type SyntaxError struct {
	Line, Col int
	Msg       string
}

// Error returns "line:col: msg".
func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// ParseQuery parses a Cypher query in the language the printer of ast.go prints ([Query.String]):
// MATCH, OPTIONAL MATCH, UNWIND, WITH and RETURN clauses and the writing clauses CREATE, MERGE,
// SET, REMOVE and [DETACH] DELETE (ast_write.go; a single query ends with RETURN or a writing
// clause), joined by UNION [ALL], and the same
// language written by hand: keywords in any case, `//` and `/* */` comments, a trailing ';',
// backquoted identifiers, strings in single or double quotes, operators without parentheses.
//
// Operator precedence is openCypher's, loosest first: OR, XOR, AND, NOT, comparison
// (= <> < <= > >=, not chained), the predicates IN, STARTS WITH, ENDS WITH, CONTAINS and
// IS [NOT] NULL, + and -, * / and %, unary minus, then property access, index and label test.
// A minus sign directly before a numeric literal folds into a negative literal, except that
// `(-3)`, the printer's form of a negated literal, stays a Unary; `(0.0/0.0)`, `(1.0/0.0)` and
// `(-1.0/0.0)`, written exactly so, are the NaN and infinite float literals. Every query q the
// printer prints parses back to a query that prints the same: ParseQuery(q.String()).String() ==
// q.String().
//
// What the AST cannot express (FOREACH, MERGE's ON CREATE, variable-length relationships, map literals,
// path variables, parameters, list comprehensions...) is a *SyntaxError whose message starts
// with "unsupported:".
func ParseQuery(text string) (q *Query, err error) {
	p := &parser{src: text}
	defer p.catch(&err)
	p.lex()
	return p.query(), nil
}

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tWord           // identifier or keyword
	tQuoted         // backquoted identifier; text is the name
	tInt            // text is the digits
	tFloat          // text is the literal
	tString         // text is the decoded value
	tPunct          // operator or punctuation
)

// token is one lexical token; pos and end are byte offsets into the source.
type token struct {
	kind     tokKind
	text     string
	pos, end int
}

// parser is a recursive-descent parser over the tokens of src. Errors panic with a
// *SyntaxError that catch turns into the returned error.
type parser struct {
	src  string
	toks []token
	i    int
}

// reserved are the words that are never read as an unquoted variable.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`AND AS ASC ASCENDING BY CALL CASE CONTAINS CREATE DELETE DESC
		DESCENDING DETACH DISTINCT ELSE END ENDS FALSE FOREACH IN IS LIMIT LOAD MATCH MERGE NOT NULL
		OPTIONAL OR ORDER REMOVE RETURN SET SKIP STARTS THEN TRUE UNION UNWIND WHEN WHERE WITH XOR`) {
		reserved[w] = true
	}
}

// writing are the clause keywords of writing and procedure clauses, which a query may not use.
var writing = []string{"CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "CALL", "FOREACH", "LOAD"}

// puncts are the operators and punctuation, two-character ones first.
var puncts = []string{"<>", "<=", ">=", "!=", "=~", "..", "(", ")", "[", "]", "{", "}", ",", ".", ":", "|",
	";", "=", "<", ">", "+", "-", "*", "/", "%", "^", "$"}

func (p *parser) catch(err *error) {
	if r := recover(); r != nil {
		se, ok := r.(*SyntaxError)
		if !ok {
			panic(r)
		}
		*err = se
	}
}

// failAt panics with a syntax error at byte offset off.
func (p *parser) failAt(off int, format string, args ...any) {
	line, col := 1, 1
	for _, c := range p.src[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	panic(&SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) fail(t token, format string, args ...any) { p.failAt(t.pos, format, args...) }

// describe names a token in an error message.
func (p *parser) describe(t token) string {
	if t.kind == tEOF {
		return "end of input"
	}
	s := p.src[t.pos:t.end]
	if len(s) > 30 {
		s = strings.ToValidUTF8(s[:27], "") + "..."
	}
	return "'" + s + "'"
}

// lex splits the source into tokens, ending with a tEOF token.
func (p *parser) lex() {
	s := p.src
	i := p.skipSpace(0)
	for i < len(s) {
		start := i
		c, _ := utf8.DecodeRuneInString(s[i:])
		kind, text := tPunct, ""
		switch {
		case c == '_' || unicode.IsLetter(c):
			for i < len(s) && isWordRune(s[i:]) {
				_, w := utf8.DecodeRuneInString(s[i:])
				i += w
			}
			kind, text = tWord, s[start:i]
		case '0' <= c && c <= '9' || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
			kind, i = p.scanNumber(i)
			text = s[start:i]
		case c == '`':
			text, i = p.quoted(i)
			kind = tQuoted
		case c == '\'' || c == '"':
			text, i = p.stringLit(i)
			kind = tString
		default:
			for _, op := range puncts {
				if strings.HasPrefix(s[i:], op) {
					text = op
					break
				}
			}
			if text == "" {
				p.failAt(i, "unexpected character %q", c)
			}
			i += len(text)
		}
		p.toks = append(p.toks, token{kind: kind, text: text, pos: start, end: i})
		i = p.skipSpace(i)
	}
	p.toks = append(p.toks, token{kind: tEOF, pos: len(s), end: len(s)})
}

// skipSpace returns the offset of the first byte from i that is not white space or in a comment.
func (p *parser) skipSpace(i int) int {
	s := p.src
	for i < len(s) {
		c, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(c):
			i += w
		case strings.HasPrefix(s[i:], "//"):
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(s)
			}
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				p.failAt(i, "unterminated comment")
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isWordRune(s string) bool {
	c, _ := utf8.DecodeRuneInString(s)
	return c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c)
}

// scanNumber scans a numeric literal at i: digits [. digits] [e [-+] digits], or . digits [...].
func (p *parser) scanNumber(i int) (tokKind, int) {
	s := p.src
	start, kind := i, tInt
	digits := func() {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	digits()
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i++
		digits()
		kind = tFloat
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			i = j
			digits()
			kind = tFloat
		}
	}
	if i < len(s) && isWordRune(s[i:]) {
		p.failAt(start, "malformed number %q", s[start:i+1])
	}
	if kind == tInt && i-start > 1 && s[start] == '0' {
		p.failAt(start, "unsupported: integer literal with a leading zero")
	}
	return kind, i
}

// quoted scans a backquoted identifier at i, where “ stands for a backquote.
func (p *parser) quoted(i int) (string, int) {
	s := p.src
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		if s[j] != '`' {
			b.WriteByte(s[j])
		} else if j+1 < len(s) && s[j+1] == '`' {
			b.WriteByte('`')
			j++
		} else {
			return b.String(), j + 1
		}
	}
	p.failAt(i, "unterminated backquoted identifier")
	return "", 0
}

// escapes are the single-character escapes of string literals.
var escapes = map[byte]rune{'\\': '\\', '\'': '\'', '"': '"', 'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', 'f': '\f'}

// stringLit scans a string literal at i, in single or double quotes, and decodes its escapes.
func (p *parser) stringLit(i int) (string, int) {
	s, q := p.src, p.src[i]
	var b strings.Builder
	for j := i + 1; j < len(s); {
		c := s[j]
		switch {
		case c == q:
			return b.String(), j + 1
		case c != '\\':
			b.WriteByte(c)
			j++
			continue
		}
		if j+1 >= len(s) {
			break
		}
		e := s[j+1]
		if r, ok := escapes[e]; ok {
			b.WriteRune(r)
			j += 2
			continue
		}
		n := 0 // the hex digits of \uXXXX and \UXXXXXXXX
		switch e {
		case 'u':
			n = 4
		case 'U':
			n = 8
		}
		if n == 0 || j+2+n > len(s) {
			p.failAt(j, "invalid escape sequence in string literal")
		}
		r, err := strconv.ParseUint(s[j+2:j+2+n], 16, 32)
		if err != nil || r > unicode.MaxRune {
			p.failAt(j, "invalid escape sequence %q in string literal", s[j:j+2+n])
		}
		j += 2 + n
		if utf16High(rune(r)) && strings.HasPrefix(s[j:], `\u`) && j+6 <= len(s) {
			if lo, err := strconv.ParseUint(s[j+2:j+6], 16, 32); err == nil && utf16Low(rune(lo)) {
				r = uint64(0x10000 + (r-0xD800)<<10 + (lo - 0xDC00))
				j += 6
			}
		}
		b.WriteRune(rune(r))
	}
	p.failAt(i, "unterminated string literal")
	return "", 0
}

func utf16High(r rune) bool { return 0xD800 <= r && r < 0xDC00 }
func utf16Low(r rune) bool  { return 0xDC00 <= r && r < 0xE000 }

// tok returns the current token.
func (p *parser) tok() token { return p.toks[p.i] }

// advance consumes and returns the current token.
func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (t token) isPunct(s string) bool { return t.kind == tPunct && t.text == s }
func (t token) isKw(kw string) bool   { return t.kind == tWord && strings.EqualFold(t.text, kw) }

func (p *parser) is(punct string) bool { return p.tok().isPunct(punct) }
func (p *parser) isKw(kw string) bool  { return p.tok().isKw(kw) }

func (p *parser) accept(punct string) bool {
	if p.is(punct) {
		p.i++
		return true
	}
	return false
}

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.i++
		return true
	}
	return false
}

// expect consumes punct or fails with "expected 'punct' ctx, found ...".
func (p *parser) expect(punct, ctx string) token {
	if !p.is(punct) {
		p.fail(p.tok(), "expected '%s' %s, found %s", punct, ctx, p.describe(p.tok()))
	}
	return p.advance()
}

func (p *parser) expectKw(kw, ctx string) {
	if !p.acceptKw(kw) {
		p.fail(p.tok(), "expected %s %s, found %s", kw, ctx, p.describe(p.tok()))
	}
}

// end accepts an optional ';' and requires the end of the input.
func (p *parser) end(ctx string) {
	p.accept(";")
	if t := p.tok(); t.kind != tEOF {
		p.fail(t, "expected end of input %s, found %s", ctx, p.describe(t))
	}
}

// name reads a label, type, key or alias: any word, or a backquoted identifier.
func (p *parser) name(ctx string) string {
	t := p.tok()
	if t.kind != tWord && t.kind != tQuoted {
		p.fail(t, "expected a name %s, found %s", ctx, p.describe(t))
	}
	p.i++
	return t.text
}

// isVar reports whether t can be a variable: a backquoted identifier or an unreserved word.
func isVar(t token) bool {
	return t.kind == tQuoted || t.kind == tWord && !reserved[strings.ToUpper(t.text)]
}

func (p *parser) query() *Query {
	q := &Query{Parts: []*SingleQuery{p.singleQuery()}}
	for p.acceptKw("UNION") {
		q.All = append(q.All, p.acceptKw("ALL"))
		q.Parts = append(q.Parts, p.singleQuery())
	}
	p.end("after RETURN")
	return q
}

// singleQuery reads clauses up to and including a RETURN.
func (p *parser) singleQuery() *SingleQuery {
	s := &SingleQuery{}
	for {
		c := p.clause()
		s.Clauses = append(s.Clauses, c)
		if _, ok := c.(*Return); ok || IsWrite(c) && p.atQueryEnd() {
			return s
		}
	}
}

func (p *parser) clause() Clause {
	t := p.tok()
	switch {
	case p.acceptKw("OPTIONAL"):
		p.expectKw("MATCH", "after OPTIONAL")
		return &Match{Optional: true, Patterns: p.patterns(), Where: p.where()}
	case p.acceptKw("MATCH"):
		return &Match{Patterns: p.patterns(), Where: p.where()}
	case p.acceptKw("UNWIND"):
		u := &Unwind{List: p.expr()}
		p.expectKw("AS", "after the UNWIND list")
		u.Var = p.name("after AS")
		return u
	case p.acceptKw("WITH"):
		return &With{Projection: p.projection(), Where: p.where()}
	case p.acceptKw("RETURN"):
		return &Return{Projection: p.projection()}
	case t.isKw("CALL") && p.toks[p.i+1].isPunct("{"):
		return p.callSub()
	}
	if c := p.writeClause(); c != nil {
		return c
	}
	for _, w := range writing {
		if t.isKw(w) {
			p.fail(t, "unsupported: %s in a query", w)
		}
	}
	p.fail(t, "expected MATCH, OPTIONAL MATCH, UNWIND, WITH or RETURN (a query ends with RETURN), found %s", p.describe(t))
	return nil
}

func (p *parser) where() Expr {
	if p.acceptKw("WHERE") {
		return p.expr()
	}
	return nil
}

func (p *parser) projection() Projection {
	var pr Projection
	pr.Distinct = p.acceptKw("DISTINCT")
	if p.is("*") {
		p.fail(p.tok(), "unsupported: '*' projection")
	}
	for {
		it := Item{Expr: p.expr()}
		if p.acceptKw("AS") {
			it.Alias = p.name("after AS")
		}
		pr.Items = append(pr.Items, it)
		if !p.accept(",") {
			break
		}
	}
	if p.acceptKw("ORDER") {
		p.expectKw("BY", "after ORDER")
		for {
			s := SortItem{Expr: p.expr()}
			switch {
			case p.acceptKw("DESC"), p.acceptKw("DESCENDING"):
				s.Desc = true
			case p.acceptKw("ASC"), p.acceptKw("ASCENDING"):
			}
			pr.Order = append(pr.Order, s)
			if !p.accept(",") {
				break
			}
		}
	}
	if p.acceptKw("SKIP") {
		pr.Skip = p.count("SKIP")
	}
	if p.acceptKw("LIMIT") {
		pr.Limit = p.count("LIMIT")
	}
	return pr
}

// count reads the integer literal after SKIP or LIMIT.
func (p *parser) count(kw string) *int64 {
	t := p.tok()
	if lit, ok := p.unary().(*Lit); ok && lit.Val.Kind == cypherval.Int {
		return &lit.Val.I
	}
	p.fail(t, "unsupported: %s takes an integer literal only", kw)
	return nil
}

func (p *parser) patterns() []Pattern {
	ps := []Pattern{p.pattern()}
	for p.accept(",") {
		ps = append(ps, p.pattern())
	}
	return ps
}

func (p *parser) pattern() Pattern {
	var pat Pattern
	if t := p.tok(); isVar(t) && p.toks[p.i+1].isPunct("=") {
		pat.Var = p.advance().text
		p.advance()
	}
	pat.Nodes = []NodePat{p.nodePat()}
	for p.is("-") || p.is("<") {
		pat.Rels = append(pat.Rels, p.relPat())
		pat.Nodes = append(pat.Nodes, p.nodePat())
	}
	return pat
}

func (p *parser) nodePat() NodePat {
	var n NodePat
	p.expect("(", "to start a node pattern")
	if isVar(p.tok()) {
		n.Var = p.advance().text
	}
	for p.accept(":") {
		n.Labels = append(n.Labels, p.name("after ':'"))
	}
	n.Props = p.propMap()
	p.expect(")", "after pattern")
	return n
}

func (p *parser) relPat() RelPat {
	var r RelPat
	left := p.accept("<")
	p.expect("-", "in relationship pattern")
	if p.accept("[") {
		if isVar(p.tok()) {
			r.Var = p.advance().text
		}
		if p.accept(":") {
			r.Types = append(r.Types, p.name("after ':'"))
			for p.accept("|") {
				p.accept(":")
				r.Types = append(r.Types, p.name("after '|'"))
			}
		}
		if p.accept("*") {
			r.Hops = p.hops()
		}
		r.Props = p.propMap()
		p.expect("]", "after relationship pattern")
	}
	p.expect("-", "to end relationship pattern")
	right := p.accept(">")
	switch {
	case left && !right:
		r.Dir = In
	case right && !left:
		r.Dir = Out
	default:
		r.Dir = Both
	}
	return r
}

// propMap reads an optional {key: expr, ...}.
func (p *parser) propMap() []PropEq {
	if p.is("$") {
		p.fail(p.tok(), "unsupported: parameters")
	}
	if !p.accept("{") {
		return nil
	}
	if p.accept("}") {
		return nil
	}
	var ps []PropEq
	for {
		k := p.name("as property key")
		p.expect(":", "after property key")
		ps = append(ps, PropEq{Key: k, Val: p.expr()})
		if !p.accept(",") {
			p.expect("}", "after property map")
			return ps
		}
	}
}

// expr reads an expression; the methods below are its precedence levels, loosest first.
func (p *parser) expr() Expr { return p.leftAssoc(p.xor, "OR") }
func (p *parser) xor() Expr  { return p.leftAssoc(p.and, "XOR") }
func (p *parser) and() Expr  { return p.leftAssoc(p.not, "AND") }

func (p *parser) leftAssoc(next func() Expr, kw string) Expr {
	e := next()
	for p.acceptKw(kw) {
		e = &Binary{Op: kw, L: e, R: next()}
	}
	return e
}

func (p *parser) not() Expr {
	if p.acceptKw("NOT") {
		return &Unary{Op: "NOT", X: p.not()}
	}
	return p.comparison()
}

// compOps are the comparison operators.
var compOps = []string{"=", "<>", "<", "<=", ">", ">="}

// acceptOp consumes and returns the current token when it is one of ops.
func (p *parser) acceptOp(ops []string) (string, bool) {
	for _, op := range ops {
		if p.accept(op) {
			return op, true
		}
	}
	return "", false
}

func (p *parser) comparison() Expr {
	e := p.predicate()
	if op, ok := p.acceptOp(compOps); ok {
		e = &Binary{Op: op, L: e, R: p.predicate()}
	}
	switch t := p.tok(); {
	case t.isPunct("!="):
		p.fail(t, "unsupported: '!=' (write '<>')")
	case t.isPunct("=~"):
		p.fail(t, "unsupported: regular expression match '=~'")
	case t.kind == tPunct && p.isOp(compOps):
		p.fail(t, "unsupported: chained comparison (write a < b AND b < c)")
	}
	return e
}

func (p *parser) isOp(ops []string) bool {
	for _, op := range ops {
		if p.is(op) {
			return true
		}
	}
	return false
}

// predicate reads the string, list and null predicates, which bind tighter than comparisons.
func (p *parser) predicate() Expr {
	e := p.additive()
	for {
		switch t := p.tok(); {
		case p.acceptKw("IN"), p.acceptKw("CONTAINS"):
			e = &Binary{Op: strings.ToUpper(t.text), L: e, R: p.additive()}
		case p.acceptKw("STARTS"), p.acceptKw("ENDS"):
			op := strings.ToUpper(t.text)
			p.expectKw("WITH", "after "+op)
			e = &Binary{Op: op + " WITH", L: e, R: p.additive()}
		case p.acceptKw("IS"):
			not := p.acceptKw("NOT")
			p.expectKw("NULL", "after IS")
			e = &IsNull{X: e, Not: not}
		default:
			return e
		}
	}
}

func (p *parser) additive() Expr {
	e := p.multiplicative()
	for {
		op, ok := p.acceptOp([]string{"+", "-"})
		if !ok {
			return e
		}
		e = &Binary{Op: op, L: e, R: p.multiplicative()}
	}
}

func (p *parser) multiplicative() Expr {
	e := p.unary()
	for {
		if p.is("^") {
			p.fail(p.tok(), "unsupported: power operator '^'")
		}
		op, ok := p.acceptOp([]string{"*", "/", "%"})
		if !ok {
			return e
		}
		e = &Binary{Op: op, L: e, R: p.unary()}
	}
}

// unary reads unary minus; a minus directly before a numeric literal folds into the literal.
func (p *parser) unary() Expr {
	if !p.is("-") {
		return p.postfix(p.atom())
	}
	minus := p.advance()
	if t := p.tok(); (t.kind == tInt || t.kind == tFloat) && t.pos == minus.end {
		p.advance()
		return p.postfix(p.number(t, "-"))
	}
	return &Unary{Op: "-", X: p.unary()}
}

// number returns the literal of numeric token t, with sign "" or "-".
func (p *parser) number(t token, sign string) Expr {
	if t.kind == tInt {
		i, err := strconv.ParseInt(sign+t.text, 10, 64)
		if err != nil {
			p.fail(t, "integer literal %s%s out of range", sign, t.text)
		}
		return &Lit{cypherval.IntVal(i)}
	}
	f, err := strconv.ParseFloat(sign+t.text, 64)
	if err != nil {
		p.fail(t, "float literal %s%s out of range", sign, t.text)
	}
	return &Lit{cypherval.FloatVal(f)}
}

// postfix reads property accesses, indexes and label tests after e.
func (p *parser) postfix(e Expr) Expr {
	for {
		switch {
		case p.accept("."):
			e = &Property{X: e, Key: p.name("after '.'")}
		case p.accept("["):
			if p.is("..") {
				p.fail(p.tok(), "unsupported: list slicing")
			}
			i := p.expr()
			if p.is("..") {
				p.fail(p.tok(), "unsupported: list slicing")
			}
			p.expect("]", "after index")
			e = &Index{X: e, I: i}
		case p.is("{"):
			e = p.mapProj(e)
		case p.is(":"):
			h := &HasLabels{X: e}
			for p.accept(":") {
				h.Labels = append(h.Labels, p.name("after ':'"))
			}
			e = h
		default:
			return e
		}
	}
}

func (p *parser) atom() Expr {
	t := p.tok()
	switch t.kind {
	case tInt, tFloat:
		p.advance()
		return p.number(t, "")
	case tString:
		p.advance()
		return &Lit{cypherval.StringVal(t.text)}
	case tQuoted:
		p.advance()
		return &Var{Name: t.text}
	case tWord:
		return p.word()
	case tPunct:
		switch t.text {
		case "(":
			return p.paren()
		case "[":
			return p.list()
		case "{":
			return p.mapLit()
		case "$":
			p.fail(t, "unsupported: parameters")
		}
	}
	p.fail(t, "expected an expression, found %s", p.describe(t))
	return nil
}

// word reads an atom that starts with a word: a constant, CASE, a function call or a variable.
func (p *parser) word() Expr {
	t := p.tok()
	switch strings.ToUpper(t.text) {
	case "TRUE", "FALSE":
		p.advance()
		return &Lit{cypherval.BoolVal(strings.EqualFold(t.text, "true"))}
	case "NULL":
		p.advance()
		return &Lit{cypherval.NullVal}
	case "CASE":
		return p.caseExpr()
	case "EXISTS", "COUNT":
		if p.toks[p.i+1].isPunct("{") {
			return p.subquery()
		}
	}
	// A function name may be namespaced: a.b.c(...).
	name, k := t.text, p.i+1
	for p.toks[k].isPunct(".") && p.toks[k+1].kind == tWord {
		name += "." + p.toks[k+1].text
		k += 2
	}
	if p.toks[k].isPunct("(") {
		p.i = k
		return p.call(name)
	}
	if !isVar(t) {
		p.fail(t, "expected an expression, found %s", p.describe(t))
	}
	p.advance()
	return &Var{Name: t.text}
}

// call reads the parenthesised arguments of function name.
func (p *parser) call(name string) Expr {
	p.expect("(", "after function name")
	c := &Call{Name: name}
	if p.is("*") {
		if !strings.EqualFold(name, "count") {
			p.fail(p.tok(), "expected an expression, found '*' (only count takes *)")
		}
		p.advance()
		c.Star = true
		p.expect(")", "after count(*")
		return c
	}
	c.Distinct = p.acceptKw("DISTINCT")
	for !p.is(")") {
		if c.Args != nil {
			p.expect(",", "between function arguments")
		}
		c.Args = append(c.Args, p.expr())
	}
	p.advance()
	return c
}

func (p *parser) caseExpr() Expr {
	p.advance()
	c := &Case{}
	if !p.isKw("WHEN") && !p.isKw("END") {
		c.Test = p.expr()
	}
	for p.acceptKw("WHEN") {
		w := When{Cond: p.expr()}
		p.expectKw("THEN", "after WHEN condition")
		w.Then = p.expr()
		c.Whens = append(c.Whens, w)
	}
	if len(c.Whens) == 0 {
		p.fail(p.tok(), "expected WHEN in CASE, found %s", p.describe(p.tok()))
	}
	if p.acceptKw("ELSE") {
		c.Else = p.expr()
	}
	p.expectKw("END", "to close CASE")
	return c
}

func (p *parser) list() Expr {
	p.advance()
	if isVar(p.tok()) && p.toks[p.i+1].isKw("IN") {
		return p.listComp()
	}
	l := &ListExpr{}
	for !p.is("]") {
		if l.Elems != nil {
			if p.is("|") || p.isKw("WHERE") {
				p.fail(p.tok(), "unsupported: list comprehensions")
			}
			p.expect(",", "between list elements")
		}
		l.Elems = append(l.Elems, p.expr())
	}
	p.advance()
	return l
}

// specialFloats are the printer's forms of the floats that have no literal.
var specialFloats = map[string]float64{
	"(0.0/0.0)": math.NaN(), "(1.0/0.0)": math.Inf(1), "(-1.0/0.0)": math.Inf(-1),
}

// paren reads a parenthesised expression. Two of the printer's forms get their printed meaning
// back: the special floats, and (-3), a negated literal, which stays a Unary (also with
// property accesses and indexes after the literal).
func (p *parser) paren() Expr {
	open := p.advance()
	first := p.i
	e := p.expr()
	closing := p.expect(")", "to close '('")
	if f, ok := specialFloats[p.src[open.pos:closing.end]]; ok {
		return &Lit{cypherval.FloatVal(f)}
	}
	minus, num := p.toks[first], p.toks[first+1]
	if minus.isPunct("-") && (num.kind == tInt || num.kind == tFloat) && num.pos == minus.end {
		if x, ok := negateRoot(e); ok {
			return &Unary{Op: "-", X: x}
		}
	}
	return e
}

// negateRoot negates the numeric literal at the root of a chain of property accesses and
// indexes; ok is false when e is no such chain or the literal has no negation.
func negateRoot(e Expr) (Expr, bool) {
	switch x := e.(type) {
	case *Lit:
		switch {
		case x.Val.Kind == cypherval.Int && x.Val.I != math.MinInt64:
			return &Lit{cypherval.IntVal(-x.Val.I)}, true
		case x.Val.Kind == cypherval.Float:
			return &Lit{cypherval.FloatVal(-x.Val.F)}, true
		}
	case *Property:
		if r, ok := negateRoot(x.X); ok {
			return &Property{X: r, Key: x.Key}, true
		}
	case *Index:
		if r, ok := negateRoot(x.X); ok {
			return &Index{X: r, I: x.I}, true
		}
	}
	return nil, false
}
