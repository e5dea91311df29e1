package sqlgen

import "strings"

// This file reads SQL text only as far as the reducer needs: tokens, balanced parentheses and
// the operands of a parenthesized term. It relies on the generator's printing rules (every
// compound expression in its own parentheses, every column reference qualified or a plain cN).

// Token kinds.
const (
	tkOpen   = '('
	tkClose  = ')'
	tkComma  = ','
	tkWord   = 'w' // identifier or keyword (may contain dots: t0.c0)
	tkNumber = 'n'
	tkString = 's'
	tkBlob   = 'b'
	tkOp     = 'o' // operator characters
)

type token struct {
	kind byte
	s, e int // byte offsets in the text
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
		c >= '0' && c <= '9' || c >= 0x80
}

// tokenize splits s into tokens. It never fails: an unterminated quote runs to the end.
func tokenize(s string) []token {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')' || c == ',':
			out = append(out, token{c, i, i + 1})
			i++
		case c == '\'' || c == '"' || c == '`':
			j := quoted(s, i)
			kind := byte(tkString)
			if c != '\'' {
				kind = tkWord
			}
			out = append(out, token{kind, i, j})
			i = j
		case (c == 'x' || c == 'X') && i+1 < len(s) && s[i+1] == '\'':
			j := quoted(s, i+1)
			out = append(out, token{tkBlob, i, j})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i + 1
			for j < len(s) {
				d := s[j]
				if d >= '0' && d <= '9' || d == '.' || d == 'x' || d == 'X' || d >= 'a' && d <= 'f' || d >= 'A' && d <= 'F' {
					j++
				} else if (d == '+' || d == '-') && (s[j-1] == 'e' || s[j-1] == 'E') && !strings.HasPrefix(s[i:], "0x") {
					j++
				} else {
					break
				}
			}
			out = append(out, token{tkNumber, i, j})
			i = j
		case isWordByte(c):
			j := i + 1
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			out = append(out, token{tkWord, i, j})
			i = j
		default:
			j := i + 1
			for j < len(s) && strings.IndexByte("<>=!|&~+-*/%", s[j]) >= 0 && strings.IndexByte("<>=!|&", c) >= 0 {
				j++
			}
			out = append(out, token{tkOp, i, j})
			i = j
		}
	}
	return out
}

// quoted returns the end of the quoted run starting at s[i] (a quote), doubled quotes included.
func quoted(s string, i int) int {
	q := s[i]
	j := i + 1
	for j < len(s) {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j += 2
				continue
			}
			return j + 1
		}
		j++
	}
	return len(s)
}

// matchParens returns, for each token index of an opening parenthesis, the index of its closing
// one; ok is false when the parentheses do not balance.
func matchParens(toks []token) (match map[int]int, ok bool) {
	match = map[int]int{}
	var stack []int
	for i, t := range toks {
		switch t.kind {
		case tkOpen:
			stack = append(stack, i)
		case tkClose:
			if len(stack) == 0 {
				return nil, false
			}
			match[stack[len(stack)-1]] = i
			stack = stack[:len(stack)-1]
		}
	}
	return match, len(stack) == 0
}

// isValueToken reports whether a token is an operand by itself: a literal or a column reference.
func isValueToken(s string, t token) bool {
	switch t.kind {
	case tkNumber, tkString, tkBlob:
		return true
	case tkWord:
		w := s[t.s:t.e]
		switch strings.ToUpper(w) {
		case "NULL", "TRUE", "FALSE":
			return true
		}
		return strings.Contains(w, ".") || isPlainColumn(w)
	}
	return false
}

// isPlainColumn reports whether w is an unqualified generated column name (c0, c12).
func isPlainColumn(w string) bool {
	if len(w) < 2 || w[0] != 'c' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// span is a piece of text [s, e).
type span struct{ s, e int }

// operands returns the operands of the parenthesized term whose tokens are toks[open..close]: its
// bare literals and column references and its parenthesized subterms, looking through function
// argument lists, CAST(... AS T), IN lists and row values.
func operands(s string, toks []token, match map[int]int, open, close int) []span {
	var out []span
	for i := open + 1; i < close; i++ {
		t := toks[i]
		switch {
		case t.kind == tkOpen:
			end := match[i]
			if isList(s, toks, match, i) {
				out = append(out, listItems(s, toks, match, i, end)...)
			} else {
				out = append(out, span{t.s, toks[end].e})
			}
			i = end
		case isValueToken(s, t):
			out = append(out, span{t.s, t.e})
		}
	}
	return out
}

// isList reports whether the parenthesis at toks[i] opens an argument or value list rather than
// a subterm: it follows a function name, CAST or IN, or holds a top-level comma.
func isList(s string, toks []token, match map[int]int, i int) bool {
	if i > 0 && toks[i-1].kind == tkWord && !isValueToken(s, toks[i-1]) {
		w := strings.ToUpper(s[toks[i-1].s:toks[i-1].e])
		if w == "CAST" || w == "IN" || !isKeywordish(w) {
			return true
		}
	}
	end := match[i]
	for j := i + 1; j < end; j++ {
		switch toks[j].kind {
		case tkOpen:
			j = match[j]
		case tkComma:
			return true
		}
	}
	return false
}

// listItems returns the items of the list toks[open..close] that are single operands.
func listItems(s string, toks []token, match map[int]int, open, close int) []span {
	var out []span
	start := open + 1
	flush := func(end int) { // items toks[start..end)
		if end-start == 1 && isValueToken(s, toks[start]) {
			out = append(out, span{toks[start].s, toks[start].e})
		} else if end > start && toks[start].kind == tkOpen && match[start] == end-1 {
			if isList(s, toks, match, start) {
				out = append(out, listItems(s, toks, match, start, end-1)...)
			} else {
				out = append(out, span{toks[start].s, toks[end-1].e})
			}
		} else if end-start > 1 {
			// A CAST(x AS T) item, or a negative number: keep the first operand.
			for k := start; k < end; k++ {
				if toks[k].kind == tkWord && strings.EqualFold(s[toks[k].s:toks[k].e], "AS") {
					if k-start == 1 && isValueToken(s, toks[start]) || toks[start].kind == tkOpen && match[start] == k-1 {
						out = append(out, span{toks[start].s, toks[k-1].e})
					}
					break
				}
			}
		}
	}
	for j := open + 1; j < close; j++ {
		switch toks[j].kind {
		case tkOpen:
			j = match[j]
		case tkComma:
			flush(j)
			start = j + 1
		}
	}
	flush(close)
	return out
}

// simpleLiterals are what a term may be replaced with.
var simpleLiterals = []string{"NULL", "0", "1", "''"}

// shrinkCandidates returns smaller variants of an expression text, in the order to try them: for
// each parenthesized term, outermost first, the term replaced by each of its operands and then by
// each simple literal; then each literal replaced by a simple one. Every candidate is shorter than
// s, so that passes built on it terminate. Argument and value lists (after a function name, CAST,
// IN or a table name, or holding a top-level comma) are not terms themselves.
func shrinkCandidates(s string) []string {
	toks := tokenize(s)
	match, ok := matchParens(toks)
	if !ok {
		return nil
	}
	var out []string
	seen := map[string]bool{s: true}
	add := func(c string) {
		if len(c) < len(s) && !seen[c] { // strictly shorter: the passes must terminate
			seen[c] = true
			out = append(out, c)
		}
	}
	for i, t := range toks {
		if t.kind != tkOpen {
			continue
		}
		end := match[i]
		if isList(s, toks, match, i) {
			continue // an argument list is not a term; its items are reached from the term
		}
		g := span{t.s, toks[end].e}
		for _, op := range operands(s, toks, match, i, end) {
			add(s[:g.s] + s[op.s:op.e] + s[g.e:])
		}
		for _, lit := range simpleLiterals {
			add(s[:g.s] + lit + s[g.e:])
		}
	}
	for _, t := range toks {
		if t.kind == tkNumber || t.kind == tkString || t.kind == tkBlob {
			lit := s[t.s:t.e]
			for _, l := range simpleLiterals {
				if l != lit {
					add(s[:t.s] + l + s[t.e:])
				}
			}
		}
	}
	// A bare operand is the smallest predicate there is, short of a literal.
	if len(toks) == 1 && toks[0].kind == tkWord {
		for _, l := range simpleLiterals {
			add(l)
		}
	}
	return out
}
