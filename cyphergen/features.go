package cyphergen

import (
	"slices"
	"strings"
)

// Features returns the features q uses, sorted and deduplicated. Feature names are what
// [Profile] and the catalogue of known semantic differences refer to:
//
//	optional-match    OPTIONAL MATCH
//	match-where       WHERE on a MATCH or OPTIONAL MATCH
//	with              WITH
//	with-distinct     WITH DISTINCT
//	with-where        WHERE after WITH
//	unwind            UNWIND
//	union, union-all  UNION, UNION ALL
//	return-distinct   RETURN DISTINCT
//	order-by          ORDER BY (on WITH or RETURN)
//	skip, limit       SKIP, LIMIT
//	aggregate         any aggregate call
//	agg:<name>        each aggregate, lowercase (agg:count, agg:sum, agg:collect, ...)
//	agg-distinct      an aggregate of DISTINCT values
//	fn:<name>         each other function, lowercase (fn:toupper, fn:substring, ...)
//	op:<op>           each binary operator, lowercase (op:and, op:+, op:starts with, op:in, ...);
//	                  op:not for NOT and op:neg for unary minus
//	case              CASE (either form)
//	list              a list literal [...]
//	index             list indexing x[i]
//	label-test        a label predicate n:L in an expression
//	is-null           IS NULL or IS NOT NULL
//	multi-type        a relationship pattern with type alternatives :T1|T2
//	undirected        an undirected relationship pattern (a)-[r]-(b)
//	prop-map          an inline property map in a pattern {k: v}
//	rel-rebound       a relationship variable named by more than one pattern
//	neg-literal-operand  a negative number literal as the operand of IS NULL or left of IN
//	case-simple       the simple form CASE x WHEN v THEN ... (besides "case")
//	rematch-bound     a pattern that is a lone node bound by an earlier clause: MATCH (n0)
//	case-when-ref     a searched CASE whose WHEN condition is a bare variable, a property or a
//	                  CASE (CASE WHEN n.k THEN ..., CASE WHEN CASE ... END THEN ...)
//
// and, for the read constructs of ast_read.go (readFeature):
//
//	var-length        a variable-length relationship -[*1..3]->
//	var-length-var    a variable-length relationship with a variable (bound to a list)
//	named-path        a path variable p = (...)
//	map-literal       a map literal {k: v}
//	map-projection    a map projection n{.k, k: e}; map-projection-all for n{.*};
//	                  map-projection-null-test for n{...} IS [NOT] NULL
//	list-comprehension  [x IN list WHERE p | e]
//	exists-subquery   EXISTS { MATCH ... WHERE ... }
//	count-subquery    COUNT { MATCH ... WHERE ... } (Neo4j 5.3 and later)
//	call-subquery     CALL { [WITH imported] ... RETURN ... }
//
// and, for the writing clauses of ast_write.go:
//
//	create, merge     CREATE, MERGE
//	set, set-map, set-label   SET x.k = v, SET x += {...}, SET x:L
//	remove, remove-label      REMOVE x.k, REMOVE x:L
//	delete, detach-delete     DELETE, DETACH DELETE
//
// One feature belongs to the graph rather than to a query: node-labels ([FeatureNodeLabels]),
// a node with no label or several.
func Features(q *Query) []string {
	set := map[string]bool{}
	scopeFeatures(q, set)
	for i, p := range q.Parts {
		if i > 0 {
			if q.All[i-1] {
				set["union-all"] = true
			} else {
				set["union"] = true
			}
		}
		for _, c := range p.Clauses {
			clauseFeatures(c, set)
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// scopeFeatures adds the features that depend on which variables earlier clauses bound:
// rel-rebound, a relationship variable in scope named again by a pattern, and rematch-bound, a
// pattern that is a lone node in scope. WITH leaves only its projected names in scope.
func scopeFeatures(q *Query, set map[string]bool) {
	for _, p := range q.Parts {
		scope := map[string]bool{}
		for _, c := range p.Clauses {
			switch c := c.(type) {
			case *Match:
				for _, pat := range c.Patterns {
					if len(pat.Nodes) == 1 && scope[pat.Nodes[0].Var] {
						set["rematch-bound"] = true
					}
					for _, r := range pat.Rels {
						if r.Var != "" && scope[r.Var] {
							set["rel-rebound"] = true
						}
						if r.Var != "" {
							scope[r.Var] = true // also for the later patterns of this MATCH
						}
					}
				}
				for _, pat := range c.Patterns {
					for _, n := range pat.Nodes {
						if n.Var != "" {
							scope[n.Var] = true
						}
					}
				}
			case *Unwind:
				scope[c.Var] = true
			case *With:
				scope = map[string]bool{}
				for _, it := range c.Items {
					scope[it.Name()] = true
				}
			case *CallSub:
				for _, n := range c.Columns() {
					scope[n] = true
				}
			}
		}
	}
}

func clauseFeatures(c Clause, set map[string]bool) {
	switch c := c.(type) {
	case *Match:
		if c.Optional {
			set["optional-match"] = true
		}
		for _, p := range c.Patterns {
			patternFeatures(p, set)
		}
		if c.Where != nil {
			set["match-where"] = true
			exprFeatures(c.Where, set)
		}
	case *Unwind:
		set["unwind"] = true
		exprFeatures(c.List, set)
	case *With:
		set["with"] = true
		if c.Distinct {
			set["with-distinct"] = true
		}
		projFeatures(&c.Projection, set)
		if c.Where != nil {
			set["with-where"] = true
			exprFeatures(c.Where, set)
		}
	case *Return:
		if c.Distinct {
			set["return-distinct"] = true
		}
		projFeatures(&c.Projection, set)
	case *CallSub:
		set["call-subquery"] = true
		for _, b := range c.Body.Clauses {
			clauseFeatures(b, set)
		}
	default:
		writeFeatures(c, set)
	}
}

func projFeatures(p *Projection, set map[string]bool) {
	for _, it := range p.Items {
		exprFeatures(it.Expr, set)
	}
	if len(p.Order) > 0 {
		set["order-by"] = true
	}
	for _, s := range p.Order {
		exprFeatures(s.Expr, set)
	}
	if p.Skip != nil {
		set["skip"] = true
	}
	if p.Limit != nil {
		set["limit"] = true
	}
}

func patternFeatures(p Pattern, set map[string]bool) {
	for _, n := range p.Nodes {
		if len(n.Props) > 0 {
			set["prop-map"] = true
		}
		for _, pe := range n.Props {
			exprFeatures(pe.Val, set)
		}
	}
	pathFeatures(p, set)
	for _, r := range p.Rels {
		if len(r.Props) > 0 {
			set["prop-map"] = true
		}
		for _, pe := range r.Props {
			exprFeatures(pe.Val, set)
		}
		if len(r.Types) > 1 {
			set["multi-type"] = true
		}
		if r.Dir == Both {
			set["undirected"] = true
		}
	}
}

// exprFeature returns the feature of one expression node without its operands ("" for none).
func exprFeature(e Expr) string {
	switch e := e.(type) {
	case *Unary:
		if e.Op == "NOT" {
			return "op:not"
		}
		return "op:neg"
	case *IsNull:
		return "is-null"
	case *Binary:
		return "op:" + strings.ToLower(e.Op)
	case *Call:
		name := strings.ToLower(e.Name)
		if Aggregates[name] {
			return "agg:" + name
		}
		return "fn:" + name
	case *Case:
		return "case"
	case *ListExpr:
		return "list"
	case *Index:
		return "index"
	case *HasLabels:
		return "label-test"
	}
	return readFeature(e)
}

func exprFeatures(e Expr, set map[string]bool) {
	if f := exprFeature(e); f != "" {
		set[f] = true
	}
	if c, ok := e.(*Case); ok && c.Test != nil {
		set["case-simple"] = true
	} else if ok && caseWhenRef(c) {
		set["case-when-ref"] = true
	}
	switch e := e.(type) {
	case *Property:
		exprFeatures(e.X, set)
	case *Unary:
		exprFeatures(e.X, set)
	case *IsNull:
		if negLiteral(e.X) {
			set["neg-literal-operand"] = true
		}
		if _, ok := e.X.(*MapProj); ok {
			set["map-projection-null-test"] = true
		}
		exprFeatures(e.X, set)
	case *Binary:
		if e.Op == "IN" && negLiteral(e.L) {
			set["neg-literal-operand"] = true
		}
		exprFeatures(e.L, set)
		exprFeatures(e.R, set)
	case *Call:
		if Aggregates[strings.ToLower(e.Name)] {
			set["aggregate"] = true
			if e.Distinct {
				set["agg-distinct"] = true
			}
		}
		for _, a := range e.Args {
			exprFeatures(a, set)
		}
	case *Case:
		if e.Test != nil {
			exprFeatures(e.Test, set)
		}
		for _, w := range e.Whens {
			exprFeatures(w.Cond, set)
			exprFeatures(w.Then, set)
		}
		if e.Else != nil {
			exprFeatures(e.Else, set)
		}
	case *ListExpr:
		for _, x := range e.Elems {
			exprFeatures(x, set)
		}
	case *Index:
		exprFeatures(e.X, set)
		exprFeatures(e.I, set)
	case *HasLabels:
		exprFeatures(e.X, set)
	default:
		readExprFeatures(e, set)
	}
}

// caseWhenRef reports whether a searched CASE has a WHEN condition that is a bare variable, a
// property or a CASE.
func caseWhenRef(c *Case) bool {
	for _, w := range c.Whens {
		switch w.Cond.(type) {
		case *Var, *Property, *Case:
			return true
		}
	}
	return false
}
