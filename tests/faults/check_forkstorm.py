#!/usr/bin/env python3
"""Check a fork storm's record against bounds the workload gives, not stagetop.

usage: check_forkstorm.py RECORD.jsonl WORKLOAD.out

WORKLOAD.out is forkstorm's stdout: "ready PID ANON_KIB RSS_KIB",
"storm CHILDREN SECONDS MAX_AT_ONCE FAILURES MODE", "done PID ANON_KIB".
Every sample: procs <= 1 + the most children that existed at once, and
footprint <= procs x (the root's anonymous memory + slack) -- a child holds
no more than the root (copy-on-write or shared pages) -- and never more than
RAM.  The baseline before the storm and the tail after it are one process
holding the root's memory.  Prints one line of figures on success."""
import json
import sys

SLACK = 2 << 20  # bytes per process: stacks, libc, page tables' own pages


def fail(msg):
    sys.exit(f"check_forkstorm: {msg}")


def main():
    rec, out = sys.argv[1], sys.argv[2]
    w = {}
    for line in open(out):
        f = line.split()
        if f:
            w[f[0]] = f[1:]
    for k in ("ready", "storm", "done"):
        if k not in w:
            fail(f"the workload did not print its {k} line: {w}")
    anon = int(w["ready"][1]) << 10
    rss_root = int(w["ready"][2]) << 10
    children, secs, max_alive = int(w["storm"][0]), float(w["storm"][1]), int(w["storm"][2])
    mem_total = 0
    for line in open("/proc/meminfo"):
        if line.startswith("MemTotal:"):
            mem_total = int(line.split()[1]) << 10
    recs = [json.loads(l) for l in open(rec, "rb").read().split(b"\n") if l.strip()]
    samples = [r for r in recs if r.get("type") == "sample"]
    exits = [r for r in recs if r.get("type") == "event" and r.get("kind") == "exit"]
    if not exits:
        fail("no exit event")
    t_exit = exits[0]["t"]
    if len(samples) < 50:
        fail(f"only {len(samples)} samples")
    # --mode clone: a child shares the root's address space (CLONE_VM), so
    # each reads the root's memory plus the stacks its siblings touched:
    # the workload's stack region, N_STACKS x STACK_SIZE = 256 x 64 KiB.
    # Its VmRSS is the shared mm's, so the stacks count in RSS as well.
    stacks = (256 * 64 << 10) if w["storm"][4] == "clone" else 0
    bound_fp = lambda n: n * (anon + SLACK + stacks)
    bound_rss = lambda n: n * (rss_root + SLACK + stacks)
    for s in samples:
        n, fp, rss = s["procs"], s["footprint"], s["rss"]
        if not (0 <= n <= 1 + max_alive):
            fail(f"procs {n} outside 0..{1 + max_alive} (1 + most children at once): {s}")
        if not (0 <= fp <= bound_fp(max(n, 1)) and fp < mem_total):
            fail(f"footprint {fp} over {max(n, 1)} x {anon + SLACK} (or RAM): {s}")
        if not (0 <= rss <= bound_rss(max(n, 1))):
            fail(f"rss {rss} over {max(n, 1)} x {rss_root + SLACK + stacks}: {s}")
    peak = max(s["procs"] for s in samples)
    if peak < 3:
        fail(f"the storm was not seen: at most {peak} processes in a sample")
    # The baseline starts at the first sample of one process holding the
    # root's memory: before it the workload may still be exec'ing, writing
    # its memory, or timing ten forks (--mode auto's probe, before "ready"),
    # so an early sample can show two processes without being the storm.
    start = next((i for i, s in enumerate(samples)
                  if s["procs"] == 1 and s["footprint"] >= anon * 0.9), None)
    if start is None:
        fail(f"no sample of one process holding the root's {anon} B: {samples[:20]}")
    first_storm = next((i for i in range(start, len(samples)) if samples[i]["procs"] > 1),
                       len(samples))
    base = [s for s in samples[start:first_storm] if s["footprint"] >= anon * 0.9]
    if len(base) < 3:
        fail(f"fewer than 3 baseline samples (one process holding the root's memory) "
             f"before the storm: {samples[:first_storm]}")
    # The last sample or two may show the root as a zombie (it has exited,
    # stagetop has not reaped it yet: one process holding nothing).
    tail = [s for s in samples if t_exit - 1.5 <= s["t"] <= t_exit - 0.3]
    if len(tail) < 5:
        fail(f"only {len(tail)} samples in the 1.5 s before the exit")
    for s in tail:
        if s["procs"] != 1 or not (anon * 0.9 <= s["footprint"] <= anon + SLACK):
            fail(f"after the storm the tree did not settle to 1 process of ~{anon} B: {s}")
    span = samples[-1]["t"] - samples[0]["t"]
    interval = recs[0].get("interval", 0.1)
    expected = span / interval + 1
    print(f"children {children} in {secs:.1f} s ({children / secs:.0f}/s, {w['storm'][4]}), "
          f"at most {max_alive} at once; {len(samples)} samples of {expected:.0f} due "
          f"({len(samples) / expected * 100:.0f}%); peak procs seen {peak}; "
          f"peak footprint {max(s['footprint'] for s in samples) >> 20} MiB "
          f"(bound {bound_fp(1 + max_alive) >> 20} MiB); baseline {len(base)} and tail "
          f"{len(tail)} samples of 1 process")
    if len(samples) < 0.8 * expected:
        fail(f"{len(samples)} samples where {expected:.0f} were due: sampling stalled")


main()
