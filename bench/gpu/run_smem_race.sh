#!/usr/bin/env bash
# run_smem_race.sh — one device call after the shared-memory attribute fix (src/cuda/cuda_util.h
# EnsureDynamicSmem): the local ring's test 20 times over (before the fix every one of 15 repeats had a
# failing test: "TcKernel launch: invalid argument" / "too many resources requested for launch", the
# ranks' threads racing on cudaFuncSetAttribute), every kernel's GPU test once, the 4-rank ring table; then, if
# .shotpack is carried (bench/gpu/pack_panel_shot.sh), the live Hopper panel shots in en and zh.
# Binaries: gzipped in $BW_PACK (default .nextpack). Results: $OUT/smem_race.tgz (+ the shots).
set -u
P=${BW_PACK:-.nextpack}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
mkdir -p "$OUT/r"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
for z in "$P"/*.gz; do gzip -dc "$z" > "${z%.gz}"; chmod +x "${z%.gz}"; done
R=$OUT/r
pack() { (cd "$R" && tar czf "$OUT/smem_race.tgz" .); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$R/summary.txt"
timeout 200 "$P/test_cuda_ring" --gtest_repeat=20 > "$R/ring_repeat.log" 2>&1
echo "test_cuda_ring x20 rc=$? runs_passed=$(grep -c '^\[  PASSED  \] 4 tests' "$R/ring_repeat.log")/20" | tee -a "$R/summary.txt"
grep -E "local ring|FAILED  \]" "$R/ring_repeat.log" | head -5
for t in test_cuda_attention test_cuda_hopper test_cuda_decode; do
  [ -x "$P/$t" ] || continue
  timeout 150 "$P/$t" > "$R/$t.log" 2>&1; echo "$t rc=$?" | tee -a "$R/summary.txt"
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" "$R/$t.log" | head -4
done
pack
if [ -x "$P/blockwise-ring" ]; then
  timeout 40 "$P/blockwise-ring" --transport local --ranks 4 --n 16384 --d 128 --heads 8 --order zigzag --causal --warmup 2 \
    > "$R/ring_table.txt" 2>&1; echo "ring table rc=$?" | tee -a "$R/summary.txt"; tail -12 "$R/ring_table.txt"
fi
pack
if [ -f .shotpack/panel_shots.sh ]; then BW_SHOTS=hopper OUT=$OUT bash .shotpack/panel_shots.sh | tail -8; fi
rm -rf "$R"
ls -la "$OUT"
