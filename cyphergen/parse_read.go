package cyphergen

import "strconv"

// hops reads the range after the '*' of a variable-length relationship: [min] [.. [max]].
func (p *parser) hops() *Hops {
	h := &Hops{Min: 1, Max: -1}
	bound := func() (int, bool) {
		t := p.tok()
		if t.kind != tInt {
			return 0, false
		}
		p.advance()
		n, err := strconv.Atoi(t.text)
		if err != nil || n > 1000 {
			p.fail(t, "unsupported: relationship length %s", t.text)
		}
		return n, true
	}
	lo, hasLo := bound()
	if hasLo {
		h.Min = lo
	}
	if p.accept("..") {
		if hi, ok := bound(); ok {
			h.Max = hi
		}
	} else if hasLo {
		h.Max = lo
	}
	return h
}

// mapLit reads a map literal {k: e, ...}.
func (p *parser) mapLit() Expr {
	m := &MapLit{}
	p.advance()
	for !p.accept("}") {
		if m.Entries != nil {
			p.expect(",", "between map entries")
		}
		k := p.name("as map key")
		p.expect(":", "after map key")
		m.Entries = append(m.Entries, PropEq{Key: k, Val: p.expr()})
	}
	return m
}

// mapProj reads the map projection {.k, k: e, .*} after the variable x.
func (p *parser) mapProj(x Expr) Expr {
	if _, ok := x.(*Var); !ok {
		p.fail(p.tok(), "unsupported: map projection of an expression other than a variable")
	}
	m := &MapProj{X: x}
	p.advance()
	for !p.accept("}") {
		if m.Items != nil {
			p.expect(",", "between map projection items")
		}
		switch {
		case p.accept("."):
			if p.accept("*") {
				m.Items = append(m.Items, MapItem{All: true})
			} else {
				m.Items = append(m.Items, MapItem{Key: p.name("after '.'")})
			}
		default:
			k := p.name("as map projection key")
			if !p.accept(":") {
				p.fail(p.tok(), "unsupported: map projection item other than .k, k: e or .*")
			}
			m.Items = append(m.Items, MapItem{Key: k, Val: p.expr()})
		}
	}
	return m
}

// listComp reads [x IN list [WHERE p] [| e]] after its '['.
func (p *parser) listComp() Expr {
	c := &ListComp{Var: p.advance().text}
	p.expectKw("IN", "in list comprehension")
	c.List = p.expr()
	if p.acceptKw("WHERE") {
		c.Where = p.expr()
	}
	if p.accept("|") {
		c.Map = p.expr()
	}
	p.expect("]", "to close the list comprehension")
	return c
}

// subquery reads EXISTS { [MATCH] patterns [WHERE e] } or COUNT { ... }.
func (p *parser) subquery() Expr {
	s := &Subquery{Count: p.advance().isKw("COUNT"), Match: &Match{}}
	p.expect("{", "to open the subquery")
	p.acceptKw("MATCH")
	s.Match.Patterns = p.patterns()
	s.Match.Where = p.where()
	if !p.is("}") {
		p.fail(p.tok(), "unsupported: subquery with clauses other than one MATCH")
	}
	p.advance()
	return s
}

// callSub reads CALL { single query }.
func (p *parser) callSub() Clause {
	p.advance()
	p.advance()
	c := &CallSub{Body: p.singleQuery()}
	if p.isKw("UNION") {
		p.fail(p.tok(), "unsupported: UNION in a CALL subquery")
	}
	p.expect("}", "to close the CALL subquery")
	return c
}
