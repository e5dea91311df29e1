package cyphergen

// modelQuery returns q as the reference evaluates it under sem: q itself when sem changes
// nothing that is modelled by rewriting the query, else a rewritten copy.
func modelQuery(q *Query, sem Semantics) *Query {
	if !sem.SimpleCaseNullMatches {
		return q
	}
	c, err := ParseQuery(q.String())
	if err != nil {
		return q
	}
	for _, sq := range c.Parts {
		for _, cl := range sq.Clauses {
			for _, slot := range clauseExprs(cl) {
				*slot = rewrite(*slot, nullMatchingCase)
			}
		}
	}
	return c
}

// nullMatchingCase rewrites a simple CASE into the general form under Neo4j 4.4's matching of a
// null test to a null WHEN value: CASE t WHEN v THEN r ... becomes CASE WHEN t = v OR (t IS NULL
// AND v IS NULL) THEN r ...; nil for other expressions.
func nullMatchingCase(e Expr) Expr {
	c, ok := e.(*Case)
	if !ok || c.Test == nil {
		return nil
	}
	out := &Case{Else: rewrite(c.Else, nullMatchingCase), Whens: make([]When, len(c.Whens))}
	t := rewrite(c.Test, nullMatchingCase)
	for i, w := range c.Whens {
		v := rewrite(w.Cond, nullMatchingCase)
		both := &Binary{Op: "AND", L: &IsNull{X: t}, R: &IsNull{X: v}}
		out.Whens[i] = When{Cond: &Binary{Op: "OR", L: &Binary{Op: "=", L: t, R: v}, R: both},
			Then: rewrite(w.Then, nullMatchingCase)}
	}
	return out
}
