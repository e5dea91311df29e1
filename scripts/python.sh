# Defines python_env, which makes the project's Python environment: a virtual environment in the
# repository's .venv with the pinned packages of scripts/requirements.txt (clingo, cozo-embedded),
# and exports POLYFUZZ_PYTHON, the interpreter the Python targets (targets/clingo, targets/cozo)
# then use.
#
# Usage: source scripts/python.sh && python_env
#
# The environment is made again when it is missing, broken, or older than requirements.txt (a
# copy of the installed requirements is kept in .venv/requirements.txt). PYTHON names the
# interpreter that creates it (default python3, 3.10 or newer).

python_env() {
  local root req venv base
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  req="$root/scripts/requirements.txt"
  venv="$root/.venv"
  base="${PYTHON:-python3}"
  if [ ! -x "$venv/bin/python3" ] || ! cmp -s "$req" "$venv/requirements.txt" ||
    ! "$venv/bin/python3" -c 'import clingo, cozo_embedded' 2>/dev/null; then
    echo "python_env: making $venv from $req" >&2
    rm -rf "$venv"
    "$base" -m venv "$venv" || {
      echo "python_env: $base -m venv failed: install Python 3.10+ with its venv module (Debian: apt-get install python3-venv)" >&2
      return 1
    }
    "$venv/bin/python3" -m pip install -q --disable-pip-version-check -r "$req" || {
      echo "python_env: pip could not install $req into $venv: check the network or the pip index, then run python_env again" >&2
      rm -rf "$venv"
      return 1
    }
    cp "$req" "$venv/requirements.txt"
  fi
  export POLYFUZZ_PYTHON="$venv/bin/python3"
}
