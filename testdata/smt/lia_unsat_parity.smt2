; Unsatisfiable: x + x is even, so it cannot equal 2y + 1.
(set-logic QF_LIA)
(declare-fun x () Int)
(declare-fun y () Int)
(declare-fun z () Int)
(assert (= (+ x x) (+ (* 2 y) 1)))
(assert (and (< z 10) (> z (- 10)) (not (= z (* 3 x)))))
(assert (or (> x y) (<= (abs (- x y)) 5)))
(check-sat)
