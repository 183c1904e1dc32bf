#!/usr/bin/env bash
# Installs headless Chromium, its WebDriver and a CJK font (tile characters) for the server's
# end-to-end test (crates/majiang-server/tests/e2e_browser.rs). Debian packages; needs root.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && fc-list 2>/dev/null | grep -qi "zenhei"; then
  echo "install-browser: chromium, chromedriver and fonts already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-wqy-zenhei
echo "install-browser: $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium missing')"
