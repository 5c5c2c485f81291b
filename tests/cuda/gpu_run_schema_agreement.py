#!/usr/bin/python3
"""The recording loader and schemas/gpu-run-v1.schema.json agree (issue 33's warp phases included).

Usage: gpu_run_schema_agreement.py REPO_ROOT GPU_RUN_LOAD

Every shipped recording (assets/gpu/*.json) must be accepted by both. Then a small synthetic recording
(2 x 2 tiles, one sampled CTA's warpgroup phases: test data, not a measurement) and mutations of it go
through the loader (GPU_RUN_LOAD, which calls cuda::LoadRecordedRun) and the schema: the verdicts must be
equal, except where a case says "beyond" — a rule the schema cannot state (an index against the
problem's grid or the device's SM count, an end before its start), which only the loader refuses, at
the JSON path the case names. Uses Debian's python3-jsonschema.
"""
import copy
import json
import pathlib
import subprocess
import sys
import tempfile

import jsonschema


def base():
    traffic = {"read_elems": 0, "read_bytes": 0, "write_elems": 0, "write_bytes": 0}
    return {
        "schema_version": 1, "kind": "blockwise_gpu_run",
        "device": {"name": "NVIDIA H200", "sm_count": 132},
        "problem": {"algorithm": "tensor_core_bf16", "kernel": "hopper", "n_q": 128, "n_k": 128, "d": 64, "d_v": 64,
                    "heads": 1, "b_r": 64, "b_c": 64, "mask": "none", "pace_ns": 0},
        "timing": {"kernel_ms": 0.01, "tflops": 1.5, "gbps": 2.5},
        "counters": dict({t: dict(traffic) for t in "QKVSPOL"}, tiles_total=4, tiles_skipped=0, rows_fully_masked=0),
        "t0_ns": 1000,
        "tile_fields": ["q_tile", "kv_tile", "smid", "t_start_ns", "t_end_ns", "bytes_loaded", "bytes_written", "flags", "head"],
        "tiles": [[0, 0, 5, 0, 50, 100, 0, 0, 0], [0, 1, 5, 50, 90, 100, 10, 0, 0],
                  [1, 0, 7, 0, 40, 100, 0, 0, 0], [1, 1, 7, 40, 80, 100, 10, 0, 0]],
        "warp_phase_fields": ["cta", "smid", "warpgroup", "phase", "q_tile", "kv_tile", "t_start_ns", "t_end_ns"],
        "warp_phases": [[0, 5, 0, "tma_issue", 0, 0, 0, 10], [0, 5, 1, "tma_wait", 0, 0, 0, 12],
                        [0, 5, 1, "wgmma_s", 0, 0, 12, 30], [0, 5, 2, "softmax", 0, 1, 30, 44]],
    }


def put(doc, pointer, value):
    parts = pointer.strip("/").split("/")
    cur = doc
    for p in parts[:-1]:
        cur = cur[int(p)] if isinstance(cur, list) else cur[p]
    last = parts[-1]
    if value is DELETE:
        del cur[int(last) if isinstance(cur, list) else last]
    elif isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value
    return doc


DELETE = object()
# (name, pointer, value, expected: "ok" | "refused" | "beyond", the path the loader must name)
CASES = [
    ("synthetic", None, None, "ok", None),
    ("no_kernel", "/problem/kernel", DELETE, "ok", None),
    ("no_phases", "/warp_phases", DELETE, "ok", None),
    ("no_phase_fields", "/warp_phase_fields", DELETE, "ok", None),
    ("empty_phases", "/warp_phases", [], "ok", None),
    ("unknown_key", "/notes", "kept by neither", "ok", None),
    ("kernel_empty", "/problem/kernel", "", "refused", "/problem/kernel"),
    ("kernel_long", "/problem/kernel", "k" * 65, "refused", "/problem/kernel"),
    ("kernel_number", "/problem/kernel", 3, "refused", "/problem/kernel"),
    ("phases_object", "/warp_phases", {"a": 1}, "refused", "/warp_phases"),
    ("phase_short", "/warp_phases/1", [0, 5, 1, "tma_wait", 0, 0, 0], "refused", "/warp_phases/1"),
    ("phase_long", "/warp_phases/1", [0, 5, 1, "tma_wait", 0, 0, 0, 1, 9], "refused", "/warp_phases/1"),
    ("warpgroup_3", "/warp_phases/2/2", 3, "refused", "/warp_phases/2/2"),
    ("phase_unknown", "/warp_phases/2/3", "rescale", "refused", "/warp_phases/2/3"),
    ("phase_number", "/warp_phases/2/3", 3, "refused", "/warp_phases/2/3"),
    ("cta_negative", "/warp_phases/0/0", -1, "refused", "/warp_phases/0/0"),
    ("cta_huge", "/warp_phases/0/0", 1 << 20, "refused", "/warp_phases/0/0"),
    ("smid_1024", "/warp_phases/0/1", 1024, "refused", "/warp_phases/0/1"),
    ("start_string", "/warp_phases/3/6", "30", "refused", "/warp_phases/3/6"),
    ("smid_past_device", "/warp_phases/0/1", 132, "beyond", "/warp_phases/0/1"),
    ("q_tile_past_grid", "/warp_phases/1/4", 2, "beyond", "/warp_phases/1/4"),
    ("kv_tile_past_grid", "/warp_phases/1/5", 2, "beyond", "/warp_phases/1/5"),
    ("ends_before_start", "/warp_phases/3/7", 29, "beyond", "/warp_phases/3/7"),
    ("tile_short", "/tiles/0", [0, 0, 5, 0, 50, 100, 0, 0], "refused", "/tiles/0"),
    ("tile_bytes_33_bits", "/tiles/0/5", 1 << 32, "refused", "/tiles/0/5"),
    ("version_2", "/schema_version", 2, "refused", "/schema_version"),
    ("no_tiles", "/tiles", DELETE, "refused", "/tiles"),
    ("algorithm_unknown", "/problem/algorithm", "hopper", "refused", "/problem/algorithm"),
]


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    loader = sys.argv[2]
    schema = json.loads((root / "schemas" / "gpu-run-v1.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    failures = 0

    def load(paths):
        out = subprocess.run([loader, *map(str, paths)], capture_output=True, text=True, check=True).stdout
        return out.splitlines()

    shipped = sorted((root / "assets" / "gpu").glob("*.json"))
    for path, line in zip(shipped, load(shipped)):
        doc = json.loads(path.read_text(encoding="utf-8"))
        errs = list(validator.iter_errors(doc))
        if not line.startswith("ok ") or errs:
            failures += 1
            print(f"FAIL {path.name}: shipped; loader: {line}; schema: {errs[0].message if errs else 'accepts'}")
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for name, pointer, value, _, _ in CASES:
            doc = base() if pointer is None else put(base(), pointer, value if value is DELETE else copy.deepcopy(value))
            f = pathlib.Path(tmp) / f"{name}.json"
            f.write_text(json.dumps(doc), encoding="utf-8")
            files.append(f)
        for (name, _, _, expected, path), f, line in zip(CASES, files, load(files)):
            loader_ok = line.startswith("ok ")
            schema_ok = validator.is_valid(json.loads(f.read_text(encoding="utf-8")))
            want_loader, want_schema = expected == "ok", expected == "ok" or expected == "beyond"
            bad = []
            if loader_ok != want_loader:
                bad.append(f"loader {'accepts' if loader_ok else 'refuses'} ({line})")
            if schema_ok != want_schema:
                bad.append(f"schema {'accepts' if schema_ok else 'refuses'}")
            if not loader_ok and path and f"{f}: {path}: " not in line:
                bad.append(f"the loader's line does not name {path}: {line}")
            if bad:
                failures += 1
                print(f"FAIL {name}: " + "; ".join(bad))
    print(f"{len(shipped)} shipped recordings, {len(CASES)} cases, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
