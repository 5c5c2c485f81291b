"""nccl_probe.py — what NCCL this device machine has, and whether it lets two ranks share one GPU.

Issue 36 (ring attention over NCCL): before a multi-GPU kind is lent, the ring's launcher and code
path are to run with ranks on one GPU if NCCL allows several ranks per device. This tries exactly
that with torch.distributed (one process per rank, both on cuda:0) and prints the outcome. NVLink
multicast stays off in every process (NCCL_NVLS_ENABLE=0 and the torch / NVSHMEM switches).
Usage: python3 bench/gpu/nccl_probe.py [ranks]
"""
import os
import sys

for k, v in {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}.items():
    os.environ[k] = v

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def rank_main(rank, world):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29517")
    torch.cuda.set_device(0)
    try:
        dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", 0))
        t = torch.full((4,), float(rank + 1), device="cuda")
        dist.all_reduce(t)
        torch.cuda.synchronize()
        print(f"rank {rank}: all_reduce on one GPU gave {t.tolist()} (want {world * (world + 1) / 2})", flush=True)
        dist.destroy_process_group()
    except Exception as e:  # the answer we are probing for
        print(f"rank {rank}: NCCL refused ranks sharing a GPU: {type(e).__name__}: {str(e)[:300]}", flush=True)


if __name__ == "__main__":
    world = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    print("torch", torch.__version__, "nccl", torch.cuda.nccl.version(), "gpus", torch.cuda.device_count(), flush=True)
    mp.start_processes(rank_main, args=(world,), nprocs=world, start_method="spawn", join=True)
