#!/usr/bin/env bash
# run_stage_o.sh — one device call for the Hopper kernel's O staged in shared memory and stored by TMA at
# d 64 (kernel_hopper.cu kStageO): test_cuda_hopper as built and with every mask kind persistent
# (BW_HOPPER_PERSIST=1), test_cuda_attention, compute-sanitizer memcheck and synccheck on a subset, then
# `hopper_bench grid full hopper` with the new binary and the previous commit's ($BW_PACK/hopper_bench_before)
# after / before / after / before in one call, then the full grid (both kernels) and SDPA flash / cuDNN by the
# same method, and issue 33's table. Binaries: $BW_PACK (.nextpack), gzipped. Results: $OUT/stage_o.tgz.
source "$(dirname "$0")/device_prelude.sh" stage_o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$R/summary.txt"
timeout 150 "$P/test_cuda_hopper" > "$R/test_cuda_hopper.log" 2>&1; echo "test_cuda_hopper rc=$?" | tee -a "$R/summary.txt"
BW_HOPPER_PERSIST=1 timeout 150 "$P/test_cuda_hopper" > "$R/test_cuda_hopper_persist1.log" 2>&1
echo "test_cuda_hopper persist=1 rc=$?" | tee -a "$R/summary.txt"
timeout 150 "$P/test_cuda_attention" > "$R/test_cuda_attention.log" 2>&1; echo "test_cuda_attention rc=$?" | tee -a "$R/summary.txt"
grep -h "FAILED\|Failure" "$R"/test_*.log | head -20
sanitize_hopper
pack
k=0
for b in hopper_bench hopper_bench_before hopper_bench hopper_bench_before; do
  k=$((k + 1))
  timeout 150 "$P/$b" grid full hopper > "$R/grid_$k.$b.jsonl" 2>> "$R/grid.err"
  echo "grid $k $b rc=$?" | tee -a "$R/summary.txt"
done
pack
peer_table
pack
rm -rf "$R"
ls -la "$OUT"
