package cyphergen

import "strconv"

// readPatternEdits proposes simpler forms of a pattern's read constructs: no path variable, a
// variable-length relationship as a single one or of its fixed lower length.
func readPatternEdits(at string, p *Pattern, try editFunc) {
	if v := p.Var; v != "" {
		try(at+"drop path variable", func() { p.Var = "" }, func() { p.Var = v })
	}
	for i := range p.Rels {
		r := &p.Rels[i]
		h := r.Hops
		if h == nil {
			continue
		}
		key := at + "rel " + strconv.Itoa(i)
		try(key+" single hop", func() { r.Hops = nil }, func() { r.Hops = h })
		if h.Min != h.Max && h.Min > 0 {
			try(key+" fixed length", func() { r.Hops = &Hops{Min: h.Min, Max: h.Min} }, func() { r.Hops = h })
		}
	}
}

// readExprEdits proposes dropping a list comprehension's WHERE or mapping, a map entry, a map
// projection item, a subquery's WHERE, and the pattern edits inside a subquery.
func readExprEdits(at, text string, e Expr, try editFunc) {
	at += "expr " + text + " "
	switch e := e.(type) {
	case *ListComp:
		if w := e.Where; w != nil {
			try(at+"drop where", func() { e.Where = nil }, func() { e.Where = w })
		}
		if m := e.Map; m != nil {
			try(at+"drop mapping", func() { e.Map = nil }, func() { e.Map = m })
		}
	case *MapLit:
		es := e.Entries
		for i := range es {
			if len(es) > 1 {
				try(at+"drop entry "+strconv.Itoa(i), func() {
					e.Entries = without(es, i)
				}, func() { e.Entries = es })
			}
		}
	case *MapProj:
		its := e.Items
		for i := range its {
			if len(its) > 1 {
				try(at+"drop item "+strconv.Itoa(i), func() {
					e.Items = without(its, i)
				}, func() { e.Items = its })
			}
		}
	case *Subquery:
		if w := e.Match.Where; w != nil {
			try(at+"drop where", func() { e.Match.Where = nil }, func() { e.Match.Where = w })
		}
		for i := range e.Match.Patterns {
			patternEdits(at+"pattern "+strconv.Itoa(i)+" ", &e.Match.Patterns[i], try)
		}
	}
}

// callSubEdits proposes dropping a clause of a CALL subquery's body (not its RETURN), and the
// edits of the body's clauses and expressions.
func callSubEdits(at string, c *CallSub, try editFunc) {
	at += "call "
	body := c.Body
	cs := body.Clauses
	for ci := 0; ci < len(cs)-1; ci++ {
		try(at+"clause "+strconv.Itoa(ci)+" drop: "+clauseText(cs[ci]), func() {
			body.Clauses = without(cs, ci)
		}, func() { body.Clauses = cs })
	}
	for ci, b := range cs {
		bat := at + "clause " + strconv.Itoa(ci) + " "
		clauseEdits(bat, b, try)
		for _, slot := range clauseExprs(b) {
			exprEdits(bat, slot, try)
		}
	}
}
