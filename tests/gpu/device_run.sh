#!/bin/sh
# device_run.sh DIR: check the GPU lane on a real NVIDIA GPU (docs/gpu.md).
# DIR holds stagetop, gpu_once, nvml_probe (built on an x86-64 Linux), lib/
# (libcjson, ncursesw for a machine without them) and the tests/gpu scripts.
# Results go to $OUT (default ./gpu-out): env.txt, once.txt, run.jsonl,
# stages.jsonl, stagetop.err, check.txt.
set -u
D=$(cd "${1:-.gpudev}" && pwd)
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
{
    echo "== uname"; uname -a
    echo "== nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv
    echo "== python/torch"; python3 -c 'import torch, sys; print(sys.version.split()[0], torch.__version__, torch.version.cuda)'
    echo "== glibc"; ldd --version | head -1
    echo "== pkg-config"; pkg-config --list-all 2>/dev/null | grep -E 'ncurses|cjson'
    echo "== ldd stagetop"; ldd "$D/stagetop"
} >"$OUT/env.txt" 2>&1
if ldd "$D/stagetop" | grep -q 'not found'; then
    export LD_LIBRARY_PATH="$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    { echo "== with LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; ldd "$D/stagetop"; } >>"$OUT/env.txt" 2>&1
fi
"$D/gpu_once" 1 >"$OUT/once.txt" 2>&1; echo "gpu_once rc=$?" >>"$OUT/once.txt"
"$D/nvml_probe" 200 >>"$OUT/once.txt" 2>&1

export HOLD=${HOLD:-4} NVML_PROBE="$D/nvml_probe" PYTHONUNBUFFERED=1
"$D/stagetop" --headless --record "$OUT/run.jsonl" --interval 0.1 -- \
    python3 "$D/torch_stages.py" >"$OUT/stages.jsonl" 2>"$OUT/stagetop.err"
echo "stagetop rc=$?" >>"$OUT/stagetop.err"
python3 "$D/check_gpu_run.py" "$OUT/run.jsonl" "$OUT/stages.jsonl" >"$OUT/check.txt" 2>&1
echo "check rc=$?" >>"$OUT/check.txt"
cat "$OUT/env.txt" "$OUT/once.txt" "$OUT/stagetop.err" "$OUT/check.txt"
