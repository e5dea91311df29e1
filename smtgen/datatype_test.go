package smtgen

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// dtDecls declares a parametric list, an option, an enumeration, a tree and a mutually
// recursive pair, in SMT-LIB 2.6 syntax.
const dtDecls = `(declare-datatypes ((List 1) (Opt 1) (Color 0)) (
 (par (T) ((nil) (cons (hd T) (tl (List T)))))
 (par (T) ((none) (some (val T))))
 ((red) (green) (blue))))
(declare-datatype Tree ((leaf (lval Int)) (node (left Tree) (right Tree))))
(declare-datatypes ((A 0) (B 0)) (((a0) (a1 (ab B))) ((b1 (ba A)))))
`

func dtEnv(t *testing.T, extra string) (*Script, *Env) {
	t.Helper()
	sc, err := ParseScript(dtDecls + extra)
	if err != nil {
		t.Fatal(err)
	}
	env, err := Check(sc)
	if err != nil {
		t.Fatal(err)
	}
	return sc, env
}

// TestDatatypeEval evaluates constructors, testers, selectors, match and recursive definitions.
func TestDatatypeEval(t *testing.T) {
	_, env := dtEnv(t, `(define-fun-rec len ((l (List Int))) Int (match l ((nil 0) ((cons h r) (+ 1 (len r))))))
(define-funs-rec ((ev ((n Int)) Bool) (od ((n Int)) Bool)) ((ite (= n 0) true (od (- n 1))) (ite (= n 0) false (ev (- n 1)))))
(define-fun-rec loop ((n Int)) Int (loop (+ n 1)))
`)
	for _, tc := range []struct{ term, want string }{
		{"(cons 1 (cons 2 (as nil (List Int))))", "((as cons (List Int)) 1 ((as cons (List Int)) 2 (as nil (List Int))))"},
		{"(hd (cons 3 (as nil (List Int))))", "3"},
		{"((_ is cons) (as nil (List Int)))", "false"},
		{"(is-nil (as nil (List Int)))", "true"},
		{"(tl (tl (cons 1 (cons 2 (as nil (List Int))))))", "(as nil (List Int))"},
		{"(match (cons 5 (as nil (List Int))) ((nil 0) ((cons h t) (* 2 h))))", "10"},
		{"(match (as nil (List Int)) (((cons h t) h) (x 7)))", "7"},
		{"(match green ((red 1) (blue 2) (_x 3)))", "3"},
		{"(len (cons 1 (cons 2 (cons 3 (as nil (List Int))))))", "3"},
		{"(ev 10)", "true"},
		{"(od 7)", "true"},
		{"(lval (right (node (leaf 1) (leaf 2))))", "2"},
		{"(= (some 1) (some 1))", "true"},
		{"(distinct red green blue)", "true"},
		{"(ab (a1 (b1 a0)))", "(b1 a0)"},
		{"(let ((x 1)) (match (some 2) ((none x) ((some y) (+ x y)))))", "3"},
	} {
		term, err := ParseTerm(tc.term)
		if err != nil {
			t.Fatalf("%s: %v", tc.term, err)
		}
		if err := env.CheckTerm(term); err != nil {
			t.Fatalf("%s: %v", tc.term, err)
		}
		if got := term.String(); got != tc.term {
			t.Errorf("printed %s as %s", tc.term, got)
		}
		v, err := NewModel(env).Eval(term)
		if err != nil {
			t.Errorf("%s: %v", tc.term, err)
			continue
		}
		if v.String() != tc.want {
			t.Errorf("%s = %s, want %s", tc.term, v, tc.want)
		}
		// The printed value reads back as the same value.
		vt, err := ParseTerm(v.String())
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		back, err := ParseValue(vt, term.Sort)
		if err != nil || !Equal(back, v) {
			t.Errorf("%s read back as %v (%v)", v, back, err)
		}
	}
	for _, undecided := range []string{"(loop 0)", "(hd (as nil (List Int)))", "(lval (node (leaf 1) (leaf 2)))"} {
		term, _ := ParseTerm(undecided)
		if _, err := NewModel(env).Eval(term); !errors.Is(err, ErrUndecided) {
			t.Errorf("%s: %v, want undecided", undecided, err)
		}
	}
}

// TestDatatypeWrongSelectorPin: a selector on another constructor takes the value a model pins.
func TestDatatypeWrongSelectorPin(t *testing.T) {
	_, env := dtEnv(t, "")
	m := NewModel(env)
	app, _ := ParseTerm("(hd (as nil (List Int)))")
	if err := m.Pin(app, NewInt(4)); err != nil {
		t.Fatal(err)
	}
	term, _ := ParseTerm("(+ 1 (hd (tl (cons 9 (as nil (List Int))))))")
	if v, err := m.Eval(term); err != nil || v.String() != "5" {
		t.Errorf("got %v, %v; want 5", v, err)
	}
	if err := m.Pin(app, NewInt(3)); !errors.Is(err, ErrInconsistent) {
		t.Errorf("a second, different pin gave %v", err)
	}
}

// TestDatatypeValues: zero values are finite and well-founded; random values read back.
func TestDatatypeValues(t *testing.T) {
	_, env := dtEnv(t, "")
	for _, s := range []string{"(List Int)", "(Opt (List Bool))", "Color", "Tree", "A", "B"} {
		ps, _ := ParseSort(s)
		rs, err := env.ResolveSort(ps)
		if err != nil {
			t.Fatal(err)
		}
		z := ZeroValue(rs)
		if z == nil {
			t.Fatalf("no zero value of %s", s)
		}
		if _, ok := z.(DatatypeValue); !ok {
			t.Errorf("zero of %s is %v", s, z)
		}
	}
}

// TestDatatypeSyntax reads the older z3 form, prints and re-reads scripts with match.
func TestDatatypeSyntax(t *testing.T) {
	src := `(declare-datatypes (T) ((Lst (cons (car T) (cdr Lst)) nl)))
(declare-datatypes () ((Col r g)))
(declare-const x (Lst Int))
(declare-const c Col)
(assert (is-cons x))
(assert (match c ((r true) (g false))))
(assert (= (car x) 3))
`
	sc, err := ParseScript(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Check(sc); err != nil {
		t.Fatal(err)
	}
	sc2, err := ParseScript(sc.String())
	if err != nil || sc2.String() != sc.String() {
		t.Fatalf("round trip: %v\n%s\n%s", err, sc, sc2)
	}
}

// TestDatatypeCorpus: every corpus file with datatypes or recursive definitions parses,
// sort-checks and round-trips.
func TestDatatypeCorpus(t *testing.T) {
	const dir = "../../shared/corpus/smt"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus at " + dir + " (the project's shared corpus); nothing to count")
	}
	fsys := os.DirFS(dir)
	files, _ := fs.Glob(fsys, "*/*.smt2")
	n, limited := 0, 0
	for _, f := range files {
		b, _ := fs.ReadFile(fsys, f)
		text := string(b)
		if !strings.Contains(text, "declare-datatype") && !strings.Contains(text, "define-fun-rec") &&
			!strings.Contains(text, "define-funs-rec") && !strings.HasPrefix(f, "QF_DT/") && !strings.HasPrefix(f, "UFDT/") {
			continue
		}
		n++
		sc, err := ParseScript(text)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, part := range SplitResets(sc) {
			var u *UnsupportedError
			if _, err := Check(part); errors.As(err, &u) && (u.Reason == "redeclaration" || u.Reason == "redeclared-symbol") {
				// Overloaded symbols (cvc5 accepts them), or one name for two things after a pop.
				t.Logf("%s: %v", f, err)
				limited++
			} else if err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
		sc2, err := ParseScript(sc.String())
		if err != nil || sc2.String() != sc.String() {
			t.Errorf("%s: round trip: %v", f, err)
		}
	}
	if n == 0 {
		t.Fatal("no datatype files in the corpus")
	}
	t.Logf("%d files with datatypes or recursive definitions parse and round-trip; %d of them redeclare a symbol", n, limited)
}
