#!/usr/bin/env bash
# build_here.sh — builds the GPU test and benchmark binaries on this (GPU-less) machine with nvcc and
# copies them, stripped, to .devbuild/ (ignored via .git/info/exclude), which the device call carries (at
# most 64 MiB in all): the H200 image may lack the Debian -dev packages (gtest, nlohmann) the CMake build
# needs. Static gtest and static cudart; the binaries need only libstdc++/libc there.
# Build dir: $BW_CUDA_BUILD, else $TMPDIR/blockwise-build-cuda (/tmp without TMPDIR). -j: $BW_JOBS (2).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BW_CUDA_BUILD:-${TMPDIR:-/tmp}/blockwise-build-cuda}
cmake -S "$root" -B "$build" -DBLOCKWISE_GUI=OFF -DBLOCKWISE_CUDA=ON -DBLOCKWISE_BENCH=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"${BW_JOBS:-2}" --target test_cuda_attention test_gpu_record cuda_attention_bench blockwise-cli \
  test_cuda_decode test_decode_plan cuda_decode_bench test_cuda_hopper hopper_bench \
  test_cuda_ring test_ring_schedule blockwise-ring
mkdir -p "$root/.devbuild"
cp "$build/tests/cuda/test_cuda_attention" "$build/tests/cuda/test_gpu_record" "$build/src/cuda/cuda_attention_bench" \
   "$build/src/cli/blockwise-cli" "$build/tests/cuda/test_cuda_decode" "$build/tests/cuda/test_decode_plan" \
   "$build/src/cuda/cuda_decode_bench" "$build/tests/cuda/test_cuda_hopper" "$build/src/cuda/hopper_bench" \
   "$build/tests/cuda/test_cuda_ring" "$build/tests/cuda/test_ring_schedule" "$build/src/cuda/blockwise-ring" "$root/.devbuild/"
strip "$root"/.devbuild/{test_cuda_attention,test_gpu_record,cuda_attention_bench,blockwise-cli,test_cuda_decode,test_decode_plan,cuda_decode_bench,test_cuda_hopper,hopper_bench,test_cuda_ring,test_ring_schedule,blockwise-ring}
mkdir -p "$root/.git/info"
grep -qx "/.devbuild/" "$root/.git/info/exclude" || echo '/.devbuild/' >> "$root/.git/info/exclude"
ls -la "$root/.devbuild"
