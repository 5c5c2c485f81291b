#!/usr/bin/env python3
"""decode_table.py — the markdown tables of docs/performance.md ("Split-KV decoding on the H200", issue 34)
from one run_decode.sh output folder. Usage: decode_table.py OUT_DIR
Reads decode.jsonl (cuda_decode_bench grid), sdpa_decode.jsonl (sdpa_decode_bench.py), ncu/ours.jsonl and
ncu/ncu_*.csv. GB/s = K/V bytes (2·B·H_kv·N·d·2, un-expanded) per call / time. Copy rate: cudaMemcpy D2D of
1 GiB counted as read + write, the higher of the two measurements (start and end of the grid), so that
"% of copy" is not flattered by a slow copy."""
import csv
import glob
import json
import os
import sys


def load(path):
    out = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    return out


def ncu_values(path):
    """{(launch id, kernel name): {metric: value in base units}}"""
    rows = [l for l in open(path) if l.startswith('"')]
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}
    out = {}
    for row in csv.DictReader(rows):
        try:
            v = float(row.get("Metric Value", "").replace(",", ""))
        except ValueError:
            continue
        key = (int(row.get("ID", "0")), row.get("Kernel Name", ""))
        out.setdefault(key, {})[row["Metric Name"]] = v * scale.get(row.get("Metric Unit", ""), 1)
    return out


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    ours = load(os.path.join(d, "decode.jsonl"))
    sdpa = load(os.path.join(d, "sdpa_decode.jsonl"))
    p = print
    env = next((r for r in ours if r["table"] == "decode_env"), {})
    copies = [r for r in ours if r["table"] == "copy"]
    tcopies = [r for r in sdpa if r["table"] == "sdpa_copy"]
    senv = next((r for r in sdpa if r["table"] == "sdpa_env"), {})
    copy = max(r["gbps_read_write"] for r in copies) if copies else float("nan")
    p(f"Device: {env.get('device', '?')} ({env.get('sm_count', '?')} SMs); torch {senv.get('torch', '?')}, cuDNN {senv.get('cudnn', '?')}.")
    p("Copy rate (1 GiB D2D, read + write): cudaMemcpy " + ", ".join(f"{r['gbps_read_write']:.0f}" for r in copies) +
      " GB/s; torch copy_ " + ", ".join(f"{r['gbps_read_write']:.0f}" for r in tcopies) + f" GB/s. Reference: {copy:.0f} GB/s.\n")

    split = {(r["n"], r["batch"], r["group"]): r for r in ours if r["table"] == "decode" and r["path"] == "split"}
    nosplit = {(r["n"], r["batch"], r["group"]): r for r in ours if r["table"] == "decode" and r["path"] == "nosplit"}
    best, allb = {}, {}
    for r in sdpa:
        if r["table"] != "sdpa_decode":
            continue
        k = (r["n"], r["batch"], r["group"])
        allb.setdefault(k, []).append(r)
        if "kv_gbps" in r and (k not in best or r["kv_gbps"] > best[k]["kv_gbps"]):
            best[k] = r
    p("| N | B | GQA (H_q/H_kv) | S | ours split GB/s | ours no-split GB/s | best SDPA (GQA as) | SDPA GB/s | ours / SDPA | % of copy | counters = model |")
    p("|---:|---:|---|---:|---:|---:|---|---:|---:|---:|:---:|")
    misses_ratio, misses_copy = [], []
    for k in sorted(split, key=lambda k: (k[2], k[1], k[0])):
        r, ns, b = split[k], nosplit.get(k), best.get(k)
        ratio = r["kv_gbps"] / b["kv_gbps"] if b else float("nan")
        pct = 100 * r["kv_gbps"] / copy
        if b and ratio < 0.8:
            misses_ratio.append((k, ratio))
        if k[0] >= 32768 and pct < 70:
            misses_copy.append((k, pct))
        p(f"| {k[0]} | {k[1]} | {k[2]} ({r['hq']}/{r['hkv']}) | {r['splits']} | {r['kv_gbps']:.0f} | "
          f"{ns['kv_gbps'] if ns else float('nan'):.0f} | {b['backend'] + ' (' + b['gqa'] + ')' if b else '—'} | "
          f"{b['kv_gbps'] if b else float('nan'):.0f} | {ratio:.2f} | {pct:.0f} % | "
          f"{'yes' if r['counters_match'] and (not ns or ns['counters_match']) else 'NO'} |")
    p()
    p(f"Goal ≥ 0.8 × best SDPA: missed at {len(misses_ratio)} of {len(split)} shapes" +
      ("" if not misses_ratio else ": " + ", ".join(f"N={k[0]} B={k[1]} G={k[2]} ({x:.2f})" for k, x in misses_ratio)) + ".")
    p(f"Goal ≥ 70 % of copy at N ≥ 32k: missed at {len(misses_copy)} shapes" +
      ("" if not misses_copy else ": " + ", ".join(f"N={k[0]} B={k[1]} G={k[2]} ({x:.0f} %)" for k, x in misses_copy)) + ".\n")

    p("SDPA backends, GB/s of K/V (— refused; the reason in sdpa_decode.jsonl):\n")
    names = ["flash", "efficient", "math", "cudnn"]
    p("| N | B | GQA | " + " | ".join(names) + " |")
    p("|---:|---:|---:|" + "---:|" * len(names))
    for k in sorted(allb, key=lambda k: (k[2], k[1], k[0])):
        cell = {}
        for r in allb[k]:
            cell[r["backend"]] = f"{r['kv_gbps']:.0f} ({r['gqa']})" if "kv_gbps" in r else "—"
        p(f"| {k[0]} | {k[1]} | {k[2]} | " + " | ".join(cell.get(n, "") for n in names) + " |")
    p()

    nc = load(os.path.join(d, "ncu", "ours.jsonl"))
    if nc:
        p("Nsight Compute (first launch of each kernel; `--clock-control none`):\n")
        p("| shape | S | kernel | ours: bytes read | ncu DRAM read | diff | ncu L2 read (from L1) | ours: bytes written | ncu DRAM write | ncu cp.async bytes (incl. zero-fill) | ncu LDG inst |")
        p("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for o in nc:
            paths = glob.glob(os.path.join(d, "ncu", f"ncu_n{o['n']}_b{o['batch']}_g{o['group']}_s*.csv"))
            for path in sorted(paths):
                vals = ncu_values(path)
                split_k = sorted(k for k in vals if "DecodeSplitKernel" in k[1])
                comb_k = sorted(k for k in vals if "DecodeCombineKernel" in k[1])
                is_nosplit = path.endswith("_s1.csv")
                if is_nosplit != (o["splits"] == 1):
                    continue
                shape = f"N={o['n']} B={o['batch']} GQA {o['group']}"
                for ks, name, rd, wr in ((split_k, "split", o["split_kernel_read_bytes"],
                                          o["o_part_write_bytes"] + o["lse_write_bytes"] if o["splits"] > 1 else o["o_write_bytes"]),
                                         (comb_k, "combine", o["combine_read_bytes"], o["o_write_bytes"] if o["splits"] > 1 else 0)):
                    if not ks:
                        continue
                    v = vals[ks[0]]
                    dram = v.get("dram__bytes_read.sum", float("nan"))
                    p(f"| {shape} | {o['splits']} | {name} | {rd} | {dram:.0f} | {100 * (dram - rd) / rd if rd else 0:+.2f} % | "
                      f"{v.get('lts__t_sectors_srcunit_tex_op_read.sum', float('nan')) * 32:.0f} | {wr} | "
                      f"{v.get('dram__bytes_write.sum', float('nan')):.0f} | "
                      f"{v.get('smsp__sass_inst_executed_op_ldgsts.sum', float('nan')) * 512:.0f} | "
                      f"{v.get('smsp__sass_inst_executed_op_global_ld.sum', float('nan')):.0f} |")
        p()


if __name__ == "__main__":
    main()
