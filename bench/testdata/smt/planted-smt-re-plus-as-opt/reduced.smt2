; from seed s_strings.smt2 69296b333d4e24e0 (random model), mode plain
(set-option :produce-models true)
(set-logic QF_SLIA)
(declare-const s String)
(assert (xor (= (str.len s) 3) (str.in_re s (re.+ (re.union (str.to_re "ab") (re.range "0" "9"))))))
(check-sat)
(get-value (s))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun s () String "bbc")
;   (define-fun t () String "aaa")
;   (define-fun n () Int (- 7))
;   ; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model
;   (define-fun /0 ((x!0 Real)) Real 0.0)
;   (define-fun div0 ((x!0 Int)) Int 0)
;   (define-fun mod0 ((x!0 Int)) Int 0)
