package smtproc

import (
	"bytes"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// node is one parsed s-expression: an atom (symbol, keyword, numeral, "string", |symbol|), kept
// as printed, or a list.
type node struct {
	atom   string
	list   []node
	isList bool
}

// reader splits solver output into s-expressions.
type reader struct {
	s []byte
	i int
}

// skip passes whitespace and ; comments.
func (r *reader) skip() {
	for r.i < len(r.s) {
		switch c := r.s[r.i]; {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			r.i++
		case c == ';':
			for r.i < len(r.s) && r.s[r.i] != '\n' {
				r.i++
			}
		default:
			return
		}
	}
}

// next returns the next top-level s-expression, false at the end of the input. An unclosed list
// or string ends at the end of the input.
func (r *reader) next() (node, bool) {
	r.skip()
	if r.i >= len(r.s) {
		return node{}, false
	}
	return r.expr(), true
}

func (r *reader) expr() node {
	switch r.s[r.i] {
	case '(':
		r.i++
		n := node{isList: true}
		for {
			r.skip()
			if r.i >= len(r.s) {
				return n
			}
			if r.s[r.i] == ')' {
				r.i++
				return n
			}
			n.list = append(n.list, r.expr())
		}
	case ')': // a stray closing parenthesis is an atom of its own
		r.i++
		return node{atom: ")"}
	case '"':
		start := r.i
		r.i = stringEnd(r.s, r.i)
		return node{atom: string(r.s[start:r.i])}
	case '|':
		start := r.i
		r.i = quotedEnd(r.s, r.i)
		return node{atom: string(r.s[start:r.i])}
	}
	start := r.i
	for r.i < len(r.s) {
		c := r.s[r.i]
		if c <= ' ' || c == '(' || c == ')' || c == '"' || c == ';' {
			break
		}
		r.i++
	}
	return node{atom: string(r.s[start:r.i])}
}

// stringEnd returns the index after the string literal that starts at s[i] == '"'.
func stringEnd(s []byte, i int) int {
	for i++; i < len(s); i++ {
		if s[i] == '"' {
			if i+1 < len(s) && s[i+1] == '"' {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(s)
}

// quotedEnd returns the index after the quoted symbol that starts at s[i] == '|'.
func quotedEnd(s []byte, i int) int {
	if j := bytes.IndexByte(s[i+1:], '|'); j >= 0 {
		return i + 1 + j + 1
	}
	return len(s)
}

// text prints n back with single spaces between elements and none inside the parentheses.
func (n *node) text() string {
	if !n.isList {
		return n.atom
	}
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *node) write(b *strings.Builder) {
	if !n.isList {
		b.WriteString(n.atom)
		return
	}
	b.WriteByte('(')
	for i := range n.list {
		if i > 0 {
			b.WriteByte(' ')
		}
		n.list[i].write(b)
	}
	b.WriteByte(')')
}

// head returns the first element of a list if it is an atom.
func (n *node) head() string {
	if n.isList && len(n.list) > 0 && !n.list[0].isList {
		return n.list[0].atom
	}
	return ""
}

// isPairs reports whether n is a non-empty list of two-element lists, the shape of a get-value
// (or get-assignment) answer.
func (n *node) isPairs() bool {
	if !n.isList || len(n.list) == 0 {
		return false
	}
	for i := range n.list {
		if !n.list[i].isList || len(n.list[i].list) != 2 {
			return false
		}
	}
	return true
}

// unquote returns the contents of an SMT-LIB string literal ("" stands for "); other atoms are
// returned as they are.
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
}

// errorMessage returns the message of an (error ...) response.
func errorMessage(n *node) string {
	if len(n.list) < 2 {
		return "error"
	}
	parts := make([]string, 0, len(n.list)-1)
	for i := 1; i < len(n.list); i++ {
		if n.list[i].isList {
			parts = append(parts, n.list[i].text())
		} else {
			parts = append(parts, unquote(n.list[i].atom))
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// parseOutput turns a statement's output into a result, as described in the package doc.
func parseOutput(out []byte) *fuzz.Result {
	res := &fuzz.Result{Status: fuzz.StatusOK}
	r := reader{s: out}
	unsupported := false
	for {
		n, ok := r.next()
		if !ok {
			break
		}
		switch {
		case !n.isList:
			res.Rows = append(res.Rows, []string{n.atom})
			if n.atom == "unsupported" {
				unsupported = true
			}
		case n.head() == "error":
			if res.Status != fuzz.StatusEngineError {
				res.Status, res.Code, res.Err = fuzz.StatusEngineError, "error", errorMessage(&n)
			}
		case n.isPairs():
			for i := range n.list {
				p := &n.list[i]
				res.Rows = append(res.Rows, []string{p.list[0].text(), p.list[1].text()})
			}
		default:
			res.Rows = append(res.Rows, []string{n.text()})
		}
	}
	if unsupported && res.Status == fuzz.StatusOK {
		res.Code = "unsupported"
	}
	return res
}

// hasError reports whether out holds an (error ...) response.
func hasError(out []byte) bool {
	r := reader{s: out}
	for {
		n, ok := r.next()
		if !ok {
			return false
		}
		if n.head() == "error" {
			return true
		}
	}
}

// versionOf returns the string of a (:version "x") answer in out, or "".
func versionOf(out []byte) string {
	r := reader{s: out}
	for {
		n, ok := r.next()
		if !ok {
			return ""
		}
		if n.head() == ":version" && len(n.list) > 1 && !n.list[1].isList {
			return unquote(n.list[1].atom)
		}
	}
}

// balanced reports whether every list, string and quoted symbol of stmt is closed, so that the
// solver reads the sync marker after it as a command of its own.
func balanced(stmt string) bool {
	depth := 0
	for i := 0; i < len(stmt); i++ {
		switch stmt[i] {
		case '(':
			depth++
		case ')':
			depth-- // a stray ')' is the solver's error to report, not a protocol hazard
			if depth < 0 {
				depth = 0
			}
		case '"':
			j := i + 1
			for ; j < len(stmt); j++ {
				if stmt[j] == '"' {
					if j+1 < len(stmt) && stmt[j+1] == '"' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(stmt) {
				return false
			}
			i = j
		case '|':
			j := strings.IndexByte(stmt[i+1:], '|')
			if j < 0 {
				return false
			}
			i += j + 1
		case ';':
			for i < len(stmt) && stmt[i] != '\n' {
				i++
			}
		}
	}
	return depth == 0
}
