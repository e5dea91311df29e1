package muz

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/sexpr"
)

// finSort is the finite sort of a relation's column: a bit-vector of width bits, or Bool (width 0).
// unknown is set for a sort the target cannot enumerate.
type finSort struct {
	width   int
	unknown bool
}

// size returns the number of values of s.
func (s finSort) size() uint64 {
	if s.width == 0 {
		return 2
	}
	return 1 << s.width
}

// value prints the i-th value of s as z3 prints it.
func (s finSort) value(i uint64) string {
	if s.width == 0 {
		return strconv.FormatBool(i == 1)
	}
	b := strconv.FormatUint(i, 2)
	return "#b" + strings.Repeat("0", s.width-len(b)) + b
}

// schema is what a statement declares: its sorts and relations, and its queries in order.
type schema struct {
	sorts   map[string]finSort
	rels    map[string][]finSort
	queries []string
}

// newSchema reads the define-sort, declare-rel and query commands of a statement.
func newSchema(cmds []sexpr.Node) *schema {
	s := &schema{sorts: map[string]finSort{}, rels: map[string][]finSort{}}
	for _, c := range cmds {
		switch c.Head() {
		case "define-sort":
			if len(c.List) == 4 && c.List[2].IsList() && len(c.List[2].List) == 0 {
				s.sorts[c.List[1].Symbol()] = s.sort(&c.List[3])
			}
		case "declare-rel":
			if len(c.List) >= 3 && c.List[2].IsList() {
				var cols []finSort
				for _, a := range c.List[2].List {
					cols = append(cols, s.sort(&a))
				}
				s.rels[c.List[1].Symbol()] = cols
			}
		case "query":
			if len(c.List) >= 2 && !c.List[1].IsList() {
				s.queries = append(s.queries, c.List[1].Symbol())
			}
		}
	}
	return s
}

// sort returns the sort an s-expression names.
func (s *schema) sort(n *sexpr.Node) finSort {
	if !n.IsList() {
		if n.Symbol() == "Bool" {
			return finSort{}
		}
		if d, ok := s.sorts[n.Symbol()]; ok {
			return d
		}
		return finSort{unknown: true}
	}
	if len(n.List) == 3 && n.List[0].Symbol() == "_" && n.List[1].Symbol() == "BitVec" {
		if w, err := strconv.Atoi(n.List[2].Symbol()); err == nil && w > 0 && w < 64 {
			return finSort{width: w}
		}
	}
	return finSort{unknown: true}
}

// maxExpand bounds the tuples enumerated to decode an answer that is not a list of tuples.
const maxExpand = 1 << 16

// tuples returns the tuples that satisfy an answer formula over variables (:var 0) ... of the
// given sorts. An enumeration of tuples, which is what z3 prints, is read directly; any other
// formula (true for a relation with columns, ranges, a column left open) is evaluated on every
// tuple of the sorts' product, if it has at most maxExpand tuples.
func tuples(f *sexpr.Node, cols []finSort) ([][]string, error) {
	if rows, ok := enumeration(f, len(cols)); ok {
		return rows, nil
	}
	total := uint64(1)
	for _, c := range cols {
		if c.unknown {
			return nil, fmt.Errorf("answer %s is not a list of tuples and a column's sort is not a bit-vector or Bool", clip(f.String()))
		}
		total *= c.size()
		if total > maxExpand {
			return nil, fmt.Errorf("answer %s is not a list of tuples and has more than %d candidates", clip(f.String()), maxExpand)
		}
	}
	var rows [][]string
	vals := make([]uint64, len(cols))
	for range total {
		ok, err := eval(f, vals, cols)
		if err != nil {
			return nil, fmt.Errorf("answer %s: %v", clip(f.String()), err)
		}
		if ok {
			row := make([]string, len(cols))
			for i, v := range vals {
				row[i] = cols[i].value(v)
			}
			rows = append(rows, row)
		}
		for i := len(vals) - 1; i >= 0; i-- { // next tuple
			if vals[i]++; vals[i] < cols[i].size() {
				break
			}
			vals[i] = 0
		}
	}
	return rows, nil
}

// enumeration reads a formula of the form (or T...), T or false, where every T fixes every
// variable: (and (= (:var 0) v0) ...), a single equality, or true for no variables.
func enumeration(f *sexpr.Node, arity int) ([][]string, bool) {
	if f.Symbol() == "false" {
		return nil, true
	}
	ds := []sexpr.Node{*f}
	if f.Head() == "or" {
		ds = f.List[1:]
	}
	rows := make([][]string, 0, len(ds))
	for _, d := range ds {
		lits := []sexpr.Node{d}
		if d.Head() == "and" {
			lits = d.List[1:]
		} else if d.Symbol() == "true" {
			lits = nil
		}
		if len(lits) != arity {
			return nil, false
		}
		row := make([]string, arity)
		for _, l := range lits {
			i, v, ok := varEq(&l)
			if !ok || i >= arity || row[i] != "" {
				return nil, false
			}
			row[i] = v
		}
		rows = append(rows, row)
	}
	return rows, true
}

// varEq reads (= (:var i) v) or (= v (:var i)) with v a literal.
func varEq(l *sexpr.Node) (int, string, bool) {
	if l.Head() != "=" || len(l.List) != 3 {
		return 0, "", false
	}
	a, b := &l.List[1], &l.List[2]
	if _, ok := varIndex(a); !ok {
		a, b = b, a
	}
	i, ok := varIndex(a)
	if !ok {
		return 0, "", false
	}
	if _, ok := literal(b); !ok {
		return 0, "", false
	}
	return i, b.String(), true
}

// varIndex reads (:var i).
func varIndex(n *sexpr.Node) (int, bool) {
	if n.Head() != ":var" || len(n.List) != 2 {
		return 0, false
	}
	i, err := strconv.Atoi(n.List[1].Symbol())
	return i, err == nil && i >= 0
}

// literal reads a bit-vector literal (#b..., #x..., (_ bvN W)) or a Boolean constant.
func literal(n *sexpr.Node) (uint64, bool) {
	var v uint64
	var err error
	switch {
	case n.Symbol() == "true":
		return 1, true
	case n.Symbol() == "false":
		return 0, true
	case strings.HasPrefix(n.Symbol(), "#b"):
		v, err = strconv.ParseUint(n.Symbol()[2:], 2, 64)
	case strings.HasPrefix(n.Symbol(), "#x"):
		v, err = strconv.ParseUint(n.Symbol()[2:], 16, 64)
	case n.IsList() && len(n.List) == 3 && n.List[0].Symbol() == "_" && strings.HasPrefix(n.List[1].Symbol(), "bv"):
		v, err = strconv.ParseUint(n.List[1].Symbol()[2:], 10, 64)
	default:
		return 0, false
	}
	return v, err == nil
}

// eval evaluates a Boolean formula on the tuple vals.
func eval(f *sexpr.Node, vals []uint64, cols []finSort) (bool, error) {
	switch f.Symbol() {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if i, ok := varIndex(f); ok && i < len(vals) && cols[i].width == 0 {
		return vals[i] == 1, nil
	}
	if !f.IsList() || len(f.List) == 0 {
		return false, fmt.Errorf("cannot evaluate %s", clip(f.String()))
	}
	args := f.List[1:]
	switch op := f.Head(); op {
	case "and", "or":
		for _, a := range args {
			v, err := eval(&a, vals, cols)
			if err != nil {
				return false, err
			}
			if v == (op == "or") {
				return v, nil
			}
		}
		return op == "and", nil
	case "not":
		if len(args) != 1 {
			break
		}
		v, err := eval(&args[0], vals, cols)
		return !v, err
	case "=>":
		if len(args) != 2 {
			break
		}
		a, err := eval(&args[0], vals, cols)
		if err != nil || !a {
			return true, err
		}
		return eval(&args[1], vals, cols)
	case "=", "distinct", "bvule", "bvult", "bvuge", "bvugt":
		if len(args) != 2 {
			break
		}
		a, err := evalValue(&args[0], vals)
		if err != nil {
			return false, err
		}
		b, err := evalValue(&args[1], vals)
		if err != nil {
			return false, err
		}
		switch op {
		case "=":
			return a == b, nil
		case "distinct":
			return a != b, nil
		case "bvule":
			return a <= b, nil
		case "bvult":
			return a < b, nil
		case "bvuge":
			return a >= b, nil
		}
		return a > b, nil
	}
	return false, fmt.Errorf("cannot evaluate %s", clip(f.String()))
}

// evalValue evaluates a variable or a literal.
func evalValue(n *sexpr.Node, vals []uint64) (uint64, error) {
	if i, ok := varIndex(n); ok {
		if i >= len(vals) {
			return 0, fmt.Errorf("variable %d of a relation of arity %d", i, len(vals))
		}
		return vals[i], nil
	}
	if v, ok := literal(n); ok {
		return v, nil
	}
	return 0, fmt.Errorf("cannot evaluate %s", clip(n.String()))
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
