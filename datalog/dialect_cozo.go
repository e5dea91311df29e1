package datalog

import (
	"math"
	"strconv"
	"strings"
)

// Cozo is the dialect of CozoDB's CozoScript (targets/cozo). A program becomes one query whose
// inline rules are the program's rules and whose entry rule ? returns every output tuple:
//
//   - relation r is the rule r_r, variable x is the variable v_x, _ stays _ (CozoScript makes
//     every _ a fresh variable, also inside a negation, so not r_r[v_x, _] holds when no tuple
//     has x first);
//   - a rule's body lists its positive atoms, then its negations (not), then its constraints
//     (= is ==; !=, <, <=, >, >= stay); a constant in the head is a fresh variable h<i> that the
//     body unifies with it (h0 = 1), since heads hold variables only; CozoScript evaluates the
//     rules semi-naively with stratified negation and set semantics;
//   - a relation with facts only is a constant rule r_r[c0, ...] <- [[1, 'a'], ...] (an empty
//     list for a relation without clauses); the facts of a relation with rules too are the
//     constant rule f_r, which one more rule copies into r_r, because a constant rule cannot
//     share its name with other rules;
//   - a relation of arity 0 has one column, holding 0 in every tuple, because CozoScript has no
//     empty heads or rows;
//   - numbers are CozoScript's 64-bit integers, compared exactly; -2^63, whose literal does not
//     parse, is written (-9223372036854775807 - 1). Symbols are single-quoted strings whose
//     characters are the symbol's bytes (0-255), written \u00XX unless printable ASCII, so that
//     CozoScript's string order, by UTF-8 bytes and so by characters, is the symbols' byte
//     order. Not double-quoted or raw strings: cozo 0.7.6 parses a double-quoted string as a raw
//     one, and drops the leading and trailing white space of both ("\n" is backslash n, " a "
//     and _" a "_ are "a"), against its documentation (Types, Literals);
//   - ?[c0, c1, ..., cN] holds ("r", X1, ..., Xk, null, ...) for every tuple of every output
//     relation r, N being the largest output arity; the server leaves the nulls out. A program
//     without outputs answers ?[c0] <- [].
//
// No feature is unsupported.
type Cozo struct{}

// Name returns "cozo".
func (Cozo) Name() string { return "cozo" }

// Translate returns p as a CozoScript query for targets/cozo and the decoder of its values.
func (Cozo) Translate(p *Program) (*Translation, error) {
	var b strings.Builder
	for i := range p.Relations {
		rel := &p.Relations[i]
		var facts, rules []Rule
		for _, r := range p.Rules {
			switch {
			case r.Head.Rel != rel.Name:
			case r.IsFact():
				facts = append(facts, r)
			default:
				rules = append(rules, r)
			}
		}
		cols := cozoColumns(len(rel.Attrs))
		if len(rules) == 0 {
			writeCozoConstRule(&b, "r_"+rel.Name, cols, facts)
			continue
		}
		if len(facts) > 0 {
			writeCozoConstRule(&b, "f_"+rel.Name, cols, facts)
			b.WriteString("r_" + rel.Name + "[" + cols + "] := f_" + rel.Name + "[" + cols + "]\n")
		}
		for _, r := range rules {
			writeCozoRule(&b, r)
		}
	}
	outputs := p.outputs()
	width := 0
	for _, rel := range outputs {
		width = max(width, len(rel.Attrs))
	}
	head := "?[" + cozoColumns(width+1) + "]"
	if len(outputs) == 0 {
		b.WriteString(head + " <- []\n")
	}
	for _, rel := range outputs {
		b.WriteString(head + " := r_" + rel.Name + "[")
		if len(rel.Attrs) == 0 {
			b.WriteByte('_')
		} else {
			b.WriteString(cozoColumnRange(1, len(rel.Attrs)))
		}
		b.WriteString("], c0 = ")
		writeCozoString(&b, rel.Name)
		for i := len(rel.Attrs) + 1; i <= width; i++ {
			b.WriteString(", c" + strconv.Itoa(i) + " = null")
		}
		b.WriteByte('\n')
	}
	return &Translation{Text: b.String(), Decode: decodeLatin1}, nil
}

// Script returns p's translation as base.cozo, base.py, a Python script that runs it with the
// cozo_embedded module and prints each row as a JSON list (the nulls left out), and the command
// line that runs them with $POLYFUZZ_PYTHON or python3.
func (d Cozo) Script(p *Program, base string) (map[string]string, string, error) {
	files, _, err := scriptFile(d, p, base+".cozo", "")
	if err != nil {
		return nil, "", err
	}
	files[base+".py"] = cozoRunner
	return files, `"${POLYFUZZ_PYTHON:-python3}" ` + base + ".py " + base + ".cozo", nil
}

// cozoRunner runs the CozoScript file its argument names on an in-memory database and prints
// the rows of its answer.
const cozoRunner = `# Runs a CozoScript file on an in-memory CozoDB (pip install cozo-embedded==0.7.6) and prints
# each row of its answer as a JSON list, without its null values.
import json
import sys

import cozo_embedded

db = cozo_embedded.CozoDbPy("mem", "", "{}")
try:
    res = db.run_script(open(sys.argv[1], encoding="utf-8").read(), {}, False)
except Exception as e:
    err = e.args[0] if e.args else e
    if isinstance(err, dict):
        err = err.get("display") or err.get("message")
    print(err, file=sys.stderr)
    sys.exit(1)
for row in res["rows"]:
    print(json.dumps([v for v in row if v is not None], ensure_ascii=False))
`

// cozoColumns returns the column variables of an n-ary relation, c0, c1, ..., or the one column
// u of a relation of arity 0.
func cozoColumns(n int) string {
	if n == 0 {
		return "u"
	}
	return cozoColumnRange(0, n-1)
}

// cozoColumnRange returns the variables c<from>, ..., c<to>, separated by commas.
func cozoColumnRange(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		if i > from {
			b.WriteString(", ")
		}
		b.WriteString("c" + strconv.Itoa(i))
	}
	return b.String()
}

// writeCozoConstRule writes the constant rule name[cols] <- [...] with the tuples of facts.
func writeCozoConstRule(b *strings.Builder, name, cols string, facts []Rule) {
	b.WriteString(name + "[" + cols + "] <- [")
	for i, f := range facts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('[')
		if len(f.Head.Args) == 0 {
			b.WriteByte('0')
		}
		writeCozoArgs(b, f.Head.Args)
		b.WriteByte(']')
	}
	b.WriteString("]\n")
}

// writeCozoRule writes r, which has a body or constraints.
func writeCozoRule(b *strings.Builder, r Rule) {
	var unify []string
	b.WriteString("r_" + r.Head.Rel + "[")
	if len(r.Head.Args) == 0 {
		b.WriteByte('u')
		unify = append(unify, "u = 0")
	}
	for i, t := range r.Head.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if t.Kind == Var {
			writeCozoTerm(b, t)
			continue
		}
		h := "h" + strconv.Itoa(i)
		b.WriteString(h)
		var c strings.Builder
		writeCozoTerm(&c, t)
		unify = append(unify, h+" = "+c.String())
	}
	b.WriteString("] := ")
	sep := ""
	for _, negated := range []bool{false, true} {
		for _, a := range r.Body {
			if a.Negated != negated {
				continue
			}
			b.WriteString(sep)
			sep = ", "
			if a.Negated {
				b.WriteString("not ")
			}
			b.WriteString("r_" + a.Rel + "[")
			if len(a.Args) == 0 {
				b.WriteByte('0')
			}
			writeCozoArgs(b, a.Args)
			b.WriteByte(']')
		}
	}
	for _, c := range r.Constraints {
		b.WriteString(sep)
		sep = ", "
		writeCozoTerm(b, c.Left)
		op := string(c.Op)
		if c.Op == Eq {
			op = "=="
		}
		b.WriteString(" " + op + " ")
		writeCozoTerm(b, c.Right)
	}
	for _, u := range unify {
		b.WriteString(sep + u)
		sep = ", "
	}
	b.WriteByte('\n')
}

// writeCozoArgs writes terms separated by commas.
func writeCozoArgs(b *strings.Builder, args []Term) {
	for i, t := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeCozoTerm(b, t)
	}
}

// writeCozoTerm writes variable x as v_x, _ as _, a number as an integer expression and a
// symbol as a single-quoted string.
func writeCozoTerm(b *strings.Builder, t Term) {
	switch t.Kind {
	case Var:
		b.WriteString("v_" + t.Name)
	case Anon:
		b.WriteByte('_')
	case Num:
		if t.Num == math.MinInt64 {
			b.WriteString("(-9223372036854775807 - 1)")
			return
		}
		b.WriteString(strconv.FormatInt(t.Num, 10))
	case Sym:
		writeCozoString(b, t.Sym)
	}
}

// writeCozoString writes s as a single-quoted string whose characters are the bytes of s: ' and
// \ escaped, other printable ASCII as is, every other byte as \u00XX.
func writeCozoString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= ' ' && c <= '~':
			b.WriteByte(c)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	b.WriteByte('\'')
}
