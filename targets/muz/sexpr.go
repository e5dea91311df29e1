package muz

import (
	"errors"
	"strings"
)

// node is an s-expression: an atom (a symbol, keyword, numeral, bit-vector literal or "string")
// or a list. start and end are its byte offsets in the text it was read from.
type node struct {
	atom       string
	list       []*node
	isList     bool
	start, end int
}

// String prints n with single spaces.
func (n *node) String() string {
	if !n.isList {
		return n.atom
	}
	parts := make([]string, len(n.list))
	for i, c := range n.list {
		parts[i] = c.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// head returns the first atom of a list, or "".
func (n *node) head() string {
	if n.isList && len(n.list) > 0 && !n.list[0].isList {
		return n.list[0].atom
	}
	return ""
}

var errUnbalanced = errors.New("unbalanced parentheses, string or |quoted symbol|")

// readAll reads the top-level s-expressions of s. Comments (; to the end of the line) are
// skipped; strings keep their quotes, |quoted symbols| lose their bars.
func readAll(s string) ([]*node, error) {
	var out []*node
	var stack []*node
	for i := 0; i < len(s); {
		c := s[i]
		var n *node
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == ';':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '(':
			stack = append(stack, &node{isList: true, start: i})
			i++
			continue
		case c == ')':
			if len(stack) == 0 {
				return nil, errUnbalanced
			}
			n = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			i++
			n.end = i
		case c == '"':
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '"')
				if k < 0 {
					return nil, errUnbalanced
				}
				j += k + 1
				if j < len(s) && s[j] == '"' { // "" escapes a quote
					j++
					continue
				}
				break
			}
			n = &node{atom: s[i:j], start: i, end: j}
			i = j
		case c == '|':
			k := strings.IndexByte(s[i+1:], '|')
			if k < 0 {
				return nil, errUnbalanced
			}
			n = &node{atom: s[i+1 : i+1+k], start: i, end: i + k + 2}
			i += k + 2
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r();\"|", rune(s[j])) {
				j++
			}
			n = &node{atom: s[i:j], start: i, end: j}
			i = j
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			top.list = append(top.list, n)
		} else {
			out = append(out, n)
		}
	}
	if len(stack) > 0 {
		return nil, errUnbalanced
	}
	return out, nil
}
