package cyphergen

import "strconv"

// lastWrite reports whether clause ci of p is its only writing clause: the reducer keeps it, so
// that a finding about what a write does is not reduced into one about the reads before it.
func lastWrite(p *SingleQuery, ci int) bool {
	if !IsWrite(p.Clauses[ci]) {
		return false
	}
	n := 0
	for _, c := range p.Clauses {
		if IsWrite(c) {
			n++
		}
	}
	return n == 1
}

// writeEdits proposes the simplifications of a writing clause: fewer patterns, items and
// expressions, smaller patterns.
func writeEdits(at string, c Clause, try editFunc) {
	switch c := c.(type) {
	case *Create:
		ps := c.Patterns
		if len(ps) > 1 {
			for i := range ps {
				try(at+"drop pattern "+itoa(i), func() {
					c.Patterns = without(ps, i)
				}, func() { c.Patterns = ps })
			}
		}
		for i := range ps {
			patternEdits(at+"pattern "+itoa(i)+" ", &c.Patterns[i], try)
		}
	case *Merge:
		patternEdits(at+"pattern ", &c.Pattern, try)
	case *SetClause:
		items := c.Items
		if len(items) > 1 {
			for i := range items {
				try(at+"drop item "+itoa(i), func() {
					c.Items = without(items, i)
				}, func() { c.Items = items })
			}
		}
		for i := range items {
			if m := items[i].Map; len(m) > 1 {
				for j := range m {
					try(at+"item "+itoa(i)+" drop key "+itoa(j), func() {
						c.Items[i].Map = without(m, j)
					}, func() { c.Items[i].Map = m })
				}
			}
		}
	case *Remove:
		items := c.Items
		if len(items) > 1 {
			for i := range items {
				try(at+"drop item "+itoa(i), func() {
					c.Items = without(items, i)
				}, func() { c.Items = items })
			}
		}
	case *Delete:
		es := c.Exprs
		if len(es) > 1 {
			for i := range es {
				try(at+"drop item "+itoa(i), func() {
					c.Exprs = without(es, i)
				}, func() { c.Exprs = es })
			}
		}
	}
}

// writeExprs returns the expression slots of a writing clause.
func writeExprs(c Clause) []*Expr {
	var out []*Expr
	pattern := func(p *Pattern) {
		for i := range p.Nodes {
			for j := range p.Nodes[i].Props {
				out = append(out, &p.Nodes[i].Props[j].Val)
			}
		}
		for i := range p.Rels {
			for j := range p.Rels[i].Props {
				out = append(out, &p.Rels[i].Props[j].Val)
			}
		}
	}
	switch c := c.(type) {
	case *Create:
		for i := range c.Patterns {
			pattern(&c.Patterns[i])
		}
	case *Merge:
		pattern(&c.Pattern)
	case *SetClause:
		for i := range c.Items {
			if c.Items[i].Val != nil {
				out = append(out, &c.Items[i].Val)
			}
			for j := range c.Items[i].Map {
				out = append(out, &c.Items[i].Map[j].Val)
			}
		}
	case *Delete:
		for i := range c.Exprs {
			out = append(out, &c.Exprs[i])
		}
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }
