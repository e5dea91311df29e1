#!/usr/bin/env bash
# error: muz: bad-answer value ? of x: index n is past the program?
# kind: unexpected-error, oracle: error, seed: 6833554706027254909
# engines: muz 4.8.9; ref polyfuzz reference engine;
# expected: an answer
# actual: bad-answer: value "#b11" of zkv1: index 3 is past the program's 3 number constants (in the query)
# on the original case: expected an answer; actual bad-answer: value "#b101" of zkv1: index 5 is past the program's 5 number constants (in the query)
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/datalog/muz-4844-three-copies-of-an-atom
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
cd "$tmp" || exit 2
pf=${POLYFUZZ:-polyfuzz}
# run ENGINE BASE runs polyfuzz's decoding of ENGINE's answer to BASE.dl into $tmp/ENGINE.BASE.rows.
run() {
	command -v "$pf" >/dev/null || cannot "$pf not found: the answers are decoded by 'polyfuzz datalog run' (set POLYFUZZ)"
	limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$pf" datalog run --engine "$1" "$2.dl" >"$tmp/$1.$2.out" 2>&1
	echo $? >"$tmp/$1.$2.status"
	LC_ALL=C sort -u "$tmp/$1.$2.out" >"$tmp/$1.$2.rows"
}
command -v z3 >/dev/null && version muz '4.8.9' "$(z3 --version </dev/null 2>&1 | head -n 1)"

# datalog.orig
cat > p0.dl <<'POLYFUZZ_EOF'
// original
.decl rmp0(a: number)
.decl zkv1(a: number)
.input rmp0
.output zkv1
rmp0(-4).
rmp0(3).
rmp0(-6).
zkv1(B) :- rmp0(B), rmp0(B), rmp0(B).
POLYFUZZ_EOF
echo '== datalog.orig on muz'
cat >muz-p0.sh <<'POLYFUZZ_RUN'
mkdir -p "$(dirname p0.smt2)"; cat > p0.smt2 <<'POLYFUZZ_EOF'
(set-option :fp.engine datalog)
(define-sort $N () (_ BitVec 2))
(define-sort $S () (_ BitVec 1))
(declare-rel rmp0 ($N))
(declare-rel zkv1 ($N))
(declare-var $n0 $N)
(rule (rmp0 #b01))
(rule (rmp0 #b10))
(rule (rmp0 #b00))
(rule (=> (and (rmp0 $n0) (rmp0 $n0) (rmp0 $n0)) (zkv1 $n0)))
(query zkv1 :print-answer true)
POLYFUZZ_EOF
z3 p0.smt2
POLYFUZZ_RUN
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} bash muz-p0.sh >"$tmp/muz.p0.own" 2>&1
echo $? >"$tmp/muz.p0.ownstatus"
cat "$tmp/muz.p0.own"
run muz p0

res=1
if grep -qF -- 'value "#b11" of zkv1: index 3 is past the program'\''s 3 number' "$tmp/muz.p0.own" "$tmp/muz.p0.out" 2>/dev/null; then echo "repro.sh: muz reports the error again: the bug reproduces"; exit 0; fi
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
