#!/usr/bin/env bash
# run_opt.sh — one device call for the Hopper consumers' options (kernel_hopper.cu kOpt: bit 0 the
# conditional O rescale, bit 1 the row sums from the tensor core at d 64): test_cuda_hopper under every
# BW_HOPPER_OPT (0-3), compute-sanitizer memcheck and synccheck on a subset under BW_HOPPER_OPT=3, then
# `hopper_bench grid full hopper` for the options in the order 0 3 1 2 0 3 (one binary, back to back in one
# call: 0/3 twice, A B A B), the ping-pong-off schedule once (BW_HOPPER_SCHED=1), and SDPA flash / cuDNN by
# the same method (bench/gpu/sdpa_peer_bench.py). Binaries: $BW_PACK (.nextpack), gzipped.
# Results: $OUT/opt.tgz.
set -u
P=${BW_PACK:-.nextpack}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
R=$OUT/r; mkdir -p "$R"
export PYTHONUNBUFFERED=1
for z in "$P"/*.gz; do gzip -dc "$z" > "${z%.gz}"; chmod +x "${z%.gz}"; done
pack() { (cd "$R" && tar czf "$OUT/opt.tgz" .); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$R/summary.txt"
for s in 0 1 2 3; do
  BW_HOPPER_OPT=$s timeout 150 "$P/test_cuda_hopper" > "$R/test_hopper_opt$s.log" 2>&1
  echo "test_cuda_hopper opt=$s rc=$?" | tee -a "$R/summary.txt"
done
for tool in memcheck synccheck; do
  BW_HOPPER_OPT=3 BW_CUDA_TEST_SUBSET=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 "$P/test_cuda_hopper" \
    > "$R/sanitizer_$tool.log" 2>&1
  echo "sanitizer $tool opt=3 rc=$? $(grep -h 'ERROR SUMMARY' "$R/sanitizer_$tool.log" | tail -1)" | tee -a "$R/summary.txt"
done
pack
k=0
for s in 0 3 1 2 0 3; do
  k=$((k + 1))
  BW_HOPPER_OPT=$s timeout 150 "$P/hopper_bench" grid full hopper > "$R/grid_$k.opt$s.jsonl" 2>> "$R/grid.err"
  echo "grid $k opt=$s rc=$?" | tee -a "$R/summary.txt"
  pack
done
BW_HOPPER_SCHED=1 timeout 150 "$P/hopper_bench" grid full hopper > "$R/grid_7.sched1.jsonl" 2>> "$R/grid.err"
echo "grid 7 sched=1 rc=$?" | tee -a "$R/summary.txt"
timeout 170 python3 bench/gpu/sdpa_peer_bench.py > "$R/sdpa.jsonl" 2> "$R/sdpa.err"; echo "sdpa rc=$?" | tee -a "$R/summary.txt"
pack
rm -rf "$R"
ls -la "$OUT"
