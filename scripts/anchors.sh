# shellcheck shell=bash
# The anchor SMT fuzzers that docs/benchmarks.md measures polyfuzz against: STORM and yinyang
# (opfuzz, typefuzz), built from their sources at pinned commits, in a virtual environment of
# their own with pinned dependencies. Not part of the tests.
#
# Usage (bash):
#   source scripts/anchors.sh
#   anchors_prepare                 # clones and installs once under the cache directory
#   anchors_rate storm 120 QF_LIA z3        # solver calls per second of STORM over 120 s
#   anchors_rate opfuzz 120 QF_LIA z3,cvc5  # the same for yinyang's opfuzz (differential: two solvers)
#   anchors_rate polyfuzz-storm 120 QF_LIA z3   # polyfuzz smt with STORM's default sizes
#
# Every run is pinned to one core (taskset -c 0, or ANCHORS_CORE) and reads the seeds of
# ../shared/corpus/smt/THEORY. The cache directory is $XDG_CACHE_HOME/polyfuzz/anchors, else
# ~/.cache/polyfuzz/anchors. STORM_GIT and YINYANG_GIT name other clones to copy from (a mirror).

_ANCHORS_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_ANCHORS_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz/anchors"
_ANCHORS_YINYANG=32463aa

# anchors_prepare clones STORM and yinyang at their pinned commits and installs their
# dependencies (pinned) into a virtual environment.
anchors_prepare() {
  local d=$_ANCHORS_DIR
  mkdir -p "$d" || return 1
  if [ ! -d "$d/storm/.git" ]; then
    git clone -q "${STORM_GIT:-https://github.com/Practical-Formal-Methods/storm}" "$d/storm" || return 1
  fi
  git -C "$d/storm" checkout -q 55d0916 || return 1
  # STORM's setup.py writes its home folder into storm/config.py; the same without installing.
  echo "config={\"home\":\"$d/storm\"}" >"$d/storm/storm/config.py"
  if [ ! -d "$d/yinyang/.git" ]; then
    git clone -q "${YINYANG_GIT:-https://github.com/testsmt/yinyang}" "$d/yinyang" || return 1
  fi
  git -C "$d/yinyang" checkout -q "$_ANCHORS_YINYANG" || return 1
  if [ ! -x "$d/venv/bin/python" ]; then
    python3 -m venv "$d/venv" || return 1
  fi
  # yinyang's setup.cfg pins antlr4 and ffg; STORM's requirements name termcolor, z3-solver
  # (its own model finder: the release of the z3 under test) and configparser.
  "$d/venv/bin/pip" install -q antlr4-python3-runtime==4.9.2 ffg==0.1.2 termcolor==2.4.0 \
    configparser==7.1.0 z3-solver==4.8.12.0
}

# anchors_rate TOOL SECONDS THEORY SOLVER runs TOOL (storm, opfuzz, typefuzz, polyfuzz-storm,
# polyfuzz-opfuzz, polyfuzz-typefuzz) on one core for SECONDS over the corpus' THEORY seeds with
# SOLVER (z3: Debian's /usr/bin/z3) and prints "TOOL THEORY CALLS SECONDS CALLS/S".
anchors_rate() {
  local tool=$1 secs=$2 theory=$3 solvers=$4 d=$_ANCHORS_DIR out calls s bin
  local seeds="$_ANCHORS_REPO/../shared/corpus/smt"
  local yy="" pf=() n=0
  # SOLVER may be a comma-separated list: yinyang's opfuzz is differential and wants two.
  for s in ${solvers//,/ }; do
    bin=$(command -v "$s") || { echo "anchors_rate: $s not found" >&2; return 1; }
    case $s in
    z3) yy="$yy${yy:+;}$bin model_validate=true" ;;
    cvc5) yy="$yy${yy:+;}$bin --check-models -m -i -q" ;;
    *) yy="$yy${yy:+;}$bin" ;;
    esac
    pf+=(--solver "$s")
    n=$((n + 1))
  done
  out=$(mktemp -d)
  case $tool in
  storm)
    # STORM prints one line per solver run: [z3] [core: 0] [seed_file: K] [i/1000] [THEORY] answer
    (cd "$d/storm" && timeout "$secs" taskset -c "${ANCHORS_CORE:-0}" "$d/venv/bin/python" -m storm --benchmark "$seeds" \
      --theory "$theory" --solver "$solvers" --solverbin "$bin" --seed 1 >"$out/log" 2>&1)
    calls=$(grep -Ec '^\[[a-z0-9]+\].*\[[0-9]+/[0-9]+\]' "$out/log")
    rm -rf "$d/storm/temp"
    ;;
  opfuzz | typefuzz)
    # yinyang prints "Performed N solver calls (...)" every 2 s; the last one counts.
    (cd "$out" && timeout "$secs" taskset -c "${ANCHORS_CORE:-0}" "$d/venv/bin/python" "$d/yinyang/bin/$tool" \
      "$yy" "$seeds/$theory" >"$out/log" 2>&1)
    calls=$(grep -o 'Performed [0-9]* solver calls' "$out/log" | tail -1 | awk '{print $2}')
    ;;
  polyfuzz-*)
    local style=${tool#polyfuzz-} sizes=()
    (cd "$_ANCHORS_REPO" && go build -o "$out/polyfuzz" ./cmd/polyfuzz) || return 1
    # STORM's default sizes (storm/parameters.py): depth 20, 20 assertions, 1000 enrichment
    # steps, 1000 mutants per seed; yinyang's 300 mutants per seed are polyfuzz's default.
    [ "$style" = storm ] && sizes=(--depth 20 --asserts 20 --enrich 1000 --mutants 1000)
    timeout $((secs + 30)) taskset -c "${ANCHORS_CORE:-0}" "$out/polyfuzz" smt --style "$style" "${pf[@]}" \
      --seeds "$seeds/$theory" "${sizes[@]}" --budget "${secs}s" -j 1 --seed 1 --out "$out/run" >"$out/log" 2>&1
    # One solver call per instance and solver: the last progress line's "tests" times the solvers.
    calls=$(tail -1 "$out/run/stats.jsonl" | grep -o '"tests":[0-9]*' | cut -d: -f2)
    calls=$((${calls:-0} * n))
    ;;
  *)
    echo "anchors_rate: unknown tool $tool" >&2
    return 1
    ;;
  esac
  echo "$tool $theory ${calls:-0} $secs $(awk -v c="${calls:-0}" -v s="$secs" 'BEGIN {printf "%.1f", c / s}')"
  rm -rf "$out"
}
