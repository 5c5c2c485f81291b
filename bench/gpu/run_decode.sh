#!/usr/bin/env bash
# run_decode.sh — the device call for issue 34's split-KV decode kernel: probe, GPU tests (plan on the CPU,
# kernel on the GPU), our benchmark grid and the copy rate, torch SDPA's backends on the same shapes,
# Nsight Compute bytes for one shape, compute-sanitizer memcheck on the decode test, and the table.
# Binaries come prebuilt in .devbuild/ (bench/gpu/build_here.sh). Results go to $OUT: tests.log,
# decode.jsonl, sdpa_decode.jsonl, ncu/*.csv, sanitizer.log, decode_tables.md.
# Usage: bench/gpu/run_decode.sh [steps...]   steps: probe tests bench sdpa ncu sanitizer (default all)
set -u
B=${BW_DEVBUILD:-.devbuild}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
mkdir -p "$OUT"
steps=${*:-probe tests bench sdpa ncu sanitizer}
has() { [[ " $steps " == *" $1 "* ]]; }
export PYTHONUNBUFFERED=1
echo "== start $(date -u +%FT%TZ)"

if has probe; then
  echo "== probe"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  which ncu compute-sanitizer 2>&1
  python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))'
fi

if has tests; then
  echo "== tests"
  timeout 60 "$B/test_decode_plan" > "$OUT/tests.log" 2>&1; echo "test_decode_plan rc=$?"
  timeout 200 "$B/test_cuda_decode" >> "$OUT/tests.log" 2>&1; echo "test_cuda_decode rc=$?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK \]|Failure|max \||got|want" "$OUT/tests.log" | head -40
fi

if has bench; then
  echo "== bench"
  timeout 200 "$B/cuda_decode_bench" grid > "$OUT/decode.jsonl" 2> "$OUT/decode.err"
  echo "cuda_decode_bench rc=$?"; tail -3 "$OUT/decode.err"; wc -l < "$OUT/decode.jsonl"
fi

if has sdpa; then
  echo "== sdpa"
  timeout 240 python3 bench/gpu/sdpa_decode_bench.py > "$OUT/sdpa_decode.jsonl" 2> "$OUT/sdpa_decode.err"
  echo "sdpa rc=$?"; tail -2 "$OUT/sdpa_decode.err"; wc -l < "$OUT/sdpa_decode.jsonl"
fi

if has ncu; then
  echo "== ncu"
  mkdir -p "$OUT/ncu"
  M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_global_ld.sum
  # N = 32768 (no tail tile), B = 8, GQA 4 (H_q 32, H_kv 8): 1 GiB of K/V, far over the 60 MB L2
  for c in "32768 8 4" "32768 8 4 1"; do
    set -- $c
    tag="n$1_b$2_g$3_s${4:-h}"
    timeout 120 ncu --clock-control none -k regex:Decode --launch-count 2 --metrics $M --csv --print-units base \
      --log-file "$OUT/ncu/ncu_$tag.csv" "$B/cuda_decode_bench" ncu $c >> "$OUT/ncu/ours.jsonl" 2>> "$OUT/ncu/ncu.err"
    echo "ncu $tag rc=$?"
  done
  tail -3 "$OUT/ncu/ncu.err"
fi

if has sanitizer; then
  echo "== compute-sanitizer"
  BW_CUDA_TEST_SUBSET=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$B/test_cuda_decode" > "$OUT/sanitizer.log" 2>&1
  echo "memcheck rc=$?"
  grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED)" "$OUT/sanitizer.log" | tail -3
fi

echo "== tables"
python3 bench/gpu/decode_table.py "$OUT" | tee "$OUT/decode_tables.md"
echo "== end $(date -u +%FT%TZ)"
