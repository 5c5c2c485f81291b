#!/usr/bin/env python3
"""make_table.py — turns the JSON lines of cuda_attention_bench / sdpa_bench.py and the ncu CSV
logs into the markdown tables of docs/performance.md ("GPU (H200)"). Usage:
  make_table.py bench.jsonl sdpa.jsonl ncu_dir > tables.md"""
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


def main():
    bench = load(sys.argv[1])
    sdpa = load(sys.argv[2]) if len(sys.argv) > 2 else []
    ncu_dir = sys.argv[3] if len(sys.argv) > 3 else None
    p = print

    fp = {(r["alg"], r["n"], r["d"], r["causal"]): r for r in bench if r["table"] == "fp32"}
    if fp:
        p("### Materialising vs tiled FA-2, fp32 (heads = 65536/N, B_r = B_c = 64)\n")
        p("| N | d | causal | heads | materialising ms | tiled ms | speed-up | tiled TFLOP/s |")
        p("|---:|---:|:---:|---:|---:|---:|---:|---:|")
        for (alg, n, d, c), r in sorted(fp.items(), key=lambda kv: (kv[0][2], kv[0][3], kv[0][1])):
            if alg != "tiled_fa2_fp32":
                continue
            m = fp.get(("materialising_fp32", n, d, c))
            p(f"| {n} | {d} | {'yes' if c else 'no'} | {r['heads']} | {m['ms']:.3f} | {r['ms']:.3f} | "
              f"{m['ms'] / r['ms']:.2f}x | {r['tflops']:.1f} |")
        p()

    tc = {(r["n"], r["d"], r["causal"]): r for r in bench if r["table"] == "tc"}
    sd = {}
    for r in sdpa:
        if r.get("table") == "sdpa":
            sd[(r["backend"], r["n"], r["d"], r["causal"])] = r
    env = [r for r in sdpa if r.get("table") == "sdpa_env"]
    if tc:
        p("### Tensor-core kernel (bf16) vs torch SDPA, TFLOP/s (heads = 65536/N)\n")
        if env:
            p(f"torch {env[0]['torch']}, cuDNN {env[0]['cudnn']}, {env[0]['device']}.\n")
        p("| N | d | causal | ours | SDPA flash | SDPA cuDNN | SDPA efficient | SDPA math | ours / flash |")
        p("|---:|---:|:---:|---:|---:|---:|---:|---:|---:|")
        for (n, d, c), r in sorted(tc.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
            cells = []
            for b in ("flash", "cudnn", "efficient", "math"):
                s = sd.get((b, n, d, c))
                cells.append("—" if not s else ("n/a" if "error" in s else f"{s['tflops']:.0f}"))
            f = sd.get(("flash", n, d, c))
            ratio = f"{100 * r['tflops'] / f['tflops']:.0f} %" if f and "tflops" in f else "—"
            p(f"| {n} | {d} | {'yes' if c else 'no'} | {r['tflops']:.0f} | " + " | ".join(cells) + f" | {ratio} |")
        p()

    ov = [r for r in bench if r["table"] == "overhead"]
    if ov:
        p("### Counters on vs off (tile records + per-tensor tallies in device memory)\n")
        p("| kernel | N | d | causal | off ms | on ms | overhead |")
        p("|---|---:|---:|:---:|---:|---:|---:|")
        for r in ov:
            p(f"| {r['alg']} | {r['n']} | {r['d']} | {'yes' if r['causal'] else 'no'} | {r['ms']:.4f} | "
              f"{r['ms_counters_on']:.4f} | {r['overhead_pct']:+.1f} % |")
        p()
    live = [r for r in bench if r["table"] == "live"]
    if live:
        p("### Counters off / on / live (issue 15)\n")
        p("One harness for the first four columns (buffers allocated once, 2 warm-ups, median of 20 launches): "
          "off = no records, no tallies; on = records and tallies in device memory, read after the kernel; "
          "live = the same kernel while its whole record buffer is copied to pinned host memory on a second "
          "stream, back to back until it ends (GpuRun's transport at its most eager; copies = per kernel); "
          "mapped = issue 6's transport (records in mapped host memory, system fence per 8 records). "
          "Overheads against off. GpuRun columns: the app's live path end to end (fresh buffers and upload "
          "per run), polled back to back and not polled, median of 5; mismatches = live records that differed "
          "from the final read.\n")
        p("| kernel | N | d | heads | causal | off ms | on ms | live ms | mapped ms | on | live | mapped | copies | GpuRun polled ms | GpuRun not polled ms | mismatches |")
        p("|---|---:|---:|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in live:
            p(f"| {r['alg']} | {r['n']} | {r['d']} | {r['heads']} | {'yes' if r['causal'] else 'no'} | {r['ms']:.4f} | "
              f"{r['ms_counters_on']:.4f} | {r['ms_live']:.4f} | {r['ms_live_mapped']:.4f} | {r['on_pct']:+.1f} % | "
              f"**{r['live_pct']:+.1f} %** | {r['mapped_pct']:+.1f} % | {r['copies_per_kernel']:.0f} | "
              f"{r['ms_gpurun_live']:.4f} | {r['ms_gpurun_not_polled']:.4f} | {r['live_mismatches']} |")
        p()

    ours = {(r["alg"], r["n"], r["d"], r["causal"]): r for r in bench if r["table"] == "ncu_ours"}
    if ncu_dir and ours:
        p("### Nsight Compute global-load bytes vs our counters (one launch, one head)\n")
        p("Both tiled kernels move Q_i, K_j and V_j with cp.async (16 B per lane; at N = 4096 every lane of every "
          "cp.async is active and none zero-fills), so ncu's executed cp.async instructions x 32 lanes x 16 B are the "
          "bytes they copied HBM/L2 -> shared memory. Plain global loads (LDG) are left only for the tile-class bytes "
          "(T_c per Q tile). `l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum` is shown as ncu reports it; it includes the "
          "cp.async traffic at a coarser granularity. L2 reads from L1 and DRAM reads are for context (K and V stay in L2).\n")
        p("| kernel | N | d | causal | ours: Q+K+V bytes | ncu cp.async bytes | difference | ncu LDG inst | ncu l1tex ld bytes | L2 reads from L1 | DRAM reads |")
        p("|---|---:|---:|:---:|---:|---:|---:|---:|---:|---:|---:|")
        for path in sorted(glob.glob(os.path.join(ncu_dir, "ncu_*.csv"))):
            tag = os.path.basename(path)[4:-4].split("_")  # alg_n_d_causal
            key = None
            for k in ours:
                if k[0].startswith({"tc": "tensor_core", "tiled": "tiled"}.get(tag[0], tag[0])) and str(k[1]) == tag[1] and str(k[2]) == tag[2] and str(k[3]) == tag[3]:
                    key = k
            if key is None:
                continue
            o = ours[key]
            expect = o["load_bytes"] + o["tile_class_bytes"]
            vals = {}
            rows = [l for l in open(path) if l.startswith('"')]
            extra = path.replace("ncu_", "ncu3_")
            if os.path.exists(extra):
                rows += [l for l in open(extra) if l.startswith('"')][1:]
            for row in csv.DictReader(rows):
                name, unit, val = row.get("Metric Name"), row.get("Metric Unit", ""), row.get("Metric Value", "0")
                try:
                    v = float(val.replace(",", ""))
                except ValueError:
                    continue
                v *= {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}.get(unit, 1)
                vals[name] = v
            ld = vals.get("l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", 0.0)
            ldg = vals.get("smsp__sass_inst_executed_op_global_ld.sum", float("nan"))
            gsts = vals.get("smsp__sass_inst_executed_op_ldgsts.sum", 0.0) * 512
            lts = vals.get("lts__t_sectors_srcunit_tex_op_read.sum", 0.0) * 32
            dram = vals.get("dram__bytes_read.sum", 0.0)
            diff = 100 * (gsts - o["load_bytes"]) / o["load_bytes"] if o["load_bytes"] else 0
            p(f"| {o['alg']} | {o['n']} | {o['d']} | {'yes' if o['causal'] else 'no'} | {o['load_bytes']} | {gsts:.0f} | "
              f"{diff:+.3f} % | {ldg:.0f} | {ld:.0f} | {lts:.0f} | {dram:.0f} |")
        p()


if __name__ == "__main__":
    main()
