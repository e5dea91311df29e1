package smtgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// DatatypeValue is a value of a datatype sort: constructor C applied to Fields (values of C's
// field sorts in the instance S). It prints as C, (C f...), and, when S has sort arguments,
// as (as C S) or ((as C S) f...), the form cvc5 prints and z3 reads.
type DatatypeValue struct {
	S      *Sort
	C      *Constructor
	Fields []Value
}

// Sort implements [Value].
func (v DatatypeValue) Sort() *Sort { return v.S }

// String prints the value as a term.
func (v DatatypeValue) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v DatatypeValue) write(b *strings.Builder) {
	if len(v.Fields) > 0 {
		b.WriteByte('(')
	}
	if len(v.S.Args) > 0 {
		b.WriteString("(as ")
		writeSymbol(b, v.C.Name)
		b.WriteByte(' ')
		WriteSort(b, v.S)
		b.WriteByte(')')
	} else {
		writeSymbol(b, v.C.Name)
	}
	for _, f := range v.Fields {
		b.WriteByte(' ')
		if d, ok := f.(DatatypeValue); ok {
			d.write(b)
		} else {
			b.WriteString(f.String())
		}
	}
	if len(v.Fields) > 0 {
		b.WriteByte(')')
	}
}

// ctorIndex returns the position of v's constructor in its datatype.
func (v DatatypeValue) ctorIndex() int {
	for i, c := range v.C.DT.Ctors {
		if c == v.C {
			return i
		}
	}
	return -1
}

// equalDT is [Equal] for datatype values.
func equalDT(x DatatypeValue, b Value) bool {
	y, ok := b.(DatatypeValue)
	if !ok || x.C.Name != y.C.Name || len(x.Fields) != len(y.Fields) || !x.S.Equal(y.S) {
		return false
	}
	for i := range x.Fields {
		if !Equal(x.Fields[i], y.Fields[i]) {
			return false
		}
	}
	return true
}

// compareDT orders datatype values by constructor, then fields.
func compareDT(x, y DatatypeValue) int {
	if c := x.ctorIndex() - y.ctorIndex(); c != 0 {
		return c
	}
	for i := range x.Fields {
		if c := compareValues(x.Fields[i], y.Fields[i]); c != 0 {
			return c
		}
	}
	return 0
}

// zeroDT returns the first finite value of the datatype sort s: its first constructor that does
// not recurse, applied to the fields' [ZeroValue]s; nil when a field has none.
func zeroDT(s *Sort) Value {
	c := s.DT.Ctors[s.DT.base]
	v := DatatypeValue{S: s, C: c}
	for i := range c.Fields {
		f := ZeroValue(c.FieldSort(i, s))
		if f == nil {
			return nil
		}
		v.Fields = append(v.Fields, f)
	}
	return v
}

// randomDT returns a random value of the datatype sort s at most depth constructors deep.
func randomDT(r *rand.Rand, s *Sort, depth int) Value {
	if depth <= 0 {
		return zeroDT(s)
	}
	c := s.DT.Ctors[r.IntN(len(s.DT.Ctors))]
	v := DatatypeValue{S: s, C: c}
	for i := range c.Fields {
		fs := c.FieldSort(i, s)
		var f Value
		switch {
		case fs.DT != nil:
			f = randomDT(r, fs, depth-1)
		case mentionsDT(fs):
			f = ZeroValue(fs) // arrays of datatypes: no unbounded recursion through them
		default:
			f = RandomValue(r, fs)
		}
		if f == nil {
			return zeroDT(s)
		}
		v.Fields = append(v.Fields, f)
	}
	return v
}

// mentionsDT reports whether s is or contains a datatype sort.
func mentionsDT(s *Sort) bool {
	if s.DT != nil {
		return true
	}
	for _, a := range s.Args {
		if mentionsDT(a) {
			return true
		}
	}
	return false
}

// dtCandidates returns a few values of a datatype sort for quantifiers: each constructor applied
// to zero values.
func dtCandidates(s *Sort) []Value {
	var out []Value
	for _, c := range s.DT.Ctors {
		v := DatatypeValue{S: s, C: c}
		for i := range c.Fields {
			fs := c.FieldSort(i, s)
			var f Value
			if fs.DT != nil {
				f = zeroDT(fs)
			} else {
				f = ZeroValue(fs)
			}
			if f == nil {
				v.C = nil
				break
			}
			v.Fields = append(v.Fields, f)
		}
		if v.C != nil {
			out = append(out, v)
		}
		if len(out) == 4 {
			break
		}
	}
	return out
}

// enumSize returns the number of values of an enumeration datatype sort.
func enumSize(s *Sort) (int64, bool) {
	if s.DT == nil || !s.DT.Enumeration() {
		return 0, false
	}
	return int64(len(s.DT.Ctors)), true
}

// parseDT reads a solver's datatype value: C, (as C S), (C v...) or ((as C S) v...).
func (m *Model) parseDT(t *Term, s *Sort) (Value, error) {
	if t.Kind != KindApp || len(t.Index) > 0 {
		return nil, fmt.Errorf("cannot read %s as a value of sort %s", briefTerm(t), s)
	}
	var c *Constructor
	for _, k := range s.DT.Ctors {
		if k.Name == t.Name {
			c = k
		}
	}
	if c == nil || len(c.Fields) != len(t.Args) {
		return nil, fmt.Errorf("cannot read %s as a value of sort %s", briefTerm(t), s)
	}
	v := DatatypeValue{S: s, C: c}
	for i, a := range t.Args {
		f, err := m.parseValue(a, c.FieldSort(i, s))
		if err != nil {
			return nil, err
		}
		v.Fields = append(v.Fields, f)
	}
	return v, nil
}

// WrongSelectorTable returns the name of the [Model] table that holds the values of the
// selector sel applied to values built by another constructor (unspecified in SMT-LIB: a
// per-model choice, as division by zero): its entry at x is the value of (sel x).
func WrongSelectorTable(sel string) string { return "wrong " + sel }

// evalDT evaluates constructor, tester and selector applications; ok is false for other terms.
func (ev *evaluator) evalDT(t *Term, args []Value) (v Value, ok bool, err error) {
	env := ev.m.Env
	if env == nil || len(env.ctors) == 0 || len(t.Index) > 0 {
		return nil, false, nil
	}
	if c := env.testerOf(t); c != nil && len(args) == 1 {
		return BoolValue(args[0].(DatatypeValue).C.Name == c.Name), true, nil
	}
	if c := env.ctors[t.Name]; c != nil && len(args) == len(c.Fields) {
		return DatatypeValue{S: t.Sort, C: c, Fields: args}, true, nil
	}
	if r, found := env.selectors[t.Name]; found && len(args) == 1 {
		x := args[0].(DatatypeValue)
		if x.C.Name == r.c.Name {
			return x.Fields[r.i], true, nil
		}
		if v, ok := ev.m.Funcs[WrongSelectorTable(t.Name)].Lookup([]Value{x}); ok {
			return v, true, nil
		}
		return nil, true, undecided("(%s %s) on another constructor is not pinned", t.Name, x)
	}
	return nil, false, nil
}

// wrongSelector returns the table and argument of the selector application app when its
// argument evaluates to another constructor (see [WrongSelectorTable]); table is "" otherwise.
func (m *Model) wrongSelector(app *Term) (table string, args []Value, err error) {
	if m.Env == nil || len(app.Args) != 1 || app.Kind != KindApp || len(app.Index) > 0 {
		return "", nil, nil
	}
	r, ok := m.Env.selectors[app.Name]
	if !ok {
		return "", nil, nil
	}
	x, err := m.Eval(app.Args[0])
	if err != nil {
		return "", nil, err
	}
	if d, ok := x.(DatatypeValue); ok && d.C.Name != r.c.Name {
		return WrongSelectorTable(app.Name), []Value{x}, nil
	}
	return "", nil, nil
}

// match evaluates a match term: the first case whose pattern fits the value, its variables
// bound to the fields.
func (ev *evaluator) match(t *Term, sc *evScope) (Value, error) {
	v, err := ev.eval(t.Args[0], sc)
	if err != nil {
		return nil, err
	}
	d := v.(DatatypeValue)
	for i, b := range t.Binds {
		pat := b.Term
		inner := &evScope{up: sc, vars: map[string]evResult{}}
		switch {
		case len(pat.Args) > 0:
			if pat.Name != d.C.Name {
				continue
			}
			for j, a := range pat.Args {
				inner.vars[a.Name] = evResult{v: d.Fields[j]}
			}
		case ev.isCtorOf(pat.Name, d.C.DT):
			if pat.Name != d.C.Name {
				continue
			}
		default:
			inner.vars[pat.Name] = evResult{v: d}
		}
		return ev.eval(t.Args[i+1], inner)
	}
	return nil, undecided("match without a case for %s", d.C.Name)
}

func (ev *evaluator) isCtorOf(name string, dt *Datatype) bool {
	c := ev.m.Env.ctors[name]
	return c != nil && c.DT == dt
}

// Bounds of the unfolding of recursive definitions within one evaluation: beyond them the
// value is undecided.
const (
	maxRecDepth = 400
	maxRecCalls = 20_000
)

// enterRec counts a call of a recursive definition; leaveRec ends it.
func (ev *evaluator) enterRec(d *Def) error {
	if ev.recDepth >= maxRecDepth || ev.recCalls >= maxRecCalls {
		return undecided("recursive definition %s unfolds beyond %d nested or %d calls", d.Name, maxRecDepth, maxRecCalls)
	}
	ev.recDepth++
	ev.recCalls++
	return nil
}

func (ev *evaluator) leaveRec() { ev.recDepth-- }

// expandMatch expands lets (and definitions) in a match: pattern variables shadow the
// replacements, and are renamed when a replacement would be captured by them.
func (x *expander) expandMatch(t *Term, sc *expScope) *Term {
	cp := *t
	cp.Args = make([]*Term, len(t.Args))
	cp.Binds = make([]Binding, len(t.Binds))
	cp.Args[0] = x.expand(t.Args[0], sc)
	for i, b := range t.Binds {
		inner := &expScope{up: sc, vars: map[string]*Term{}}
		pat := b.Term
		if len(pat.Args) == 0 {
			// A variable or a nullary constructor: it shadows, and is never renamed.
			inner.vars[pat.Name] = nil
		}
		np := pat
		for j, v := range pat.Args {
			if x.captures(v.Name, sc) {
				x.fresh++
				nv := &Term{Kind: KindApp, Name: fmt.Sprintf("%s!%d", v.Name, x.fresh), Sort: v.Sort}
				inner.vars[v.Name] = nv
				if np == pat {
					c := *pat
					c.Args = append([]*Term(nil), pat.Args...)
					np = &c
				}
				np.Args[j] = nv
			} else {
				inner.vars[v.Name] = nil
			}
		}
		cp.Binds[i] = Binding{Term: np}
		cp.Args[i+1] = x.expand(t.Args[i+1], inner)
	}
	return &cp
}

// expandHeadLets replaces applications of let variables bound to qualified identifiers, such as
// cvc5's (let ((_let_1 (as cons (Lst Int)))) (_let_1 4 ...)) in values, by applications of the
// identifiers; [ExpandLets] then does the rest.
func expandHeadLets(t *Term, heads map[string]*Term) *Term {
	switch t.Kind {
	case KindLet:
		inner := heads
		for _, b := range t.Binds {
			if b.Term.Kind == KindApp && len(b.Term.Args) == 0 && b.Term.As != nil {
				if inner == nil || len(inner) == len(heads) {
					inner = map[string]*Term{}
					for k, v := range heads {
						inner[k] = v
					}
				}
				inner[b.Name] = b.Term
			}
		}
		cp := *t
		cp.Args = []*Term{expandHeadLets(t.Args[0], inner)}
		return &cp
	case KindApp:
		if len(t.Args) == 0 {
			return t
		}
		cp := *t
		cp.Args = make([]*Term, len(t.Args))
		for i, a := range t.Args {
			cp.Args[i] = expandHeadLets(a, heads)
		}
		if h, ok := heads[t.Name]; ok && len(t.Index) == 0 && t.As == nil {
			cp.Name, cp.As, cp.Index = h.Name, h.As, h.Index
		}
		return &cp
	}
	return t
}
