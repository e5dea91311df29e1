package localize

import (
	"fmt"
	"io"
	"strings"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// Kind says what a node of an incremental proof tree is. The zero value is invalid.
type Kind int

// The kinds of nodes.
const (
	Held    Kind = iota + 1 // held before the update too: not expanded (cut)
	Update                  // a fact the update inserts: a leaf of the answer
	Derived                 // derived anew, by Rule from Body
	Absent                  // a negated atom whose tuple is absent before and after
	Gone                    // a negated atom whose tuple the update deleted
)

// Tree is an incremental proof tree: a proof tree of a tuple the update inserted, cut at the
// tuples that held before it. In a tree of the reverse update (Reverse), "the update" is the
// reverse one: the tree derives a tuple of the old state that the update removed.
type Tree struct {
	Tuple   datalog.Tuple // for Absent and Gone, the negated atom's tuple (_ where it has _)
	Kind    Kind
	Rule    string  // the rule of a Derived node
	Body    []*Tree // positive body tuples, then negated atoms
	Reverse bool
}

// tree converts a proof of the model into an incremental proof tree; memo shares subtrees as
// the proof does.
func (d *direction) tree(p *datalog.Proof, memo map[*datalog.Proof]*Tree) *Tree {
	if t := memo[p]; t != nil {
		return t
	}
	key := p.Tuple.String()
	t := &Tree{Tuple: p.Tuple, Reverse: !d.forward}
	memo[p] = t
	switch {
	case !d.changed[key]:
		t.Kind = Held
	case d.rules[p.Rule].IsFact():
		t.Kind = Update
	default:
		t.Kind, t.Rule = Derived, d.rules[p.Rule].String()
		for _, b := range p.Body {
			t.Body = append(t.Body, d.tree(b, memo))
		}
		for _, u := range p.Negated {
			k := Absent
			if len(d.goneMatching(u)) > 0 {
				k = Gone
			}
			t.Body = append(t.Body, &Tree{Tuple: u, Kind: k, Reverse: !d.forward})
		}
	}
	return t
}

// walk calls f on every distinct node of t, parents first.
func (t *Tree) walk(f func(*Tree)) {
	seen := map[*Tree]bool{}
	var rec func(*Tree)
	rec = func(n *Tree) {
		if seen[n] {
			return
		}
		seen[n] = true
		f(n)
		for _, c := range n.Body {
			rec(c)
		}
	}
	rec(t)
}

// label describes a node's kind, in the words of the tree's direction.
func (t *Tree) label() string {
	switch t.Kind {
	case Held:
		if t.Reverse {
			return "held after the update too"
		}
		return "held before the update"
	case Update:
		if t.Reverse {
			return "deleted by the update"
		}
		return "inserted by the update"
	case Derived:
		if t.Reverse {
			return "removed by the update"
		}
		return "new"
	case Absent:
		return "absent before and after"
	case Gone:
		if t.Reverse {
			return "inserted by the update"
		}
		return "deleted by the update"
	}
	return "?"
}

// Format writes t indented by depth, one node per line: the tuple (negated atoms with !), what
// the update did to it, and for a derived tuple its rule. A subtree met again is not repeated.
func (t *Tree) Format(w io.Writer, indent string) {
	seen := map[*Tree]bool{}
	var rec func(n *Tree, depth int)
	rec = func(n *Tree, depth int) {
		pad := indent + strings.Repeat("  ", depth)
		neg := ""
		if n.Kind == Absent || n.Kind == Gone {
			neg = "!"
		}
		line := fmt.Sprintf("%s%s%s  [%s]", pad, neg, n.Tuple, n.label())
		if n.Kind == Derived {
			if seen[n] {
				fmt.Fprintf(w, "%s (derived above)\n", line)
				return
			}
			seen[n] = true
			line += "  by " + n.Rule
		}
		fmt.Fprintln(w, line)
		for _, c := range n.Body {
			rec(c, depth+1)
		}
	}
	rec(t, 0)
}

// String returns the tree as Format writes it.
func (t *Tree) String() string {
	var b strings.Builder
	t.Format(&b, "")
	return b.String()
}
