; from seed bv_bits.smt2 79fe9294b00cbcab (random model), mode check-sat-using (then dom-simplify smt)
(set-option :produce-models true)
(set-logic QF_BV)
(assert (distinct #b1111111111111111 (bvurem #b1000000000000000 #x0007)))
(check-sat-using (then dom-simplify smt))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun x () (_ BitVec 8) #b10000000)
;   (define-fun y () (_ BitVec 8) #b11111111)
;   (define-fun w () (_ BitVec 16) #b1000000000000000)
;   ; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model
;   (define-fun /0 ((x!0 Real)) Real 0.0)
;   (define-fun div0 ((x!0 Int)) Int 0)
;   (define-fun mod0 ((x!0 Int)) Int 0)
