#!/usr/bin/env bash
# An author's slips and tools (issue 32): `placeholders` lists what a file offers with its values and
# forms; `check` refuses a near-miss name with "did you mean", an unknown form, a check number that is
# not there (naming the ones that are); the forms fill as the reference says.
# Usage: authoring_test.sh BLOCKWISE_CLI REPO_ROOT
. "$(dirname "$0")/common.sh" "$@"

# placeholders on a scenario, at its end and at a position.
"$CLI" placeholders "$ROOT/lessons/scenarios/worked_214.json" >"$T/out" 2>"$T/err" || bad "placeholders exited $? ($(head -c 300 "$T/err"))"
grep -qP '^\{output\}\tfinal\t160/7 ≈ 22.86\tThe final output' "$T/out" || bad "no {output} row: $(head -c 400 "$T/out")"
grep -qP '^\{output\|fraction\}\t\t160/7$' "$T/out" || bad "no {output|fraction} form"
grep -qP '^\{output\|decimal\}\t\t22.86$' "$T/out" || bad "no {output|decimal} form"
grep -qP '^\{average\}\tfinal\t65/3 ≈ 21.67\t' "$T/out" || bad "no {average} = 65/3"
grep -q "not in the reference" "$T/out" && bad "a name is not in the reference: $(grep -c 'not in the reference' "$T/out")"
"$CLI" placeholders "$ROOT/lessons/scenarios/worked_214_stable.json" --position update:1 >"$T/out" 2>"$T/err" || bad "placeholders --position exited $?"
grep -qP '^\{m\}\tposition\tln 2\t' "$T/out" || bad "m at update:1 is not ln 2: $(grep '^{m}' "$T/out")"
grep -qP '^\{l\}\tposition\t3/2 ≈ 1.5\t' "$T/out" || bad "l at update:1 is not 3/2"
grep -qP '^\{u\}\tposition\t20\t' "$T/out" || bad "u at update:1 is not 20"
# On a lesson: a step's own scenario and position.
"$CLI" placeholders "$ROOT/lessons/rc-t3.json" --step b2 >"$T/out" 2>"$T/err" || bad "placeholders --step exited $?"
grep -q 'at "update:2"' "$T/out" || bad "--step b2 is not at its position: $(head -1 "$T/out")"
"$CLI" placeholders "$ROOT/lessons/rc-t3.json" --step zz9 >/dev/null 2>"$T/err"
[ $? -eq 2 ] || bad "placeholders --step zz9 did not exit 2"
grep -q 'no step "zz9"' "$T/err" || bad "--step zz9: $(cat "$T/err")"
# (An argument with an escape sequence and a newline is echoed as one escaped line: LoadError escapes its reason.)
"$CLI" placeholders "$ROOT/lessons/rc-t3.json" --step $'\e[31mRED\nx' >/dev/null 2>"$T/err"
grep -q $'\e' "$T/err" && bad "placeholders --step echoed a raw ESC"
[ "$(wc -l <"$T/err")" -eq 1 ] || bad "placeholders --step with a newline: not one line: $(cat "$T/err")"
"$CLI" placeholders "$ROOT/lessons/scenarios/worked_214.json" --position update:9 >/dev/null 2>"$T/err"
[ $? -eq 2 ] || bad "placeholders --position update:9 did not exit 2"
# --reference is docs/placeholders.md.
"$CLI" placeholders --reference | cmp -s - "$ROOT/docs/placeholders.md" || bad "placeholders --reference differs from docs/placeholders.md"

one_step_lesson end 'O = {output|fraction}, about {output|decimal}'
"$CLI" check "$T/L/lesson.json" >/dev/null 2>"$T/err" || bad "the forms were refused: $(cat "$T/err")"
one_step_lesson end 'O = {outptu}'
"$CLI" check "$T/L/lesson.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] || bad "{outptu} was not refused"
grep -q '/steps/0/body/en: unknown placeholder {outptu}: .*did you mean {output}?' "$T/err" || bad "{outptu}: $(cat "$T/err")"
one_step_lesson end 'O = {output|frac}'
"$CLI" check "$T/L/lesson.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] || bad "{output|frac} was not refused"
grep -q 'no form "frac" (the forms are |fraction and |decimal' "$T/err" || bad "{output|frac}: $(cat "$T/err")"
one_step_lesson end 'x' 'out'
"$CLI" check "$T/L/lesson.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] || bad "check number \"out\" was not refused"
grep -q '/steps/0/check/number: .*no single number "out".*did you mean "output"?.*(single numbers here: .*average' "$T/err" || bad "number out: $(cat "$T/err")"

# A typo inside a known mistake's hint is refused at its path too (it passed, and the student saw the braces).
one_step_lesson end 'x' 'output'
python3 - "$T/L/lesson.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
d["steps"][0]["check"]["mistakes"] = [{"number": "average", "hint": {"zh": "好", "en": "{avrage|fraction} is the plain mean"}}]
json.dump(d, open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False)
PY
"$CLI" check "$T/L/lesson.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] || bad "a typo in a mistake's hint was not refused"
grep -q '/steps/0/check/mistakes/0/hint/en: unknown placeholder {avrage|fraction}: .*did you mean {average}?' "$T/err" || bad "hint typo: $(cat "$T/err")"

# Integer logits are not exact: check says so (the README once promised exact answers "when the inputs are integers").
"$CLI" check "$ROOT/lessons/scenarios/logits_ln2_0_ln4.json" >/dev/null 2>"$T/err" || bad "check on a logits file exited $?"
grep -q 'logits_ln2_0_ln4.json: /logits: the weights are e^logit, so its numbers are decimals' "$T/err" || bad "no logits note: $(cat "$T/err")"
"$CLI" check "$ROOT/lessons/scenarios/worked_214.json" >/dev/null 2>"$T/err"
grep -q "logits" "$T/err" && bad "a weights file got the logits note"

# lesson new: a template bound to a scenario in the lesson's folder, that loads and checks its output.
mkdir -p "$T/N/scenarios"
cp "$ROOT/lessons/scenarios/worked_214.json" "$T/N/scenarios/"
"$CLI" lesson new --id MINE --scenario "$T/N/scenarios/worked_214.json" -o "$T/N/mine.json" >"$T/out" 2>"$T/err" || bad "lesson new exited $? ($(cat "$T/err"))"
"$CLI" check "$T/N/mine.json" >/dev/null 2>"$T/err" || bad "the new lesson does not check: $(cat "$T/err")"
python3 - "$T/N/mine.json" <<'PY' || bad "the new lesson's contents"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["scenarios"] == {"main": "scenarios/worked_214.json"}, d["scenarios"]
assert [s["id"] for s in d["steps"]] == ["MINE/s1", "MINE/s2"], [s["id"] for s in d["steps"]]
assert d["steps"][0]["position"] == "start" and d["steps"][0]["check"] == {"number": "output"}, d["steps"][0]  # asked before it shows
assert d["steps"][1]["position"] == "end", d["steps"][1]["position"]
assert all(set(s["body"]) == {"zh", "en"} for s in d["steps"])
PY
"$CLI" lesson new --id MINE --scenario "$T/N/scenarios/worked_214.json" -o "$T/N/mine.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "never overwrites" "$T/err" || bad "lesson new overwrote a file: $(cat "$T/err")"
"$CLI" lesson new --id MINE --scenario "$ROOT/lessons/scenarios/worked_214.json" -o "$T/N/other.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "lies outside the lesson's folder" "$T/err" || bad "lesson new with a scenario elsewhere: $(cat "$T/err")"
[ -e "$T/N/other.json" ] && bad "a refused lesson new left a file"

# lesson new on an attention scenario: its template names only placeholders that scenario has (it used
# {l} and {u} and failed its own check).
mkdir -p "$T/AT/scenarios"
cp "$ROOT/assets/scenarios/attention_causal_small.json" "$T/AT/scenarios/"
"$CLI" lesson new --id ATT --scenario "$T/AT/scenarios/attention_causal_small.json" -o "$T/AT/att.json" >/dev/null 2>"$T/err" \
  || bad "lesson new on an attention scenario exited $? ($(cat "$T/err"))"
"$CLI" check "$T/AT/att.json" >/dev/null 2>"$T/err" || bad "the attention template does not check: $(cat "$T/err")"

# lesson ids: what highlight, conceal and panel can name at a step (the single query's written O is hbm.o).
"$CLI" lesson ids "$ROOT/lessons/rc-t3.json" --step b3 >"$T/out" 2>"$T/err" || bad "lesson ids exited $? ($(cat "$T/err"))"
grep -qP '^hbm\.o\t' "$T/out" || bad "lesson ids lacks hbm.o: $(head -c 400 "$T/out")"
grep -qP '^sram\.acc\t' "$T/out" || bad "lesson ids lacks sram.acc"
grep -qx 'accumulator.*' <(grep -P '^accumulator\t' "$T/out") || bad "lesson ids lacks the accumulator panel"
grep -q '^hbm\.O' "$T/out" && bad "lesson ids lists hbm.O"
"$CLI" lesson ids "$ROOT/assets/scenarios/attention_causal_small.json" --position tile:2,1 >"$T/out" 2>"$T/err" || bad "lesson ids on v2 exited $?"
grep -qx 'heatmap' "$T/out" || bad "lesson ids on an attention scenario lacks the heatmap"

# A question whose answer the engine draws while it is open is refused (exit 3) with the step, the
# check's path, the number and where it is drawn; concealing what shows it makes it check.
mkdir -p "$T/A"
cp -r "$ROOT/lessons/examples/." "$T/A/"
conceal_e3() {  # position, conceal (JSON)
  python3 - "$T/A/my-first-lesson.json" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
e3 = next(s for s in d["steps"] if s["id"] == "EXAMPLE/e3")
e3["position"] = sys.argv[2]
e3["conceal"] = json.loads(sys.argv[3])
json.dump(d, open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False)
PY
}
conceal_e3 end '[]'
"$CLI" check "$T/A/my-first-lesson.json" >"$T/out" 2>"$T/err"
[ $? -eq 3 ] || bad "a question at end with its answer on screen did not exit 3: $(cat "$T/err")"
[ -s "$T/out" ] && bad "an answer on screen still printed ok: $(cat "$T/out")"
grep -q '/steps/2/check/number: EXAMPLE/e3 asks for output, and its answer 40 is on screen while the question is open (panel accumulator: ' "$T/err" \
  || bad "answer on screen: $(cat "$T/err")"
conceal_e3 end '["accumulator"]'
"$CLI" check "$T/A/my-first-lesson.json" >/dev/null 2>"$T/err"
[ $? -eq 3 ] && grep -q 'its answer 40 is on screen .*(diagram hbm.o: "O = 40"' "$T/err" || bad "the written O was not found: $(cat "$T/err")"
conceal_e3 end '["accumulator", "hbm.o"]'
"$CLI" check "$T/A/my-first-lesson.json" >/dev/null 2>"$T/err"
[ $? -eq 3 ] && grep -q 'its answer 40 is on screen .*(diagram strip.o: "o = u/l = ' "$T/err" || bad "the merge strip's o was not found: $(cat "$T/err")"
conceal_e3 end '["accumulator", "hbm.o", "strip"]'
"$CLI" check "$T/A/my-first-lesson.json" >/dev/null 2>"$T/err" || bad "concealed, it still does not check: $(cat "$T/err")"

# A one-digit count is looked for where it is a count ("10 computed, 6 skipped"): MASK/k1 asks how many
# tiles are skipped; moved to the end, where the comparison panel counts them, it is refused.
mkdir -p "$T/M"
cp -r "$ROOT/lessons/." "$T/M/"
python3 - "$T/M/masks.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
next(s for s in d["steps"] if s["id"] == "MASK/k1")["position"] = "end"
json.dump(d, open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False)
PY
"$CLI" check "$T/M/masks.json" >/dev/null 2>"$T/err"
[ $? -eq 3 ] && grep -q 'MASK/k1 asks for total_tiles_skipped, and its answer 6 is on screen .*(panel compare: ' "$T/err" \
  || bad "a count answer on screen: $(cat "$T/err")"

# The worked example of docs/authoring.md loads.
"$CLI" check "$ROOT/lessons/examples/my-first-lesson.json" >/dev/null 2>"$T/err" || bad "the authoring example fails: $(cat "$T/err")"

exit $fail
