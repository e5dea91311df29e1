; from seed ufnia_counter.smt2 9bcc271e2d2b3711 (reference model), mode incremental
(set-option :produce-models true)
(set-logic QF_UFNIA)
(declare-fun f (Int) Int)
(assert (= (= 21238 (+ (f 8855) 1)) (<= (div 21238 0) 10)))
(check-sat)
(get-value ((f 8855) (div 21238 0)))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun f ((x!0 Int)) Int (ite (= x!0 8855) 21237 (ite (= x!0 2437) 21236 (ite (= x!0 21237) 8856 21237))))
;   (define-fun g ((x!0 Int) (x!1 Int)) Int (ite (and (= x!0 8855) (= x!1 2437)) 21238 (ite (and (= x!0 2437) (= x!1 8855)) (- 1) 21238)))
;   (define-fun x () Int 8855)
;   (define-fun y () Int 2437)
;   ; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model
;   (define-fun div0 ((x!0 Int)) Int (ite (= x!0 21238) 0 0))
