#!/usr/bin/env bash
# run_heads_default.sh — one device call for issue 33 and 36 once heads-fastest is the causal default
# (src/cuda/kernels.h HeadsFastest): the ring's GPU test (local transport; its error names every rank's
# cause), both attention kernels' GPU tests under the new default and under BW_TILE_ORDER=rows, the grid
# peer table for both orders with SDPA flash / cuDNN by the same method (bench/gpu/order_table.py), and on
# an H200 the one-head Hopper recordings for FA3's like-for-like compare.
# Binaries: gzipped in $BW_PACK (default .nextpack) — test_cuda_ring, test_cuda_attention, test_cuda_hopper,
# hopper_bench from bench/gpu/build_here.sh. Results: $OUT/heads_default.tgz and the recordings.
set -u
P=${BW_PACK:-.nextpack}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
for z in "$P"/*.gz; do gzip -dc "$z" > "${z%.gz}"; chmod +x "${z%.gz}"; done
pack() { (cd "$OUT" && tar czf heads_default.tgz --exclude=heads_default.tgz --exclude='recorded_run_*' .); }
echo "== start $(date -u +%FT%TZ)" | tee "$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee -a "$OUT/summary.txt"
timeout 60 "$P/test_cuda_ring" > "$OUT/test_cuda_ring.log" 2>&1; echo "test_cuda_ring rc=$?" | tee -a "$OUT/summary.txt"
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]|local ring" "$OUT/test_cuda_ring.log" | head -8
for t in test_cuda_hopper test_cuda_attention; do
  timeout 150 "$P/$t" > "$OUT/$t.log" 2>&1; echo "$t (default order) rc=$?" | tee -a "$OUT/summary.txt"
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" "$OUT/$t.log" | head -6
done
pack
BW_TILE_ORDER=rows timeout 60 "$P/test_cuda_hopper" --gtest_filter='CudaHopper.Random*:CudaHopper.Causal*' > "$OUT/test_cuda_hopper_rows.log" 2>&1
echo "test_cuda_hopper random+causal (rows order) rc=$?" | tee -a "$OUT/summary.txt"
timeout 120 "$P/hopper_bench" grid > "$OUT/grid_heads.jsonl" 2> "$OUT/grid.err"; echo "grid (default) rc=$?" | tee -a "$OUT/summary.txt"
BW_TILE_ORDER=rows timeout 120 "$P/hopper_bench" grid > "$OUT/grid_rows.jsonl" 2>> "$OUT/grid.err"; echo "grid (rows) rc=$?" | tee -a "$OUT/summary.txt"
pack
timeout 150 python3 bench/gpu/sdpa_peer_bench.py > "$OUT/sdpa.jsonl" 2> "$OUT/sdpa.err"; echo "sdpa rc=$?" | tee -a "$OUT/summary.txt"
python3 bench/gpu/order_table.py "$OUT/grid_heads.jsonl" "$OUT/grid_rows.jsonl" "$OUT/sdpa.jsonl" > "$OUT/order_table.md" 2>&1
cat "$OUT/order_table.md"
pack
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')
if [ "$card" = h200 ]; then
  for c in 0 1; do
    f="$OUT/recorded_run_h200_hopper_bf16_n8192_d128_h1_$([ $c = 1 ] && echo causal_top_left || echo none).json"
    timeout 60 "$P/hopper_bench" record 8192 128 $c 1 4 "$f"; echo "record rc=$?" | tee -a "$OUT/summary.txt"
  done
fi
echo "== end $(date -u +%FT%TZ)" | tee -a "$OUT/summary.txt"
pack
find "$OUT" -mindepth 1 ! -name heads_default.tgz ! -name 'recorded_run_*' ! -name summary.txt -delete
