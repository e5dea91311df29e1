package cyphergen

// writeClause reads a writing clause (CREATE, MERGE, SET, REMOVE, [DETACH] DELETE), or returns
// nil when the next token starts none. ON CREATE and ON MATCH of MERGE, and SET x = map, are
// "unsupported:" errors.
func (p *parser) writeClause() Clause {
	switch {
	case p.acceptKw("CREATE"):
		return &Create{Patterns: p.patterns()}
	case p.acceptKw("MERGE"):
		m := &Merge{Pattern: p.pattern()}
		if p.isKw("ON") {
			p.fail(p.tok(), "unsupported: ON CREATE and ON MATCH")
		}
		return m
	case p.acceptKw("SET"):
		s := &SetClause{}
		for {
			s.Items = append(s.Items, p.setItem())
			if !p.accept(",") {
				return s
			}
		}
	case p.acceptKw("REMOVE"):
		r := &Remove{}
		for {
			it := RemoveItem{Var: p.name("after REMOVE")}
			if p.accept(".") {
				it.Key = p.name("after '.'")
			} else {
				it.Labels = p.labels("after the REMOVE variable")
			}
			r.Items = append(r.Items, it)
			if !p.accept(",") {
				return r
			}
		}
	case p.isKw("DETACH") || p.isKw("DELETE"):
		d := &Delete{Detach: p.acceptKw("DETACH")}
		p.expectKw("DELETE", "after DETACH")
		for {
			d.Exprs = append(d.Exprs, p.expr())
			if !p.accept(",") {
				return d
			}
		}
	}
	return nil
}

// setItem reads x.k = expr, x += {map} or x:L1:L2.
func (p *parser) setItem() SetItem {
	it := SetItem{Var: p.name("after SET")}
	switch {
	case p.accept("."):
		it.Key = p.name("after '.'")
		p.expect("=", "after the SET property")
		it.Val = p.expr()
	case p.accept("+"):
		p.expect("=", "after '+'")
		it.Merge = true
		if !p.is("{") {
			p.fail(p.tok(), "unsupported: SET += of anything but a map literal")
		}
		it.Map = p.propMap()
	case p.is("="):
		p.fail(p.tok(), "unsupported: SET of a whole property map")
	default:
		it.Labels = p.labels("after the SET variable")
	}
	return it
}

// labels reads :L1:L2..., at least one.
func (p *parser) labels(ctx string) []string {
	p.expect(":", ctx)
	ls := []string{p.name("after ':'")}
	for p.accept(":") {
		ls = append(ls, p.name("after ':'"))
	}
	return ls
}

// atQueryEnd reports whether the next token ends a single query: end of input, ';' or UNION.
func (p *parser) atQueryEnd() bool {
	t := p.tok()
	return t.kind == tEOF || t.isPunct(";") || t.isKw("UNION")
}
