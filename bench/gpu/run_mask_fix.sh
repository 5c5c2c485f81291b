#!/usr/bin/env bash
# run_mask_fix.sh — one device call for the causal mask's per-row limit (src/cuda/mma_common.cuh
# MaskFragment, used by the Hopper and FA-2 tensor-core kernels): the kernels' GPU tests, then
# `hopper_bench grid` with the new binary and with the one before the change ($BW_PACK/hopper_bench_before,
# built from the previous commit) back to back in the same call, SDPA flash / cuDNN by the same method, and
# a recording with warp phases (N 8192, d 128, causal, 4 heads, 4 sampled CTAs) whose diagonal tiles'
# softmax time bench/gpu/warp_table.py reports. Results: $OUT/mask_fix.tgz (+ the recording).
source "$(dirname "$0")/device_prelude.sh" mask_fix
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$R/summary.txt"
for t in test_cuda_hopper test_cuda_attention test_cuda_decode; do
  timeout 150 "$P/$t" > "$R/$t.log" 2>&1; echo "$t rc=$?" | tee -a "$R/summary.txt"
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" "$R/$t.log" | head -4
done
pack
timeout 120 "$P/hopper_bench" grid > "$R/grid_after.jsonl" 2> "$R/grid.err"; echo "grid (after) rc=$?" | tee -a "$R/summary.txt"
[ -x "$P/hopper_bench_before" ] && { timeout 120 "$P/hopper_bench_before" grid > "$R/grid_before.jsonl" 2>> "$R/grid.err"; echo "grid (before) rc=$?" | tee -a "$R/summary.txt"; }
pack
timeout 150 python3 bench/gpu/sdpa_peer_bench.py > "$R/sdpa.jsonl" 2> "$R/sdpa.err"; echo "sdpa rc=$?" | tee -a "$R/summary.txt"
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')
f="$OUT/recorded_run_${card}_hopper_bf16_n8192_d128_causal_top_left.json"
timeout 60 "$P/hopper_bench" record 8192 128 1 4 4 "$f"; echo "record rc=$?" | tee -a "$R/summary.txt"
python3 bench/gpu/warp_table.py "$f" | tee "$R/warp_table.md"
mkdir -p "$R/t"; cp "$R/grid_after.jsonl" "$R/t/peer.jsonl"; cp "$R/sdpa.jsonl" "$R/t/sdpa_peer.jsonl"
python3 bench/gpu/issue33_table.py "$R/t" | tee "$R/peer_after.md"
rm -rf "$R/t"
pack
rm -rf "$R"
ls -la "$OUT"
