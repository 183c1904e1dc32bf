#!/usr/bin/env bash
# Builds the Python package's wheel and checks it the way a user without Rust would meet it.
#
#   bash scripts/release-python.sh            # -> target/wheels/majiang-<version>-cp311-abi3-manylinux_2_28_x86_64.whl
#   SKIP_CHECK=1 bash scripts/release-python.sh   # build only
#
# The wheel is an abi3 (stable ABI) wheel for CPython 3.11 and later, tagged manylinux_2_28:
# maturin links it against glibc 2.28's symbol versions through zig (the `ziglang` package
# from PyPI; no other download), so it installs on any x86-64 Linux of 2018 or later. It is
# built with the release profile as it stands (fat link-time optimisation, one codegen unit:
# a few minutes on two cores).
#
# The check: a fresh venv (python3 -m venv), the wheel installed with its `[rl]` extra from
# the file, PATH stripped of every Rust toolchain (no cargo, no rustc), then the example of
# docs/python.md run in it and an import check that the extension is the abi3 one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PY="${PYTHON:-python3}"
BUILD_VENV="$ROOT/target/release-python/build-venv"
OUT="$ROOT/target/wheels"
mkdir -p "$OUT" "$(dirname "$BUILD_VENV")"

if [[ ! -x "$BUILD_VENV/bin/python" ]]; then
    "$PY" -m venv "$BUILD_VENV"
fi
"$BUILD_VENV/bin/python" -m pip install -q --disable-pip-version-check "maturin>=1.5,<2" ziglang

echo "== building the wheel (release profile, abi3, manylinux_2_28 through zig)"
rm -f "$OUT"/majiang-*.whl
PATH="$BUILD_VENV/bin:$PATH" CARGO_TARGET_DIR="$ROOT/target/release-python/cargo" \
    "$BUILD_VENV/bin/maturin" build --release --locked --zig \
    --compatibility manylinux_2_28 --features abi3,pyo3/extension-module \
    --manifest-path "$ROOT/crates/majiang-py/Cargo.toml" --out "$OUT"
WHEEL="$(ls "$OUT"/majiang-*-cp311-abi3-manylinux_2_28_x86_64.whl)"
echo "== built $WHEEL"

if [[ -n "${SKIP_CHECK:-}" ]]; then
    exit 0
fi
bash "$ROOT/scripts/check-wheel.sh" "$WHEEL"
