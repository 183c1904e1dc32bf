#!/usr/bin/env bash
# Installs PostgreSQL's server binaries (initdb, pg_ctl, postgres) for the tests that run a
# throw-away cluster (crates/majiang-server/tests/store_suite.rs, crates/majiang-cli/tests/
# failover.rs). Debian packages; needs root. Harmless when they are there already.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "install-postgres: $(ls -d /usr/lib/postgresql/*/bin | tail -1) already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends postgresql
# The package starts a cluster of its own on port 5432; the tests start their own.
echo "install-postgres: $(ls -d /usr/lib/postgresql/*/bin | tail -1)"
