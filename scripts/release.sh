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
#
# The binary is linked against glibc 2.17's symbol versions (GLIBC_2.17 at most), so it runs
# on any x86-64 Linux with glibc 2.17 or newer: RHEL/CentOS 7 and later, Debian 8 and later,
# Ubuntu 14.04 and later. It is built with `cargo zigbuild --target
# x86_64-unknown-linux-gnu.2.17`: zig links against the symbol versions of that glibc (as
# the Python wheel's scripts/release-python.sh does through maturin). cargo-zigbuild and zig
# come from PyPI (`cargo-zigbuild`, `ziglang`) into a venv under target/release-zig/: nothing
# is installed by hand, and Rust's own toolchain is the workspace's. From nothing the release
# build took 73 minutes on two cores shared with other work (load average 27); after a change
# to the server, 5 minutes.
#
# The script checks what it packs: the binary's newest GLIBC_ symbol version (the line "glibc
# floor" on stderr) must be at most the floor asked for, else it stops with the symbol that
# needs more.
#
# Usage: bash scripts/release.sh [--binary PATH] [--glibc X.Y] [--out DIR] [--fast]
#   --binary PATH  package this already built `majiang` instead of building one (the tests use
#                  their debug build, linked against the build host's glibc); without
#                  --glibc any floor is accepted for it
#   --glibc X.Y    the glibc the binary must run on (default 2.17 when building; a binary that
#                  needs a newer one is refused)
#   --out DIR      where to put the archive (default dist/)
#   --fast         compress fast (gzip -1; the tests, whose debug binary is large)
# Prints the archive's path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
glibc=""
out="dist"
level=9
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --glibc) glibc="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --fast) level=1; shift ;;
        *) echo "release.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -n "$glibc" ] && ! [[ "$glibc" =~ ^2\.[0-9]+$ ]]; then
    echo "release.sh: --glibc wants a version like 2.17, not $glibc" >&2
    exit 2
fi
target=$(rustc -vV | sed -n 's/^host: //p')
if [ -z "$binary" ]; then
    glibc="${glibc:-2.17}"
    venv="target/release-zig/venv"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install -q --disable-pip-version-check \
        "cargo-zigbuild>=0.19,<0.25" "ziglang>=0.13" >&2
    PATH="$PWD/$venv/bin:$PATH" cargo zigbuild --release --locked -p majiang-cli \
        --target "$target.$glibc" >&2
    binary="target/$target/release/majiang"
fi
[ -x "$binary" ] || { echo "release.sh: no executable at $binary" >&2; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
name="majiang-$version-$target"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/bin" "$out"
# The debug information apart, the binary stripped of it and of its symbol table, and linked
# to the debug file by name.
objcopy --only-keep-debug "$binary" "$out/$name.debug"
objcopy --strip-all --add-gnu-debuglink="$out/$name.debug" "$binary" "$stage/$name/bin/majiang"
floor=$(objdump -T "$stage/$name/bin/majiang" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
floor="${floor#GLIBC_}"
echo "release.sh: bin/majiang $(stat -c %s "$stage/$name/bin/majiang") bytes stripped" \
    "($(stat -c %s "$binary") before); debug information in $out/$name.debug;" \
    "glibc floor $floor" >&2
if [ -n "$glibc" ] && [ "$(printf '%s\n%s\n' "$glibc" "$floor" | sort -V | tail -n 1)" != "$glibc" ]; then
    needs=$(objdump -T "$stage/$name/bin/majiang" | grep -F "GLIBC_$floor)" | awk '{ print $NF }' | head -n 3 | tr '\n' ' ')
    echo "release.sh: bin/majiang needs glibc $floor (${needs% }), newer than the $glibc asked for" >&2
    rm -f "$out/$name.debug"
    exit 1
fi
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
