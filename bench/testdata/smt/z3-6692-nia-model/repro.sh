#!/usr/bin/env bash
# model: z3: invalid model of a qf_nia instance
# kind: invalid-model, oracle: model, seed: 6692
# engines: z3 4.12.1;
# expected: every assertion in scope true under the values get-value gave
# actual: assertion 4 is false under the model: (or c (< a (+ e (* 3 f))))
# on the original case: expected every assertion in scope true under the values get-value gave; actual assertion 5 is false under the model: (or c (< a (+ e (* 3 f))))
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/smt/z3-6692-nia-model
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
; from seed https://github.com/Z3Prover/z3/issues/6692 (written by hand; the model is z3 4.12.2's), mode plain
(set-option :produce-models true)
(set-logic QF_NIA)
(declare-fun a () Int)
(declare-fun c () Bool)
(declare-fun e () Int)
(declare-fun f () Int)
(assert (<= 0 a 18))
(assert (<= 0 e 1))
(assert (<= 0 f 1 2 32 81))
(assert (or c (< a (+ e (* 3 f)))))
(check-sat)
(get-value (a c e f))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun a () Int 1)
;   (define-fun b () Int 2)
;   (define-fun c () Bool true)
;   (define-fun d () Int 3)
;   (define-fun e () Int 0)
;   (define-fun f () Int 0)
;   (define-fun g () Int 27)
POLYFUZZ_SMT2

# z3
command -v '/root/.cache/polyfuzz/pypi/z3-solver-4.12.1.0/bin/z3' >/dev/null || cannot '/root/.cache/polyfuzz/pypi/z3-solver-4.12.1.0/bin/z3 not found'
version 'z3' '4.12.1' "$(/root/.cache/polyfuzz/pypi/z3-solver-4.12.1.0/bin/z3 --version </dev/null 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} /root/.cache/polyfuzz/pypi/z3-solver-4.12.1.0/bin/z3 -in -smt2 <"$case" >"$tmp/s0.out" 2>"$tmp/s0.err"
echo $? >"$tmp/s0.status"
echo '== z3 answers:'
cat "$tmp/s0.out"
cat "$tmp/s0.err" >&2
grep -xE 'sat|unsat|unknown' "$tmp/s0.out" >"$tmp/s0.ans"
ids=(s0)
names=('z3')

echo 'repro.sh: cannot judge: whether a model satisfies the assertions is decided by polyfuzz'\''s evaluator, not by a solver'\''s output; run the replay line above' >&2
exit 2
