package smtgen

import (
	"fmt"
	"strings"
)

// Datatype is an algebraic datatype of declare-datatype or declare-datatypes: its sort
// parameters (par) and its constructors in declaration order. Field sorts of the constructors
// are written in terms of Params; datatype sorts among them carry their [Sort.DT].
type Datatype struct {
	Name   string
	Params []string
	Ctors  []*Constructor
	// base is the index in Ctors of the first constructor that builds a finite value from
	// values of the other sorts without this datatype's recursion (-1 when there is none).
	base int
}

// Constructor is one constructor of a [Datatype]; Fields are its selectors (Name) and their
// sorts (Sort), in order.
type Constructor struct {
	Name   string
	DT     *Datatype
	Fields []Binding
}

// selectorRef locates a selector: its constructor and field index.
type selectorRef struct {
	c *Constructor
	i int
}

// Enumeration reports whether every constructor of d is nullary.
func (d *Datatype) Enumeration() bool {
	for _, c := range d.Ctors {
		if len(c.Fields) > 0 {
			return false
		}
	}
	return true
}

// FieldSort returns the sort of field i of c in the instance s of c's datatype.
func (c *Constructor) FieldSort(i int, s *Sort) *Sort {
	f := c.Fields[i].Sort
	if len(c.DT.Params) == 0 || s == nil || len(s.Args) != len(c.DT.Params) {
		return f
	}
	return substSort(f, c.DT.Params, s.Args)
}

// instance returns the sort of d applied to args.
func (d *Datatype) instance(args []*Sort) *Sort {
	return &Sort{Name: d.Name, Args: args, DT: d}
}

// Constructor returns the constructor named name, or nil.
func (e *Env) Constructor(name string) *Constructor { return e.ctors[name] }

// dtDecl is a datatype declaration as read, before its sorts are resolved.
type dtDecl struct {
	name   string
	params []string
	ctors  []dtCtorDecl
}

type dtCtorDecl struct {
	name   string
	fields []Binding
}

// parseDatatypes reads the text after the command name of declare-datatype or
// declare-datatypes: SMT-LIB 2.6's forms, and z3's older (declare-datatypes (T...) ((N ctor...)...)).
func parseDatatypes(cmd, raw string) ([]dtDecl, error) {
	p := newScriptParser(raw)
	var out []dtDecl
	if cmd == "declare-datatype" {
		name, err := p.name("as the datatype name")
		if err != nil {
			return nil, err
		}
		d := dtDecl{name: name}
		if err := p.dtBody(&d); err != nil {
			return nil, err
		}
		return []dtDecl{d}, p.expectEOF()
	}
	if err := p.expect(tLParen, "to open the datatype names"); err != nil {
		return nil, err
	}
	tok, err := p.peek()
	if err != nil {
		return nil, err
	}
	if tok.kind != tLParen {
		// z3's old form: (T...) ((N ctor...)...), the parameters shared by all.
		var params []string
		for {
			tok, err := p.next()
			if err != nil {
				return nil, err
			}
			if tok.kind == tRParen {
				break
			}
			if !tok.isName() {
				return nil, p.unexpected(tok, "a sort parameter", "in declare-datatypes")
			}
			params = append(params, tok.text)
		}
		err := p.list("to open the datatypes", func() error {
			if err := p.expect(tLParen, "to open a datatype"); err != nil {
				return err
			}
			name, err := p.name("as the datatype name")
			if err != nil {
				return err
			}
			d := dtDecl{name: name, params: params}
			for {
				tok, err := p.peek()
				if err != nil {
					return err
				}
				if tok.kind == tRParen {
					p.next()
					break
				}
				c, err := p.dtCtor()
				if err != nil {
					return err
				}
				d.ctors = append(d.ctors, c)
			}
			out = append(out, d)
			return nil
		})
		if err != nil {
			return nil, err
		}
		// In this form a datatype of the group names itself without its parameters.
		ps := make([]*Sort, len(params))
		for i, n := range params {
			ps[i] = &Sort{Name: n}
		}
		for _, d := range out {
			for _, c := range d.ctors {
				for i, f := range c.fields {
					c.fields[i].Sort = applyOldParams(f.Sort, out, ps)
				}
			}
		}
		return out, p.expectEOF()
	}
	var arities []int
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		if tok.kind == tRParen {
			break
		}
		if tok.kind != tLParen {
			return nil, p.unexpected(tok, "'('", "to open a datatype name and arity")
		}
		name, err := p.name("as the datatype name")
		if err != nil {
			return nil, err
		}
		k, err := p.optNumeral(-1)
		if err != nil {
			return nil, err
		}
		if k < 0 {
			return nil, p.errAt(tok.pos, "datatype "+quoteSymbol(name)+" without an arity")
		}
		out = append(out, dtDecl{name: name})
		arities = append(arities, k)
		if err := p.expect(tRParen, "after the arity"); err != nil {
			return nil, err
		}
	}
	i := 0
	err = p.list("to open the datatype declarations", func() error {
		if i >= len(out) {
			return fmt.Errorf("declare-datatypes: more declarations than names")
		}
		if err := p.dtBody(&out[i]); err != nil {
			return err
		}
		if len(out[i].params) != arities[i] {
			return fmt.Errorf("declare-datatypes: %s has arity %d but %d parameters", out[i].name, arities[i], len(out[i].params))
		}
		i++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if i != len(out) {
		return nil, fmt.Errorf("declare-datatypes: %d names but %d declarations", len(out), i)
	}
	return out, p.expectEOF()
}

// applyOldParams replaces each bare name of a datatype of group in s by its instance with the
// sort parameters ps.
func applyOldParams(s *Sort, group []dtDecl, ps []*Sort) *Sort {
	if len(ps) == 0 {
		return s
	}
	if len(s.Args) == 0 && len(s.Index) == 0 {
		for _, d := range group {
			if d.name == s.Name {
				return &Sort{Name: s.Name, Args: ps}
			}
		}
		return s
	}
	out := &Sort{Name: s.Name, Index: s.Index}
	for _, a := range s.Args {
		out.Args = append(out.Args, applyOldParams(a, group, ps))
	}
	return out
}

// dtBody reads a datatype_dec: (ctor...) or (par (T...) (ctor...)).
func (p *scriptParser) dtBody(d *dtDecl) error {
	if err := p.expect(tLParen, "to open the constructors"); err != nil {
		return err
	}
	tok, err := p.peek()
	if err != nil {
		return err
	}
	if tok.isSym("par") {
		p.next()
		if err := p.list("to open the sort parameters", func() error {
			n, err := p.name("as a sort parameter")
			d.params = append(d.params, n)
			return err
		}); err != nil {
			return err
		}
		if err := p.list("to open the constructors", func() error {
			c, err := p.dtCtor()
			d.ctors = append(d.ctors, c)
			return err
		}); err != nil {
			return err
		}
		return p.expect(tRParen, "to close par")
	}
	for {
		tok, err := p.peek()
		if err != nil {
			return err
		}
		if tok.kind == tRParen {
			p.next()
			return nil
		}
		c, err := p.dtCtor()
		if err != nil {
			return err
		}
		d.ctors = append(d.ctors, c)
	}
}

// dtCtor reads a constructor: (C (sel S)...) or, as z3 allows, a bare symbol C.
func (p *scriptParser) dtCtor() (dtCtorDecl, error) {
	tok, err := p.next()
	if err != nil {
		return dtCtorDecl{}, err
	}
	if tok.isName() {
		return dtCtorDecl{name: tok.text}, nil
	}
	if tok.kind != tLParen {
		return dtCtorDecl{}, p.unexpected(tok, "a constructor", "in a datatype")
	}
	name, err := p.name("as the constructor name")
	if err != nil {
		return dtCtorDecl{}, err
	}
	c := dtCtorDecl{name: name}
	for {
		tok, err := p.next()
		if err != nil {
			return c, err
		}
		if tok.kind == tRParen {
			return c, nil
		}
		if tok.kind != tLParen {
			return c, p.unexpected(tok, "'('", "to open a selector")
		}
		b, err := p.sortedVar()
		if err != nil {
			return c, err
		}
		c.fields = append(c.fields, b)
	}
}

// declareDatatypes checks a declare-datatype(s) command and records its datatypes,
// constructors and selectors.
func (e *Env) declareDatatypes(c *Command) error {
	decls, err := parseDatatypes(c.Name, c.Raw)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	if e.Datatypes == nil {
		e.Datatypes = map[string]*Datatype{}
		e.ctors = map[string]*Constructor{}
		e.selectors = map[string]selectorRef{}
	}
	dts := make([]*Datatype, len(decls))
	for i, d := range decls {
		_, sort := e.Sorts[d.name]
		if _, ok := e.Datatypes[d.name]; ok || sort || e.Aliases[d.name] != nil {
			return &UnsupportedError{"redeclaration", "datatype " + d.name}
		}
		dts[i] = &Datatype{Name: d.name, Params: d.params, base: -1}
		e.Datatypes[d.name] = dts[i]
	}
	seen := map[string]bool{}
	for i, d := range decls {
		for _, cd := range d.ctors {
			k := &Constructor{Name: cd.name, DT: dts[i]}
			names := append([]string{cd.name}, "is-"+cd.name)
			for _, f := range cd.fields {
				s, err := e.resolveSort(f.Sort, d.params)
				if err != nil {
					return fmt.Errorf("%s %s: %w", c.Name, d.name, err)
				}
				k.Fields = append(k.Fields, Binding{Name: f.Name, Sort: s})
				names = append(names, f.Name)
			}
			for j, n := range names {
				if j == 1 {
					continue // is-C may be declared: the tester is then only (_ is C)
				}
				if seen[n] || e.ctors[n] != nil || e.Decls[n] != nil || e.Defs[n] != nil || chkBuiltin(n) {
					return &UnsupportedError{"redeclaration", n + " in " + c.Name}
				}
				if _, ok := e.selectors[n]; ok {
					return &UnsupportedError{"redeclaration", n + " in " + c.Name}
				}
				seen[n] = true
			}
			dts[i].Ctors = append(dts[i].Ctors, k)
			e.ctors[k.Name] = k
			for j, f := range k.Fields {
				e.selectors[f.Name] = selectorRef{k, j}
			}
		}
		if len(dts[i].Ctors) == 0 {
			return fmt.Errorf("%s: datatype %s without constructors", c.Name, d.name)
		}
	}
	// Well-foundedness: every datatype needs a constructor whose fields can all be built.
	for changed := true; changed; {
		changed = false
		for _, d := range dts {
			if d.base >= 0 {
				continue
			}
			for j, k := range d.Ctors {
				ok := true
				for _, f := range k.Fields {
					if f.Sort.DT != nil && f.Sort.DT.base < 0 {
						ok = false
					}
				}
				if ok {
					d.base, changed = j, true
					break
				}
			}
		}
	}
	for _, d := range dts {
		if d.base < 0 {
			return fmt.Errorf("%s: datatype %s has no finite values (not well-founded)", c.Name, d.Name)
		}
	}
	return nil
}

// defineRec checks define-fun-rec and define-funs-rec: every function is recorded before the
// bodies are checked, so that they may call each other.
func (e *Env) defineRec(c *Command) error {
	type fun struct {
		name   string
		params []Binding
		ret    *Sort
		body   *Term
	}
	var funs []fun
	switch {
	case c.Name == "define-fun-rec" && c.Raw == "" && len(c.Terms) == 1:
		funs = []fun{{c.Symbol, c.Params, c.Sort, c.Terms[0]}}
	case c.Name == "define-funs-rec" && c.Raw != "":
		p := newScriptParser(c.Raw)
		err := p.list("to open the function declarations", func() error {
			if err := p.expect(tLParen, "to open a function declaration"); err != nil {
				return err
			}
			var f fun
			var err error
			if f.name, err = p.name("as the function name"); err != nil {
				return err
			}
			if err := p.list("to open the parameters of "+f.name, func() error {
				if err := p.expect(tLParen, "to open a parameter"); err != nil {
					return err
				}
				b, err := p.sortedVar()
				f.params = append(f.params, b)
				return err
			}); err != nil {
				return err
			}
			if f.ret, err = p.sort(); err != nil {
				return err
			}
			funs = append(funs, f)
			return p.expect(tRParen, "to close a function declaration")
		})
		if err != nil {
			return fmt.Errorf("define-funs-rec: %w", p.public(err))
		}
		i := 0
		err = p.list("to open the bodies", func() error {
			t, err := p.term()
			if err != nil {
				return err
			}
			if i < len(funs) {
				funs[i].body = t
			}
			i++
			return nil
		})
		if err != nil {
			return fmt.Errorf("define-funs-rec: %w", p.public(err))
		}
		if i != len(funs) {
			return fmt.Errorf("define-funs-rec: %d functions but %d bodies", len(funs), i)
		}
		if err := p.expectEOF(); err != nil {
			return fmt.Errorf("define-funs-rec: %w", err)
		}
	default:
		return &UnsupportedError{"unsupported-syntax", c.Name + " " + c.Symbol}
	}
	defs := make([]*Def, len(funs))
	scopes := make([]*chkScope, len(funs))
	for i, f := range funs {
		d := &Def{Name: f.name, Rec: true}
		var err error
		if d.Ret, err = e.resolveSort(f.ret, nil); err != nil {
			return fmt.Errorf("%s %s: %w", c.Name, f.name, err)
		}
		for _, p := range f.params {
			s, err := e.resolveSort(p.Sort, nil)
			if err != nil {
				return fmt.Errorf("%s %s: %w", c.Name, f.name, err)
			}
			d.Params = append(d.Params, Binding{Name: p.Name, Sort: s})
			scopes[i] = &chkScope{name: p.Name, sort: s, up: scopes[i]}
		}
		if err := e.define(d); err != nil {
			return err
		}
		defs[i] = d
	}
	for i, f := range funs {
		if err := e.check(f.body, scopes[i]); err != nil {
			return err
		}
		body, err := coerce(f.body, defs[i].Ret)
		if err != nil {
			return fmt.Errorf("%s %s: %w", c.Name, f.name, err)
		}
		defs[i].Body = body
		if c.Name == "define-fun-rec" {
			c.Terms[0] = body
		}
	}
	return nil
}

// dtAppSort computes the sort of a constructor, tester or selector application; ok is false
// when t is none of them.
func (e *Env) dtAppSort(t *Term) (s *Sort, ok bool, err error) {
	if len(e.ctors) == 0 || len(t.Index) > 0 {
		return nil, false, nil
	}
	n := len(t.Args)
	bad := func(format string, a ...any) error {
		return fmt.Errorf("sort error in %s: %s", briefTerm(t), fmt.Sprintf(format, a...))
	}
	if c := e.testerOf(t); c != nil {
		if n != 1 || t.Args[0].Sort.DT != c.DT {
			return nil, true, bad("the tester of %s takes one %s", c.Name, c.DT.Name)
		}
		return BoolSort, true, nil
	}
	if t.Name == "is" && t.Lit != "" {
		return nil, true, bad("%s is not a constructor", t.Lit)
	}
	if c := e.ctors[t.Name]; c != nil && e.Decls[t.Name] == nil && e.Defs[t.Name] == nil {
		if n != len(c.Fields) {
			return nil, true, bad("%s takes %d arguments", c.Name, len(c.Fields))
		}
		var inst []*Sort
		switch {
		case t.As != nil:
			want, err := e.resolveSort(t.As, nil)
			if err != nil {
				return nil, true, err
			}
			if want.DT != c.DT {
				return nil, true, bad("%s does not build a %s", c.Name, want)
			}
			inst = want.Args
		case len(c.DT.Params) > 0:
			bind := map[string]*Sort{}
			for i, f := range c.Fields {
				unifySort(f.Sort, c.DT.Params, t.Args[i].Sort, bind)
			}
			for _, p := range c.DT.Params {
				if bind[p] == nil {
					return nil, true, bad("the sort of %s is ambiguous: write (as %s S)", c.Name, c.Name)
				}
				inst = append(inst, bind[p])
			}
		}
		res := c.DT.instance(inst)
		for i, a := range t.Args {
			x, err := coerce(a, c.FieldSort(i, res))
			if err != nil {
				return nil, true, bad("argument %d: %v", i+1, err)
			}
			t.Args[i] = x
		}
		return res, true, nil
	}
	if r, found := e.selectors[t.Name]; found && e.Decls[t.Name] == nil && e.Defs[t.Name] == nil && t.As == nil {
		if n != 1 || t.Args[0].Sort.DT != r.c.DT {
			return nil, true, bad("selector %s takes one %s", t.Name, r.c.DT.Name)
		}
		return r.c.FieldSort(r.i, t.Args[0].Sort), true, nil
	}
	return nil, false, nil
}

// testerOf returns the constructor that the tester t tests ((_ is C), or z3's is-C when no
// function of that name is declared), or nil.
func (e *Env) testerOf(t *Term) *Constructor {
	if t.Kind != KindApp || len(t.Index) > 0 {
		return nil
	}
	if t.Name == "is" && t.Lit != "" {
		return e.ctors[t.Lit]
	}
	if strings.HasPrefix(t.Name, "is-") && e.Decls[t.Name] == nil && e.Defs[t.Name] == nil {
		return e.ctors[t.Name[3:]]
	}
	return nil
}

// unifySort binds the parameters params in pattern to the matching parts of actual.
func unifySort(pattern *Sort, params []string, actual *Sort, bind map[string]*Sort) {
	if actual == nil {
		return
	}
	if len(pattern.Index) == 0 && len(pattern.Args) == 0 {
		for _, p := range params {
			if p == pattern.Name {
				if bind[p] == nil {
					bind[p] = actual
				}
				return
			}
		}
	}
	if pattern.Name != actual.Name || len(pattern.Args) != len(actual.Args) {
		return
	}
	for i := range pattern.Args {
		unifySort(pattern.Args[i], params, actual.Args[i], bind)
	}
}

// checkMatch sort-checks a match term: the matched term is a datatype, each pattern a
// constructor of it (applied to fresh variables) or a variable, every body of one sort.
func (e *Env) checkMatch(t *Term, sc *chkScope) error {
	if len(t.Args) < 2 || len(t.Args) != len(t.Binds)+1 {
		return fmt.Errorf("ill-formed match %s", briefTerm(t))
	}
	if err := e.check(t.Args[0], sc); err != nil {
		return err
	}
	s := t.Args[0].Sort
	if s.DT == nil {
		return fmt.Errorf("match on %s of sort %s, not a datatype", briefTerm(t.Args[0]), s)
	}
	for i, b := range t.Binds {
		pat := b.Term
		inner := sc
		c := e.ctors[pat.Name]
		switch {
		case c != nil && c.DT == s.DT && len(pat.Args) == len(c.Fields):
			for j, v := range pat.Args {
				v.Sort = c.FieldSort(j, s)
				inner = &chkScope{name: v.Name, sort: v.Sort, up: inner}
			}
		case len(pat.Args) == 0:
			inner = &chkScope{name: pat.Name, sort: s, up: inner}
		default:
			return fmt.Errorf("sort error in %s: pattern %s is not a constructor of %s", briefTerm(t), pat, s)
		}
		pat.Sort = s
		if err := e.check(t.Args[i+1], inner); err != nil {
			return err
		}
	}
	r := chkPromote(&Term{Args: t.Args[1:]})
	if r == nil {
		return fmt.Errorf("sort error in %s: cases of different sorts", briefTerm(t))
	}
	t.Sort = r
	return nil
}

// tester reads the rest of (_ is C) after "(_".
func (p *scriptParser) tester() (*Term, error) {
	p.next() // is
	c, err := p.name("as the constructor of a tester")
	if err != nil {
		return nil, err
	}
	return p.newTerm(Term{Kind: KindApp, Name: "is", Lit: c}), p.expect(tRParen, "to close (_ is C)")
}

// matchStep hands done (the matched term, or the body of a case) to the match frame f and reads
// the next pattern; it returns the match term when its last case is read, else nil.
func (p *scriptParser) matchStep(f *parseFrame, done *Term) (*Term, error) {
	if f.kind == frMatchTerm {
		f.t.Args = []*Term{done}
		if err := p.expect(tLParen, "to open the cases of match"); err != nil {
			return nil, err
		}
		f.kind = frMatchCase
		return nil, p.matchCase(f.t)
	}
	f.t.Args = append(f.t.Args, done)
	if err := p.expect(tRParen, "to close a match case"); err != nil {
		return nil, err
	}
	tok, err := p.peek()
	if err != nil {
		return nil, err
	}
	if tok.kind == tRParen {
		p.next()
		return f.t, p.expect(tRParen, "to close match")
	}
	return nil, p.matchCase(f.t)
}

// matchCase reads "(" and the pattern of a match case. A nullary constructor in parentheses,
// (C), as cvc5 accepts, reads as C.
func (p *scriptParser) matchCase(m *Term) error {
	if err := p.expect(tLParen, "to open a match case"); err != nil {
		return err
	}
	tok, err := p.next()
	if err != nil {
		return err
	}
	if tok.isName() {
		m.Binds = append(m.Binds, Binding{Term: p.newTerm(Term{Kind: KindApp, Name: tok.text})})
		return nil
	}
	if tok.kind != tLParen {
		return p.unexpected(tok, "a pattern", "in a match case")
	}
	c, err := p.name("as the constructor of a pattern")
	if err != nil {
		return err
	}
	pat := p.newTerm(Term{Kind: KindApp, Name: c})
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.kind == tRParen {
			break
		}
		if !tok.isName() {
			return p.unexpected(tok, "a variable", "in a pattern")
		}
		pat.Args = append(pat.Args, p.newTerm(Term{Kind: KindApp, Name: tok.text}))
	}
	m.Binds = append(m.Binds, Binding{Term: pat})
	return nil
}

// writePattern writes a match pattern: C, x or (C x...).
func writePattern(b *strings.Builder, t *Term) {
	if t == nil {
		b.WriteString("<nil pattern>")
		return
	}
	if len(t.Args) == 0 {
		writeSymbol(b, t.Name)
		return
	}
	b.WriteByte('(')
	writeSymbol(b, t.Name)
	for _, a := range t.Args {
		b.WriteByte(' ')
		writeSymbol(b, a.Name)
	}
	b.WriteByte(')')
}
