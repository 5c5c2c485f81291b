# device_prelude.sh — sourced by the bench/gpu/run_*.sh device scripts: sets P (the carried binaries,
# $BW_PACK or .nextpack, gunzipped here), OUT (the device call's result folder), R ($OUT/r, where a script
# writes its logs) and pack (tars R into $OUT/NAME.tgz, so partial results come back from a call cut short).
# Usage, from the repository root: source bench/gpu/device_prelude.sh NAME
set -u
P=${BW_PACK:-.nextpack}
OUT=${OUT:-${TMPDIR:-/tmp}/out}
R=$OUT/r
mkdir -p "$R"
export PYTHONUNBUFFERED=1
for z in "$P"/*.gz; do
  [ -e "$z" ] || continue
  gzip -dc "$z" > "${z%.gz}"
  chmod +x "${z%.gz}"
done
BW_RESULT_NAME=$1
pack() { (cd "$R" && tar czf "$OUT/$BW_RESULT_NAME.tgz" .); }
# sanitize_hopper [LABEL]: compute-sanitizer memcheck and synccheck on test_cuda_hopper's subset (under the
# caller's environment), each tool's error summary appended to summary.txt.
sanitize_hopper() {
  for tool in memcheck synccheck; do
    BW_CUDA_TEST_SUBSET=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 "$P/test_cuda_hopper" > "$R/sanitizer_$tool.log" 2>&1
    echo "sanitizer $tool ${1:-}rc=$? $(grep -h 'ERROR SUMMARY' "$R/sanitizer_$tool.log" | tail -1)" | tee -a "$R/summary.txt"
  done
}
# peer_table: the full `hopper_bench grid` (both kernels, counters, records, warp phases), SDPA flash /
# cuDNN by the same method (sdpa_peer_bench.py), and issue 33's table of the two (peer_table.md).
peer_table() {
  timeout 200 "$P/hopper_bench" grid > "$R/peer.jsonl" 2>> "$R/grid.err"; echo "grid (both kernels) rc=$?" | tee -a "$R/summary.txt"
  timeout 170 python3 bench/gpu/sdpa_peer_bench.py > "$R/sdpa_peer.jsonl" 2> "$R/sdpa.err"; echo "sdpa rc=$?" | tee -a "$R/summary.txt"
  mkdir -p "$R/t"
  cp "$R/peer.jsonl" "$R/sdpa_peer.jsonl" "$R/t/"
  python3 bench/gpu/issue33_table.py "$R/t" > "$R/peer_table.md" 2>&1
  rm -rf "$R/t"
}
