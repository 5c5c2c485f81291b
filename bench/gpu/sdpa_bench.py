#!/usr/bin/env python3
"""sdpa_bench.py — torch scaled_dot_product_attention on the H200 with each backend pinned
(flash, cuDNN, efficient, math), bf16, the same N / d / heads / causal grid as
`cuda_attention_bench tc`. Prints JSON lines (table "sdpa"). TFLOP/s = 4*N^2*d*heads, halved
for causal. Median of 20 timed calls after 3 warm-ups, CUDA events. Random inputs, never zeros."""
import json
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
import torch.nn.functional as F

BACKENDS = {
    "flash": SDPBackend.FLASH_ATTENTION,
    "cudnn": SDPBackend.CUDNN_ATTENTION,
    "efficient": SDPBackend.EFFICIENT_ATTENTION,
    "math": SDPBackend.MATH,
}


def time_ms(fn, warmup=3, iters=20):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def main():
    ns = [1024, 2048, 4096, 8192, 16384]
    if len(sys.argv) > 1 and sys.argv[1] == "--quick":
        ns = [4096]
    print(json.dumps({"table": "sdpa_env", "torch": torch.__version__, "device": torch.cuda.get_device_name(0),
                      "cudnn": torch.backends.cudnn.version()}), flush=True)
    for d in (64, 128):
        for causal in (False, True):
            for n in ns:
                heads = max(1, 65536 // n)
                g = torch.Generator(device="cuda").manual_seed(n * 1000 + d)
                q, k, v = (torch.rand(1, heads, n, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1 for _ in range(3))
                flops = 4.0 * n * n * d * heads * (0.5 if causal else 1.0)
                for name, be in BACKENDS.items():
                    if name == "math" and n > 8192:
                        continue  # materialises heads*N^2 in bf16 and fp32: minutes, not milliseconds
                    rec = {"table": "sdpa", "backend": name, "n": n, "d": d, "heads": heads, "causal": int(causal)}
                    try:
                        with sdpa_kernel([be]):
                            ms = time_ms(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal),
                                         iters=5 if name == "math" else 20)
                        rec.update(ms=round(ms, 5), tflops=round(flops / (ms * 1e-3) / 1e12, 3))
                    except Exception as e:  # a backend may refuse a shape; say so in the table
                        rec.update(error=str(e).splitlines()[0][:160])
                    print(json.dumps(rec), flush=True)
                del q, k, v
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
