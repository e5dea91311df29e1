package sexpr

import "strings"

// Node is one S-expression: an atom, a string literal or a quoted symbol, kept as written, or a
// list. Pos and End are its byte offsets in the text it was read from.
type Node struct {
	Kind     Kind   // Atom, String, Quoted or List
	Text     string // as written, for all but lists: x, #b01, "a ""b""", |a b|
	List     []Node // the elements of a list
	Pos, End int
}

// IsList reports whether n is a list.
func (n *Node) IsList() bool { return n.Kind == List }

// Symbol returns the text of an atom, a quoted symbol without its bars, or a string literal as
// written; "" for a list.
func (n *Node) Symbol() string {
	if n.Kind == Quoted && len(n.Text) >= 2 && n.Text[len(n.Text)-1] == '|' {
		return n.Text[1 : len(n.Text)-1]
	}
	return n.Text
}

// Head returns the Symbol of a list's first element when it is not a list, else "".
func (n *Node) Head() string {
	if n.Kind == List && len(n.List) > 0 && n.List[0].Kind != List {
		return n.List[0].Symbol()
	}
	return ""
}

// String prints n back with single spaces between the elements of a list and none inside its
// parentheses; atoms are printed as written.
func (n *Node) String() string {
	if n.Kind != List {
		return n.Text
	}
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *Node) write(b *strings.Builder) {
	if n.Kind != List {
		b.WriteString(n.Text)
		return
	}
	b.WriteByte('(')
	for i := range n.List {
		if i > 0 {
			b.WriteByte(' ')
		}
		n.List[i].write(b)
	}
	b.WriteByte(')')
}

// Parse reads the top-level S-expressions of src. An unterminated string literal or quoted
// symbol, an unclosed list or a ')' that closes none is an *Error.
func Parse(src string) ([]Node, error) {
	r := reader{s: Scanner{src: src}}
	var out []Node
	for {
		n, ok, err := r.expr()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, n)
	}
}

// ParseLenient reads the top-level S-expressions of src and never fails: an unterminated string
// literal or quoted symbol runs to the end of src, an unclosed list is closed there, and a ')'
// that closes no list is an atom of its own. It is for the output of a process, which may stop
// anywhere.
func ParseLenient(src string) []Node {
	r := reader{s: Scanner{src: src, Lenient: true}, lenient: true}
	var out []Node
	for {
		n, ok, _ := r.expr()
		if !ok {
			return out
		}
		out = append(out, n)
	}
}

type reader struct {
	s       Scanner
	lenient bool
}

// expr reads one expression; ok is false at the end of the input.
func (r *reader) expr() (n Node, ok bool, err error) {
	t, err := r.s.Next()
	if err != nil {
		return Node{}, false, err
	}
	switch t.Kind {
	case EOF:
		return Node{}, false, nil
	case Close:
		if !r.lenient {
			return Node{}, false, &Error{t.Pos, MsgStrayClose}
		}
		return Node{Kind: Atom, Text: ")", Pos: t.Pos, End: t.End}, true, nil
	case Open:
		return r.list(t.Pos)
	}
	return Node{Kind: t.Kind, Text: r.s.src[t.Pos:t.End], Pos: t.Pos, End: t.End}, true, nil
}

// list reads the elements of a list whose '(' is at offset open, through its ')'.
func (r *reader) list(open int) (Node, bool, error) {
	n := Node{Kind: List, Pos: open}
	for {
		t, err := r.s.Next()
		if err != nil {
			return Node{}, false, err
		}
		switch t.Kind {
		case EOF:
			if !r.lenient {
				return Node{}, false, &Error{open, MsgUnclosedList}
			}
			n.End = t.End
			return n, true, nil
		case Close:
			n.End = t.End
			return n, true, nil
		case Open:
			c, _, err := r.list(t.Pos)
			if err != nil {
				return Node{}, false, err
			}
			n.List = append(n.List, c)
		default:
			n.List = append(n.List, Node{Kind: t.Kind, Text: r.s.src[t.Pos:t.End], Pos: t.Pos, End: t.End})
		}
	}
}
