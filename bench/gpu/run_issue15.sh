#!/usr/bin/env bash
# run_issue15.sh — the one device call for issue 15 on the H200: GPU tests, the counters off / on /
# live table, the four recordings (fp32 and bf16 tensor core, N = 8192, d = 128, causal and not),
# `blockwise-cli gpu --live` on both kernels, then compute-sanitizer memcheck and racecheck (the two in
# parallel, after the timings). Binaries prebuilt here by bench/gpu/build_here.sh (BW_DEVBUILD, default
# .devbuild); results in $OUT: probe.txt tests.log bench.jsonl tables.md cli_live.txt sanitizer.log
# recordings.tgz. Each step has its own timeout so the whole call ends inside ten minutes.
set -u
B=${BW_DEVBUILD:-.devbuild}
OUT=${OUT:-/tmp/out}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/rec"
export PYTHONUNBUFFERED=1
t0=$(date +%s)
stamp() { echo "== $1 ($(( $(date +%s) - t0 )) s)"; }

stamp probe
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv; uname -r; } | tee "$OUT/probe.txt"

stamp tests
timeout 150 "$B/test_cuda_attention" > "$OUT/tests.log" 2>&1
echo "test_cuda_attention rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" "$OUT/tests.log" | head -20

stamp recordings
for alg in fp32 bf16; do
  for mask in none causal_top_left; do
    f="$OUT/rec/recorded_run_h200_${alg}_n8192_d128_${mask}.json"
    timeout 60 "$B/cuda_attention_bench" record "$f" 8192 128 64 64 "$mask" 0 "$alg" | tee -a "$OUT/bench.jsonl"
  done
done
ls -la "$OUT/rec"

stamp cli
{
  timeout 60 "$B/blockwise-cli" gpu --live --alg fp32 -n 8192 -d 128 --causal --pace-ms 2 --refresh-ms 50 --width 64
  echo "rc=$?"
  timeout 60 "$B/blockwise-cli" gpu --live --alg bf16 -n 8192 -d 128 --pace-ms 1 --refresh-ms 25 --width 64
  echo "rc=$?"
  timeout 60 "$B/blockwise-cli" gpu --live --alg bf16 -n 8192 -d 128 --width 64   # full speed
  echo "rc=$?"
} > "$OUT/cli_live.txt" 2>&1
grep -E "rc=|LIVE|kernel|roofline|counters|mismatch" "$OUT/cli_live.txt" | head -20

stamp bench-live
timeout 200 "$B/cuda_attention_bench" live >> "$OUT/bench.jsonl" 2> "$OUT/bench.err"
echo "bench live rc=$?"; tail -3 "$OUT/bench.err"

stamp sanitizer
flt='CudaAttention.*:-CudaAttention.TensorCoreLargerCausalBothAlignments'
for tool in memcheck racecheck; do
  ( BW_CUDA_TEST_SUBSET=1 timeout 170 compute-sanitizer --tool $tool --error-exitcode 9 \
      "$B/test_cuda_attention" --gtest_filter="$flt" > "$OUT/sanitizer_$tool.log" 2>&1; echo "$tool rc=$?" >> "$OUT/sanitizer_$tool.log" ) &
done
wait
cat "$OUT/sanitizer_memcheck.log" "$OUT/sanitizer_racecheck.log" > "$OUT/sanitizer.log"
rm -f "$OUT/sanitizer_memcheck.log" "$OUT/sanitizer_racecheck.log"
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc=|^\[  (PASSED|FAILED)" "$OUT/sanitizer.log"

stamp tables
python3 "$HERE/make_table.py" "$OUT/bench.jsonl" /dev/null | tee "$OUT/tables.md"
tar czf "$OUT/recordings.tgz" -C "$OUT/rec" . && rm -rf "$OUT/rec"
stamp done
