#!/usr/bin/env bash
# run_all.sh — the one device call for issue 6 on the H200: probe, GPU tests, compute-sanitizer
# (memcheck, racecheck), benchmarks (ours + torch SDPA), Nsight Compute byte counts, and the
# recorded live run. Binaries come prebuilt in .devbuild/ (bench/gpu/build_here.sh); results go to
# $OUT (tests.log, sanitizer.log, bench.jsonl, sdpa.jsonl, ncu_*.csv, tables.md, recorded_run_h200.json).
# Usage: bench/gpu/run_all.sh [steps...]   steps: probe tests sanitizer bench sdpa ncu record (default all)
set -u
B=${BW_DEVBUILD:-.devbuild}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
steps=${*:-probe tests sanitizer bench sdpa ncu record}
has() { [[ " $steps " == *" $1 "* ]]; }
export PYTHONUNBUFFERED=1

if has probe; then
  echo "== probe"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  which ncu compute-sanitizer nvcc cmake 2>&1
  ls -d /usr/include/eigen3 /usr/include/gtest /usr/include/nlohmann /usr/include/CLI 2>&1 | tr '\n' ' '; echo
  python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))'
  uname -r
fi

if has tests; then
  echo "== tests"
  (cd "$B" && ./test_gpu_record 2>&1 | tail -3)
  timeout 300 "$B/test_cuda_attention" > "$OUT/tests.log" 2>&1
  echo "test_cuda_attention rc=$?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|^\[       OK \]|Failure|error" "$OUT/tests.log" | head -40
fi

if has record; then
  echo "== record"
  timeout 60 "$B/cuda_attention_bench" record "$OUT/recorded_run_h200.json" 8192 64 64 64 causal_top_left 0 | tee -a "$OUT/bench.jsonl"
  ls -la "$OUT/recorded_run_h200.json"
fi

if has bench; then
  echo "== bench"
  : > "$OUT/bench.jsonl"
  for m in fp32 tc overhead; do
    timeout 200 "$B/cuda_attention_bench" $m >> "$OUT/bench.jsonl" 2>> "$OUT/bench.err"
    echo "bench $m rc=$?"
  done
fi

if has sdpa; then
  echo "== sdpa"
  timeout 240 python3 bench/gpu/sdpa_bench.py > "$OUT/sdpa.jsonl" 2> "$OUT/sdpa.err"
  echo "sdpa rc=$?"; tail -2 "$OUT/sdpa.err"
fi

if has ncu; then
  echo "== ncu"
  mkdir -p "$OUT/ncu"
  M1=l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
  M2=smsp__sass_inst_executed_op_ldgsts.sum
  M3=smsp__sass_inst_executed_op_global_ld.sum
  for c in "tiled 4096 64 0" "tiled 4096 128 1" "tc 4096 128 0" "tc 4096 64 1" "tiled 4096 64 1"; do
    set -- $c
    k=TiledFp32; [ "$1" = tc ] && k=TcKernel
    tag="$1_$2_$3_$4"
    metrics=$M1,$M2
    timeout 120 ncu --clock-control none -k regex:$k --launch-count 1 --metrics $metrics --csv \
      --log-file "$OUT/ncu/ncu_$tag.csv" "$B/cuda_attention_bench" ncu $c >> "$OUT/bench.jsonl" 2>> "$OUT/ncu/ncu.err"
    echo "ncu $tag rc=$?"
    timeout 60 ncu --clock-control none -k regex:$k --launch-count 1 --metrics $M3 --csv \
      --log-file "$OUT/ncu/ncu3_$tag.csv" "$B/cuda_attention_bench" ncu $c > /dev/null 2>> "$OUT/ncu/ncu.err"
    echo "ncu(global_ld inst) $tag rc=$?"
  done
  tail -3 "$OUT/ncu/ncu.err"
fi


if has sanitizer; then
  echo "== compute-sanitizer"
  : > "$OUT/sanitizer.log"
  for tool in memcheck racecheck; do
    flt='CudaAttention.*:-CudaAttention.TensorCoreLargerCausalBothAlignments'
    BW_CUDA_TEST_SUBSET=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
      "$B/test_cuda_attention" --gtest_filter="$flt" >> "$OUT/sanitizer.log" 2>&1
    echo "$tool rc=$?"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|^\[  (PASSED|FAILED)" "$OUT/sanitizer.log" | tail -3
  done
fi

echo "== tables"
python3 bench/gpu/make_table.py "$OUT/bench.jsonl" "$OUT/sdpa.jsonl" "$OUT/ncu" | tee "$OUT/tables.md"
