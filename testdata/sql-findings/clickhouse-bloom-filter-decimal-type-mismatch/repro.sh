#!/usr/bin/env bash
# error: clickhouse: type_mismatch type mismatch in in or values section. expected: x. got: x.
# kind: unexpected-error, oracle: error, seed: 5505949327712321538
# engines: clickhouse 26.9.2.1;
# expected: an answer
# actual: TYPE_MISMATCH: Type mismatch in IN or VALUES section. Expected: Int32. Got: Decimal64. (in the query)
# on the original case: expected an answer; actual TYPE_MISMATCH: Type mismatch in IN or VALUES section. Expected: Int32. Got: Decimal64. (in the query)
# polyfuzz: 0.2.0
# replay: polyfuzz replay ch20k2/findings/78a7114bb3d1eab2
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
# sec ENGINE ROLE prints ENGINE's answer to the query of ROLE.
sec() { awk -v r="---- $2" '$0 == r { on = 1; next } /^---- / { on = 0 } on' "$tmp/$1.out"; }
# ran ENGINE says whether ENGINE answered every query (the end line was printed and no query failed).
ran() { grep -qx -- '---- end' "$tmp/$1.out" && [ ! -s "$tmp/$1.qfail" ]; }

cannot 'no client known for clickhouse'

# error: the engine crashed (killed by a signal, or its server lost), hung, or printed the
# recorded error message.
judge() {
	local st; st=$(cat "$tmp/$1.status")
	if grep -qF -- 'Type mismatch in IN or VALUES section. Expected: Int32. Got:' "$tmp/$1.out" "$tmp/$1.err"; then echo "$1: the error is back"; return 0; fi
	echo "$1: no error 'Type mismatch in IN or VALUES section. Expected: Int32. Got:'"; return 1
}
res=1
for e in clickhouse; do
	judge "$e"
	case $? in
	0) echo "repro.sh: the bug reproduces on $e"; exit 0 ;;
	2) res=2 ;;
	esac
done
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
