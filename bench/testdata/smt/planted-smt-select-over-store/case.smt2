; from seed abv_memory.smt2 eb369c79456cae30 (reference model), mode incremental
(set-option :produce-models true)
(set-logic QF_ABV)
(declare-const mem (Array (_ BitVec 4) (_ BitVec 8)))
(declare-const p (_ BitVec 4))
(declare-const v (_ BitVec 8))
(define-fun mem2 () (Array (_ BitVec 4) (_ BitVec 8)) (store mem p v))
(assert (=> (xor (not (= p #x0)) (ite (= mem (store mem #b0010 #b00000001)) false true)) (= (select (store mem p #b00000001) #x0) #x2a)))
(check-sat)
(get-value (mem p v))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun mem () (Array (_ BitVec 4) (_ BitVec 8)) (store (store (store ((as const (Array (_ BitVec 4) (_ BitVec 8))) #b00000001) #b0000 #b00000000) #b0010 #b00000011) #b0011 #b00000000))
;   (define-fun p () (_ BitVec 4) #b0010)
;   (define-fun v () (_ BitVec 8) #b00000001)
