#!/usr/bin/env bash
# run_cond_rescale.sh — one device call for the Hopper kernel's conditional O rescale (kernel_hopper.cu
# kCondRescale, on by default): the GPU tests (test_cuda_hopper also under BW_HOPPER_RESCALE=always,
# test_cuda_attention, test_cuda_decode), compute-sanitizer memcheck and synccheck on a subset of
# test_cuda_hopper, `hopper_bench grid full hopper` conditional / always / conditional / always (one binary,
# back to back in one call), then the full `hopper_bench grid` (both kernels, counters, records, warp phases)
# and SDPA flash / cuDNN by the same method, and issue 33's table (bench/gpu/issue33_table.py).
# Binaries: $BW_PACK (.nextpack), gzipped. Results: $OUT/cond_rescale.tgz.
source "$(dirname "$0")/device_prelude.sh" cond_rescale
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$R/summary.txt"
for t in test_cuda_hopper test_cuda_attention test_cuda_decode; do
  timeout 150 "$P/$t" > "$R/$t.log" 2>&1; echo "$t rc=$?" | tee -a "$R/summary.txt"
done
BW_HOPPER_RESCALE=always timeout 150 "$P/test_cuda_hopper" > "$R/test_cuda_hopper_always.log" 2>&1
echo "test_cuda_hopper (always) rc=$?" | tee -a "$R/summary.txt"
sanitize_hopper
pack
k=0
for s in conditional always conditional always; do
  k=$((k + 1))
  if [ $s = always ]; then export BW_HOPPER_RESCALE=always; else unset BW_HOPPER_RESCALE; fi
  timeout 150 "$P/hopper_bench" grid full hopper > "$R/grid_$k.$s.jsonl" 2>> "$R/grid.err"
  echo "grid $k $s rc=$?" | tee -a "$R/summary.txt"
done
unset BW_HOPPER_RESCALE
pack
peer_table
pack
rm -rf "$R"
ls -la "$OUT"
