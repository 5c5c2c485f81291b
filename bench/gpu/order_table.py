#!/usr/bin/env python3
"""order_table.py — the grid-order A/B of issue 33 from one device call: `hopper_bench grid` run twice in
the same call, once with BW_TILE_ORDER=heads (kernels.h TileGrid: heads fastest under a causal mask) and once
with BW_TILE_ORDER=rows (head-major), plus `sdpa_peer_bench.py`'s SDPA flash and cuDNN.
Prints markdown: causal rows' TFLOP/s for both orders and both our kernels, and the ratios to flash / cuDNN.
Usage: order_table.py HEADS.jsonl ROWS.jsonl SDPA.jsonl"""
import json
import sys


def load(path):
    try:
        return [json.loads(l) for l in open(path) if l.strip().startswith("{")]
    except OSError:
        return []


def main():
    new, old, sdpa = (load(p) for p in sys.argv[1:4])
    key = lambda r: (r["kernel"], r["d"], r["causal"], r["n"])
    a = {key(r): r for r in new if r.get("table") == "peer"}
    b = {key(r): r for r in old if r.get("table") == "peer"}
    s = {(r["backend"], r["d"], r["causal"], r["n"]): r["tflops"] for r in sdpa if r.get("table") == "sdpa_peer"}
    print("| kernel | d | causal | N | rows order | heads order | heads/rows | heads/flash | heads/cuDNN | records+warps (heads) |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for k in sorted(a, key=lambda k: (k[0], -k[1], k[2], k[3])):
        n, o = a[k], b.get(k)
        fl, cu = s.get(("flash", k[1], k[2], k[3])), s.get(("cudnn", k[1], k[2], k[3]))
        f = lambda x: f"{x:.2f}" if x else ""
        print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {o['tflops'] if o else ''} | {n['tflops']} | "
              f"{f(n['tflops'] / o['tflops']) if o else ''} | {f(n['tflops'] / fl) if fl else ''} | {f(n['tflops'] / cu) if cu else ''} | "
              f"{n.get('warps_overhead_pct', 0):+.1f} % |")


if __name__ == "__main__":
    main()
