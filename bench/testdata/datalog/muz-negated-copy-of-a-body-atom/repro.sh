#!/usr/bin/env bash
# diff: muz: returns different rows than ref
# kind: wrong-result, oracle: diff, seed: 15305176819533533140
# engines: muz 5.4.1; ref polyfuzz reference engine;
# expected: datalog.orig: the same rows from every engine; ref: 0 rows
# actual: muz: 1 rows, extra mvs2("f")
# on the original case: expected datalog.orig: the same rows from every engine; ref: 0 rows; actual muz: 1 rows, extra mvs2("f")
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/datalog/muz-negated-copy-of-a-body-atom
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
command -v z3 >/dev/null && version muz '5.4.1' "$(z3 --version </dev/null 2>&1 | head -n 1)"

# datalog.orig
cat > p0.dl <<'POLYFUZZ_EOF'
// original
.decl pdk0(a: number, b: number, c: symbol)
.decl ptb1(a: symbol)
.decl mvs2(a: symbol)
.input pdk0
.output mvs2
pdk0(10, 10, "f").
ptb1(B) :- pdk0(A, A, B), !pdk0(A, A, B).
mvs2(B) :- ptb1(B).
POLYFUZZ_EOF
echo '== datalog.orig on muz'
cat >muz-p0.sh <<'POLYFUZZ_RUN'
mkdir -p "$(dirname p0.smt2)"; cat > p0.smt2 <<'POLYFUZZ_EOF'
(set-option :fp.engine datalog)
(define-sort $N () (_ BitVec 1))
(define-sort $S () (_ BitVec 1))
(declare-rel pdk0 ($N $N $S))
(declare-rel ptb1 ($S))
(declare-rel mvs2 ($S))
(declare-var $n0 $N)
(declare-var $s0 $S)
(rule (pdk0 #b0 #b0 #b0))
(rule (=> (and (pdk0 $n0 $n0 $s0) (not (pdk0 $n0 $n0 $s0))) (ptb1 $s0)))
(rule (=> (ptb1 $s0) (mvs2 $s0)))
(query mvs2 :print-answer true)
POLYFUZZ_EOF
z3 p0.smt2
POLYFUZZ_RUN
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} bash muz-p0.sh >"$tmp/muz.p0.own" 2>&1
echo $? >"$tmp/muz.p0.ownstatus"
cat "$tmp/muz.p0.own"
run muz p0
echo '== datalog.orig on ref'
run ref p0
cat "$tmp/ref.p0.out"
cp "$tmp/ref.p0.status" "$tmp/ref.p0.ownstatus"
cp "$tmp/ref.p0.out" "$tmp/ref.p0.own"

# diff: every engine that answers must derive the same facts from datalog.orig.
first=
same=1
answered=0
for e in muz ref; do
	if [ "$(cat "$tmp/$e.p0.status")" != 0 ]; then echo "repro.sh: $e did not answer" >&2; continue; fi
	answered=$((answered + 1))
	if [ -z "$first" ]; then first=$e; continue; fi
	if ! cmp -s "$tmp/$first.p0.rows" "$tmp/$e.p0.rows"; then
		echo "repro.sh: $e derives other facts than $first (< $first only, > $e only):"
		diff "$tmp/$first.p0.rows" "$tmp/$e.p0.rows" | grep '^[<>]' | head -n 10
		same=0
	fi
done
[ "$answered" -ge 2 ] || cannot "fewer than two engines answered"
if [ "$same" = 0 ]; then echo "repro.sh: the bug reproduces"; exit 0; fi
echo "repro.sh: the bug does not reproduce: the engines derive the same facts"
exit 1
