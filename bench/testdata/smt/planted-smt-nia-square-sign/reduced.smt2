; from seed nia_poly.smt2 71781cb84754ce60 (random model), mode check-sat-using (then dom-simplify smt)
(set-option :produce-models true)
(set-logic QF_NIA)
(declare-fun k () Int)
(assert (= (* k k) 4))
(check-sat-using (then dom-simplify smt))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun p () Int (- 333))
;   (define-fun q () Int (- 1))
;   (define-fun k () Int (- 2))
;   ; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model
;   (define-fun /0 ((x!0 Real)) Real 0.0)
;   (define-fun div0 ((x!0 Int)) Int 0)
;   (define-fun mod0 ((x!0 Int)) Int 0)
