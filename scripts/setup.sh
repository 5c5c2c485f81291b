#!/usr/bin/env bash
# Shared set-up for scripts/run and scripts/test: installs the Debian packages Blockwise needs
# (only those missing; sudo only when not root), then configures and builds into build/.
# Usage: source scripts/setup.sh; bw_setup [cmake targets…]
set -euo pipefail

BW_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BW_BUILD="${BW_BUILD:-$BW_ROOT/build}"

BW_PACKAGES=(
  build-essential cmake pkg-config git
  libeigen3-dev libboost-dev nlohmann-json3-dev libcli11-dev
  libimgui-dev libglfw3-dev libgl-dev libx11-dev libgl1-mesa-dri libstb-dev libfreetype-dev libfontconfig-dev libqrencode-dev fonts-noto-cjk
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth xdotool x11-utils x11-xkb-utils x11-apps
  dpkg-dev file lintian desktop-file-utils shared-mime-info libglib2.0-bin
  python3-jsonschema
)
# The web edition's toolchain (Emscripten, chromium, fonttools …: BW_WEB_PACKAGES in web-setup.sh)
# when the browser test runs: BLOCKWISE_WEB=1, scripts/test's default (scripts/run does not need it).
if [ "${BLOCKWISE_WEB:-0}" = 1 ]; then
  source "$BW_ROOT/scripts/web-setup.sh"
  BW_PACKAGES+=("${BW_WEB_PACKAGES[@]}")
fi

bw_install_packages() {
  local missing=()
  for p in "${BW_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  echo "blockwise: installing ${missing[*]}"
  local SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

bw_setup() {
  bw_install_packages
  cmake -S "$BW_ROOT" -B "$BW_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${BW_CMAKE_ARGS:-}
  local jobs
  jobs="$(nproc 2>/dev/null || echo 2)"
  if [ $# -gt 0 ]; then
    for t in "$@"; do cmake --build "$BW_BUILD" -j"$jobs" --target "$t"; done
  else
    cmake --build "$BW_BUILD" -j"$jobs"
  fi
}
