#!/usr/bin/env python3
"""sdpa_peer_bench.py — issue 33's peers: torch scaled_dot_product_attention with the flash and cuDNN
backends pinned, bf16, the grid of `hopper_bench grid` (N 1k..16k, d 64 and 128, causal and not,
heads = 65536 / N; `--quick`: N 4096 and 8192). Timing as hopper_bench: torch.cuda._sleep spins the
GPU while about 30 ms of calls (10..2000) queue, then elapsed / calls between two events; 3 warm-ups.
TFLOP/s = 4 N^2 d heads / time, halved for causal. Prints JSON lines (table "sdpa_peer"); random
inputs uniform in (-1, 1), never zeros. `--flex` adds FlexAttention (torch.compile'd flex_attention, a
causal block mask from create_block_mask; compiled once per shape before the warm-ups, compile time not
timed; backend "flex")."""
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}
SPIN_CYCLES = 40_000_000  # about 20 ms at 1.98 GHz


def timed(fn):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(5):
        fn()
    b.record()
    b.synchronize()
    iters = int(min(2000, max(10, 30.0 / max(a.elapsed_time(b) / 5, 1e-4))))
    torch.cuda._sleep(SPIN_CYCLES)
    a.record()
    for _ in range(iters):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) / iters, iters


def flex_fn(q, k, v, causal):
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    global _FLEX
    if "_FLEX" not in globals():
        _FLEX = torch.compile(flex_attention)
    bm = None
    if causal:
        n = q.shape[2]
        bm = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None, n, n, device="cuda")
    return lambda: _FLEX(q, k, v, block_mask=bm)


def main():
    ns = [4096, 8192] if "--quick" in sys.argv else [1024, 2048, 4096, 8192, 16384]
    flex = "--flex" in sys.argv
    print(json.dumps({"table": "sdpa_env", "torch": torch.__version__, "device": torch.cuda.get_device_name(0),
                      "cudnn": torch.backends.cudnn.version()}), flush=True)
    for d in (128, 64):
        for causal in (False, True):
            for n in ns:
                heads = 65536 // n
                g = torch.Generator(device="cuda").manual_seed(n * 1000 + d)
                q, k, v = (torch.rand(1, heads, n, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1 for _ in range(3))
                flops = 4.0 * n * n * d * heads * (0.5 if causal else 1.0)
                for name, be in BACKENDS.items():
                    rec = {"table": "sdpa_peer", "backend": name, "n": n, "d": d, "heads": heads, "causal": int(causal)}
                    try:
                        with sdpa_kernel([be]):
                            ms, iters = timed(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
                        rec.update(ms=round(ms, 5), iters=iters, tflops=round(flops / (ms * 1e-3) / 1e12, 2))
                    except Exception as e:  # a backend may refuse a shape; say so in the table
                        rec.update(error=str(e).splitlines()[0][:160])
                    print(json.dumps(rec), flush=True)
                if flex:
                    rec = {"table": "sdpa_peer", "backend": "flex", "n": n, "d": d, "heads": heads, "causal": int(causal)}
                    try:
                        fn = flex_fn(q, k, v, causal)
                        ms, iters = timed(fn)
                        rec.update(ms=round(ms, 5), iters=iters, tflops=round(flops / (ms * 1e-3) / 1e12, 2))
                    except Exception as e:
                        rec.update(error=str(e).splitlines()[0][:160])
                    print(json.dumps(rec), flush=True)
                del q, k, v
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
