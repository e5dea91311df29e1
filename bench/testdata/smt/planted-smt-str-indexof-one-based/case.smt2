; from seed s_strings.smt2 69296b333d4e24e0 (reference model), mode incremental
(set-option :produce-models true)
(set-logic QF_SLIA)
(declare-const t String)
(assert (= (str.indexof t "-" 0) 2))
(check-sat)
(get-value (t))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun s () String "ab")
;   (define-fun t () String "ab-2")
;   (define-fun n () Int 2)
