#!/usr/bin/env bash
# Builds the book (docs/, listed by docs/SUMMARY.md) into target/book/ with mdBook and checks
# that every link and anchor inside it leads somewhere. Installs what is missing first: mdBook
# with cargo (`cargo install --locked`, the search feature only: no local server or file
# watcher to build), the link checker (LinkChecker) with pip into target/book-tools/.
#
#   bash scripts/book.sh            # build and check; open target/book/index.html
#
# mdBook itself fails on a SUMMARY.md entry whose page is missing (create-missing = false in
# docs/book.toml); an {{#include}} that names no file fails here (mdBook only reports it). LinkChecker then walks the built
# HTML from index.html, checking every local link and, with its AnchorCheck plugin, every
# #anchor; links to other sites are not fetched (CI has no network beyond the registries).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MDBOOK_VERSION="0.5.4"
export PATH="$HOME/.cargo/bin:$PATH"
if [[ "$(mdbook --version 2>/dev/null)" != *"v$MDBOOK_VERSION" ]]; then
    echo "book: installing mdbook $MDBOOK_VERSION"
    cargo install --locked --quiet mdbook --version "$MDBOOK_VERSION" \
        --no-default-features --features search
fi
# LinkChecker from PyPI in a venv of its own under target/ (pip takes no system-wide lock,
# so this runs beside CI's apt-get installs).
TOOLS="$ROOT/target/book-tools"
LINKCHECKER_VERSION="10.6.0"
if ! "$TOOLS/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('linkchecker') != '$LINKCHECKER_VERSION')" 2>/dev/null; then
    echo "book: installing linkchecker $LINKCHECKER_VERSION into target/book-tools/"
    "${PYTHON:-python3}" -m venv "$TOOLS"
    "$TOOLS/bin/python" -m pip install -q --disable-pip-version-check "linkchecker==$LINKCHECKER_VERSION"
fi

# README.md is not in the book (GitHub shows it at the top): its links to files are checked
# here, each relative to the repository's top.
missing=0
while read -r link; do
    case "$link" in http:* | https:* | mailto:* | "#"*) continue ;; esac
    [ -e "${link%%#*}" ] || { echo "book: README.md links to $link, which does not exist" >&2; missing=1; }
done < <(grep -o ']([^)]*)' README.md | sed 's/^](//; s/)$//')
[ "$missing" = 0 ] || exit 1

rm -rf target/book
# mdBook reports an {{#include}} it cannot read as an ERROR line but still exits 0: any ERROR
# fails the build here.
mkdir -p target
mdbook build docs 2>&1 | tee target/book-build.log
if grep -q "ERROR" target/book-build.log; then
    echo "book: mdbook reported errors (above)" >&2
    exit 1
fi
echo "book: built target/book/index.html"

# LinkChecker run as root drops to the user nobody, who may not be allowed into the checkout
# (a clone under /root): it checks a world-readable copy instead.
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
cp -r target/book/. "$copy/"
chmod -R a+rX "$copy"
chmod a+rx "$copy"
config="$copy/linkcheckerrc"
printf '[filtering]\ncheckextern=0\n[AnchorCheck]\n' >"$config"
# Every page is a starting point (mdBook's sidebar is drawn by a script, so not every page is
# reached by following links). print.html repeats every page on one (its links point inside
# it): the pages are checked one by one instead, in seconds rather than minutes. LinkChecker
# exits 1 on a broken link or a missing anchor (a warning: warnings count); the report names
# the page, line and link.
mapfile -t pages < <(find "$copy" -name '*.html' ! -name print.html | sort)
if ! "$TOOLS/bin/linkchecker" --config "$config" --no-status --ignore-url='/print\.html' \
    "${pages[@]}" >"$copy/report.txt" 2>&1; then
    cat "$copy/report.txt"
    echo "book: broken links or anchors (above)" >&2
    exit 1
fi
echo "book: $(grep -o '[0-9]* links in [0-9]* URLs checked' "$copy/report.txt" || echo 'links checked'): every link and anchor inside the book resolves"
