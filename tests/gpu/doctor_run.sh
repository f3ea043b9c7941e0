#!/bin/sh
# doctor_run.sh DIR: `stagetop doctor` on a real NVIDIA GPU (tests/gpu/README.md).
# DIR holds stagetop (and lib/ with libncursesw/libtinfo for a machine without
# them).  A PyTorch process holds 2 GiB on the GPU; doctor checks it (-p) and
# its own child; the outputs go to $OUT (default ./doctor-out).
set -u
D=$(cd "${1:-.}" && pwd)
O=${OUT:-$PWD/doctor-out}; mkdir -p "$O"
if ldd "$D/stagetop" | grep -q 'not found'; then export LD_LIBRARY_PATH=$D/lib; fi
{ uname -a; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } >"$O/env.txt" 2>&1
python3 -c '
import torch, time
x = torch.empty(2 << 30, dtype=torch.uint8, device="cuda"); x.fill_(1); torch.cuda.synchronize()
print("ready", flush=True); time.sleep(300)' >"$O/torch.out" 2>&1 &
P=$!
i=0; until grep -q ready "$O/torch.out" || [ $i -gt 900 ]; do sleep 0.2; i=$((i+1)); done
nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits >"$O/compute-apps.txt" 2>&1
"$D/stagetop" doctor -p $P >"$O/doctor-p.txt" 2>&1; echo "rc=$?" >>"$O/doctor-p.txt"
"$D/stagetop" doctor -p $P --json >"$O/doctor-p.json" 2>"$O/doctor-p.err"; echo "rc=$?" >>"$O/doctor-p.err"
"$D/stagetop" doctor --json >"$O/doctor-own.json" 2>"$O/doctor-own.err"; echo "rc=$?" >>"$O/doctor-own.err"
kill $P; wait $P 2>/dev/null
cat "$O/env.txt" "$O/compute-apps.txt" "$O/doctor-p.txt" "$O/doctor-p.err" "$O/doctor-own.err"
