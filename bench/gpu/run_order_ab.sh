#!/usr/bin/env bash
# run_order_ab.sh — the device call for issue 33's grid-order change (kernels.h TileGrid): the GPU tests of
# both our attention kernels, then `hopper_bench grid` twice in the same call (BW_TILE_ORDER=heads: heads
# fastest under a causal mask, and BW_TILE_ORDER=rows, the head-major order), SDPA flash / cuDNN by
# the same method, and bench/gpu/order_table.py's table. On an H200 it also records the Hopper kernel with
# one head (N 8192, d 128, causal and not, 4 sampled CTAs): the FA-2 recordings' problem, for FA3's compare.
# Binaries prebuilt in .devbuild/ (bench/gpu/build_here.sh). Results in $OUT.
set -u
B=${BW_DEVBUILD:-.devbuild}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
echo "== order A/B $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
for t in $([ "${BW_AB_TESTS:-1}" = 1 ] && echo test_cuda_attention test_cuda_hopper); do  # BW_AB_TESTS=0: run elsewhere in the call
  timeout 200 "$B/$t" > "$OUT/$t.log" 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" "$OUT/$t.log" | head -8
done
BW_TILE_ORDER=heads timeout 200 "$B/hopper_bench" grid > "$OUT/grid_heads.jsonl" 2> "$OUT/grid.err"; echo "grid (heads) rc=$?"
BW_TILE_ORDER=rows timeout 200 "$B/hopper_bench" grid > "$OUT/grid_rows.jsonl" 2>> "$OUT/grid.err"; echo "grid (rows) rc=$?"
timeout 200 python3 bench/gpu/sdpa_peer_bench.py > "$OUT/sdpa.jsonl" 2> "$OUT/sdpa.err"; echo "sdpa rc=$?"
python3 bench/gpu/order_table.py "$OUT/grid_heads.jsonl" "$OUT/grid_rows.jsonl" "$OUT/sdpa.jsonl" | tee "$OUT/order_table.md"
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')
if [ "$card" = h200 ]; then
  for c in 0 1; do
    f="$OUT/recorded_run_h200_hopper_bf16_n8192_d128_h1_$([ $c = 1 ] && echo causal_top_left || echo none).json"
    timeout 60 "$B/hopper_bench" record 8192 128 $c 1 4 "$f"; echo "record rc=$?"
  done
fi
echo "== end $(date -u +%FT%TZ)"
# At most 8 files come back from a call: all but the recordings go into one archive.
(cd "$OUT" && tar czf order_ab.tgz --exclude=order_ab.tgz --exclude='recorded_run_*' . && find . -mindepth 1 ! -name order_ab.tgz ! -name 'recorded_run_*' -delete)
