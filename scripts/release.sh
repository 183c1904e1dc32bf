#!/usr/bin/env bash
# Builds the release archive: dist/majiang-VERSION-TARGET.tar.gz holding
#   bin/majiang          the one binary (server, CLI and the web UI embedded in it)
#   majiang.service      a systemd unit
#   majiang.env          an example configuration (every `serve` setting as an environment variable)
#   Caddyfile            a TLS reverse proxy in front of it
#   HOSTING.md           the book's hosting pages: docs/hosting/{hosting,limits,cluster}.md
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
mkdir -p "$stage/$name/bin"
cp "$binary" "$stage/$name/bin/majiang"
cp packaging/majiang.service packaging/majiang.env packaging/Caddyfile "$stage/$name/"
# The book's hosting pages as one document: each page's headings one level down under a title.
{
    echo "# Hosting majiang"
    for page in hosting limits cluster; do
        [ -s "docs/hosting/$page.md" ] || { echo "release.sh: docs/hosting/$page.md is missing" >&2; exit 1; }
        echo
        # Headings (not the lines of a code block that start with #) go one level down.
        awk '/^ *```/ { fence = !fence } !fence && /^#/ { $0 = "#" $0 } { print }' "docs/hosting/$page.md"
    done
} > "$stage/$name/HOSTING.md"
mkdir -p "$out"
tar -C "$stage" -cf - "$name" | gzip -"$level" > "$out/$name.tar.gz"
echo "$out/$name.tar.gz"
