#!/usr/bin/env bash
# diff: muz: returns different rows than ref
# kind: wrong-result, oracle: diff, seed: 7022550444341865884
# expected: datalog.orig: the same rows from every engine; ref: 0 rows
# actual: muz: 1 rows, extra (pku3, t:c, i:2, t:c)
# replay: polyfuzz replay testdata/datalog-findings/muz-negated-copy-of-a-body-atom
set -u
cd "$(mktemp -d)"

# datalog.orig
cat > p0.dl <<'POLYFUZZ_EOF'
// original
.decl aje0(a: number, b: symbol)
.decl koc1(a: symbol)
.decl pku3(a: symbol, b: number, c: symbol)
.input aje0
.output pku3
aje0(2, "c").
koc1(B) :- aje0(A, B), !aje0(A, B), !aje0(A, B).
koc1(A) :- koc1(A), A = "M".
pku3(B, A, B) :- aje0(A, B), koc1(B).
POLYFUZZ_EOF
echo '== datalog.orig on muz'
mkdir -p "$(dirname p0.smt2)"; cat > p0.smt2 <<'POLYFUZZ_EOF'
(set-option :fp.engine datalog)
(define-sort $N () (_ BitVec 1))
(define-sort $S () (_ BitVec 1))
(declare-rel aje0 ($N $S))
(declare-rel koc1 ($S))
(declare-rel pku3 ($S $N $S))
(declare-var $n0 $N)
(declare-var $s0 $S)
(rule (aje0 #b0 #b1))
(rule (=> (and (aje0 $n0 $s0) (not (aje0 $n0 $s0)) (not (aje0 $n0 $s0))) (koc1 $s0)))
(rule (=> (and (koc1 $s0) (= $s0 #b0)) (koc1 $s0)))
(rule (=> (and (aje0 $n0 $s0) (koc1 $s0)) (pku3 $s0 $n0 $s0)))
(query pku3 :print-answer true)
POLYFUZZ_EOF
z3 p0.smt2
echo '== datalog.orig on ref'
polyfuzz datalog run --engine ref p0.dl
