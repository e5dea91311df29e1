; from seed lia_schedule.smt2 469ffdf3ea3ba56c (random model), mode plain
(set-option :produce-models true)
(set-logic QF_LIA)
(declare-const s3 Int)
(assert (distinct (- 2) 1 (- s3 1)))
(assert (= (>= s3 0) (<= 9 s3)))
(check-sat)
(get-value (s3))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun s1 () Int (- 4))
;   (define-fun s2 () Int 5)
;   (define-fun s3 () Int 10)
;   (define-fun deadline () Int 0)
;   ; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model
;   (define-fun /0 ((x!0 Real)) Real 0.0)
;   (define-fun div0 ((x!0 Int)) Int 0)
;   (define-fun mod0 ((x!0 Int)) Int 0)
