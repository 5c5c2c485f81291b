#!/usr/bin/python3
"""The loaders are the source of truth for the file formats; the shipped schemas must agree with them.

Usage: schema_agreement.py REPO_ROOT

For every file of the bad-input corpus (tests/corpus/files, expectations in manifest.json — which
corpus_test proves equal to what the loaders do) and every shipped lesson and scenario, the schema
verdict must equal the loader's:
  - the document is read as the loaders read it (RFC 8259 JSON: no NaN/Infinity, no number outside
    the double range (too large, or so small that it would become 0), no duplicate key, no lone surrogate, no U+0000 in a string or key, UTF-8 with up to two byte-order marks (the loader drops one, nlohmann one),
    at most 64 levels of nesting);
  - it is valid if one of the four schemas in schemas/ accepts it (a lesson, a scenario v1, v2 or moe).
A file the loader refuses but the schemas accept is allowed only where the manifest says why, in
"beyond_schema": a rule JSON Schema cannot state (lengths that must match another field, sums, files
a lesson names, positions in a trace). Any other disagreement fails, either way. Uses Debian's
python3-jsonschema.
"""
import json
import math
import pathlib
import sys

import jsonschema

MAX_DEPTH = 64  # src/data/json_file.h kMaxJsonDepth


class Refused(Exception):
    pass


def no_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise Refused(f"duplicate key {k!r}")
        seen[k] = v
    return seen


def parse_float(text):
    x = float(text)
    if math.isinf(x):
        raise Refused("number out of the double range")
    if x == 0 and any(c in "123456789" for c in text.lower().split("e")[0]):
        raise Refused("number too small for a double (it would become 0)")
    return x


def parse_constant(name):
    raise Refused(f"{name} is not JSON")


def check_tree(v, depth=1):
    if isinstance(v, (list, dict)):
        if depth > MAX_DEPTH:
            raise Refused("nesting deeper than 64")
        items = v.values() if isinstance(v, dict) else v
        for x in items:
            check_tree(x, depth + 1)
        if isinstance(v, dict):
            for k in v:
                check_string(k)
    elif isinstance(v, str):
        check_string(v)


def check_string(s):
    s.encode("utf-8")  # a lone surrogate (\ud800) cannot be encoded
    if "\0" in s:  # \u0000 (json_file.cpp's PathTrackingSax refuses it)
        raise Refused("a string holds U+0000")


def read(path):
    data = path.read_bytes()
    for _ in range(2):  # ParseJsonText drops one byte-order mark, and nlohmann's parser one more
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
    try:
        text = data.decode("utf-8")
        if "\0" in text:
            raise Refused("NUL bytes")
        doc = json.loads(text, object_pairs_hook=no_duplicates, parse_float=parse_float,
                         parse_constant=parse_constant)
        check_tree(doc)
    except (Refused, ValueError, UnicodeError, RecursionError) as e:
        raise Refused(str(e)[:120])
    return doc


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    validators = {}
    for p in sorted((root / "schemas").glob("*.schema.json")):
        schema = json.loads(p.read_text(encoding="utf-8"))
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        validators[p.name] = cls(schema)

    def schema_verdict(path):
        try:
            doc = read(path)
        except Refused as e:
            return False, f"not read: {e}"
        for name, v in validators.items():
            if v.is_valid(doc):
                return True, f"valid against {name}"
        # The closest schema's first error, to say why.
        best = None
        for name, v in validators.items():
            errs = list(v.iter_errors(doc))
            if best is None or len(errs) < len(best[1]):
                best = (name, errs)
        e = best[1][0]
        return False, f"{best[0]}: /{'/'.join(str(x) for x in e.absolute_path)}: {e.message[:100]}"

    failures = 0
    checked = 0
    manifest = json.loads((root / "tests" / "corpus" / "manifest.json").read_text(encoding="utf-8"))
    for case in manifest["cases"]:
        path = root / "tests" / "corpus" / "files" / case["file"]
        loader_ok = bool(case.get("ok"))
        schema_ok, why = schema_verdict(path)
        checked += 1
        beyond = case.get("beyond_schema")
        if schema_ok == loader_ok:
            if beyond:
                print(f"FAIL {case['file']}: marked beyond_schema but the schemas agree with the loader")
                failures += 1
            continue
        if schema_ok and not loader_ok and beyond:
            continue
        failures += 1
        print(f"FAIL {case['file']}: loader {'accepts' if loader_ok else 'refuses'} "
              f"({case.get('path', '')}: {case.get('reason', '')}), schemas {'accept' if schema_ok else 'refuse'} ({why})")
    shipped = sorted(list((root / "lessons").rglob("*.json")) + list((root / "assets" / "scenarios").rglob("*.json")))
    for path in shipped:
        schema_ok, why = schema_verdict(path)
        checked += 1
        if not schema_ok:
            failures += 1
            print(f"FAIL {path.relative_to(root)}: shipped (the loader accepts it) but the schemas refuse it: {why}")
    print(f"{checked} files, {failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
