#!/usr/bin/env bash
# model: z3: invalid model of a qf_nia instance (check-sat-using (then dom-simplify smt))
# kind: invalid-model, oracle: model, seed: 13129800665130336257
# engines: z3 4.8.7;
# expected: every assertion in scope true under the values get-value gave
# actual: assertion 1 is false under the model: (= (mod 75 0) 683)
# on the original case: expected every assertion in scope true under the values get-value gave; actual assertion 1 is false under the model: (not (xor (and (not (and (= (mod 75 0) 683) (= (= (mod 75 0) 683) (and (= (mod 75 0) 683) (= (mod 75 0) 683))))) (= (xor (and (= (mod 75 0) 683) (= (= (mod 75 0) 683) (and (= (mod 75 0) 683) (= (mod 75 0) 683)))) (ite (= (and (= (mod 75 0) 683) (= (mod 75 0) 683)) (and (= (mod 75 0) 683) (= (mod 75 ...
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/smtreal/c2/findings/e6ddad51d8996f85
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
; from seed QF_NIA/regress0__nl__issue4463-ack-model.smt2 737643cb365e0b2a (reference model), mode check-sat-using (then dom-simplify smt)
(set-option :produce-models true)
(set-logic QF_NIA)
(assert (= (mod 75 0) 683))
(check-sat-using (then dom-simplify smt))
(get-value ((mod 75 0)))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   ; div0, mod0 and /0 give the values of (div x 0), (mod x 0) and (/ x 0) in this model
;   (define-fun mod0 ((x!0 Int)) Int (ite (= x!0 75) 683 683))
POLYFUZZ_SMT2

# z3
command -v '/root/.cache/polyfuzz/pypi/z3-solver-4.8.7.0/bin/z3' >/dev/null || cannot '/root/.cache/polyfuzz/pypi/z3-solver-4.8.7.0/bin/z3 not found'
version 'z3' '4.8.7' "$(/root/.cache/polyfuzz/pypi/z3-solver-4.8.7.0/bin/z3 --version </dev/null 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} /root/.cache/polyfuzz/pypi/z3-solver-4.8.7.0/bin/z3 -in -smt2 <"$case" >"$tmp/s0.out" 2>"$tmp/s0.err"
echo $? >"$tmp/s0.status"
echo '== z3 answers:'
cat "$tmp/s0.out"
cat "$tmp/s0.err" >&2
grep -xE 'sat|unsat|unknown' "$tmp/s0.out" >"$tmp/s0.ans"
ids=(s0)
names=('z3')

echo 'repro.sh: cannot judge: whether a model satisfies the assertions is decided by polyfuzz'\''s evaluator, not by a solver'\''s output; run the replay line above' >&2
exit 2
