# Throughput of every SQL oracle on every engine: one polyfuzz campaign per (engine, oracle), one
# worker, a fixed budget, one after the other, and a Markdown table of what each printed (checks/s
# per worker, harness efficiency, valid statements). Measure on an idle machine.
#
#   source scripts/sqlservers.sh && sqlservers_start   # PostgreSQL and MariaDB (else left out)
#   source scripts/throughput.sh
#   sql_throughput 20s                                 # every engine and oracle, 20 s each
#   SQL_ENGINES="sqlite duckdb" SQL_ORACLES="norec pqs" sql_throughput 10s
#
# POLYFUZZ (default: go run ./cmd/polyfuzz built once into a temporary file) is the binary; the
# campaigns write under $SQL_THROUGHPUT_OUT (default: a temporary folder). A campaign that does not
# start (an oracle the engine does not support, an engine that is missing) shows as "not run" and
# the log that says why. Passwords in DSNs are never printed: the engine column shows the engine's
# name only.

: "${SQL_ENGINES:=sqlite duckdb postgres mariadb mysql turso datafusion clickhouse}"
: "${SQL_ORACLES:=norec tlp-where tlp-having tlp-distinct tlp-groupby tlp-agg pqs dqe eet dqp cert codd}"

# sql_throughput BUDGET: runs the table.
sql_throughput() {
  local budget="${1:-20s}" out bin eng arg o dir
  out="${SQL_THROUGHPUT_OUT:-$(mktemp -d)}"
  bin="${POLYFUZZ:-}"
  if [ -z "$bin" ]; then
    bin="$out/polyfuzz"
    go build -o "$bin" ./cmd/polyfuzz || return 1
  fi
  echo "| engine | oracle | checks/s per worker | tests/s | efficiency | valid statements | skipped checks | findings |"
  echo "|---|---|---|---|---|---|---|---|"
  for eng in $SQL_ENGINES; do
    case "$eng" in
      postgres) [ -n "${POLYFUZZ_POSTGRES_DSN:-}" ] || continue; arg="postgres=$POLYFUZZ_POSTGRES_DSN" ;;
      mariadb) [ -n "${POLYFUZZ_MARIADB_DSN:-}" ] || continue; arg="mariadb=$POLYFUZZ_MARIADB_DSN" ;;
      mysql) [ -n "${POLYFUZZ_MYSQL_DSN:-}" ] || continue; arg="mysql=$POLYFUZZ_MYSQL_DSN" ;;
      *) arg="$eng" ;;
    esac
    for o in $SQL_ORACLES; do
      dir="$out/$eng-$o"
      if ! "$bin" sql --dbms "$arg" --oracle "$o" -j 1 --budget "$budget" --seed 1 --quiet --out "$dir" >"$dir.log" 2>&1; then
        if [ ! -f "$dir/stats.jsonl" ]; then
          echo "| $eng | $o | not run: $dir.log | | | | | |"
          continue
        fi
      fi
      python3 - "$eng" "$o" "$dir" <<'EOF'
import json, os, sys
eng, o, d = sys.argv[1:4]
last = json.loads(open(os.path.join(d, "stats.jsonl")).read().splitlines()[-1])
el = last["elapsed_s"] or 1
skips = sum(last.get("skips", {}).values())
checks = last["checks"]
valid = 100 * last["valid"] / max(1, last["statements"])
finds = len(os.listdir(os.path.join(d, "findings"))) if os.path.isdir(os.path.join(d, "findings")) else 0
print(f"| {eng} | {o} | {checks/el:,.0f} | {last['tests']/el:,.0f} | {last['efficiency']:.2f} | {valid:.1f}% | "
      f"{100*skips/max(1, skips+checks):.1f}% | {finds} |")
EOF
    done
  done
}
