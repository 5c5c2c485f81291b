#!/usr/bin/env bash
# Builds the .deb (cpack -G DEB in the build folder), checks its Depends came from the programs' shared
# libraries (dpkg-shlibdeps) and its file list, unpacks it with `dpkg -x` into an empty root, and runs
# the package as a distribution would (lintian --pedantic: no error, warning or pedantic tag;
# desktop-file-validate: nothing to say of the desktop entry; the MIME type names lessons, not every
# JSON file), and runs
# the unpacked `blockwise --screenshot` (under Xvfb) and `blockwise-cli run` / `check` from an empty
# working folder with BLOCKWISE_ROOT unset: the programs must find their data under the unpacked
# usr/share/blockwise, never in the source tree (the app reports which root it used in --dump-scene).
# Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/blockwise-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

(cd "$build" && cpack -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/pkg/*.deb)
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libc6 libstdc++6 libglfw3 libfreetype6 libfontconfig1 fonts-noto-cjk; do  # exact rationals: header-only Boost, no libgmp10
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib (dpkg-shlibdeps should have found it)"
done

files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/blockwise ./usr/bin/blockwise-cli ./usr/share/blockwise/lessons/rc-t3.json \
         ./usr/share/blockwise/lessons/scenarios/worked_214.json ./usr/share/blockwise/assets/scenarios/attention_causal_small.json \
         ./usr/share/blockwise/assets/gpu/recorded_run_h200.json ./usr/share/blockwise/schemas/scenario-v1.schema.json \
         ./usr/share/blockwise/shaders/heatmap.frag ./usr/share/applications/blockwise.desktop \
         ./usr/share/icons/hicolor/scalable/apps/blockwise.svg ./usr/share/icons/hicolor/48x48/apps/blockwise.png \
         ./usr/share/icons/hicolor/256x256/apps/blockwise.png ./usr/share/man/man1/blockwise.1.gz ./usr/share/man/man1/blockwise-cli.1.gz \
         ./usr/share/doc/blockwise/copyright ./usr/share/doc/blockwise/changelog.gz ./usr/share/mime/packages/blockwise.xml; do
  grep -qxF "$f" <<<"$files" || fail "the package lacks $f"
done
# Only what runs: no build scripts (shaders/embed.cmake was installed beside the shaders).
! grep -E '\.cmake$|CMakeLists' <<<"$files" || fail "the package installs build scripts"

# lintian, pedantic, as a distribution's archive runs it. Every error, warning or pedantic tag fails;
# one accepted on purpose goes in packaging/lintian-overrides (installed into the package, where
# lintian reads it) with a comment giving the reason. Info tags are printed, not failed on.
if command -v lintian >/dev/null; then
  lintian --pedantic --info --fail-on error,warning,pedantic "$deb" >"$work/lintian.log" 2>&1 \
    || { cat "$work/lintian.log"; fail "lintian --pedantic"; }
  echo "lintian --pedantic: no error, warning or pedantic tag ($(grep -c '^I:' "$work/lintian.log" || true) info tags)"
else
  fail "lintian is not installed (scripts/setup.sh installs it)"
fi

root="$work/root"
mkdir -p "$root" "$work/cwd" "$work/config"
dpkg -x "$deb" "$root"
cd "$work/cwd"
unset BLOCKWISE_ROOT
export XDG_CONFIG_HOME="$work/config"

# The desktop entry runs a program the package installs, with an icon it installs, and opens our own
# file type (a lesson or course, told by its $schema), never every JSON file.
desktop="$root/usr/share/applications/blockwise.desktop"
grep -qx 'Exec=blockwise %f' "$desktop" || fail "desktop entry Exec"
grep -qx 'Icon=blockwise' "$desktop" || fail "desktop entry Icon"
grep -qx 'MimeType=application/x-blockwise-lesson;' "$desktop" || fail "desktop entry MimeType: $(grep MimeType "$desktop")"
command -v desktop-file-validate >/dev/null || fail "desktop-file-validate is not installed (scripts/setup.sh installs it)"
validate=$(desktop-file-validate "$desktop" 2>&1) || true
[ -z "$validate" ] || fail "desktop-file-validate: $validate"
grep -q 'mime-type type="application/x-blockwise-lesson"' "$root/usr/share/mime/packages/blockwise.xml" || fail "the MIME type"
# The MIME database built from the package's file tells a shipped lesson and the course from a
# scenario (JSON: shared-mime-info calls a document with "$schema" application/schema+json), as a file
# manager does (GIO reads shared-mime-info: the glob says JSON, the $schema's magic our subclass).
command -v update-mime-database >/dev/null && command -v gio >/dev/null || fail "update-mime-database or gio is not installed (scripts/setup.sh installs them)"
cp -r "$root/usr/share/mime" "$work/mime" && update-mime-database "$work/mime" >/dev/null 2>&1
mime_of() { XDG_DATA_DIRS="$work:/usr/share" XDG_DATA_HOME="$work/none" gio info -a standard::content-type "$1" | sed -n 's/.*content-type: //p'; }
for f in lessons/rc-t3.json lessons/course.json; do
  [ "$(mime_of "$root/usr/share/blockwise/$f")" = application/x-blockwise-lesson ] || fail "$f is $(mime_of "$root/usr/share/blockwise/$f"), not application/x-blockwise-lesson"
done
scenario_type=$(mime_of "$root/usr/share/blockwise/lessons/scenarios/worked_214.json")
case "$scenario_type" in application/json|application/schema+json) ;; *) fail "a scenario is $scenario_type, not JSON";; esac
echo "MIME: lessons and the course are application/x-blockwise-lesson, a scenario $scenario_type"
# Every option the programs accept is in their man page.
# (The page is read once: `zcat | grep -q` under pipefail fails at random when grep stops reading first.)
man_text=$(zcat "$root/usr/share/man/man1/blockwise.1.gz" | sed 's/\\-/-/g')
for opt in $("$root/usr/bin/blockwise" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
  grep -qF -- "$opt" <<<"$man_text" || fail "man blockwise lacks $opt"
done

# The CLI from the unpacked root: the worked example's exact answer, and every shipped lesson loads.
out=$("$root/usr/bin/blockwise-cli" run "$root/usr/share/blockwise/lessons/scenarios/worked_214.json")
grep -q "160/7" <<<"$out" || { echo "$out"; fail "blockwise-cli run did not print 160/7"; }
"$root/usr/bin/blockwise-cli" check "$root"/usr/share/blockwise/lessons/*.json >"$work/check.log" || { cat "$work/check.log"; fail "blockwise-cli check"; }
echo "blockwise-cli: run prints 160/7; check: $(grep -c '^ok\|: ok' "$work/check.log" || true) lessons ok"

# The app from the unpacked root, its default course at its first step (with no step named it opens on the
# library), a screenshot and the scene.
xvfb-run -a -s "-screen 0 1280x800x24" "$root/usr/bin/blockwise" --no-settings --lang en --width 1024 --height 700 --step RC-T3/b0 \
  --screenshot shot.png --dump-scene scene.json >"$work/app.log" 2>&1 || { cat "$work/app.log"; fail "blockwise --screenshot"; }
[ -s shot.png ] || fail "no screenshot"
/usr/bin/python3 - "$root" <<'PY' || fail "the app's scene"
import json, os, sys
root = os.path.realpath(sys.argv[1])
s = json.load(open("scene.json"))
want = os.path.join(root, "usr/share/blockwise")
assert os.path.realpath(s["data_root"]) == want, f"data_root {s['data_root']} is not {want}"
assert s["data_root_rule"] == "installed", s["data_root_rule"]
assert s["step"] == "RC-T3/b0", s["step"]
assert s["error"] == "", s["error"]
ids = {r["id"] for r in s["rects"]}
assert {"hbm", "sram", "hbm.kv.1", "hbm.kv.2"} <= ids, ids  # the lesson's two K/V blocks were loaded and painted
print(f"blockwise: {s['data_root_rule']} data root, step {s['step']}, {len(s['rects'])} rects painted")
PY
echo "install test passed"
