#!/usr/bin/env bash
# run_persist.sh — one device call for the Hopper kernel's persistent grid (kernel_hopper.cu Persistent: at
# most one CTA per SM taking work tiles in turn, the default without a mask): the GPU tests (test_cuda_hopper
# as built, then with BW_HOPPER_PERSIST=1 so every mask kind runs persistent, and =0; test_cuda_attention,
# test_cuda_decode), compute-sanitizer memcheck and synccheck on a subset under BW_HOPPER_PERSIST=1, then
# `hopper_bench grid full hopper` persistent / one CTA per work tile / persistent / one CTA per work tile
# (BW_HOPPER_PERSIST=1 and 0, one binary, back to back in one call), then the full `hopper_bench grid` as
# built (both kernels, counters, records, warp phases), SDPA flash / cuDNN by the same method, and issue 33's
# table (bench/gpu/issue33_table.py), and one recording at N 1024, d 64 with warp phases.
# Binaries: $BW_PACK (.nextpack), gzipped. Results: $OUT/persist.tgz.
source "$(dirname "$0")/device_prelude.sh" persist
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$R/summary.txt"
timeout 150 "$P/test_cuda_hopper" > "$R/test_cuda_hopper.log" 2>&1; echo "test_cuda_hopper rc=$?" | tee -a "$R/summary.txt"
for v in 1 0; do
  BW_HOPPER_PERSIST=$v timeout 150 "$P/test_cuda_hopper" > "$R/test_cuda_hopper_persist$v.log" 2>&1
  echo "test_cuda_hopper persist=$v rc=$?" | tee -a "$R/summary.txt"
done
for t in test_cuda_attention test_cuda_decode; do
  timeout 150 "$P/$t" > "$R/$t.log" 2>&1; echo "$t rc=$?" | tee -a "$R/summary.txt"
done
grep -h "FAILED\|Failure" "$R"/test_*.log | head -20
pack
BW_HOPPER_PERSIST=1 sanitize_hopper "persist=1 "
pack
k=0
for v in 1 0 1 0; do
  k=$((k + 1))
  BW_HOPPER_PERSIST=$v timeout 150 "$P/hopper_bench" grid full hopper > "$R/grid_$k.persist$v.jsonl" 2>> "$R/grid.err"
  echo "grid $k persist=$v rc=$?" | tee -a "$R/summary.txt"
done
pack
peer_table
timeout 60 "$P/hopper_bench" record 1024 64 0 64 8 "$R/recorded_run_hopper_bf16_n1024_d64_none.json" >> "$R/summary.txt" 2>&1
python3 bench/gpu/warp_table.py "$R/recorded_run_hopper_bf16_n1024_d64_none.json" > "$R/warp_table.md" 2>&1
pack
rm -rf "$R"
ls -la "$OUT"
