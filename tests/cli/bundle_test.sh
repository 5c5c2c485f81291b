#!/usr/bin/env bash
# Lesson bundles (issue 32, data/bundle.h): `blockwise-cli bundle` packs each shipped lesson and the
# course into one file; `check` opens the bundle as the app does; a bundle copied alone into an empty
# folder opens in the app (under Xvfb) and draws the same step as the lesson it was packed from (the
# scene dumps' rectangles, labels and texts are equal). A bad bundle is one line and exit 2, and the
# file written last is kept when packing fails.
# Usage: bundle_test.sh BLOCKWISE_CLI REPO_ROOT [BLOCKWISE_APP]
# With --app-only (after APP): only what needs the app (the bundles it opens are packed first).
. "$(dirname "$0")/common.sh" "$1" "$2"
APP="${3:-}"
APP_ONLY=0; [ "${4:-}" = --app-only ] && APP_ONLY=1
if [ $APP_ONLY = 1 ]; then
  "$CLI" bundle "$ROOT/lessons/rc-t3.json" -o "$T/rc-t3.bundle.json" >/dev/null || bad "bundle rc-t3 exited $?"
else

# Every shipped lesson, and the course with all thirteen lessons and their scenarios.
for f in "$ROOT"/lessons/*.json; do
  name=$(basename "$f" .json)
  "$CLI" bundle "$f" -o "$T/$name.bundle.json" >"$T/out" 2>"$T/err" || { bad "bundle $name exited $? ($(head -c 300 "$T/err"))"; continue; }
  "$CLI" check "$T/$name.bundle.json" >"$T/check" 2>&1 || bad "check $name.bundle.json: $(head -c 300 "$T/check")"
done
"$CLI" bundle "$ROOT/lessons/course.json" -o "$T/course.bundle.json" >"$T/out" 2>&1
grep -q "(a course of 13 lessons)" "$T/out" || bad "the course bundle does not hold 13 lessons: $(head -c 300 "$T/out")"
python3 - "$T/course.bundle.json" <<'PY' || bad "the course bundle's contents"
import json, sys
b = json.load(open(sys.argv[1], encoding="utf-8"))
assert b["main"] == "course.json", b["main"]
assert b["$schema"].endswith("/bundle-v1.schema.json"), b["$schema"]
files = b["files"]
assert "rc-t3.json" in files and "scenarios/worked_214.json" in files, sorted(files)
assert all(not p.startswith(("/", "..")) for p in files), sorted(files)
assert len([p for p in files if "steps" in files[p]]) == 13, "lessons: " + str(len([p for p in files if "steps" in files[p]]))
PY
# A scenario alone is not a bundle's main; a missing file is one line; an unwritable output keeps nothing half-written.
"$CLI" bundle "$ROOT/lessons/scenarios/worked_214.json" -o "$T/x.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "not a lesson or a course" "$T/err" || bad "bundle of a scenario: $(cat "$T/err")"
[ -e "$T/x.json" ] && bad "a refused bundle left a file behind"
"$CLI" bundle "$T/nope.json" -o "$T/x.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] || bad "bundle of a missing file: $(cat "$T/err")"

# A bundle with a slip inside one of its files: check names the bundle and the path inside it.
python3 - "$T/rc-t3.bundle.json" "$T/slip.bundle.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1], encoding="utf-8"))
b["files"]["scenarios/worked_214.json"]["block_sizes"][0] = 0
json.dump(b, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
PY
"$CLI" check "$T/slip.bundle.json" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || bad "check of a bad bundle did not exit 2"
grep -q "^error: $T/slip.bundle.json: /files/rc-t3.json/scenarios/worked: scenario does not load: scenarios/worked_214.json: /block_sizes/0: " "$T/err" \
  || bad "the bad bundle's line: $(cat "$T/err")"
grep -q "blockwise-bundle-" "$T/err" && bad "the error names the unpacked folder: $(cat "$T/err")"
fi

# The app: the bundle alone in an empty folder draws what the lesson draws.
if [ -n "$APP" ] && [ $APP_ONLY = 1 ]; then
  mkdir -p "$T/alone"
  cp "$T/rc-t3.bundle.json" "$T/alone/"
  for what in lesson bundle; do
    file="$ROOT/lessons/rc-t3.json"; [ $what = bundle ] && file="$T/alone/rc-t3.bundle.json"
    (cd "$T/alone" && xvfb-run -a -s "-screen 0 1280x800x24" "$APP" --no-settings --lang en --width 1024 --height 700 \
       --lesson "$file" --step RC-T3/b2 --reveal --screenshot "$T/$what.png" --dump-scene "$T/$what.scene.json" >"$T/$what.log" 2>&1) \
      || bad "the app on the $what exited $? ($(tail -c 300 "$T/$what.log"))"
  done
  python3 - "$T/lesson.scene.json" "$T/bundle.scene.json" <<'PY' || bad "the bundle's scene differs from the lesson's"
import json, sys
a, b = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
assert b["error"] == "", b["error"]
assert a["step"] == b["step"] == "RC-T3/b2", (a["step"], b["step"])
for key in ("rects", "labels", "arrows"):
    assert a[key] == b[key], key + " differ"
ta = [(t["region"], t["text"]) for t in a["drawn_texts"] if t["region"] != "top"]
tb = [(t["region"], t["text"]) for t in b["drawn_texts"] if t["region"] != "top"]
assert ta == tb, "texts differ: " + str([x for x in ta if x not in tb][:3]) + " / " + str([x for x in tb if x not in ta][:3])
print("the bundle draws RC-T3/b2 as the lesson does:", len(a["rects"]), "rects,", len(ta), "texts")
PY
  # A step the bundle does not have: the one line names the bundle as given (not the folder it was
  # unpacked into) and the lesson's steps.
  (cd "$T/alone" && xvfb-run -a -s "-screen 0 1280x800x24" "$APP" --no-settings --lang en --width 640 --height 480 \
     --lesson rc-t3.bundle.json --step RC-T3/zz --screenshot "$T/nostep.png" >"$T/nostep.log" 2>&1)
  rc=$?
  [ $rc -eq 2 ] || bad "a step the bundle lacks: exit $rc, not 2"
  grep -qF 'error: no step "RC-T3/zz" in rc-t3.bundle.json (steps: RC-T3/b0, RC-T3/b1' "$T/nostep.log" || bad "no step: $(cat "$T/nostep.log")"
  grep -q 'blockwise-bundle' "$T/nostep.log" && bad "no step names the unpacked folder: $(cat "$T/nostep.log")"
  # lesson preview: every step, zh and en, before and after its reveal, and the contact sheet.
  "$CLI" lesson preview "$ROOT/lessons/examples/my-first-lesson.json" --out "$T/preview" --app "$APP" >"$T/out" 2>"$T/err" \
    || bad "lesson preview exited $? ($(head -c 400 "$T/err"))"
  python3 - "$ROOT/lessons/examples/my-first-lesson.json" "$T/preview" <<'PY' || bad "the preview's pictures"
import json, os, sys
lesson = json.load(open(sys.argv[1], encoding="utf-8"))
want = sum(2 * (2 if "predict" in s else 1) for s in lesson["steps"])
pngs = [f for f in os.listdir(sys.argv[2]) if f.endswith(".png")]
assert len(pngs) == want, f"{len(pngs)} pictures, expected {want}"
for f in pngs:
    assert open(os.path.join(sys.argv[2], f), "rb").read(8) == b"\x89PNG\r\n\x1a\n", f
html = open(os.path.join(sys.argv[2], "index.html"), encoding="utf-8").read()
assert all(f in html for f in pngs), "index.html does not show every picture"
print("lesson preview:", len(pngs), "pictures")
PY
fi
[ $fail -eq 0 ] && echo "ok: bundles of every shipped lesson and the course"
exit $fail
