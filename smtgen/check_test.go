package smtgen

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckScript(t *testing.T) {
	src := `(set-logic ALL)
(declare-sort U 0)
(declare-sort P 2)
(define-sort BV8 () (_ BitVec 8))
(define-sort Arr (X) (Array X X))
(declare-const x Int)
(declare-const y Real)
(declare-const b BV8)
(declare-const a (Arr Int))
(declare-const p (P U Bool))
(declare-fun f (Int U) Real)
(declare-const u U)
(define-fun g ((z Int)) Real (+ z y))
(define-fun h ((z Int)) Real z)
(assert (> (f x u) (g 1)))
(assert (! (= (select a x) 3) :named n1))
(assert n1)
(assert (let ((x true) (w x)) (and x (> w 0))))
(assert (forall ((x Bool) (v U)) (=> x (= v u))))
(assert (= b (concat #x0 #b1111)))
(check-sat-assuming ((> y x)))
(get-value ((+ x y) ((_ extract 3 0) b) (str.len "ab")))
(simplify (* 2 x))`
	sc, err := ParseScript(src)
	if err != nil {
		t.Fatal(err)
	}
	env, err := Check(sc)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(env.Order, " "); got != "x y b a p f u g h n1" {
		t.Errorf("Order = %s", got)
	}
	if got := strings.Join(env.SortOrder, " "); got != "U P" {
		t.Errorf("SortOrder = %s", got)
	}
	if d := env.Decls["a"]; d.Ret.String() != "(Array Int Int)" {
		t.Errorf("a has sort %s", d.Ret)
	}
	if d := env.Decls["b"]; d.Ret.String() != "(_ BitVec 8)" {
		t.Errorf("b has sort %s", d.Ret)
	}
	if d := env.Decls["p"]; d.Ret.String() != "(P U Bool)" {
		t.Errorf("p has sort %s", d.Ret)
	}
	if d := env.Defs["h"]; d.Body.String() != "(to_real z)" {
		t.Errorf("h's body is %s, want the promotion explicit", d.Body)
	}
	// Every term has a sort.
	for _, c := range sc.Commands {
		for _, tm := range c.Terms {
			var walk func(*Term)
			walk = func(u *Term) {
				if u.Sort == nil {
					t.Errorf("%s: no sort on %s", c.Name, u)
				}
				for _, a := range u.Args {
					walk(a)
				}
				for _, b := range u.Binds {
					if b.Term != nil {
						walk(b.Term)
					}
				}
			}
			walk(tm)
		}
	}
	gv := sc.Commands[len(sc.Commands)-2]
	if got := gv.Terms[0].String(); got != "(+ (to_real x) y)" {
		t.Errorf("promotion: %s", got)
	}
	if got := gv.Terms[1].Sort.String(); got != "(_ BitVec 4)" {
		t.Errorf("extract sort %s", got)
	}
}

func TestCheckTerms(t *testing.T) {
	decls := `(declare-const x Int) (declare-const y Real) (declare-const s String) (declare-const v (_ BitVec 4))`
	for _, c := range []struct{ term, sort, printed string }{
		{"(+ x 1)", "Int", ""},
		{"(+ x 1.5)", "Real", "(+ (to_real x) 1.5)"},
		{"(+ 1 y)", "Real", "(+ 1.0 y)"},
		{"(/ x 2)", "Real", "(/ (to_real x) 2.0)"},
		{"(< x y)", "Bool", "(< (to_real x) y)"},
		{"(= x y 1)", "Bool", "(= (to_real x) y 1.0)"},
		{"(ite true x y)", "Real", "(ite true (to_real x) y)"},
		{"(to_int x)", "Int", "(to_int (to_real x))"},
		{"(is_int 1)", "Bool", "(is_int 1.0)"},
		{"(abs y)", "Real", ""},
		{"((_ divisible 3) x)", "Bool", ""},
		{"(bvadd v v v)", "(_ BitVec 4)", ""},
		{"(bvcomp v v)", "(_ BitVec 1)", ""},
		{"(bvuaddo v v)", "Bool", ""},
		{"(bvnego v)", "Bool", ""},
		{"(bvredor v)", "(_ BitVec 1)", ""},
		{"((_ zero_extend 4) v)", "(_ BitVec 8)", ""},
		{"((_ repeat 3) v)", "(_ BitVec 12)", ""},
		{"(concat v #b1 #x00)", "(_ BitVec 13)", ""},
		{"(_ bv3 5)", "(_ BitVec 5)", ""},
		{"(bv2nat v)", "Int", ""},
		{"((_ int2bv 3) x)", "(_ BitVec 3)", ""},
		{"(str.in_re s (re.* (re.range \"a\" \"z\")))", "Bool", ""},
		{"((_ re.loop 1 2) re.allchar)", "RegLan", ""},
		{"(str.to.int (int.to.str x))", "Int", ""},
		{"(select (store ((as const (Array Int Real)) 0) x 1) 2)", "Real", "(select (store ((as const (Array Int Real)) 0.0) x 1.0) 2)"},
		{"(exists ((z Int)) (> z x))", "Bool", ""},
		{"(let ((x s)) (str.len x))", "Int", ""},
	} {
		sc, _ := ParseScript(decls)
		env, err := Check(sc)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := ParseTerm(c.term)
		if err != nil {
			t.Fatal(err)
		}
		if err := env.CheckTerm(tm); err != nil {
			t.Errorf("%s: %v", c.term, err)
			continue
		}
		if got := tm.Sort.String(); got != c.sort {
			t.Errorf("%s: sort %s, want %s", c.term, got, c.sort)
		}
		want := c.printed
		if want == "" {
			want = c.term
		}
		if got := tm.String(); got != want {
			t.Errorf("%s: checked term prints %s, want %s", c.term, got, want)
		}
	}
}

func TestCheckErrors(t *testing.T) {
	for _, c := range []struct{ src, reason string }{
		{"(declare-const f Float32) (assert (= (fp.to_ieee_bv f) #x00000000))", "fp-extension"},
		{"(declare-const f (_ FloatingPoint 70 24))", "fp-format-too-large"},
		{"(declare-codatatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))", "codatatypes"},
		{"(declare-const s (Seq Int))", "sequences"},
		{"(declare-const s (Set Int))", "sets"},
		{"(declare-const x Real) (assert (= (exp x) x))", "transcendentals"},
		{"(assert (= (foo 1) 2))", "unknown-function"},
		{"(assert (= zz 2))", "unknown-function"},
		{"(declare-const x T)", "unknown-sort"},
		{"(define-fun-rec f ((x Int)) Int (f x))", ""},
		{"(declare-fun + (Int Int) Int)", "redeclaration"},
		{"(assert (str.rev \"ab\"))", "string-extension"},
		{"(declare-const x Int) (assert (= (^ x 2) 4))", "transcendentals"},
		{"(assert (= 1 1)) (push) (declare-const x Int) (pop) (declare-const x Int)", ""},
		// Scopes: what a pop removes is out of scope and may be declared again, with the same
		// signature (one Env holds every declaration of the script).
		{"(push 1) (declare-const x Int) (push 2) (pop 2) (assert (= x 1)) (pop 1) (declare-const x Int)", ""},
		{"(push 2) (declare-const x Int) (pop 1) (assert (= x 1))", "unknown-function"},
		{"(push 1) (declare-const x Int) (pop 1) (assert (= x 1))", "unknown-function"},
		{"(push 1) (declare-const x Int) (pop 1) (declare-const x Bool)", "redeclared-symbol"},
		{"(push 1) (declare-sort U 0) (pop 1) (declare-sort U 1)", "redeclared-symbol"},
		{"(push 1) (define-fun f () Int 1) (pop 1) (define-fun f () Int 1) (assert (= f 1))", ""},
		{"(push 1) (define-fun f () Int 1) (pop 1) (define-fun f () Int 2)", "redeclared-symbol"},
		{"(push 1) (declare-const x Int) (pop 1) (define-fun x () Int 2)", "redeclared-symbol"},
		{"(set-option :global-declarations true) (push 1) (declare-const x Int) (pop 1) (assert (= x 1))", ""},
		{"(declare-const x Int) (push 3) (reset-assertions) (declare-const x Int)", ""},
		{"(declare-const x Int) (reset-assertions) (assert (= x 1))", "unknown-function"},
		{"(declare-const x Int) (reset-assertions) (declare-const x Bool)", "redeclared-symbol"},
		{"(set-option :global-declarations true) (declare-const x Int) (reset-assertions) (assert (= x 1))", ""},
	} {
		sc, err := ParseScript(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		_, err = Check(sc)
		var u *UnsupportedError
		switch {
		case c.reason == "" && err != nil:
			t.Errorf("%s: %v", c.src, err)
		case c.reason != "" && !errors.As(err, &u):
			t.Errorf("%s: got %v, want unsupported %s", c.src, err, c.reason)
		case c.reason != "" && u.Reason != c.reason:
			t.Errorf("%s: reason %q (%v), want %q", c.src, u.Reason, u, c.reason)
		}
	}
	for _, src := range []string{
		"(assert 1)",
		"(assert (+ true 1))",
		"(declare-const x Int) (assert (= x true))",
		"(declare-const v (_ BitVec 4)) (assert (= (bvadd v #b1) v))",
		"(declare-const v (_ BitVec 4)) (assert (= ((_ extract 4 0) v) v))",
		"(declare-const x Real) (assert (= (div x 2) 1))",
		"(declare-fun f (Int) Int) (assert (= (f 1 2) 1))",
		"(declare-fun f (Int) Int) (assert (= (f 1.5) 1))",
		"(define-fun f ((x Int)) Int true)",
		"(assert (forall ((x Int)) x))",
		"(assert (= ((_ divisible 0) 4) true))",
		// A name in scope cannot be declared again, even with the same signature.
		"(declare-const x Int) (declare-const x Bool)",
		"(declare-const x Int) (declare-const x Int)",
		"(declare-const x Int) (push 1) (declare-fun x () Int)",
		"(declare-sort U 0) (push 1) (declare-sort U 0)",
		"(define-sort S () Int) (define-sort S () Int)",
		"(push 1) (pop 2)",
		"(declare-const x Int) (reset) (declare-const x Int)",
	} {
		sc, err := ParseScript(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		_, err = Check(sc)
		var u *UnsupportedError
		if err == nil || errors.As(err, &u) {
			t.Errorf("%s: got %v, want a sort error", src, err)
		}
	}
}

func TestCheckRealLogic(t *testing.T) {
	sc, _ := ParseScript("(set-logic QF_LRA) (declare-const y Real) (assert (= (+ y 1) 2))")
	if _, err := Check(sc); err != nil {
		t.Fatal(err)
	}
	a := sc.Commands[2].Terms[0]
	if got := a.String(); got != "(= (+ y 1) 2)" {
		t.Errorf("numerals of QF_LRA are reals and need no promotion: %s", got)
	}
	if !a.Args[1].Sort.Equal(RealSort) {
		t.Errorf("numeral sort %s in QF_LRA", a.Args[1].Sort)
	}
	m := NewModel(nil)
	m.Consts["y"] = NewReal(1, 1)
	m.Env, _ = Check(sc)
	if v, ok := m.Truth(a); !ok || !v {
		t.Errorf("(= (+ y 1) 2) with y = 1: %v %v", v, ok)
	}
}
