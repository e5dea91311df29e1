#!/usr/bin/env bash
# error: z3: error tactic failed: uninterpreted ? in <null>:
# kind: unexpected-error, oracle: error, seed: 1445080935903264768
# engines: z3 4.8.5;
# expected: an answer
# actual: error: tactic failed: Uninterpreted 's' in <null>: ...
# on the original case: expected an answer; actual error: tactic failed: Uninterpreted 's' in <null>: ...
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/smtreal/r485/findings/9ee51a61741ee227
#
# Runs the case with each engine's own client and judges the answers as the oracle did.
# Exit status: 0 the bug reproduces, 1 it does not, 2 this script cannot tell (a client is
# missing, a server unreachable, a query failed, a planted fault, or an oracle a shell cannot judge).
set -u
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# cannot says why the bug cannot be judged here and exits 2.
cannot() { echo "repro.sh: cannot judge: $*" >&2; exit 2; }
# version NAME RECORDED RUNNING prints the version that runs and warns when the finding was recorded on another.
version() {
	echo "== $1: $3"
	case "$3" in *"$2"*) ;; *) echo "repro.sh: warning: the finding was recorded on $1 $2; this is $3" >&2 ;; esac
}
# limit SECONDS CMD... runs CMD, killed after SECONDS when timeout(1) is there (exit status 124).
limit() { if command -v timeout >/dev/null; then timeout "$@"; else shift; "$@"; fi; }
case="$tmp/case.smt2"
cat >"$case" <<'POLYFUZZ_SMT2'
; from seed QF_AUFBV/regress0__cvc5-printing.cpp-sample.smt2 a0bed36918e9cc56 (random model), mode check-sat-using (then horn-simplify default)
(set-option :produce-models true)
(set-logic QF_AUFBV)
(declare-sort S 0)
(declare-fun f ((_ BitVec 32)) S)
(declare-fun s () S)
(assert (= false (= (f #b01111111111111111111111111111111) s)))
(check-sat-using (then horn-simplify default))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun x () (_ BitVec 32) #b01111111111111111111111111111111)
;   (define-fun y () (_ BitVec 32) #b11111111111111111111111111111111)
;   (define-fun arr () (Array (_ BitVec 32) (_ BitVec 32)) (store ((as const (Array (_ BitVec 32) (_ BitVec 32))) #b11111111111111111111111111111111) #b00101111010100111000100001011101 #b10000000000000000000000000000000))
;   (define-fun f ((x!0 (_ BitVec 32))) S (ite (= x!0 #b11111111111111111111111111111111) @S_2 @S_1))
;   (define-fun s () S @S_2)
;   (define-fun ind1 () Bool false)
;   ; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model
;   (define-fun /0 ((x!0 Real)) Real 0.0)
;   (define-fun div0 ((x!0 Int)) Int 0)
;   (define-fun mod0 ((x!0 Int)) Int 0)
POLYFUZZ_SMT2

# z3
command -v '/root/.cache/polyfuzz/pypi/z3-solver-4.8.5.0/bin/z3' >/dev/null || cannot '/root/.cache/polyfuzz/pypi/z3-solver-4.8.5.0/bin/z3 not found'
version 'z3' '4.8.5' "$(/root/.cache/polyfuzz/pypi/z3-solver-4.8.5.0/bin/z3 --version </dev/null 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} /root/.cache/polyfuzz/pypi/z3-solver-4.8.5.0/bin/z3 -in -smt2 <"$case" >"$tmp/s0.out" 2>"$tmp/s0.err"
echo $? >"$tmp/s0.status"
echo '== z3 answers:'
cat "$tmp/s0.out"
cat "$tmp/s0.err" >&2
grep -xE 'sat|unsat|unknown' "$tmp/s0.out" >"$tmp/s0.ans"
ids=(s0)
names=('z3')

res=1
for k in "${!ids[@]}"; do
	st=$(cat "$tmp/${ids[$k]}.status")
	if grep -q -F -- 'error: tactic failed: Uninterpreted '\''s'\'' in <null>:' "$tmp/${ids[$k]}.out" "$tmp/${ids[$k]}.err"; then echo "repro.sh: ${names[$k]} reports the error again: the bug reproduces"; exit 0; fi
done
echo "repro.sh: the bug does not reproduce"
exit 1
