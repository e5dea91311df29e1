# shellcheck shell=bash
# A throwaway Neo4j Community server for the graph targets' tests, with Bolt on 127.0.0.1 only.
#
# Usage (bash):
#   source scripts/neo4j.sh
#   neo4j_start   # builds the launcher if needed, starts the server, exports POLYFUZZ_NEO4J_URL
#   ...           # go test ./targets/...
#   neo4j_stop    # stops only what neo4j_start started and removes its temp dir
#
# The server is embedded Neo4j (Maven Central org.neo4j:neo4j, 5.26 line, Java 17) run by the
# small launcher in tools/neo4j-launcher, which `mvn package` builds into target/ (the jar, and its
# dependencies in target/lib); neo4j_start runs that build when target/ is missing or older than
# the launcher's sources. Auth is disabled; there is one user database, neo4j (Community cannot
# create or drop databases): tests empty it with MATCH (n) DETACH DELETE n.
#
# Port: POLYFUZZ_NEO4J_PORT (default 57687). The store goes to a temp dir under POLYFUZZ_NEO4J_TMP
# (default /dev/shm when it has room, else TMPDIR or /tmp). JVM options: POLYFUZZ_NEO4J_JAVA_OPTS
# (default -Xms256m -Xmx512m). POLYFUZZ_NEO4J_TIMEOUT: seconds to wait for the server (default 120).
# Exports POLYFUZZ_NEO4J_URL=bolt://127.0.0.1:PORT. Installs nothing but the launcher's Maven
# dependencies (about 170 MB in ~/.m2); java and mvn must be on the PATH.

source "$(dirname "${BASH_SOURCE[0]}")/servertmp.sh"
_NEO4J_LAUNCHER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tools/neo4j-launcher" && pwd)"
# What neo4j_start started (kept if the file is sourced again).
_NEO4J_DIR="${_NEO4J_DIR:-}" # temp dir of the server's store and log, if any
_NEO4J_PID="${_NEO4J_PID:-}" # pid of the launcher's JVM, if any

# _neo4j_port_open PORT succeeds when something accepts TCP connections on 127.0.0.1:PORT.
_neo4j_port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# _neo4j_build builds the launcher when its jar or dependencies are missing or older than its
# pom.xml or sources.
_neo4j_build() {
  local d=$_NEO4J_LAUNCHER_DIR log
  if [ -f "$d/target/neo4j-launcher.jar" ] && [ -d "$d/target/lib" ] &&
    [ -z "$(find "$d/pom.xml" "$d/src" -newer "$d/target/neo4j-launcher.jar" -print -quit)" ]; then
    return 0
  fi
  if ! command -v mvn >/dev/null 2>&1; then
    echo "neo4j: mvn is not installed (apt-get install maven); it builds $d" >&2
    return 1
  fi
  log=$(mktemp "${TMPDIR:-/tmp}/polyfuzz-neo4j-build.XXXXXX") || return 1
  echo "neo4j: building the launcher in $d (the first build downloads about 170 MB from Maven Central)"
  if ! mvn -B -q -f "$d/pom.xml" clean package >"$log" 2>&1; then
    echo "neo4j: building the launcher failed; the last lines of the build's output:" >&2
    tail -n 40 "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

# _neo4j_fail MESSAGE prints MESSAGE and the tails of the server's logs, then stops the server.
_neo4j_fail() {
  echo "neo4j: $1; the launcher's output:" >&2
  tail -n 40 "$_NEO4J_DIR/launcher.log" >&2
  if [ -f "$_NEO4J_DIR/store/logs/debug.log" ]; then
    echo "neo4j: the end of $_NEO4J_DIR/store/logs/debug.log:" >&2
    tail -n 40 "$_NEO4J_DIR/store/logs/debug.log" >&2
  fi
  neo4j_stop
  return 1
}

# neo4j_start starts the server (or reuses one already answering on the port) and exports
# POLYFUZZ_NEO4J_URL.
neo4j_start() {
  local port="${POLYFUZZ_NEO4J_PORT:-57687}" timeout="${POLYFUZZ_NEO4J_TIMEOUT:-120}" dir i line
  export POLYFUZZ_NEO4J_URL="bolt://127.0.0.1:$port"
  if [ -n "$_NEO4J_PID" ] && kill -0 "$_NEO4J_PID" 2>/dev/null; then
    echo "neo4j on 127.0.0.1:$port (started earlier, reused)"
    return 0
  fi
  if _neo4j_port_open "$port"; then
    echo "neo4j on 127.0.0.1:$port (something already listens there, reused)"
    return 0
  fi
  if ! command -v java >/dev/null 2>&1; then
    echo "neo4j: java is not installed (apt-get install openjdk-17-jdk-headless)" >&2
    return 1
  fi
  _neo4j_build || return 1
  dir=$(mktemp -d "$(_polyfuzz_tmp "${POLYFUZZ_NEO4J_TMP:-}")/polyfuzz-neo4j.XXXXXX") || return 1
  _NEO4J_DIR=$dir
  # shellcheck disable=SC2086 # the JVM options are words
  java ${POLYFUZZ_NEO4J_JAVA_OPTS:--Xms256m -Xmx512m} -cp "$_NEO4J_LAUNCHER_DIR/target/*:$_NEO4J_LAUNCHER_DIR/target/lib/*" \
    polyfuzz.neo4j.Launcher "$port" "$dir/store" </dev/null >"$dir/launcher.log" 2>&1 &
  _NEO4J_PID=$!
  for i in $(seq 1 $((timeout * 10))); do
    line=$(grep -m 1 '^neo4j ready ' "$dir/launcher.log" 2>/dev/null) || true
    if [ -n "$line" ]; then
      echo "neo4j ${line##* } on 127.0.0.1:$port"
      return 0
    fi
    if ! kill -0 "$_NEO4J_PID" 2>/dev/null; then
      wait "$_NEO4J_PID" 2>/dev/null
      _neo4j_fail "the launcher exited with status $? before the server was ready"
      return 1
    fi
    sleep 0.1
  done
  _neo4j_fail "the server was not ready within $timeout s"
  return 1
}

# neo4j_stop stops the server neo4j_start started and removes its temp dir.
neo4j_stop() {
  local i
  if [ -n "$_NEO4J_PID" ]; then
    # SIGTERM makes the launcher shut the database down cleanly; kill it if that takes over 30 s.
    kill -TERM "$_NEO4J_PID" 2>/dev/null || true
    for i in $(seq 1 300); do
      kill -0 "$_NEO4J_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$_NEO4J_PID" 2>/dev/null || true
    wait "$_NEO4J_PID" 2>/dev/null || true
    _NEO4J_PID=""
  fi
  if [ -n "$_NEO4J_DIR" ]; then
    rm -rf "$_NEO4J_DIR"
    _NEO4J_DIR=""
  fi
  return 0
}
