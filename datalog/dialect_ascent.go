package datalog

import (
	"fmt"
	"strconv"
	"strings"
)

// AscentVersion is the version of the ascent crate that the translations are written for and
// that targets/ascent pins.
const AscentVersion = "0.8.1"

// Ascent is the dialect of Ascent, the Datalog engine embedded in Rust by the ascent! macro
// (targets/ascent). A program becomes a Rust program, src/main.rs of a cargo package that
// depends on the ascent crate, that runs the program and prints the tuples of its output
// relations:
//
//   - relation i, named r, is the Ascent relation ri_r; variable x is v_x; a number is i64;
//     a symbol is &'static [u8], written as a byte string literal, so that any byte (NUL, bytes
//     that are not UTF-8) is a symbol and Ascent orders symbols byte-wise, as the reference does;
//   - a fact is an Ascent fact; in a rule body the positive atoms keep their order, and every
//     constraint (if ...) and negated atom (!r(...), _ allowed) comes right after the first
//     positive atom that binds all its variables (first when it has none), as Ascent binds
//     variables from left to right; Ascent binds body variables by reference, so constraints
//     compare *v_x;
//   - a variable repeated within one positive atom in a symbol column is renamed at its repeats,
//     with an equality constraint after the atom: ascent 0.8.1 compiles such a repeat into
//     "if new.eq(&(old))", which does not type-check for a column of a reference type
//     (&'static [u8], also String: "E0277: can't compare `String` with `&String`" for
//     "relation s(String, String); relation t(String); t(x) <-- s(x, x);");
//   - main prints every tuple of an output relation as one line: the relation's name, then for
//     every value a tab and the value, a number in decimal, a symbol in double quotes with the
//     bytes other than printable ASCII, " and \ written as \xNN.
//
// Every canonical program has a translation: Translate never returns *Unsupported.
type Ascent struct{}

// Name returns "ascent".
func (Ascent) Name() string { return "ascent" }

// Translate returns p as the src/main.rs of a cargo package for targets/ascent and the decoder
// of its printed values.
func (Ascent) Translate(p *Program) (*Translation, error) {
	return &Translation{Text: ascentMain(p), Decode: decodeAscent}, nil
}

// Script returns p's translation as base.rs with the cargo manifest base.Cargo.toml that builds
// it, and the command line that builds and runs it with cargo (the first run downloads and
// builds the ascent crate).
func (Ascent) Script(p *Program, base string) (map[string]string, string, error) {
	files := map[string]string{
		base + ".rs":         ascentMain(p),
		base + ".Cargo.toml": AscentManifest("prog", "../"+base+".rs"),
	}
	dir := base + "-cargo"
	return files, "mkdir -p " + dir + " && cp " + base + ".Cargo.toml " + dir + "/Cargo.toml && cargo run --quiet --manifest-path " +
		dir + "/Cargo.toml", nil
}

// AscentManifest returns the Cargo.toml of a package whose binary, named name, is built from the
// Rust file at path (relative to the manifest; empty for src/main.rs), with the ascent crate at
// AscentVersion (without its default feature "par", which only ascent_par! needs) and the
// build profile targets/ascent measured as the fastest to compile and run small programs.
func AscentManifest(name, path string) string {
	var b strings.Builder
	b.WriteString("[package]\nname = \"" + name + "\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n")
	if path != "" {
		b.WriteString("[[bin]]\nname = \"" + name + "\"\npath = \"" + path + "\"\n\n")
	}
	b.WriteString("[dependencies]\nascent = { version = \"=" + AscentVersion + "\", default-features = false }\n\n")
	b.WriteString("[profile.dev]\ndebug = false\nincremental = false\ncodegen-units = 1\n")
	return b.String()
}

// ascentPrelude starts every translation.
const ascentPrelude = `#![allow(warnings)]
use ascent::ascent;
use std::io::Write;

type Sym = &'static [u8];

`

// ascentPrinters ends every translation: the functions that print values.
const ascentPrinters = `
fn num(w: &mut impl Write, n: i64) {
    write!(w, "\t{}", n).unwrap();
}

fn sym(w: &mut impl Write, s: &[u8]) {
    w.write_all(b"\t\"").unwrap();
    for &c in s {
        if c >= 0x20 && c < 0x7f && c != b'"' && c != b'\\' {
            w.write_all(&[c]).unwrap();
        } else {
            write!(w, "\\x{:02x}", c).unwrap();
        }
    }
    w.write_all(b"\"").unwrap();
}
`

// ascentMain returns the Rust program of p (see Ascent).
func ascentMain(p *Program) string {
	names := make(map[string]string, len(p.Relations))
	for i, r := range p.Relations {
		names[r.Name] = "r" + strconv.Itoa(i) + "_" + r.Name
	}
	var b strings.Builder
	b.WriteString(ascentPrelude)
	b.WriteString("ascent! {\n")
	for _, r := range p.Relations {
		b.WriteString("    relation " + names[r.Name] + "(")
		for i, a := range r.Attrs {
			if i > 0 {
				b.WriteString(", ")
			}
			if a.Type == Symbol {
				b.WriteString("Sym")
			} else {
				b.WriteString("i64")
			}
		}
		b.WriteString(");\n")
	}
	for _, r := range p.Rules {
		b.WriteString("    ")
		writeAscentAtom(&b, names, r.Head)
		if !r.IsFact() {
			b.WriteString(" <-- ")
			writeAscentBody(&b, p, names, r)
		}
		b.WriteString(";\n")
	}
	b.WriteString("}\n\nfn main() {\n    let mut p = AscentProgram::default();\n    p.run();\n")
	b.WriteString("    let mut w = std::io::BufWriter::new(std::io::stdout().lock());\n")
	for _, r := range p.outputs() {
		b.WriteString("    for t in p." + names[r.Name] + ".iter() {\n")
		b.WriteString("        w.write_all(b\"" + r.Name + "\").unwrap();\n")
		for i, a := range r.Attrs {
			f := "num(&mut w, t."
			if a.Type == Symbol {
				f = "sym(&mut w, t."
			}
			b.WriteString("        " + f + strconv.Itoa(i) + ");\n")
		}
		b.WriteString("        w.write_all(b\"\\n\").unwrap();\n    }\n")
	}
	b.WriteString("    w.flush().unwrap();\n}\n")
	b.WriteString(ascentPrinters)
	return b.String()
}

// writeAscentBody writes r's body: its positive atoms in order, each constraint and negated
// atom after the first positive atom that binds its variables.
func writeAscentBody(b *strings.Builder, p *Program, names map[string]string, r Rule) {
	// at[i] lists the constraints and negated atoms that come after positive atom i-1 (at[0]:
	// before the first).
	var pos []Atom
	for _, a := range r.Body {
		if !a.Negated {
			pos = append(pos, a)
		}
	}
	boundAfter := make([]map[string]bool, len(pos)+1)
	boundAfter[0] = map[string]bool{}
	for i, a := range pos {
		m := make(map[string]bool, len(boundAfter[i])+len(a.Args))
		for v := range boundAfter[i] {
			m[v] = true
		}
		for _, t := range a.Args {
			if t.Kind == Var {
				m[t.Name] = true
			}
		}
		boundAfter[i+1] = m
	}
	place := func(ts ...Term) int {
		for i, bound := range boundAfter {
			ok := true
			for _, t := range ts {
				if t.Kind == Var && !bound[t.Name] {
					ok = false
					break
				}
			}
			if ok {
				return i
			}
		}
		return len(pos) // not reached in a valid program
	}
	at := make([][]func(), len(pos)+1)
	for _, c := range r.Constraints {
		i := place(c.Left, c.Right)
		at[i] = append(at[i], func() {
			b.WriteString("if ")
			writeAscentOperand(b, c.Left)
			op := string(c.Op)
			if c.Op == Eq {
				op = "=="
			}
			b.WriteString(" " + op + " ")
			writeAscentOperand(b, c.Right)
		})
	}
	for _, a := range r.Body {
		if a.Negated {
			i := place(a.Args...)
			at[i] = append(at[i], func() {
				b.WriteByte('!')
				writeAscentAtom(b, names, a)
			})
		}
	}
	sep := ""
	item := func(f func()) {
		b.WriteString(sep)
		sep = ", "
		f()
	}
	fresh := 0
	for i := range at {
		if i > 0 {
			a, eqs := splitRepeatedSymbols(p, pos[i-1], &fresh)
			item(func() { writeAscentAtom(b, names, a) })
			for _, c := range eqs {
				item(func() { b.WriteString("if *" + c[0] + " == *" + c[1]) })
			}
		}
		for _, f := range at[i] {
			item(f)
		}
	}
}

// splitRepeatedSymbols returns a with every repeat of a variable in a symbol column renamed to
// a fresh variable named by a number N, v_N in Rust (no canonical variable's name starts with
// a digit), and the pairs of Rust names that must be equal. Ascent 0.8.1 compiles a variable repeated within one atom into
// "if new.eq(&(old))", which does not type-check for a column of a reference type, such as
// &'static [u8] or String (E0277: can't compare `&[u8]` with `&&[u8]`); number columns keep
// their repeats, which Ascent compiles.
func splitRepeatedSymbols(p *Program, a Atom, fresh *int) (Atom, [][2]string) {
	rel := p.Relation(a.Rel)
	seen := map[string]bool{}
	var eqs [][2]string
	for i, t := range a.Args {
		if t.Kind != Var || rel == nil || i >= len(rel.Attrs) || rel.Attrs[i].Type != Symbol {
			continue
		}
		if !seen[t.Name] {
			seen[t.Name] = true
			continue
		}
		if eqs == nil {
			a.Args = append([]Term(nil), a.Args...)
		}
		*fresh++
		w := strconv.Itoa(*fresh)
		a.Args[i] = Term{Kind: Var, Name: w}
		eqs = append(eqs, [2]string{"v_" + t.Name, "v_" + w})
	}
	return a, eqs
}

// writeAscentAtom writes a as ri_r(ARGS), without its negation.
func writeAscentAtom(b *strings.Builder, names map[string]string, a Atom) {
	b.WriteString(names[a.Rel] + "(")
	for i, t := range a.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeAscentTerm(b, t)
	}
	b.WriteByte(')')
}

// writeAscentOperand writes an operand of a constraint: a variable, bound by reference, as *v_x.
func writeAscentOperand(b *strings.Builder, t Term) {
	if t.Kind == Var {
		b.WriteByte('*')
	}
	writeAscentTerm(b, t)
}

// writeAscentTerm writes x as v_x, _ as _, a number in decimal and a symbol as a byte string
// slice, &b"..."[..].
func writeAscentTerm(b *strings.Builder, t Term) {
	switch t.Kind {
	case Var:
		b.WriteString("v_" + t.Name)
	case Anon:
		b.WriteByte('_')
	case Num:
		b.WriteString(strconv.FormatInt(t.Num, 10))
	case Sym:
		b.WriteString(`&b"`)
		for i := 0; i < len(t.Sym); i++ {
			c := t.Sym[i]
			if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(b, `\x%02x`, c)
			}
		}
		b.WriteString(`"[..]`)
	}
}

// decodeAscent maps a value the translation printed to its canonical form.
func decodeAscent(t Type, raw string) (string, error) {
	if t == Number {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return "", fmt.Errorf("%q is not a number", raw)
		}
		return Canonical(N(n)), nil
	}
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", fmt.Errorf("symbol %q is not in double quotes", raw)
	}
	s := raw[1 : len(raw)-1]
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+3 >= len(s) || s[i+1] != 'x' {
				return "", fmt.Errorf("symbol %q has an escape other than \\xNN", raw)
			}
			v, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				return "", fmt.Errorf("symbol %q has an escape other than \\xNN", raw)
			}
			out = append(out, byte(v))
			i += 3
		case c < 0x20 || c >= 0x7f || c == '"':
			return "", fmt.Errorf("symbol %q has a byte 0x%02x that the translation escapes", raw, c)
		default:
			out = append(out, c)
		}
	}
	return Canonical(S(string(out))), nil
}
