#!/usr/bin/env python3
"""torch_stages.py: GPU memory in stages, for checking stagetop's GPU lane on
a real NVIDIA GPU (run it under `stagetop --headless --record F -- python3 ...`).

Stages: a CUDA context with a tiny tensor; +2 GiB; +8 GiB more; both freed
but still cached; empty_cache().  Each stage holds HOLD seconds.  At the
middle of each stage it prints one JSON line to stdout with
torch.cuda.memory_reserved()/memory_allocated() and nvidia-smi's used_memory
for this pid (MiB), so the recorded `gpu` samples can be compared with both.
Where they are there, also pynvml's usedGpuMemory for this pid (bytes; the
nvidia-ml-py package) and the output of tests/gpu/nvml_probe ($NVML_PROBE),
which reports the entry stride that the driver wrote.
"""
import json
import os
import subprocess
import sys
import time

import torch

HOLD = float(os.environ.get("HOLD", "3"))
GiB = 1 << 30
MiB = 1 << 20


def smi_used_mib(pid):
    """nvidia-smi's used_memory (MiB) for pid, None if it is not listed."""
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-compute-apps=pid,used_memory",
             "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 2 and parts[0] == str(pid):
            return int(parts[1])
    return None


def pynvml_used(pid):
    """usedGpuMemory (bytes) of pid on GPU 0 through pynvml, None without it."""
    try:
        import pynvml
        pynvml.nvmlInit()
        try:
            h = pynvml.nvmlDeviceGetHandleByIndex(0)
            for p in pynvml.nvmlDeviceGetComputeRunningProcesses(h):
                if p.pid == pid:
                    return p.usedGpuMemory
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # no pynvml, or NVML refused: no figure
        return None
    return None


def probe():
    path = os.environ.get("NVML_PROBE")
    if not path:
        return None
    try:
        out = subprocess.run([path, "100"], capture_output=True, text=True,
                             timeout=60).stdout
        return json.loads(out)
    except (OSError, ValueError, subprocess.SubprocessError) as e:
        return {"error": str(e)}


def stage(name, t0):
    torch.cuda.synchronize()
    time.sleep(HOLD / 2)
    rec = {
        "stage": name,
        "t": round(time.monotonic() - t0, 3),
        "reserved": torch.cuda.memory_reserved(),
        "allocated": torch.cuda.memory_allocated(),
        "smi_used_mib": smi_used_mib(os.getpid()),
        "pynvml_used": pynvml_used(os.getpid()),
        "probe": probe(),
    }
    print(json.dumps(rec), flush=True)
    time.sleep(HOLD / 2)


def main():
    if not torch.cuda.is_available():
        print(json.dumps({"error": "no CUDA device"}), flush=True)
        return 1
    t0 = time.monotonic()
    print(json.dumps({"pid": os.getpid(), "torch": torch.__version__,
                      "device": torch.cuda.get_device_name(0)}), flush=True)
    x = torch.ones(1, device="cuda")             # creates the CUDA context
    stage("context", t0)
    a = torch.rand(2 * GiB // 4, device="cuda")  # 2 GiB of float32, random
    stage("2GiB", t0)
    b = torch.rand(8 * GiB // 4, device="cuda")  # 8 GiB more
    stage("10GiB", t0)
    del a, b
    stage("freed-cached", t0)
    torch.cuda.empty_cache()
    stage("empty_cache", t0)
    del x
    return 0


if __name__ == "__main__":
    sys.exit(main())
