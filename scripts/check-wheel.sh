#!/usr/bin/env bash
# Installs a majiang wheel into a fresh venv with no Rust toolchain on PATH and runs the
# example of docs/python.md in it (scripts/release-python.sh calls it; so does the pytest
# test test_wheel.py when a wheel has been built).
#
#   bash scripts/check-wheel.sh target/wheels/majiang-…whl
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WHEEL="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
# The interpreter itself, not a shim (pyenv's need its own environment).
PY="$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')"
PY_BIN="$(dirname "$PY")"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# PATH without cargo and rustc: only the system's directories and the interpreter's own.
CLEAN_PATH="$PY_BIN:/usr/local/bin:/usr/bin:/bin"
for tool in cargo rustc rustup; do
    if PATH="$CLEAN_PATH" command -v "$tool" >/dev/null 2>&1; then
        echo "check-wheel: $tool is still on the clean PATH ($CLEAN_PATH)" >&2
        exit 1
    fi
done

echo "== a fresh venv, the wheel and its [rl] extra, no Rust on PATH"
env -i HOME="$WORK" PATH="$CLEAN_PATH" "$PY" -m venv "$WORK/venv"
env -i HOME="$WORK" PATH="$WORK/venv/bin:$CLEAN_PATH" \
    "$WORK/venv/bin/python" -m pip install -q --disable-pip-version-check "$WHEEL[rl]"

# The first ```python block of docs/python.md, as a user would paste it.
"$PY" - "$ROOT/docs/python.md" "$WORK/example.py" <<'PYEOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
block = re.search(r"```python\n(.*?)```", text, re.S)
if block is None:
    sys.exit("docs/python.md has no python example")
open(sys.argv[2], "w", encoding="utf-8").write(block.group(1))
PYEOF
echo "== the docs/python.md example in it"
(cd "$WORK" && env -i HOME="$WORK" PATH="$WORK/venv/bin:$CLEAN_PATH" "$WORK/venv/bin/python" example.py)
env -i HOME="$WORK" PATH="$WORK/venv/bin:$CLEAN_PATH" "$WORK/venv/bin/python" -c '
import majiang, majiang._core as core
assert core.__file__.endswith(".abi3.so"), core.__file__
print("wheel OK:", core.__file__.rsplit("/", 1)[-1])
'
