#!/usr/bin/env bash
# sat: z3: unsat on a satisfiable qf_uf instance (check-sat-using horn)
# kind: wrong-result, oracle: sat, seed: 3922
# engines: z3 4.8.7;
# expected: sat: the case's model makes all 1 assertions in scope true (certified by polyfuzz's evaluator)
# actual: unsat at check-sat 1 of 1 (answers: unsat)
# on the original case: expected sat: the case's model makes all 1 assertions in scope true (certified by polyfuzz's evaluator); actual unsat at check-sat 1 of 1 (answers: unsat)
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/smt/z3-3922-horn-unsat
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
; from seed https://github.com/Z3Prover/z3/issues/3922 (written by hand), mode check-sat-using horn
(set-option :produce-models true)
(set-logic QF_UF)
(declare-fun a () Bool)
(assert (not (=> a false)))
(check-sat-using horn)
; the model every assertion is true under (polyfuzz's evaluator certifies it):
;   (define-fun a () Bool true)
;   (define-fun b () Bool false)
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

# sat: the model in the case's comments satisfies the instance, so unsat is wrong.
res=1
for k in "${!ids[@]}"; do
	a="$tmp/${ids[$k]}.ans"
	if grep -qx unsat "$a"; then echo "repro.sh: ${names[$k]} answers unsat on a satisfiable instance: the bug reproduces"; exit 0; fi
	if [ ! -s "$a" ]; then echo "repro.sh: ${names[$k]} gave no answer (exit status $(cat "$tmp/${ids[$k]}.status"))" >&2; res=2; fi
done
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce: no unsat"
exit "$res"
