#!/usr/bin/env bash
# Installs DuckDB 1.2.2's libduckdb.so, an older release than the one polyfuzz embeds, which the
# tests of --dbms duckdb=lib: run (targets/duckdblib.TestLib): from npm's pinned package
# @duckdb/node-bindings-linux-x64 (its tarball's sha256 checked), cached in
# ~/.cache/polyfuzz/libduckdb-1.2.2/libduckdb.so. Prints the library's path.
set -euo pipefail
package=@duckdb/node-bindings-linux-x64
version=1.2.2-alpha.19
sha256=2a44da2a82ce29c25a9dbf599b73837b684413fd680596912b860bae56851b41
dir="$HOME/.cache/polyfuzz/libduckdb-1.2.2"
if [ ! -f "$dir/libduckdb.so" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  npm pack --silent --pack-destination "$tmp" "$package@$version" >/dev/null
  tgz="$tmp/duckdb-node-bindings-linux-x64-$version.tgz"
  echo "$sha256  $tgz" | sha256sum -c --quiet -
  tar -xzf "$tgz" -C "$tmp" package/libduckdb.so
  mkdir -p "$dir"
  mv "$tmp/package/libduckdb.so" "$dir/libduckdb.so.tmp"
  mv "$dir/libduckdb.so.tmp" "$dir/libduckdb.so"
fi
echo "$dir/libduckdb.so"
