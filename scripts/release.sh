#!/usr/bin/env bash
# Builds the release archive: dist/majiang-VERSION-TARGET.tar.gz holding
#   bin/majiang          the one binary (server, CLI and the web UI embedded in it), stripped
#   majiang.service      a systemd unit (hardened: scripts/unit-security.sh checks its rating)
#   majiang.env          an example configuration (every `serve` setting as an environment variable)
#   Caddyfile            a TLS reverse proxy in front of it
#   HOSTING.md           the book's hosting pages (docs/hosting/: hosting, limits, cluster,
#                        operating-a-cluster)
# and beside it dist/majiang-VERSION-TARGET.debug, the binary's debug information (objcopy
# --only-keep-debug; the stripped binary names it in its .gnu_debuglink, so gdb and
# backtrace tools find it when it lies beside the binary or under /usr/lib/debug).
# The binary links the build host's glibc: built on Debian 12 it needs glibc 2.34 or newer
# (Debian 12, Ubuntu 22.04 and 24.04, RHEL 9 and their kin; not Debian 11, Ubuntu 20.04 or
# RHEL 8). The line "glibc floor" printed on stderr says what this build needs.
# Usage: bash scripts/release.sh [--binary PATH] [--out DIR]
#   --binary PATH  package this already built `majiang` instead of building one (`cargo build
#                  --release -p majiang-cli`); the tests use their debug build
#   --out DIR      where to put the archive (default dist/)
#   --fast         compress fast (gzip -1; the tests, whose debug binary is large)
# Prints the archive's path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
out="dist"
level=9
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --fast) level=1; shift ;;
        *) echo "release.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -z "$binary" ]; then
    cargo build --release --locked -p majiang-cli >&2
    binary="target/release/majiang"
fi
[ -x "$binary" ] || { echo "release.sh: no executable at $binary" >&2; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
target=$(rustc -vV | sed -n 's/^host: //p')
name="majiang-$version-$target"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/bin" "$out"
# The debug information apart, the binary stripped of it and of its symbol table, and linked
# to the debug file by name.
objcopy --only-keep-debug "$binary" "$out/$name.debug"
objcopy --strip-all --add-gnu-debuglink="$out/$name.debug" "$binary" "$stage/$name/bin/majiang"
floor=$(objdump -T "$stage/$name/bin/majiang" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
echo "release.sh: bin/majiang $(stat -c %s "$stage/$name/bin/majiang") bytes stripped" \
    "($(stat -c %s "$binary") before); debug information in $out/$name.debug;" \
    "glibc floor ${floor#GLIBC_}" >&2
cp packaging/majiang.service packaging/majiang.env packaging/Caddyfile "$stage/$name/"
# The book's hosting pages as one document: each page's headings one level down under a title.
{
    echo "# Hosting majiang"
    for page in hosting limits cluster operating-a-cluster; do
        [ -s "docs/hosting/$page.md" ] || { echo "release.sh: docs/hosting/$page.md is missing" >&2; exit 1; }
        echo
        # Headings (not the lines of a code block that start with #) go one level down.
        awk '/^ *```/ { fence = !fence } !fence && /^#/ { $0 = "#" $0 } { print }' "docs/hosting/$page.md"
    done
} > "$stage/$name/HOSTING.md"
tar -C "$stage" -cf - "$name" | gzip -"$level" > "$out/$name.tar.gz"
echo "$out/$name.tar.gz"
