#!/usr/bin/env bash
# The app as a desktop citizen (issue 13), each case in its own Xvfb server:
#   layouts  German and French keyboards (setxkbmap de / fr): Ctrl+plus, Ctrl+minus, Ctrl+0 and the
#            numpad change the font size (shortcuts go by the character on the key, not its US position)
#   dpi      Xft.dpi 120 on 1920×1080 and 192 on 2560×1600: the first window fits the screen, font_px
#            stays the logical 22 and the content scale is 1.25 / 2
#   iconify  a playing window, iconified (as a window manager does it: WM_STATE Iconic, unmapped),
#            uses ≈ 0 % CPU over 5 s and does not advance; restored, it plays on
#   firstlaunch  no saved settings and no file: the library, in the locale's language; typing filters it
#   answer   Tab reaches the question's answer field: 65/3 is named as the known mistake, 160/7 is
#            right, PageDown still reveals
#   glyphs   a scenario named 溢出逻辑_全屏浏览.json: Recent (Ctrl+O) and Chinese typed into the path
#            field leave no character outside the atlas (state JSON missing_glyphs = 0)
#   names    N23's tiles show their names (Q_1 …, the SRAM slots) on a 1280×720 laptop, en and zh
#   export   a quick Ctrl+E tap (press and release inside one frame) writes the PNG into the export
#            folder, named from the lesson and step ids, and the toast shows its full path; five
#            exports on the end card (projector, zh) leave the app drawing and answering keys
#   expose   the window as X shows it (xwd of the screen) is the same after another window covered
#            it and went away, and after it was unmapped and mapped again: frames copy only what
#            changed (damage.h), so a lost picture must be shown whole again (PictureLost); F5
#            shows the presenter notes window, keys pressed there step the lesson at once, and F5
#            again closes it, leaving the main window whole
# Usage: desktop_test.sh CASE APP ROOT OUTDIR
set -euo pipefail
case_=$1 app=$2 root=$3 out=$4/$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

if [ "${BW_INNER:-}" != 1 ]; then  # re-run inside Xvfb servers of the right size
  # -noreset: the server keeps its keyboard layout and resources when the last client (setxkbmap,
  # xprop, an app run) disconnects.
  case $case_ in
    dpi)
      BW_INNER=1 BW_DPI=120 xvfb-run -a -s "-noreset -screen 0 1920x1080x24" "$0" "$@"
      BW_INNER=1 BW_DPI=192 xvfb-run -a -s "-noreset -screen 0 2560x1600x24" "$0" "$@" ;;
    *) BW_INNER=1 xvfb-run -a -s "-noreset -screen 0 1600x1000x24" "$0" "$@" ;;
  esac
  exit
fi

state="$out/state.json"
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null || true' EXIT
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$state" "$1"; }
expect() {  # FIELD VALUE: waits up to 5 s for the state file to say so
  local got=""
  for _ in $(seq 50); do
    got=$(field "$1" 2>/dev/null || true)
    [ "$got" = "$2" ] && { echo "ok: $1 = $2"; return 0; }
    sleep 0.1
  done
  echo "FAIL: $1 is '$got', expected '$2'"; cat "$out/app.log"; exit 1
}
first_step=RC-T3/b0
start() {  # ARGS…: starts the app with a state file and waits for its window
  rm -f "$state"
  "$app" --no-settings --lesson "$root/lessons/rc-t3.json" --lang en --state-file "$state" "$@" >"$out/app.log" 2>&1 &
  pid=$!
  wid=$(xdotool search --sync --onlyvisible --name '^Blockwise$' | head -1)
  xdotool windowfocus --sync "$wid" 2>/dev/null || true
  expect step "$first_step"
}
stop() { kill $pid; wait $pid 2>/dev/null || true; pid=""; }

case $case_ in
  layouts)
    for layout in de fr; do
      setxkbmap "$layout"
      start --width 1000 --height 700
      setxkbmap -query | grep -qx "layout: *$layout" || { echo "FAIL: the layout is not $layout"; setxkbmap -query; exit 1; }
      xdotool key ctrl+plus;   expect font_px 24.2
      xdotool key ctrl+minus;  expect font_px 22.0
      xdotool key ctrl+minus;  expect font_px 20.0
      xdotool key ctrl+0;      expect font_px 22.0
      xdotool key KP_Add;      expect font_px 24.2
      xdotool key KP_Subtract; expect font_px 22.0
      xdotool key p;           expect projector True
      stop
      echo "ok: layout $layout"
    done ;;
  dpi)
    xprop -root -format RESOURCE_MANAGER 8s -set RESOURCE_MANAGER "Xft.dpi: $BW_DPI"
    read -r sw sh < <(xdpyinfo 2>/dev/null | awk '/dimensions:/ {split($2, d, "x"); print d[1], d[2]}' || true)
    [ -n "${sw:-}" ] || { [ "$BW_DPI" = 120 ] && sw=1920 sh=1080 || sw=2560 sh=1600; }
    start  # the default 1600 × 1000 logical window
    eval "$(xdotool getwindowgeometry --shell "$wid")"
    echo "Xft.dpi $BW_DPI on ${sw}x${sh}: window ${WIDTH}x${HEIGHT} at ${X},${Y}"
    [ "$X" -ge 0 ] && [ "$Y" -ge 0 ] && [ $((X + WIDTH)) -le "$sw" ] && [ $((Y + HEIGHT)) -le "$sh" ] ||
      { echo "FAIL: the window does not fit the screen"; exit 1; }
    expect content_scale "$(/usr/bin/python3 -c "print($BW_DPI / 96)")"
    expect font_px 22.0
    stop
    # The same start-up, as a screenshot to look at.
    "$app" --no-settings --lang en --screenshot "$out/dpi$BW_DPI.png" >"$out/shot.log" 2>&1 || { cat "$out/shot.log"; exit 1; } ;;
  iconify)
    first_step=""  # a 56-event trace: 14 s of playback at 4 events a second
    start --width 1000 --height 700 --scenario "$root/assets/scenarios/attention_rectangular.json"
    xdotool key space; expect playing True
    sleep 0.6
    "$here/xwm.py" iconify "$wid"
    sleep 0.5
    e0=$(field event_index)
    t0=$(awk '{print $14 + $15}' /proc/$pid/stat)
    sleep 5
    t1=$(awk '{print $14 + $15}' /proc/$pid/stat)
    e1=$(field event_index)
    ticks=$((t1 - t0)) hz=$(getconf CLK_TCK)
    echo "iconified 5 s: $ticks CPU ticks of $((5 * hz)) ($(/usr/bin/python3 -c "print(f'{100 * $ticks / (5 * $hz):.1f}')") %), event $e0 -> $e1"
    [ "$e0" = "$e1" ] || { echo "FAIL: playback advanced while iconified"; exit 1; }
    [ "$ticks" -le $((hz / 10)) ] || { echo "FAIL: more than 2 % CPU while iconified"; exit 1; }
    "$here/xwm.py" restore "$wid"
    for _ in $(seq 50); do [ "$(field event_index)" != "$e1" ] && break; sleep 0.1; done
    [ "$(field event_index)" != "$e1" ] || { echo "FAIL: playback did not resume after restore"; exit 1; }
    expect playing True
    stop ;;
  expose)
    first_step=RC-T3/b1
    start --width 1000 --height 700 --step RC-T3/b1 --reveal
    xdotool mousemove 1500 900  # the pointer off the window: no hover
    sleep 0.8
    # The screen's pixels as X holds them (the pointer is not in them), compared byte for byte.
    shot() { xwd -root -silent > "$out/$1.xwd"; }
    # A B [MAX [R,G,B]]: the image data of two captures (after the header and colour map) differs in
    # at most MAX pixels (default 0), and B holds no pixel of colour R,G,B (the covering window's).
    # MAX leaves room for ImGui's own layout moving between two frames (a table column 1 px wider,
    # ≈ 4 500 pixels); the failures it guards against are a covering window's 70 000 pixels kept, or
    # the whole window black.
    same() {
      /usr/bin/python3 - "$out/$1.xwd" "$out/$2.xwd" "${3:-0}" "${4:-}" <<'PY'
import struct, sys
def pixels(path):
    b = open(path, "rb").read()
    header_size, ncolors = struct.unpack(">I", b[:4])[0], struct.unpack(">I", b[76:80])[0]
    return b[header_size + 12 * ncolors:]
a, b = pixels(sys.argv[1]), pixels(sys.argv[2])
limit = int(sys.argv[3])
differ = sum(1 for i in range(0, min(len(a), len(b)), 4) if a[i:i + 4] != b[i:i + 4])
forbidden = 0
if sys.argv[4]:
    r, g, bl = (int(v) for v in sys.argv[4].split(","))
    want = bytes([bl, g, r])  # 32-bit ZPixmap, least significant byte first: B, G, R, pad
    forbidden = sum(1 for i in range(0, len(b), 4) if b[i:i + 3] == want)
print(f"{sys.argv[2]}: {differ} pixels differ from {sys.argv[1]} (at most {limit})" +
      (f", {forbidden} pixels of {sys.argv[4]}" if sys.argv[4] else ""))
sys.exit(0 if len(a) == len(b) and differ <= limit and forbidden == 0 else 1)
PY
    }
    settled() {  # NAME: captures until two in a row are equal (the arrow's animation, a loaded machine)
      shot "$1"
      for _ in $(seq 20); do
        sleep 0.3; shot "$1.next"
        same "$1" "$1.next" >/dev/null && return 0
        mv "$out/$1.next.xwd" "$out/$1.xwd"
      done
      echo "FAIL: the window did not settle"; exit 1
    }
    settled before
    xmessage -geometry 500x300+150+120 -bg red "a window over the lesson" & cover=$!
    sleep 0.8; kill $cover; wait $cover 2>/dev/null || true
    settled uncovered
    same before uncovered 10000 255,0,0 || { echo "FAIL: the covered part kept the other window's pixels"; exit 1; }
    xdotool windowunmap --sync "$wid"; sleep 0.3; xdotool windowmap --sync "$wid"
    settled mapped
    same before mapped 10000 || { echo "FAIL: the window was not shown whole after it was mapped again"; exit 1; }
    # F5: the presenter notes open in a second window that is really shown (it was created hidden
    # once: the state said presenter = True and no window appeared); F5 again closes it, and the main
    # window under it is whole again.
    # On one screen (this Xvfb has one) the first F5 only says that the notes would cover the
    # projection; the second opens them.
    xdotool windowfocus --sync "$wid" 2>/dev/null || true
    xdotool key F5; expect presenter False; expect status "One screen: the notes window would cover the projected picture, in front of the class. F5 again opens it anyway"
    xdotool key F5; expect presenter True
    notes=""
    for _ in $(seq 30); do notes=$(xdotool search --onlyvisible --name 'presenter notes' 2>/dev/null | head -1 || true); [ -n "$notes" ] && break; sleep 0.1; done
    [ -n "$notes" ] || { echo "FAIL: F5 opened no visible presenter notes window"; exit 1; }
    echo "ok: the presenter notes window $notes is shown"
    # Keys pressed in the notes window (it has the keyboard once shown) step the lesson at once, the
    # mouse untouched: they waited until the mouse next moved over the main window (a helper's clicker
    # went dead after F5).
    xdotool windowfocus --sync "$notes" 2>/dev/null || true
    at=$(field event_index)
    xdotool key Right; expect event_index $((at + 1))
    xdotool key Left; expect event_index "$at"
    xdotool windowfocus --sync "$wid" 2>/dev/null || true
    xdotool key F5; expect presenter False
    for _ in $(seq 30); do [ -z "$(xdotool search --onlyvisible --name 'presenter notes' 2>/dev/null || true)" ] && break; sleep 0.1; done
    [ -z "$(xdotool search --onlyvisible --name 'presenter notes' 2>/dev/null || true)" ] || { echo "FAIL: F5 again left the notes window open"; exit 1; }
    xdotool mousemove 1500 900
    settled notes_closed
    same before notes_closed 10000 || { echo "FAIL: the main window was not whole after the notes window closed"; exit 1; }
    stop ;;
  firstlaunch)
    # No saved settings, no file: the library of the course's lessons, in the locale's language
    # (LANG=en_US.UTF-8 → English, zh_CN → Chinese), and the settings are written for the next launch.
    for locale in en_US.UTF-8:en zh_CN.UTF-8:zh; do
      cfg=$(mktemp -d)
      rm -f "$state"
      env -u LC_ALL -u LC_MESSAGES LANG="${locale%%:*}" XDG_CONFIG_HOME="$cfg" "$app" --state-file "$state" >"$out/app.log" 2>&1 &
      pid=$!
      xdotool search --sync --onlyvisible --name '^Blockwise$' >/dev/null
      expect lang "${locale##*:}"
      expect library True
      # The library is keyboard first: typed text filters, Enter opens the lesson picked, in its course.
      xdotool type --delay 50 mask; expect library_filter mask
      xdotool key Return;  expect library False; expect lesson MASK; expect step MASK/k1
      expect course "{'id': 'FLASH', 'lesson_index': 5, 'lessons': 13}"
      stop
      [ -f "$cfg/blockwise/settings.json" ] || { echo "FAIL: the first launch saved no settings"; exit 1; }
      rm -rf "$cfg"
      echo "ok: first launch in ${locale%%:*}"
    done
    # A settings folder that cannot be made (XDG_CONFIG_HOME is a file): the save's failure is named
    # once, in the window, with the file (it printed a bare "filesystem error" on stderr at every
    # change; issue 31).
    cfg=$(mktemp)
    rm -f "$state"
    XDG_CONFIG_HOME="$cfg" "$app" --lesson "$root/lessons/rc-t3.json" --lang en --state-file "$state" >"$out/app.log" 2>&1 &
    pid=$!
    xdotool search --sync --onlyvisible --name '^Blockwise$' >/dev/null
    xdotool key l
    for _ in $(seq 50); do field status 2>/dev/null | grep -qF "$cfg/blockwise/settings.json" && break; sleep 0.1; done
    field status | grep -qF "$cfg/blockwise/settings.json" || { echo "FAIL: an unwritable settings file is not named: $(field status)"; exit 1; }
    stop
    [ "$(grep -c "settings not saved\|设置未能保存" "$out/app.log")" -le 1 ] || { echo "FAIL: the failed save was reported more than once"; exit 1; }
    rm -f "$cfg"
    echo "ok: an unwritable settings file is named once"
    # --step with an escape sequence and a newline: echoed as one escaped line, exit 2.
    set +e
    "$app" --no-settings --step $'\e[31mRED\nx' >"$out/step.log" 2>&1
    rc=$?
    set -e
    [ $rc -eq 2 ] || { echo "FAIL: --step with ESC exited $rc"; exit 1; }
    if grep -q $'\e' "$out/step.log"; then echo "FAIL: --step echoed a raw ESC"; exit 1; fi
    grep -qF 'no step "\x1B[31mRED\nx"' "$out/step.log" || { echo "FAIL: --step: $(cat "$out/step.log")"; exit 1; }
    echo "ok: --step is echoed escaped"
    # A file the app was asked to open that fails: the error line, and exit status 2 (it exited 0, so
    # a script could not tell; issue 32), with --screenshot and from a window closed by the user.
    set +e
    "$app" --no-settings --screenshot "$out/bad.png" "$root/tests/data/bad/negative_weight.json" >"$out/bad.log" 2>&1
    rc=$?
    set -e
    [ $rc -eq 2 ] || { echo "FAIL: a bad file with --screenshot exited $rc"; exit 1; }
    grep -q "negative_weight.json: /weights/1: weight is negative" "$out/bad.log" || { echo "FAIL: bad file: $(cat "$out/bad.log")"; exit 1; }
    "$app" --no-settings "$root/tests/data/bad/negative_weight.json" --state-file "$state" >"$out/bad.log" 2>&1 &
    pid=$!
    xdotool search --sync --onlyvisible --name '^Blockwise$' >/dev/null
    expect library True
    set +e
    kill -TERM $pid; wait $pid
    rc=$?
    set -e
    [ $rc -eq 2 ] || { echo "FAIL: a window opened with a bad file exited $rc when closed"; exit 1; }
    echo "ok: a bad file named at start exits 2" ;;
  answer)
    # Tab takes the keyboard into the question's answer field, Enter checks it, and the clicker's
    # PageDown still steps (issue 29's walk-through: only the mouse reached the field; Tab made the
    # timeline a text field that swallowed the typed answer and PageUp/PageDown until Esc).
    first_step=N50/w1
    start --width 1280 --height 720 --step N50/w1
    answer() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['answer'][sys.argv[2]])" "$state" "$1"; }
    pages=$(field text_pages)
    xdotool key Tab
    # (The question's field is on its last page here: Tab turns to it, where the typing is seen.)
    [ "$pages" -le 1 ] || expect text_page $((pages - 1))
    # (Typed once the field has the keyboard: under a sanitizer a frame takes long enough for the
    # characters to arrive first.)
    for _ in $(seq 100); do [ "$(answer active)" = True ] && break; sleep 0.1; done
    [ "$(answer active)" = True ] || { echo "FAIL: Tab did not give the answer field the keyboard: $(field answer)"; exit 1; }
    xdotool type --delay 60 "65/3"
    xdotool key Return
    for _ in $(seq 50); do [ "$(answer verdict)" != -1 ] && break; sleep 0.1; done
    [ "$(answer typed)" = "65/3" ] || { echo "FAIL: Tab then typing did not reach the answer field (typed '$(answer typed)')"; exit 1; }
    # (verdict: −1 not checked, 0 right, 1 not right; mistake: the index of the known mistake named)
    [ "$(answer verdict)" = 1 ] && [ "$(answer mistake)" = 0 ] || { echo "FAIL: 65/3 is not named as the known mistake: $(field answer)"; exit 1; }
    expect event update:1
    echo "ok: Tab, 65/3, Enter: the known mistake is named, the timeline did not move"
    # (Enter lets go of the field: Tab again selects the first try, typed over.)
    xdotool key Tab
    for _ in $(seq 100); do [ "$(answer active)" = True ] && break; sleep 0.1; done
    xdotool type --delay 60 "160/7"
    xdotool key Return
    for _ in $(seq 50); do [ "$(answer verdict)" = 0 ] && break; sleep 0.1; done
    [ "$(answer verdict)" = 0 ] || { echo "FAIL: 160/7 is not right: $(field answer)"; exit 1; }
    for _ in $(seq 8); do [ "$(field revealed)" = True ] && break; xdotool key Next; sleep 0.3; done
    expect revealed True
    echo "ok: 160/7 is right, and PageDown from the field reveals"
    stop
    # A choice question from the keyboard: its number picks it (a student's laptop needed the mouse for
    # RC-T3/b0; issue 29's second walk-through). 4 is no choice of b0's three: nothing happens.
    first_step=RC-T3/b0
    start --width 1280 --height 720 --step RC-T3/b0
    xdotool key 4; sleep 0.5
    [ "$(answer choice)" = 0 ] || { echo "FAIL: 4 picked a choice of three: $(field answer)"; exit 1; }
    xdotool key 2
    for _ in $(seq 50); do [ "$(answer choice)" = 2 ] && break; sleep 0.1; done
    [ "$(answer choice)" = 2 ] && [ "$(answer verdict)" = 1 ] || { echo "FAIL: the key 2 did not pick b0's second choice: $(field answer)"; exit 1; }
    xdotool key 1
    for _ in $(seq 50); do [ "$(answer choice)" = 1 ] && break; sleep 0.1; done
    [ "$(answer choice)" = 1 ] && [ "$(answer verdict)" = 0 ] || { echo "FAIL: the key 1 did not pick the right choice: $(field answer)"; exit 1; }
    echo "ok: 1–8 pick a choice question's choices"
    stop ;;
  glyphs)
    name="$out/溢出逻辑_全屏浏览.json"
    cp "$root/lessons/scenarios/worked_214.json" "$name"
    first_step=""
    start --width 1200 --height 800 --scenario "$name"
    expect missing_glyphs 0
    xdotool key ctrl+o; expect show_open True
    expect missing_glyphs 0            # the Recent list shows the name
    # Into the path field, which has the keyboard (龘 is in no shipped text). xdotool types a character
    # outside the layout by mapping it to a spare keycode for the one keystroke; an app busy baking
    # glyphs may look the keycode up after it is unmapped again, so a lost character is typed again.
    typed=""
    for ch in 全 屏 浏 览 龘; do
      typed="$typed$ch"
      for _ in 1 2 3; do
        xdotool type "$ch"
        for _ in $(seq 20); do [ "$(field open_path)" = "$typed" ] && break; sleep 0.1; done
        [ "$(field open_path)" = "$typed" ] && break
      done
    done
    expect open_path "全屏浏览龘"
    expect missing_glyphs 0
    stop ;;
  export)
    rm -rf "$out/exports"; mkdir -p "$out/exports"
    first_step=RC-T3/b1
    start --width 1000 --height 700 --export-dir "$out/exports" --step RC-T3/b1
    xdotool key ctrl+e  # press and release at once: the queued keys keep it
    want="$out/exports/blockwise-RC-T3-b1@2x.png"
    # Up to 30 s: under ASan a 2000×1400 PNG takes seconds to deflate.
    for _ in $(seq 300); do [ -s "$want" ] && break; sleep 0.1; done
    [ -s "$want" ] || { echo "FAIL: no $want"; ls -l "$out/exports"; cat "$out/app.log"; exit 1; }
    expect toast "wrote $want"
    stop
    # Ctrl+E swaps the font atlas for one at 2×, then back: the window's fonts pointed into the atlas
    # it cleared, and the next frames drew with them (a teacher's walk-through: on the end card, in
    # projector mode, "font->Scale > 0" or a segfault 2 times in 5). Five exports on the end card, each
    # followed by frames that draw text, and the app still answers.
    rm -f "$state"
    "$app" --no-settings --lang zh --projector --state-file "$state" --width 1600 --height 1000 --export-dir "$out/exports" \
      --step end >"$out/app.log" 2>&1 &
    pid=$!
    wid=$(xdotool search --sync --onlyvisible --name '^Blockwise$' | head -1)
    xdotool windowfocus --sync "$wid" 2>/dev/null || true
    expect end_card True
    want="$out/exports/blockwise-FLASH-end@2x.png"   # named from the course, not its last step
    for k in 1 2 3 4 5; do
      rm -f "$out/exports/"*.png
      xdotool key ctrl+e
      for _ in $(seq 300); do [ -s "$want" ] && break; sleep 0.1; done
      [ -s "$want" ] || { echo "FAIL: no $want"; ls -l "$out/exports"; cat "$out/app.log"; exit 1; }
      xdotool key l; expect lang en   # frames that draw the end card's text again, in the other language
      xdotool key l; expect lang zh
      kill -0 $pid 2>/dev/null || { echo "FAIL: the app died after export $k on the end card"; cat "$out/app.log"; exit 1; }
      echo "ok: export $k on the end card"
    done
    stop ;;
  names)
    # N23's tiles name themselves on a student's 1280×720 laptop, in en and zh: every HBM tile (Q_1 …
    # L_4) and SRAM slot (Q, K, V, S) that has a state shows its name beside its symbol, as the window
    # paints it (--dump-scene's labels). In English, whose side panel is wider, the diagram's em was too
    # small for two lines, and they showed the symbol alone (a teacher's walk-through).
    for step in N23/c1 N23/c2 N23/c3; do
      for lang in en zh; do
        "$app" --no-settings --lang "$lang" --step "$step" --width 1280 --height 720 --screenshot "$out/shot.png" \
          --dump-scene "$out/scene.json" >"$out/app.log" 2>&1 || { echo "FAIL: $step $lang"; cat "$out/app.log"; exit 1; }
        /usr/bin/python3 - "$out/scene.json" <<'PY' || { echo "FAIL: $step $lang: a tile without its name"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
for r in d["rects"]:
    parts = r["id"].split(".")
    if parts[0] not in ("hbm", "sram") or len(parts) < 2 or r["id"] == "sram.acc" or r.get("state") == "none":
        continue
    want = parts[1] if parts[0] == "sram" else parts[1] + ("_" + parts[2] if len(parts) > 2 else "")
    texts = [l["text"] for l in d["labels"] if l["owner"] == "rect:" + r["id"]]
    if not any(want in t for t in texts):
        bad.append(r["id"] + " shows " + repr(texts) + ", not its name " + want)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
        echo "ok: $step $lang names its tiles"
      done
    done ;;
  *) echo "unknown case $case_"; exit 2 ;;
esac
echo "desktop test $case_ passed"
