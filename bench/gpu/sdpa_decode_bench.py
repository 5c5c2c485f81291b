#!/usr/bin/env python3
"""sdpa_decode_bench.py — torch scaled_dot_product_attention on decode shapes (issue 34), each backend
pinned (flash, efficient, math, cuDNN), bf16, the same grid as `cuda_decode_bench grid`: q_len 1, d = 128,
H_q = 32, GQA 1/4/8 (H_kv = 32/8/4), N = 1k … 128k, B = 1/8/64, shapes with K/V over 8 GiB left out.
GQA: enable_gqa=True where the backend accepts it ("gqa": "enable_gqa"); otherwise K/V expanded to H_q
heads beforehand (repeat_interleave, not timed; "gqa": "expanded"), or "native" when H_q = H_kv.
Figure: GB/s of the un-expanded K/V bytes (2·B·H_kv·N·d·2) per call, so an expanded run pays for its
extra reads. Timing: torch.cuda._sleep spins the GPU while `iters` calls queue, then elapsed/iters
between two events (never one call between two events). Also the D2D copy rate of a 1 GiB buffer
(tensor.copy_), counted as read + write. Prints JSON lines; random inputs, never zeros."""
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = {
    "flash": SDPBackend.FLASH_ATTENTION,
    "efficient": SDPBackend.EFFICIENT_ATTENTION,
    "math": SDPBackend.MATH,
    "cudnn": SDPBackend.CUDNN_ATTENTION,
}
SPIN_CYCLES = 40_000_000  # about 20 ms at 1.98 GHz


def timed(fn, iters=None):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    if iters is None:
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(5):
            fn()
        b.record()
        b.synchronize()
        one = max(a.elapsed_time(b) / 5, 1e-4)
        iters = int(min(2000, max(10, 30.0 / one)))
    torch.cuda._sleep(SPIN_CYCLES)
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(iters):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) / iters, iters


def copy_rate():
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda").fill_(1)
    dst = torch.empty_like(src)
    ms, iters = timed(lambda: dst.copy_(src), iters=20)
    del src, dst
    torch.cuda.empty_cache()
    return {"table": "sdpa_copy", "bytes": n, "ms": round(ms, 5), "gbps_read_write": round(2 * n / (ms * 1e-3) / 1e9, 1)}


def main():
    quick = len(sys.argv) > 1 and sys.argv[1] == "--quick"
    print(json.dumps({"table": "sdpa_env", "torch": torch.__version__, "device": torch.cuda.get_device_name(0),
                      "cudnn": torch.backends.cudnn.version()}), flush=True)
    print(json.dumps(copy_rate()), flush=True)
    ns = [4096, 32768] if quick else [1024, 4096, 16384, 32768, 65536, 131072]
    bs = [1, 8] if quick else [1, 8, 64]
    d, hq = 128, 32
    for group in (1, 4, 8):
        hkv = hq // group
        for bsz in bs:
            for n in ns:
                kv_bytes = 2 * bsz * hkv * n * d * 2
                if kv_bytes > 8 * (1 << 30):
                    continue
                g = torch.Generator(device="cuda").manual_seed(n * 100 + bsz * 10 + group)
                q = torch.rand(bsz, hq, 1, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1
                k = torch.rand(bsz, hkv, n, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1
                v = torch.rand(bsz, hkv, n, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1
                expanded = None
                for name, be in BACKENDS.items():
                    rec = {"table": "sdpa_decode", "backend": name, "n": n, "batch": bsz, "group": group, "hq": hq,
                           "hkv": hkv, "d": d, "q_len": 1, "kv_bytes": kv_bytes}
                    modes = ["native"] if group == 1 else ["enable_gqa", "expanded"]
                    errors = []
                    for mode in modes:
                        try:
                            with sdpa_kernel([be]):
                                if mode == "expanded":
                                    if kv_bytes * group > 32 * (1 << 30):
                                        raise RuntimeError("expanded K/V over 32 GiB, not run")
                                    if expanded is None:
                                        expanded = (k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1))
                                    ke, ve = expanded
                                    fn = lambda: F.scaled_dot_product_attention(q, ke, ve)
                                else:
                                    fn = lambda: F.scaled_dot_product_attention(q, k, v, enable_gqa=(mode == "enable_gqa"))
                                ms, iters = timed(fn)
                            rec.update(gqa=mode, ms=round(ms, 6), iters=iters, kv_gbps=round(kv_bytes / (ms * 1e-3) / 1e9, 1))
                            errors = []
                            break
                        except Exception as e:  # a backend may refuse a shape or GQA; say so
                            errors.append(f"{mode}: {str(e).splitlines()[0][:140]}")
                    if errors:
                        rec.update(error=" | ".join(errors))
                    print(json.dumps(rec), flush=True)
                del q, k, v, expanded
                torch.cuda.empty_cache()
    print(json.dumps(copy_rate()), flush=True)


if __name__ == "__main__":
    main()
