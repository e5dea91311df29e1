; from seed QF_NIA/regress0__nl__issue4463-ack-model.smt2 737643cb365e0b2a (reference model), mode check-sat-using (then dom-simplify smt)
(set-option :produce-models true)
(set-logic QF_NIA)
(assert (= (mod 75 0) 683))
(check-sat-using (then dom-simplify smt))
(get-value ((mod 75 0)))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   ; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model
;   (define-fun mod0 ((x!0 Int)) Int (ite (= x!0 75) 683 683))
