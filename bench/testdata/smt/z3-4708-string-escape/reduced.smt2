; from seed QF_SLIA/regress1__proofs__eq-engine-corner-case-constants-disequal.smt2 0ad3bbfca7ad9efe (reference model), mode incremental
(set-option :produce-models true)
(set-logic QF_SLIA)
(declare-fun s () String)
(assert (= 1 (str.to_int (str.substr s 4 2))))
(check-sat)
(get-value (s))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun x () Bool true)
;   (define-fun s () String "886601")
