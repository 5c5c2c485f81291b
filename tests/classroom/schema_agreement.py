#!/usr/bin/python3
"""The class protocol's parser and its schema must agree (one source of truth for what a student may send).

Usage: schema_agreement.py REPO_ROOT [SERVER_MESSAGES_PROGRAM]

tests/classroom/messages.json lists student messages and what ParseStudentMessage decides on each
(class_message_test proves the parser does so). Here every case's schema verdict — the message read
as the parser reads it (RFC 8259 JSON, no duplicate key, at most 64 levels of nesting, NUL refused,
one UTF-8 byte-order mark dropped), then validated against schemas/class-message-v1.schema.json —
must be the same, save where the case says why not in "beyond_schema" (the byte limit).
With SERVER_MESSAGES_PROGRAM (tests/classroom/server_messages_main.cpp), every message the server
writes (one per line on its output) must be valid against the schema's $defs/server_message.
Uses Debian's python3-jsonschema.
"""
import json
import math
import pathlib
import subprocess
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
    return x


def parse_constant(name):
    raise Refused(f"{name} is not JSON")


def check_tree(v, depth=1):
    if isinstance(v, (list, dict)):
        if depth > MAX_DEPTH:
            raise Refused("nesting deeper than 64")
        for x in (v.values() if isinstance(v, dict) else v):
            check_tree(x, depth + 1)
    elif isinstance(v, str):
        v.encode("utf-8")


def read(text):
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\0" in text:
        raise Refused("NUL")
    try:
        doc = json.loads(text, object_pairs_hook=no_duplicates, parse_float=parse_float, parse_constant=parse_constant)
        check_tree(doc)
    except (ValueError, UnicodeError, RecursionError) as e:
        raise Refused(str(e)[:120])
    return doc


def case_text(case):
    text = case["text"]
    pad = case.get("pad", 0)
    return text[:1] + " " * pad + text[1:] if pad else text


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    schema = json.loads((root / "schemas" / "class-message-v1.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    student = cls(schema)
    server = cls(dict(schema, **{"$ref": "#/$defs/server_message"}))

    failures = checked = 0
    manifest = json.loads((root / "tests" / "classroom" / "messages.json").read_text(encoding="utf-8"))
    for case in manifest["cases"]:
        checked += 1
        try:
            doc = read(case_text(case))
            errors = list(student.iter_errors(doc))
            schema_ok = not errors
            why = "valid" if schema_ok else f"/{'/'.join(str(x) for x in errors[0].absolute_path)}: {errors[0].message[:100]}"
        except Refused as e:
            schema_ok, why = False, f"not read: {e}"
        parser_ok = bool(case["ok"])
        beyond = case.get("beyond_schema")
        if schema_ok == parser_ok:
            if beyond:
                print(f"FAIL {case['name']}: marked beyond_schema but the schema agrees with the parser")
                failures += 1
            continue
        if schema_ok and not parser_ok and beyond:
            continue
        failures += 1
        print(f"FAIL {case['name']}: parser {'accepts' if parser_ok else 'refuses'} ({case.get('path', '')}: "
              f"{case.get('reason', '')}), schema {'accepts' if schema_ok else 'refuses'} ({why})")

    if len(sys.argv) > 2:
        out = subprocess.run([sys.argv[2]], check=True, capture_output=True, text=True).stdout
        kinds = set()
        for line in out.splitlines():
            checked += 1
            doc = json.loads(line)
            kinds.add(doc.get("kind"))
            errors = list(server.iter_errors(doc))
            if errors:
                failures += 1
                print(f"FAIL server message {line[:120]}: {errors[0].message[:200]}")
        want = {"welcome", "state", "class_full", "refused", "ended"}
        if kinds != want:
            failures += 1
            print(f"FAIL the server's messages are {sorted(kinds)}, expected {sorted(want)}")
    print(f"{checked} messages, {failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
