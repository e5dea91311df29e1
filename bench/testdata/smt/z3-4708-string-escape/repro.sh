#!/usr/bin/env bash
# model: z3: invalid model of a qf_slia instance (incremental)
# kind: invalid-model, oracle: model, seed: 17291508412025143319
# engines: z3 4.8.10;
# expected: every assertion in scope true under the values get-value gave
# actual: assertion 1 is false under the model: (= 1 (str.to_int (str.substr s 4 2)))
# on the original case: expected every assertion in scope true under the values get-value gave; actual assertion 1 is false under the model: (not (not (and (= (ite (not (ite true (ite (ite (str.prefixof "-" (str.substr s 1 1)) true x) (ite (str.prefixof "-" (str.substr s 1 1)) true x) (= 1 (str.to_int (str.substr s (+ 1 1 1 1) (+ 1 1))))) x)) (ite (ite (> (- (str.len s) 1 (+ 1 1) (+ 1 1)) 0) (ite (str.prefixof "-" (str.substr s 1 1)) (st...
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/smtreal/r-4.8.10-str-11/findings/01d22625d3e54d79
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
; from seed QF_SLIA/regress1__proofs__eq-engine-corner-case-constants-disequal.smt2 0ad3bbfca7ad9efe (reference model), mode incremental
(set-option :produce-models true)
(set-logic QF_SLIA)
(declare-fun s () String)
(assert (= 1 (str.to_int (str.substr s 4 2))))
(check-sat)
(get-value (s))
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun x () Bool true)
;   (define-fun s () String "886601")
POLYFUZZ_SMT2

# z3
command -v '/root/.cache/polyfuzz/pypi/z3-solver-4.8.10.0/bin/z3' >/dev/null || cannot '/root/.cache/polyfuzz/pypi/z3-solver-4.8.10.0/bin/z3 not found'
version 'z3' '4.8.10' "$(/root/.cache/polyfuzz/pypi/z3-solver-4.8.10.0/bin/z3 --version </dev/null 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} /root/.cache/polyfuzz/pypi/z3-solver-4.8.10.0/bin/z3 -in -smt2 <"$case" >"$tmp/s0.out" 2>"$tmp/s0.err"
echo $? >"$tmp/s0.status"
echo '== z3 answers:'
cat "$tmp/s0.out"
cat "$tmp/s0.err" >&2
grep -xE 'sat|unsat|unknown' "$tmp/s0.out" >"$tmp/s0.ans"
ids=(s0)
names=('z3')

echo 'repro.sh: cannot judge: whether a model satisfies the assertions is decided by polyfuzz'\''s evaluator, not by a solver'\''s output; run the replay line above' >&2
exit 2
