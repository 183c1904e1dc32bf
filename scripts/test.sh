#!/usr/bin/env bash
# The project's one test command: the Rust workspace's tests, then the Python package
# (crates/majiang-py) built into a project-local venv and its pytest suite.
#
#   bash scripts/test.sh            # everything
#   SKIP_CARGO=1 bash scripts/test.sh   # only the Python part
#
# The venv is .venv/ at the repository root (created with python3 -m venv on first use; pip
# installs maturin, numpy, pettingzoo, gymnasium, pytest and mypy from PyPI; stable-baselines3
# is not installed: its PyPI torch pulls in the CUDA libraries, gigabytes, and its check_env
# test skips without it). The extension is built
# in release mode into target/py/ (kept apart from the workspace's target dirs, reused between
# runs). pytest finding no tests (exit 5) counts as a failure.
#
# The extension's build does not depend on the Rust tests, so it runs beside them at the lowest
# CPU priority (nice 19): it takes the cycles the tests leave idle (linking, waiting on browsers
# and timers) without slowing them. Its output goes to target/py-build.log, printed when it
# fails.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PY="${PYTHON:-python3}"
VENV="$ROOT/.venv"
PY_LOG="$ROOT/target/py-build.log"

# Makes the venv, installs the test tools and builds and installs the extension into it.
build_python_package() {
    if [[ ! -x "$VENV/bin/python" ]]; then
        "$PY" -m venv "$VENV"
    fi
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
        "maturin>=1.5,<2" numpy pettingzoo gymnasium pytest mypy
    # The maturin build backend runs the venv's maturin by name. The tests' build skips the
    # release profile's fat link-time optimisation (one codegen unit, ~60 s more to build from
    # scratch on two cores): it changes the extension's speed, not what it does. Four codegen
    # units, not cargo's 16: at opt-level 3 each unit optimises its own copies of what it
    # inlines (a third less CPU for the library, see Cargo.toml). Wheels and the benches
    # (bench/python) are built with the profile as it stands.
    PATH="$VENV/bin:$PATH" CARGO_TARGET_DIR="$ROOT/target/py" MATURIN_PEP517_ARGS="--locked" \
        CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=4 \
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall \
        --no-build-isolation "$ROOT/crates/majiang-py"
}

mkdir -p "$ROOT/target"
echo "== [${SECONDS} s] the Python package's build starts beside the Rust tests (log: target/py-build.log)"
(renice -n 19 -p "$BASHPID" >/dev/null; build_python_package) >"$PY_LOG" 2>&1 &
py_build=$!
# Stops a process and everything it started (a failing or interrupted run leaves no build behind).
kill_tree() {
    local child
    for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done
    kill "$1" 2>/dev/null || true
}
trap 'kill_tree "$py_build"' EXIT

if [[ -z "${SKIP_CARGO:-}" ]]; then
    # The PostgreSQL tests start a throw-away cluster from the server binaries: install them
    # when missing (apt-get; without root or network those tests say so loudly and skip).
    bash "$ROOT/scripts/install-postgres.sh" || echo "install-postgres.sh failed: the PostgreSQL tests will skip"
    cargo test --workspace --locked
fi

echo "== [${SECONDS} s] the Python package: build and pytest"
# The binary the score tests compare with (already built by cargo test --workspace).
cargo build -q -p majiang-cli --locked
cargo fmt --manifest-path "$ROOT/crates/majiang-py/Cargo.toml" -- --check
if ! wait "$py_build"; then
    cat "$PY_LOG" >&2
    echo "the Python package did not build (log above: target/py-build.log)" >&2
    exit 1
fi
trap - EXIT
echo "== [${SECONDS} s] the Python package is built: pytest"

status=0
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/crates/majiang-py/tests" || status=$?
if [[ $status -eq 5 ]]; then
    echo "pytest collected no tests: failing" >&2
    exit 1
fi
exit $status
