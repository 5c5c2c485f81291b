#!/usr/bin/env bash
# Shared by scripts/web, scripts/test (its browser test) and scripts/bench-web: installs the web
# toolchain when missing, then builds the web edition into build-web/ (BW_WEB_BUILD to change it).
# Usage: source scripts/web-setup.sh; bw_web_build
set -euo pipefail

BW_ROOT="${BW_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
BW_WEB_BUILD="${BW_WEB_BUILD:-$BW_ROOT/build-web}"
# Debian packages of the web edition (the desktop's are BW_PACKAGES in scripts/setup.sh):
# Emscripten (its JS optimiser needs node-acorn), header-only libraries the app compiles in, fonttools
# for the CJK subset, Debian's chromium for the browser test and the benchmark.
BW_WEB_PACKAGES=(emscripten node-acorn fonttools fonts-noto-cjk libboost-dev libeigen3-dev
                 nlohmann-json3-dev libcli11-dev libstb-dev dpkg-dev chromium python3)

bw_web_install() {
  local missing=() p
  for p in "${BW_WEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # node and npm: Debian's when none is installed (a nodesource node conflicts with Debian's npm).
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  local SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "blockwise-web: installing ${missing[*]}"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  # Dear ImGui 1.86 sources (the version of libimgui-dev) from Debian's source package: needs a deb-src
  # entry for the same suite; nothing else is downloaded.
  local src="$BW_WEB_BUILD/imgui-src"
  if [ ! -f "$src/imgui/imgui.cpp" ]; then
    if ! apt-get source --print-uris imgui >/dev/null 2>&1; then
      local suite
      suite="$(. /etc/os-release && echo "$VERSION_CODENAME")"
      echo "blockwise-web: adding a deb-src entry for $suite (for apt-get source imgui)"
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$suite" | $SUDO tee /etc/apt/sources.list.d/blockwise-deb-src.sources >/dev/null
      $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    fi
    mkdir -p "$src"
    (cd "$src" && apt-get source --download-only imgui >/dev/null 2>&1 && rm -rf imgui && mkdir imgui &&
       tar -xf imgui_*.orig.tar.* -C imgui --strip-components=1)
  fi
}

# puppeteer-core (npm, not Debian) into build-web/npm (git-ignored), for the browser test and the
# benchmark: set-up, not build. puppeteer-core 24 supports node >= 18 (25 needs 22); it drives Debian's
# chromium and downloads no browser.
bw_web_driver() {
  BW_WEB_NPM="$BW_WEB_BUILD/npm"
  if [ ! -d "$BW_WEB_NPM/node_modules/puppeteer-core" ]; then
    PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix "$BW_WEB_NPM" --no-audit --no-fund puppeteer-core@24 >/dev/null
  fi
}

bw_web_build() {
  bw_web_install
  local b="$BW_WEB_BUILD"
  mkdir -p "$b/sysinc" "$b/fonts"
  # Debian's header-only libraries, each linked on its own (not all of /usr/include: host headers
  # must not shadow Emscripten's libc).
  local h
  for h in nlohmann boost CLI eigen3 stb; do ln -sfn "/usr/include/$h" "$b/sysinc/$h"; done
  if [ ! -f "$b/fonts/blockwise-cjk.otf" ] || [ -n "$(find "$BW_ROOT/lessons" "$BW_ROOT/src" "$BW_ROOT/assets/scenarios" -newer "$b/fonts/blockwise-cjk.otf" -name '*.*' -print -quit)" ]; then
    "$BW_ROOT/scripts/font-subset" "$b/fonts/blockwise-cjk.otf"
  fi
  # Deep links name lessons by id (?lesson=RC-T3): the id → file index, read from the lessons themselves.
  python3 - "$BW_ROOT/lessons" "$b/lesson-index.json" <<'PY'
import json, pathlib, sys
index = {}
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    try:
        j = json.loads(f.read_text(encoding="utf-8"))
    except ValueError:
        continue
    if isinstance(j, dict) and isinstance(j.get("id"), str) and "steps" in j:
        index[j["id"]] = f.name
pathlib.Path(sys.argv[2]).write_text(json.dumps(index, indent=1) + "\n")
PY
  # The schemas, served beside index.html at the path their "$id" names (src/data/schema_url.h:
  # https://<host>/schemas/<name>.schema.json), so a "$schema" URL resolves wherever the site is hosted.
  mkdir -p "$b/schemas"
  cp "$BW_ROOT"/schemas/*.schema.json "$b/schemas/"
  local launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
  # Debian's emscripten needs Debian's acorn; a node from elsewhere does not look in /usr/share/nodejs.
  export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
  emcmake cmake -S "$BW_ROOT/web" -B "$b" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    -DIMGUI_DIR="$b/imgui-src/imgui" -DBW_SYSINC="$b/sysinc" -DBW_FONT="$b/fonts/blockwise-cjk.otf" >/dev/null
  cmake --build "$b" -j"$(nproc 2>/dev/null || echo 2)" ${BW_WEB_MAKE_ARGS:+-- $BW_WEB_MAKE_ARGS}
}
