#!/usr/bin/env python3
"""warp_table.py — issue 33: where each warpgroup's time goes in a recording's sampled CTAs.

Reads GPU-panel recordings (gpu_record_json.h; warp_phases rows are
[cta, smid, warpgroup, phase, q_tile, kv_tile, start_ns, end_ns], SM-clock cycles converted to ns by each
CTA's own %globaltimer rate) and prints, per recording, a Markdown table: for each warpgroup (producer,
consumer 1, consumer 2) the share of the sampled CTAs' time in each phase, and the CTA span.
Usage: warp_table.py RECORDING.json [...]
"""
import json
import sys
from collections import defaultdict

PHASES = ["tma_issue", "tma_wait", "wgmma_s", "softmax", "wgmma_pv", "write", "idle"]
WG = ["producer", "consumer 1", "consumer 2"]


def table(path):
    run = json.load(open(path))
    rows = run.get("warp_phases", [])
    if not rows:
        return f"{path}: no warp phases recorded\n"
    per = defaultdict(lambda: defaultdict(int))  # warpgroup -> phase -> ns
    span = defaultdict(int)  # cta -> last end
    for cta, _smid, wg, phase, _i, _j, t0, t1 in rows:
        per[wg][phase] += t1 - t0
        span[cta] = max(span[cta], t1)
    prob = run.get("problem", {})
    out = [f"{path}: {run.get('device', {}).get('name', '?')}, kernel {prob.get('kernel', '?')}, N {prob.get('n_q')}, d {prob.get('d')}, "
           f"mask {prob.get('mask')}; {len(span)} sampled CTAs, mean span {sum(span.values()) / len(span) / 1000:.1f} µs (measured, SM clock)\n",
           "| warpgroup | " + " | ".join(PHASES) + " |", "|---" * (len(PHASES) + 1) + "|"]
    for wg in sorted(per):
        total = sum(per[wg].values()) or 1
        out.append(f"| {WG[wg]} | " + " | ".join(f"{100 * per[wg][p] / total:.1f} %" for p in PHASES) + " |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(table(p))
