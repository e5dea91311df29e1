// Package sexpr reads S-expressions as SMT-LIB 2 writes them, and as SMT solvers and Z3's μZ
// print them: lists in parentheses, atoms, "string literals" (with "" for a quote), |quoted
// symbols|, and ; comments to the end of the line.
//
// Two levels share one lexer. [Scanner] yields tokens without allocating: the SMT-LIB reader of
// package smtgen classifies its atoms further (keywords, numerals, #x and #b literals). [Parse]
// and [ParseLenient] build trees of [Node]: the former for text that must be well formed (a
// statement polyfuzz sends), the latter for what a solver printed, which may stop anywhere.
//
// An atom is a run of characters other than white space (space, tab, newline, carriage return,
// form feed, vertical tab), parentheses, quotes, bars and semicolons; this package does not check
// that it is a valid SMT-LIB symbol or literal. It imports nothing of the module.
package sexpr

import (
	"fmt"
	"strings"
)

// Kind is the kind of a token or a node. The zero value is invalid.
type Kind uint8

// Kinds. EOF, Open and Close are tokens only, List is a node only.
const (
	Invalid Kind = iota
	EOF          // the end of the input
	Open         // (
	Close        // )
	Atom         // a symbol, keyword, numeral or other literal, as written
	String       // a string literal with its quotes: "a ""b"""
	Quoted       // a quoted symbol with its bars: |a b|
	List         // a parenthesised list
)

var kindNames = [...]string{"invalid", "end of input", "(", ")", "atom", "string", "quoted symbol", "list"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Token is one lexeme: the text src[Pos:End] of the scanned input.
type Token struct {
	Kind     Kind
	Pos, End int
}

// Error is a malformed input at byte offset Pos.
type Error struct {
	Pos int
	Msg string
}

// Error returns "offset N: msg".
func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Pos, e.Msg) }

// Messages of the errors this package returns.
const (
	MsgUnterminatedString = "unterminated string literal"
	MsgUnterminatedQuoted = "unterminated quoted symbol"
	MsgUnclosedList       = "unclosed '('"
	MsgStrayClose         = "unexpected ')'"
)

// delim marks the bytes that end an atom.
var delim = func() (t [256]bool) {
	for _, c := range " \t\n\r\f\v()\";|" {
		t[c] = true
	}
	return
}()

// isSpace reports whether c is white space between tokens.
func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

// Scanner splits a text into tokens. The zero value scans an empty text; Reset gives it one.
type Scanner struct {
	// Lenient makes an unterminated string literal or quoted symbol run to the end of the input
	// instead of being an error.
	Lenient bool
	src     string
	pos     int
}

// Reset starts scanning src from its beginning.
func (s *Scanner) Reset(src string) { s.src, s.pos = src, 0 }

// Offset returns the byte offset the next token is searched from.
func (s *Scanner) Offset() int { return s.pos }

// Seek makes the next token start at or after byte offset off.
func (s *Scanner) Seek(off int) { s.pos = off }

// Next returns the next token, skipping white space and comments; at the end it returns an EOF
// token at the end of the input. The error, an *Error, is an unterminated string literal or
// quoted symbol (never when Lenient).
func (s *Scanner) Next() (Token, error) {
	src, i := s.src, s.pos
	for i < len(src) {
		if c := src[i]; isSpace(c) {
			i++
		} else if c == ';' {
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(src)
			}
		} else {
			break
		}
	}
	if i >= len(src) {
		s.pos = len(src)
		return Token{Kind: EOF, Pos: i, End: i}, nil
	}
	t := Token{Pos: i}
	switch src[i] {
	case '(':
		t.Kind, t.End = Open, i+1
	case ')':
		t.Kind, t.End = Close, i+1
	case '"':
		t.Kind, t.End = String, StringEnd(src, i)
		if t.End < 0 {
			if !s.Lenient {
				return Token{}, &Error{i, MsgUnterminatedString}
			}
			t.End = len(src)
		}
	case '|':
		t.Kind = Quoted
		if k := strings.IndexByte(src[i+1:], '|'); k >= 0 {
			t.End = i + k + 2
		} else if s.Lenient {
			t.End = len(src)
		} else {
			return Token{}, &Error{i, MsgUnterminatedQuoted}
		}
	default:
		j := i + 1
		for j < len(src) && !delim[src[j]] {
			j++
		}
		t.Kind, t.End = Atom, j
	}
	s.pos = t.End
	return t, nil
}

// StringEnd returns the offset after the string literal that starts at src[i] == '"', or -1
// when it is not closed.
func StringEnd(src string, i int) int {
	for j := i + 1; ; {
		k := strings.IndexByte(src[j:], '"')
		if k < 0 {
			return -1
		}
		j += k + 1
		if j < len(src) && src[j] == '"' { // "" stands for a quote
			j++
			continue
		}
		return j
	}
}

// Unquote returns the content of a string literal, with "" undone; text that is not a string
// literal is returned as it is.
func Unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
}
