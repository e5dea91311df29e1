#!/usr/bin/env bash
# error: duckdb: invalid unordered_map::at
# kind: unexpected-error, oracle: error, seed: 6357992432057004198
# engines: muz 4.8.12; swipl 9.0.4; clingo 5.8.3; cozo 0.7.6; sqlite 3.54.1; duckdb v1.5.6; ref polyfuzz reference engine;
# expected: an answer
# actual: Invalid: unordered_map::at (in the query)
# on the original case: expected an answer; actual Invalid: unordered_map::at (in the query)
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/datalog/duckdb-recursive-cte-lateral-union
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

# datalog.trans (expected subset the original's answer; steps EQU-AddSelfEdge,EXP-AddFact,EQU-AddRelNode,EQU-DelRelEdge,EXP-AddRelEdge,EXP-AddRelEdge,QF-ADD_CON,QF-ADD_EQU,EXP-DelRelEdge,QF-ADD_CON,QF-ADD_EQU,EQU-DelRelNode,EQU-FactInline,EXP-AddRelEdge,EXP-AddFact,EQU-DelRelEdge,EQU-AddFact,EQU-DelFact,EQU-FactInline,EQU-AddFact,QF-REM_EXP,EQU-AddFact,EQU-DelRelNode,QF-ADD_EQU,EXP-AddFact,EQU-DelRelNode,EQU-DelFact,EQU-AddSelfEdge,EXP-DelRelEdge,QF-MOD_CON,EQU-AddRelEdges,EQU-AddRelNode,EXP-AddFact,EQU-DelFact,EXP-AddRelEdge,EXP-AddRelEdge,QF-ADD_EQU,QF-ADD_EQU,QF-ADD_EQU,QF-ADD_EQU,EQU-AddRelNode,EQU-AddRelNode,EQU-DelRelNode,QF-MOD_EXP,EQU-FactInline,EQU-FactInline,QF-MOD_EQU,EQU-DelRelNode,EXP-DelRelEdge,EQU-AddRelNode,QF-MOD_EQU,EXP-AddFact,QF-MOD_EQU,EQU-AddFact,QF-ADD_CON,EQU-AddRelNode,EXP-AddFact,EQU-DelFact,EQU-AddSelfEdge,EXP-AddFact,EQU-AddSelfEdge,QF-ADD_CON,QF-ADD_CON,EQU-FactInline,QF-ADD_EQU,QF-MOD_EQU,EXP-DelRelEdge,EQU-AddSelfEdge)
cat > p0.dl <<'POLYFUZZ_EOF'
// transformed: subset EQU-AddSelfEdge,EXP-AddFact,EQU-AddRelNode,EQU-DelRelEdge,EXP-AddRelEdge,EXP-AddRelEdge,QF-ADD_CON,QF-ADD_EQU,EXP-DelRelEdge,QF-ADD_CON,QF-ADD_EQU,EQU-DelRelNode,EQU-FactInline,EXP-AddRelEdge,EXP-AddFact,EQU-DelRelEdge,EQU-AddFact,EQU-DelFact,EQU-FactInline,EQU-AddFact,QF-REM_EXP,EQU-AddFact,EQU-DelRelNode,QF-ADD_EQU,EXP-AddFact,EQU-DelRelNode,EQU-DelFact,EQU-AddSelfEdge,EXP-DelRelEdge,QF-MOD_CON,EQU-AddRelEdges,EQU-AddRelNode,EXP-AddFact,EQU-DelFact,EXP-AddRelEdge,EXP-AddRelEdge,QF-ADD_EQU,QF-ADD_EQU,QF-ADD_EQU,QF-ADD_EQU,EQU-AddRelNode,EQU-AddRelNode,EQU-DelRelNode,QF-MOD_EXP,EQU-FactInline,EQU-FactInline,QF-MOD_EQU,EQU-DelRelNode,EXP-DelRelEdge,EQU-AddRelNode,QF-MOD_EQU,EXP-AddFact,QF-MOD_EQU,EQU-AddFact,QF-ADD_CON,EQU-AddRelNode,EXP-AddFact,EQU-DelFact,EQU-AddSelfEdge,EXP-AddFact,EQU-AddSelfEdge,QF-ADD_CON,QF-ADD_CON,EQU-FactInline,QF-ADD_EQU,QF-MOD_EQU,EXP-DelRelEdge,EQU-AddSelfEdge
.decl g0(a: number, b: number)
.decl g11(a: number)
.decl node1(a: symbol, b: number)
.decl node5(a: number, b: symbol, c: number)
.output g11
node5(A, B, C) :- node5(A, B, C), node1(B, C).
node5(A, B, C) :- node5(A, B, C), g0(A, A).
POLYFUZZ_EOF
echo '== datalog.trans on duckdb'
run duckdb p0
cat "$tmp/duckdb.p0.out"
cp "$tmp/duckdb.p0.status" "$tmp/duckdb.p0.ownstatus"
cp "$tmp/duckdb.p0.out" "$tmp/duckdb.p0.own"

res=1
if grep -qF -- 'unordered_map::at' "$tmp/duckdb.p0.own" "$tmp/duckdb.p0.out" 2>/dev/null; then echo "repro.sh: duckdb reports the error again: the bug reproduces"; exit 0; fi
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
