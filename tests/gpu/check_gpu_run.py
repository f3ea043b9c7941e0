#!/usr/bin/env python3
"""check_gpu_run.py RUN.jsonl STAGES.jsonl [TOL]

Compares the `gpu` values that stagetop recorded (RUN.jsonl, its --record
stream) with what the job said at each stage (STAGES.jsonl, printed by
torch_stages.py): torch.cuda.memory_reserved() plus the CUDA context size,
and nvidia-smi's used_memory for the job's pid.

The recorded series is cut into plateaus (runs of one value lasting at least
0.5 s).  Stage k must match a plateau, in order; a value agrees when it is
within TOL (default 0.05, i.e. 5 %) of the reference.  The context size is
nvidia-smi's figure minus memory_reserved() at the first stage.  Prints a
table and a JSON summary line; exits 1 when something disagrees.
"""
import json
import sys

MiB = 1 << 20


def load(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def plateaus(samples, min_s=0.5):
    runs = []  # [value, t_start, t_end, n]
    for s in samples:
        if "gpu" not in s:
            continue
        g, t = s["gpu"], s["t"]
        if runs and runs[-1][0] == g:
            runs[-1][2] = t
            runs[-1][3] += 1
        else:
            runs.append([g, t, t, 1])
    return [r for r in runs if r[2] - r[1] >= min_s]


def main():
    run, stages_path = sys.argv[1], sys.argv[2]
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
    recs = load(run)
    samples = [r for r in recs if r.get("type") == "sample"]
    stages = [r for r in load(stages_path) if "stage" in r]
    with_gpu = [s for s in samples if "gpu" in s]
    print(f"samples: {len(samples)}, with gpu: {len(with_gpu)}, stages: {len(stages)}")
    if not stages or not with_gpu:
        print(json.dumps({"ok": False, "why": "no stages or no gpu samples"}))
        return 1
    ctx = None
    if stages[0].get("smi_used_mib") is not None:
        ctx = stages[0]["smi_used_mib"] * MiB - stages[0]["reserved"]
    pl = plateaus(samples)
    print("plateaus (MiB, t0-t1, n):",
          ", ".join(f"{p[0] / MiB:.1f} ({p[1]:.1f}-{p[2]:.1f}, {p[3]})" for p in pl))
    ok = True
    rows = []
    j = 0
    for st in stages:
        smi = st.get("smi_used_mib")
        ref_smi = smi * MiB if smi is not None else None
        ref_torch = st["reserved"] + ctx if ctx is not None else None
        ref_nvml = st.get("pynvml_used")
        ref = ref_nvml or ref_smi or ref_torch
        # the next plateau (in order) that agrees with nvidia-smi
        match = None
        for k in range(j, len(pl)):
            if ref is not None and abs(pl[k][0] - ref) <= tol * max(ref, 1):
                match, j = pl[k], k  # two stages may share a plateau
                break
        got = match[0] if match else None
        d_smi = (got - ref_smi) / ref_smi if got is not None and ref_smi else None
        d_torch = (got - ref_torch) / ref_torch if got is not None and ref_torch else None
        d_nvml = (got - ref_nvml) / ref_nvml if got is not None and ref_nvml else None
        # reserved + context: the context grows a little as CUDA loads kernels
        # lazily, so within TOL or 64 MiB
        good = got is not None and (ref_torch is None or abs(d_torch) <= tol
                                    or abs(got - ref_torch) <= 64 * MiB)
        ok &= good
        rows.append({"stage": st["stage"], "stagetop_gpu": got, "smi_used": ref_smi,
                     "reserved": st["reserved"], "allocated": st["allocated"],
                     "reserved_plus_ctx": ref_torch, "pynvml_used": ref_nvml, "diff_vs_smi": d_smi, "diff_vs_pynvml": d_nvml,
                     "diff_vs_torch": d_torch, "ok": good})
    fmt = "{:<13} {:>12} {:>12} {:>12} {:>12} {:>14} {:>9} {:>9} {:>9}"
    print(fmt.format("stage", "stagetop MiB", "pynvml MiB", "smi MiB", "reserved MiB",
                     "res+ctx MiB", "vs pynvml", "vs smi", "vs torch"))

    def mib(v):
        return "-" if v is None else f"{v / MiB:.1f}"

    def pct(v):
        return "-" if v is None else f"{100 * v:+.2f}%"

    for r in rows:
        print(fmt.format(r["stage"], mib(r["stagetop_gpu"]), mib(r["pynvml_used"]),
                         mib(r["smi_used"]), mib(r["reserved"]), mib(r["reserved_plus_ctx"]),
                         pct(r["diff_vs_pynvml"]), pct(r["diff_vs_smi"]),
                         pct(r["diff_vs_torch"])))
    for st in stages:
        pr = st.get("probe") or {}
        for d in pr.get("devices", []):
            print(f"probe at {st['stage']}: driver {pr.get('driver')}, GPU {d['index']}: "
                  f"{d['entries']} entries, {d['bytes_written']} bytes written, stride "
                  f"{d['stride']}, one reading {d['reading_us']} us, procs {d['procs']}")
    print(f"context size (smi - reserved at stage 1): {mib(ctx)} MiB")
    print(json.dumps({"ok": ok, "context_bytes": ctx, "rows": rows}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
