#!/usr/bin/env bash
# pack_panel_shot.sh DEST — builds gpu_panel_shot (src/tools; needs nvcc and the GUI packages, no GPU)
# and packs what it needs on a bare GPU machine with no display into DEST, for one device call
# (docs/performance.md, "The live panel seen on the H200"):
#   DEST/gpu_panel_shot.gz   the program (stripped, gzipped: panel_shots.sh unpacks it; the device call carries
#                            at most 64 MiB with the working tree, whose tracked files are about 11 MiB)
#   DEST/lib/                the shared libraries it needs beyond glibc, libstdc++ and OpenGL/EGL
#   DEST/gl/*.deb            libglvnd's EGL/OpenGL loaders (libegl1 libglvnd0 libopengl0 libgl1 libglx0):
#                            the NVIDIA driver brings the vendor library, not the loaders
#   DEST/fonts/              Noto Sans CJK, as fontconfig finds it here (the app's font)
#   DEST/root/               lessons/ and assets/gpu/ ($BLOCKWISE_ROOT there)
#   DEST/panel_shots.sh      the script to run there
#   DEST/test_cuda_hopper.gz when BW_PACK_TEST names that binary (bench/gpu/build_here.sh's; stripped, gzipped): run first
# BW_SHOT_BUILD: the build folder (default build-shot in the repository).
set -euo pipefail
dest=${1:?usage: pack_panel_shot.sh DEST}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BW_SHOT_BUILD:-$root/build-shot}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBLOCKWISE_CUDA=ON -DBLOCKWISE_TESTS=OFF -DBLOCKWISE_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target gpu_panel_shot
mkdir -p "$dest/lib" "$dest/gl" "$dest/fonts" "$dest/root/assets"
dest=$(cd "$dest" && pwd)
rm -f "$dest/gpu_panel_shot" "$dest/test_cuda_hopper" "$dest/test_cuda_hopper.gz"
strip -o "$dest/gpu_panel_shot" "$build/src/tools/gpu_panel_shot"
# Libraries: everything ldd resolves except the C runtime, the C++ runtime and the GL loaders.
ldd "$build/src/tools/gpu_panel_shot" | awk '/=> \// {print $1, $3}' | while read -r name path; do
  case "$name" in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) ;;
    libEGL.so*|libOpenGL.so*|libGL.so*|libGLX.so*|libGLdispatch.so*) ;;
    *) cp -L "$path" "$dest/lib/$name" ;;
  esac
done
(cd "$dest/gl" && rm -f ./*.deb &&
 o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/bw-amd64-lists' &&
 mkdir -p /tmp/bw-amd64-lists/partial && apt-get $o update >/dev/null && apt-get $o download libegl1 libglvnd0 libopengl0 libgl1 libglx0)
font=$(fc-match -f '%{file}' 'Noto Sans CJK SC:style=Regular')
cp "$font" "$dest/fonts/"
rm -rf "$dest/root/lessons" "$dest/root/assets/gpu"
cp -r "$root/lessons" "$dest/root/"
cp -r "$root/assets/gpu" "$dest/root/assets/"
cp "$root/bench/gpu/panel_shots.sh" "$dest/"
if [ -n "${BW_PACK_TEST:-}" ]; then strip -o "$dest/test_cuda_hopper" "$BW_PACK_TEST" && gzip -9f "$dest/test_cuda_hopper"; fi
gzip -9f "$dest/gpu_panel_shot"
du -sh "$dest"; ls -la "$dest" "$dest/lib"
