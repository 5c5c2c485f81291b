# Shared by the blockwise-cli shell tests: the arguments, a scratch folder removed at exit, a failure
# counter, and a one-step lesson over the worked example to plant an author's slip in.
# Usage (sourced): . common.sh BLOCKWISE_CLI REPO_ROOT
set -u
CLI="$1"
ROOT="$2"
T="$(mktemp -d "${TMPDIR:-/tmp}/bw-cli-test.XXXXXX")"
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# one_step_lesson POSITION BODY_EN [CHECK_NUMBER]: $T/L/lesson.json, one step of RC-T3's first, bound
# to $T/L/scenarios/worked_214.json at POSITION, its English body BODY_EN; with CHECK_NUMBER a
# predict question checked against that quantity.
one_step_lesson() {
  mkdir -p "$T/L/scenarios"
  cp "$ROOT/lessons/scenarios/worked_214.json" "$T/L/scenarios/"
  python3 - "$ROOT/lessons/rc-t3.json" "$T/L/lesson.json" "$1" "$2" "${3:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
d.pop("$schema", None)
d["scenarios"] = {"main": "scenarios/worked_214.json"}
step = d["steps"][0]
for k in ("highlight", "conceal", "check", "predict", "answer", "panel"):
    step.pop(k, None)
step.update(scenario="main", position=sys.argv[3], body={"zh": "好", "en": sys.argv[4]})
if sys.argv[5]:
    step["predict"] = {"zh": "?", "en": "?"}
    step["answer"] = {"zh": "!", "en": "!"}
    step["check"] = {"number": sys.argv[5]}
d["steps"] = [step]
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
PY
}
