#!/usr/bin/env bash
# run_tail.sh — one device call for the Hopper kernel's CTA tail (issue 33's overhead goals): the counters
# tallied while the copies are issued instead of in a loop over T_c after the consumers finish
# (src/cuda/kernel_hopper.cu), against the binary before that change ($BW_PACK/hopper_bench_before).
# test_cuda_hopper (and test_cuda_attention when packed: its live GpuRun cases), then
# `hopper_bench grid full hopper` A B A B in one call (after, before, after, before), each reporting
# counters-on, records-on and records + warps overheads per shape. Results: $OUT/tail.tgz.
source "$(dirname "$0")/device_prelude.sh" tail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$R/summary.txt"
for t in test_cuda_hopper test_cuda_attention; do
  [ -x "$P/$t" ] || continue
  timeout 120 "$P/$t" > "$R/$t.log" 2>&1; echo "$t rc=$?" | tee -a "$R/summary.txt"
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" "$R/$t.log" | head -4
done
pack
for round in 1 2; do
  for v in after before; do
    b=$P/hopper_bench; [ $v = before ] && b=$P/hopper_bench_before
    timeout 100 "$b" grid full hopper > "$R/grid_${v}_$round.jsonl" 2>> "$R/grid.err"; echo "grid $v $round rc=$?" | tee -a "$R/summary.txt"
    pack
  done
done
rm -rf "$R"
