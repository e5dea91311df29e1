package datalog

import (
	"fmt"
	"strings"
)

// Strata groups the relations of p into strata in evaluation order: the
// strongly connected components of the dependency graph (a rule's head
// depends on its body relations) in topological order, dependencies
// first. It fails when a relation depends negatively on a relation of
// its own component, naming the cycle and the negated atom's position.
func (p *Program) Strata() ([][]string, error) {
	index := map[string]int{}
	for i, r := range p.Relations {
		index[r.Name] = i
	}
	n := len(p.Relations)
	succ := make([][]int, n)
	seen := map[[2]int]bool{}
	p.edges(index, func(h, b int, _ Atom, _ *Rule) error {
		if !seen[[2]int{h, b}] {
			seen[[2]int{h, b}] = true
			succ[h] = append(succ[h], b)
		}
		return nil
	})
	// Tarjan's algorithm; components come out sinks first, which is
	// evaluation order since edges point from heads to bodies.
	comp := make([]int, n)
	idx := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range idx {
		idx[i] = -1
	}
	var stack []int
	var strata [][]string
	counter := 0
	var visit func(v int)
	visit = func(v int) {
		idx[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range succ[v] {
			if idx[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], idx[w])
			}
		}
		if low[v] == idx[v] {
			members := make([]bool, n)
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = len(strata)
				members[w] = true
				if w == v {
					break
				}
			}
			var names []string
			for i, m := range members {
				if m {
					names = append(names, p.Relations[i].Name)
				}
			}
			strata = append(strata, names)
		}
	}
	for v := range n {
		if idx[v] < 0 {
			visit(v)
		}
	}
	err := p.edges(index, func(h, b int, a Atom, r *Rule) error {
		if !a.Negated || comp[b] != comp[h] {
			return nil
		}
		return &Error{File: p.File, Pos: a.Pos, Msg: fmt.Sprintf(
			"not stratifiable: %s depends negatively on %s in the cycle %s",
			r.Head.Rel, a.Rel, strings.Join(p.cycle(succ, comp, h, b), " -> "))}
	})
	if err != nil {
		return nil, err
	}
	return strata, nil
}

// edges calls fn for every dependency of a rule's head (index h) on a body atom's relation
// (index b), in rule order, and stops at the first error fn returns.
func (p *Program) edges(index map[string]int, fn func(h, b int, a Atom, r *Rule) error) error {
	for i := range p.Rules {
		r := &p.Rules[i]
		h, ok := index[r.Head.Rel]
		if !ok {
			continue
		}
		for _, a := range r.Body {
			if b, ok := index[a.Rel]; ok {
				if err := fn(h, b, a, r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// cycle returns the names on a shortest cycle h -> b -> ... -> h inside
// the component of h.
func (p *Program) cycle(succ [][]int, comp []int, h, b int) []string {
	prev := map[int]int{b: -1}
	queue := []int{b}
	for len(queue) > 0 && h != b {
		v := queue[0]
		queue = queue[1:]
		if v == h {
			break
		}
		for _, w := range succ[v] {
			if _, ok := prev[w]; !ok && comp[w] == comp[h] {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	var path []int
	if h != b {
		for v := h; v != -1; v = prev[v] {
			path = append(path, v)
		}
	} else {
		path = []int{b}
	}
	// path is h, ..., b backwards from h; reverse it to b, ..., h.
	names := []string{p.Relations[h].Name}
	for i := len(path) - 1; i >= 0; i-- {
		names = append(names, p.Relations[path[i]].Name)
	}
	return names
}
