#!/usr/bin/env python3
"""Writes the bad-input corpus: tests/corpus/files/*.json and tests/corpus/manifest.json.

Each case is a file a teacher or student could plausibly hand-write (or a fuzzer found), and what
loading it must give: {"ok": true}, or the JSON path and a substring of the reason of the one-line
LoadError "file: /json/path: reason". The expectations are written here by hand from the file
formats (README, src/data/*.h), not copied from the loaders' output.

The files are committed; run this again only to add cases:  python3 tests/corpus/make_corpus.py
Files too big to commit (> 16 MiB) are made by the tests themselves (tests/corpus/corpus_test.cpp).
"""
import copy, json, os, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "files")

T = {"zh": "文字", "en": "text"}
V1 = {"schema_version": 1, "kind": "single_query", "title": {"zh": "甲", "en": "a"},
      "weights": [2, 1, 4], "values": [10, 20, 30], "block_sizes": [2, 1], "mode": "raw"}
V1VEC = dict(V1, values=[[1, 2], [3, 4], [5, 6]])
V1LOG = {k: v for k, v in V1.items() if k != "weights"} | {"logits": [0.69, 0, "-inf"], "mode": "stable"}
V2 = {"schema_version": 2, "kind": "attention", "title": {"zh": "乙", "en": "b"},
      "Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1], [1, 1]], "V": [[1], [2], [3]],
      "scale": 0.5, "mask": "causal", "tiles": {"B_r": 1, "B_c": 2}, "order": "flash2",
      "precision": "double", "merge": "correct", "backward": True, "dO": [[1], [1]]}
V2PAD = dict(V2, mask={"kind": "key_padding", "keep": [1, 1, 0]})
V2EXP = dict(V2, mask={"kind": "explicit", "keep": [[1, 0, 1], [1, 1, 1]]})
V2ALIGN = dict(V2, mask={"kind": "causal", "alignment": "bottom_right"})
V2LOG = {"schema_version": 2, "kind": "attention", "logits": [[0, 1, 2]], "V": [[1], [2], [3]], "order": "reference"}
V2SRAM = {k: v for k, v in V2.items() if k != "tiles"} | {"sram_elements": 64}
STEP = {"id": "T/0", "scenario": "a", "position": "start", "title": T, "body": T, "further": T,
        "teacher_notes": T, "source": T}
LESSON = {"schema_version": 1, "id": "T", "title": {"zh": "课", "en": "Lesson"},
          "scenarios": {"a": "scenarios/ok_v1.json", "b": "scenarios/ok_v2.json"},
          "steps": [STEP, dict(STEP, id="T/1", scenario="b", position="end")]}

cases = []  # (name, loader, bytes, expect)


def put(doc, pointer, value):
    """A copy of doc with the value at pointer replaced (or removed when value is DELETE)."""
    doc = json.loads(json.dumps(doc))  # a deep copy that shares nothing (deepcopy keeps shared T)
    parts = [p for p in pointer.split("/")[1:]]
    cur = doc
    for p in parts[:-1]:
        cur = cur[int(p)] if isinstance(cur, list) else cur[p]
    last = parts[-1]
    key = int(last) if isinstance(cur, list) else last
    if value is DELETE:
        del cur[key]
    else:
        cur[key] = value
    return doc


DELETE = object()


def dump(doc):
    compact = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    return ((compact if len(compact) > 4000 else json.dumps(doc, ensure_ascii=False, indent=1)) + "\n").encode()


def add(name, loader, content, path=None, reason=None, ok=False, as_opened=None):
    if isinstance(content, (dict, list)):
        content = dump(content)
    elif isinstance(content, str):
        content = content.encode()
    expect = {"ok": True} if ok else {"path": path, "reason": reason}
    if as_opened:  # the app and `blockwise-cli check` pick lesson or scenario from the content
        expect["opened_path"], expect["opened_reason"] = as_opened
    cases.append((name, loader, content, expect))


def bad(name, loader, base, pointer, value, reason, path=None):
    add(name, loader, put(base, pointer, value), pointer if path is None else path, reason)


# ---- accepted (the corpus must not refuse good files) ---------------------------------------
add("ok_v1", "scenario", V1, ok=True)
add("ok_v1_vector_values", "scenario", V1VEC, ok=True)
add("ok_v1_logits", "scenario", V1LOG, ok=True)
# FlashAttention-4's conditional rescale: a threshold τ, stable mode only.
V1TAU = dict(V1, mode="stable", rescale_threshold=0.7)
add("ok_v1_rescale_threshold", "scenario", V1TAU, ok=True)
bad("v1_rescale_threshold_negative", "scenario", V1TAU, "/rescale_threshold", -1, "must be >= 0")
bad("v1_rescale_threshold_string", "scenario", V1TAU, "/rescale_threshold", "8", "expected a number")
bad("v1_rescale_threshold_raw", "scenario", V1TAU, "/mode", "raw", "needs \"mode\": \"stable\"", path="/rescale_threshold")
add("ok_v2", "scenario", V2, ok=True)
add("ok_v2_key_padding", "scenario", V2PAD, ok=True)
add("ok_v2_explicit_mask", "scenario", V2EXP, ok=True)
add("ok_v2_bottom_right", "scenario", V2ALIGN, ok=True)
add("ok_v2_logits", "scenario", V2LOG, ok=True)
add("ok_v2_sram", "scenario", V2SRAM, ok=True)
add("ok_lesson", "lesson", LESSON, ok=True)
add("bom_v1", "scenario", b"\xef\xbb\xbf" + dump(V1), ok=True)
add("bom_v2", "scenario", b"\xef\xbb\xbf" + dump(V2), ok=True)
add("bom_lesson", "lesson", b"\xef\xbb\xbf" + dump(LESSON), ok=True)
add("ok_v1_unicode_escape", "scenario", dump(V1).replace("甲".encode(), b"\\u7532 \\ud83d\\ude00"), ok=True)

# ---- malformed and truncated JSON ------------------------------------------------------------
full = dump(V1).decode()
add("empty_file", "scenario", b"", "", "malformed JSON")
add("whitespace_only", "scenario", b"  \n\t\n", "", "malformed JSON")
add("truncated_in_array", "scenario", full[:full.index('"values"') - 8], "/weights/2", "malformed JSON")
add("truncated_in_string", "scenario", full[:full.index('"single_q') + 6], "/kind", "malformed JSON")
add("truncated_after_key", "scenario", '{"schema_version": 1, "kind"', "/kind", "malformed JSON")
add("truncated_lesson", "lesson", dump(LESSON)[:200], "/steps/0", "unexpected end of input")
add("trailing_comma", "scenario", full.replace('"mode": "raw"', '"mode": "raw",'), "", "malformed JSON")
add("single_quotes", "scenario", full.replace('"mode": "raw"', "'mode': 'raw'"), "", "malformed JSON")
add("comment", "scenario", full.replace('"mode"', '// mode\n "mode"'), "", "malformed JSON")
add("trailing_garbage", "scenario", full + "x", "", "malformed JSON")
add("two_documents", "scenario", full + full, "", "malformed JSON")
add("unquoted_key", "scenario", full.replace('"mode"', 'mode'), "", "malformed JSON")
add("duplicate_key", "scenario", full.replace('"mode": "raw"', '"mode": "raw", "mode": "stable"'), "/mode", "duplicate key")
add("top_level_array", "scenario", b"[1, 2, 3]\n", "", "expected an object, found an array")
add("top_level_number", "scenario", b"42\n", "", "expected an object, found an integer")
add("lesson_top_level_string", "lesson", b'"lesson"\n', "", "expected an object, found a string")

# ---- NaN and Infinity: bare literals (not JSON) and as strings --------------------------------
add("nan_bare_v1", "scenario", full.replace('[\n  2,', '[\n  NaN,', 1), "/weights/0", "malformed JSON")
add("infinity_bare_v2", "scenario", dump(V2).decode().replace('"Q": [\n  [\n   1,', '"Q": [\n  [\n   Infinity,'), "/Q/0/0", "malformed JSON")
add("neg_infinity_bare_v1", "scenario", full.replace('[\n  10,', '[\n  -Infinity,', 1), "/values/0", "malformed JSON")
bad("nan_string_v1", "scenario", V1, "/weights/1", "NaN", "non-finite values are not allowed")
bad("infinity_string_v1", "scenario", V1, "/values/2", "Infinity", "non-finite values are not allowed")
bad("nan_string_v2", "scenario", V2, "/V/0/0", "NaN", "non-finite values are not allowed")
bad("infinity_string_v2", "scenario", V2, "/K/1/1", "Infinity", "non-finite values are not allowed")
bad("neg_infinity_string_scale", "scenario", V2, "/scale", "-Infinity", "non-finite values are not allowed")
bad("inf_string_logits_v2", "scenario", V2LOG, "/logits/0/0", "-inf", "expected a number, found the string")
bad("nan_string_block_size", "scenario", V1, "/block_sizes/0", "NaN", "expected a whole number, found a string")
add("huge_1e999_weight", "scenario", full.replace('[\n  2,', '[\n  1E999,', 1), "/weights/0", "out of the double range")
# … and too small: 1e-400 reads as 0, a positive weight silently drawn as masked (issue 31)
add("tiny_1e-400_weight", "scenario", full.replace('[\n  2,', '[\n  1e-400,', 1), "/weights/0", "too small for a double")
add("tiny_neg_1e-999_value", "scenario", full.replace('"values": [\n  10,', '"values": [\n  -1.5E-999,', 1), "/values/0", "too small for a double")
add("zero_written_long_ok", "scenario", full.replace('[\n  2,', '[\n  0.000e-500,', 1).replace('"block_sizes"', '"block_sizes"', 1), ok=True)
add("huge_1e999_scale", "scenario", dump(V2).decode().replace('"scale": 0.5', '"scale": 1E999'), "/scale", "out of the double range")
add("huge_neg_1e999_K", "scenario", dump(V2).decode().replace('"K": [\n  [\n   1,', '"K": [\n  [\n   -1E999,'), "/K/0/0", "out of the double range")
add("huge_1e999_block_size", "scenario", full.replace('"block_sizes": [\n  2,', '"block_sizes": [\n  1E999,'), "/block_sizes/0", "out of the double range")
# (1e-999 was accepted as 0 until issue 31: a positive weight silently became a masked one)
add("tiny_1e-999_weight", "scenario", full.replace('[\n  2,', '[\n  1e-999,', 1), "/weights/0", "too small for a double")
# A 10,000-digit tiny number: the echo filled the line's 600 bytes and the reason was cut off (issue 31)
add("tiny_10000_digits_weight", "scenario", full.replace('[\n  2,', '[\n  0.' + '0' * 9998 + '1,', 1), "/weights/0", "too small for a double")

# ---- -1 and 2.7 (and other non-counts) where a count is expected ------------------------------
bad("count_neg_block_size", "scenario", V1, "/block_sizes/0", -1, "below the minimum 1")
bad("count_frac_block_size", "scenario", V1, "/block_sizes/0", 2.7, "expected a whole number, found 2.7")
# 2.0 is the whole number 2: JSON Schema 2020-12 says so, and the loaders follow it (issue 12, case 7).
add("count_2point0_block_size", "scenario", put(V1, "/block_sizes/0", 2.0), ok=True)
bad("count_zero_block_size", "scenario", V1, "/block_sizes/0", 0, "below the minimum 1")
add("count_huge_int_block_size", "scenario", full.replace('"block_sizes": [\n  2,', '"block_sizes": [\n  100000000000000000000000,'), "/block_sizes/0", "above the limit")
add("count_u64max_block_size", "scenario", full.replace('"block_sizes": [\n  2,', '"block_sizes": [\n  18446744073709551615,'), "/block_sizes/0", "above the limit")
bad("count_neg_B_r", "scenario", V2, "/tiles/B_r", -1, "at least 1")
bad("count_frac_B_c", "scenario", V2, "/tiles/B_c", 2.7, "expected a whole number, found 2.7")
add("count_huge_neg_B_c", "scenario", dump(V2).decode().replace('"B_c": 2', '"B_c": -99999999999999999999'), "/tiles/B_c", "below the minimum")
bad("count_neg_sram", "scenario", V2SRAM, "/sram_elements", -1, "below the minimum 1")
bad("count_frac_sram", "scenario", V2SRAM, "/sram_elements", 2.7, "expected a whole number, found 2.7")
bad("count_neg_mask_bit", "scenario", V2PAD, "/mask/keep/0", -1, "below the minimum 0")
bad("count_frac_mask_bit", "scenario", V2EXP, "/mask/keep/1/1", 0.5, "expected a whole number, found 0.5")
bad("count_two_mask_bit", "scenario", V2PAD, "/mask/keep/2", 2, "above the limit 1")
bad("count_neg_schema_version", "lesson", LESSON, "/schema_version", -1, "below the minimum 1")
bad("count_frac_schema_version", "scenario", V2, "/schema_version", 2.7, "expected a whole number, found 2.7")
bad("wrong_schema_version", "scenario", V1, "/schema_version", 2, "this file is schema version 2; this reader expects 1")
bad("negative_weight", "scenario", V1, "/weights/1", -1, "weight is negative")

# ---- wrong types at every field ---------------------------------------------------------------
for ptr, val, reason in [
    ("/schema_version", "1", "expected a whole number, found a string"),
    ("/kind", 1, "expected a string, found an integer"),
    ("/title", "t", "expected an object, found a string"),
    ("/title/zh", 1, "expected a string, found an integer"),
    ("/title/en", None, "expected a string, found a null"),
    ("/weights", {"a": 1}, "expected an array, found an object"),
    ("/weights/0", True, "expected a number, found a boolean"),
    ("/weights/2", [4], "expected a number, found an array"),
    ("/values", "10", "expected an array, found a string"),
    ("/values/0", None, "expected a number, found a null"),
    ("/values/1", [20], "expected a number like the first value"),
    ("/block_sizes", 3, "expected an array, found an integer"),
    ("/block_sizes/1", "1", "expected a whole number, found a string"),
    ("/mode", 0, "expected a string, found an integer"),
    ("/mode", "fast", "expected \"raw\" or \"stable\""),
]:
    bad("type_v1" + ptr.replace("/", "_") + "_" + type(val).__name__, "scenario", V1, ptr, val, reason)
bad("type_v1_values_0_1_str", "scenario", V1VEC, "/values/0/1", "x", "expected a number, found the string \"x\"")
bad("type_v1_values_2_int", "scenario", V1VEC, "/values/2", 5, "expected a row like the first one")
bad("type_v1_logits_0_str", "scenario", V1LOG, "/logits/0", "abc", "expected a number, found the string \"abc\"")
bad("type_v1_kind_unknown", "scenario", V1, "/kind", "single", "unknown scenario kind \"single\"")
for ptr, val, reason in [
    ("/Q", 1, "expected an array, found an integer"),
    ("/Q/0", 1, "expected an array, found an integer"),
    ("/Q/0/0", "1", "expected a number, found the string \"1\""),
    ("/K", {}, "expected an array, found an object"),
    ("/K/1", "row", "expected an array, found a string"),
    ("/K/0/1", None, "expected a number, found a null"),
    ("/V", True, "expected an array, found a boolean"),
    ("/V/2/0", [], "expected a number, found an array"),
    ("/scale", "0.5", "expected a number, found the string \"0.5\""),
    ("/mask", 1, "expected an object, found an integer"),
    ("/mask", "sliding", "must be \"none\" or \"causal\""),
    ("/tiles", [1, 2], "expected an object, found an array"),
    ("/tiles/B_r", "1", "expected a whole number, found a string"),
    ("/order", 2, "expected a string, found an integer"),
    ("/order", "flash3", "expected \"reference\", \"flash2\" or \"flash1\""),
    ("/precision", False, "expected a string, found a boolean"),
    ("/precision", "half", "expected \"double\" or \"float\""),
    ("/merge", 0, "expected a string, found an integer"),
    ("/merge", "wrong", "unknown merge variant"),
    ("/backward", "yes", "expected true or false"),
    ("/dO", 1, "expected an array, found an integer"),
    ("/dO/0/0", "1", "expected a number, found the string \"1\""),
    ("/title/en", 2, "expected a string, found an integer"),
]:
    bad("type_v2" + ptr.replace("/", "_") + "_" + type(val).__name__, "scenario", V2, ptr, val, reason)
bad("type_v2_mask_kind_int", "scenario", V2PAD, "/mask/kind", 3, "expected a string, found an integer")
bad("type_v2_mask_kind_unknown", "scenario", V2PAD, "/mask/kind", "window", "expected \"none\", \"causal\", \"key_padding\" or \"explicit\"")
bad("type_v2_mask_alignment_int", "scenario", V2ALIGN, "/mask/alignment", 1, "expected a string, found an integer")
bad("type_v2_mask_alignment_unknown", "scenario", V2ALIGN, "/mask/alignment", "center", "expected \"top_left\"")
bad("type_v2_mask_keep_str", "scenario", V2PAD, "/mask/keep", "110", "expected an array, found a string")
bad("type_v2_mask_keep_0_str", "scenario", V2PAD, "/mask/keep/0", "yes", "expected a whole number, found a string")
bad("type_v2_mask_keep_row_int", "scenario", V2EXP, "/mask/keep/0", 1, "expected an array, found an integer")
bad("type_v2_sram_str", "scenario", V2SRAM, "/sram_elements", "64", "expected a whole number, found a string")
bad("type_v2_logits_str", "scenario", V2LOG, "/logits", "x", "expected an array, found a string")
bad("type_v2_logits_0_1_bool", "scenario", V2LOG, "/logits/0/1", False, "expected a number, found a boolean")
for ptr, val, reason in [
    ("/schema_version", "1", "expected a whole number, found a string"),
    ("/id", 5, "expected a string, found an integer"),
    ("/title", "x", "expected an object, found a string"),
    ("/title/en", 1, "expected a string, found an integer"),
    ("/scenarios", [], "expected an object, found an array"),
    ("/scenarios/a", 1, "expected a string, found an integer"),
    ("/steps", {}, "expected an array, found an object"),
    ("/steps/0", "x", "expected an object, found a string"),
    ("/steps/0/id", 1, "expected a string, found an integer"),
    ("/steps/0/scenario", 1, "expected a string, found an integer"),
    ("/steps/0/position", 1, "expected a string, found an integer"),
    ("/steps/1/body", "x", "expected an object, found a string"),
    ("/steps/1/source/zh", 1, "expected a string, found an integer"),
    ("/steps/0/further/en", "", "text is empty"),
    ("/steps/0/teacher_notes", None, "expected an object, found a null"),
]:
    bad("type_lesson" + ptr.replace("/", "_") + "_" + type(val).__name__, "lesson", LESSON, ptr, val, reason)

# ---- missing fields ----------------------------------------------------------------------------
bad("missing_v1_values", "scenario", V1, "/values", DELETE, "required field is missing")
bad("missing_v1_block_sizes", "scenario", V1, "/block_sizes", DELETE, "required field is missing")
bad("missing_v1_mode", "scenario", V1, "/mode", DELETE, "required field is missing")
bad("missing_v1_kind", "scenario", V1, "/kind", DELETE, "required field is missing")
bad("missing_v1_weights", "scenario", V1, "/weights", DELETE, "\"weights\" or \"logits\" is required", path="")
add("both_weights_and_logits", "scenario", dict(V1, logits=[0, 0, 0]), "", "not both")
bad("missing_v2_V", "scenario", V2, "/V", DELETE, "required field is missing")
bad("missing_v2_tiles", "scenario", V2, "/tiles", DELETE, "required field is missing")
bad("missing_v2_mask_keep", "scenario", V2PAD, "/mask/keep", DELETE, "required field is missing")
# Without "steps" the app's dispatch takes the file for a scenario (see docs/reliability.md).
add("missing_lesson_steps", "lesson", put(LESSON, "/steps", DELETE), "/steps", "required field is missing",
    as_opened=("/kind", "required field is missing"))
bad("missing_lesson_step_title", "lesson", LESSON, "/steps/0/title", DELETE, "required field is missing")
bad("missing_lesson_title_zh", "lesson", LESSON, "/title/zh", DELETE, "required field is missing")
add("v2_logits_and_Q", "scenario", dict(V2LOG, Q=[[1]]), "/logits", "not both")
add("v2_logits_backward", "scenario", dict(V2LOG, backward=True), "/backward", "needs Q and K")
add("ok_v2_logits_backward_false", "scenario", dict(V2LOG, backward=False), ok=True)
add("v2_tiles_and_sram", "scenario", dict(V2, sram_elements=64), "/sram_elements", "not both")
bad("v2_wrong_merge_flash1", "scenario", dict(V2, order="flash1"), "/merge", "no_rescale", "flash2 order only")

# ---- arrays of mismatched lengths --------------------------------------------------------------
bad("len_v1_values_short", "scenario", V1, "/values", [10, 20], "has 2 entries but \"weights\" has 3")
bad("len_v1_values_ragged", "scenario", V1VEC, "/values/1", [3], "has 1 components; the first row has 2")
bad("len_v1_block_sum", "scenario", V1, "/block_sizes", [2, 2], "block sizes sum to 4 but there are 3")
bad("len_v1_logits_values", "scenario", V1LOG, "/values", [1, 2, 3, 4], "has 4 entries but \"logits\" has 3")
bad("len_v2_K_cols", "scenario", V2, "/K/1", [0, 1, 2], "row has 3 numbers, expected 2")
bad("len_v2_Q_ragged", "scenario", V2, "/Q/1", [1], "row has 1 numbers, expected 2")
bad("len_v2_V_rows", "scenario", V2, "/V", [[1], [2]], "has 2 rows; K has N_k = 3")
bad("len_v2_V_ragged", "scenario", V2, "/V/2", [3, 4], "row has 2 numbers, expected 1")
bad("len_v2_dO_rows", "scenario", V2, "/dO", [[1]], "has 1 rows; there are N_q = 2")
bad("len_v2_dO_cols", "scenario", V2, "/dO/0", [1, 2], "row has 2 numbers, expected 1")
bad("len_v2_key_padding", "scenario", V2PAD, "/mask/keep", [1, 1], "has 2 entries; there are N_k = 3")
bad("len_v2_explicit_rows", "scenario", V2EXP, "/mask/keep", [[1, 1, 1]], "has 1 rows; there are N_q = 2")
bad("len_v2_explicit_cols", "scenario", V2EXP, "/mask/keep/1", [1, 1], "has 2 entries; there are N_k = 3")
bad("len_v2_logits_V", "scenario", V2LOG, "/V", [[1], [2]], "has 2 rows; the logits have N_k = 3")
bad("len_v2_logits_ragged", "scenario", dict(V2LOG, logits=[[0, 1, 2], [0, 1]]), "/logits/1", [0, 1], "row has 2 numbers, expected 3")

# ---- empty arrays ------------------------------------------------------------------------------
bad("empty_v1_weights", "scenario", V1, "/weights", [], "expected at least 1 element, found 0")
bad("empty_v1_values", "scenario", V1, "/values", [], "expected at least 1 element, found 0")
bad("empty_v1_block_sizes", "scenario", V1, "/block_sizes", [], "expected at least 1 element, found 0")
bad("empty_v1_value_rows", "scenario", V1, "/values", [[], [], []], "a value row needs at least one component", path="/values/0")
add("empty_v2_Q_ok", "scenario", dict(V2, Q=[], dO=[]), ok=True)  # N_q = 0 is a valid (empty) problem
bad("empty_v2_K", "scenario", V2, "/K", [], "has 3 rows; K has N_k = 0", path="/V")
add("empty_v2_K_and_V", "scenario", {k: v for k, v in V2.items() if k != "dO"} | {"K": [], "V": [], "mask": "none"}, "/K", "no keys (N_k = 0)")
add("empty_v2_d_zero", "scenario", {k: v for k, v in V2LOG.items() if k != "logits"} | {"Q": [[], []], "K": [[], [], []]}, "/Q/0", "rows are empty (d = 0)")
bad("empty_v2_Q_rows", "scenario", V2, "/Q", [[], []], "row has 2 numbers, expected 0 (d, as in Q)", path="/K/0")
bad("empty_v2_V_rows", "scenario", V2, "/V", [[], [], []], "rows are empty (d_v = 0)", path="/V/0")
add("empty_v2_logits_ok", "scenario", dict(V2LOG, logits=[]), ok=True)  # N_q = 0
bad("empty_v2_key_padding", "scenario", V2PAD, "/mask/keep", [], "has 0 entries; there are N_k = 3")
bad("empty_lesson_steps", "lesson", LESSON, "/steps", [], "expected at least 1 element, found 0")
bad("empty_lesson_scenarios", "lesson", LESSON, "/scenarios", {}, "expected at least one scenario")  # as the schema's minProperties

# ---- sizes past the limits (files > 16 MiB are made by the test) -------------------------------
add("limit_v1_positions", "scenario", dict(V1, weights=[1] * 65537), "/weights", "65537 positions; the limit is 65536")
add("limit_v1_d_v", "scenario", dict(V1, values=[[0] * 1025] * 3), "/values/0", "d_v = 1025; the limit is 1024")
add("limit_v1_block_size", "scenario", dict(V1, block_sizes=[65537]), "/block_sizes/0", "above the limit 65536")
add("limit_v2_rows", "scenario", dict(V2, Q=[[0]] * 8193), "/Q", "8193 rows (N_q); the limit is 8192")
add("limit_v2_cols", "scenario", dict(V2, Q=[[0] * 1025, [0]]), "/Q/0", "1025 columns (d); the limit is 1024")
add("limit_v2_elements", "scenario", dict(V2, Q=[[0] * 1024] + [[]] * 4096), "/Q", "4097 x 1024 = 4195328 numbers; the limit is 4194304")
add("limit_v2_logit_keys", "scenario", dict(V2LOG, logits=[[0] * 1025]), "/logits/0", "the limit is 1024")
add("limit_v2_sram", "scenario", dict(V2SRAM, sram_elements=(1 << 24) + 1), "/sram_elements", "above the limit 16777216")
add("limit_v2_B_r", "scenario", put(V2, "/tiles/B_r", 8193), "/tiles/B_r", "above the limit 8192")
add("limit_v2_scores", "scenario", {k: v for k, v in V2.items() if k not in ("dO", "mask")} | {"Q": [[1]] * 4097, "K": [[1]] * 4097, "V": [[1]] * 4097, "tiles": {"B_r": 4097, "B_c": 4097}},
    "/K", "N_q x N_k = 4097 x 4097 = 16785409 scores (S and P of the reference run); the limit is 16777216")
add("limit_v2_tiles", "scenario", {k: v for k, v in V2.items() if k not in ("dO", "mask")} | {"Q": [[1]] * 2048, "K": [[1]] * 2048, "V": [[1]] * 2048, "tiles": {"B_r": 1, "B_c": 1}},
    "/tiles", "T_r x T_c = 2048 x 2048 = 4194304 tiles, each a step of the trace; the limit is 16384")
add("limit_v2_tiles_sram", "scenario", {k: v for k, v in V2SRAM.items() if k not in ("dO", "mask")} | {"Q": [[1]] * 512, "K": [[1]] * 512, "V": [[1]] * 512, "sram_elements": 4},
    "/sram_elements", "T_r x T_c = 512 x 512 = 262144 tiles")
add("limit_lesson_scenarios", "lesson", dict(LESSON, scenarios={"s%d" % i: "scenarios/ok_v2.json" for i in range(65)}), "/scenarios", "65 scenarios; the limit is 64")
add("limit_lesson_steps", "lesson", dict(LESSON, steps=[0] * 501), "/steps", "501 steps; the limit is 500")

# ---- bytes that are not UTF-8 (nlohmann checks strings; the reason says so, bytes escaped) -------
u = dump(V1)
add("utf8_invalid_byte_in_string", "scenario", u.replace("甲".encode(), b"\xff"), "/title/zh", "not valid UTF-8")
add("utf8_latin1_e_acute", "scenario", u.replace("\"a\"".encode(), b"\"caf\xe9\""), "/title/en", "not valid UTF-8")
add("utf8_overlong_slash", "scenario", u.replace("甲".encode(), b"\xc0\xaf"), "/title/zh", "not valid UTF-8")
add("utf8_encoded_surrogate", "scenario", u.replace("甲".encode(), b"\xed\xa0\x80"), "/title/zh", "not valid UTF-8")
add("utf8_truncated_sequence", "scenario", u.replace("甲".encode(), "甲".encode()[:2]), "/title/zh", "not valid UTF-8")
add("utf8_invalid_in_key", "scenario", u.replace(b'"mode"', b'"mo\xfe"'), "", "not valid UTF-8")
add("utf8_invalid_outside_string", "scenario", u.replace(b'"mode":', b'\xff"mode":'), "", "malformed JSON")
add("utf8_lone_surrogate_escape", "scenario", u.replace("甲".encode(), b"\\ud800"), "/title/zh", "surrogate")
# U+0000 written \u0000: refused where it is (a font's glyph list ends at it; the window asserted, issue 31)
add("nul_escape_in_title", "scenario", u.replace("甲".encode(), b"a\\u0000b"), "/title/zh", "U+0000")
add("nul_escape_in_lesson_text", "lesson", dump(put(LESSON, "/title/en", "Les\u0000son")), "/title/en", "U+0000")
add("utf16le_with_bom", "scenario", b"\xff\xfe" + dump(V1).decode().encode("utf-16-le"), "", "the file is UTF-16; save it as UTF-8")
add("utf16be_with_bom", "scenario", b"\xfe\xff" + dump(V1).decode().encode("utf-16-be"), "", "the file is UTF-16; save it as UTF-8")
add("utf16le_no_bom", "scenario", dump(V1).decode().encode("utf-16-le"), "", "NUL bytes")
add("raw_newline_in_string", "scenario", u.replace("\"a\"".encode(), b"\"a\nb\""), "/title/en", "raw control character")
add("double_bom_ok", "scenario", b"\xef\xbb\xbf\xef\xbb\xbf" + dump(V1), ok=True)  # nlohmann skips a second one
add("lesson_latin1_body", "lesson", dump(LESSON).replace(b'"en": "text"', b'"en": "na\xefve"', 1), "/steps/0/title/en", "not valid UTF-8")

# ---- one line, whatever the file holds --------------------------------------------------------
bad("oneline_newline_in_kind", "scenario", V1, "/kind", "single\nquery", "unknown scenario kind \"single")
bad("oneline_huge_kind", "scenario", V1, "/kind", "x" * 5000, "unknown scenario kind")
add("oneline_newline_in_key", "scenario", dict(V1, **{"a\nb": 1}, weights={"x": 1}), "/a\nb", "unknown key")

# ---- nesting past the depth limit ---------------------------------------------------------------
add("depth_65", "scenario", '{"schema_version": 1, "values": ' + "[" * 64 + "]" * 64 + "}", "/values/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0", "nesting is deeper than 64 levels")
add("depth_100000", "scenario", "[" * 100000, "/0" * 64, "nesting is deeper than 64 levels")
add("depth_objects", "lesson", '{"a":' * 70 + "1" + "}" * 70, "/a" * 64, "nesting is deeper than 64 levels")

# ---- lessons pointing at missing scenarios or outside their folder -----------------------------
bad("lesson_missing_scenario", "lesson", LESSON, "/scenarios/a", "scenarios/missing.json", "scenario does not load")
bad("lesson_outside_folder", "lesson", LESSON, "/scenarios/a", "../make_corpus.py", "leaves the lesson's folder")
bad("lesson_outside_folder_nested", "lesson", LESSON, "/scenarios/a", "scenarios/../../manifest.json", "leaves the lesson's folder")
bad("lesson_absolute_path", "lesson", LESSON, "/scenarios/a", "/etc/hostname", "must be relative to the lesson file")
bad("lesson_scenario_is_folder", "lesson", LESSON, "/scenarios/a", "scenarios", "is a folder, not a file")
bad("lesson_scenario_empty_path", "lesson", LESSON, "/scenarios/a", "", "scenario")
bad("lesson_scenario_is_lesson", "lesson", LESSON, "/scenarios/a", "ok_lesson.json", "scenario does not load")
bad("lesson_bad_scenario", "lesson", LESSON, "/scenarios/a", "nan_string_v1.json", "scenario does not load")
bad("lesson_unknown_scenario_key", "lesson", LESSON, "/steps/1/scenario", "c", "no scenario named \"c\"")
bad("lesson_unknown_position", "lesson", LESSON, "/steps/0/position", "update:9", "has no position \"update:9\"")
bad("lesson_unknown_position_v2", "lesson", LESSON, "/steps/1/position", "tile:9,9", "has no position \"tile:9,9\"")
bad("lesson_duplicate_step_id", "lesson", LESSON, "/steps/1/id", "T/0", "is used twice")
# Positions the grammar refuses (data/position.h; the schema's pattern is the grammar's, so these
# are refused by the schema too): numbers 1-based with at most 9 digits, no sign, no leading zero.
bad("lesson_position_event_huge", "lesson", LESSON, "/steps/1/position", "event:99999999999999999999", "is no position")
bad("lesson_position_zero", "lesson", LESSON, "/steps/1/position", "tile:0,1", "is no position")
bad("lesson_position_plus", "lesson", LESSON, "/steps/0/position", "update:+2", "is no position")
bad("lesson_position_trailing", "lesson", LESSON, "/steps/1/position", "read:K:2x", "is no position")
bad("lesson_position_bwd_event", "lesson", LESSON, "/steps/1/position", "bwd:event:3", "is no position")
bad("lesson_position_unknown_tensor", "lesson", LESSON, "/steps/1/position", "read:X", "is no position")

# ---- checked exercises (a lesson step's "check"; view/exercise.h) -------------------------------
CHECKED = dict(LESSON, steps=[dict(STEP, position="start", predict=T, check={"number": "output"}), LESSON["steps"][1]])
CHOICE = dict(LESSON, steps=[dict(STEP, predict=T, check={"choices": [T, T], "correct": 2}), LESSON["steps"][1]])
add("ok_lesson_check_number", "lesson", CHECKED, ok=True)
add("ok_lesson_check_choices", "lesson", CHOICE, ok=True)
bad("lesson_check_without_predict", "lesson", LESSON, "/steps/0/check", {"number": "output"}, "a check needs a \"predict\" question")
bad("lesson_check_number_and_choices", "lesson", CHECKED, "/steps/0/check/choices", [T, T], "either {\"number\"}", path="/steps/0/check")
bad("lesson_check_correct_too_big", "lesson", CHOICE, "/steps/0/check/correct", 3, "3 is above the limit 2")
bad("lesson_check_correct_zero", "lesson", CHOICE, "/steps/0/check/correct", 0, "0 is below the minimum 1")
bad("lesson_check_one_choice", "lesson", CHOICE, "/steps/0/check/choices", [T], "expected at least 2 elements")
bad("lesson_check_unknown_number", "lesson", CHECKED, "/steps/0/check/number", "nope", "has no single number \"nope\"")
bad("lesson_check_unknown_key", "lesson", CHECKED, "/steps/0/check/answer", 1, "unknown key")
# A number question's known wrong answers ("mistakes"): each names another quantity and a hint.
MISTAKE = dict(LESSON, steps=[dict(STEP, position="start", predict=T,
                                   check={"number": "output", "mistakes": [{"number": "average", "hint": T}]}),
                              LESSON["steps"][1]])
add("ok_lesson_check_mistakes", "lesson", MISTAKE, ok=True)
bad("lesson_check_mistake_no_hint", "lesson", MISTAKE, "/steps/0/check/mistakes/0", {"number": "average"},
    "required field is missing", path="/steps/0/check/mistakes/0/hint")
bad("lesson_check_mistake_unknown_key", "lesson", MISTAKE, "/steps/0/check/mistakes/0/why", T, "unknown key")
bad("lesson_check_mistakes_empty", "lesson", MISTAKE, "/steps/0/check/mistakes", [], "expected at least 1 element")
bad("lesson_check_mistakes_on_choices", "lesson", CHOICE, "/steps/0/check/mistakes", [{"number": "average", "hint": T}],
    "mistakes belong to a number question")
bad("lesson_check_mistake_is_the_answer", "lesson", MISTAKE, "/steps/0/check/mistakes/0/number", "output",
    "is the right answer, not a mistake")
bad("lesson_check_mistake_unknown_number", "lesson", MISTAKE, "/steps/0/check/mistakes/0/number", "nope",
    "has no single number \"nope\"")

# A step's "conceal": ids of scene rects or panel sections hidden while its question is open.
CONCEAL = dict(LESSON, steps=[dict(STEP, predict=T, conceal=["sram.acc", "accumulator"]), LESSON["steps"][1]])
add("ok_lesson_conceal", "lesson", CONCEAL, ok=True)
bad("lesson_conceal_without_predict", "lesson", LESSON, "/steps/0/conceal", ["sram.acc"], "conceal needs a \"predict\" question")
bad("lesson_conceal_not_array", "lesson", CONCEAL, "/steps/0/conceal", "sram.acc", "expected an array")
bad("lesson_conceal_empty_id", "lesson", CONCEAL, "/steps/0/conceal/1", "", "a conceal id is empty")
bad("lesson_conceal_twice", "lesson", CONCEAL, "/steps/0/conceal/1", "sram.acc", "is listed twice")
bad("lesson_conceal_unknown", "lesson", CONCEAL, "/steps/0/conceal/1", "nope", "has no scene rect or panel \"nope\"")
bad("lesson_conceal_near_miss", "lesson", CONCEAL, "/steps/0/conceal/1", "accumulater",
    "has no scene rect or panel \"accumulater\" at this step; did you mean \"accumulator\"?")

# ---- inputs the fuzzer found (scripts/fuzz; tests/fuzz/crashes/ keeps the raw input) ------------
CRASHES = os.path.join(HERE, "..", "fuzz", "crashes")
for name, loader, path, reason in [
    # 6 KB: 512 one-number rows, sram_elements 4 → 1 x 1 tiles: 262,144 tiles; BuildScene of the
    # 512 x 512 grid took > 13 s per frame (libFuzzer timeout) before the tile limit existed.
    ("attention_v2-timeout-512x512-tiles", "scenario", "/sram_elements", "T_r x T_c = 512 x 512 = 262144 tiles"),
    # A scenario path with a 6,000-character name: weakly_canonical threw "File name too long" as a
    # std::filesystem_error (no JSON path; the fuzz target died of it).
    ("lesson-crash-long-scenario-path", "lesson", "/scenarios/a", "scenario path cannot be resolved: File name too long"),
    # V rows [] (d_v = 0): the engine's trace replay took row r of a 0-column matrix (UBSan). The
    # mutated input also holds a key "]dO", now refused first (d_v = 0 itself: empty_v2_V_rows).
    ("attention_v2-ubsan-dv0-trace-replay", "scenario", "/]dO", "unknown key; did you mean /dO?"),
]:
    with open(os.path.join(CRASHES, name + ".json"), "rb") as f:
        add("fuzz_" + name.replace("-", "_"), loader, f.read(), path, reason)
# "K": [], "V": [] with flash tiles: d_v = 0, and Panels (then the engine's trace replay) took row r
# of a 0-column matrix (UBSan: pointer arithmetic on null). Zero-width problems are now refused. The
# mutated input also holds a key "yrder", now refused first (N_k = 0 itself: empty_v2_K_and_V).
for name in [
    "attention_v2-ubsan-empty-V-panels",
]:
    with open(os.path.join(CRASHES, name + ".json"), "rb") as f:
        add("fuzz_" + name.replace("-", "_"), "scenario", f.read(), "/yrder", "unknown key; did you mean /order?")


# ---- unknown keys: refused with a suggestion, as the schemas do (issue 12, case 6) ---------------
add("unknown_key_sacle", "scenario", dict(V2, sacle=100), "/sacle", "unknown key; did you mean /scale?")
add("unknown_key_backwards", "scenario", dict(V2, backwards=True), "/backwards", "unknown key; did you mean /backward?")
add("unknown_key_causal_with_keep", "scenario", dict(V2, mask={"kind": "causal", "keep": [1, 1, 0]}), "/mask/keep",
    "unknown key (known here: kind, alignment)")
add("unknown_key_v1_mdoe", "scenario", {k: v for k, v in V1.items() if k != "mode"} | {"mdoe": "raw"}, "/mdoe",
    "unknown key; did you mean /mode?")
add("unknown_key_tiles_Bc", "scenario", dict(V2, tiles={"B_r": 1, "B_c": 2, "Bc": 2}), "/tiles/Bc",
    "unknown key; did you mean /tiles/B_c?")
add("unknown_key_title_fr", "scenario", dict(V2, title={"zh": "乙", "en": "b", "fr": "b"}), "/title/fr",
    "unknown key (known here: zh, en)")
add("unknown_key_lesson_step_titel", "lesson", put(LESSON, "/steps/0/titel", T), "/steps/0/titel",
    "unknown key; did you mean /steps/0/title?")
add("unknown_key_moe_router_logit", "scenario",
    {"schema_version": 1, "kind": "moe", "parameters": {"shared": 1, "expert": 2, "experts": 2, "top_k": 1},
     "router": {"logit": [[1, 2]]}}, "/router/logit", "unknown key; did you mean /router/logits?")
add("empty_text_v2_title", "scenario", dict(V2, title={"zh": "", "en": "b"}), "/title/zh", "text is empty")
MOE = {"schema_version": 1, "kind": "moe", "title": {"zh": "丙", "en": "c"},
       "parameters": {"shared": 1, "expert": 2, "experts": 2, "top_k": 1}, "router": {"logits": [[1, 2]]}}
MOEDEP = dict(MOE, deployment={"hidden": 4, "activation_bytes": 2, "weight_bits": 16, "devices": 2, "training_tokens": 1000})
# A product of two fields within their bounds that overflows the engine's 64 bits: named at the
# fields (issue 31, item 12: the app said "(document): … overflows 64 bits").
add("ok_moe_deployment", "scenario", MOEDEP, ok=True)
add("moe_weight_bytes_overflow", "scenario",
    put(put(put(put(MOEDEP, "/parameters/expert", 1 << 50), "/parameters/experts", 256), "/router/logits", [[0] * 256]), "/deployment/weight_bits", 64),
    "/deployment/weight_bits", "overflows 64 bits")

# ---- numbers that overflow, underflow or do not fit: loaded, and the numerics report names them ----
# (issue 12, cases 1-5; "numerics": kinds the report must hold, src/engine/numerics.h). Files with no
# "numerics" must give an empty report.
V2BARE = {"schema_version": 2, "kind": "attention"}


def numerics(name, doc, kinds):
    add(name, "scenario", doc, ok=True)
    cases[-1][3]["numerics"] = kinds


numerics("numerics_case1_qk_overflow", V2BARE | {"Q": [[2e154]], "K": [[2e154], [2e154]], "V": [[1], [3]],
                                                 "tiles": {"B_r": 1, "B_c": 1}, "order": "flash2"},
         ["infinite_score", "nan"])
numerics("numerics_case2_raw_underflow", {"schema_version": 1, "kind": "single_query", "logits": [-800, -801, -799],
                                          "values": [10, 20, 30], "block_sizes": [2, 1], "mode": "raw"},
         ["weights_underflow"])
numerics("numerics_case3_raw_exp_overflow", {"schema_version": 1, "kind": "single_query", "logits": [1000, 1000],
                                             "values": [1, 0], "block_sizes": [1, 1], "mode": "raw"},
         ["exp_overflow", "nan"])
numerics("numerics_case3_raw_weights_sum", {"schema_version": 1, "kind": "single_query", "weights": [1e308, 1e308],
                                            "values": [1, 0], "block_sizes": [2], "mode": "raw"},
         ["accumulator_overflow"])
# One product past the largest double, the sum of weights finite: named as the product (issue 31)
numerics("numerics_case3_raw_product", {"schema_version": 1, "kind": "single_query", "weights": [1e308, 3],
                                        "values": [1e308, 7], "block_sizes": [1, 1], "mode": "raw"},
         ["product_overflow"])
numerics("numerics_case3_raw_710", {"schema_version": 1, "kind": "single_query", "logits": [710, 0],
                                    "values": [1, 0], "block_sizes": [1, 1], "mode": "raw"}, ["exp_overflow"])
numerics("numerics_case4_float_logit_1e39", V2BARE | {"logits": [[1e39, 0]], "V": [[1], [2]], "precision": "float",
                                                      "tiles": {"B_r": 1, "B_c": 2}}, ["out_of_range", "infinite_score"])
numerics("numerics_case4_float_logits_minus_1e39", V2BARE | {"logits": [[-1e39, -1e39]], "V": [[1], [2]],
                                                             "precision": "float", "tiles": {"B_r": 1, "B_c": 2}},
         ["out_of_range"])
numerics("numerics_case5_masked_V_1e300_float", V2BARE | {"logits": [[0.5, 0, 2]], "V": [[1], [3], [1e300]],
                                                          "mask": {"kind": "key_padding", "keep": [1, 1, 0]},
                                                          "precision": "float", "tiles": {"B_r": 1, "B_c": 4}},
         ["out_of_range"])
add("numerics_case9_close_logits_stable", "scenario",
    {"schema_version": 1, "kind": "single_query", "logits": [-60000, -60001], "values": [1, 2], "block_sizes": [1, 1],
     "mode": "stable"}, ok=True)

# ---- lesson bundles (data/bundle.h): a lesson and its scenarios as one file ----------------------
BUNDLE = {"$schema": "https://blockwise.invalid/schemas/bundle-v1.schema.json", "schema_version": 1, "main": "lesson.json",
          "files": {"lesson.json": LESSON, "scenarios/ok_v1.json": V1, "scenarios/ok_v2.json": V2}}


def bundle_files(**files):
    """BUNDLE with its files replaced or added (a value of DELETE removes one); keys are paths."""
    doc = json.loads(json.dumps(BUNDLE))
    for k, v in files.items():
        if v is DELETE:
            del doc["files"][k]
        else:
            doc["files"][k] = v
    return doc


add("ok_bundle", "bundle", BUNDLE, ok=True)
bad("bundle_main_not_a_file", "bundle", BUNDLE, "/main", "other.json", "is not one of the bundle's files")
bad("bundle_version", "bundle", BUNDLE, "/schema_version", 2, "this reader expects 1")
add("bundle_unknown_key", "bundle", dict(BUNDLE, mian="lesson.json"), "/mian", "unknown key; did you mean /main?")
add("bundle_no_files", "bundle", dict(BUNDLE, files={}), "/files", "at least its main file")
add("bundle_path_dotdot", "bundle", bundle_files(**{"../x.json": V1}), "/files/..~1x.json", "part (each file lies inside the bundle)")
add("bundle_path_absolute", "bundle", bundle_files(**{"/x.json": V1}), "/files/~1x.json", "the path is absolute")
add("bundle_path_backslash", "bundle", bundle_files(**{"scenarios\\x.json": V1}), "/files/scenarios\\x.json", "backslash")
add("bundle_path_empty_part", "bundle", bundle_files(**{"scenarios//x.json": V1}), "/files/scenarios~1~1x.json", "empty part")
add("bundle_file_not_object", "bundle", bundle_files(**{"scenarios/ok_v1.json": [2, 1, 4]}), "/files/scenarios~1ok_v1.json",
    "each file of a bundle is a JSON object")
add("bundle_in_bundle", "bundle", bundle_files(**{"inner.json": BUNDLE}), "/files/inner.json", "cannot hold another bundle")
add("bundle_file_and_folder", "bundle", bundle_files(**{"lesson.json/x.json": V1}), "/files/lesson.json~1x.json",
    "is a file of the bundle, not a folder")
# An error inside one of its files is told against the bundle, under /files/<path> (a scenario's, as the
# lesson that names it reports it, with the scenario's path in the bundle and its own JSON path).
add("bundle_bad_scenario", "bundle", bundle_files(**{"scenarios/ok_v1.json": put(V1, "/block_sizes/0", -1)}),
    "/files/lesson.json/scenarios/a", "scenario does not load: scenarios/ok_v1.json: /block_sizes/0: -1 is below the minimum 1")
add("bundle_missing_scenario", "bundle", bundle_files(**{"scenarios/ok_v2.json": DELETE}), "/files/lesson.json/scenarios/b",
    "scenario does not load")

# Split-KV decoding (data/decode_scenario.h).
DEC = {"schema_version": 1, "kind": "decode", "title": {"zh": "丁", "en": "d"}, "weights": [2, 1, 4], "values": [10, 20, 30],
       "block_sizes": [1, 1, 1], "splits": [2, 1], "mode": "stable"}
DECPAGED = dict(DEC, paged={"page_size": 1, "block_table": [2, 0, 1], "physical_pages": 3},
                gpu={"sm_count": 132, "thread_blocks": 8, "cache_tiles": 512, "blocks_per_sm": 2})
add("ok_decode", "scenario", DEC, ok=True)
add("ok_decode_paged_gpu", "scenario", DECPAGED, ok=True)
add("ok_decode_split_count", "scenario", dict(DEC, splits=3), ok=True)
bad("decode_split_zero_tiles", "scenario", DEC, "/splits/1", 0, "below the minimum 1")
bad("decode_splits_sum", "scenario", DEC, "/splits", [1, 1], "tiles per split sum to 2 but the cache has 3 tiles")
bad("decode_split_count_past_tiles", "scenario", DEC, "/splits", 4, "4 splits but the cache has 3 tiles")
bad("decode_page_twice", "scenario", DECPAGED, "/paged/block_table/2", 0, "physical page 0 is used twice")
bad("decode_page_outside_pool", "scenario", DECPAGED, "/paged/block_table/0", 7, "outside the pool of 3 pages")
bad("decode_table_length", "scenario", DECPAGED, "/paged/block_table", [2, 0], "has 2 entries but 3 keys in pages of 1 need 3")
bad("decode_gpu_no_sms", "scenario", DECPAGED, "/gpu/sm_count", 0, "below the minimum 1")
bad("decode_gpu_blocks_per_sm", "scenario", DECPAGED, "/gpu/blocks_per_sm", 0, "below the minimum 1")
bad("decode_unknown_key", "scenario", DEC, "/split", 2, "unknown key")

# Ring attention (data/ring_scenario.h).
RING = {"schema_version": 1, "kind": "ring", "title": {"zh": "戊", "en": "e"}, "weights": [[1, 2, 1, 2], [2, 1, 2, 1], [1, 1, 1, 1], [3, 1, 2, 1]],
        "values": [10, 20, 30, 40], "devices": 2, "order": "zigzag", "causal": True}
add("ok_ring", "scenario", RING, ok=True)
add("ok_ring_logits", "scenario", {k: v for k, v in RING.items() if k != "weights"} | {"logits": [[0, -1.5, 1, 2]] * 4}, ok=True)
bad("ring_zero_weight", "scenario", RING, "/weights/1/2", 0, "weight is 0")
bad("ring_logit_minus_inf", "scenario", {k: v for k, v in RING.items() if k != "weights"} | {"logits": [[0, 1, 1, 2]] * 4}, "/logits/0/1", "-inf", "expected a number, found the string")
bad("ring_not_square", "scenario", RING, "/weights/2", [1, 1, 1], "has 3 entries; N = 4 rows need N each")
bad("ring_zigzag_too_few_rows", "scenario", RING, "/devices", 3, "need at least 6 rows; there are 4")
bad("ring_order", "scenario", RING, "/order", "striped", "expected \"contiguous\" or \"zigzag\"")
bad("ring_negative_weight", "scenario", RING, "/weights/0/1", -2, "weight is negative")
bad("ring_values_length", "scenario", RING, "/values", [1, 2, 3], "has 3 entries but \"weights\" has 4 rows")

# A recorded GPU run (data/gpu_run_scenario.h): the recording's path is relative to the scenario file.
GPURUN = {"schema_version": 1, "kind": "gpu_run", "title": {"zh": "己", "en": "f"},
          "recording": "../../../assets/gpu/recorded_run_h200_bf16_n8192_d128_none.json"}
add("ok_gpu_run", "scenario", GPURUN, ok=True)
add("ok_gpu_run_compare", "scenario", dict(GPURUN, compare="../../../assets/gpu/recorded_run_h200.json"), ok=True)
bad("gpu_run_missing_recording", "scenario", GPURUN, "/recording", "../nope.json", "the recording does not load")
bad("gpu_run_absolute_recording", "scenario", GPURUN, "/recording", "/tmp/x.json", "the path is absolute")
bad("gpu_run_recording_number", "scenario", GPURUN, "/recording", 3, "expected a string")
bad("gpu_run_unknown_key", "scenario", GPURUN, "/recordings", "x.json", "unknown key")
# "scene": "warps" draws the recording's warp phases (FA3/h7, h8, h8a): a recording with them (the Hopper
# kernel's) loads, one without them is refused at "/scene", and so is a scene of another name.
GPURUN_HOPPER = dict(GPURUN, recording="../../../assets/gpu/recorded_run_h200_hopper_bf16_n8192_d128_none.json")
add("ok_gpu_run_warps", "scenario", dict(GPURUN_HOPPER, scene="warps"), ok=True)
add("ok_gpu_run_replay", "scenario", dict(GPURUN, scene="replay"), ok=True)
bad("gpu_run_scene_unknown", "scenario", GPURUN_HOPPER, "/scene", "lanes", "expected \"replay\" or \"warps\"")
bad("gpu_run_scene_number", "scenario", GPURUN_HOPPER, "/scene", 1, "expected a string")
bad("gpu_run_warps_without_phases", "scenario", GPURUN, "/scene", "warps", "the recording has no warp phases")

# Refused by the loader for a reason JSON Schema cannot state (a length that must match another
# field, a sum, a product of sizes, a file or trace position a lesson names, ids unique across
# steps): tests/corpus/schema_agreement.py accepts these disagreements, and only these.
BEYOND = {
    "length": ["len_v1_values_short", "len_v1_values_ragged", "len_v1_block_sum", "len_v1_logits_values",
               "len_v2_K_cols", "len_v2_Q_ragged", "len_v2_V_rows", "len_v2_V_ragged", "len_v2_dO_rows",
               "len_v2_dO_cols", "len_v2_key_padding", "len_v2_explicit_rows", "len_v2_explicit_cols",
               "len_v2_logits_V", "len_v2_logits_ragged", "empty_v2_key_padding",
               "lesson_check_correct_too_big", "decode_splits_sum", "decode_split_count_past_tiles",
               "decode_page_outside_pool", "decode_table_length", "ring_not_square", "ring_zigzag_too_few_rows",
               "ring_values_length"],
    "product of sizes": ["limit_v2_scores", "limit_v2_tiles", "limit_v2_tiles_sram", "moe_weight_bytes_overflow",
                         "fuzz_attention_v2_timeout_512x512_tiles"],
    "lesson references (files, scenario names, trace positions, unique step ids)": [
        "lesson_missing_scenario", "lesson_outside_folder", "lesson_outside_folder_nested", "lesson_absolute_path",
        "lesson_scenario_is_folder", "lesson_scenario_empty_path", "lesson_scenario_is_lesson", "lesson_bad_scenario",
        "lesson_unknown_scenario_key", "lesson_unknown_position", "lesson_unknown_position_v2",
        "lesson_duplicate_step_id", "lesson_check_unknown_number", "lesson_check_mistake_unknown_number",
        "lesson_check_mistake_is_the_answer", "lesson_conceal_unknown", "lesson_conceal_near_miss",
        "gpu_run_missing_recording"],
    "the recording's content (warp phases recorded)": ["gpu_run_warps_without_phases"],
    "bundle references (the main file among the files, a file that is also a folder, the files' own formats)": [
        "bundle_main_not_a_file", "bundle_file_and_folder", "bundle_in_bundle", "bundle_bad_scenario", "bundle_missing_scenario"],
}


def main():
    beyond = {name: why for why, names in BEYOND.items() for name in names}
    for name, loader, content, expect in cases:
        if name in beyond:
            expect["beyond_schema"] = beyond.pop(name)
    assert not beyond, f"BEYOND names no case: {sorted(beyond)}"
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "scenarios"))
    for name, doc in [("ok_v1", V1), ("ok_v2", V2)]:
        with open(os.path.join(OUT, "scenarios", name + ".json"), "wb") as f:
            f.write(dump(doc))
    manifest = []
    for name, loader, content, expect in cases:
        with open(os.path.join(OUT, name + ".json"), "wb") as f:
            f.write(content)
        manifest.append({"file": name + ".json", "loader": loader, **expect})
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        f.write('{\n "about": "Bad-input corpus: each file and what loading it must give; written by make_corpus.py",\n "cases": [\n')
        f.write(",\n".join("  " + json.dumps(m, ensure_ascii=False) for m in manifest))
        f.write("\n ]\n}\n")
    print(len(manifest), "cases")


main()
