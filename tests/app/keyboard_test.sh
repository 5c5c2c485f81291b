#!/usr/bin/env bash
# Drives the real app with the keyboard (xdotool, XTEST) inside its own Xvfb server and checks the
# state the app writes (--state-file): → moves one event, PageDown reveals a question's answer,
# shows a long text's next page, then moves one lesson step, B blanks the screen, PageDown crosses into the course's next lesson through its
# title card and PageUp back, Space plays to the next step's mark (not past an open question), Shift+→ jumps a block, ? opens the shortcut list, Ctrl+= enlarges the font; the app
# survives minimise/restore and resize loops and still answers keys afterwards.
# Usage: keyboard_test.sh APP ROOT OUTDIR   (run it under xvfb-run)
set -euo pipefail
app=$1 root=$2 out=$3
mkdir -p "$out"
state="$out/state.json"
rm -f "$state"
"$app" --no-settings --lesson "$root/lessons/rc-t3.json" --lang en --state-file "$state" --width 1200 --height 800 \
  >"$out/app.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$state" "$1"; }
# Waits until the state file's FIELD equals VALUE (5 s at most).
expect() {
  local f=$1 want=$2 got=""
  for _ in $(seq 50); do
    got=$(field "$f" 2>/dev/null || true)
    [ "$got" = "$want" ] && { echo "ok: $f = $want"; return 0; }
    sleep 0.1
  done
  echo "FAIL: $f is '$got', expected '$want'"; cat "$out/app.log"; exit 1
}
# PageDown through the current step's remaining text pages (their count depends on the font).
through_pages() {
  local page
  for _ in $(seq 12); do
    page=$(field text_page)
    { [ "$page" -lt 0 ] || [ $((page + 1)) -ge "$(field text_pages)" ]; } && return 0  # (−1: the last page)
    xdotool key Next; expect text_page $((page + 1))
  done
}
alive() { kill -0 $pid 2>/dev/null || { echo "FAIL: the app exited"; cat "$out/app.log"; exit 1; }; }

wid=$(xdotool search --sync --onlyvisible --name '^Blockwise$' | head -1)
xdotool windowfocus --sync "$wid" || true
expect step RC-T3/b0
expect event_index 0
xdotool key Right;      expect event_index 1
# b0 asks a question: the first PageDown (a clicker's) reveals the answer, the second moves on.
# (A question longer than the text pane: PageDown shows the rest of it first, every choice before the answer.)
for _ in $(seq 6); do [ "$(field revealed)" = True ] && break; xdotool key Next; expect step RC-T3/b0; sleep 0.3; done
expect revealed True
# A step text longer than its pane is paged (no scrollbar a clicker cannot scroll): PageDown shows
# its next page before the next step, PageUp back into a step lands on its last page.
# (The reveal turned to the page the answer begins on.)
sleep 0.3; pages=$(field text_pages); p0=$(field text_page)
for k in $(seq $((p0 + 1)) $((pages - 1))); do xdotool key Next; expect text_page "$k"; expect step RC-T3/b0; done
xdotool key Next;       expect step RC-T3/b1; expect event update:1; expect revealed False; expect text_page 0
# (Back at b0's own event its text has no "away from this step" line: count its pages again.)
xdotool key Prior;      expect step RC-T3/b0; expect revealed True; sleep 0.3; expect text_page $(($(field text_pages) - 1))
# (A revealed answer stays revealed: the class has seen it.) PageDown on to b2: b1's reveal, its pages.
for _ in $(seq 12); do [ "$(field step)" = RC-T3/b2 ] && break; xdotool key Next; sleep 0.3; done
expect step RC-T3/b2; expect revealed False
# The step follows the position: one block back is b1's stretch of the trace, its answer still shown.
xdotool key shift+Left; expect event load:2; expect step RC-T3/b1; expect revealed True
# Space plays to the next step's mark and stops there.
xdotool key space;      expect playing False; expect event update:2; expect step RC-T3/b2; expect revealed False
# b2's question is open: Space plays to b2's last event and no further.
xdotool key space;      expect playing False; expect step RC-T3/b2; expect revealed False
xdotool key r;          expect revealed True
xdotool key question;   expect show_help True
xdotool key Escape;     expect show_help False
# Ctrl+O puts the focus in the path field; one Esc still closes the dialog.
xdotool key ctrl+o;     expect show_open True
xdotool key Escape;     expect show_open False
xdotool key ctrl+equal; expect font_px 24.2
xdotool key End;        expect step RC-T3/b3
# A clicker's blank key (B or '.') blanks the screen; its PageDown brings the same step back first.
xdotool key b;          expect blank True
xdotool key Next;       expect blank False; expect step RC-T3/b3; expect title_card False
xdotool key period;     expect blank True
xdotool key period;     expect blank False
# The lesson opened is RC-T3 of the shipped course (lessons/course.json beside it): PageDown on its last
# step shows the next lesson's title card, the next one that lesson's first step; PageUp crosses back.
through_pages
xdotool key Next;       expect title_card True; expect lesson N23; expect step N23/c1
xdotool key Next;       expect title_card False; expect step N23/c1
xdotool key Prior;      expect title_card True; expect lesson N23
xdotool key Prior;      expect title_card False; expect step RC-T3/b3

for i in 1 2 3; do
  xdotool windowminimize --sync "$wid" || xdotool windowunmap --sync "$wid"
  sleep 0.3; alive
  xdotool windowmap --sync "$wid"; xdotool windowfocus --sync "$wid" || true
  sleep 0.2; alive
done
for size in "800 600" "300 200" "1600 1000" "640 480" "1200 800"; do
  xdotool windowsize --sync "$wid" $size || true
  sleep 0.2; alive
done
xdotool windowfocus --sync "$wid" || true
xdotool key Home;       expect step RC-T3/b0
alive
echo "keyboard test passed"
