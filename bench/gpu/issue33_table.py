#!/usr/bin/env python3
"""issue33_table.py — the peer table of issue 33 from one device call's logs: `hopper_bench grid`
(peer.jsonl: our Hopper and FA-2 kernels, counters off and on; peer_sched0/1.jsonl: the Hopper kernel's
other schedules) and `sdpa_peer_bench.py` (sdpa_peer.jsonl: SDPA flash, cuDNN, FlexAttention), all timed
back to back after a spin. Prints markdown: TFLOP/s per (d, causal, N), the ratios, the counters-on
overhead and whether the counters equal the model, then each of the issue's goals checked against the
rows. Usage: issue33_table.py DIR   (DIR holds the .jsonl files; missing files leave columns empty)"""
import glob
import json
import os
import sys


def load(path):
    rows = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    peer = load(os.path.join(d, "peer.jsonl"))
    sdpa = load(os.path.join(d, "sdpa_peer.jsonl"))
    sched = {}
    for path in sorted(glob.glob(os.path.join(d, "peer_sched*.jsonl"))):
        for r in load(path):
            if r.get("table") == "peer":
                sched[(r["sched"], r["n"], r["d"], r["causal"])] = r
    env = [r for r in peer if r.get("table") == "env"]
    senv = [r for r in sdpa if r.get("table") == "sdpa_env"]
    ours = {(r["kernel"], r["n"], r["d"], r["causal"]): r for r in peer if r.get("table") == "peer"}
    theirs = {(r["backend"], r["n"], r["d"], r["causal"]): r for r in sdpa if r.get("table") == "sdpa_peer" and "tflops" in r}
    if env:
        print(f"ours: {env[0]['device']}, {env[0]['sms']} SMs, Hopper schedule {env[0].get('hopper_sched', '?')}")
    if senv:
        print(f"torch {senv[0]['torch']}, cuDNN {senv[0]['cudnn']}, {senv[0]['device']}")
    print()
    print("| d | causal | N | heads | ours Hopper | ours FA-2 | SDPA flash | cuDNN | Flex | Hopper/flash | Hopper/cuDNN | FA-2/flash | Hopper counters on | records on | records + warps | = model |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|")
    keys = sorted({(k[2], k[3], k[1]) for k in ours}, key=lambda x: (-x[0], x[1], x[2]))

    def tf(dct, k):
        r = dct.get(k)
        return r["tflops"] if r else None

    def fmt(x, p=0):
        return "" if x is None else f"{x:.{p}f}"

    goals = {"515": [], "flash13": [], "causal065": [], "counters2": [], "live3": [], "model": []}
    for dd, c, n in keys:
        h = ours.get(("hopper", n, dd, c))
        f2 = ours.get(("fa2", n, dd, c))
        fl, cu, fx = tf(theirs, ("flash", n, dd, c)), tf(theirs, ("cudnn", n, dd, c)), tf(theirs, ("flex", n, dd, c))
        ht = h["tflops"] if h else None
        r_fl = ht / fl if ht and fl else None
        r_cu = ht / cu if ht and cu else None
        r_f2 = f2["tflops"] / fl if f2 and fl else None
        over = h["counters_overhead_pct"] if h else None
        eq = ("yes" if h["counters_equal_model"] else "**no**") if h else ""
        rec = h.get("records_overhead_pct") if h else None
        wrp = h.get("warps_overhead_pct") if h else None
        print(f"| {dd} | {'yes' if c else 'no'} | {n} | {h['heads'] if h else ''} | {fmt(ht)} | {fmt(f2['tflops'] if f2 else None)} | "
              f"{fmt(fl)} | {fmt(cu)} | {fmt(fx)} | {fmt(r_fl, 2)} | {fmt(r_cu, 2)} | {fmt(r_f2, 2)} | "
              f"{'' if over is None else f'{over:+.1f} %'} | {'' if rec is None else f'{rec:+.1f} %'} | "
              f"{'' if wrp is None else f'{wrp:+.1f} %'} | {eq} |")
        if h:
            if dd == 128 and not c and n >= 4096:
                goals["515"].append((n, ht))
            if r_fl is not None:
                goals["flash13"].append((dd, c, n, r_fl))
            if c and r_cu is not None:
                goals["causal065"].append((dd, n, r_cu))
            goals["counters2"].append((dd, c, n, over))
            if rec is not None:
                goals["live3"].append((dd, c, n, max(rec, wrp if wrp is not None else rec)))
            goals["model"].append(h["counters_equal_model"])
    print()

    def verdict(ok):
        return "**met**" if ok else "**not met**"

    if goals["515"]:
        print(f"- ≥ 515 TFLOP/s at N ≥ 4096, d 128, not causal: {verdict(all(t >= 515 for _, t in goals['515']))} "
              f"({', '.join(f'{n}: {t:.0f}' for n, t in goals['515'])})")
    if goals["flash13"]:
        lo = min(goals["flash13"], key=lambda g: g[3])
        print(f"- ≥ 1.3 × SDPA flash at every N, d 64 and 128: {verdict(all(g[3] >= 1.3 for g in goals['flash13']))} "
              f"(lowest {lo[3]:.2f} at d {lo[0]}, causal {lo[1]}, N {lo[2]})")
    if goals["causal065"]:
        lo = min(goals["causal065"], key=lambda g: g[2])
        print(f"- causal ≥ 0.65 × cuDNN causal: {verdict(all(g[2] >= 0.65 for g in goals['causal065']))} (lowest {lo[2]:.2f} at d {lo[0]}, N {lo[1]})")
    if goals["counters2"]:
        hi = max(goals["counters2"], key=lambda g: g[3])
        print(f"- Hopper counters on ≤ 2 %: {verdict(all(g[3] <= 2 for g in goals['counters2']))} (highest {hi[3]:+.1f} % at d {hi[0]}, causal {hi[1]}, N {hi[2]})")
        if goals["live3"]:
            hi = max(goals["live3"], key=lambda g: g[3])
            print(f"- Hopper records (live) and warp phases on ≤ 3 %: {verdict(all(g[3] <= 3 for g in goals['live3']))} "
                  f"(highest {hi[3]:+.1f} % at d {hi[0]}, causal {hi[1]}, N {hi[2]})")
        print(f"- counters = model at every benchmarked shape: {verdict(all(goals['model']))}")
    if sched:
        print()
        print("| schedule | d | causal | N | TFLOP/s | vs default (2) |")
        print("|---|---|---|---:|---:|---:|")
        for (s, n, dd, c), r in sorted(sched.items(), key=lambda kv: (kv[0][0], -kv[0][2], kv[0][3], kv[0][1])):
            base = ours.get(("hopper", n, dd, c))
            rel = r["tflops"] / base["tflops"] if base else None
            print(f"| {s} | {dd} | {'yes' if c else 'no'} | {n} | {r['tflops']:.0f} | {fmt(rel, 2)} |")


if __name__ == "__main__":
    main()
