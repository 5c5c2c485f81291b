#!/usr/bin/env bash
# blockwise-cli against hostile surroundings (issue 31): a file name that is not UTF-8 (items 1, 12),
# outputs that cannot be written (item 7: /dev/full, a full disk simulated with a file-size limit), a
# FIFO given as the recording (item 11). Each case fails on the main before issue 31's fixes.
# Usage: hostile_test.sh BLOCKWISE_CLI REPO_ROOT
. "$(dirname "$0")/common.sh" "$@"
valid_json() { python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1"; }

# 1. A Latin-1 file name: --json printed nothing and aborted (nlohmann type_error 316).
latin1="$T/caf"$'\xe9'".json"
cp "$ROOT/lessons/scenarios/worked_214.json" "$latin1"
"$CLI" run --json "$latin1" >"$T/run.json" 2>"$T/err" || bad "run --json on a Latin-1 name exited $? ($(head -c 300 "$T/err"))"
valid_json "$T/run.json" || bad "run --json on a Latin-1 name printed no valid JSON"
latin1_v2="$T/att"$'\xe9'".json"
cp "$ROOT/assets/scenarios/attention_causal_small.json" "$latin1_v2"
"$CLI" attention --json "$latin1_v2" >"$T/att.json" 2>"$T/err" || bad "attention --json on a Latin-1 name exited $?"
valid_json "$T/att.json" || bad "attention --json on a Latin-1 name printed no valid JSON"

# 7. Standard output on a full device: exit 0 with the output lost before.
"$CLI" run "$ROOT/lessons/scenarios/worked_214.json" >/dev/full 2>"$T/err"
rc=$?
[ $rc -ne 0 ] || bad "run >/dev/full exited 0"
grep -q "standard output" "$T/err" || bad "run >/dev/full said nothing: $(cat "$T/err")"

# 7. --counters-csv /dev/full: exit 0 and no message before; a device is never replaced either.
"$CLI" attention --counters-csv /dev/full "$ROOT/assets/scenarios/attention_causal_small.json" >/dev/null 2>"$T/err"
[ $? -ne 0 ] || bad "attention --counters-csv /dev/full exited 0"
grep -q "/dev/full" "$T/err" || bad "attention --counters-csv /dev/full: the error does not name the file: $(cat "$T/err")"

# 7. A full disk (RLIMIT_FSIZE: write() fails part-way, as with ENOSPC): the old trace was cut to 4 KiB.
printf 'the previous trace\n' >"$T/trace.json"
(ulimit -f 2; trap '' XFSZ; exec "$CLI" attention --trace-json "$T/trace.json" "$ROOT/assets/scenarios/attention_causal_small.json") \
  >/dev/null 2>"$T/err"
[ $? -ne 0 ] || bad "attention --trace-json on a full disk exited 0"
[ "$(cat "$T/trace.json")" = "the previous trace" ] || bad "the previous trace was changed by a failed write"
[ -z "$(find "$T" -name '.trace.json.tmp-*')" ] || bad "a temporary file was left behind"
"$CLI" attention --trace-json "$T/trace.json" "$ROOT/assets/scenarios/attention_causal_small.json" >/dev/null || bad "a plain --trace-json failed"
valid_json "$T/trace.json" || bad "--trace-json wrote no valid JSON"

# … and a device named on purpose is written straight: /dev/stdout still works.
"$CLI" attention --counters-csv /dev/stdout "$ROOT/assets/scenarios/attention_causal_small.json" 2>"$T/err" | grep -q "^algorithm,counter" \
  || bad "attention --counters-csv /dev/stdout: $(cat "$T/err")"

# 11. A FIFO as the recording blocked for ever before the first line.
mkfifo "$T/fifo.json"
timeout 30 "$CLI" gpu --speed 0 --recording "$T/fifo.json" >/dev/null 2>"$T/err"
rc=$?
[ $rc -ne 124 ] || bad "gpu --recording FIFO still blocks"
[ $rc -ne 0 ] || bad "gpu --recording FIFO exited 0"
grep -q "not a regular file" "$T/err" || bad "gpu --recording FIFO: $(cat "$T/err")"

# 12. A folder as the recording said "unexpected end of input".
"$CLI" gpu --speed 0 --recording "$T" >/dev/null 2>"$T/err"
grep -q "is a folder" "$T/err" || bad "gpu --recording FOLDER: $(cat "$T/err")"

# 15. −∞, +∞ and NaN were all written as null by --json; now "-inf", "+inf", "NaN", as the numerics
# report and the loaders spell them.
NUM="$ROOT/tests/corpus/files"
"$CLI" run --json "$NUM/numerics_case3_raw_exp_overflow.json" >"$T/inf.json" 2>/dev/null
python3 - "$T/inf.json" <<'PY' || bad "run --json: a non-finite number written as null"
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
blocks = doc["blocks"]
values = [b[k] for b in blocks for k in ("l_b", "l", "alpha", "beta")] + [x for b in blocks for x in b["u"]]
assert None not in values, values
assert "+inf" in values or "NaN" in values, values
PY

# The second hostile round (issue 31's 30 new inputs). A recording whose smid is 2^32 − 1: SIGSEGV
# (smid + 1 wrapped); 1×1 tiles at n 8192: 1.6 GB; n_q = −5: accepted and drawn as "N −5".
for case in "tiles/0/2=4294967295" "problem/b_r=1" "problem/n_q=-5" "device/sm_count=2147483647"; do
  python3 - "$ROOT/assets/gpu/recorded_run_h200.json" "$T/rec.json" "$case" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["tiles"] = r["tiles"][:3]
where, value = sys.argv[3].split("=")
*parents, last = where.split("/")
node = r
for p in parents:
    node = node[int(p)] if p.isdigit() else node[p]
node[int(last) if last.isdigit() else last] = int(value)
if where == "problem/b_r":
    r["problem"]["b_c"] = 1
json.dump(r, open(sys.argv[2], "w"))
PY
  timeout 60 "$CLI" gpu --speed 0 --recording "$T/rec.json" >/dev/null 2>"$T/err"
  rc=$?
  [ $rc -eq 1 ] || bad "gpu --recording with $case exited $rc ($(head -c 300 "$T/err"))"
  grep -q "rec.json: /${case%%=*}" "$T/err" || bad "gpu --recording with $case: the error does not name /${case%%=*}: $(head -c 300 "$T/err")"
done

# A lesson whose texts hold placeholders that name nothing: `check` said ok and the class saw braces.
for body in '{m@99999999999}' '{}' 'unclosed {m' '{x/y}'; do
  one_step_lesson start "x $body"
  "$CLI" check "$T/L/lesson.json" >/dev/null 2>"$T/err"
  rc=$?
  [ $rc -eq 2 ] || bad "check with body '$body' exited $rc ($(head -c 300 "$T/err"))"
  grep -q "lesson.json: /steps/0/body/en: " "$T/err" || bad "check with body '$body': $(head -c 300 "$T/err")"
done

# A highlight that names no rect did nothing (issue 32): refused at its path, with the near id.
python3 - "$T/L/lesson.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
d["steps"][0]["body"] = {"zh": "好", "en": "x"}
d["steps"][0]["highlight"] = ["hbm.O"]
json.dump(d, open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False)
PY
"$CLI" check "$T/L/lesson.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] || bad "check with highlight hbm.O did not fail"
grep -q '/steps/0/highlight/0: .*did you mean "hbm.o"' "$T/err" || bad "check with highlight hbm.O: $(head -c 300 "$T/err")"

# An output path that is a symbolic link is written through, the link kept.
mkdir -p "$T/shared"
printf '{"old": true}' >"$T/shared/trace.json"
ln -s shared/trace.json "$T/link.json"
"$CLI" attention --trace-json "$T/link.json" "$ROOT/assets/scenarios/attention_causal_small.json" >/dev/null 2>"$T/err" \
  || bad "--trace-json through a link: $(cat "$T/err")"
[ -L "$T/link.json" ] || bad "--trace-json replaced the symbolic link with a file"
grep -q '"old"' "$T/shared/trace.json" && bad "--trace-json left the link's target as it was"

[ $fail -eq 0 ] && echo "hostile: all cases passed"
exit $fail
