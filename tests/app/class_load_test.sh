#!/usr/bin/env bash
# A live class through the teacher's real app (issue 30's acceptance), on loopback under Xvfb: the app
# starts a class (--class 127.0.0.1) at N50's title card; 50 headless students (bench/class_load
# drive: real WebSocket clients) join, then a flooder and four garbage clients; the teacher presses
# PageDown 20 times (xdotool), waiting at N50/w1's open question until the class has answered. Checks:
#   - the bad clients are all closed by the server, and the teacher's screen did not move for them;
#   - every student received every position the teacher's screen showed, in order;
#   - the teacher's histogram for N50/w1 equals the answers the students sent, answer by answer
#     (65/3 named as the plain mean), each counted once.
# Usage: class_load_test.sh APP CLASS_LOAD OUTDIR (run under xvfb-run).
set -euo pipefail
app=$1 load=$2 out=$3
source "$(dirname "$0")/class_teacher.sh"
class_teacher N50
lpid=
trap 'kill $pid ${lpid:-} 2>/dev/null || true' EXIT
wait_for() {  # wait_for PYTHON-EXPRESSION [tenths of a second]
  for _ in $(seq "${2:-100}"); do [ "$(field "$1" 2>/dev/null)" = True ] && return 0; sleep 0.1; done
  echo "FAIL: waited for $1"; cat "$out/app.log"; exit 1
}
wait_for "d['class'] is not None and d['class']['url'] != ''"
url=$(field "d['class']['url']"); code=$(field "d['class']['code']")
echo "class at $url, code $code"

"$load" drive --url "$url" --code "$code" --students 50 --flood 1 --garbage 1 --answers "160/7,65/3,22.86" \
  --report "$out/report.json" --max-seconds 240 >"$out/load.log" 2>&1 &
lpid=$!
for _ in $(seq 300); do grep -q "^joined 50" "$out/load.log" && break; sleep 0.1; done
grep -q "^joined 50" "$out/load.log" || { echo "FAIL: 50 students did not join"; cat "$out/load.log"; exit 1; }
where="(d['step'], d['event'], d['revealed'], d['title_card'], d['text_page'])"
before_bad=$(field "$where")
# The flooder and the garbage clients are closed (the app's count of connected students drops back to
# the 50), and nothing they sent moved the teacher's screen.
wid=$(xdotool search --sync --onlyvisible --name '^Blockwise$' | head -1)
xdotool windowfocus --sync "$wid" || true
wait_for "d['class']['connected'] == 50" 200
[ "$(field "$where")" = "$before_bad" ] || { echo "FAIL: the bad clients moved the teacher ($before_bad → $(field "$where"))"; exit 1; }
echo "ok: the flooder and the garbage clients are gone, the teacher's screen did not move"

: >"$out/positions.txt"
echo "$(field "$where")" >>"$out/positions.txt"
for i in $(seq 20); do
  now=$(field "$where")
  if [ "$(field "d['step'] == 'N50/w1' and not d['revealed']")" = True ]; then
    # The open question: the whole class answers before the reveal.
    # (No input: the app looks at the class four times a second and redraws when answers came in.)
    for _ in $(seq 300); do
      [ "$(field "sum(b['count'] for b in d['class']['bars']) == 50")" = True ] && break
      sleep 0.1
    done
    field "d['class']['bars']" >"$out/bars.txt"
  fi
  xdotool key --window "$wid" Next
  for _ in $(seq 100); do [ "$(field "$where")" != "$now" ] && break; sleep 0.05; done
  [ "$(field "$where")" != "$now" ] || { echo "FAIL: PageDown $i did not move the teacher from $now"; exit 1; }
  echo "$(field "$where")" >>"$out/positions.txt"
done
sleep 1   # the last state reaches the students
kill -TERM $lpid; wait $lpid || true
lpid=
/usr/bin/python3 - "$out" <<'PY'
import ast, json, sys
out = sys.argv[1]
report = json.load(open(f"{out}/report.json"))
positions = [ast.literal_eval(l) for l in open(f"{out}/positions.txt")]
assert report["joined"] == 50, report["joined"]
assert report["flooder"]["closed"], "the flooder was not closed"
assert all(c["closed"] for c in report["garbage"]["cases"]), report["garbage"]
# Every student saw every step or card the teacher showed (title cards as the lesson's card), in order.
def key(p):
    step, event, revealed, title, page = p
    return ("" if title else step, revealed)
teacher = []
for p in positions:
    k = key(p)
    if not teacher or teacher[-1] != k: teacher.append(k)
for i, s in enumerate(report["students"]):
    seen = []
    for st in s["states"]:
        k = (st["step"], st["revealed"])
        if not seen or seen[-1] != k: seen.append(k)
    it = iter(seen)
    missing = [k for k in teacher if k not in it]
    assert not missing, f"student {i} missed {missing} (saw {seen})"
# The histogram equals what was sent.
bars = ast.literal_eval(open(f"{out}/bars.txt").read())
counted = {b["answer"]: b["count"] for b in bars}
sent = report["answers_sent"]["N50/w1"]
want = {"22.86": sent.get("22.86", 0), "160/7": sent.get("160/7", 0), "65/3": sent.get("65/3", 0)}
assert counted == {k: v for k, v in want.items() if v}, (counted, sent)
named = [b for b in bars if b["answer"] == "65/3"]
assert named and not named[0]["right"] and named[0]["mistake"], bars
print(f"ok: {len(teacher)} teacher positions reached all 50 students in order; histogram {counted} = answers sent")
PY
