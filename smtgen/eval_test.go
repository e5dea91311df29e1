package smtgen

import (
	"errors"
	"strings"
	"testing"
)

// evalIn parses decls (declarations, define-funs) and term, sort-checks them and evaluates term
// under a model with the constants consts (name -> value text) and no function tables.
func evalIn(t *testing.T, decls string, consts map[string]string, term string) (Value, error) {
	t.Helper()
	sc, err := ParseScript(decls)
	if err != nil {
		t.Fatalf("parse %q: %v", decls, err)
	}
	env, err := Check(sc)
	if err != nil {
		t.Fatalf("check %q: %v", decls, err)
	}
	m := NewModel(env)
	for name, text := range consts {
		vt, err := ParseTerm(text)
		if err != nil {
			t.Fatalf("parse value %q: %v", text, err)
		}
		v, err := m.ParseValue(vt, env.Decls[name].Ret)
		if err != nil {
			t.Fatalf("value %q of %s: %v", text, name, err)
		}
		m.Consts[name] = v
	}
	tm, err := ParseTerm(term)
	if err != nil {
		t.Fatalf("parse %q: %v", term, err)
	}
	if err := env.CheckTerm(tm); err != nil {
		return nil, err
	}
	return m.Eval(tm)
}

// show prints an evaluation result: the value, "undecided", or "error: ...".
func show(v Value, err error) string {
	switch {
	case errors.Is(err, ErrUndecided):
		return "undecided"
	case err != nil:
		return "error: " + err.Error()
	}
	return v.String()
}

type evalCase struct {
	term, want string
}

func runEvalCases(t *testing.T, decls string, consts map[string]string, cases []evalCase) {
	t.Helper()
	for _, c := range cases {
		got := show(evalIn(t, decls, consts, c.term))
		if got != c.want {
			t.Errorf("%s = %s, want %s", c.term, got, c.want)
		}
	}
}

func TestEvalCore(t *testing.T) {
	decls := `(declare-const p Bool) (declare-const u Bool) (declare-const x Int)`
	consts := map[string]string{"p": "true", "x": "3"} // u has no value: undecided
	runEvalCases(t, decls, consts, []evalCase{
		{"(and p (not p))", "false"},
		{"(and false u)", "false"},
		{"(and u false)", "false"},
		{"(and true u)", "undecided"},
		{"(or true u)", "true"},
		{"(or u true)", "true"},
		{"(or false u)", "undecided"},
		{"(=> false u)", "true"},
		{"(=> u true)", "true"},
		{"(=> u false)", "undecided"},
		{"(=> true true false)", "false"},
		{"(=> true false u)", "true"},
		{"(not u)", "undecided"},
		{"(xor true false true)", "false"},
		{"(xor u true)", "undecided"},
		{"(ite u 1 1)", "1"},
		{"(ite u 1 2)", "undecided"},
		{"(ite p 1 (ite u 2 3))", "1"},
		{"(= 1 1 1)", "true"},
		{"(= 1 1 2)", "false"},
		{"(= 1 (ite u 1 2) 2)", "false"},
		{"(distinct 1 2 3)", "true"},
		{"(distinct 1 2 1)", "false"},
		{"(distinct 1 (ite u 1 2) 1)", "false"},
		{"(distinct 1 (ite u 1 2))", "undecided"},
		{"(= p u)", "undecided"},
		{"(! (and p true) :named n)", "true"},
	})
}

func TestEvalArith(t *testing.T) {
	decls := `(declare-const x Int) (declare-const y Real)`
	consts := map[string]string{"x": "(- 7)", "y": "(/ 1 3)"}
	runEvalCases(t, decls, consts, []evalCase{
		{"(div 7 2)", "3"},
		{"(div (- 7) 2)", "(- 4)"},
		{"(div 7 (- 2))", "(- 3)"},
		{"(div (- 7) (- 2))", "4"},
		{"(mod (- 7) 2)", "1"},
		{"(mod 7 (- 2))", "1"},
		{"(mod (- 7) (- 2))", "1"},
		{"(div 100 3 4)", "8"},
		{"(div x 0)", "undecided"},
		{"(mod x 0)", "undecided"},
		{"(/ y 0.0)", "undecided"},
		{"(* (div x 0) 0)", "undecided"},
		{"(abs x)", "7"},
		{"(abs (- 2.5))", "(/ 5.0 2.0)"},
		{"(- x)", "7"},
		{"(- 1 2 3)", "(- 4)"},
		{"(+ x y)", "(- (/ 20.0 3.0))"},
		{"(* 2 y)", "(/ 2.0 3.0)"},
		{"(/ 1 3)", "(/ 1.0 3.0)"},
		{"(/ 6 3)", "2.0"},
		{"(/ 1 2 2)", "(/ 1.0 4.0)"},
		{"(to_int (- 1.3))", "(- 2)"},
		{"(to_int 1.7)", "1"},
		{"(to_int (- 2.0))", "(- 2)"},
		{"(to_int x)", "(- 7)"},
		{"(to_real x)", "(- 7.0)"},
		{"(is_int 2.0)", "true"},
		{"(is_int y)", "false"},
		{"(is_int x)", "true"},
		{"((_ divisible 3) x)", "false"},
		{"((_ divisible 7) x)", "true"},
		{"(< 1 2 3)", "true"},
		{"(< 1 3 2)", "false"},
		{"(<= x y)", "true"},
		{"(> y 0)", "true"},
		{"(>= 1 1.0)", "true"},
		{"(= x (- 7.0))", "true"},
		{"(ite true x y)", "(- 7.0)"},
		{"(+ 123456789012345678901234567890 1)", "123456789012345678901234567891"},
	})
}

func TestEvalPartialTables(t *testing.T) {
	sc, _ := ParseScript(`(declare-const x Int)`)
	env, _ := Check(sc)
	m := NewModel(env)
	m.Consts["x"] = NewInt(5)
	m.Funcs[DivZero] = &FuncTable{Entries: []Entry{{Args: []Value{NewInt(5)}, Val: NewInt(42)}}}
	m.Funcs[ModZero] = &FuncTable{Default: NewInt(0)}
	for _, c := range []evalCase{
		{"(div x 0)", "42"},
		{"(div x (- x x))", "42"},
		{"(div 4 0)", "undecided"},
		{"(mod 4 0)", "0"},
		{"(/ 1.0 0.0)", "undecided"},
	} {
		tm, _ := ParseTerm(c.term)
		if got := show(m.Eval(tm)); got != c.want {
			t.Errorf("%s = %s, want %s", c.term, got, c.want)
		}
	}
}

func TestEvalBV(t *testing.T) {
	runEvalCases(t, "", nil, []evalCase{
		{"(bvadd #xff #x01)", "#b00000000"},
		{"(bvsub #x00 #x01)", "#b11111111"},
		{"(bvmul #x10 #x10)", "#b00000000"},
		{"(bvneg #x01)", "#b11111111"},
		{"(bvnot #b1010)", "#b0101"},
		{"(bvudiv #x07 #x00)", "#b11111111"},
		{"(bvurem #x07 #x00)", "#b00000111"},
		{"(bvsdiv #x07 #x00)", "#b11111111"},
		{"(bvsdiv #xf9 #x00)", "#b00000001"},
		{"(bvsrem #xf9 #x00)", "#b11111001"},
		{"(bvsmod #xf9 #x00)", "#b11111001"},
		{"(bvsdiv #xf9 #x02)", "#b11111101"}, // -7/2 = -3
		{"(bvsrem #xf9 #x02)", "#b11111111"}, // -7 rem 2 = -1
		{"(bvsmod #xf9 #x02)", "#b00000001"}, // -7 mod 2 = 1
		{"(bvsmod #x07 #xfe)", "#b11111111"}, // 7 mod -2 = -1
		{"(bvsmod #xf9 #xfe)", "#b11111111"}, // -7 mod -2 = -1
		{"(bvsdiv #x80 #xff)", "#b10000000"}, // overflow wraps
		{"(bvshl #x01 #x08)", "#b00000000"},
		{"(bvshl #x01 #x07)", "#b10000000"},
		{"(bvlshr #x80 #x07)", "#b00000001"},
		{"(bvlshr #x80 #xff)", "#b00000000"},
		{"(bvashr #x80 #x01)", "#b11000000"},
		{"(bvashr #x80 #x09)", "#b11111111"},
		{"(bvashr #x40 #x09)", "#b00000000"},
		{"((_ extract 7 4) #xa5)", "#b1010"},
		{"((_ extract 0 0) #xa5)", "#b1"},
		{"(concat #b10 #x3)", "#b100011"},
		{"((_ repeat 3) #b10)", "#b101010"},
		{"((_ zero_extend 4) #xf)", "#b00001111"},
		{"((_ sign_extend 4) #xf)", "#b11111111"},
		{"((_ sign_extend 0) #x7)", "#b0111"},
		{"((_ rotate_left 1) #b1000)", "#b0001"},
		{"((_ rotate_right 1) #b0001)", "#b1000"},
		{"((_ rotate_left 9) #b1000)", "#b0001"},
		{"(bvcomp #x1 #x1)", "#b1"},
		{"(bvnand #b1100 #b1010)", "#b0111"},
		{"(bvnor #b1100 #b1010)", "#b0001"},
		{"(bvxnor #b1100 #b1010)", "#b1001"},
		{"(bvult #x01 #xff)", "true"},
		{"(bvslt #x01 #xff)", "false"},
		{"(bvsge #x80 #x7f)", "false"},
		{"(bvuge #x80 #x7f)", "true"},
		{"(bvsle #xff #xff)", "true"},
		{"(bvsgt #x00 #xff)", "true"},
		{"(bvugt #x00 #xff)", "false"},
		{"(_ bv5 4)", "#b0101"},
		{"(_ bv17 4)", "#b0001"},
		{"(bvand #xf0 #x3c #xff)", "#b00110000"},
		{"(bv2nat #xff)", "255"},
		{"((_ int2bv 4) (- 1))", "#b1111"},
		{"(bvadd #xffffffffffffffffff #x000000000000000001)", "#b" + strings.Repeat("0", 72)},
		// SMT-LIB 2.7's overflow predicates and reductions
		{"(bvnego #x8)", "true"},
		{"(bvnego #x7)", "false"},
		{"(bvnego #x0)", "false"},
		{"(bvuaddo #xf #x1)", "true"},
		{"(bvuaddo #xe #x1)", "false"},
		{"(bvsaddo #x7 #x1)", "true"},
		{"(bvsaddo #x8 #xf)", "true"},
		{"(bvsaddo #x8 #x1)", "false"},
		{"(bvumulo #x8 #x2)", "true"},
		{"(bvumulo #x7 #x2)", "false"},
		{"(bvsmulo #x4 #x2)", "true"},
		{"(bvsmulo #xc #x2)", "false"},
		{"(bvusubo #x1 #x2)", "true"},
		{"(bvusubo #x2 #x2)", "false"},
		{"(bvssubo #x8 #x1)", "true"},
		{"(bvssubo #x0 #x8)", "true"},
		{"(bvssubo #xf #x8)", "false"},
		{"(bvsdivo #x8 #xf)", "true"},
		{"(bvsdivo #x8 #x0)", "false"},
		{"(bvsdivo #x7 #xf)", "false"},
		{"(bvredor #x0)", "#b0"},
		{"(bvredor #x4)", "#b1"},
		{"(bvredand #xf)", "#b1"},
		{"(bvredand #xe)", "#b0"},
	})
}

func TestEvalStrings(t *testing.T) {
	runEvalCases(t, "", nil, []evalCase{
		{`(str.++ "ab" "" "c")`, `"abc"`},
		{`(str.len "a\u{1F600}b")`, "3"},
		{`(str.len "\u00e9")`, "1"},
		{`(str.len "\u{2FFFF}")`, "1"},
		{`(str.len "\u{30000}")`, "9"}, // not an escape: the characters themselves
		{`(str.at "abc" 1)`, `"b"`},
		{`(str.at "abc" 3)`, `""`},
		{`(str.at "abc" (- 1))`, `""`},
		{`(str.substr "abcde" 1 3)`, `"bcd"`},
		{`(str.substr "abcde" 3 10)`, `"de"`},
		{`(str.substr "abcde" 5 1)`, `""`},
		{`(str.substr "abcde" (- 1) 2)`, `""`},
		{`(str.substr "abcde" 1 0)`, `""`},
		{`(str.substr "abcde" 1 (- 2))`, `""`},
		{`(str.prefixof "ab" "abc")`, "true"},
		{`(str.prefixof "" "")`, "true"},
		{`(str.suffixof "bc" "abc")`, "true"},
		{`(str.suffixof "abcd" "abc")`, "false"},
		{`(str.contains "abc" "")`, "true"},
		{`(str.contains "abc" "ca")`, "false"},
		{`(str.indexof "abcabc" "c" 0)`, "2"},
		{`(str.indexof "abcabc" "c" 3)`, "5"},
		{`(str.indexof "abc" "" 3)`, "3"},
		{`(str.indexof "abc" "" 4)`, "(- 1)"},
		{`(str.indexof "abc" "a" (- 1))`, "(- 1)"},
		{`(str.indexof "abc" "d" 0)`, "(- 1)"},
		{`(str.replace "abab" "b" "x")`, `"axab"`},
		{`(str.replace "abc" "" "x")`, `"xabc"`},
		{`(str.replace "abc" "d" "x")`, `"abc"`},
		{`(str.replace_all "abab" "b" "x")`, `"axax"`},
		{`(str.replace_all "aaa" "aa" "b")`, `"ba"`},
		{`(str.replace_all "abc" "" "x")`, `"abc"`},
		{`(str.to_int "0042")`, "42"},
		{`(str.to_int "")`, "(- 1)"},
		{`(str.to_int "4a")`, "(- 1)"},
		{`(str.to_int "-1")`, "(- 1)"},
		{`(str.to.int "7")`, "7"},
		{`(str.from_int 42)`, `"42"`},
		{`(str.from_int (- 3))`, `""`},
		{`(int.to.str 0)`, `"0"`},
		{`(str.to_code "a")`, "97"},
		{`(str.to_code "ab")`, "(- 1)"},
		{`(str.to_code "")`, "(- 1)"},
		{`(str.from_code 97)`, `"a"`},
		{`(str.from_code 196607)`, `"\u{2ffff}"`},
		{`(str.from_code 196608)`, `""`},
		{`(str.from_code (- 1))`, `""`},
		{`(str.from_code 92)`, `"\u{5c}"`},
		{`(str.from_code 34)`, `""""`},
		{`(str.is_digit "7")`, "true"},
		{`(str.is_digit "77")`, "false"},
		{`(str.is_digit "")`, "false"},
		{`(str.< "a" "b")`, "true"},
		{`(str.< "a" "a")`, "false"},
		{`(str.<= "a" "a")`, "true"},
		{`(str.< "" "a")`, "true"},
		{`(str.< "ab" "b")`, "true"},
		{`(str.< "b" "ab")`, "false"},
		{`(str.< "a" "b" "c")`, "true"},
		{`(str.< "Z" "a")`, "true"},
		{`"a""b"`, `"a""b"`},
	})
}

func TestEvalRegex(t *testing.T) {
	runEvalCases(t, "", nil, []evalCase{
		{`(str.in_re "abab" (re.* (str.to_re "ab")))`, "true"},
		{`(str.in_re "aba" (re.* (str.to_re "ab")))`, "false"},
		{`(str.in_re "" (re.* (str.to_re "ab")))`, "true"},
		{`(str.in_re "" (re.+ (str.to_re "ab")))`, "false"},
		{`(str.in_re "b" (re.range "a" "c"))`, "true"},
		{`(str.in_re "b" (re.range "c" "a"))`, "false"},
		{`(str.in_re "b" (re.range "ab" "c"))`, "false"},
		{`(str.in_re "a" (re.range "" "c"))`, "false"},
		{`(str.in_re "x" re.allchar)`, "true"},
		{`(str.in_re "xy" re.allchar)`, "false"},
		{`(str.in_re "xyz" re.all)`, "true"},
		{`(str.in_re "" re.none)`, "false"},
		{`(str.in_re "ab" (re.comp (str.to_re "ab")))`, "false"},
		{`(str.in_re "abc" (re.comp (str.to_re "ab")))`, "true"},
		{`(str.in_re "" (re.comp re.none))`, "true"},
		{`(str.in_re "ab" (re.inter (re.* re.allchar) (re.++ (str.to_re "a") re.allchar)))`, "true"},
		{`(str.in_re "ab" (re.inter (str.to_re "ab") (str.to_re "ba")))`, "false"},
		{`(str.in_re "ab" (re.diff (re.* (re.range "a" "b")) (str.to_re "ab")))`, "false"},
		{`(str.in_re "ba" (re.diff (re.* (re.range "a" "b")) (str.to_re "ab")))`, "true"},
		{`(str.in_re "aaa" ((_ re.loop 2 3) (str.to_re "a")))`, "true"},
		{`(str.in_re "a" ((_ re.loop 2 3) (str.to_re "a")))`, "false"},
		{`(str.in_re "aaaa" ((_ re.loop 2 3) (str.to_re "a")))`, "false"},
		{`(str.in_re "" ((_ re.loop 3 2) (str.to_re "a")))`, "false"},
		{`(str.in_re "" ((_ re.loop 0 0) (str.to_re "a")))`, "true"},
		{`(str.in_re "aa" ((_ re.^ 2) (str.to_re "a")))`, "true"},
		{`(str.in_re "b" (re.opt (str.to_re "b")))`, "true"},
		{`(str.in_re "" (re.opt (str.to_re "b")))`, "true"},
		{`(str.in_re "ab" (re.union (str.to_re "ab") (str.to_re "c")))`, "true"},
		{`(str.in.re "ab" (str.to.re "ab"))`, "true"},
		{`(str.replace_re "abab" (str.to_re "b") "x")`, `"axab"`},
		{`(str.replace_re "abab" (re.* (str.to_re "b")) "x")`, `"xabab"`},
		{`(str.replace_re "abab" (re.+ re.allchar) "x")`, `"xbab"`},
		{`(str.replace_re "abc" re.none "x")`, `"abc"`},
		{`(str.replace_re_all "abab" (str.to_re "b") "x")`, `"axax"`},
		{`(str.replace_re_all "abab" (re.* (str.to_re "b")) "x")`, `"axax"`},
		{`(str.replace_re_all "aab" (re.+ (str.to_re "a")) "x")`, `"xxb"`},
		{`(= (re.* (str.to_re "a")) (re.union (str.to_re "") (re.++ (str.to_re "a") (re.* (str.to_re "a")))))`, "true"},
		{`(= (re.* (str.to_re "a")) (re.+ (str.to_re "a")))`, "false"},
		{`(= (re.comp re.none) re.all)`, "true"},
	})
}

func TestEvalArrays(t *testing.T) {
	decls := `(declare-const a (Array Int Int)) (declare-const b (Array Bool Int))`
	consts := map[string]string{"a": "(store ((as const (Array Int Int)) 0) 1 5)"}
	runEvalCases(t, decls, consts, []evalCase{
		{"(select a 1)", "5"},
		{"(select a 2)", "0"},
		{"(select (store a 2 7) 2)", "7"},
		{"(= a (store ((as const (Array Int Int)) 0) 1 5))", "true"},
		{"(= (store a 1 0) ((as const (Array Int Int)) 0))", "true"},
		{"(= (store (store a 3 1) 3 0) a)", "true"},
		{"(= (store (store a 2 1) 3 1) (store (store a 3 1) 2 1))", "true"},
		{"(= a ((as const (Array Int Int)) 0))", "false"},
		// Finite index sort: covering every index equals a constant array.
		{"(= (store (store ((as const (Array Bool Int)) 0) true 1) false 1) ((as const (Array Bool Int)) 1))", "true"},
		{"(= (store (store ((as const (Array (_ BitVec 1) Int)) 0) #b0 2) #b1 2) ((as const (Array (_ BitVec 1) Int)) 2))", "true"},
		{"(select b true)", "undecided"},
		{"(store ((as const (Array Int Int)) 0) 1 5)", "(store ((as const (Array Int Int)) 0) 1 5)"},
		{"(store ((as const (Array Int Real)) 0) 1 5)", "(store ((as const (Array Int Real)) 0.0) 1 5.0)"},
	})
}

func TestEvalDefsLetsQuantifiers(t *testing.T) {
	decls := `(declare-const x Int) (declare-const u Int)
		(define-fun f ((y Int)) Int (+ y x))
		(define-fun g ((b Bool) (y Int)) Int (ite b 0 y))
		(define-fun c () Int (f 1))
		(declare-sort U 0) (declare-const e U)`
	consts := map[string]string{"x": "10"}
	runEvalCases(t, decls, consts, []evalCase{
		{"(f 5)", "15"},
		{"(f x)", "20"},
		{"c", "11"},
		{"(g true u)", "0"},
		{"(g false u)", "undecided"},
		{"(let ((x 1)) (+ x 1))", "2"},
		{"(let ((x 1) (y x)) (+ x y))", "11"},
		{"(let ((x 1)) (let ((x (+ x 1))) x))", "2"},
		{"(let ((y u)) (ite true 1 y))", "1"},
		{"(let ((x 1)) (f x))", "11"},
		{"(forall ((b Bool)) (or b (not b)))", "true"},
		{"(exists ((b (_ BitVec 4))) (= (bvmul b #x3) #x1))", "true"},
		{"(forall ((b (_ BitVec 8))) (bvule b #xfe))", "false"},
		{"(forall ((b (_ BitVec 4)) (d (_ BitVec 4))) (= (bvadd b d) (bvadd d b)))", "true"},
		{"(forall ((y Int)) (> (* y y) 0))", "false"},
		{"(exists ((y Int)) (= y 1))", "true"},
		{"(exists ((y Int)) (= y 1000))", "undecided"},
		{"(forall ((y Int)) (>= (* y y) 0))", "undecided"},
		{"(forall ((x Int)) (= x x))", "undecided"},
		{"(exists ((v U)) (= v e))", "undecided"},
		{"(forall ((x Bool)) (let ((x 1)) (= x 1)))", "true"},
	})
}

func TestExpandLets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"(let ((x 1)) (+ x x))", "(+ 1 1)"},
		{"(let ((x 1) (y 2)) (let ((x y)) (+ x y)))", "(+ 2 2)"},
		{"(let ((y z)) (forall ((z Int)) (= z y)))", "(forall ((z!1 Int)) (= z!1 z))"},
		{"(let ((y 1)) (forall ((y Int)) (= y 0)))", "(forall ((y Int)) (= y 0))"},
		{"(! (let ((a true)) a) :named n)", "(! true :named n)"},
	} {
		tm, err := ParseTerm(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := ExpandLets(tm).String(); got != c.want {
			t.Errorf("ExpandLets(%s) = %s, want %s", c.in, got, c.want)
		}
		if got := tm.String(); got != c.in {
			t.Errorf("ExpandLets changed its argument: %s", got)
		}
	}
	// Sharing: a chain of lets doubling the term stays linear.
	src := "x"
	for i := 0; i < 40; i++ {
		src = "(let ((x (+ x x))) " + src + ")"
	}
	tm, _ := ParseTerm(src)
	e := ExpandLets(tm)
	nodes := map[*Term]bool{}
	var walk func(*Term)
	walk = func(t *Term) {
		if nodes[t] {
			return
		}
		nodes[t] = true
		for _, a := range t.Args {
			walk(a)
		}
	}
	walk(e)
	if len(nodes) > 100 {
		t.Errorf("ExpandLets made %d nodes from 40 lets", len(nodes))
	}
}

func TestExpandDefs(t *testing.T) {
	sc, _ := ParseScript(`(declare-const x Int)
		(define-fun f ((y Int)) Int (div y x))
		(define-fun g ((x Int)) Bool (exists ((y Int)) (= (f x) y)))
		(assert (g (f 3)))`)
	env, err := Check(sc)
	if err != nil {
		t.Fatal(err)
	}
	got := env.ExpandDefs(sc.Commands[len(sc.Commands)-1].Terms[0]).String()
	want := "(exists ((y Int)) (= (div (div 3 x) x) y))"
	if got != want {
		t.Errorf("ExpandDefs = %s, want %s", got, want)
	}
}

func TestEvalIllSortedTermIsAnError(t *testing.T) {
	one := &Term{Kind: KindNumeral, Lit: "1", Sort: IntSort}
	bad := &Term{Kind: KindApp, Name: "not", Args: []*Term{one}, Sort: BoolSort}
	if _, err := NewModel(nil).Eval(bad); err == nil || errors.Is(err, ErrUndecided) {
		t.Errorf("Eval of (not 1) with forged sorts: %v", err)
	}
}
