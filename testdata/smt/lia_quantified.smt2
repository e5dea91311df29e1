; A quantified seed: the quantified assertion is undecided for the evaluator and its fragments are
; not used; the quantifier-free ones are.
(set-logic LIA)
(declare-fun m () Int)
(declare-fun n () Int)
(assert (forall ((k Int)) (=> (and (>= k 0) (< k m)) (< k n))))
(assert (and (> m 3) (< n 20)))
(assert (or (= (- n m) 2) (> (* 2 n) (+ m 30))))
(check-sat)
