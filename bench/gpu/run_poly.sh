#!/usr/bin/env bash
# run_poly.sh — one device call for the Hopper kernel's polynomial exponentials (src/cuda/exp2_poly.h,
# kernel_hopper.cu PolyNb): test_cuda_hopper with every built share (BW_HOPPER_POLY = 0, 3, 5, 7 of 16
# column pairs on the FMA pipe), then `hopper_bench grid full hopper` for the shares in the order
# 0 5 3 7 0 5 (the same binary, back to back in one call: the 0/5 pair twice, A B A B), then SDPA flash /
# cuDNN by the same method (bench/gpu/sdpa_peer_bench.py). Binaries: $BW_PACK (.nextpack), gzipped.
# Results: $OUT/poly.tgz.
set -u
P=${BW_PACK:-.nextpack}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
R=$OUT/r; mkdir -p "$R"
export PYTHONUNBUFFERED=1
for z in "$P"/*.gz; do gzip -dc "$z" > "${z%.gz}"; chmod +x "${z%.gz}"; done
pack() { (cd "$R" && tar czf "$OUT/poly.tgz" .); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$R/summary.txt"
for s in 0 3 5 7; do
  BW_HOPPER_POLY=$s timeout 150 "$P/test_cuda_hopper" > "$R/test_hopper_poly$s.log" 2>&1
  echo "test_cuda_hopper poly=$s rc=$?" | tee -a "$R/summary.txt"
done
pack
k=0
for s in 0 5 3 7 0 5; do
  k=$((k + 1))
  BW_HOPPER_POLY=$s timeout 150 "$P/hopper_bench" grid full hopper > "$R/grid_$k.poly$s.jsonl" 2>> "$R/grid.err"
  echo "grid $k poly=$s rc=$?" | tee -a "$R/summary.txt"
  pack
done
timeout 170 python3 bench/gpu/sdpa_peer_bench.py > "$R/sdpa.jsonl" 2> "$R/sdpa.err"; echo "sdpa rc=$?" | tee -a "$R/summary.txt"
pack
rm -rf "$R"
ls -la "$OUT"
