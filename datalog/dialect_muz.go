package datalog

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// MuZ is the dialect of Z3's μZ Datalog engine: SMT-LIB 2 fixedpoint commands run with
// (set-option :fp.engine datalog), one (query r :print-answer true) per output relation in
// declaration order.
//
// μZ's Datalog engine needs finite sorts. Since the canonical language has no arithmetic, a
// program's values are its constants, so each type's distinct constants are numbered in their
// canonical order (numbers numerically, symbols bytewise) and a value is the bit-vector of its
// index, of the fewest bits that hold them all (at least one): the sort $N for numbers, $S for
// symbols. Comparisons become unsigned bit-vector comparisons, which keep their meaning, and
// Decode maps an index back to its constant; an index past the constants is an error.
//
// Variables become the declared variables $n0, $n1, ... and $s0, $s1, ... in order of appearance
// in each rule, and every _ a fresh one. A negated atom with _ would read as "some value is not
// in r" under μZ's Horn-clause semantics, so it negates an auxiliary relation $negK instead,
// the projection of r onto the atom's named variables. The names the translation introduces
// start with $, which canonical identifiers never contain. A relation named after an SMT-LIB
// binder (let, forall, exists, lambda, as, match), which z3 parses as the binder even when
// quoted, is *Unsupported with Feature "relation-name".
type MuZ struct{}

// Name returns "muz".
func (MuZ) Name() string { return "muz" }

// muzReserved holds the relation names z3 cannot parse as predicates.
var muzReserved = map[string]bool{"let": true, "forall": true, "exists": true, "lambda": true, "as": true, "match": true}

// Translate returns p in μZ's SMT-LIB form and the decoder of z3's bit-vector answers.
func (MuZ) Translate(p *Program) (*Translation, error) {
	for _, r := range p.Relations {
		if muzReserved[r.Name] {
			return nil, &Unsupported{Engine: "muz", Feature: "relation-name",
				Detail: fmt.Sprintf("relation %s is an SMT-LIB binder that z3 cannot use as a predicate", r.Name)}
		}
	}
	d := newDomain(p)
	t := &muzWriter{p: p, d: d}
	for _, r := range p.Rules {
		t.rule(r)
	}
	var b strings.Builder
	b.WriteString("(set-option :fp.engine datalog)\n")
	fmt.Fprintf(&b, "(define-sort $N () (_ BitVec %d))\n", d.width(Number))
	fmt.Fprintf(&b, "(define-sort $S () (_ BitVec %d))\n", d.width(Symbol))
	for i := range p.Relations {
		writeDeclareRel(&b, p.Relations[i].Name, muzTypes(&p.Relations[i]))
	}
	for _, a := range t.aux {
		writeDeclareRel(&b, a.name, a.types)
	}
	for typ, n := range t.maxVars {
		for i := range n {
			fmt.Fprintf(&b, "(declare-var %s %s)\n", muzVar(Type(typ), i), muzSort(Type(typ)))
		}
	}
	b.WriteString(t.rules.String())
	for _, r := range p.outputs() {
		b.WriteString("(query " + r.Name + " :print-answer true)\n")
	}
	return &Translation{Text: b.String(), Decode: d.decode}, nil
}

// Script returns p's translation as base.smt2 and the z3 command line that runs it.
func (d MuZ) Script(p *Program, base string) (map[string]string, string, error) {
	tr, err := d.Translate(p)
	if err != nil {
		return nil, "", err
	}
	return map[string]string{base + ".smt2": tr.Text}, "z3 " + base + ".smt2", nil
}

// domain numbers the constants of a program per type in canonical order.
type domain struct {
	nums []int64
	syms []string
}

// newDomain collects p's constants.
func newDomain(p *Program) *domain {
	d := &domain{}
	add := func(t Term) {
		switch t.Kind {
		case Num:
			d.nums = append(d.nums, t.Num)
		case Sym:
			d.syms = append(d.syms, t.Sym)
		}
	}
	for t := range p.Terms() {
		add(t)
	}
	slices.Sort(d.nums)
	slices.Sort(d.syms)
	d.nums = slices.Compact(d.nums)
	d.syms = slices.Compact(d.syms)
	return d
}

// size returns the number of constants of type t.
func (d *domain) size(t Type) int {
	if t == Symbol {
		return len(d.syms)
	}
	return len(d.nums)
}

// width returns the bit-vector width of type t: enough bits for every index, at least one.
func (d *domain) width(t Type) int {
	return max(1, bits.Len(uint(max(d.size(t)-1, 0))))
}

// index returns the index of the constant c.
func (d *domain) index(c Term) int {
	if c.Kind == Sym {
		i, _ := slices.BinarySearch(d.syms, c.Sym)
		return i
	}
	i, _ := slices.BinarySearch(d.nums, c.Num)
	return i
}

// literal returns the bit-vector literal of the constant c.
func (d *domain) literal(c Term) string {
	w := d.width(constType(c))
	s := strconv.FormatUint(uint64(d.index(c)), 2)
	return "#b" + strings.Repeat("0", w-len(s)) + s
}

// decode maps a bit-vector value as z3 prints it (#b..., #x... or (_ bvN W)) to the canonical
// constant of type t with that index.
func (d *domain) decode(t Type, raw string) (string, error) {
	i, err := parseBitVec(raw)
	if err != nil {
		return "", err
	}
	if i >= uint64(d.size(t)) {
		return "", fmt.Errorf("index %d is past the program's %d %s constants", i, d.size(t), t)
	}
	if t == Symbol {
		return Canonical(S(d.syms[i])), nil
	}
	return Canonical(N(d.nums[i])), nil
}

// parseBitVec parses an SMT-LIB bit-vector literal.
func parseBitVec(s string) (uint64, error) {
	var v uint64
	var err error
	switch {
	case strings.HasPrefix(s, "#b"):
		v, err = strconv.ParseUint(s[2:], 2, 64)
	case strings.HasPrefix(s, "#x"):
		v, err = strconv.ParseUint(s[2:], 16, 64)
	case strings.HasPrefix(s, "(_ bv"):
		f := strings.Fields(strings.TrimSuffix(s[len("(_ bv"):], ")"))
		if len(f) != 2 {
			err = errors.New("malformed")
			break
		}
		v, err = strconv.ParseUint(f[0], 10, 64)
	default:
		err = errors.New("unknown form")
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a bit-vector literal (want #b..., #x... or (_ bvN W)): %v", s, err)
	}
	return v, nil
}

func muzSort(t Type) string {
	if t == Symbol {
		return "$S"
	}
	return "$N"
}

func muzVar(t Type, i int) string {
	if t == Symbol {
		return "$s" + strconv.Itoa(i)
	}
	return "$n" + strconv.Itoa(i)
}

// muzTypes returns the attribute types of rel.
func muzTypes(rel *Relation) []Type {
	types := make([]Type, len(rel.Attrs))
	for i, a := range rel.Attrs {
		types[i] = a.Type
	}
	return types
}

func writeDeclareRel(b *strings.Builder, name string, types []Type) {
	b.WriteString("(declare-rel " + name + " (")
	for i, t := range types {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(muzSort(t))
	}
	b.WriteString("))\n")
}

// muzAux is an auxiliary relation: the projection of a negated atom with _.
type muzAux struct {
	name  string
	types []Type
}

// muzWriter accumulates the rules of a translation.
type muzWriter struct {
	p       *Program
	d       *domain
	rules   strings.Builder
	aux     []muzAux
	maxVars [Symbol + 1]int // the variables to declare, per type
}

// muzRule holds the variable naming of one rule.
type muzRule struct {
	w     *muzWriter
	names map[string]string
	count [Symbol + 1]int
}

// fresh returns a new variable of type t.
func (r *muzRule) fresh(t Type) string {
	v := muzVar(t, r.count[t])
	r.count[t]++
	r.w.maxVars[t] = max(r.w.maxVars[t], r.count[t])
	return v
}

// term returns the SMT-LIB form of t, of type typ where t is a variable.
func (r *muzRule) term(t Term, typ Type) string {
	switch t.Kind {
	case Var:
		v, ok := r.names[t.Name]
		if !ok {
			v = r.fresh(typ)
			r.names[t.Name] = v
		}
		return v
	case Anon:
		return r.fresh(typ)
	}
	return r.w.d.literal(t)
}

// atom returns the SMT-LIB form of a (without negation).
func (r *muzRule) atom(a Atom) string {
	return r.apply(a.Rel, a.Args, muzTypes(r.w.p.Relation(a.Rel)))
}

// apply returns the SMT-LIB form of the relation rel applied to args of the given types.
func (r *muzRule) apply(rel string, args []Term, types []Type) string {
	if len(args) == 0 {
		return rel
	}
	parts := []string{rel}
	for i, t := range args {
		parts = append(parts, r.term(t, types[i]))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// rule writes the translation of one canonical rule.
func (w *muzWriter) rule(rule Rule) {
	r := &muzRule{w: w, names: map[string]string{}}
	var body []string
	for _, a := range rule.Body {
		if !a.Negated {
			body = append(body, r.atom(a))
		}
	}
	for _, a := range rule.Body {
		if a.Negated {
			body = append(body, "(not "+r.negated(a)+")")
		}
	}
	for _, c := range rule.Constraints {
		body = append(body, r.constraint(c))
	}
	head := r.atom(rule.Head)
	switch len(body) {
	case 0:
		w.rules.WriteString("(rule " + head + ")\n")
	case 1:
		w.rules.WriteString("(rule (=> " + body[0] + " " + head + "))\n")
	default:
		w.rules.WriteString("(rule (=> (and " + strings.Join(body, " ") + ") " + head + "))\n")
	}
}

// negated returns the atom a negated atom negates: a itself, or, when a has _, an auxiliary
// relation over a's named variables whose rule projects a onto them.
func (r *muzRule) negated(a Atom) string {
	if !slices.ContainsFunc(a.Args, func(t Term) bool { return t.Kind == Anon }) {
		return r.atom(a)
	}
	rel := r.w.p.Relation(a.Rel)
	aux := muzAux{name: "$neg" + strconv.Itoa(len(r.w.aux))}
	var vars []Term
	for i, t := range a.Args {
		if t.Kind == Var && !slices.ContainsFunc(vars, func(v Term) bool { return v.Name == t.Name }) {
			vars = append(vars, t)
			aux.types = append(aux.types, rel.Attrs[i].Type)
		}
	}
	r.w.aux = append(r.w.aux, aux)
	head := r.apply(aux.name, vars, aux.types)
	r.w.rules.WriteString("(rule (=> " + r.atom(a) + " " + head + "))\n")
	return head
}

// constraint returns the SMT-LIB form of c; order comparisons are unsigned.
func (r *muzRule) constraint(c Constraint) string {
	typ := Number
	for _, t := range []Term{c.Left, c.Right} {
		if t.IsConst() {
			typ = constType(t)
		}
	}
	// A variable of a constraint is bound by a positive atom, so its name is already mapped
	// and typ only matters for constants.
	l, rt := r.term(c.Left, typ), r.term(c.Right, typ)
	op := map[Op]string{Eq: "=", Lt: "bvult", Le: "bvule", Gt: "bvugt", Ge: "bvuge"}[c.Op]
	if c.Op == Ne {
		return "(not (= " + l + " " + rt + "))"
	}
	return "(" + op + " " + l + " " + rt + ")"
}
