#!/usr/bin/env bash
# run_issue33.sh — the device call for issue 33's Hopper kernel: probe, SASS counts (HGMMA, UTMALDG),
# GPU tests, compute-sanitizer, our peer benchmark (Hopper and FA-2 kernels, back to back after a spin),
# torch SDPA flash / cuDNN with the same method, and Nsight Compute bytes for the Hopper kernel.
# Binaries come prebuilt in .devbuild/ (bench/gpu/build_here.sh). Results go to $OUT: sass.txt,
# tests.log, sanitizer.log, peer.jsonl, sdpa_peer.jsonl, ncu/*.csv, packed into $OUT/issue33_results.tgz
# (BW_NO_PACK=1 leaves them loose). BW_SCHED_SWEEP=1 also benchmarks schedules 0 and 1 of the Hopper kernel.
# Usage: bench/gpu/run_issue33.sh [steps...]   steps: probe sass tests record sanitizer bench benchq sdpa sdpaq ncu
#   (default: probe sass tests record bench sdpa ncu sanitizer; benchq / sdpaq: N 4096 and 8192 only, sdpaq with FlexAttention)
set -u
B=${BW_DEVBUILD:-.devbuild}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
mkdir -p "$OUT"
steps=${*:-probe sass tests record bench sdpa ncu sanitizer}
has() { [[ " $steps " == *" $1 "* ]]; }
export PYTHONUNBUFFERED=1
echo "== start $(date -u +%FT%TZ)"

if has probe; then
  echo "== probe"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  which ncu compute-sanitizer cuobjdump 2>&1
  python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))'
fi

if has sass; then
  echo "== sass (hopper_bench: the only kernels with HGMMA / UTMALDG are HopperKernel<64>, <128>)"
  cuobjdump -sass "$B/hopper_bench" > "$OUT/sass_all.txt" 2>&1
  awk '/Function :/{f=$0} /HopperKernel/{} {if (f ~ /HopperKernel/) print}' "$OUT/sass_all.txt" > "$OUT/sass_hopper.txt"
  for k in HGMMA UTMALDG USETMAXREG SYNCS LDL STL; do
    echo "$k all=$(grep -c "$k" "$OUT/sass_all.txt") hopper_kernels=$(grep -c "$k" "$OUT/sass_hopper.txt")"
  done
  grep "Function :" "$OUT/sass_all.txt" | grep -c Hopper
  grep -m4 HGMMA "$OUT/sass_hopper.txt"
  rm -f "$OUT/sass_all.txt"
fi

if has tests; then
  echo "== tests"
  timeout ${BW_TEST_TIMEOUT:-240} "$B/test_cuda_hopper" > "$OUT/tests.log" 2>&1; echo "test_cuda_hopper rc=$?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK \]|^\[  FAILED  \]|Failure|mismatch|Expected|Which is|L " "$OUT/tests.log" | head -60
  # every schedule (BW_HOPPER_SCHED 0, 1; 2 is the default above) on the fixed shapes
  for sc in 0 1; do
    BW_HOPPER_SCHED=$sc timeout ${BW_TEST_TIMEOUT:-100} "$B/test_cuda_hopper" --gtest_filter='CudaHopper.FixedShapes*:CudaHopper.Causal*' > "$OUT/tests_sched$sc.log" 2>&1
    echo "test_cuda_hopper (BW_HOPPER_SCHED=$sc, fixed shapes + causal) rc=$? failures=$(grep -c Failure "$OUT/tests_sched$sc.log")"
  done
fi

if has record; then  # GPU-panel recordings with warp phases (4 sampled CTAs), for the app and the FA-3 lesson
  echo "== record"
  mkdir -p "$OUT/rec"
  card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')  # h200, h100
  for c in "8192 128 0 4" "8192 128 1 4"; do
    set -- $c
    timeout 60 "$B/hopper_bench" record $1 $2 $3 $4 4 "$OUT/rec/recorded_run_${card:-gpu}_hopper_bf16_n$1_d$2_$([ $3 = 1 ] && echo causal_top_left || echo none).json"
    echo "record rc=$?"
  done
  for f in "$OUT"/rec/*.json; do python3 bench/gpu/warp_table.py "$f"; done
fi

if has bench || has benchq; then
  echo "== bench"
  q=""; has benchq && q=quick
  timeout ${BW_BENCH_TIMEOUT:-300} "$B/hopper_bench" grid $q > "$OUT/peer.jsonl" 2> "$OUT/peer.err"
  echo "hopper_bench rc=$?"; tail -3 "$OUT/peer.err"; cat "$OUT/peer.jsonl"
  if [ -n "${BW_SCHED_SWEEP:-}" ]; then  # the other schedules, same binary, same call
    for sc in 0 1; do
      BW_HOPPER_SCHED=$sc timeout 200 "$B/hopper_bench" grid $q hopper > "$OUT/peer_sched$sc.jsonl" 2>> "$OUT/peer.err"
      echo "hopper_bench sched $sc rc=$?"; cat "$OUT/peer_sched$sc.jsonl"
    done
  fi
fi

if has sdpa || has sdpaq; then
  echo "== sdpa"
  q=""; has sdpaq && q="--quick --flex"
  timeout 240 python3 bench/gpu/sdpa_peer_bench.py $q > "$OUT/sdpa_peer.jsonl" 2> "$OUT/sdpa_peer.err"
  echo "sdpa rc=$?"; tail -2 "$OUT/sdpa_peer.err"; cat "$OUT/sdpa_peer.jsonl"
fi

if has ncu; then
  echo "== ncu"
  mkdir -p "$OUT/ncu"
  # L2 sectors read on behalf of the SM (TMA loads included?), DRAM bytes; one head, K/V fit in L2
  M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum
  for c in "4096 128 0 1" "4096 64 1 1" "8192 128 0 8"; do
    set -- $c
    tag="n$1_d$2_c$3_h$4"
    timeout 120 ncu --clock-control none -k regex:HopperKernel --launch-count 1 --metrics $M --csv --print-units base \
      --log-file "$OUT/ncu/ncu_$tag.csv" "$B/hopper_bench" ncu $c >> "$OUT/ncu/ours.jsonl" 2>> "$OUT/ncu/ncu.err"
    echo "ncu $tag rc=$?"
  done
  cat "$OUT/ncu/ours.jsonl"; tail -3 "$OUT/ncu/ncu.err"
  # which counters name TMA traffic on this ncu (for an exact bytes check in a later call)
  timeout 60 ncu --query-metrics --chip gh100 2>/dev/null | grep -i -E "tma|bulk|xbar2l1tex|utmaldg" > "$OUT/ncu/metric_names.txt"
  wc -l < "$OUT/ncu/metric_names.txt"
  for f in "$OUT"/ncu/ncu_*.csv; do echo "${f##*/}"; grep -E "dram__|lts__|l1tex__" "$f" | awk -F'","' '{print "  " $(NF-2), $NF}' | tr -d '"'; done
fi

if has sanitizer; then
  echo "== compute-sanitizer"
  : > "$OUT/sanitizer.log"
  for tool in memcheck synccheck; do
    BW_CUDA_TEST_SUBSET=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
      "$B/test_cuda_hopper" --gtest_filter='CudaHopper.FixedShapes*:CudaHopper.Causal*' >> "$OUT/sanitizer.log" 2>&1
    echo "$tool rc=$?"
    grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED)" "$OUT/sanitizer.log" | tail -2
  done
fi
if has bench || has benchq || has sdpa || has sdpaq; then
  echo "== tables"
  python3 bench/gpu/issue33_table.py "$OUT" | tee "$OUT/issue33_tables.md"
fi

# At most 8 files come back from a device call: everything but run.log (the caller's tee) goes into one archive.
if [ -z "${BW_NO_PACK:-}" ]; then
  (cd "$OUT" && tar czf /tmp/issue33_results.tgz --exclude=./run.log . && find . -mindepth 1 ! -name run.log -delete && \
    mv /tmp/issue33_results.tgz . && ls -la)
fi
echo "== end $(date -u +%FT%TZ)"
