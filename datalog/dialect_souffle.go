package datalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Souffle is the dialect of the Soufflé Datalog engine, whose language the canonical form is a
// subset of. The translation is an archive that the souffle target unpacks (see its package
// doc): a "-- prog.dl --" line and the program, then for every .input relation a
// "-- NAME.facts --" line and the relation's facts, one per line, values separated by tabs.
// Facts of other relations stay in the program, as do facts with a symbol that ends in a
// carriage return, which Soufflé's fact reader would drop, and facts whose line would start
// with "-- ", the archive's header prefix. Soufflé answers with NAME.csv files in the same
// tab-separated form.
//
// What Soufflé cannot express is *Unsupported: numbers outside -2147483647..2147483647
// ("number-range": Soufflé's number is 32-bit, and -2147483648 is written as the negation of
// a literal that does not fit), order comparisons of symbols ("symbol-order": Soufflé orders
// symbols by their ordinal, not by bytes), symbols with a tab ("symbol-tab": the files are
// tab-separated) or a NUL byte ("symbol-nul": Soufflé's scanner ends a string literal there),
// and relation names that are Soufflé keywords ("relation-name"). Variables and attributes
// named after keywords are renamed.
type Souffle struct{}

// Name returns "souffle".
func (Souffle) Name() string { return "souffle" }

// souffleKeywords are the words Soufflé's scanner reads as keywords, not identifiers.
var souffleKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`autoinc band bor bxor bnot bshl bshr bshru land lor lxor lnot
		match mean cat ord fold range strlen substr stateful contains output input overridable
		printsize eqrel inline no_inline magic no_magic brie btree_delete btree min max as nil count
		sum true false to_float to_number to_string to_unsigned __ITERATION__ __FILE__ __LINE__
		__INCL__`) {
		souffleKeywords[k] = true
	}
}

// Translate returns p as a Soufflé archive and the decoder of Soufflé's printed values.
func (Souffle) Translate(p *Program) (*Translation, error) {
	prog, facts, err := souffleFiles(p)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("-- prog.dl --\n" + prog)
	for _, f := range facts {
		b.WriteString("-- " + f.rel + ".facts --\n" + f.text)
	}
	return &Translation{Text: b.String(), Decode: decodeSouffle}, nil
}

// Script returns p as base.dl and the fact files base-facts/REL.facts, and the souffle command
// line that runs them and prints the output files.
func (Souffle) Script(p *Program, base string) (map[string]string, string, error) {
	prog, facts, err := souffleFiles(p)
	if err != nil {
		return nil, "", err
	}
	files := map[string]string{base + ".dl": prog}
	for _, f := range facts {
		files[base+"-facts/"+f.rel+".facts"] = f.text
	}
	return files, "mkdir -p " + base + "-facts " + base + "-out && souffle -w -F " + base + "-facts -D " + base + "-out " +
		base + ".dl && tail -n +1 " + base + "-out/*.csv", nil
}

// souffleFacts is the fact file of an input relation.
type souffleFacts struct{ rel, text string }

// souffleFiles returns Soufflé's program for p and the fact files of its input relations.
func souffleFiles(p *Program) (string, []souffleFacts, error) {
	unsupported := func(feature, format string, args ...any) error {
		return &Unsupported{Engine: "souffle", Feature: feature, Detail: fmt.Sprintf(format, args...)}
	}
	for _, r := range p.Relations {
		if souffleKeywords[r.Name] {
			return "", nil, unsupported("relation-name", "relation %s is a Soufflé keyword", r.Name)
		}
	}
	checkTerm := func(t Term) error {
		switch {
		case t.Kind == Num && (t.Num < -math.MaxInt32 || t.Num > math.MaxInt32):
			return unsupported("number-range", "%d is outside Soufflé's 32-bit numbers", t.Num)
		case t.Kind == Sym && strings.Contains(t.Sym, "\t"):
			return unsupported("symbol-tab", "symbol %s has a tab, which separates values in Soufflé's files", quote(t.Sym))
		case t.Kind == Sym && strings.Contains(t.Sym, "\x00"):
			return unsupported("symbol-nul", "symbol %s has a NUL byte, where Soufflé's scanner ends a string", quote(t.Sym))
		}
		return nil
	}
	for _, r := range p.Rules {
		for _, a := range append([]Atom{r.Head}, r.Body...) {
			for _, t := range a.Args {
				if err := checkTerm(t); err != nil {
					return "", nil, err
				}
			}
		}
		for _, c := range r.Constraints {
			for _, t := range []Term{c.Left, c.Right} {
				if err := checkTerm(t); err != nil {
					return "", nil, err
				}
			}
			if c.Op != Eq && c.Op != Ne && (c.Left.Kind == Sym || c.Right.Kind == Sym || p.symbolVar(r, c.Left)) {
				return "", nil, unsupported("symbol-order", "%s compares symbols by order", constraintString(c))
			}
		}
	}

	var prog strings.Builder
	facts := map[string]*strings.Builder{}
	for _, r := range p.Relations {
		prog.WriteString(".decl " + r.Name + "(")
		used := map[string]bool{}
		for _, a := range r.Attrs {
			used[a.Name] = true
		}
		for i, a := range r.Attrs {
			if i > 0 {
				prog.WriteString(", ")
			}
			prog.WriteString(unkeyword(a.Name, used) + ": " + a.Type.String())
		}
		prog.WriteString(")\n")
		if r.Input {
			facts[r.Name] = &strings.Builder{}
		}
	}
	for _, r := range p.Relations {
		if r.Input {
			prog.WriteString(".input " + r.Name + "\n")
		}
	}
	for _, r := range p.Relations {
		if r.Output {
			prog.WriteString(".output " + r.Name + "\n")
		}
	}
	for _, r := range p.Rules {
		if f := facts[r.Head.Rel]; f != nil && r.IsFact() && factLine(f, r.Head) {
			continue
		}
		prog.WriteString(renameKeywordVars(r).String() + "\n")
	}
	var files []souffleFacts
	for _, r := range p.Relations {
		if r.Input {
			files = append(files, souffleFacts{r.Name, facts[r.Name].String()})
		}
	}
	return prog.String(), files, nil
}

// symbolVar reports whether t is a variable of symbol type in r.
func (p *Program) symbolVar(r Rule, t Term) bool {
	if t.Kind != Var {
		return false
	}
	for _, a := range r.Body {
		rel := p.Relation(a.Rel)
		for i, u := range a.Args {
			if u.Kind == Var && u.Name == t.Name && rel != nil && i < len(rel.Attrs) {
				return rel.Attrs[i].Type == Symbol
			}
		}
	}
	return false
}

// factLine writes the fact a to f as a line of tab-separated values, unless a symbol ends with a
// carriage return (which Soufflé strips from a line) or the line would start with "-- " (and
// could read as a file's header); it reports whether it did.
func factLine(f *strings.Builder, a Atom) bool {
	vals := make([]string, len(a.Args))
	for i, t := range a.Args {
		if t.Kind == Sym {
			if strings.HasSuffix(t.Sym, "\r") {
				return false
			}
			vals[i] = t.Sym
		} else {
			vals[i] = strconv.FormatInt(t.Num, 10)
		}
	}
	line := strings.Join(vals, "\t")
	if strings.HasPrefix(line, "-- ") {
		return false
	}
	f.WriteString(line + "\n")
	return true
}

// unkeyword returns name, or when it is a Soufflé keyword a new name not in used (which it
// adds to used).
func unkeyword(name string, used map[string]bool) string {
	if !souffleKeywords[name] {
		return name
	}
	for i := 0; ; i++ {
		n := name + "_" + strconv.Itoa(i)
		if !used[n] {
			used[n] = true
			return n
		}
	}
}

// renameKeywordVars returns r with the variables named after Soufflé keywords renamed.
func renameKeywordVars(r Rule) Rule {
	used := map[string]bool{}
	var kw bool
	visit := func(f func(*Term)) {
		for _, a := range append([]*Atom{&r.Head}, ptrs(r.Body)...) {
			for i := range a.Args {
				f(&a.Args[i])
			}
		}
		for i := range r.Constraints {
			f(&r.Constraints[i].Left)
			f(&r.Constraints[i].Right)
		}
	}
	visit(func(t *Term) {
		if t.Kind == Var {
			used[t.Name] = true
			kw = kw || souffleKeywords[t.Name]
		}
	})
	if !kw {
		return r
	}
	// Copy what is renamed, so that r's caller keeps its program.
	r.Head.Args = append([]Term(nil), r.Head.Args...)
	body := make([]Atom, len(r.Body))
	for i, a := range r.Body {
		a.Args = append([]Term(nil), a.Args...)
		body[i] = a
	}
	r.Body = body
	r.Constraints = append([]Constraint(nil), r.Constraints...)
	names := map[string]string{}
	visit(func(t *Term) {
		if t.Kind == Var && souffleKeywords[t.Name] {
			if names[t.Name] == "" {
				names[t.Name] = unkeyword(t.Name, used)
			}
			t.Name = names[t.Name]
		}
	})
	return r
}

func ptrs(as []Atom) []*Atom {
	out := make([]*Atom, len(as))
	for i := range as {
		out[i] = &as[i]
	}
	return out
}

// decodeSouffle maps a value Soufflé printed to its canonical form.
func decodeSouffle(t Type, raw string) (string, error) {
	if t == Symbol {
		return Canonical(S(raw)), nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return "", fmt.Errorf("%q is not a number", raw)
	}
	return Canonical(N(n)), nil
}
