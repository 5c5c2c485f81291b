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
