# shellcheck shell=bash
# The cached cargo project of the Ascent target (targets/ascent), built ahead of tests and
# campaigns so that they do not pay for the first compile of the ascent crate and its
# dependencies (10-30 s, after a download from crates.io the first time).
#
# Usage (bash):
#   source scripts/ascent.sh
#   ascent_prepare   # builds ascent-VERSION/w0 under the cache directory once; later calls take
#                    # a fraction of a second
#
# The cache directory is POLYFUZZ_ASCENT_DIR, else $XDG_CACHE_HOME/polyfuzz/ascent, else
# ~/.cache/polyfuzz/ascent: the default of targets/ascent's Options.Dir. The project gets
# targets/ascent's Cargo.toml and Cargo.lock, as the target writes them; other workers' projects
# (w1, w2, ...) start from a copy of w0's built dependencies. Needs cargo (rustup:
# https://rustup.rs); installs nothing.

_ASCENT_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../targets/ascent" && pwd)"

# ascent_prepare builds the worker-0 project of the Ascent target.
ascent_prepare() {
  local cargo dir version
  cargo=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
  if [ ! -x "$cargo" ]; then
    echo "ascent_prepare: cargo not found; install Rust with rustup (https://rustup.rs)" >&2
    return 1
  fi
  version=$(awk '/^name = "ascent"$/ {getline; gsub(/version = |"/, ""); print; exit}' "$_ASCENT_SRC/Cargo.lock")
  dir="${POLYFUZZ_ASCENT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/polyfuzz/ascent}/ascent-$version/w0"
  mkdir -p "$dir/src" || return 1
  cp "$_ASCENT_SRC/Cargo.toml" "$_ASCENT_SRC/Cargo.lock" "$dir/"
  [ -f "$dir/src/main.rs" ] || echo 'fn main() {}' >"$dir/src/main.rs"
  if ! (cd "$dir" && CARGO_TARGET_DIR="$dir/target" CARGO_INCREMENTAL=0 "$cargo" build --locked --quiet); then
    echo "ascent_prepare: building $dir failed; check that crates.io is reachable" >&2
    return 1
  fi
  touch "$dir/polyfuzz.ready"
  echo "ascent $version: $dir is built"
}
