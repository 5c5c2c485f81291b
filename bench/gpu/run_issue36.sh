#!/usr/bin/env bash
# run_issue36.sh — the one-GPU device call for issue 36 (ring attention over NCCL), before a multi-GPU
# machine is lent: the ring's tests with the LOCAL transport (every rank a thread on the one GPU,
# device-to-device copies; not NCCL), the launcher with the NCCL transport and 2 ranks (refused: one GPU;
# then forced onto the one GPU, where NCCL itself refuses: "Duplicate GPU detected"), and the per-step
# compute vs transfer table of the local ring at N 16384, d 128, 8 heads, 4 ranks, zig-zag and contiguous,
# causal and not, with each run's recording (kind ring_run).
# Binaries come prebuilt in .devbuild/ (bench/gpu/build_here.sh): test_cuda_ring, test_ring_schedule,
# blockwise-ring. NCCL: libnccl.so.2 from torch's wheel (BW_NCCL_LIB), opened at run time.
# Results in $OUT: probe.txt, test_cuda_ring.log, test_ring_schedule.log, memcheck.log, nccl_*.txt,
# table_*.txt and ring_*.json; packed into $OUT/issue36_results.tgz and removed (BW_NO_PACK=1 leaves them loose).
# Usage: bench/gpu/run_issue36.sh [steps...]   steps: probe tests nccl table memcheck (default: all)
set -u
B=${BW_DEVBUILD:-.devbuild}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
mkdir -p "$OUT"
steps=${*:-probe tests nccl table memcheck}
has() { [[ " $steps " == *" $1 "* ]]; }
# NVLink multicast stays off in every process (blockwise-ring also sets these in each rank it forks).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
NCCL_LIB=${BW_NCCL_LIB:-/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib}
export LD_LIBRARY_PATH="$NCCL_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "== start $(date -u +%FT%TZ)"

if has probe; then
  echo "== probe"
  { nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
    timeout 30 "$B/blockwise-ring" --probe; } 2>&1 | tee "$OUT/probe.txt"
fi

if has tests; then
  echo "== tests (local transport: threads on one GPU, not NCCL)"
  timeout 60 "$B/test_ring_schedule" > "$OUT/test_ring_schedule.log" 2>&1; echo "test_ring_schedule rc=$?"
  timeout 240 "$B/test_cuda_ring" > "$OUT/test_cuda_ring.log" 2>&1; echo "test_cuda_ring rc=$?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK \]|^\[  FAILED  \]|Failure|against|Expected|Which is" "$OUT/test_cuda_ring.log" | head -40
fi

if has nccl; then
  echo "== nccl: 2 ranks, one GPU (expected: the launcher refuses, then NCCL refuses two ranks on one device)"
  timeout 60 "$B/blockwise-ring" --transport nccl --ranks 2 --n 4096 --d 128 --heads 8 --order zigzag --causal \
    > "$OUT/nccl_refused.txt" 2>&1; echo "blockwise-ring --transport nccl rc=$? (3: too few GPUs)"; cat "$OUT/nccl_refused.txt"
  NCCL_DEBUG=WARN timeout 90 "$B/blockwise-ring" --transport nccl --ranks 2 --n 4096 --d 128 --heads 8 --order zigzag --causal \
    --allow-shared-gpu --timeout 60 > "$OUT/nccl_shared.txt" 2>&1
  echo "blockwise-ring --transport nccl --allow-shared-gpu rc=$? (4: a rank failed)"; grep -v "^$" "$OUT/nccl_shared.txt" | head -30
fi

if has table; then
  echo "== table: local ring, 4 ranks on one GPU, N 16384, d 128, 8 heads (per step and rank: ms; hidden = transfer under compute)"
  card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')
  for order in zigzag contiguous; do
    for mask in causal none; do
      flag=""; [ "$mask" = causal ] && flag="--causal"
      name="ring_${card:-gpu}_local_r4_n16384_d128_h8_${order}_${mask}"
      echo "-- $order $mask"
      timeout 120 "$B/blockwise-ring" --transport local --ranks 4 --n 16384 --d 128 --heads 8 --order $order $flag \
        --warmup 3 --json "$OUT/$name.json" > "$OUT/table_$name.txt" 2>&1; echo "rc=$?"
      cat "$OUT/table_$name.txt"
    done
  done
  echo "-- 2 ranks, zigzag causal"
  timeout 120 "$B/blockwise-ring" --transport local --ranks 2 --n 16384 --d 128 --heads 8 --order zigzag --causal --warmup 3 \
    --json "$OUT/ring_${card:-gpu}_local_r2_n16384_d128_h8_zigzag_causal.json" 2>&1 | tail -4
fi

if has memcheck; then
  echo "== compute-sanitizer memcheck (small cases)"
  if command -v compute-sanitizer >/dev/null; then
    timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/test_cuda_ring" \
      --gtest_filter='CudaRing.OtherWidthsAndRankCounts' > "$OUT/memcheck.log" 2>&1
    echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | head -5
  else
    echo "compute-sanitizer not found"
  fi
fi

echo "== end $(date -u +%FT%TZ)"
# At most 8 files come back from $OUT (the device tool's limit): this call writes about 17, so they are packed
# and the loose ones removed, as run_issue33.sh does; otherwise the tarball itself may be among those left out.
if [ "${BW_NO_PACK:-0}" != 1 ]; then
  (cd "$OUT" && files=() && for f in probe.txt test_ring_schedule.log test_cuda_ring.log memcheck.log nccl_*.txt table_*.txt ring_*.json; do
     [ -f "$f" ] && files+=("$f"); done
   ((${#files[@]})) && tar czf issue36_results.tgz "${files[@]}" && rm -f "${files[@]}") && echo "packed $OUT/issue36_results.tgz" && ls -la "$OUT"
fi
