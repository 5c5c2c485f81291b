#!/usr/bin/env bash
# The teacher's app starts a live class (issue 30) on loopback: --class 127.0.0.1 serves the web
# edition's files (a stand-in folder here) and nothing outside them, the state file carries the URL
# and the join code, the join card and its key (J) answer, and without a web edition starting a
# class fails with one line naming the command that builds it. Usage: class_test.sh APP ROOT OUTDIR
# (run it under xvfb-run).
set -euo pipefail
app=$1 root=$2 out=$3
source "$(dirname "$0")/class_teacher.sh"
class_teacher MASK
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$state" ] && [ "$(field "d['class'] is not None" 2>/dev/null)" = True ] && break; sleep 0.1; done
url=$(field "d['class']['url']"); code=$(field "d['class']['code']")
echo "class at $url, code $code"
grep -q "^class: $url code $code" "$out/app.log" || { echo "FAIL: the app did not print the class's URL and code"; cat "$out/app.log"; exit 1; }
[[ "$code" =~ ^[A-Z0-9]{4,8}$ ]] || { echo "FAIL: join code '$code'"; exit 1; }
# The web files, and nothing outside them.
/usr/bin/python3 - "$url" <<'PY'
import sys, urllib.request, urllib.error
url = sys.argv[1]
body = urllib.request.urlopen(url, timeout=5).read().decode()
assert "blockwise stand-in" in body, body
for bad in ["../state.json", "%2e%2e/state.json", "..%2fstate.json", "nothere.html"]:
    try:
        urllib.request.urlopen(url + bad, timeout=5)
        raise SystemExit(f"FAIL: {bad} was served")
    except urllib.error.HTTPError as e:
        assert e.code in (400, 404), (bad, e.code)
print("ok: serves index.html, refuses paths outside the web root")
PY
# The title card shows the join card; J toggles it over a step.
[ "$(field "d['title_card']")" = True ] || { echo "FAIL: --step MASK should open MASK's title card"; exit 1; }
wid=$(xdotool search --sync --onlyvisible --name '^Blockwise$' | head -1)
xdotool windowfocus --sync "$wid" || true
xdotool key j
for _ in $(seq 30); do [ "$(field "d['class']['join_card']")" = True ] && break; sleep 0.1; done
[ "$(field "d['class']['join_card']")" = True ] || { echo "FAIL: J did not show the join card"; exit 1; }
echo "ok: J shows the join card"
kill $pid; wait $pid 2>/dev/null || true
trap - EXIT
# No web edition: one line with the command that makes it, exit 2, no window.
set +e
BLOCKWISE_WEB_ROOT="$out/none" BLOCKWISE_ROOT="$out/none" timeout 20 "$app" --no-settings --lang en --class 127.0.0.1 >"$out/noweb.log" 2>&1
rc=$?
set -e
[ $rc = 2 ] && grep -q "scripts/web --build-only" "$out/noweb.log" || { echo "FAIL: without web files (rc $rc):"; cat "$out/noweb.log"; exit 1; }
echo "ok: without web files: $(cat "$out/noweb.log")"
