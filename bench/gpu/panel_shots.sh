#!/usr/bin/env bash
# panel_shots.sh — on the GPU machine, from the folder pack_panel_shot.sh filled: the app's GPU panel
# running LIVE, drawn offscreen through EGL by gpu_panel_shot, captured mid-run and finished. PNGs
# and the log go to $OUT (default ./shots). Runs as root there (it unpacks the GL loaders into /).
# BW_SHOTS=hopper: only the Hopper kernel's shots (4 PNGs and the log: a device call brings back at most
# 8 files; all of them make 11 PNGs). A test_cuda_hopper beside this script (the pack copies it when
# BW_PACK_TEST names one) runs first: test_cuda_hopper, the live Hopper GpuRun's test among them, on this GPU.
set -uo pipefail
pack=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$pack/shots}
mkdir -p "$out"
exec > >(tee "$out/panel_shots.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# The binaries travel gzipped (pack_panel_shot.sh): unpacked beside this script.
for z in "$pack"/*.gz; do [ -f "$z" ] && gzip -dc "$z" > "${z%.gz}" && chmod +x "${z%.gz}"; done
for f in "$pack"/gl/*.deb; do dpkg -x "$f" /; done
ldconfig
# The driver's EGL vendor file, where this image keeps it (the loader looks in /usr/share by default).
for v in /usr/share/glvnd/egl_vendor.d/10_nvidia.json /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
  if [ -f "$v" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$v; break; fi
done
echo "EGL vendor file: ${__EGL_VENDOR_LIBRARY_FILENAMES:-none found}"
mkdir -p /tmp/bw-fc
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>/tmp/bw-fc</cachedir></fontconfig>\n' "$pack/fonts" > /tmp/bw-fc/fonts.conf
export FONTCONFIG_FILE=/tmp/bw-fc/fonts.conf BLOCKWISE_ROOT=$pack/root
shot() { LD_LIBRARY_PATH=$pack/lib "$pack/gpu_panel_shot" --out "$out" "$@"; echo "exit $?"; }
LD_LIBRARY_PATH=$pack/lib ldd "$pack/gpu_panel_shot" | grep -E "not found|EGL|OpenGL" || true
if [ -x "$pack/test_cuda_hopper" ]; then
  "$pack/test_cuda_hopper"; echo "test_cuda_hopper exit $?"
fi
if [ "${BW_SHOTS:-all}" != hopper ]; then
# fp32 teaching kernel, N = 8192, d = 128, causal, each computed tile held 20 ms (slow motion):
# about 2.6 s, captured when 40 % of the computed tiles are done and at the end.
shot --live fp32,8192,128,1,20 --name gpu-panel-live-fp32-causal --mid 0.4
# The same, not causal, 10 ms per tile.
shot --live fp32,8192,128,0,10 --name gpu-panel-live-fp32 --mid 0.5
# bf16 tensor-core kernel at full speed (0.3 ms): the finished run and its roofline point.
shot --live bf16,8192,128,0,0 --name gpu-panel-live-bf16 --mid 0
# The first one again in Chinese (the classroom's language), captured at 60 %.
shot --live fp32,8192,128,1,20 --name gpu-panel-live-fp32-causal-zh --mid 0.6 --lang zh
fi
# The Hopper kernel (FA-3 class, issue 33; sm_90 only) live at full speed, N = 8192, d = 128, not causal and
# causal, warp phases logged in 3 sampled CTAs: the finished run with its warp timeline (and its zoom), at
# 1920 x 1080, in English and in Chinese. (A run lasts about 0.2 ms: no mid-run capture.)
for mask in 0 1; do
  tag=$([ $mask = 1 ] && echo -causal || true)
  for lang in en zh; do
    shot --live hopper,8192,128,$mask,0,3 --name gpu-panel-live-hopper$tag-$lang --mid 0 --lang $lang --width 1920 --height 1080
  done
done
ls -la "$out"
