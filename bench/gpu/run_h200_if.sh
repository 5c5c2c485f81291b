#!/usr/bin/env bash
# run_h200_if.sh — issue 33's H200 table with today's kernels, only if the call got an H200 (a call naming
# nvidia-h200 may run on an H100; then this stops at once). Tests (test_cuda_hopper, test_cuda_attention),
# `hopper_bench grid` and `sdpa_peer_bench.py` back to back in one call, bench/gpu/issue33_table.py, and the
# one-head Hopper recordings (N 8192, d 128, not causal and causal, 4 sampled CTAs) for FA3's like-for-like
# compare with the FA-2 recordings. Binaries gzipped in $BW_PACK (default .nextpack). Results: $OUT/h200.tgz
# and the recordings.
set -u
P=${BW_PACK:-.nextpack}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
case "$card" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
R=$OUT/r; mkdir -p "$R"
export PYTHONUNBUFFERED=1
for z in "$P"/*.gz; do gzip -dc "$z" > "${z%.gz}"; chmod +x "${z%.gz}"; done
pack() { (cd "$R" && tar czf "$OUT/h200.tgz" .); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$R/summary.txt"
for t in test_cuda_hopper test_cuda_attention; do
  timeout 150 "$P/$t" > "$R/$t.log" 2>&1; echo "$t rc=$?" | tee -a "$R/summary.txt"
done
pack
timeout 120 "$P/hopper_bench" grid > "$R/peer.jsonl" 2> "$R/grid.err"; echo "grid rc=$?" | tee -a "$R/summary.txt"
pack
timeout 150 python3 bench/gpu/sdpa_peer_bench.py > "$R/sdpa_peer.jsonl" 2> "$R/sdpa.err"; echo "sdpa rc=$?" | tee -a "$R/summary.txt"
python3 bench/gpu/issue33_table.py "$R" | tee "$R/table.md"
pack
for c in 0 1; do
  f="$OUT/recorded_run_h200_hopper_bf16_n8192_d128_h1_$([ $c = 1 ] && echo causal_top_left || echo none).json"
  timeout 60 "$P/hopper_bench" record 8192 128 $c 1 4 "$f"; echo "record rc=$?" | tee -a "$R/summary.txt"
done
pack
rm -rf "$R"
