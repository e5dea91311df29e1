package datalog

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Tuple is a ground atom of a model: a relation name and constant arguments (numbers and symbols).
type Tuple struct {
	Rel  string
	Args []Term
}

// String prints t as a fact without its final dot: rel(1, "a").
func (t Tuple) String() string { return Atom{Rel: t.Rel, Args: t.Args}.String() }

// ErrTupleLimit is the error of an evaluation that derives more tuples than its limit allows.
var ErrTupleLimit = errors.New("tuple limit exceeded")

// Model is the least model of a stratified program, as the reference engine computes it
// bottom-up, stratum by stratum, semi-naively. Every tuple carries the height of its minimal
// proof tree (facts 0, else one more than the highest body tuple) and the rule of a derivation
// of that height, so that Explain can build proof trees; Update maintains the model under fact
// changes. A Model is not safe for concurrent use.
type Model struct {
	file       string
	relations  []Relation
	rels       []*relStore
	byName     map[string]*relStore
	rules      []*cRule // internal rule ids: the program's rules, then facts inserted by Update
	strata     []*stratumRules
	syms       []string
	symID      map[string]int64
	size       int // live tuples
	max        int // tuple limit, 0 for none
	ctx        context.Context
	ticks      uint
	err        error      // first error of the running evaluation
	cur        int        // index of the stratum being evaluated, -1 for none
	next       []tupleRef // tuples of the current stratum to propagate in the next round
	kv         []int64    // scratch for keys
	hv         []int64    // scratch for head values
	pk         []byte     // scratch for the keys of projecting joins
	updating   bool       // record changes in tuple flags (see Update)
	touched    []tupleRef // tuples whose state changed during the current update
	stale      bool       // heights may break the proof invariant; recomputed before Explain
	progIdx    []int      // internal rule id -> index in Program().Rules; nil when out of date
	broken     error      // an update failed half-way; the model is unusable
	maintained int        // strata the last update maintained
}

// tupleRef names one stored tuple.
type tupleRef struct {
	rel *relStore
	id  int32
}

// Tuple flags.
const (
	fAlive uint8 = 1 << iota // in the model
	fIns                     // not in the model when the current update began
	fDel                     // in the model when the current update began, deleted since
	fOver                    // over-deleted by the current stratum's DRed
)

// relStore holds the tuples of one relation. Values are int64: numbers as they are, symbols as
// interned ids. A tuple keeps its id for the life of the model, also while it is deleted, so that
// indexes only grow; readers skip dead tuples.
type relStore struct {
	name    string
	types   []Type
	arity   int
	output  bool
	stratum int
	data    []int64 // values, arity per tuple
	slots   []int32 // open-addressing hash set of the tuples: 1 + id, 0 for an empty slot
	flags   []uint8
	height  []int32
	rule    []int32           // internal id of the rule of the kept derivation
	facts   map[int32][]int32 // tuple id -> internal ids of its fact rules
	rules   []*cRule          // the rules with this head, facts excluded
	indexes []*tupleIndex     // built on first use
	plus    []int32           // tuples inserted by the current update (see Update)
	minus   []int32           // tuples deleted by the current update
	delta   []int32           // scratch: this round's tuples
	live    int
}

// tupleIndex maps the values of some columns to the ids of the tuples that have them, in an
// open-addressing hash table whose entries are lists of ids; the first tuple of a list gives the
// list's key.
type tupleIndex struct {
	cols  []int
	slots []int32 // 1 + list number, 0 for an empty slot
	lists [][]int32
}

// stratumRules is one stratum: its relations and the rules that derive them.
type stratumRules struct {
	index int
	rels  []*relStore
	rules []*cRule // rules (no facts) whose heads are in the stratum
}

// ruleArg is a rule argument: a variable slot, a constant or _.
type ruleArg struct {
	slot int32 // >= 0: variable slot; constSlot; anonSlot
	val  int64
}

const (
	constSlot = -1
	anonSlot  = -2
)

// cAtom is a compiled body atom.
type cAtom struct {
	rel     *relStore
	args    []ruleArg
	negated bool
}

// cCons is a compiled constraint.
type cCons struct {
	op   Op
	l, r ruleArg
	sym  bool // compares symbols, by their bytes
}

// cRule is a compiled rule.
type cRule struct {
	id       int
	src      Rule
	fact     bool
	deleted  bool // a fact removed by Update
	head     *relStore
	headArgs []ruleArg
	body     []cAtom
	cons     []cCons
	nvars    int
	full     *joinPlan   // no atom given
	drivers  []*joinPlan // per body position: that atom's tuples are given
	goal     *joinPlan   // the head tuple is given
}

// Eval computes the model of p. It fails when p is not stratifiable (with the error of
// p.Strata) or not a valid program.
func Eval(p *Program) (*Model, error) { return EvalContext(context.Background(), p, 0) }

// EvalContext is Eval that stops with an error when ctx is done or when more than maxTuples
// tuples are derived (ErrTupleLimit); maxTuples <= 0 means no limit.
func EvalContext(ctx context.Context, p *Program, maxTuples int) (*Model, error) {
	names, err := p.Strata()
	if err != nil {
		return nil, err
	}
	m, err := newModel(p, names, max(maxTuples, 0))
	if err != nil {
		return nil, err
	}
	m.ctx = ctx
	for _, r := range m.rules {
		if r.fact {
			m.addFact(r)
		}
	}
	for _, s := range m.strata {
		if err := ctx.Err(); err != nil && m.err == nil {
			m.err = fmt.Errorf("evaluation stopped: %w", err)
		}
		if m.err != nil {
			break
		}
		m.evalStratum(s)
	}
	m.cur = -1
	m.ctx = nil
	if m.err != nil {
		return nil, m.err
	}
	return m, nil
}

// newModel returns the empty model of p with the given strata and its rules compiled.
func newModel(p *Program, strata [][]string, maxTuples int) (*Model, error) {
	m := &Model{
		file:      p.File,
		relations: slices.Clone(p.Relations),
		byName:    map[string]*relStore{},
		symID:     map[string]int64{},
		max:       maxTuples,
		cur:       -1,
	}
	for _, r := range p.Relations {
		rs := &relStore{name: r.Name, arity: len(r.Attrs), output: r.Output, facts: map[int32][]int32{}}
		for _, a := range r.Attrs {
			rs.types = append(rs.types, a.Type)
		}
		m.rels = append(m.rels, rs)
		m.byName[r.Name] = rs
	}
	for i, names := range strata {
		s := &stratumRules{index: i}
		for _, n := range names {
			rs := m.byName[n]
			rs.stratum = i
			s.rels = append(s.rels, rs)
		}
		m.strata = append(m.strata, s)
	}
	for _, r := range p.Rules {
		c, err := m.compile(deepCopyRule(r))
		if err != nil {
			return nil, err
		}
		if !c.fact {
			s := m.strata[c.head.stratum]
			s.rules = append(s.rules, c)
			c.head.rules = append(c.head.rules, c)
		}
	}
	return m, nil
}

// compile translates r and gives it the next internal id.
func (m *Model) compile(r Rule) (*cRule, error) {
	c := &cRule{id: len(m.rules), src: r, fact: r.IsFact()}
	fail := func(pos Pos, format string, args ...any) error {
		return &Error{File: m.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
	slots := map[string]int32{}
	types := map[string]Type{}
	// atom compiles a; a positive body atom binds its new variables to slots.
	atom := func(a Atom, binds bool) (cAtom, error) {
		rs := m.byName[a.Rel]
		if rs == nil {
			return cAtom{}, fail(a.Pos, "unknown relation %q", a.Rel)
		}
		if len(a.Args) != rs.arity {
			return cAtom{}, fail(a.Pos, "%s has %d arguments, its declaration %d", a.Rel, len(a.Args), rs.arity)
		}
		ca := cAtom{rel: rs, negated: a.Negated}
		for i, t := range a.Args {
			o := m.constArg(t)
			if t.Kind == Var {
				if _, ok := slots[t.Name]; !ok && binds {
					slots[t.Name] = int32(len(slots))
					types[t.Name] = rs.types[i]
				}
				o.slot = -3 // resolved below, once every positive atom has bound its variables
			}
			ca.args = append(ca.args, o)
		}
		return ca, nil
	}
	for _, a := range r.Body {
		ca, err := atom(a, !a.Negated)
		if err != nil {
			return nil, err
		}
		c.body = append(c.body, ca)
	}
	h, err := atom(r.Head, false)
	if err != nil {
		return nil, err
	}
	c.head, c.headArgs = h.rel, h.args
	resolve := func(args []ruleArg, terms []Term, head bool) error {
		for i, t := range terms {
			switch t.Kind {
			case Var:
				s, ok := slots[t.Name]
				if !ok {
					return fail(t.Pos, "variable %s is not bound by a positive atom of the body", t.Name)
				}
				args[i].slot = s
			case Anon:
				if head {
					return fail(t.Pos, "_ in the head of %s", r.Head.Rel)
				}
			}
		}
		return nil
	}
	if err := resolve(c.headArgs, r.Head.Args, true); err != nil {
		return nil, err
	}
	for i, a := range r.Body {
		if err := resolve(c.body[i].args, a.Args, false); err != nil {
			return nil, err
		}
	}
	for _, k := range r.Constraints {
		cc := cCons{op: k.Op, l: m.constArg(k.Left), r: m.constArg(k.Right)}
		ops := []*ruleArg{&cc.l, &cc.r}
		for i, t := range []Term{k.Left, k.Right} {
			switch t.Kind {
			case Var:
				s, ok := slots[t.Name]
				if !ok {
					return nil, fail(t.Pos, "variable %s is not bound by a positive atom of the body", t.Name)
				}
				ops[i].slot = s
				cc.sym = types[t.Name] == Symbol
			case Sym:
				cc.sym = true
			case Anon:
				return nil, fail(t.Pos, "_ in a constraint")
			}
		}
		c.cons = append(c.cons, cc)
	}
	c.nvars = len(slots)
	c.drivers = make([]*joinPlan, len(c.body))
	m.rules = append(m.rules, c)
	return c, nil
}

// constArg returns the argument for a constant or _; variables get their slot later.
func (m *Model) constArg(t Term) ruleArg {
	switch t.Kind {
	case Num:
		return ruleArg{slot: constSlot, val: t.Num}
	case Sym:
		return ruleArg{slot: constSlot, val: m.intern(t.Sym)}
	}
	return ruleArg{slot: anonSlot}
}

// intern returns the id of symbol s.
func (m *Model) intern(s string) int64 {
	if id, ok := m.symID[s]; ok {
		return id
	}
	id := int64(len(m.syms))
	m.syms = append(m.syms, s)
	m.symID[s] = id
	return id
}

// deepCopyRule returns a copy of r that shares no slices with it.
func deepCopyRule(r Rule) Rule {
	r.Head.Args = slices.Clone(r.Head.Args)
	r.Body = slices.Clone(r.Body)
	for i := range r.Body {
		r.Body[i].Args = slices.Clone(r.Body[i].Args)
	}
	r.Constraints = slices.Clone(r.Constraints)
	return r
}

// addFact stores the tuple of the fact rule r with height 0.
func (m *Model) addFact(r *cRule) {
	vals := m.hv[:0]
	for _, o := range r.headArgs {
		vals = append(vals, o.val)
	}
	m.hv = vals
	id := m.insert(r.head, vals, 0, int32(r.id))
	r.head.facts[id] = append(r.head.facts[id], int32(r.id))
}

// evalStratum computes the tuples of stratum s semi-naively: every rule once over all tuples,
// then rounds that join each new tuple of s with the others.
func (m *Model) evalStratum(s *stratumRules) {
	m.cur = s.index
	for _, r := range s.rules {
		if m.err != nil {
			return
		}
		m.run(r, r.plan(givenNone), nil, nil, false, math.MaxInt32, m.derive)
	}
	m.fixpoint(s)
}

// fixpoint propagates the queued tuples of stratum s (m.next) through its recursive rules until
// nothing new is derived. A tuple whose height drops is queued too, so that heights end minimal.
func (m *Model) fixpoint(s *stratumRules) {
	for len(m.next) > 0 && m.err == nil {
		delta := m.next
		m.next = nil
		for _, t := range delta {
			t.rel.delta = append(t.rel.delta, t.id)
		}
		for _, r := range s.rules {
			for i, a := range r.body {
				if !a.negated && a.rel.stratum == s.index && len(a.rel.delta) > 0 {
					m.run(r, r.plan(i), a.rel.delta, nil, false, math.MaxInt32, m.derive)
				}
			}
		}
		for _, rs := range s.rels {
			rs.delta = rs.delta[:0]
		}
	}
}

// derive stores the head tuple of the rule instance x has found.
func (m *Model) derive(x *joinRun) bool {
	h := x.height()
	if h == math.MaxInt32 {
		return true
	}
	m.insert(x.r.head, x.headValues(), h+1, int32(x.r.id))
	return m.err == nil
}

// insert makes the tuple vals of rs live with the given height and rule, or lowers the height of
// a live one, and queues it when it belongs to the current stratum. It returns the tuple's id.
func (m *Model) insert(rs *relStore, vals []int64, h, rule int32) int32 {
	id, ok := rs.lookup(vals)
	if ok && rs.flags[id]&fAlive != 0 {
		if h < rs.height[id] {
			rs.height[id], rs.rule[id] = h, rule
			if rs.stratum == m.cur {
				m.next = append(m.next, tupleRef{rs, id})
			}
		}
		return id
	}
	if !ok {
		id = rs.add(vals)
	}
	f := rs.flags[id]
	if m.updating {
		if f&fDel != 0 {
			if h > rs.height[id] {
				m.stale = true
			}
		} else if f&fIns == 0 {
			f |= fIns
			m.touched = append(m.touched, tupleRef{rs, id})
		}
	}
	rs.flags[id] = f | fAlive
	rs.height[id], rs.rule[id] = h, rule
	rs.live++
	m.size++
	if m.max > 0 && m.size > m.max && m.err == nil {
		m.err = fmt.Errorf("%w: more than %d tuples; raise the limit or shrink the program", ErrTupleLimit, m.max)
	}
	if rs.stratum == m.cur {
		m.next = append(m.next, tupleRef{rs, id})
	}
	return id
}

// add stores a new, dead tuple.
func (rs *relStore) add(vals []int64) int32 {
	id := int32(len(rs.flags))
	rs.data = append(rs.data, vals...)
	rs.flags = append(rs.flags, 0)
	rs.height = append(rs.height, 0)
	rs.rule = append(rs.rule, -1)
	if 2*len(rs.flags) > len(rs.slots) {
		rs.slots = make([]int32, max(16, 2*len(rs.slots)))
		for j := range id + 1 {
			rs.place(j)
		}
	} else {
		rs.place(id)
	}
	for _, ix := range rs.indexes {
		ix.add(rs, id)
	}
	return id
}

// place puts tuple id into the hash set.
func (rs *relStore) place(id int32) {
	mask := uint64(len(rs.slots) - 1)
	i := hashVals(rs.tuple(id)) & mask
	for rs.slots[i] != 0 {
		i = (i + 1) & mask
	}
	rs.slots[i] = id + 1
}

// lookup returns the id of the stored tuple vals, live or dead.
func (rs *relStore) lookup(vals []int64) (int32, bool) {
	if len(rs.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(rs.slots) - 1)
	for i := hashVals(vals) & mask; ; i = (i + 1) & mask {
		e := rs.slots[i]
		if e == 0 {
			return 0, false
		}
		if slices.Equal(rs.tuple(e-1), vals) {
			return e - 1, true
		}
	}
}

const hashMul = 0x9e3779b97f4a7c15

// hashVals hashes a tuple or a key.
func hashVals(vals []int64) uint64 {
	h := uint64(len(vals))
	for _, v := range vals {
		h = (h ^ uint64(v)) * hashMul
		h ^= h >> 32
	}
	return h
}

// hashCols hashes the values of t in cols, as hashVals hashes them as a key.
func hashCols(t []int64, cols []int) uint64 {
	h := uint64(len(cols))
	for _, c := range cols {
		h = (h ^ uint64(t[c])) * hashMul
		h ^= h >> 32
	}
	return h
}

// find returns the ids of the tuples whose values in ix.cols are key.
func (ix *tupleIndex) find(rs *relStore, key []int64) []int32 {
	if len(ix.slots) == 0 {
		return nil
	}
	mask := uint64(len(ix.slots) - 1)
	for i := hashVals(key) & mask; ; i = (i + 1) & mask {
		e := ix.slots[i]
		if e == 0 {
			return nil
		}
		l := ix.lists[e-1]
		if t := rs.tuple(l[0]); colsEqual(t, ix.cols, key) {
			return l
		}
	}
}

// colsEqual reports whether the values of t in cols are key.
func colsEqual(t []int64, cols []int, key []int64) bool {
	for j, c := range cols {
		if t[c] != key[j] {
			return false
		}
	}
	return true
}

// add adds tuple id of rs to the index.
func (ix *tupleIndex) add(rs *relStore, id int32) {
	if 2*(len(ix.lists)+1) > len(ix.slots) {
		ix.slots = make([]int32, max(16, 2*len(ix.slots)))
		mask := uint64(len(ix.slots) - 1)
		for n, l := range ix.lists {
			i := hashCols(rs.tuple(l[0]), ix.cols) & mask
			for ix.slots[i] != 0 {
				i = (i + 1) & mask
			}
			ix.slots[i] = int32(n + 1)
		}
	}
	t := rs.tuple(id)
	mask := uint64(len(ix.slots) - 1)
	for i := hashCols(t, ix.cols) & mask; ; i = (i + 1) & mask {
		e := ix.slots[i]
		if e == 0 {
			ix.lists = append(ix.lists, []int32{id})
			ix.slots[i] = int32(len(ix.lists))
			return
		}
		if l := ix.lists[e-1]; sameCols(rs.tuple(l[0]), t, ix.cols) {
			ix.lists[e-1] = append(l, id)
			return
		}
	}
}

// sameCols reports whether a and b agree in cols.
func sameCols(a, b []int64, cols []int) bool {
	for _, c := range cols {
		if a[c] != b[c] {
			return false
		}
	}
	return true
}

// kill removes a live tuple from the model.
func (m *Model) kill(rs *relStore, id int32) {
	f := rs.flags[id] &^ (fAlive | fOver)
	if m.updating && f&(fIns|fDel) == 0 {
		f |= fDel
		m.touched = append(m.touched, tupleRef{rs, id})
	}
	f &^= fIns
	rs.flags[id] = f
	rs.live--
	m.size--
}

// tuple returns the values of tuple id.
func (rs *relStore) tuple(id int32) []int64 {
	return rs.data[int(id)*rs.arity : int(id+1)*rs.arity]
}

// index returns the index of rs on cols, building it on first use.
func (rs *relStore) index(cols []int) *tupleIndex {
	for _, ix := range rs.indexes {
		if slices.Equal(ix.cols, cols) {
			return ix
		}
	}
	ix := &tupleIndex{cols: cols}
	for id := range int32(len(rs.flags)) {
		ix.add(rs, id)
	}
	rs.indexes = append(rs.indexes, ix)
	return ix
}

// Contains reports whether t is in the model.
func (m *Model) Contains(t Tuple) bool {
	rs, id, err := m.find(t)
	return err == nil && rs.flags[id]&fAlive != 0
}

// find returns the stored tuple t, which need not be live; it fails when t is not well-formed
// or was never stored.
func (m *Model) find(t Tuple) (*relStore, int32, error) {
	rs, vals, err := m.values(t, false)
	if err != nil {
		return nil, 0, err
	}
	if vals != nil {
		if id, ok := rs.lookup(vals); ok {
			return rs, id, nil
		}
	}
	return rs, 0, fmt.Errorf("%s is not in the model", t)
}

// values checks t against its relation's declaration and encodes its arguments. Without intern,
// a symbol the model has never seen gives nil values (no such tuple can be stored).
func (m *Model) values(t Tuple, intern bool) (*relStore, []int64, error) {
	rs := m.byName[t.Rel]
	if rs == nil {
		return nil, nil, fmt.Errorf("%s: unknown relation %q", t, t.Rel)
	}
	if len(t.Args) != rs.arity {
		return nil, nil, fmt.Errorf("%s: %s has arity %d", t, t.Rel, rs.arity)
	}
	vals := make([]int64, len(t.Args))
	known := true
	for i, a := range t.Args {
		switch {
		case a.Kind == Num && rs.types[i] == Number:
			vals[i] = a.Num
		case a.Kind == Sym && rs.types[i] == Symbol:
			if intern {
				vals[i] = m.intern(a.Sym)
			} else if id, ok := m.symID[a.Sym]; ok {
				vals[i] = id
			} else {
				known = false
			}
		default:
			return nil, nil, fmt.Errorf("%s: argument %d must be a %s constant", t, i+1, rs.types[i])
		}
	}
	if !known {
		return rs, nil, nil
	}
	return rs, vals, nil
}

// tupleOf returns the stored tuple id of rs as a Tuple.
func (m *Model) tupleOf(rs *relStore, id int32) Tuple {
	return Tuple{Rel: rs.name, Args: m.terms(rs, rs.tuple(id))}
}

// terms returns the values of a tuple of rs as constants.
func (m *Model) terms(rs *relStore, vals []int64) []Term {
	args := make([]Term, len(vals))
	for i, v := range vals {
		args[i] = m.term(rs.types[i], v)
	}
	return args
}

// term returns value v of type t as a constant.
func (m *Model) term(t Type, v int64) Term {
	if t == Symbol {
		return S(m.syms[v])
	}
	return N(v)
}

// Tuples returns the tuples of relation rel, sorted by their arguments (numbers numerically,
// symbols by their bytes); nil for an unknown relation.
func (m *Model) Tuples(rel string) []Tuple {
	rs := m.byName[rel]
	if rs == nil {
		return nil
	}
	ids := make([]int32, 0, rs.live)
	for id, f := range rs.flags {
		if f&fAlive != 0 {
			ids = append(ids, int32(id))
		}
	}
	slices.SortFunc(ids, func(a, b int32) int { return m.compareTuples(rs, a, b) })
	out := make([]Tuple, len(ids))
	for i, id := range ids {
		out[i] = m.tupleOf(rs, id)
	}
	return out
}

// compareTuples orders tuples a and b of rs by their arguments, numbers numerically and
// symbols by their bytes.
func (m *Model) compareTuples(rs *relStore, a, b int32) int {
	ta, tb := rs.tuple(a), rs.tuple(b)
	for i := range ta {
		var c int
		if rs.types[i] == Symbol {
			c = cmp.Compare(m.syms[ta[i]], m.syms[tb[i]])
		} else {
			c = cmp.Compare(ta[i], tb[i])
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// Output returns the answer engines are compared with: one row per tuple of each output
// relation, the relation's name followed by the canonical values (see Canonical), sorted.
func (m *Model) Output() [][]string {
	var rows [][]string
	for _, rs := range m.rels {
		if !rs.output {
			continue
		}
		for id, f := range rs.flags {
			if f&fAlive == 0 {
				continue
			}
			row := make([]string, 0, rs.arity+1)
			row = append(row, rs.name)
			for i, v := range rs.tuple(int32(id)) {
				row = append(row, Canonical(m.term(rs.types[i], v)))
			}
			rows = append(rows, row)
		}
	}
	return SortRows(rows)
}

// Size returns the number of tuples in the model.
func (m *Model) Size() int { return m.size }

// A joinPlan evaluates one rule as a sequence of steps, each binding variables or filtering.
type joinPlan struct {
	steps []joinStep
}

// stepKind says what a joinStep does.
type stepKind uint8

const (
	stGiven stepKind = iota // match the given tuples against a body atom
	stGoal                  // match the given head tuple against the head
	stJoin                  // join a positive atom through an index
	stNeg                   // check that no tuple matches a negated atom
	stCons                  // check a constraint
)

// joinStep is one step of a joinPlan.
type joinStep struct {
	kind    stepKind
	pos     int // body position (stGiven, stJoin, stNeg)
	rel     *relStore
	keyCols []int       // columns bound before the step (stJoin, stNeg)
	keyOps  []ruleArg   // their values
	whole   bool        // keyCols covers every column: look the tuple up directly
	ix      *tupleIndex // the index on keyCols, once used
	match   []colOp     // columns to match after the lookup, or all columns (stGiven, stGoal)
	cons    cCons
	// project (stJoin): some variables the step binds are used by no later step nor the head,
	// so the step goes on once per distinct value of the others (keep, slots), with the match
	// of least height; with keep empty the step is existential.
	project bool
	keep    []int32
}

// colOp matches one column of a tuple.
type colOp struct {
	col  int
	kind uint8
	slot int32
	val  int64
}

const (
	opConst uint8 = iota // the value must equal val
	opCheck              // the value must equal the variable's
	opBind               // the value binds the variable
)

const (
	givenHead = -2 // plan(givenHead): the head tuple is given
	givenNone = -1 // plan(givenNone): nothing is given
)

// plan returns the rule's plan for the given atom position, givenNone or givenHead, compiling
// it on first use.
func (r *cRule) plan(given int) *joinPlan {
	p := &r.full
	switch {
	case given == givenHead:
		p = &r.goal
	case given >= 0:
		p = &r.drivers[given]
	}
	if *p == nil {
		*p = r.compilePlan(given)
	}
	return *p
}

// compilePlan orders the body: the given atom or head first, then greedily the positive atom
// with the most bound arguments (constants and variables bound before), and every constraint
// and negated atom as soon as its variables are bound.
func (r *cRule) compilePlan(given int) *joinPlan {
	bound := make([]bool, r.nvars)
	isBound := func(o ruleArg) bool { return o.slot == constSlot || o.slot >= 0 && bound[o.slot] }
	matchAll := func(args []ruleArg) []colOp {
		var ops []colOp
		for i, o := range args {
			switch {
			case o.slot == constSlot:
				ops = append(ops, colOp{col: i, kind: opConst, val: o.val})
			case o.slot == anonSlot:
			case bound[o.slot]:
				ops = append(ops, colOp{col: i, kind: opCheck, slot: o.slot})
			default:
				ops = append(ops, colOp{col: i, kind: opBind, slot: o.slot})
				bound[o.slot] = true
			}
		}
		return ops
	}
	p := &joinPlan{}
	done := make([]bool, len(r.body))
	consDone := make([]bool, len(r.cons))
	switch {
	case given == givenHead:
		p.steps = append(p.steps, joinStep{kind: stGoal, rel: r.head, match: matchAll(r.headArgs)})
	case given >= 0:
		a := r.body[given]
		p.steps = append(p.steps, joinStep{kind: stGiven, pos: given, rel: a.rel, match: matchAll(a.args)})
		done[given] = !a.negated // a given negated atom is still checked
	}
	lookup := func(kind stepKind, pos int) joinStep {
		a := r.body[pos]
		s := joinStep{kind: kind, pos: pos, rel: a.rel}
		for i, o := range a.args {
			if isBound(o) {
				s.keyCols = append(s.keyCols, i)
				s.keyOps = append(s.keyOps, o)
			}
		}
		s.whole = len(s.keyCols) == len(a.args)
		return s
	}
	ready := func() {
		for i, c := range r.cons {
			if !consDone[i] && isBound(c.l) && isBound(c.r) {
				consDone[i] = true
				p.steps = append(p.steps, joinStep{kind: stCons, cons: c})
			}
		}
		for i, a := range r.body {
			if done[i] || !a.negated || !everyArg(a.args, func(o ruleArg) bool { return o.slot == anonSlot || isBound(o) }) {
				continue
			}
			done[i] = true
			p.steps = append(p.steps, lookup(stNeg, i))
		}
	}
	ready()
	for {
		best, score := -1, -1
		for i, a := range r.body {
			if done[i] || a.negated {
				continue
			}
			n := 0
			for _, o := range a.args {
				if isBound(o) {
					n++
				}
			}
			// Ties go to atoms of lower strata, whose relations are complete and often
			// smaller than the recursive ones.
			if n > score || n == score && a.rel.stratum < r.body[best].rel.stratum {
				best, score = i, n
			}
		}
		if best < 0 {
			break
		}
		done[best] = true
		s := lookup(stJoin, best)
		for i, o := range r.body[best].args {
			if slices.Contains(s.keyCols, i) || o.slot == anonSlot {
				continue
			}
			if bound[o.slot] {
				s.match = append(s.match, colOp{col: i, kind: opCheck, slot: o.slot})
			} else {
				s.match = append(s.match, colOp{col: i, kind: opBind, slot: o.slot})
				bound[o.slot] = true
			}
		}
		p.steps = append(p.steps, s)
		ready()
	}
	if given != givenHead { // ExplainAll enumerates every instance of the head plan
		r.markProjections(p)
	}
	return p
}

// markProjections marks the join steps of p that bind variables no later step nor the head
// uses (see joinStep.project).
func (r *cRule) markProjections(p *joinPlan) {
	used := make([]bool, r.nvars)
	use := func(o ruleArg) {
		if o.slot >= 0 {
			used[o.slot] = true
		}
	}
	for _, o := range r.headArgs {
		use(o)
	}
	for k := len(p.steps) - 1; k >= 0; k-- {
		s := &p.steps[k]
		if s.kind == stJoin {
			s.keep = nil
			for _, o := range s.match {
				if o.kind != opBind {
					continue
				}
				if used[o.slot] {
					s.keep = append(s.keep, o.slot)
				} else {
					s.project = true
				}
			}
		}
		for _, o := range s.keyOps {
			use(o)
		}
		for _, o := range s.match {
			if o.kind == opCheck {
				used[o.slot] = true
			}
		}
		if s.kind == stCons {
			use(s.cons.l)
			use(s.cons.r)
		}
	}
}

// everyArg reports whether f holds for every argument of args.
func everyArg(args []ruleArg, f func(ruleArg) bool) bool {
	for _, v := range args {
		if !f(v) {
			return false
		}
	}
	return true
}

// joinRun is one evaluation of a rule's plan.
type joinRun struct {
	m     *Model
	r     *cRule
	steps []joinStep
	vals  []int64 // variable values
	ids   []int32 // tuple matched by each positive body atom
	given []int32 // tuples for a stGiven step
	goal  []int64 // the tuple for a stGoal step
	old   bool    // read the model as it was before the current update
	bound int32   // positive body tuples must have a height below bound
	emit  func(*joinRun) bool
}

// run evaluates plan p of rule r and calls emit for every rule instance found until emit
// returns false; it reports whether the enumeration ran to the end.
func (m *Model) run(r *cRule, p *joinPlan, given []int32, goal []int64, old bool, bound int32, emit func(*joinRun) bool) bool {
	x := &joinRun{m: m, r: r, steps: p.steps, vals: make([]int64, r.nvars), ids: make([]int32, len(r.body)),
		given: given, goal: goal, old: old, bound: bound, emit: emit}
	return x.exec(0)
}

// visible reports whether tuple id of rs is in the model the run reads.
func (x *joinRun) visible(rs *relStore, id int32) bool {
	f := rs.flags[id]
	if x.old {
		return f&fDel != 0 || f&(fAlive|fIns) == fAlive
	}
	return f&fAlive != 0
}

// value returns the value of argument o under the current bindings.
func (x *joinRun) value(o ruleArg) int64 {
	if o.slot >= 0 {
		return x.vals[o.slot]
	}
	return o.val
}

// match applies ops to tuple t, binding variables, and reports whether t matches.
func (x *joinRun) match(ops []colOp, t []int64) bool {
	for _, o := range ops {
		v := t[o.col]
		switch o.kind {
		case opConst:
			if v != o.val {
				return false
			}
		case opCheck:
			if v != x.vals[o.slot] {
				return false
			}
		default:
			x.vals[o.slot] = v
		}
	}
	return true
}

// height returns the largest height of the instance's positive body tuples (0 for none).
func (x *joinRun) height() int32 {
	h := int32(0)
	for i, a := range x.r.body {
		if !a.negated {
			h = max(h, a.rel.height[x.ids[i]])
		}
	}
	return h
}

// headValues returns the values of the instance's head in scratch space.
func (x *joinRun) headValues() []int64 {
	vals := x.m.hv[:0]
	for _, o := range x.r.headArgs {
		vals = append(vals, x.value(o))
	}
	x.m.hv = vals
	return vals
}

// key returns the values of step s's bound columns in scratch space.
func (x *joinRun) key(s *joinStep) []int64 {
	k := x.m.kv[:0]
	for _, o := range s.keyOps {
		k = append(k, x.value(o))
	}
	x.m.kv = k
	return k
}

// candidates returns the ids of the tuples of s.rel that agree with s's bound columns (dead
// ones included), or all with all set when no column is bound.
func (x *joinRun) candidates(s *joinStep) (ids []int32, all bool) {
	if len(s.keyCols) == 0 {
		return nil, true
	}
	if s.ix == nil {
		s.ix = s.rel.index(s.keyCols)
	}
	return s.ix.find(s.rel, x.key(s)), false
}

// exec runs the plan from step k on and reports whether to go on (emit has not stopped the
// enumeration and no error occurred).
func (x *joinRun) exec(k int) bool {
	m := x.m
	if m.ticks++; m.ticks&0x3ff == 0 && m.ctx != nil && m.err == nil {
		if err := m.ctx.Err(); err != nil {
			m.err = fmt.Errorf("evaluation stopped: %w", err)
		}
	}
	if m.err != nil {
		return false
	}
	if k == len(x.steps) {
		return x.emit(x)
	}
	s := &x.steps[k]
	switch s.kind {
	case stCons:
		return !s.cons.holds(x) || x.exec(k+1)
	case stNeg:
		return x.exists(s) || x.exec(k+1)
	case stGoal:
		return !x.match(s.match, x.goal) || x.exec(k+1)
	case stGiven:
		for _, id := range x.given {
			if x.match(s.match, s.rel.tuple(id)) {
				x.ids[s.pos] = id
				if !x.exec(k + 1) {
					return false
				}
			}
		}
		return true
	}
	rs := s.rel
	if s.whole {
		id, ok := rs.lookup(x.key(s))
		if !ok || !x.visible(rs, id) || rs.height[id] >= x.bound {
			return true
		}
		x.ids[s.pos] = id
		return x.exec(k + 1)
	}
	ids, all := x.candidates(s)
	n := int32(len(ids))
	if all {
		n = int32(len(rs.flags))
	}
	if s.project {
		return x.execProjected(k, ids, all, n)
	}
	for i := range n {
		id := i
		if !all {
			id = ids[i]
		}
		if x.visible(rs, id) && rs.height[id] < x.bound && x.match(s.match, rs.tuple(id)) {
			x.ids[s.pos] = id
			if !x.exec(k + 1) {
				return false
			}
		}
	}
	return true
}

// execProjected runs step k, a projecting join (see joinStep.project), over its n candidates
// (ids, or every tuple with all): it goes on once per distinct value of the kept variables,
// with the visible match of least height, so that derived heights stay minimal.
func (x *joinRun) execProjected(k int, ids []int32, all bool, n int32) bool {
	s := &x.steps[k]
	rs := s.rel
	floor := x.heightBefore(k) // no match of a group needs to be lower
	var best []int32           // per group, in order of first match
	var one map[int64]int      // one kept variable: its value -> index in best
	var many map[string]int    // more: their encoded values -> index in best
	switch {
	case len(s.keep) == 1:
		one = map[int64]int{}
	case len(s.keep) > 1:
		many = map[string]int{}
	}
	for i := range n {
		id := i
		if !all {
			id = ids[i]
		}
		h := rs.height[id]
		if !x.visible(rs, id) || h >= x.bound || !x.match(s.match, rs.tuple(id)) {
			continue
		}
		j, ok := 0, len(best) > 0
		switch {
		case one != nil:
			v := x.vals[s.keep[0]]
			if j, ok = one[v]; !ok {
				one[v] = len(best)
			}
		case many != nil:
			key := x.m.pk[:0]
			for _, slot := range s.keep {
				key = binary.LittleEndian.AppendUint64(key, uint64(x.vals[slot]))
			}
			x.m.pk = key
			if j, ok = many[string(key)]; !ok {
				many[string(key)] = len(best)
			}
		}
		switch {
		case !ok:
			best = append(best, id)
		case h < rs.height[best[j]]:
			best[j] = id
		}
		if len(s.keep) == 0 && h <= floor {
			break
		}
	}
	for _, id := range best {
		x.match(s.match, rs.tuple(id))
		x.ids[s.pos] = id
		if !x.exec(k + 1) {
			return false
		}
	}
	return true
}

// heightBefore returns the largest height of the tuples matched by the positive atoms of the
// steps before step k (0 for none).
func (x *joinRun) heightBefore(k int) int32 {
	h := int32(0)
	for _, s := range x.steps[:k] {
		if s.kind == stGiven || s.kind == stJoin {
			h = max(h, s.rel.height[x.ids[s.pos]])
		}
	}
	return h
}

// exists reports whether a visible tuple matches the negated atom of step s.
func (x *joinRun) exists(s *joinStep) bool {
	rs := s.rel
	if s.whole {
		id, ok := rs.lookup(x.key(s))
		return ok && x.visible(rs, id)
	}
	ids, all := x.candidates(s)
	if all {
		for id := range int32(len(rs.flags)) {
			if x.visible(rs, id) {
				return true
			}
		}
		return false
	}
	for _, id := range ids {
		if x.visible(rs, id) {
			return true
		}
	}
	return false
}

// holds reports whether the constraint holds under x's bindings.
func (c *cCons) holds(x *joinRun) bool {
	l, r := x.value(c.l), x.value(c.r)
	var d int
	if c.sym && c.op != Eq && c.op != Ne {
		d = cmp.Compare(x.m.syms[l], x.m.syms[r])
	} else {
		d = cmp.Compare(l, r)
	}
	switch c.op {
	case Eq:
		return d == 0
	case Ne:
		return d != 0
	case Lt:
		return d < 0
	case Le:
		return d <= 0
	case Gt:
		return d > 0
	}
	return d >= 0
}
