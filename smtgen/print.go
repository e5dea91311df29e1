package smtgen

import (
	"strconv"
	"strings"
)

// String prints s in SMT-LIB v2.6 syntax, one command per line.
func (s *Script) String() string {
	var b strings.Builder
	WriteScript(&b, s)
	return b.String()
}

// String prints c in SMT-LIB v2.6 syntax on one line (a string or quoted symbol it holds may
// contain line breaks).
func (c *Command) String() string {
	var b strings.Builder
	WriteCommand(&b, c)
	return b.String()
}

// String prints t in SMT-LIB v2.6 syntax on one line.
func (t *Term) String() string {
	var b strings.Builder
	WriteTerm(&b, t)
	return b.String()
}

// WriteScript appends s to b, each command followed by a newline.
func WriteScript(b *strings.Builder, s *Script) {
	var w termWriter
	for _, c := range s.Commands {
		w.command(b, c)
		b.WriteByte('\n')
	}
}

// WriteCommand appends c to b, without a newline. A command with Raw set prints as
// (name Raw) whatever its name; otherwise the fields that [Command] documents for its name are
// printed, and an unknown command without Raw prints as (name). Absent push/pop and
// declare-sort numbers are written out (as 1 and 0).
func WriteCommand(b *strings.Builder, c *Command) {
	var w termWriter
	w.command(b, c)
}

// WriteTerm appends t to b on one line. It does not recurse on terms, so any depth is fine. A
// numeral or decimal Lit with a leading '-' is printed as the application (- x).
func WriteTerm(b *strings.Builder, t *Term) {
	var w termWriter
	w.term(b, t)
}

// WriteSort appends s to b. Unlike [Sort.String] it prints an indexed sort with arguments as
// ((_ name i...) args...).
func WriteSort(b *strings.Builder, s *Sort) {
	if s == nil {
		b.WriteString("<nil sort>")
		return
	}
	if len(s.Index) == 0 && len(s.Args) == 0 {
		writeSymbol(b, s.Name)
		return
	}
	b.WriteByte('(')
	if len(s.Index) > 0 {
		if len(s.Args) > 0 {
			b.WriteByte('(')
		}
		writeIndexed(b, s.Name, s.Index)
		if len(s.Args) > 0 {
			b.WriteByte(')')
		}
	} else {
		writeSymbol(b, s.Name)
	}
	for _, a := range s.Args {
		b.WriteByte(' ')
		WriteSort(b, a)
	}
	b.WriteByte(')')
}

// writeIndexed writes "_ name i..." (without parentheses).
func writeIndexed(b *strings.Builder, name string, index []int) {
	b.WriteString("_ ")
	writeSymbol(b, name)
	var num [20]byte
	for _, i := range index {
		b.WriteByte(' ')
		b.Write(strconv.AppendInt(num[:0], int64(i), 10))
	}
}

// writeSymbol writes s as quoteSymbol does, without allocating.
func writeSymbol(b *strings.Builder, s string) {
	if isSimpleSym(s) {
		b.WriteString(s)
		return
	}
	b.WriteByte('|')
	b.WriteString(s)
	b.WriteByte('|')
}

// isSimpleSym reports whether s can be written without bars: a non-empty sequence of letters,
// digits and ~!@$%^&*_-+=<>.?/ that does not start with a digit (nor with a sign or dot and a
// digit) and is not a reserved word.
func isSimpleSym(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	if len(s) > 1 && (s[0] == '-' || s[0] == '+' || s[0] == '.') && s[1] >= '0' && s[1] <= '9' {
		return false // a legal symbol that lenient readers take for a number
	}
	for i := 0; i < len(s); i++ {
		if !symChar[s[i]] {
			return false
		}
	}
	return !isReserved(s)
}

// writeStringLit writes s as an SMT-LIB string literal.
func writeStringLit(b *strings.Builder, s string) {
	b.WriteByte('"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		b.WriteString(s[:i+1])
		b.WriteByte('"')
		s = s[i+1:]
	}
	b.WriteString(s)
	b.WriteByte('"')
}

// printFrame is a term being printed and how far its printing has gone.
type printFrame struct {
	t *Term
	i int
}

// termWriter prints terms with an explicit stack, reused across the terms of a script.
type termWriter struct {
	stack []printFrame
}

func (w *termWriter) command(b *strings.Builder, c *Command) {
	if c == nil {
		b.WriteString("<nil command>")
		return
	}
	b.WriteByte('(')
	writeSymbol(b, c.Name)
	if c.Raw != "" {
		b.WriteByte(' ')
		b.WriteString(c.Raw)
		b.WriteByte(')')
		return
	}
	var num [20]byte
	switch c.Name {
	case "set-logic":
		b.WriteByte(' ')
		writeSymbol(b, c.Symbol)
	case "set-option", "set-info":
		writeAttr(b, c.Attr)
	case "declare-sort":
		b.WriteByte(' ')
		writeSymbol(b, c.Symbol)
		b.WriteByte(' ')
		b.Write(strconv.AppendInt(num[:0], int64(c.Arity), 10))
	case "push", "pop":
		b.WriteByte(' ')
		b.Write(strconv.AppendInt(num[:0], int64(c.Arity), 10))
	case "define-sort":
		b.WriteByte(' ')
		writeSymbol(b, c.Symbol)
		b.WriteByte(' ')
		writeList(b, c.Params, func(p Binding) { writeSymbol(b, p.Name) })
		b.WriteByte(' ')
		WriteSort(b, c.Sort)
	case "declare-const":
		b.WriteByte(' ')
		writeSymbol(b, c.Symbol)
		b.WriteByte(' ')
		WriteSort(b, c.Sort)
	case "declare-fun":
		b.WriteByte(' ')
		writeSymbol(b, c.Symbol)
		b.WriteByte(' ')
		writeList(b, c.ArgSorts, func(s *Sort) { WriteSort(b, s) })
		b.WriteByte(' ')
		WriteSort(b, c.Sort)
	case "define-fun", "define-fun-rec":
		b.WriteByte(' ')
		writeSymbol(b, c.Symbol)
		b.WriteByte(' ')
		writeList(b, c.Params, func(p Binding) { writeSortedVar(b, p) })
		b.WriteByte(' ')
		WriteSort(b, c.Sort)
		w.terms(b, c.Terms)
	case "define-const":
		b.WriteByte(' ')
		writeSymbol(b, c.Symbol)
		b.WriteByte(' ')
		WriteSort(b, c.Sort)
		w.terms(b, c.Terms)
	case "assert", "simplify", "eval":
		w.terms(b, c.Terms)
	case "check-sat-assuming", "get-value":
		b.WriteByte(' ')
		writeList(b, c.Terms, func(t *Term) { w.term(b, t) })
	}
	b.WriteByte(')')
}

// writeList writes "(" then each item, space-separated, then ")".
func writeList[T any](b *strings.Builder, items []T, write func(T)) {
	b.WriteByte('(')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(' ')
		}
		write(it)
	}
	b.WriteByte(')')
}

// terms writes each of ts after a space.
func (w *termWriter) terms(b *strings.Builder, ts []*Term) {
	for _, t := range ts {
		b.WriteByte(' ')
		w.term(b, t)
	}
}

func writeSortedVar(b *strings.Builder, v Binding) {
	b.WriteByte('(')
	writeSymbol(b, v.Name)
	b.WriteByte(' ')
	WriteSort(b, v.Sort)
	b.WriteByte(')')
}

// writeAttr writes " key" and " value" when there is one.
func writeAttr(b *strings.Builder, a Attr) {
	b.WriteByte(' ')
	b.WriteString(a.Key)
	if a.Value != "" {
		b.WriteByte(' ')
		b.WriteString(a.Value)
	}
}

func (w *termWriter) term(b *strings.Builder, root *Term) {
	base := len(w.stack)
	w.stack = append(w.stack, printFrame{t: root})
	for len(w.stack) > base {
		f := &w.stack[len(w.stack)-1]
		t := f.t
		var next *Term // the child to print next, when push is set
		push, done := false, false
		switch {
		case t == nil:
			b.WriteString("<nil term>")
			done = true
		case t.Kind == KindNumeral || t.Kind == KindDecimal:
			if strings.HasPrefix(t.Lit, "-") {
				b.WriteString("(- ")
				b.WriteString(t.Lit[1:])
				b.WriteByte(')')
			} else {
				b.WriteString(t.Lit)
			}
			done = true
		case t.Kind == KindHex:
			b.WriteString("#x")
			b.WriteString(t.Lit)
			done = true
		case t.Kind == KindBinary:
			b.WriteString("#b")
			b.WriteString(t.Lit)
			done = true
		case t.Kind == KindString:
			writeStringLit(b, t.Lit)
			done = true
		case t.Kind == KindApp:
			switch {
			case len(t.Args) == 0:
				writeIdent(b, t)
				done = true
			case f.i < len(t.Args):
				if f.i == 0 {
					b.WriteByte('(')
					writeIdent(b, t)
				}
				b.WriteByte(' ')
				next, push = t.Args[f.i], true
			default:
				b.WriteByte(')')
				done = true
			}
		case t.Kind == KindLet:
			// Steps: 0 opens; 2k+1 opens binding k and prints its term, 2k+2 closes it; 2n+1
			// prints the body and 2n+2 closes the let.
			n := len(t.Binds)
			switch {
			case f.i == 0:
				b.WriteString("(let (")
			case f.i == 2*n+1:
				b.WriteString(") ")
				next, push = termBody(t), true
			case f.i == 2*n+2:
				b.WriteByte(')')
				done = true
			case f.i%2 == 1:
				bd := t.Binds[f.i/2]
				if f.i > 1 {
					b.WriteByte(' ')
				}
				b.WriteByte('(')
				writeSymbol(b, bd.Name)
				b.WriteByte(' ')
				next, push = bd.Term, true
			default:
				b.WriteByte(')')
			}
		case t.Kind == KindForall || t.Kind == KindExists:
			if f.i == 0 {
				if t.Kind == KindForall {
					b.WriteString("(forall (")
				} else {
					b.WriteString("(exists (")
				}
				for i, v := range t.Binds {
					if i > 0 {
						b.WriteByte(' ')
					}
					writeSortedVar(b, v)
				}
				b.WriteString(") ")
				next, push = termBody(t), true
			} else {
				b.WriteByte(')')
				done = true
			}
		case t.Kind == KindMatch:
			// Step 0 opens and prints the matched term; step k opens case k-1 and prints its body.
			switch {
			case f.i == 0:
				b.WriteString("(match ")
				next, push = termBody(t), true
			case f.i <= len(t.Binds) && f.i < len(t.Args):
				if f.i == 1 {
					b.WriteString(" (")
				} else {
					b.WriteString(") ")
				}
				b.WriteByte('(')
				writePattern(b, t.Binds[f.i-1].Term)
				b.WriteByte(' ')
				next, push = t.Args[f.i], true
			default:
				b.WriteString(")))")
				done = true
			}
		case t.Kind == KindAnnot:
			if f.i == 0 {
				b.WriteString("(! ")
				next, push = termBody(t), true
			} else {
				for _, a := range t.Attrs {
					writeAttr(b, a)
				}
				b.WriteByte(')')
				done = true
			}
		default:
			b.WriteString("<invalid term>")
			done = true
		}
		if done {
			w.stack = w.stack[:len(w.stack)-1]
			continue
		}
		f.i++
		if push {
			w.stack = append(w.stack, printFrame{t: next})
		}
	}
}

// termBody returns Args[0] of a let, quantifier or annotation, nil when missing.
func termBody(t *Term) *Term {
	if len(t.Args) == 0 {
		return nil
	}
	return t.Args[0]
}

// writeIdent writes the identifier of an application: f, (_ f i...), (as f S), (as (_ f i...) S).
func writeIdent(b *strings.Builder, t *Term) {
	if t.As != nil {
		b.WriteString("(as ")
	}
	if len(t.Index) > 0 {
		b.WriteByte('(')
		writeIndexed(b, t.Name, t.Index)
		b.WriteByte(')')
	} else if t.Name == "is" && t.Lit != "" {
		b.WriteString("(_ is ")
		writeSymbol(b, t.Lit)
		b.WriteByte(')')
	} else {
		writeSymbol(b, t.Name)
	}
	if t.As != nil {
		b.WriteByte(' ')
		WriteSort(b, t.As)
		b.WriteByte(')')
	}
}
