package localize

import (
	"errors"
	"fmt"
	"strings"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// ParseFacts reads a facts file of program p: facts in the canonical syntax, one or more per
// line (`rel(1, "a").`), comments allowed, symbols in double quotes as in programs (a bare name
// would be a variable). Errors carry the file, line and column.
func ParseFacts(p *datalog.Program, name, src string) ([]datalog.Tuple, error) {
	var decls strings.Builder
	for _, r := range p.Relations {
		decls.WriteString("\n.decl " + r.Name + "(")
		for i, a := range r.Attrs {
			if i > 0 {
				decls.WriteString(", ")
			}
			decls.WriteString(a.Name + ": " + a.Type.String())
		}
		decls.WriteString(")")
	}
	// The declarations follow the facts, so that positions in the file stay right.
	q, err := datalog.Parse(name, src+decls.String())
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "is not bound by a positive atom") {
			msg += " (in a facts file, write symbols in double quotes)"
		}
		if strings.Contains(msg, "is declared twice") {
			msg += " (a facts file holds facts only, no .decl)"
		}
		return nil, fmt.Errorf("%s", msg)
	}
	var out []datalog.Tuple
	for _, r := range q.Rules {
		if !r.IsFact() {
			return nil, fmt.Errorf("%s:%s: a facts file holds facts only, not the rule %s", name, r.Pos, r)
		}
		out = append(out, datalog.Tuple{Rel: r.Head.Rel, Args: r.Head.Args})
	}
	return out, nil
}

// ParseTuple reads one tuple of program p, as on a command line: `alias("a", "b")`, with or
// without the final dot; a bare name in a symbol column is that symbol (`alias(a, b)`).
func ParseTuple(p *datalog.Program, text string) (datalog.Tuple, error) {
	fresh := "localize_query"
	for p.Relation(fresh) != nil {
		fresh += "_"
	}
	src := fresh + "() :- " + strings.TrimSuffix(strings.TrimSpace(text), ".") + ".\n.decl " + fresh + "()"
	for _, r := range p.Relations {
		src += "\n.decl " + r.Name + "("
		for i, a := range r.Attrs {
			if i > 0 {
				src += ", "
			}
			src += a.Name + ": " + a.Type.String()
		}
		src += ")"
	}
	// The tuple is the body of a query rule, so that bare names parse (as variables, read back
	// as symbols); New checks the types against the declarations.
	q, err := datalog.Parse("tuple", src)
	var perr *datalog.Error
	if errors.As(err, &perr) {
		return datalog.Tuple{}, fmt.Errorf("tuple %q: %s", text, perr.Msg)
	}
	if err != nil || len(q.Rules) != 1 || len(q.Rules[0].Body) != 1 || len(q.Rules[0].Constraints) > 0 || q.Rules[0].Body[0].Negated {
		return datalog.Tuple{}, fmt.Errorf("tuple %q: want rel(arg, ...) with numbers and symbols of a relation of %s", text, p.File)
	}
	a := q.Rules[0].Body[0]
	t := datalog.Tuple{Rel: a.Rel}
	for i, x := range a.Args {
		switch x.Kind {
		case datalog.Var:
			x = datalog.S(x.Name)
		case datalog.Anon:
			return datalog.Tuple{}, fmt.Errorf("tuple %q: argument %d is _; give a constant", text, i+1)
		case datalog.Sym:
			x = datalog.S(x.Sym)
		case datalog.Num:
			x = datalog.N(x.Num)
		}
		t.Args = append(t.Args, x)
	}
	return t, nil
}
