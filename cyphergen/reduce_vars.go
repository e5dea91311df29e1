package cyphergen

import (
	"slices"
	"strconv"
	"strings"
)

// varEdits proposes edits keyed by variable names rather than by position, so that queries
// which write the same patterns differently (a query and its rewrite, whose MATCH clauses cover
// the same elements in other paths) shrink in step: dropping the labels, types or property
// maps of a variable wherever a single query's patterns name it, and dropping a MATCH clause by
// the set of variables it binds and its WHERE (which the partitions of a TLP case do not share). Variables a rewrite made up ([isFresh]) are left out of the
// sets, since the original query has none.
func varEdits(q *Query, try editFunc) {
	for pi, sq := range q.Parts {
		pp := "part " + strconv.Itoa(pi) + " "
		nodes := map[string][]*NodePat{}
		rels := map[string][]*RelPat{}
		var names []string
		for ci, c := range sq.Clauses {
			m, ok := c.(*Match)
			if !ok {
				continue
			}
			var bound []string
			for i := range m.Patterns {
				p := &m.Patterns[i]
				for j := range p.Nodes {
					if v := p.Nodes[j].Var; v != "" {
						if len(nodes[v]) == 0 && len(rels[v]) == 0 {
							names = append(names, v)
						}
						nodes[v] = append(nodes[v], &p.Nodes[j])
						if !isFresh(v) {
							bound = append(bound, v)
						}
					}
				}
				for j := range p.Rels {
					if v := p.Rels[j].Var; v != "" {
						if len(nodes[v]) == 0 && len(rels[v]) == 0 {
							names = append(names, v)
						}
						rels[v] = append(rels[v], &p.Rels[j])
						if !isFresh(v) {
							bound = append(bound, v)
						}
					}
				}
			}
			slices.Sort(bound)
			if bound = slices.Compact(bound); len(bound) > 0 && len(sq.Clauses) > 1 {
				cs, ci := sq.Clauses, ci
				where := ""
				if m.Where != nil {
					where = " where " + Print(m.Where)
				}
				try(pp+"drop match binding "+strings.Join(bound, ",")+where, func() {
					sq.Clauses = slices.Delete(slices.Clone(cs), ci, ci+1)
				}, func() { sq.Clauses = cs })
			}
		}
		for _, v := range names {
			if isFresh(v) {
				continue
			}
			if ns := nodes[v]; slices.ContainsFunc(ns, func(n *NodePat) bool { return len(n.Labels) > 0 }) {
				old := make([][]string, len(ns))
				try(pp+"var "+v+" drop labels", func() {
					for i, n := range ns {
						old[i], n.Labels = n.Labels, nil
					}
				}, func() {
					for i, n := range ns {
						n.Labels = old[i]
					}
				})
			}
			if ns := nodes[v]; slices.ContainsFunc(ns, func(n *NodePat) bool { return len(n.Props) > 0 }) {
				old := make([][]PropEq, len(ns))
				try(pp+"var "+v+" drop properties", func() {
					for i, n := range ns {
						old[i], n.Props = n.Props, nil
					}
				}, func() {
					for i, n := range ns {
						n.Props = old[i]
					}
				})
			}
			if rs := rels[v]; slices.ContainsFunc(rs, func(r *RelPat) bool { return len(r.Types) > 0 }) {
				old := make([][]string, len(rs))
				try(pp+"var "+v+" drop types", func() {
					for i, r := range rs {
						old[i], r.Types = r.Types, nil
					}
				}, func() {
					for i, r := range rs {
						r.Types = old[i]
					}
				})
			}
			if rs := rels[v]; slices.ContainsFunc(rs, func(r *RelPat) bool { return len(r.Props) > 0 }) {
				old := make([][]PropEq, len(rs))
				try(pp+"var "+v+" drop properties", func() {
					for i, r := range rs {
						old[i], r.Props = r.Props, nil
					}
				}, func() {
					for i, r := range rs {
						r.Props = old[i]
					}
				})
			}
		}
	}
}

// isFresh reports whether name is one a rewrite makes up for an anonymous element (m0, m1, ...;
// see rewriter.fresh).
func isFresh(name string) bool {
	if len(name) < 2 || name[0] != 'm' {
		return false
	}
	_, err := strconv.Atoi(name[1:])
	return err == nil
}
