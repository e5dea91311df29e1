# shellcheck shell=bash
# SQLancer, the anchor SQL fuzzer that docs/benchmarks.md measures polyfuzz against, built from
# its source at a pinned commit with Maven. Not part of the tests.
#
# Usage (bash):
#   source scripts/sqlancer.sh
#   sqlancer_prepare                          # clones and builds once under the cache directory
#   sqlancer_rate sqlancer norec sqlite 60    # SQLancer's NoREC checks per second over 60 s
#   sqlancer_rate polyfuzz tlp-where postgres 60
#   sqlancer_table                            # the whole side-by-side table (about 20 minutes)
#
# ORACLE is norec, tlp-where or pqs; DBMS is sqlite or postgres (the server of
# POLYFUZZ_POSTGRES_DSN; scripts/sqlservers.sh's sqlservers_start sets it). Every run is pinned to one core
# (taskset -c SQLANCER_CORE, default 0). The cache directory is $XDG_CACHE_HOME/polyfuzz/sqlancer,
# else ~/.cache/polyfuzz/sqlancer; SQLANCER_GIT names another clone to copy from (a mirror).
#
# A check is one oracle comparison on both sides:
#   NoREC      SQLancer: optimized + unoptimized query; polyfuzz: opt-count or opt-rows + unopt.
#   TLP-WHERE  SQLancer: the original query + the partitions' UNION ALL (or, with ORDER BY, the
#              three partitions apart); polyfuzz: the original query + the three partitions.
#   PQS        SQLancer: the pivot row fetch + the containment query; polyfuzz: the fetch, and
#              derived from it the pivot's existence and the containment query.
# SQLancer's progress line "Executed N queries" counts oracle checks that ran to the end
# (ProviderAdapter increments it after each check() that is not skipped by IgnoreMeException);
# polyfuzz's campaign totals count checks that were not skipped. Both therefore leave out checks
# whose queries failed with an expected error.

_SQLANCER_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_SQLANCER_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz/sqlancer"
_SQLANCER_COMMIT=2bdf043
# The PostgreSQL databases SQLancer creates are named PREFIX0 (one thread); it connects first to a
# database named "test" (PostgresProvider ignores the path of its connection URL).
_SQLANCER_PGPREFIX=sqlancerbench

# sqlancer_prepare clones SQLancer at its pinned commit and builds its jar with Maven (once).
sqlancer_prepare() {
  local d=$_SQLANCER_DIR
  mkdir -p "$(dirname "$d")" || return 1
  if [ ! -d "$d/.git" ]; then
    git clone -q "${SQLANCER_GIT:-https://github.com/sqlancer/sqlancer}" "$d" || return 1
  fi
  git -C "$d" checkout -q "$_SQLANCER_COMMIT" || return 1
  if [ "$(cat "$d/target/.built" 2>/dev/null)" != "$_SQLANCER_COMMIT" ]; then
    (cd "$d" && mvn -q package -DskipTests) || return 1
    echo "$_SQLANCER_COMMIT" >"$d/target/.built"
  fi
}

# _sqlancer_pg prints "HOST PORT USER DB" of POLYFUZZ_POSTGRES_DSN; with "password" it prints the
# password alone (for a variable, never for the terminal).
_sqlancer_pg() {
  [ -n "${POLYFUZZ_POSTGRES_DSN:-}" ] || { echo "sqlancer: POLYFUZZ_POSTGRES_DSN is not set" >&2; return 1; }
  python3 - "$1" <<'EOF'
import os, sys, urllib.parse
u = urllib.parse.urlparse(os.environ["POLYFUZZ_POSTGRES_DSN"])
if sys.argv[1] == "password":
    print(urllib.parse.unquote(u.password or ""))
else:
    print(u.hostname or "localhost", u.port or 5432, urllib.parse.unquote(u.username or ""), u.path.lstrip("/") or "postgres")
EOF
}

# sqlancer_pg_setup creates the entry database "test" SQLancer connects to, when the server has
# none (and remembers that it did); the DSN's user must be allowed to create databases.
sqlancer_pg_setup() {
  local have
  have=$(psql "$POLYFUZZ_POSTGRES_DSN" -Atc "SELECT 1 FROM pg_database WHERE datname = 'test'") || return 1
  if [ "$have" != 1 ]; then
    psql "$POLYFUZZ_POSTGRES_DSN" -qc "CREATE DATABASE test" || return 1
    touch "$_SQLANCER_DIR/.created-test"
  fi
}

# sqlancer_pg_cleanup drops the databases SQLancer created, and "test" if sqlancer_pg_setup made it.
sqlancer_pg_cleanup() {
  local db
  for db in $(psql "$POLYFUZZ_POSTGRES_DSN" -Atc \
    "SELECT datname FROM pg_database WHERE datname LIKE '${_SQLANCER_PGPREFIX}%'"); do
    psql "$POLYFUZZ_POSTGRES_DSN" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
  done
  if [ -e "$_SQLANCER_DIR/.created-test" ]; then
    psql "$POLYFUZZ_POSTGRES_DSN" -qc "DROP DATABASE IF EXISTS test WITH (FORCE)" && rm -f "$_SQLANCER_DIR/.created-test"
  fi
}

# _sqlancer_polyfuzz builds polyfuzz once per shell into the cache directory, unless
# SQLANCER_POLYFUZZ names a polyfuzz binary built elsewhere.
_sqlancer_polyfuzz() {
  if [ -z "${SQLANCER_POLYFUZZ:-}" ] && [ -z "${_SQLANCER_PF_BUILT:-}" ]; then
    (cd "$_SQLANCER_REPO" && go build -o "$_SQLANCER_DIR/polyfuzz" ./cmd/polyfuzz) || return 1
    _SQLANCER_PF_BUILT=1
  fi
}

# sqlancer_rate TOOL ORACLE DBMS SECONDS runs TOOL (sqlancer or polyfuzz) with one oracle (norec,
# tlp-where, pqs) on DBMS (sqlite, postgres) on one core for SECONDS and prints
# "TOOL DBMS ORACLE CHECKS SECONDS CHECKS/S VALID% STEADY/S CPU CHECKS/CPU-S" (VALID: the share of
# statements the engine answered without error, as the tool counts it; STEADY: checks per second
# over the second half of the run; CPU: the tool's CPU seconds; then checks per CPU second over
# the whole run and, for SQLancer, over the second half (without the JVM's start); "-" when the
# tool lacks the oracle).
# SQLANCER_SEED (default 1) seeds both tools.
sqlancer_rate() {
  local tool=$1 oracle=$2 dbms=$3 secs=$4 d=$_SQLANCER_DIR out checks elapsed valid steady cpu steadycpu=""
  local core=${SQLANCER_CORE:-0} seed=${SQLANCER_SEED:-1}
  out=$(mktemp -d)
  case $tool in
  sqlancer)
    local name args=() host port user db pw
    case $oracle in
    norec) name=NoREC ;;
    tlp-where) name=WHERE ;;
    pqs) name=PQS ;;
    *) echo "sqlancer_rate: unknown oracle $oracle" >&2; return 1 ;;
    esac
    case $dbms in
    sqlite) args=(sqlite3 --oracle "$name") ;;
    postgres)
      read -r host port user db < <(_sqlancer_pg) || return 1
      pw=$(_sqlancer_pg password) || return 1
      [ "$name" = NoREC ] && name=NOREC
      # Tablespaces need a superuser (CREATE TABLESPACE); the DSN's user is none, so they are off.
      args=(--host "$host" --port "$port" --username "$user" --password "$pw"
        --database-prefix "$_SQLANCER_PGPREFIX" postgres --test-tablespaces false --oracle "$name")
      ;;
    *) echo "sqlancer_rate: unknown dbms $dbms" >&2; return 1 ;;
    esac
    # SQLancer's defaults otherwise; at this commit --log-each-select false fails an assertion
    # (MainOptions.logExecutionTime), so it logs each statement to OUT/logs as its users' runs do.
    # It prints "Executed N queries (...)" every 5 s (a fixed-rate schedule): N after k lines
    # took 5k s.
    (cd "$out" && /usr/bin/time -o "$out/cpu" -f "%U %S" timeout $((secs + 30)) taskset -c "$core" java -jar "$d"/target/sqlancer-*.jar \
      --num-threads 1 --timeout-seconds "$secs" --random-seed "$seed" "${args[@]}" >"$out/log" 2>&1) &
    # The JVM's CPU ticks at each progress line, for its rate per CPU second without its start.
    local job=$! jpid="" lines
    while kill -0 "$job" 2>/dev/null; do
      [ -z "$jpid" ] && jpid=$(pgrep -n -f "sqlancer-.*--random-seed $seed .*$name" 2>/dev/null)
      if [ -n "$jpid" ] && [ -r "/proc/$jpid/stat" ]; then
        lines=$(grep -c 'Executed [0-9]* queries' "$out/log" 2>/dev/null)
        awk -v l="$lines" '{print l, $14 + $15}' "/proc/$jpid/stat" >>"$out/ticks" 2>/dev/null
      fi
      sleep 0.5
    done
    wait "$job"
    checks=$(grep -o 'Executed [0-9]* queries' "$out/log" | tail -1 | awk '{print $2}')
    elapsed=$((5 * $(grep -c 'Executed [0-9]* queries' "$out/log")))
    # The second half's rate leaves out the JVM's start and warm-up and the first database.
    steady=$(grep -o 'Executed [0-9]* queries' "$out/log" | awk '{n[NR] = $2} END {
      h = int(NR / 2); if (NR > h && h > 0) printf "%.1f", (n[NR] - n[h]) / (5 * (NR - h)); else print 0}')
    # Checks per CPU second of the second half: the checks between the middle line and the last
    # line sampled, over the JVM's CPU ticks (1/100 s) between the first samples at those lines.
    steadycpu=$(grep -o 'Executed [0-9]* queries' "$out/log" | awk -v tf="$out/ticks" '{n[NR] = $2} END {
      h = int(NR / 2); e = 0
      while ((getline line < tf) > 0) {
        split(line, a, " "); if (!(a[1] in t)) t[a[1]] = a[2]; if (a[1] + 0 > e) e = a[1] + 0 }
      if (h > 0 && e > h && (h in t) && t[e] > t[h]) printf "%.1f", (n[e] - n[h]) / ((t[e] - t[h]) / 100)
      else print "-" }')
    valid=$(grep -o 'successful statements: *[0-9]*%' "$out/log" | tail -1 | grep -o '[0-9]*%')
    ;;
  polyfuzz)
    _sqlancer_polyfuzz || return 1
    local engine=$dbms
    local pf=${SQLANCER_POLYFUZZ:-$d/polyfuzz}
    if ! "$pf" sql --help 2>&1 | grep -q "$oracle"; then
      echo "$tool $dbms $oracle - - - - - - - -"
      rm -rf "$out"
      return 0
    fi
    [ "$dbms" = postgres ] && engine=postgres=$POLYFUZZ_POSTGRES_DSN
    /usr/bin/time -o "$out/cpu" -f "%U %S" timeout $((secs + 60)) taskset -c "$core" "$pf" sql --dbms "$engine" --oracle "$oracle" -j 1 \
      --budget "${secs}s" --seed "$seed" --quiet --out "$out/run" >"$out/log" 2>&1
    read -r checks elapsed valid steady < <(python3 - "$out/run/campaign.json" "$out/run/stats.jsonl" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
lines = [json.loads(l) for l in open(sys.argv[2])]
half = [l for l in lines if l["elapsed_s"] <= t["elapsed_s"] / 2]
h = half[-1] if half else {"elapsed_s": 0, "checks": 0}
steady = (t["checks"] - h["checks"]) / max(t["elapsed_s"] - h["elapsed_s"], 1e-9)
print(t["checks"], "%.1f" % t["elapsed_s"], "%.1f%%" % (100 * t["valid"] / max(t["statements"], 1)), "%.1f" % steady)
EOF
    )
    ;;
  *)
    echo "sqlancer_rate: unknown tool $tool" >&2
    return 1
    ;;
  esac
  # CPU time of the tool's processes (user + system; polyfuzz's isolated child included, a
  # server's own time not): checks per CPU second hold still when other work loads the machine.
  # (GNU time writes "Command exited with non-zero status N" first when the tool's status is not 0.)
  cpu=$(tail -1 "$out/cpu" 2>/dev/null | awk '{printf "%.2f", $1 + $2}')
  echo "$tool $dbms $oracle ${checks:-0} ${elapsed:-0} $(awk -v c="${checks:-0}" -v s="${elapsed:-0}" \
    'BEGIN {if (s > 0) printf "%.1f", c / s; else print 0}') ${valid:--} ${steady:-0} ${cpu:-0} $(awk \
    -v c="${checks:-0}" -v s="${cpu:-0}" 'BEGIN {if (s > 0) printf "%.1f", c / s; else print 0}') ${steadycpu:--}"
  [ "${checks:-0}" = 0 ] && [ -z "${SQLANCER_KEEP:-}" ] && sed 's/^/  | /' "$out/log" | tail -20 >&2
  rm -rf "$out"
}

# sqlancer_table [SECONDS] [ROUNDS] prepares everything, measures SQLancer and polyfuzz in
# alternating rounds (SQLancer, polyfuzz, SQLancer, polyfuzz ...; SQLancer on core 0 and polyfuzz
# on core 1 in odd rounds, swapped in even ones) for NoREC and TLP-WHERE on SQLite and
# PostgreSQL and PQS on SQLite, cleans the server up, and prints the Markdown table.
# SQLANCER_ENGINES (default "sqlite postgres") limits the engines; without POLYFUZZ_POSTGRES_DSN
# PostgreSQL is left out.
sqlancer_table() {
  local secs=${1:-60} rounds=${2:-2} cfg dbms oracle r s p line
  sqlancer_prepare || return 1
  _sqlancer_polyfuzz || return 1
  if [ -n "${POLYFUZZ_POSTGRES_DSN:-}" ]; then
    sqlancer_pg_setup || return 1
  fi
  echo "| engine | oracle | SQLancer checks/s, rounds (second halves) | polyfuzz checks/s, rounds (second halves) | ratio of means (second halves) | checks per CPU second, SQLancer (second halves); polyfuzz | ratio of means | valid statements, SQLancer; polyfuzz |"
  echo "|---|---|---|---|---|---|---|---|"
  for cfg in "sqlite norec" "sqlite tlp-where" "sqlite pqs" "postgres norec" "postgres tlp-where"; do
    read -r dbms oracle <<<"$cfg"
    case " ${SQLANCER_ENGINES:-sqlite postgres} " in *" $dbms "*) ;; *) continue ;; esac
    if [ "$dbms" = postgres ] && [ -z "${POLYFUZZ_POSTGRES_DSN:-}" ]; then
      continue
    fi
    s=() p=()
    for ((r = 1; r <= rounds; r++)); do
      line=$(SQLANCER_SEED=$r SQLANCER_CORE=$(((r + 1) % 2)) sqlancer_rate sqlancer "$oracle" "$dbms" "$secs")
      echo "  $line" >&2
      s+=("$line")
      line=$(SQLANCER_SEED=$r SQLANCER_CORE=$((r % 2)) sqlancer_rate polyfuzz "$oracle" "$dbms" "$secs")
      echo "  $line" >&2
      p+=("$line")
    done
    printf '%s\n' "${s[@]}" "${p[@]}" | awk -v dbms="$dbms" -v oracle="$oracle" '
      function add(l, x) { return l (l != "" ? " / " : "") x }
      $1 == "sqlancer" { sr = add(sr, $6); sh = add(sh, $8); ss += $6; st += $8; sn++; sv = add(sv, $7)
        c = ($11 != "-" && $11 != "") ? $11 : $10; sc = add(sc, c); scm += c }
      $1 == "polyfuzz" && $6 != "-" { pr = add(pr, $6); ph = add(ph, $8); ps += $6; pt += $8; pn++; pv = add(pv, $7)
        pc = add(pc, $10); pcm += $10 }
      END {
        ratio = (pn && sn && ss > 0) ? sprintf("%.1fx", (ps / pn) / (ss / sn)) : "-"
        if (pn && sn && st > 0) ratio = ratio sprintf(" (%.1fx)", (pt / pn) / (st / sn))
        cratio = (pn && sn && scm > 0) ? sprintf("%.1fx", (pcm / pn) / (scm / sn)) : "-"
        printf "| %s | %s | %s (%s) | %s | %s | %s; %s | %s | %s; %s |\n", dbms, oracle, sr, sh,
          (pn ? pr " (" ph ")" : "-"), ratio, sc, (pn ? pc : "-"), cratio, sv, (pn ? pv : "-")
      }'
  done
  if [ -n "${POLYFUZZ_POSTGRES_DSN:-}" ]; then
    sqlancer_pg_cleanup
  fi
}
