# shellcheck shell=bash
# _polyfuzz_tmp [DIR] prints where a throwaway server keeps its data: DIR when given (the
# caller's POLYFUZZ_*_TMP), else /dev/shm when it is writable with a gigabyte free, else TMPDIR or
# /tmp. Sourced by scripts/sqlservers.sh, neo4j.sh and falkordb.sh.
_polyfuzz_tmp() {
  if [ -n "${1:-}" ]; then
    echo "$1"
    return
  fi
  local free
  free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }') || true
  if [ -w /dev/shm ] && [ "${free:-0}" -ge 1048576 ]; then
    echo /dev/shm
  else
    echo "${TMPDIR:-/tmp}"
  fi
}
