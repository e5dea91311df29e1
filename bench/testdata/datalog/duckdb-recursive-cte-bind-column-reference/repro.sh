#!/usr/bin/env bash
# error: duckdb: internal failed to bind column reference ? [n] (bindings: {#[n], #[n]})
# kind: unexpected-error, oracle: error, seed: 8962793725331820572
# engines: duckdb v1.3.2; ref polyfuzz reference engine;
# expected: an answer
# actual: Internal: Failed to bind column reference "c2" [39.1] (bindings: {#[18.0], #[19.0]}) ...
# on the original case: expected an answer; actual Internal: Failed to bind column reference "c2" [108.1] (bindings: {#[70.0], #[71.0]}) ...
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/datalog/duckdb-recursive-cte-bind-column-reference
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

# datalog.trans (expected superset the original's answer; steps EQU-DelRelNode,QF-NEG,CON-AddRelEdge,QF-MOD_EQU,CON-AddRelEdge,CON-AddRelEdge,EQU-AddSelfEdge,EQU-AddRelNode,QF-ADD_EQU,CON-AddRelEdge,EQU-AddFact,EQU-AddRelNode,QF-MOD_EQU,QF-ADD_EQU,EQU-DelRelNode,QF-ADD_EQU,QF-ADD_EQU,EQU-AddRelNode)
cat > p0.dl <<'POLYFUZZ_EOF'
// transformed: superset EQU-DelRelNode,QF-NEG,CON-AddRelEdge,QF-MOD_EQU,CON-AddRelEdge,CON-AddRelEdge,EQU-AddSelfEdge,EQU-AddRelNode,QF-ADD_EQU,CON-AddRelEdge,EQU-AddFact,EQU-AddRelNode,QF-MOD_EQU,QF-ADD_EQU,EQU-DelRelNode,QF-ADD_EQU,QF-ADD_EQU,EQU-AddRelNode
.decl link(a: number, b: number)
.decl reach(a: number, b: number)
.decl g1(a: number, b: number, c: number)
.input link
.output g1
g1(a, a, a) :- link(a, a), g1(A, a, a).
g1(b, d, d) :- reach(a, d), link(b, c), g1(b, b, A).
POLYFUZZ_EOF
echo '== datalog.trans on duckdb'
run duckdb p0
cat "$tmp/duckdb.p0.out"
cp "$tmp/duckdb.p0.status" "$tmp/duckdb.p0.ownstatus"
cp "$tmp/duckdb.p0.out" "$tmp/duckdb.p0.own"

res=1
if grep -qF -- 'Internal: Failed to bind column reference "c2" [39.1] (bindi' "$tmp/duckdb.p0.own" "$tmp/duckdb.p0.out" 2>/dev/null; then echo "repro.sh: duckdb reports the error again: the bug reproduces"; exit 0; fi
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
