#!/usr/bin/env bash
# diff: muz: returns different rows than ref
# kind: wrong-result, oracle: diff, seed: 10567244883946576092
# expected: datalog.orig: the same rows from every engine; ref: 2 rows
# actual: muz: 0 rows, missing (ypt3, i:-8, t:k, t:k), (ypt3, i:9, t:Q, t:Q)
# replay: polyfuzz replay testdata/datalog-findings/muz-negated-copy-of-a-body-atom
set -u
cd "$(mktemp -d)"

# datalog.orig
cat > p0.dl <<'POLYFUZZ_EOF'
// original
.decl ccd0(a: symbol, b: number, c: number)
.decl iir1(a: symbol)
.decl rpf2(a: number, b: symbol)
.decl ypt3(a: number, b: symbol, c: symbol)
.input ccd0
.output ypt3
ccd0("k", -8, -8).
iir1(B) :- ccd0(B, A, A), !ccd0(B, A, A).
rpf2(A, B) :- ccd0(B, A, A), !iir1(B).
ypt3(A, B, B) :- rpf2(A, B).
POLYFUZZ_EOF
echo '== datalog.orig on muz'
mkdir -p "$(dirname p0.smt2)"; cat > p0.smt2 <<'POLYFUZZ_EOF'
(set-option :fp.engine datalog)
(define-sort $N () (_ BitVec 1))
(define-sort $S () (_ BitVec 1))
(declare-rel ccd0 ($S $N $N))
(declare-rel iir1 ($S))
(declare-rel rpf2 ($N $S))
(declare-rel ypt3 ($N $S $S))
(declare-var $n0 $N)
(declare-var $s0 $S)
(rule (ccd0 #b0 #b0 #b0))
(rule (=> (and (ccd0 $s0 $n0 $n0) (not (ccd0 $s0 $n0 $n0))) (iir1 $s0)))
(rule (=> (and (ccd0 $s0 $n0 $n0) (not (iir1 $s0))) (rpf2 $n0 $s0)))
(rule (=> (rpf2 $n0 $s0) (ypt3 $n0 $s0 $s0)))
(query ypt3 :print-answer true)
POLYFUZZ_EOF
z3 p0.smt2
echo '== datalog.orig on ref'
polyfuzz datalog run --engine ref p0.dl
