#!/usr/bin/python3
"""Validates every shipped lesson and scenario against the JSON Schema its "$schema" names.

Usage: validate_schemas.py REPO_ROOT
Checks every *.json under lessons/ and assets/scenarios/: the file names a schema, the schema lies in
schemas/ and is itself a valid schema, and the file validates. Then a few deliberately broken copies
must FAIL (so a schema that accepts anything cannot pass). Uses Debian's python3-jsonschema.
"""
import copy
import json
import pathlib
import sys

import jsonschema


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def validator_for(doc_path, doc, root):
    ref = doc.get("$schema")
    if not isinstance(ref, str):
        raise ValueError("no \"$schema\"")
    schema_path = (doc_path.parent / ref).resolve()
    if schema_path.parent != (root / "schemas").resolve():
        raise ValueError(f"\"$schema\" {ref} does not point into schemas/")
    schema = load(schema_path)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    files = sorted(list((root / "lessons").rglob("*.json")) + list((root / "assets" / "scenarios").rglob("*.json")))
    failures = 0
    for path in files:
        rel = path.relative_to(root)
        try:
            doc = load(path)
            v = validator_for(path, doc, root)
            errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        except Exception as e:  # unreadable file, missing or bad schema
            print(f"FAIL {rel}: {e}")
            failures += 1
            continue
        for e in errors:
            print(f"FAIL {rel}: /{'/'.join(str(p) for p in e.absolute_path)}: {e.message}")
        failures += bool(errors)
        if not errors:
            print(f"ok   {rel}  ({doc['$schema'].split('/')[-1]})")
    if len(files) < 10:
        print(f"FAIL expected the shipped lessons and scenarios, found only {len(files)} files")
        failures += 1

    # Broken copies must be rejected.
    lesson_path = root / "lessons" / "rc-t3.json"
    lesson = load(lesson_path)
    v = validator_for(lesson_path, lesson, root)
    broken = []
    b = copy.deepcopy(lesson); del b["steps"][0]["source"]; broken.append(("lesson step without source", b))
    b = copy.deepcopy(lesson); b["steps"][0]["body"]["zh"] = ""; broken.append(("lesson with an empty zh body", b))
    b = copy.deepcopy(lesson); b["steps"][0]["highlight"] = "hbm.sp"; broken.append(("highlight not a list", b))
    for what, doc in broken:
        if v.is_valid(doc):
            print(f"FAIL the lesson schema accepts a broken file: {what}")
            failures += 1
    moe_path = root / "lessons" / "scenarios" / "moe_capacity.json"
    moe = load(moe_path)
    v = validator_for(moe_path, moe, root)
    b = copy.deepcopy(moe); b["router"]["capacity"] = 2
    if v.is_valid(b):
        print("FAIL the moe schema accepts both capacity and capacity_factor")
        failures += 1
    att_path = root / "lessons" / "scenarios" / "mask_causal.json"
    att = load(att_path)
    v = validator_for(att_path, att, root)
    b = copy.deepcopy(att); b["sram_elements"] = 32
    if v.is_valid(b):
        print("FAIL the attention schema accepts both tiles and sram_elements")
        failures += 1

    print(f"{len(files)} files, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
