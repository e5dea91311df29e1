package smtgen

import (
	"os"
	"reflect"
	"testing"
)

// FuzzReader checks the reader against the printer: whatever ParseScript (or ParseTerm) accepts
// prints to text that reads back to an equal tree, and printing that tree gives the same text.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"(set-logic QF_BV)\n(declare-fun x () (_ BitVec 8))\n(assert (= ((_ extract 3 0) x) #b1010))\n(check-sat)\n(get-value (x))\n",
		"(set-info :source |a\nb|)(declare-const a (Array Int Int))(assert (= a ((as const (Array Int Int)) 0)))(push)(pop 1)",
		"(assert (let ((y (- 3))) (forall ((z Int)) (! (> z y) :pattern ((f z)) :named q))))",
		"(define-fun f ((s String)) Bool (= s \"a\"\"b\\u{48}\"))(echo \"hi\")(check-sat-assuming (p (not q)))",
		"(declare-datatype Nat ((zero) (succ (pred Nat))))(define-fun-rec p ((n Nat)) Nat (match n ((zero zero))))",
		"(assert (= x 1/4 2.5 #xFf |a b| (_ bv5 8) (as y Real)))(frob :x (1 2) ; c\n)(exit)",
		"(define-sort A (X) (Array X X))(declare-sort U)(simplify (+ 1 2) :som true)",
	} {
		f.Add(s)
	}
	// Every tenth corpus file too, when the shared corpus is there.
	paths, _ := smtCorpusPaths()
	for i := 0; i < len(paths); i += 10 {
		if data, err := os.ReadFile(paths[i]); err == nil {
			f.Add(string(data))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		if s, err := ParseScript(src); err == nil {
			out := s.String()
			s2, err := ParseScript(out)
			if err != nil {
				t.Fatalf("re-reading the printed script: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(s, s2) {
				t.Fatalf("the round trip changed the script:\n%s\n%s", out, s2)
			}
			if out2 := s2.String(); out2 != out {
				t.Fatalf("printing is not idempotent:\n%q\n%q", out, out2)
			}
		}
		if tm, err := ParseTerm(src); err == nil {
			out := tm.String()
			tm2, err := ParseTerm(out)
			if err != nil {
				t.Fatalf("re-reading the printed term: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(tm, tm2) {
				t.Fatalf("the round trip changed the term:\n%s\n%s", out, tm2)
			}
			if out2 := tm2.String(); out2 != out {
				t.Fatalf("printing is not idempotent:\n%q\n%q", out, out2)
			}
		}
	})
}
