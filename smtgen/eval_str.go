package smtgen

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// evalString evaluates the Strings and RegLan operators; ok is false for other names. Every
// string operation is total as SMT-LIB 2.6 defines it (out-of-range positions give ε or -1).
func (ev *evaluator) evalString(t *Term, args []Value) (v Value, ok bool, err error) {
	str := func(i int) []rune { return args[i].(StringValue) }
	num := func(i int) *big.Int { return args[i].(IntValue).V }
	re := func(i int) int { return args[i].(reValue).n }
	c := ev.re
	rv := func(n int) Value { return reValue{c, n} }
	switch t.Name {
	case "str.++":
		var r []rune
		for i := range args {
			r = append(r, str(i)...)
		}
		return StringValue(r), true, nil
	case "str.len":
		return NewInt(int64(len(str(0)))), true, nil
	case "str.<", "str.<=":
		for i := 0; i+1 < len(args); i++ {
			cmp := compareRunes(str(i), str(i+1))
			if cmp > 0 || (cmp == 0 && t.Name == "str.<") {
				return BoolValue(false), true, nil
			}
		}
		return BoolValue(true), true, nil
	case "str.at":
		return StringValue(substr(str(0), num(1), big.NewInt(1))), true, nil
	case "str.substr":
		return StringValue(substr(str(0), num(1), num(2))), true, nil
	case "str.prefixof":
		a, b := str(0), str(1)
		return BoolValue(len(a) <= len(b) && runesEqual(a, b[:len(a)])), true, nil
	case "str.suffixof":
		a, b := str(0), str(1)
		return BoolValue(len(a) <= len(b) && runesEqual(a, b[len(b)-len(a):])), true, nil
	case "str.contains":
		return BoolValue(runeIndex(str(0), str(1), 0) >= 0), true, nil
	case "str.indexof":
		s, sub, i := str(0), str(1), num(2)
		if i.Sign() < 0 || i.Cmp(big.NewInt(int64(len(s)))) > 0 {
			return NewInt(-1), true, nil
		}
		return NewInt(int64(runeIndex(s, sub, int(i.Int64())))), true, nil
	case "str.replace":
		s, a, b := str(0), str(1), str(2)
		k := runeIndex(s, a, 0)
		if k < 0 {
			return StringValue(s), true, nil
		}
		return StringValue(concatRunes(s[:k], b, s[k+len(a):])), true, nil
	case "str.replace_all":
		s, a, b := str(0), str(1), str(2)
		if len(a) == 0 {
			return StringValue(s), true, nil
		}
		var out []rune
		for {
			k := runeIndex(s, a, 0)
			if k < 0 {
				break
			}
			out = append(append(out, s[:k]...), b...)
			s = s[k+len(a):]
		}
		return StringValue(append(out, s...)), true, nil
	case "str.replace_re":
		s, r, b := str(0), re(1), str(2)
		i, j := c.firstMatch(s, r, 0, false)
		if i < 0 {
			return StringValue(s), true, nil
		}
		return StringValue(concatRunes(s[:i], b, s[j:])), true, nil
	case "str.replace_re_all":
		s, r, b := str(0), re(1), str(2)
		var out []rune
		for {
			i, j := c.firstMatch(s, r, 0, true)
			if i < 0 {
				break
			}
			out = append(append(out, s[:i]...), b...)
			s = s[j:]
		}
		return StringValue(append(out, s...)), true, nil
	case "str.is_digit":
		s := str(0)
		return BoolValue(len(s) == 1 && s[0] >= '0' && s[0] <= '9'), true, nil
	case "str.to_code":
		s := str(0)
		if len(s) != 1 {
			return NewInt(-1), true, nil
		}
		return NewInt(int64(s[0])), true, nil
	case "str.from_code":
		n := num(0)
		if n.Sign() < 0 || n.Cmp(big.NewInt(MaxChar)) > 0 {
			return StringValue{}, true, nil
		}
		return StringValue{rune(n.Int64())}, true, nil
	case "str.to_int", "str.to.int":
		s := str(0)
		if len(s) == 0 {
			return NewInt(-1), true, nil
		}
		for _, ch := range s {
			if ch < '0' || ch > '9' {
				return NewInt(-1), true, nil
			}
		}
		n, _ := new(big.Int).SetString(string(s), 10)
		return IntValue{n}, true, nil
	case "str.from_int", "int.to.str":
		n := num(0)
		if n.Sign() < 0 {
			return StringValue{}, true, nil
		}
		return StringValue(n.String()), true, nil
	case "str.in_re", "str.in.re":
		return BoolValue(c.matches(str(0), re(1))), true, nil
	case "str.to_re", "str.to.re":
		return rv(c.word(str(0))), true, nil
	case "re.none", "re.nostr":
		return rv(reEmptyID), true, nil
	case "re.allchar":
		return rv(c.allChar()), true, nil
	case "re.all":
		return rv(c.star(c.allChar())), true, nil
	case "re.++":
		r := reEpsID
		for i := len(args) - 1; i >= 0; i-- {
			r = c.cat(re(i), r)
		}
		return rv(r), true, nil
	case "re.union", "re.inter":
		ids := make([]int, len(args))
		for i := range args {
			ids[i] = re(i)
		}
		if t.Name == "re.union" {
			return rv(c.or(ids...)), true, nil
		}
		return rv(c.and(ids...)), true, nil
	case "re.diff":
		r := re(0)
		for i := 1; i < len(args); i++ {
			r = c.and(r, c.not(re(i)))
		}
		return rv(r), true, nil
	case "re.*":
		return rv(c.star(re(0))), true, nil
	case "re.+":
		return rv(c.cat(re(0), c.star(re(0)))), true, nil
	case "re.opt":
		return rv(c.or(reEpsID, re(0))), true, nil
	case "re.comp":
		return rv(c.not(re(0))), true, nil
	case "re.range":
		a, b := str(0), str(1)
		if len(a) != 1 || len(b) != 1 || a[0] > b[0] {
			return rv(reEmptyID), true, nil
		}
		return rv(c.set([]reRange{{a[0], b[0]}})), true, nil
	case "re.^", "re.loop":
		r := re(0)
		var lo, hi int
		switch {
		case t.Name == "re.^":
			lo, hi = t.Index[0], t.Index[0]
		case len(t.Index) == 2:
			lo, hi = t.Index[0], t.Index[1]
		case len(t.Index) == 1:
			lo, hi = t.Index[0], -1
		default: // z3's (re.loop r i j)
			lo, _ = strconv.Atoi(t.Args[1].Lit)
			hi, _ = strconv.Atoi(t.Args[2].Lit)
		}
		if hi > maxLoop || lo > maxLoop {
			return nil, true, undecided("loop bound above %d", maxLoop)
		}
		if hi >= 0 && lo > hi {
			return rv(reEmptyID), true, nil
		}
		tail := reEpsID
		if hi < 0 {
			tail = c.star(r)
		} else {
			for k := lo; k < hi; k++ {
				tail = c.or(reEpsID, c.cat(r, tail))
			}
		}
		for k := 0; k < lo; k++ {
			tail = c.cat(r, tail)
		}
		return rv(tail), true, nil
	}
	return nil, false, nil
}

// maxLoop bounds the counts of re.loop and re.^ that the evaluator unrolls.
const maxLoop = 1000

// substr is str.substr: ε unless 0 ≤ m < |s| and n > 0.
func substr(s []rune, m, n *big.Int) []rune {
	if m.Sign() < 0 || m.Cmp(big.NewInt(int64(len(s)))) >= 0 || n.Sign() <= 0 {
		return []rune{}
	}
	start := int(m.Int64())
	end := len(s)
	if n.Cmp(big.NewInt(int64(len(s)-start))) < 0 {
		end = start + int(n.Int64())
	}
	return append([]rune{}, s[start:end]...)
}

// runeIndex returns the first position ≥ from where sub occurs in s, or -1.
func runeIndex(s, sub []rune, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if runesEqual(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func runesEqual(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func concatRunes(parts ...[]rune) []rune {
	var out []rune
	for _, p := range parts {
		out = append(out, p...)
	}
	if out == nil {
		out = []rune{}
	}
	return out
}

// ---- regular languages: Brzozowski derivatives over hash-consed expressions ----

// reKind is the kind of a regular-expression node.
type reKind uint8

const (
	reEmpty reKind = iota // ∅
	reEps                 // {ε}
	reSet                 // one character out of ranges
	reCat                 // subs[0] · subs[1] (right-nested)
	reOr                  // union of subs (sorted, no duplicates)
	reAnd                 // intersection of subs (sorted, no duplicates)
	reStar                // subs[0]*
	reNot                 // complement of subs[0]
)

// Node ids fixed by newReCache.
const (
	reEmptyID = 0
	reEpsID   = 1
)

// reRange is the characters lo..hi.
type reRange struct{ lo, hi rune }

type reNode struct {
	kind     reKind
	ranges   []reRange
	subs     []int
	nullable bool
}

// reCache interns regular-expression nodes, so that equal expressions (up to associativity,
// commutativity and idempotence of union and intersection) have one id, and caches derivatives.
type reCache struct {
	nodes  []reNode
	intern map[string]int
	deriv  map[[2]int]int
}

// reValue is a regular language built by the evaluator (the value of a RegLan term).
type reValue struct {
	c *reCache
	n int
}

// Sort implements [Value].
func (reValue) Sort() *Sort { return RegLanSort }

// String prints a regular expression for the language.
func (r reValue) String() string {
	var b strings.Builder
	r.c.write(&b, r.n)
	return b.String()
}

func newReCache() *reCache {
	c := &reCache{intern: map[string]int{}, deriv: map[[2]int]int{}}
	c.mk(reNode{kind: reEmpty})
	c.mk(reNode{kind: reEps, nullable: true})
	return c
}

// mk interns n.
func (c *reCache) mk(n reNode) int {
	var b strings.Builder
	b.WriteByte(byte('a' + n.kind))
	for _, r := range n.ranges {
		fmt.Fprintf(&b, "%x-%x,", r.lo, r.hi)
	}
	for _, s := range n.subs {
		fmt.Fprintf(&b, "%d.", s)
	}
	k := b.String()
	if id, ok := c.intern[k]; ok {
		return id
	}
	id := len(c.nodes)
	c.nodes = append(c.nodes, n)
	c.intern[k] = id
	return id
}

// set returns the node of a character class (ranges in any order).
func (c *reCache) set(rs []reRange) int {
	rs = normRanges(rs)
	if len(rs) == 0 {
		return reEmptyID
	}
	return c.mk(reNode{kind: reSet, ranges: rs})
}

func normRanges(rs []reRange) []reRange {
	rs = append([]reRange(nil), rs...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	var out []reRange
	for _, r := range rs {
		if r.lo > r.hi {
			continue
		}
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			if r.hi > out[n-1].hi {
				out[n-1].hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

func intersectRanges(a, b []reRange) []reRange {
	var out []reRange
	for _, x := range a {
		for _, y := range b {
			lo, hi := max(x.lo, y.lo), min(x.hi, y.hi)
			if lo <= hi {
				out = append(out, reRange{lo, hi})
			}
		}
	}
	return normRanges(out)
}

func (c *reCache) allChar() int { return c.set([]reRange{{0, MaxChar}}) }

// isAll reports whether id is Σ* (written as (re.* re.allchar)).
func (c *reCache) isAll(id int) bool {
	n := c.nodes[id]
	if n.kind != reStar {
		return false
	}
	s := c.nodes[n.subs[0]]
	return s.kind == reSet && len(s.ranges) == 1 && s.ranges[0] == reRange{0, MaxChar}
}

// word returns the node of the single word s.
func (c *reCache) word(s []rune) int {
	r := reEpsID
	for i := len(s) - 1; i >= 0; i-- {
		r = c.cat(c.set([]reRange{{s[i], s[i]}}), r)
	}
	return r
}

func (c *reCache) cat(a, b int) int {
	switch {
	case a == reEmptyID || b == reEmptyID:
		return reEmptyID
	case a == reEpsID:
		return b
	case b == reEpsID:
		return a
	}
	if n := c.nodes[a]; n.kind == reCat {
		return c.cat(n.subs[0], c.cat(n.subs[1], b))
	}
	return c.mk(reNode{kind: reCat, subs: []int{a, b}, nullable: c.nodes[a].nullable && c.nodes[b].nullable})
}

func (c *reCache) or(ids ...int) int {
	var subs []int
	var ranges []reRange
	hasSet := false
	var add func(id int) bool
	add = func(id int) bool {
		n := c.nodes[id]
		switch {
		case id == reEmptyID:
		case c.isAll(id):
			return true
		case n.kind == reOr:
			for _, s := range n.subs {
				if add(s) {
					return true
				}
			}
		case n.kind == reSet:
			hasSet = true
			ranges = append(ranges, n.ranges...)
		default:
			subs = append(subs, id)
		}
		return false
	}
	for _, id := range ids {
		if add(id) {
			return c.star(c.allChar())
		}
	}
	if hasSet {
		subs = append(subs, c.set(ranges))
	}
	subs = sortedUnique(subs)
	switch len(subs) {
	case 0:
		return reEmptyID
	case 1:
		return subs[0]
	}
	nullable := false
	for _, s := range subs {
		nullable = nullable || c.nodes[s].nullable
	}
	return c.mk(reNode{kind: reOr, subs: subs, nullable: nullable})
}

func (c *reCache) and(ids ...int) int {
	var subs []int
	var ranges []reRange
	sets := 0
	var add func(id int) bool
	add = func(id int) bool {
		n := c.nodes[id]
		switch {
		case id == reEmptyID:
			return true
		case c.isAll(id):
		case n.kind == reAnd:
			for _, s := range n.subs {
				if add(s) {
					return true
				}
			}
		case n.kind == reSet:
			if sets == 0 {
				ranges = n.ranges
			} else {
				ranges = intersectRanges(ranges, n.ranges)
			}
			sets++
		default:
			subs = append(subs, id)
		}
		return false
	}
	for _, id := range ids {
		if add(id) {
			return reEmptyID
		}
	}
	if sets > 0 {
		subs = append(subs, c.set(ranges))
	}
	subs = sortedUnique(subs)
	switch len(subs) {
	case 0:
		return c.star(c.allChar())
	case 1:
		return subs[0]
	}
	for _, s := range subs {
		if s == reEmptyID {
			return reEmptyID
		}
	}
	nullable := true
	for _, s := range subs {
		nullable = nullable && c.nodes[s].nullable
	}
	return c.mk(reNode{kind: reAnd, subs: subs, nullable: nullable})
}

func (c *reCache) star(a int) int {
	switch {
	case a == reEmptyID || a == reEpsID:
		return reEpsID
	case c.nodes[a].kind == reStar:
		return a
	}
	return c.mk(reNode{kind: reStar, subs: []int{a}, nullable: true})
}

func (c *reCache) not(a int) int {
	if n := c.nodes[a]; n.kind == reNot {
		return n.subs[0]
	}
	return c.mk(reNode{kind: reNot, subs: []int{a}, nullable: !c.nodes[a].nullable})
}

func sortedUnique(xs []int) []int {
	sort.Ints(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// derive returns the derivative of id by the character ch.
func (c *reCache) derive(id int, ch rune) int {
	key := [2]int{id, int(ch)}
	if d, ok := c.deriv[key]; ok {
		return d
	}
	n := c.nodes[id]
	var d int
	switch n.kind {
	case reEmpty, reEps:
		d = reEmptyID
	case reSet:
		d = reEmptyID
		for _, r := range n.ranges {
			if r.lo <= ch && ch <= r.hi {
				d = reEpsID
				break
			}
		}
	case reCat:
		d = c.cat(c.derive(n.subs[0], ch), n.subs[1])
		if c.nodes[n.subs[0]].nullable {
			d = c.or(d, c.derive(n.subs[1], ch))
		}
	case reOr, reAnd:
		ds := make([]int, len(n.subs))
		for i, s := range n.subs {
			ds[i] = c.derive(s, ch)
		}
		if n.kind == reOr {
			d = c.or(ds...)
		} else {
			d = c.and(ds...)
		}
	case reStar:
		d = c.cat(c.derive(n.subs[0], ch), id)
	case reNot:
		d = c.not(c.derive(n.subs[0], ch))
	}
	c.deriv[key] = d
	return d
}

// matches reports whether s is in the language of id.
func (c *reCache) matches(s []rune, id int) bool {
	for _, ch := range s {
		id = c.derive(id, ch)
		if id == reEmptyID {
			return false
		}
	}
	return c.nodes[id].nullable
}

// firstMatch returns the leftmost start i ≥ from of a match of id in s and, for it, the shortest
// end j (non-empty matches only when nonEmpty); i = -1 when there is none.
func (c *reCache) firstMatch(s []rune, id, from int, nonEmpty bool) (int, int) {
	for i := from; i <= len(s); i++ {
		st := id
		if c.nodes[st].nullable && !nonEmpty {
			return i, i
		}
		for j := i; j < len(s); j++ {
			st = c.derive(st, s[j])
			if st == reEmptyID {
				break
			}
			if c.nodes[st].nullable {
				return i, j + 1
			}
		}
	}
	return -1, -1
}

// maxEquivStates bounds the pairs of derivatives explored when comparing two languages.
const maxEquivStates = 5000

// equivalent reports whether a and b denote the same language; decided is false when the
// comparison would explore more than maxEquivStates pairs of derivatives.
func (c *reCache) equivalent(a, b int) (eq, decided bool) {
	if a == b {
		return true, true
	}
	// Characters with the same membership in every class of a and b behave alike: one
	// representative per block of the partition of 0..MaxChar the classes induce.
	points := map[rune]bool{0: true}
	var collect func(id int, seen map[int]bool)
	collect = func(id int, seen map[int]bool) {
		if seen[id] {
			return
		}
		seen[id] = true
		n := c.nodes[id]
		for _, r := range n.ranges {
			points[r.lo] = true
			if r.hi < MaxChar {
				points[r.hi+1] = true
			}
		}
		for _, s := range n.subs {
			collect(s, seen)
		}
	}
	seen := map[int]bool{}
	collect(a, seen)
	collect(b, seen)
	var reps []rune
	for p := range points {
		reps = append(reps, p)
	}
	sort.Slice(reps, func(i, j int) bool { return reps[i] < reps[j] })
	visited := map[[2]int]bool{}
	queue := [][2]int{{a, b}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if visited[p] {
			continue
		}
		visited[p] = true
		if len(visited) > maxEquivStates {
			return false, false
		}
		if c.nodes[p[0]].nullable != c.nodes[p[1]].nullable {
			return false, true
		}
		for _, ch := range reps {
			q := [2]int{c.derive(p[0], ch), c.derive(p[1], ch)}
			if q[0] != q[1] && !visited[q] {
				queue = append(queue, q)
			}
		}
	}
	return true, true
}

// write prints node id as an SMT-LIB RegLan term.
func (c *reCache) write(b *strings.Builder, id int) {
	n := c.nodes[id]
	lit := func(r rune) string { return StringValue{r}.String() }
	list := func(op string, subs []int) {
		b.WriteString("(" + op)
		for _, s := range subs {
			b.WriteByte(' ')
			c.write(b, s)
		}
		b.WriteByte(')')
	}
	switch n.kind {
	case reEmpty:
		b.WriteString("re.none")
	case reEps:
		b.WriteString(`(str.to_re "")`)
	case reSet:
		if len(n.ranges) == 1 && n.ranges[0] == (reRange{0, MaxChar}) {
			b.WriteString("re.allchar")
			return
		}
		if len(n.ranges) > 1 {
			b.WriteString("(re.union")
		}
		for i, r := range n.ranges {
			if len(n.ranges) > 1 || i > 0 {
				b.WriteByte(' ')
			}
			if r.lo == r.hi {
				b.WriteString("(str.to_re " + lit(r.lo) + ")")
			} else {
				b.WriteString("(re.range " + lit(r.lo) + " " + lit(r.hi) + ")")
			}
		}
		if len(n.ranges) > 1 {
			b.WriteByte(')')
		}
	case reCat:
		list("re.++", n.subs)
	case reOr:
		list("re.union", n.subs)
	case reAnd:
		list("re.inter", n.subs)
	case reStar:
		list("re.*", n.subs)
	case reNot:
		list("re.comp", n.subs)
	}
}
