# Sourced by the live-class app tests (class_test.sh, class_load_test.sh): a stand-in web edition in
# $out/web, the teacher's app started on loopback at a step (class_teacher STEP), its pid in $pid, and
# `field EXPR`, a Python expression over the app's state file (d).
# Needs: $app, $out set.
class_teacher() {
  rm -rf "$out"; mkdir -p "$out/web"
  echo '<!doctype html><title>blockwise stand-in</title>' > "$out/web/index.html"
  echo '// stand-in' > "$out/web/blockwise.js"
  state="$out/state.json"
  BLOCKWISE_WEB_ROOT="$out/web" "$app" --no-settings --projector --lang en --step "$1" --class 127.0.0.1 \
    --state-file "$state" --width 1280 --height 720 >"$out/app.log" 2>&1 &
  pid=$!
}
field() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {'d': d}))" "$state" "$1"; }
