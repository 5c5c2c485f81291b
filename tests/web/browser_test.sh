#!/usr/bin/env bash
# The web edition's browser test (issue 14; see browser_test.mjs): builds build-web/ (scripts/web's
# build), installs puppeteer-core into build-web/npm (git-ignored; npm, not Debian), serves the site
# on 127.0.0.1 and drives Debian's chromium. Needs the desktop app built (build/src/app/blockwise) for
# the reference dumps. Output (dumps, screenshots) in $BW_WEB_OUT (default: build-web/test-out).
# Usage: tests/web/browser_test.sh [desktop app]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../scripts/web-setup.sh"
desktop="${1:-${BW_BUILD:-$BW_ROOT/build}/src/app/blockwise}"
[ -x "$desktop" ] || { echo "browser_test: the desktop app is not built ($desktop)" >&2; exit 1; }
bw_web_build
bw_web_driver
npm_dir="$BW_WEB_NPM"
out="${BW_WEB_OUT:-$BW_WEB_BUILD/test-out}"
mkdir -p "$out"
# A lesson bundle for the ?src= link, packed by the desktop build's blockwise-cli into the served folder.
cli="$(dirname "$desktop")/../cli/blockwise-cli"
mkdir -p "$BW_WEB_BUILD/test-src"
"$cli" bundle "$BW_ROOT/lessons/rc-t3.json" -o "$BW_WEB_BUILD/test-src/rc-t3.bundle.json" >/dev/null
rm -f "$BW_WEB_BUILD/test-src/missing.bundle.json"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$BW_WEB_BUILD" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break; sleep 0.1; done
# The live class's part drives the desktop teacher app in this display (xdotool): the whole run is
# inside one Xvfb server; BW_WEB_ROOT is what the teacher's class serves.
BW_WEB_ROOT="$BW_WEB_BUILD" NODE_PATH="$npm_dir/node_modules" \
  xvfb-run -a -s "-screen 0 1280x720x24" node "$here/browser_test.mjs" "http://127.0.0.1:$port/" "$desktop" "$out"
