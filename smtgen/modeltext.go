package smtgen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// partialFuncs names the tables that interpret SMT-LIB's unspecified operations, with the
// operation each stands for.
var partialFuncs = map[string]string{"div0": "div", "mod0": "mod", "/0": "/"}

// ModelText prints m as SMT-LIB define-funs that a person can paste into a solver: one per declared
// constant, one per uninterpreted function as an ite chain over its table, and the tables of the
// unspecified operations as functions named div0, mod0 and /0 (the value of (div x 0) is (div0 x)).
// A table without a default is completed with its first value (or its sort's zero), which keeps
// every decided value (evaluation is monotone in definedness), so the printed model is total.
// [ParseModelText] reads it back.
func ModelText(m *Model, env *Env) string {
	var b strings.Builder
	for _, name := range env.Order {
		d := env.Decls[name]
		if d == nil {
			continue
		}
		if len(d.ArgSorts) == 0 {
			v := m.Consts[name]
			if v == nil {
				v = ZeroValue(d.Ret)
			}
			fmt.Fprintf(&b, "(define-fun %s () %s %s)\n", quoteSymbol(name), d.Ret, v)
			continue
		}
		writeTable(&b, name, d.ArgSorts, d.Ret, m.Funcs[name])
	}
	var partial []string
	for name := range m.Funcs {
		if _, ok := partialFuncs[name]; ok {
			partial = append(partial, name)
		}
	}
	sort.Strings(partial)
	if len(partial) > 0 {
		b.WriteString("; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model\n")
	}
	for _, name := range partial {
		t := m.Funcs[name]
		s := IntSort
		if name == "/0" {
			s = RealSort
		}
		writeTable(&b, name, []*Sort{s}, s, t)
	}
	return b.String()
}

// writeTable prints one function table as a define-fun over parameters x!0, x!1, ...
func writeTable(b *strings.Builder, name string, args []*Sort, ret *Sort, t *FuncTable) {
	fmt.Fprintf(b, "(define-fun %s (", quoteSymbol(name))
	for i, s := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(b, "(x!%d %s)", i, s)
	}
	fmt.Fprintf(b, ") %s ", ret)
	var def Value
	var entries []Entry
	if t != nil {
		def, entries = t.Default, t.Entries
	}
	if def == nil && len(entries) > 0 {
		def = entries[0].Val
	}
	if def == nil {
		def = ZeroValue(ret)
	}
	for _, e := range entries {
		b.WriteString("(ite ")
		if len(e.Args) > 1 {
			b.WriteString("(and")
		}
		for i, a := range e.Args {
			if len(e.Args) > 1 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(b, "(= x!%d %s)", i, a)
		}
		if len(e.Args) > 1 {
			b.WriteByte(')')
		}
		fmt.Fprintf(b, " %s ", e.Val)
	}
	b.WriteString(def.String())
	b.WriteString(strings.Repeat(")", len(entries)))
	b.WriteString(")\n")
}

// ParseModelText reads a model printed by [ModelText] for the declarations of env.
func ParseModelText(text string, env *Env) (*Model, error) {
	sc, err := ParseScript(text)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	m := &Model{Consts: map[string]Value{}, Funcs: map[string]*FuncTable{}, Env: env}
	for _, c := range sc.Commands {
		if c.Name != "define-fun" || len(c.Terms) != 1 {
			return nil, fmt.Errorf("model: unexpected command %s", c.Name)
		}
		ret, err := resolveIn(env, c.Sort)
		if err != nil {
			return nil, fmt.Errorf("model: %s: %w", c.Symbol, err)
		}
		if len(c.Params) == 0 {
			v, err := m.ParseValue(c.Terms[0], ret)
			if err != nil {
				return nil, fmt.Errorf("model: %s: %w", c.Symbol, err)
			}
			m.Consts[c.Symbol] = v
			continue
		}
		t := &FuncTable{}
		body := c.Terms[0]
		for body.Kind == KindApp && body.Name == "ite" && len(body.Args) == 3 {
			conds := []*Term{body.Args[0]}
			if conds[0].Name == "and" {
				conds = conds[0].Args
			}
			if len(conds) != len(c.Params) {
				return nil, fmt.Errorf("model: %s: entry with %d conditions for %d parameters", c.Symbol, len(conds), len(c.Params))
			}
			e := Entry{Args: make([]Value, len(conds))}
			for i, cond := range conds {
				if cond.Name != "=" || len(cond.Args) != 2 || cond.Args[0].Name != "x!"+strconv.Itoa(i) {
					return nil, fmt.Errorf("model: %s: bad entry condition %s", c.Symbol, cond)
				}
				ps, err := resolveIn(env, c.Params[i].Sort)
				if err != nil {
					return nil, fmt.Errorf("model: %s: %w", c.Symbol, err)
				}
				if e.Args[i], err = m.ParseValue(cond.Args[1], ps); err != nil {
					return nil, fmt.Errorf("model: %s: %w", c.Symbol, err)
				}
			}
			if e.Val, err = m.ParseValue(body.Args[1], ret); err != nil {
				return nil, fmt.Errorf("model: %s: %w", c.Symbol, err)
			}
			t.Entries = append(t.Entries, e)
			body = body.Args[2]
		}
		if t.Default, err = m.ParseValue(body, ret); err != nil {
			return nil, fmt.Errorf("model: %s: %w", c.Symbol, err)
		}
		m.Funcs[c.Symbol] = t
	}
	return m, nil
}

// resolveIn resolves s against env's sort declarations (datatypes, aliases), when there is an env.
func resolveIn(env *Env, s *Sort) (*Sort, error) {
	if env == nil || s == nil {
		return s, nil
	}
	return env.ResolveSort(s)
}
