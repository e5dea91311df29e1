; from seed https://github.com/Z3Prover/z3/issues/3922 (written by hand), mode check-sat-using horn
(set-option :produce-models true)
(set-logic QF_UF)
(declare-fun a () Bool)
(assert (not (=> a false)))
(check-sat-using horn)
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun a () Bool true)
;   (define-fun b () Bool false)
