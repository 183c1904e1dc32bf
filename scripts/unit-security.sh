#!/usr/bin/env bash
# Rates the packaged systemd unit with `systemd-analyze security --offline=yes` and fails when
# its overall exposure is above 3.0 ("OK" ends there). Prints the rating on its last line.
# Usage: bash scripts/unit-security.sh [UNIT]   (default packaging/majiang.service)
# Needs systemd-analyze: as root on Debian it installs it (apt-get install systemd) when missing;
# exits 2 when it is still missing.
set -euo pipefail
cd "$(dirname "$0")/.."
unit="${1:-packaging/majiang.service}"
if ! command -v systemd-analyze >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    # Debian's systemd package carries systemd-analyze.
    { apt-get install -y --no-install-recommends systemd || { apt-get update && apt-get install -y --no-install-recommends systemd; }; } >&2 || true
fi
command -v systemd-analyze >/dev/null || { echo "unit-security.sh: no systemd-analyze (apt-get install systemd)" >&2; exit 2; }
report=$(systemd-analyze security --offline=yes "$unit" 2>&1 || true)
line=$(grep -o 'Overall exposure level for [^:]*: [0-9.]* [A-Z]*' <<<"$report" | tail -n 1)
[ -n "$line" ] || { echo "unit-security.sh: no rating in:" >&2; echo "$report" >&2; exit 1; }
score=$(awk '{ print $(NF-1) }' <<<"$line")
echo "$line"
awk -v s="$score" 'BEGIN { exit !(s <= 3.0) }' || { echo "unit-security.sh: $unit rates $score, above 3.0" >&2; exit 1; }
